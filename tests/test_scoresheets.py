"""Real scoresheets as data files: ``tests/data/<ruleset>/*.json``, one test each.

A data file is ``{"description", "source", "sheet", "expect"}`` or, for a sheet the rules
refuse, ``{"description", "source", "sheet", "expect_error": {"entry", "rule", "contains"}}``.
``expect`` is matched as a subset of the score (``totals``, ``lines``, ``status``, ``result``);
see ``tests/data/README.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import RuleViolation, Sheet, find_ruleset, score_sheet

from .conftest import DATA, assert_subset

FILES = sorted(DATA.glob("*/*.json"))


def test_there_are_scoresheets() -> None:
    assert FILES, "no scoresheets under tests/data/"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scoresheet(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    sheet = Sheet.model_validate(case["sheet"])
    assert sheet.ruleset.id == path.parent.name, "a data file lives in the folder of its ruleset"
    find_ruleset(sheet.ruleset.id)
    if "expect_error" in case:
        expected = case["expect_error"]
        with pytest.raises(RuleViolation) as info:
            score_sheet(sheet)
        error = info.value
        if "entry" in expected:
            assert error.entry == expected["entry"], str(error)
        if "rule" in expected:
            assert expected["rule"] in error.rule, str(error)
        if "contains" in expected:
            assert expected["contains"] in str(error), str(error)
        return
    score = score_sheet(sheet).json_dict()
    assert_subset(case["expect"], score)
