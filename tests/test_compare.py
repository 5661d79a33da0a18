"""The comparison of a table's two sheets (Watten, Regel 5: each team keeps its own list)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Entry, Participant, RuleViolation, Sheet
from scoring.compare import compare_sheets

from .conftest import ROOT

EXAMPLE = Sheet.from_json((ROOT / "docs" / "examples" / "watten-turnier.json").read_bytes())


def team_b_sheet(sheet: Sheet = EXAMPLE, **changes: Any) -> Sheet:
    """The other team's sheet of the example table: game 5 written right the first time (no correction)."""
    entries = [entry for entry in sheet.entries if entry.kind != "correction"]
    entries[4] = Entry(kind="game", data={"winner": "B", "value": 3})
    context = sheet.context.model_copy(update={"written_by": "B"})
    return sheet.model_copy(update={"entries": tuple(entries), "context": context, **changes})


def with_game(sheet: Sheet, number: int, **data: Any) -> Sheet:
    entries = list(sheet.entries)
    entries[number - 1] = Entry(kind="game", data=data)
    return sheet.model_copy(update={"entries": tuple(entries)})


def first(sheet: Sheet, count: int) -> Sheet:
    """The sheet with only its first ``count`` entries (a table still playing)."""
    return sheet.model_copy(update={"entries": sheet.entries[:count]})


def test_a_corrected_game_agrees_with_the_same_game_written_right() -> None:
    result = compare_sheets(EXAMPLE, team_b_sheet())
    assert result.agree
    assert result.games_compared == 25
    assert result.first_difference is None
    assert result.message == "Die Blätter stimmen überein (25 Spiele)"


def test_one_changed_game_is_named_with_both_sheets_points() -> None:
    result = compare_sheets(EXAMPLE, with_game(team_b_sheet(), 7, winner="A", value=3))
    assert not result.agree
    assert result.first_difference == 7
    assert result.message == (
        "Unterschied beim 7. Spiel: Blatt von Die Sautreiber: Die Sautreiber +2; Blatt von Kartlbrüder Wörgl: Die Sautreiber +3"
    )


def test_a_game_won_by_the_other_team_is_told_apart() -> None:
    result = compare_sheets(with_game(first(team_b_sheet(), 4), 1, winner="B"), first(EXAMPLE, 4))
    assert result.first_difference == 1
    assert "Blatt von Kartlbrüder Wörgl: Kartlbrüder Wörgl +2; Blatt von Die Sautreiber: Die Sautreiber +2" in result.message


def test_a_sheet_that_is_behind_differs_where_it_stops() -> None:
    behind = first(team_b_sheet(), 10)
    result = compare_sheets(EXAMPLE, behind)
    assert not result.agree
    assert result.games_compared == 10
    assert result.first_difference == 11
    assert result.message == (
        "Unterschied beim 11. Spiel: Blatt von Die Sautreiber hat 25 Spiele, Blatt von Kartlbrüder Wörgl 10; "
        "die ersten 10 stimmen überein"
    )


def test_participants_are_matched_by_startnummer_not_by_the_phones_ids() -> None:
    renamed = tuple(p.model_copy(update={"id": "X" if p.id == "A" else "Y"}) for p in EXAMPLE.participants)
    other = team_b_sheet()
    entries = tuple(
        e.model_copy(
            update={"data": {**e.data, **({"winner": {"A": "X", "B": "Y"}[e.data["winner"]]} if "winner" in e.data else {})}}
        )
        for e in other.entries
    )
    entries = tuple(
        e.model_copy(update={"data": {**e.data, "team": {"A": "X", "B": "Y"}[e.data["team"]]}}) if "team" in e.data else e
        for e in entries
    )
    other = other.model_copy(
        update={"participants": renamed, "entries": entries, "context": other.context.model_copy(update={"written_by": "Y"})}
    )
    assert compare_sheets(EXAMPLE, other).agree


def test_sheets_of_other_teams_are_not_comparable() -> None:
    strangers = (
        Participant(id="A", name="Die Sautreiber", start_number=12),
        Participant(id="B", name="Stubnhocker", start_number=9),
    )
    result = compare_sheets(EXAMPLE, team_b_sheet(participants=strangers))
    assert not result.agree
    assert result.games_compared == 0
    assert result.first_difference is None
    assert result.message.startswith("Die Blätter sind nicht vergleichbar")


def test_sheets_without_a_writer_are_named_first_and_second() -> None:
    anonymous = EXAMPLE.model_copy(update={"context": EXAMPLE.context.model_copy(update={"written_by": None})})
    other = with_game(first(team_b_sheet(), 4), 2, winner="B", value=2)
    other = other.model_copy(update={"context": anonymous.context})
    message = compare_sheets(first(anonymous, 4), other).message
    assert message.startswith(
        "Unterschied beim 2. Spiel: erstes Blatt: Kartlbrüder Wörgl +3; zweites Blatt: Kartlbrüder Wörgl +2"
    )


def test_a_sheet_that_breaks_its_rules_is_refused_not_compared() -> None:
    broken = with_game(team_b_sheet(), 3, winner="Z")
    with pytest.raises(RuleViolation, match="Eintrag 3"):
        compare_sheets(EXAMPLE, broken)


@given(st.integers(min_value=0, max_value=25), st.integers(min_value=0, max_value=25))
def test_prefixes_agree_exactly_when_equally_long(cut_a: int, cut_b: int) -> None:
    full = team_b_sheet()
    a, b = first(full, cut_a), first(full, cut_b)
    there, back = compare_sheets(a, b), compare_sheets(b, a)
    assert there.agree == back.agree == (cut_a == cut_b)
    assert there.first_difference == back.first_difference == (None if cut_a == cut_b else min(cut_a, cut_b) + 1)
    assert there.games_compared == min(cut_a, cut_b)


def test_the_difference_is_named_as_the_players_count_the_games() -> None:
    """A Bscheißn (Regel 10) after the 6th game is a line of both sheets but no game: the 8th line is
    the "7. Spiel" on the phones' Tischliste, and the comparison says so, never "Spiel 8"."""
    theirs = first(team_b_sheet(), 6).with_entry(Entry(kind="betrug", data={"cheater": "A"}))
    ours = theirs.model_copy(update={"context": EXAMPLE.context})
    result = compare_sheets(
        ours.with_entry(Entry(kind="game", data={"winner": "A", "value": 2})),
        theirs.with_entry(Entry(kind="game", data={"winner": "B", "value": 2})),
    )
    assert result.first_difference == 8
    assert result.message == (
        "Unterschied beim 7. Spiel: Blatt von Die Sautreiber: Die Sautreiber +2; Blatt von Kartlbrüder Wörgl: Kartlbrüder Wörgl +2"
    )
    behind = compare_sheets(theirs, ours.with_entry(Entry(kind="game", data={"winner": "A", "value": 2})))
    assert behind.message == (
        "Unterschied beim 7. Spiel: Blatt von Die Sautreiber hat 7 Spiele, Blatt von Kartlbrüder Wörgl 6; die ersten 6 stimmen überein"
    )
    # where one sheet has a game and the other the Bscheißn, both names are given
    crossed = compare_sheets(first(ours, 6).with_entry(Entry(kind="game", data={"winner": "A", "value": 2})), theirs)
    assert crossed.message.startswith("Unterschied beim 7. Spiel (Blatt von Kartlbrüder Wörgl: Bscheißn nach dem 6. Spiel): ")
