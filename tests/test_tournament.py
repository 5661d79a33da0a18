"""The organizer's tournament core: roster, plan, standings, table status, exports (issue 13)."""

from __future__ import annotations

import pytest

from scoring.draw import draw_round, sheet_for
from scoring.tournament import Roster, RosterError, plan_for, tournament_standings


def test_plan_for_each_document() -> None:
    watten = plan_for("watten-turnier")
    assert (watten.rounds, watten.round_label, watten.table_sizes, watten.time_limit_minutes) == (3, "Durchgang", (2,), 70)
    assert watten.games_per_round == 3 and watten.sheets_per_table == 2
    doko = plan_for("doppelkopf-turnier")
    assert (doko.rounds, doko.round_label, doko.table_sizes, doko.games_per_round) == (3, "Runde", (4, 5), 16)
    schafkopf = plan_for("schafkopf-turnier", rounds=4)
    assert (schafkopf.rounds, schafkopf.round_label, schafkopf.table_sizes) == (4, "Serie", (4,))
    assert plan_for("talonschnapsen").table_sizes == (3,)


def test_a_bad_row_imports_nothing() -> None:
    text = "Startnummer;Name\n1;Anna\nzwei;Bert\n3;\n"
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(text, "player")
    assert caught.value.problems == (
        "Zeile 3: Startnummer 'zwei' ist keine ganze Zahl",
        "Zeile 4: der Name fehlt",
    )


def test_empty_drawn_sheet_is_listed_as_waiting() -> None:
    plan = plan_for("schafkopf-turnier")
    roster = Roster.parse_csv("Nr.;Name\n" + "\n".join(f"{i};Spieler {i}" for i in range(1, 9)), "player")
    draw = draw_round(plan, roster.active(), [], 1, 7)
    sheet = sheet_for(plan, roster, draw, 1, tournament="Test", written_by="p1")
    assert {p.start_number for p in sheet.participants} == set(draw.table(1).start_numbers)
    standings = tournament_standings(plan, roster, [sheet])
    assert [r.decided_by for r in standings.rows] == ["noch kein gewertetes Blatt"] * 8
    assert standings.notes == ("Serie 1, Tisch 1: nicht unterschrieben, noch nicht gewertet",)
