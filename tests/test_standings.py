"""Tournament standings from real sheets, against rankings worked out by hand (issue 13).

The tournaments and their hand-worked expectations are in tests/tournament_data.py.
"""

from __future__ import annotations

import pytest

from scoring import Entry, Score, Sheet
from scoring.standings import Standings, tournament_standings

from .tournament_data import (
    SCHAFKOPF_HUNDERT,
    Tournament,
    doppelkopf_tournament,
    make_sheet,
    schafkopf_tournament,
    schnapsen_tournament,
    watten_entries,
    watten_tournament,
)


def rows(standings: Standings) -> list[tuple[int, int | None, tuple[str | int, ...], str]]:
    return [(r.rank, r.start_number, r.values, r.decided_by) for r in standings.rows]


@pytest.mark.parametrize(
    "build", [watten_tournament, schafkopf_tournament, doppelkopf_tournament, schnapsen_tournament], ids=lambda b: b.__name__
)
def test_standings_equal_the_hand_worked_ranking(build: object) -> None:
    tournament: Tournament = build()  # type: ignore[operator]
    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    assert rows(standings) == list(tournament.expected)
    names = {e.start_number: e.name for e in tournament.roster.entrants}
    assert [r.name for r in standings.rows] == [names[n] for _, n, _, _ in tournament.expected]


def test_watten_every_level_of_regel_13_decides() -> None:
    tournament = watten_tournament()
    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    assert standings.columns == ("Bummerl", "Punkte", "Gegenpunkte", "Verhältnis")
    assert standings.header == ("Platz", "Nr.", "Mannschaft", "Bummerl", "Punkte", "Gegenpunkte", "Verhältnis", "Entscheidung")
    decided = {r.decided_by.split(" (")[0] for r in standings.rows}
    assert decided == {"Bummerl", "Punkteverhältnis", "Punkte", "direkter Vergleich", "Entscheidungsbummerl nötig"}
    assert standings.notes == ()


def test_schafkopf_shows_each_series_100_point_check() -> None:
    tournament = schafkopf_tournament()
    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    assert standings.columns == ("Ergebnis", "Tischpunkte", "Spielpunkte", "Serien", "Reuegeld")
    assert standings.notes == SCHAFKOPF_HUNDERT


def test_doppelkopf_sums_the_runden() -> None:
    tournament = doppelkopf_tournament()
    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    assert standings.columns == ("Punkte", "Runde 1", "Runde 2", "Spiele")
    for row in standings.rows:
        assert row.values[0] == row.values[1] + row.values[2]  # type: ignore[operator]


def test_watten_one_sheet_per_table_counts_alike_and_notes_the_missing_one() -> None:
    both = watten_tournament()
    single = watten_tournament(both_teams_write=False)
    standings = tournament_standings(single.plan, single.roster, single.sheets)
    assert rows(standings) == list(both.expected)
    assert len(standings.notes) == 15
    assert standings.notes[0] == "Durchgang 1, Tisch 1: nur ein Blatt abgegeben, das zweite fehlt; gewertet nach dem vorliegenden"


def test_a_disputed_table_waits_for_the_turnierleitung() -> None:
    """Team B of Durchgang 3, Tisch 5 wrote 2 points of its own into the second Bummerl that team
    A's sheet does not have: the table is left out until the organizer decides; the decision (a
    new revision of B's sheet voiding that game, with the reason) puts it back."""
    tournament = watten_tournament()
    sheets = list(tournament.sheets)
    index = next(i for i, s in enumerate(sheets) if (s.context.round, s.context.table, s.context.written_by) == (3, 5, "B"))
    signed = ("close", {"signed_by": "Laab-Sau"})
    wrong = make_sheet(tournament.plan, tournament.roster, 3, 5, (7, 10), [*watten_entries("W0 W2 L0"), signed], written_by="B")
    sheets[index] = wrong
    standings = tournament_standings(tournament.plan, tournament.roster, sheets)
    assert standings.notes == (
        "Durchgang 3, Tisch 5: die Blätter sind uneinig, gewertet erst nach der Entscheidung der Turnierleitung "
        "(Unterschied beim 2. Spiel: Blatt von Schellen-Sieben: Schellen-Sieben +15; Blatt von Laab-Sau: Laab-Sau +2)",
    )
    by_number = {r.start_number: r for r in standings.rows}
    assert by_number[7].values[:3] == (2, 57, 123)  # without the disputed table's 2 Bummerl, 60:30
    assert by_number[10].values[:3] == (0, 14, 136)
    decided = wrong.with_entry(
        Entry(kind="void", target=2, device="host", reason="Turnierleitung: das Blatt von Schellen-Sieben gilt")
    )
    sheets[index] = decided
    assert rows(tournament_standings(tournament.plan, tournament.roster, sheets)) == list(tournament.expected)


def test_unfinished_sheets_are_left_out_and_named() -> None:
    tournament = schafkopf_tournament()
    sheets = list(tournament.sheets)
    open_sheet = sheets[-1].model_copy(update={"entries": sheets[-1].entries[:-1]})  # not signed yet
    sheets[-1] = open_sheet
    standings = tournament_standings(tournament.plan, tournament.roster, sheets)
    assert standings.notes[-1] == "Serie 2, Tisch 2: nicht unterschrieben, noch nicht gewertet"
    assert {r.start_number: r.values[3] for r in standings.rows}[2] == 1  # one Serie counted for Nr.2


def test_withdrawn_entrants_keep_their_finished_rounds() -> None:
    tournament = watten_tournament()
    roster = tournament.roster.withdraw(10)
    standings = tournament_standings(tournament.plan, roster, tournament.sheets)
    assert rows(standings) == list(tournament.expected)
    assert standings.notes == ("Nr. 10 Laab-Sau hat zurückgezogen; die beendeten Runden zählen",)


def test_entrants_without_a_counted_sheet_are_listed_last() -> None:
    tournament = schnapsen_tournament()
    from scoring.roster import Entrant

    roster = tournament.roster.with_entrant(Entrant(start_number=5, name="Nachzügler", members=("X", "Y")))
    standings = tournament_standings(tournament.plan, roster, tournament.sheets)
    assert rows(standings)[-1] == (5, 5, (0, 0, 0), "noch kein gewertetes Blatt")


def test_a_sheet_of_another_ruleset_is_not_counted() -> None:
    tournament = schnapsen_tournament()
    other = watten_tournament().sheets[0]
    standings = tournament_standings(tournament.plan, tournament.roster, [*tournament.sheets, other])
    assert rows(standings) == list(tournament.expected)
    assert standings.notes == ("Durchgang 1, Tisch 1: zählt nach 'watten-turnier', nicht nach 'bauernschnapsen'; nicht gewertet",)


def test_the_hosts_scores_from_arrival_give_the_same_standings() -> None:
    """``scorer``: the host passes the scores it computed when each sheet arrived; each sheet is
    scored exactly once per recompute either way."""
    tournament = schafkopf_tournament()
    ruleset = tournament.plan.ruleset
    kept = {sheet.id: ruleset.score(sheet) for sheet in tournament.sheets}
    asked: list[str] = []

    def from_arrival(sheet: Sheet) -> Score:
        asked.append(str(sheet.id))
        return kept[sheet.id]

    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets, scorer=from_arrival)
    assert standings == tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    assert sorted(asked) == sorted(str(s.id) for s in tournament.sheets)


def test_a_decided_table_counts_its_one_sheet_without_a_missing_note() -> None:
    """The Turnierleitung's decided revision stands alone for its table (the Desk passes it with
    ``decided``): counted as the one sheet it is, and no note says the other team's is missing."""
    single = watten_tournament(both_teams_write=False)
    decided = {(s.context.round, s.context.table) for s in single.sheets}
    standings = tournament_standings(single.plan, single.roster, single.sheets, decided=decided)
    assert rows(standings) == list(watten_tournament().expected)
    assert not any("das zweite fehlt" in note for note in standings.notes)


def test_sheets_that_already_differ_are_noted_as_uneinig_before_they_are_finished() -> None:
    tournament = watten_tournament()
    sheets = list(tournament.sheets)
    index = next(i for i, s in enumerate(sheets) if (s.context.round, s.context.table, s.context.written_by) == (1, 1, "B"))
    other = sheets[index]
    first_game = next(i for i, e in enumerate(other.entries) if e.kind == "game")
    data = dict(other.entries[first_game].data)
    data["winner"] = "A" if data["winner"] == "B" else "B"
    changed = other.entries[first_game].model_copy(update={"data": data})
    # Only the first games are written: unfinished, yet already differing at game 1.
    sheets[index] = other.model_copy(update={"entries": (changed, *other.entries[first_game + 1 : first_game + 3])})
    standings = tournament_standings(tournament.plan, tournament.roster, sheets)
    assert any(note.startswith("Durchgang 1, Tisch 1: die Blätter sind uneinig") for note in standings.notes)
