"""The paper Tischliste typed at the desk ("Papierblatt erfassen"), on a real SQLite file: game by game
and from its totals alone, for every ruleset family; each refusal changes nothing, and the phones'
sheets of the same table are still accepted and compared with it."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from scoring import Sheet, find_ruleset
from scoring.compare import compare_sheets
from scoring.model import CLOSE
from scoring.schnapsen import SchnapsenResult
from scoring.standings import Standings, tournament_standings
from sync.host.desk import PAPIER, Desk, DeskError, PaperError
from sync.host.store import HostStore

from .test_desk import Clock, phone_sends
from .tournament_sim import play_random, play_watten, watten_durchgang

TEAMS_CSV = "Startnummer;Name;Spieler 1;Spieler 2\n" + "".join(f"{n};Team {n};Spieler {n}a;Spieler {n}b\n" for n in range(1, 9))
PLAYERS_CSV = "Startnummer;Name\n" + "".join(f"{n};Spieler {n}\n" for n in range(1, 13))

FAMILIES = {
    "watten-turnier": TEAMS_CSV,
    "schafkopf-turnier": PLAYERS_CSV,
    "bauernschnapsen": TEAMS_CSV,
    "talonschnapsen": PLAYERS_CSV,
    "doppelkopf-turnier": PLAYERS_CSV,
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HostStore]:
    opened = HostStore(f"sqlite:///{tmp_path / 'host.sqlite3'}")
    yield opened
    opened.close()


def drawn_desk(store: HostStore, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Desk:
    desk = Desk(store, clock=Clock())
    desk.create_tournament("Papierturnier", ruleset_id, options=options)
    desk.import_roster(FAMILIES[ruleset_id])
    desk.draw(1, seed=7)
    return desk


def phone_sheet(desk: Desk, table: int, seed: int = 3) -> Sheet:
    """The sheet a phone at ``table`` keeps: the prepared sheet with a whole round played and signed."""
    number = desk.draw_of(1).tables[table - 1].seats[0].start_number
    sheet = desk.assignment(number, 1).sheet
    if sheet.ruleset.id == "watten-turnier":
        return play_watten(sheet, watten_durchgang(random.Random(seed)))
    return play_random(sheet, random.Random(seed))


def games_of(sheet: Sheet) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in sheet.entries if e.kind != CLOSE]


def totals_of(sheet: Sheet) -> list[tuple[str, dict[str, Any]]]:
    """The ``papier`` entries that write ``sheet``'s totals as the paper shows them."""
    ruleset = find_ruleset(sheet.ruleset.id)
    score = ruleset.score(sheet)
    totals = dict(ruleset.paper_totals(sheet, score))
    if sheet.ruleset.id == "schafkopf-turnier":
        return [("papier", {"spielpunkte": totals["Spielpunkte"], "tischpunkte": totals["Tischpunkte"]})]
    if sheet.ruleset.id.startswith("doppelkopf"):
        return [("papier", {"punkte": totals["Punkte"]})]
    out: list[tuple[str, dict[str, Any]]] = []
    for label, stand in ruleset.paper_totals(sheet, score):
        if not label.startswith("Bummerl ") or not label.split()[1].isdigit():
            continue
        data: dict[str, Any] = {"stand": stand}
        result = score.result
        if isinstance(result, SchnapsenResult):
            bummerl = result.history[int(label.split()[1]) - 1]
            retour = [v.participant for v in bummerl.losers if v.art == "Retourschneider"]
            if retour:
                data["retourschneider"] = retour[0]
        out.append(("papier", data))
    if "Offenes Bummerl" in totals:
        out.append(("papier", {"stand": totals["Offenes Bummerl"], "offen": True}))
    return out


def ranks(standings: Standings) -> list[tuple[Any, ...]]:
    """Rank, Startnummer and the first counting values of every row (not the Reuegeld the paper lacks)."""
    return [(row.rank, row.start_number, row.values[:3]) for row in standings.rows]


def snapshot(store: HostStore, desk: Desk) -> tuple[Any, ...]:
    tid = desk.tournament().id
    return (tuple((r.sheet_id, r.revision) for r in store.latest_per_sheet(tid)), len(store.decisions(tid)))


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
@pytest.mark.parametrize("mode", ["spiele", "summen"])
def test_a_paper_tischliste_counts_and_a_later_phone_sheet_is_compared_with_it(
    store: HostStore, ruleset_id: str, mode: str
) -> None:
    desk = drawn_desk(store, ruleset_id)
    phone = phone_sheet(desk, 1)
    lines = games_of(phone) if mode == "spiele" else totals_of(phone)

    note = phone.entries[-1].data.get("override")  # a random round may end early, with the note
    decision = desk.enter_paper(1, 1, lines, override=note)
    assert (decision.kind, decision.table, decision.decided_by) == ("papier", 1, "Turnierleitung")
    assert ("nur die Summen" in decision.detail) == (mode == "summen")
    paper = desk.paper_of(1, 1)
    assert paper is not None and paper.written_by_host and paper.closed
    assert paper.sheet.context.written_by == PAPIER
    close = paper.sheet.entries[-1]
    assert close.kind == CLOSE and close.data["signed_by"] == PAPIER and close.device == PAPIER
    assert paper.sheet.entries[0].device == PAPIER

    # It counts in the standings: everyone at table 1 has a counted round.
    sheets, notes = desk.result_sheets(1)
    assert [s.id for s in sheets] == [paper.sheet.id], notes
    expected = tournament_standings(desk.plan(), desk.roster(), [phone])
    assert ranks(desk.standings()) == ranks(expected)  # as the phone's own sheet would count

    # The paper decides nothing: a phone's sheet of the table is still taken, and compared with it.
    assert desk.locked(1, 1) is None
    phone_sends(store, phone)
    stored = store.latest_per_sheet(desk.tournament().id, round_label=desk.plan().round_label, round=1, table=1)
    comparison, other = desk.comparison(next(r for r in stored if r.sheet_id == phone.id))
    assert comparison is not None and comparison.agree, comparison
    assert other == PAPIER
    assert desk.tables(1)[0].status.state in ("unterschrieben", "fehlt")
    sheets, notes = desk.result_sheets(1)
    assert len(sheets) == 1, notes

    # A second paper sheet for the same table is refused, nothing changes.
    before = snapshot(store, desk)
    with pytest.raises(PaperError, match="schon erfasst"):
        desk.enter_paper(1, 1, lines)
    assert snapshot(store, desk) == before


@pytest.mark.parametrize("ruleset_id", sorted(FAMILIES))
def test_a_phone_sheet_that_differs_from_the_paper_totals_is_named(store: HostStore, ruleset_id: str) -> None:
    desk = drawn_desk(store, ruleset_id)
    first = phone_sheet(desk, 1, seed=3)
    desk.enter_paper(1, 1, totals_of(first), override=first.entries[-1].data.get("override"))
    other = phone_sheet(desk, 1, seed=11)
    comparison = compare_sheets(desk.paper_of(1, 1).sheet, other)  # type: ignore[union-attr]
    if comparison.agree:  # the two random rounds happen to end alike: nothing to name
        return
    assert comparison.message.startswith("Unterschied bei "), comparison.message
    assert "Blatt von Turnierleitung (Papier)" in comparison.message
    phone_sends(store, other)
    sheets, notes = desk.result_sheets(1)
    assert sheets == [] and any("uneinig" in n for n in notes), notes
    table = desk.tables(1)[0]
    assert table.status.state == "uneinig"
    # The Turnierleitung decides for the paper: that decision locks the table, as every decision does.
    paper = desk.paper_of(1, 1)
    assert paper is not None
    desk.decide(1, 1, paper.sheet.id, "Papier gilt, vom Tisch unterschrieben")
    assert desk.locked(1, 1) is not None
    assert len(desk.result_sheets(1)[0]) == 1


REFUSALS: list[tuple[str, list[tuple[str, dict[str, Any]]], str]] = [
    ("watten-turnier", [("papier", {"stand": {"A": 15, "B": 9}}), ("papier", {"stand": {"A": 14, "B": 9}})], "Zeile 2: Regel 1"),
    ("watten-turnier", [("papier", {"stand": {"A": 15, "B": 15}})], "beide Mannschaften haben 15"),
    ("watten-turnier", [("game", {"winner": "A", "value": 1})], "Zeile 1: Spielwert"),
    ("watten-turnier", [("game", {"winner": "X"})], "Zeile 1"),
    (
        "schafkopf-turnier",
        [("papier", {"spielpunkte": {"p1": 10, "p2": 5, "p3": -5, "p4": -8}, "tischpunkte": {"p1": 40, "p2": 30, "p3": 20, "p4": 10}})],
        "Spielpunkte ergeben zusammen \\+2, nicht 0",
    ),
    (
        "schafkopf-turnier",
        [("papier", {"spielpunkte": {"p1": 10, "p2": 5, "p3": -5, "p4": -10}, "tischpunkte": {"p1": 40, "p2": 30, "p3": 20, "p4": 20}})],
        "Tischpunkte ergeben 40 \\+ 30 \\+ 20 \\+ 20 = 110, nicht 100",
    ),
    (
        "schafkopf-turnier",
        [("papier", {"spielpunkte": {"p1": 10, "p2": 5, "p3": -5, "p4": -10}, "tischpunkte": {"p1": 30, "p2": 40, "p3": 20, "p4": 10}})],
        "passen nicht zu den Spielpunkten",
    ),
    ("schafkopf-turnier", [("game", {"spiel": "rufspiel", "spieler": "p1", "partner": "p1", "gewonnen": True})], "Zeile 1"),
    ("bauernschnapsen", [("papier", {"stand": {"A": 20, "B": 12}})], "niemand hat 24 erreicht"),
    ("talonschnapsen", [("papier", {"stand": {"p1": 24, "p2": 3}})], "Der Stand braucht genau"),
    ("doppelkopf-turnier", [("papier", {"punkte": {"p1": 12, "p2": -4, "p3": -4, "p4": -3}})], "ergeben zusammen \\+1, nicht 0"),
    ("doppelkopf-turnier", [("game", {"re": ["p1", "p2"], "augen": 300})], "Zeile 1"),
    ("doppelkopf-turnier", [], "noch keine Zeile"),
]


@pytest.mark.parametrize(("ruleset_id", "lines", "message"), REFUSALS)
def test_a_refused_paper_tischliste_stores_nothing(
    store: HostStore, ruleset_id: str, lines: list[tuple[str, dict[str, Any]]], message: str
) -> None:
    desk = drawn_desk(store, ruleset_id)
    before = snapshot(store, desk)
    with pytest.raises(PaperError, match=message) as refused:
        desk.enter_paper(1, 1, lines)
    assert refused.value.line is not None or "Abschluss" in str(refused.value)
    assert snapshot(store, desk) == before
    assert desk.paper_of(1, 1) is None


def test_an_unfinished_paper_sheet_needs_the_turnierleitungs_note(store: HostStore) -> None:
    desk = drawn_desk(store, "watten-turnier")
    one: list[tuple[str, dict[str, Any]]] = [("papier", {"stand": {"A": 15, "B": 9}})]
    before = snapshot(store, desk)
    with pytest.raises(PaperError, match="Abschluss: Regel 11"):
        desk.enter_paper(1, 2, one)
    assert snapshot(store, desk) == before
    with_time = [*one, ("papier", {"stand": {"A": 7, "B": 12}, "zeitlimit": True})]
    desk.enter_paper(1, 2, with_time)
    paper = desk.paper_of(1, 2)
    assert paper is not None and paper.score is not None
    result = paper.score.result
    assert [b.ended_by for b in result.bummerl] == ["ziel", "zeitlimit"]  # type: ignore[attr-defined]
    assert result.teams["A"].points == 30 - 9 + 7  # type: ignore[attr-defined]


def test_a_bad_table_or_round_is_refused(store: HostStore) -> None:
    desk = drawn_desk(store, "doppelkopf-turnier")
    with pytest.raises(DeskError, match="Tisch 9 gibt es"):
        desk.enter_paper(1, 9, [("papier", {"punkte": {}})])
    with pytest.raises(DeskError, match="noch nicht ausgelost"):
        desk.enter_paper(2, 1, [("papier", {"punkte": {}})])
