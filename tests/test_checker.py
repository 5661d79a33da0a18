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


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(SHEETS)), data=st.data())
def test_then_gives_the_verdict_of_check_and_scores_like_a_full_replay(name: str, data: st.DataObject) -> None:
    """``then`` (the store's append: the entry checked and stepped once) refuses what ``check``
    refuses, with the same message, and otherwise scores the longer sheet as a full replay does, and
    advances further as a checker made the long way."""
    sheet = SHEETS[name]
    ruleset = find_ruleset(sheet.ruleset.id)
    prefix = sheet.model_copy(update={"entries": sheet.entries[: data.draw(st.integers(0, len(sheet.entries)))]})
    games = [e for e in sheet.entries if e.kind not in (CORRECTION, VOID)]
    entry = data.draw(st.sampled_from(games))
    candidate = Entry(kind=entry.kind, data=entry.data)
    expected = verdict(prefix, candidate)
    try:
        after = ruleset.checker(prefix).then(candidate)
    except RuleViolation as error:
        assert str(error) == expected
        return
    assert expected is None
    assert after.sheet.entries == (*prefix.entries, candidate)
    assert after.score.json_dict() == ruleset.score(after.sheet).json_dict()
    for more in games[:3]:
        following = Entry(kind=more.kind, data=more.data)
        shortcut, long_way = after.refusal(following), ruleset.checker(after.sheet).refusal(following)
        assert (None if shortcut is None else str(shortcut)) == (None if long_way is None else str(long_way))


def test_a_prefix_read_again_from_the_file_advances_by_equality() -> None:
    """The store compares the log it reads from the file (new objects, equal entries) with the one
    its checker holds: equal entries advance the checker; an entry that differs does not."""
    sheet = SHEETS["schafkopf-turnier"]
    ruleset = find_ruleset(sheet.ruleset.id)
    first = sheet.model_copy(update={"entries": sheet.entries[:10]})
    read_again = Sheet.from_json(sheet.model_copy(update={"entries": sheet.entries[:12]}).to_json())
    assert read_again.entries[:10] == first.entries and read_again.entries[0] is not first.entries[0]
    advanced = ruleset.checker(first).advanced(read_again)
    assert advanced is not None
    assert advanced.score.json_dict() == ruleset.score(read_again).json_dict()
    same = Sheet.from_json(read_again.to_json())
    assert ruleset.checker(same, advanced) is advanced  # the same sheet read once more: nothing to step
    assert advanced.sheet == same
    changed = read_again.entries[3].model_copy(update={"data": {**read_again.entries[3].data, "gewonnen": True}})
    other = read_again.model_copy(update={"entries": (*read_again.entries[:3], changed, *read_again.entries[4:])})
    assert other.entries[3] != first.entries[3]
    assert ruleset.checker(first).advanced(other) is None


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
