"""The shared engine: the log with corrections, voids and close; registry; sheet model."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import pytest
from pydantic import ValidationError

from scoring import Entry, Participant, Replacement, RuleViolation, Sheet, UnknownRuleset, all_rulesets, find_ruleset
from scoring.engine import _fork, effective_entries

WATTEN = find_ruleset("watten-turnier")


def sheet_with(*entries: Entry) -> Sheet:
    teams = [Participant(id="A", name="Sautreiber", start_number=1), Participant(id="B", name="Kartlbrüder", start_number=2)]
    return WATTEN.new_sheet(teams).model_copy(update={"entries": entries})


def game(winner: str, value: int = 2) -> Entry:
    return Entry(kind="game", data={"winner": winner, "value": value})


def test_find_ruleset_raises_value_error_for_unknown_names() -> None:
    with pytest.raises(ValueError, match="Unbekanntes Regelwerk 'skat'"):
        find_ruleset("skat")
    assert issubclass(UnknownRuleset, ValueError)
    assert "watten-turnier" in {r.id for r in all_rulesets()}


def test_rule_violation_is_a_value_error_naming_entry_and_rule() -> None:
    error = RuleViolation("Regel 8 (gspannt)", "keine 4").at_entry(7)
    assert isinstance(error, ValueError)
    assert str(error) == "Eintrag 7: Regel 8 (gspannt): keine 4"


def test_correction_replaces_its_target_and_keeps_the_trail() -> None:
    sheet = sheet_with(game("A", 4), game("B"), Entry(kind="correction", target=1, replacement=Replacement(kind="game", data={"winner": "B", "value": 3})))
    score = WATTEN.score(sheet)
    assert [line.entry for line in score.lines] == [1, 2]
    assert score.lines[0].points == {"A": 0, "B": 3} and score.lines[0].corrected_by == (3,)
    assert score.totals == {"A": 0, "B": 5}


def test_latest_correction_wins() -> None:
    fix = lambda v: Entry(kind="correction", target=1, replacement=Replacement(kind="game", data={"winner": "A", "value": v}))  # noqa: E731
    score = WATTEN.score(sheet_with(game("A"), fix(3), fix(5)))
    assert score.totals == {"A": 5, "B": 0} and score.lines[0].corrected_by == (2, 3)


def test_void_removes_the_entry_from_the_score_but_not_from_the_log() -> None:
    sheet = sheet_with(game("A", 4), game("B"), Entry(kind="void", target=1, reason="doppelt eingetragen"))
    score = WATTEN.score(sheet)
    assert [line.entry for line in score.lines] == [2] and score.totals == {"A": 0, "B": 2}
    assert len(sheet.entries) == 3


@pytest.mark.parametrize(
    "bad, message",
    [
        (Entry(kind="void", target=9), "gibt es nicht"),
        (Entry(kind="void", target=3), "gibt es nicht"),
    ],
)
def test_corrections_must_target_an_earlier_game_or_event(bad: Entry, message: str) -> None:
    with pytest.raises(RuleViolation, match=message) as info:
        WATTEN.score(sheet_with(game("A"), game("B"), bad))
    assert info.value.entry == 3


def test_a_voided_entry_cannot_be_voided_or_corrected_again() -> None:
    with pytest.raises(RuleViolation, match="bereits gestrichen"):
        WATTEN.score(sheet_with(game("A"), Entry(kind="void", target=1), Entry(kind="void", target=1)))


def test_a_correction_that_breaks_a_later_entry_is_refused() -> None:
    # A at 12, B wins a 4; correcting A's third game to 3 makes A gspannt, so that 4 is no longer possible.
    entries = [game("A", 5), game("A", 5), game("A", 2), game("B", 4)]
    fix = Entry(kind="correction", target=3, replacement=Replacement(kind="game", data={"winner": "A", "value": 3}))
    with pytest.raises(RuleViolation) as info:
        WATTEN.score(sheet_with(*entries, fix))
    assert info.value.entry == 4 and info.value.rule.startswith("Regel 8")


def test_entry_shape_is_checked() -> None:
    with pytest.raises(ValidationError):
        Entry(kind="void")
    with pytest.raises(ValidationError):
        Entry(kind="game", target=1)
    with pytest.raises(ValidationError):
        Entry(kind="correction", target=1)
    with pytest.raises(ValidationError):
        Entry(kind="Game!")


def test_close_signs_the_sheet_and_only_corrections_follow() -> None:
    # Mid-Durchgang, so Watten wants the Turnierleitung's note (Regel 11) to close.
    closed = sheet_with(game("A"), Entry(kind="close", data={"signed_by": "Sepp", "override": "Abbruch"}))
    score = WATTEN.score(closed)
    assert score.status.closed and score.status.finished
    assert score.lines[-1].explanation[0].text == "Abgeschlossen und unterschrieben von Sepp"
    with pytest.raises(RuleViolation, match="abgeschlossen") as info:
        WATTEN.check(closed, game("B"))
    assert info.value.entry == 3
    corrected = closed.with_entry(Entry(kind="correction", target=1, replacement=Replacement(kind="game", data={"winner": "B", "value": 2})))
    assert WATTEN.score(corrected).totals == {"A": 0, "B": 2}
    reopened = closed.with_entry(Entry(kind="void", target=2, reason="falsch unterschrieben"))
    assert not WATTEN.score(reopened).status.closed
    WATTEN.check(reopened, game("B"))


def test_close_needs_a_signature() -> None:
    with pytest.raises(RuleViolation, match="signed_by"):
        WATTEN.check(sheet_with(), Entry(kind="close", data={}))


def test_unknown_entry_kind_is_refused_with_the_known_ones() -> None:
    with pytest.raises(RuleViolation, match="'solo' gibt es bei Watten"):
        WATTEN.check(sheet_with(), Entry(kind="solo"))


def test_invalid_data_gets_a_german_message() -> None:
    with pytest.raises(RuleViolation, match="Spielwert muss eine ganze Zahl sein, nicht 'viel'"):
        WATTEN.check(sheet_with(), Entry(kind="game", data={"winner": "A", "value": "viel"}))
    with pytest.raises(RuleViolation, match=r"Gewinner fehlt \(Feld 'winner'\)"):
        WATTEN.check(sheet_with(), Entry(kind="game", data={}))


def test_sheet_of_another_or_newer_ruleset_is_refused() -> None:
    sheet = sheet_with()
    newer = sheet.model_copy(update={"ruleset": sheet.ruleset.model_copy(update={"version": 99})})
    with pytest.raises(RuleViolation, match="Version 99"):
        WATTEN.score(newer)


def test_participants_must_be_unique() -> None:
    with pytest.raises(ValidationError, match="eindeutig"):
        Sheet(ruleset=WATTEN.ref(), participants=(Participant(id="A", name="x"), Participant(id="A", name="y")))


def test_effective_entries_of_an_empty_log() -> None:
    assert effective_entries(()) == []


def test_a_closed_sheet_names_no_dealer() -> None:
    """A closed sheet is finished: nothing more is dealt, so ``status.dealer`` is None for every
    ruleset, also after a close mid-round with the organizer's note."""
    from .conftest import ROOT

    example = Sheet.from_json((ROOT / "docs" / "examples" / "doppelkopf-haus.json").read_bytes())
    ruleset = find_ruleset(example.ruleset.id)
    early_close = Entry(kind="close", data={"signed_by": "Emil", "override": "Turnierleitung: Abbruch wegen Zeit"})
    closed = example.model_copy(update={"entries": (example.entries[0], early_close)})
    status = ruleset.score(closed).status
    assert status.closed and status.finished and status.dealer is None
    assert not any(message.startswith("Es gibt") for message in status.messages), status.messages
    assert status.messages[0] == "Runde vorzeitig abgeschlossen nach 1 von 20 Spielen (Regel 1, mit Vermerk)"


def test_a_sheet_of_a_newer_format_is_refused() -> None:
    """docs/sheet-format.md: ``format_version`` is raised when the format changes, so a sheet
    written in a newer format must not be read as version 1 (it used to be accepted as is)."""
    text = sheet_with(game("A")).model_dump(mode="json") | {"format_version": 2}
    with pytest.raises(ValidationError, match="Format-Version 2"):
        Sheet.model_validate(text)
    with pytest.raises(ValidationError):
        Sheet.model_validate(text | {"format_version": 0})


@dataclass(frozen=True)
class _Result:
    points: int


@dataclass
class _Bummerl:
    stand: dict[str, int]
    games: list[int] = field(default_factory=list)


@dataclass
class _State:
    teams: tuple[str, str]
    open: _Bummerl
    done: list[_Result]
    seen: set[str]
    by_name: OrderedDict[str, list[int]]


def test_a_forked_state_changes_without_touching_the_original() -> None:
    """``_fork`` (an entry panel tries every choice on a fork of the state): containers and non-frozen
    dataclasses are copied all the way down, frozen values shared; changing the fork leaves the
    original as it was, also for a second value of the same classes (the plan is kept per class)."""
    for number in (1, 2):
        original = _State(
            teams=("A", "B"),
            open=_Bummerl(stand={"A": number, "B": 0}, games=[number]),
            done=[_Result(points=2)],
            seen={"A"},
            by_name=OrderedDict(A=[1]),
        )
        twin = _fork(original)
        assert twin == original and twin is not original
        assert twin.open is not original.open and twin.open.stand is not original.open.stand
        assert twin.done is not original.done and twin.done[0] is original.done[0]  # frozen: shared
        assert twin.teams is original.teams
        twin.open.stand["A"] += 5
        twin.open.games.append(9)
        twin.done.append(_Result(points=3))
        twin.seen.add("B")
        twin.by_name["A"].append(2)
        assert original == _State(
            teams=("A", "B"),
            open=_Bummerl(stand={"A": number, "B": 0}, games=[number]),
            done=[_Result(points=2)],
            seen={"A"},
            by_name=OrderedDict(A=[1]),
        )


def test_entry_data_validated_once_scores_as_validated_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entry data of the same form is validated once per run of the process (``_validated``, issue 24):
    every example sheet scores the same with that memory as without it, data that is refused is refused
    again on the next sheet, and a value's type is part of what is remembered."""
    import json

    from scoring import engine, score_sheet

    from .conftest import ROOT

    paths = sorted(path for path in (ROOT / "docs" / "examples").glob("*.json") if not path.name.endswith(".score.json"))
    sheets = [Sheet.from_json(path.read_bytes()) for path in paths]
    assert len(sheets) >= 5
    remembered = [json.dumps(score_sheet(sheet).json_dict()) for sheet in sheets]
    assert engine._validated.cache_info().currsize
    monkeypatch.setattr(engine, "_data_key", lambda raw: None)
    assert [json.dumps(score_sheet(sheet).json_dict()) for sheet in sheets] == remembered
    monkeypatch.undo()

    valid = sheet_with(game("A", 3))
    refused = sheet_with(game("A", 3), Entry(kind="game", data={"winner": "A", "value": 99}))
    for _ in range(2):
        assert WATTEN.score(valid).totals == {"A": 3, "B": 0}
        with pytest.raises(RuleViolation, match="Eintrag 2"):
            WATTEN.score(refused)
    assert engine._data_key({"winner": "A", "value": True}) != engine._data_key({"winner": "A", "value": 1})
    assert engine._data_key({"winner": "A", "value": 3.0}) is None
    assert engine._data_key({"winner": ["A"]}) is None
