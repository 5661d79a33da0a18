"""The entry checker gives the same verdicts and scores as checking and scoring the long way.

An entry panel asks about many candidates per sheet, and the app rescores after every game from
the state after the previous one; both are shortcuts that must never change what the rules say.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, RuleViolation, Sheet, engine, find_ruleset
from scoring.model import CORRECTION, VOID

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
SHEETS = {path.stem: Sheet.from_json(path.read_bytes()) for path in sorted(EXAMPLES.glob("*.json")) if ".score" not in path.name}


def verdict(sheet: Sheet, entry: Entry) -> str | None:
    try:
        find_ruleset(sheet.ruleset.id).check(sheet, entry)
    except RuleViolation as error:
        return str(error)
    return None


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(SHEETS)), data=st.data())
def test_a_candidate_gets_the_same_verdict_as_check(name: str, data: st.DataObject) -> None:
    sheet = SHEETS[name]
    prefix = sheet.model_copy(update={"entries": sheet.entries[: data.draw(st.integers(0, len(sheet.entries)))]})
    checker = find_ruleset(sheet.ruleset.id).checker(prefix)
    games = [e for e in sheet.entries if e.kind not in (CORRECTION, VOID)]
    for entry in data.draw(st.lists(st.sampled_from(games), min_size=1, max_size=6)):
        candidate = Entry(kind=entry.kind, data=entry.data)
        refusal = checker.refusal(candidate)
        assert (None if refusal is None else str(refusal)) == verdict(prefix, candidate)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(SHEETS)), data=st.data())
def test_advancing_the_checker_scores_like_a_full_replay(name: str, data: st.DataObject) -> None:
    sheet = SHEETS[name]
    ruleset = find_ruleset(sheet.ruleset.id)
    cut = data.draw(st.integers(0, len(sheet.entries)))
    more = data.draw(st.integers(cut, len(sheet.entries)))
    first = sheet.model_copy(update={"entries": sheet.entries[:cut]})
    later = sheet.model_copy(update={"entries": sheet.entries[:more]})
    advanced = ruleset.checker(later, ruleset.checker(first))
    assert advanced.score.json_dict() == ruleset.score(later).json_dict()


def test_a_correction_among_the_new_entries_replays_the_whole_log() -> None:
    sheet = SHEETS["watten-turnier"]
    ruleset = find_ruleset(sheet.ruleset.id)
    first = sheet.model_copy(update={"entries": sheet.entries[:3]})
    fixed = first.with_entry(Entry(kind="correction", target=1, replacement={"kind": "game", "data": {"winner": "B", "value": 2}}))
    before = ruleset.checker(first)
    assert before.advanced(fixed) is None
    assert ruleset.checker(fixed, before).score.json_dict() == ruleset.score(fixed).json_dict()


def test_a_full_sheet_is_refused_by_the_checker_as_by_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit of entries a sheet holds gives the same refusal on both ways (the store checks the
    next game with the checker, issue 24)."""
    sheet = SHEETS["watten-turnier"]
    prefix = sheet.model_copy(update={"entries": sheet.entries[:5]})
    monkeypatch.setattr(engine, "MAX_ENTRIES", 5)
    candidate = Entry(kind=sheet.entries[5].kind, data=sheet.entries[5].data)
    refusal = find_ruleset(sheet.ruleset.id).checker(prefix).refusal(candidate)
    assert refusal is not None and str(refusal) == verdict(prefix, candidate)
    assert refusal.rule == "Blatt voll"
