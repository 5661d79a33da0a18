"""The organizer's Desk on a real SQLite file and a real PostgreSQL server: every action, and its refusals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scoring import Sheet, find_ruleset
from scoring.roster import RosterError
from sync.host.desk import TURNIERLEITUNG, Desk, DeskError
from sync.host.records import NewRevision
from sync.host.store import HostStore
from sync.protocol import body_sha256

from .pg_server import PostgresServer, postgres_server_fixture  # noqa: F401  (fixture)
from .tournament_sim import play_watten, watten_durchgang

TEAMS_CSV = "\ufeffStartnummer;Name;Spieler 1;Spieler 2;Verein\n" + "".join(
    f"{n};Team {n};Spieler {n}a;Spieler {n}b;Verein {n % 3}\n" for n in range(1, 9)
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[HostStore]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'host.sqlite3'}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        url = server.new_database()
    opened = HostStore(url)
    yield opened
    opened.close()


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def phone_sends(store: HostStore, sheet: Sheet, device: str = "handy") -> None:
    """What the host does with a phone's sheet once it has checked it (see ``sync/host/phone_api.py``)."""
    score = find_ruleset(sheet.ruleset.id).score(sheet)
    body = sheet.to_json().encode()
    result = store.store_revision(
        NewRevision(
            sheet_id=sheet.id,
            revision=len(sheet.entries),
            body=body,
            body_sha256=body_sha256(body),
            tournament_id=str(sheet.context.tournament),
            round_label=sheet.context.round_label,
            round=sheet.context.round,
            table=int(sheet.context.table or 0),
            written_by=sheet.context.written_by,
            closed=score.status.closed,
            games=sum(1 for line in score.lines if line.kind != "close"),
            device_id=device,
        )
    )
    assert result.status == "stored"


def watten_desk(store: HostStore, clock: Clock | None = None) -> Desk:
    desk = Desk(store, clock=clock or Clock())
    desk.create_tournament("Kathreinwatten Söll 2026", "watten-turnier", date="2026-11-23")
    desk.import_roster(TEAMS_CSV)
    return desk


def test_a_tournament_gets_its_plan_and_roster_and_refuses_bad_input_unchanged(store: HostStore) -> None:
    desk = Desk(store)
    with pytest.raises(DeskError, match="Unbekanntes Regelwerk 'jassen'"):
        desk.create_tournament("Jassturnier", "jassen")
    with pytest.raises(DeskError, match="kein Datum"):
        desk.create_tournament("Kathreinwatten", "watten-turnier", date="23.11.")
    assert store.current_tournament() is None
    desk = watten_desk(store)
    plan = desk.plan()
    assert (plan.ruleset_id, plan.rounds, plan.time_limit_minutes, plan.unit) == ("watten-turnier", 3, 70, "team")
    assert desk.date() == "2026-11-23"
    assert [e.start_number for e in desk.roster().entrants] == list(range(1, 9))
    assert desk.roster().by_number(3).members == ("Spieler 3a", "Spieler 3b")

    bad = "Startnummer;Name;Spieler 1;Spieler 2\n1;Neu;A;B\n1;Doppelt;C;D\n"
    with pytest.raises(RosterError) as refused:
        desk.import_roster(bad)
    assert any(p.startswith("Zeile 3") for p in refused.value.problems), refused.value.problems
    assert [e.entrant.name for e in desk.roster_entries()][:2] == ["Team 1", "Team 2"]  # nothing imported

    with pytest.raises(DeskError, match="Spieler fehlen"):
        desk.register("Einzelgänger")
    late = desk.register("Die Nachzügler", ["Xaver", "Yvonne"])
    assert late.entrant.start_number == 9 and late.registered_round is None


def test_draw_is_seeded_reproducible_and_each_round_is_drawn_once_in_order(store: HostStore, tmp_path: Path) -> None:
    desk = watten_desk(store)
    with pytest.raises(DeskError, match="Als Nächstes wird Durchgang 1 ausgelost"):
        desk.draw(2, seed=5)
    first = desk.draw(1, seed=4711)
    assert first.seed == 4711 and len(first.tables) == 4
    with pytest.raises(DeskError, match="schon ausgelost"):
        desk.draw(1, seed=1)
    with pytest.raises(DeskError, match="Runde 1 ist schon ausgelost"):
        desk.configure("schafkopf-turnier")
    with pytest.raises(DeskError, match="nur noch Nachmeldungen"):
        desk.import_roster(TEAMS_CSV)

    other = HostStore(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        again = watten_desk(other).draw(1, seed=4711)
    finally:
        other.close()
    assert again == first

    # 8 teams, 3 Durchgänge: nobody meets the same opponent twice.
    desk.draw(2, seed=1)
    third = desk.draw(3, seed=2)
    pairs = [frozenset(s.start_number for s in t.seats) for d in desk.draws() for t in d.tables]
    assert len(pairs) == len(set(pairs)) == 12
    assert third.round == 3
    with pytest.raises(DeskError, match="3 Durchgänge"):
        desk.draw(4, seed=3)


def test_withdrawal_and_late_registration_change_the_next_draw_only(store: HostStore) -> None:
    desk = watten_desk(store)
    desk.draw(1, seed=1)
    desk.withdraw(3)
    with pytest.raises(DeskError, match="schon nach Runde 1 zurückgezogen"):
        desk.withdraw(3)
    with pytest.raises(DeskError, match="gerade Zahl"):
        desk.draw(2, seed=2)  # 7 teams: Watten needs an even number; nothing drawn
    assert [d.round for d in desk.draws()] == [1]
    late = desk.register("Die Nachzügler", ["Xaver", "Yvonne"])
    assert (late.entrant.start_number, late.registered_round) == (9, 2)
    second = desk.draw(2, seed=2)
    drawn = {s.start_number for t in second.tables for s in t.seats}
    assert 3 not in drawn and 9 in drawn
    assert 3 in {s.start_number for t in desk.draw_of(1).tables for s in t.seats}
    with pytest.raises(DeskError, match="Startnummer 99 steht nicht"):
        desk.withdraw(99)


def test_the_assignment_gives_the_same_prepared_sheet_every_time(store: HostStore) -> None:
    desk = watten_desk(store)
    with pytest.raises(DeskError, match="noch nicht ausgelost"):
        desk.assignment(1)
    draw = desk.draw(1, seed=9)
    table = draw.tables[0]
    number = table.seats[0].start_number
    found = desk.assignment(number)
    assert (found.round, found.table, found.seat) == (1, table.table, 1)
    sheet = found.sheet
    assert sheet.context.tournament == desk.tournament().id
    assert (sheet.context.round, sheet.context.table, sheet.context.round_label) == (1, table.table, "Durchgang")
    assert sheet.context.written_by == found.participant_id
    assert {p.start_number for p in sheet.participants} == {s.start_number for s in table.seats}
    assert sheet.ruleset.id == "watten-turnier" and sheet.ruleset.options["bummerl_count"] == 3
    assert desk.assignment(number) == found
    other = desk.assignment(table.seats[1].start_number)
    assert other.sheet.id != sheet.id and other.table == found.table


def test_start_round_runs_the_watten_clock_and_tables_show_their_state(store: HostStore) -> None:
    clock = Clock()
    desk = watten_desk(store, clock)
    with pytest.raises(DeskError, match="noch nicht ausgelost"):
        desk.start_round(1)
    draw = desk.draw(1, seed=3)
    started = desk.start_round(1)
    clock.now += timedelta(minutes=10)
    assert desk.start_round(1) == started  # a second start keeps the first time
    first = draw.tables[0]
    a = desk.assignment(first.seats[0].start_number).sheet
    phone_sends(store, play_watten(a, ["A", "B", "A"], close=False))
    views = {v.draw.table: v for v in desk.tables(1)}
    assert views[first.table].status.state == "läuft"
    assert views[first.table].status.minutes_left == 60
    assert views[draw.tables[1].table].status.state == "nicht begonnen"


def test_a_dispute_decided_by_the_organizer_is_a_new_revision_with_a_trail(store: HostStore) -> None:
    desk = watten_desk(store)
    draw = desk.draw(1, seed=11)
    rng = random.Random(5)
    table = draw.tables[0]
    winners = watten_durchgang(rng)
    a = desk.assignment(table.seats[0].start_number).sheet
    b = desk.assignment(table.seats[1].start_number).sheet
    wrong = list(winners)
    wrong[3] = "B" if wrong[3] == "A" else "A"
    phone_sends(store, play_watten(a, winners), "handy-a")
    phone_sends(store, play_watten(b, wrong, finish=True), "handy-b")
    assert desk.tables(1)[0].status.state == "uneinig"
    sheets, notes = desk.result_sheets(1)
    assert all(s.context.table != table.table for s in sheets)
    assert any(f"Tisch {table.table}" in n and "uneinig" in n for n in notes)

    dispute = desk.dispute(1, table.table)
    assert dispute.comparison.first_difference == 4
    assert dispute.lines[0][0].startswith("4. Spiel: ") and dispute.lines[1][0].startswith("4. Spiel: ")

    with pytest.raises(DeskError, match="Begründung fehlt"):
        desk.decide(1, table.table, a.id, "  ")
    with pytest.raises(DeskError, match="gehört nicht zu Tisch"):
        desk.decide(1, draw.tables[1].table, a.id, "Schiedsrichter")
    assert desk.decisions() == []

    decision = desk.decide(1, table.table, a.id, "Beide Teams bestätigen Spiel 4 für A", by="Sepp (Turnierleitung)")
    assert (decision.kind, decision.sheet_id, decision.revision) == ("entscheidung", a.id, len(a.entries) + len(winners) + 2)
    assert decision.decided_by == "Sepp (Turnierleitung)" and "gilt" in decision.detail
    stored = store.latest(a.id)
    assert stored is not None and stored.device_id is None and stored.revision == decision.revision
    decided_sheet = Sheet.from_json(stored.body)
    last = decided_sheet.entries[-1]
    assert (last.kind, last.device) == ("correction", TURNIERLEITUNG)
    assert last.reason is not None and "Beide Teams bestätigen Spiel 4 für A" in last.reason
    # the phone's own revisions are all still there: nothing overwritten
    assert [r.revision for r in store.sheet_revisions(a.id)] == [len(winners) + 1, decision.revision]
    # the decided score is the standing sheet's
    assert (
        find_ruleset("watten-turnier").score(decided_sheet).totals
        == find_ruleset("watten-turnier").score(play_watten(a, winners)).totals
    )
    sheets, notes = desk.result_sheets(1)
    assert [s.id for s in sheets if s.context.table == table.table] == [a.id]
    assert not any("uneinig" in n for n in notes)
    assert desk.locked(1, table.table) == decision
    assert desk.locked(1, draw.tables[1].table) is None
    assert [d.id for d in desk.decisions(1, table.table)] == [decision.id]


def test_a_corrected_game_and_an_aborted_durchgang_end_the_sheets_as_the_rules_say(store: HostStore) -> None:
    desk = watten_desk(store)
    draw = desk.draw(1, seed=12)
    first, second = draw.tables[0], draw.tables[1]
    winners = ["A", "B", "B", "A", "A", "B"]  # the first Bummerl still open: a correction changes no ending
    a = desk.assignment(first.seats[0].start_number).sheet
    b = desk.assignment(first.seats[1].start_number).sheet
    wrong = ["B", *winners[1:]]
    phone_sends(store, play_watten(a, winners, close=False))
    phone_sends(store, play_watten(b, wrong, close=False))
    assert desk.tables(1)[0].status.state == "uneinig"
    with pytest.raises(DeskError, match="Spiel 99 gibt es"):
        desk.correct_game(1, first.table, b.id, 99, {"winner": "A"}, "Tippfehler")
    with pytest.raises(DeskError, match="Regelwerk lässt das nicht zu"):
        desk.correct_game(1, first.table, b.id, 1, {"winner": "Z"}, "Tippfehler")
    decision = desk.correct_game(1, first.table, b.id, 1, {"winner": winners[0]}, "Spiel 1 falsch eingetragen")
    assert decision.kind == "korrektur" and "1. Spiel" in decision.detail
    corrected = Sheet.from_json(store.latest(b.id).body)  # type: ignore[union-attr]
    assert corrected.entries[-1].device == TURNIERLEITUNG and corrected.entries[-1].target == 1
    view = desk.tables(1)[0]
    assert view.status.state == "entschieden" and view.decisions[-1] == decision
    assert desk.dispute(1, first.table).comparison.agree

    # Table 2 never finished: the Turnierleitung ends its Durchgang (Regel 11: Zeitlimit).
    c = desk.assignment(second.seats[0].start_number).sheet
    phone_sends(store, play_watten(c, ["A", "A", "B"], close=False))
    with pytest.raises(DeskError, match="Tisch 99 gibt es"):
        desk.abort_table(1, 99, "Zeit um")
    (aborted,) = desk.abort_table(1, second.table, "70 Minuten um")
    assert aborted.kind == "abbruch"
    ended = Sheet.from_json(store.latest(c.id).body)  # type: ignore[union-attr]
    assert [e.kind for e in ended.entries[-2:]] == ["zeitlimit", "close"]
    assert all(e.device == TURNIERLEITUNG for e in ended.entries[-2:])
    score = find_ruleset("watten-turnier").score(ended)
    assert score.status.closed
    with pytest.raises(DeskError, match="schon abgeschlossen"):
        desk.abort_table(1, second.table, "noch einmal")

    # A table where no phone sent anything: the host opens its sheet and ends it.
    empty = draw.tables[2]
    (opened,) = desk.abort_table(1, empty.table, "Niemand erschienen")
    assert opened.revision == 2
    kinds = [d.kind for d in desk.decisions(1)]
    assert kinds == ["korrektur", "abbruch", "abbruch"]


def test_standings_count_one_sheet_per_table(store: HostStore) -> None:
    desk = watten_desk(store)
    rng = random.Random(21)
    for round in (1, 2, 3):
        draw = desk.draw(round, seed=round)
        for table in draw.tables:
            winners = watten_durchgang(rng)
            for seat in table.seats:
                phone_sends(store, play_watten(desk.assignment(seat.start_number, round).sheet, winners))
    standings = desk.standings()
    assert len(standings.rows) == 8
    assert standings.rows[0].rank == 1
    csv_text = desk.standings_csv().decode("utf-8-sig")
    assert "Team" in csv_text
    games = desk.games_csv().decode("utf-8-sig").splitlines()
    assert len(games) > 12 * 15  # one row per game of each counted sheet (12 sheets, at least 15 games each)


def test_a_draw_made_by_hand_seats_everyone_once(store: HostStore) -> None:
    desk = watten_desk(store)
    with pytest.raises(DeskError) as refused:
        desk.enter_draw(1, [[1, 2], [3], [4, 5], [5, 6], [99, 7]])
    text = str(refused.value)
    assert "Tisch 2: 1 statt 2 Mannschaften" in text
    assert "Tisch 4: Startnummer 5 sitzt schon an einem anderen Tisch" in text
    assert "Tisch 5: Startnummer 99 spielt in Durchgang 1 nicht mit" in text
    assert "Ohne Tisch: Startnummer 8" in text
    assert desk.draws() == []
    drawn = desk.enter_draw(1, [[2, 1], [3, 4], [5, 6], [7, 8]])
    assert drawn.seed == 0 and [t.start_numbers for t in drawn.tables] == [(2, 1), (3, 4), (5, 6), (7, 8)]
    assert desk.assignment(2).seat == 1 and desk.assignment(1).table == 1
    with pytest.raises(DeskError, match="Als Nächstes wird Durchgang 2"):
        desk.enter_draw(1, [[2, 1], [3, 4], [5, 6], [7, 8]])
