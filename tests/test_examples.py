"""``docs/examples/<ruleset>.json`` are complete sheets; ``<ruleset>.score.json`` is their score.

The golden file is what ``tischblock score docs/examples/<ruleset>.json`` prints, so the docs
show real output. Regenerate one with ``tischblock score docs/examples/X.json > docs/examples/X.score.json``
after checking the change by hand.
"""

from __future__ import annotations

import json

import pytest

from scoring import Sheet, all_rulesets, score_sheet

from .conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples"


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_every_ruleset_has_an_example_with_its_score(ruleset: str) -> None:
    sheet_path = EXAMPLES / f"{ruleset}.json"
    golden_path = EXAMPLES / f"{ruleset}.score.json"
    assert sheet_path.exists(), f"{sheet_path} is missing"
    sheet = Sheet.from_json(sheet_path.read_bytes())
    assert sheet.ruleset.id == ruleset
    score = score_sheet(sheet).json_dict()
    assert golden_path.exists(), f"{golden_path} is missing"
    assert json.loads(golden_path.read_text(encoding="utf-8")) == score


def test_examples_are_only_for_registered_rulesets() -> None:
    known = {r.id for r in all_rulesets()}
    for path in EXAMPLES.glob("*.json"):
        stem = path.name.removesuffix(".score.json").removesuffix(".json")
        assert stem in known, f"{path.name} belongs to no registered ruleset"
