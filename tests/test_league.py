"""The league on a real SQLite file and a real PostgreSQL server (issue 23): seasons and their
tournaments, stable player ids and merges, hosts that write only their own tournaments, and
migrations that run once when two hosts start at once."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scoring.season import DEFAULT_SCHEME, SeasonScheme, SeasonTournament, placings_from_standings, season_standings
from sync.host.desk import Desk
from sync.host.league import League, LeagueError, host_id, scheme_from_form
from sync.host.schema import MIGRATIONS, player_merges, players, roster_players, schema_migrations, season_tournaments, seasons
from sync.host.store import HostStore

from .pg_server import PostgresServer, postgres_server_fixture, store_url_fixture  # noqa: F401  (fixtures)
from .test_desk import phone_sends
from .tournament_sim import play_watten, watten_durchgang


@pytest.fixture
def store(store_url: str) -> Iterator[HostStore]:
    opened = HostStore(store_url, "aaaaaaaaaaaaaaaa")
    yield opened
    opened.close()


def roster_csv(names: list[str], passes: dict[str, str] | None = None) -> str:
    passes = passes or {}
    lines = ["Startnummer;Name;Spieler 1;Spieler 2;Spielerpass"]
    for n, name in enumerate(names, start=1):
        lines.append(f"{n};{name};{name} A;{name} B;{passes.get(name, '')}")
    return "\n".join(lines) + "\n"


def play_evening(
    store: HostStore, league: League, name: str, teams: list[str], seed: int, date: str, season: str | None = None, **passes: str
) -> str:
    """A one-Durchgang Watten evening on ``store`` (in ``season`` from its setup): roster, draw, both
    sheets of every table, finished."""
    desk = Desk(store)
    desk.roster_hook = league.link
    desk.create_tournament(name, "watten-turnier", date=date, rounds=1)
    if season is not None:
        league.join(desk.tournament().id, season)
    desk.import_roster(roster_csv(teams, passes))
    draw = desk.draw(1, seed=seed)
    rng = random.Random(seed)
    for table in draw.tables:
        winners = watten_durchgang(rng)
        for seat in table.seats:
            phone_sends(store, play_watten(desk.assignment(seat.start_number).sheet, winners), f"h{seat.start_number}")
    return desk.tournament().id


def expected(league: League, season_id: str, scheme: SeasonScheme, aliases: dict[str, str] | None = None) -> list[tuple]:
    """The season worked out here from each tournament's final standings, by the pure functions."""
    given = []
    for tournament, date in league.tournaments(season_id):
        standings = league.tournament_standings(tournament)
        assert standings is not None
        placings = placings_from_standings(standings, league.player_ids(tournament.id))
        given.append(SeasonTournament(id=tournament.id, name=tournament.name, date=date, placings=placings))
    return [(r.rank, r.player_id, r.total) for r in season_standings(given, scheme, aliases=aliases).rows]


def test_a_season_adds_up_its_tournaments_with_stable_player_ids(store: HostStore) -> None:
    league = League(store)
    season = league.create_season("Watt-Cup 2026", "watten-turnier", DEFAULT_SCHEME.model_copy(update={"best_of": 1}))
    teams = ["Adler", "Bären", "Dachse", "Eulen"]
    first = play_evening(store, league, "Cup 1 Söll", teams, 1, "2026-10-01", Adler="1234")
    league.join(first, season.id)
    second = play_evening(store, league, "Cup 2 Kufstein", [*teams[1:], "Füchse"], 2, "2026-11-01", season.id)

    ids1, ids2 = league.player_ids(first), league.player_ids(second)
    assert ids1[1] == "SP-1234"  # the Spielerpass
    assert ids2[1] == ids1[2] and ids2[2] == ids1[3] and ids2[3] == ids1[4]  # the season's player of that name
    assert ids2[4].startswith("T-") and ids2[4] not in ids1.values()  # a new player, a new id

    standings = league.standings(season.id)
    assert [(r.rank, r.player_id, r.total) for r in standings.rows] == expected(league, season.id, standings.scheme)
    assert next(t for t, _ in league.tournaments(season.id)).name == "Cup 1 Söll"
    baeren = next(r for r in standings.rows if r.name == "Bären")
    assert baeren.participations == 2 and len(baeren.counted) == 1 and len(baeren.not_counted) == 1
    assert [p.name for p in league.suggest(season.id, "ä")] == ["Bären"]
    assert league.suggest(season.id, "   ") == []


def test_a_merge_has_a_trail_and_the_season_follows_it(store: HostStore) -> None:
    league = League(store)
    season = league.create_season("Watt-Cup", "watten-turnier")
    first = play_evening(store, league, "Abend 1", ["Adler", "Bären"], 3, "2026-10-01", season.id)
    second = play_evening(store, league, "Abend 2", ["Adler", "Baeren"], 4, "2026-10-08", season.id)
    old = league.player_ids(second)[2]
    into = league.player_ids(first)[2]
    assert len(league.standings(season.id).rows) == 3

    before = _counts(store)
    for bad, message in [
        ((old, old, "Tippfehler"), "mit sich selbst"),
        ((old, "T-unbekannt", "Tippfehler"), "gibt es nicht"),
        (("x" * 500, into, "Tippfehler"), "gibt es nicht"),
        ((old, into, "   "), "Grund"),
    ]:
        with pytest.raises(LeagueError, match=message):
            league.merge(*bad)
    assert _counts(store) == before

    merge = league.merge(old, into, "Baeren ist Bären (Tippfehler in der Meldeliste)")
    assert [(m.from_id, m.into_id) for m in league.merges()] == [(merge.from_id, merge.into_id)]
    with pytest.raises(LeagueError, match="schon"):
        league.merge(old, into, "nochmal")
    rows = league.standings(season.id).rows
    assert len(rows) == 2
    baeren = next(r for r in rows if r.player_id == into)
    assert (baeren.name, baeren.participations) == ("Bären", 2)
    assert [(r.rank, r.player_id, r.total) for r in rows] == expected(league, season.id, DEFAULT_SCHEME, {old: into})


def _counts(store: HostStore) -> tuple[int, ...]:
    with store._read() as conn:
        return tuple(
            int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
            for t in (seasons, season_tournaments, players, roster_players, player_merges)
        )


def test_season_refusals_change_nothing(store: HostStore, store_url: str) -> None:
    league = League(store)
    season = league.create_season("Schafkopf-Liga", "schafkopf-turnier")
    desk = Desk(store)
    desk.create_tournament("Watten am Freitag", "watten-turnier", rounds=1)
    tid = desk.tournament().id
    other = HostStore(store_url, "bbbbbbbbbbbbbbbb")
    try:
        theirs = Desk(other)
        theirs.create_tournament("Schafkopf in Hall B", "schafkopf-turnier")
        before = _counts(store)
        for action, message in [
            (lambda: league.create_season("schafkopf-liga", "schafkopf-turnier"), "gibt es schon"),
            (lambda: league.create_season("Jass-Liga", "jassen"), "gibt es nicht"),
            (lambda: league.create_season("", "watten-turnier"), "fehlt"),
            (lambda: league.create_season("x" * 10_000, "watten-turnier"), "zu lang"),
            (lambda: league.join(tid, season.id), "wertet schafkopf-turnier"),
            (lambda: league.join(tid, "9" * 200), "gibt es nicht"),
            (lambda: league.join("gibt-es-nicht", season.id), "gibt es nicht"),
            (lambda: league.join(theirs.tournament().id, season.id), "anderer Host"),
        ]:
            with pytest.raises(LeagueError, match=message):
                action()
        assert _counts(store) == before
        # Each host has its own current tournament and writes only its own.
        assert store.current_tournament().id == tid  # type: ignore[union-attr]
        assert other.current_tournament().id == theirs.tournament().id  # type: ignore[union-attr]
        assert store.owns(tid) and not store.owns(theirs.tournament().id) and not store.owns("gibt-es-nicht")
        assert other.owns(theirs.tournament().id) and not other.owns(tid)
    finally:
        other.close()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (("Cup", "places", "25, 30", "", ""), "mehr Punkte"),
        (("Cup", "places", "zehn", "", ""), "keine ganze Zahl"),
        (("Cup", "places", "10", "99999999999", ""), "1 bis 1000"),
        (("Cup", "places", "10", "", "-1"), "1 bis 1000"),
        (("", "places", "10", "", ""), "fehlt"),
    ],
)
def test_a_scheme_from_the_form_is_checked(fields: tuple[str, ...], message: str) -> None:
    with pytest.raises(LeagueError, match=message):
        scheme_from_form(*fields)


def test_a_scheme_from_the_form() -> None:
    scheme = scheme_from_form("Liga", "places", "10-8-6", "5", "3")
    assert (scheme.place_points, scheme.best_of, scheme.min_participations) == ((10, 8, 6), 5, 3)
    assert scheme_from_form("Eigene", "own", "", "", "").points == "own"


def test_the_host_id_is_made_once_and_kept_private(tmp_path: Path) -> None:
    made = host_id(tmp_path)
    assert host_id(tmp_path) == made and len(made) == 16
    assert (tmp_path / "host-id").stat().st_mode & 0o077 == 0
    (tmp_path / "host-id").write_text("kaputt")
    assert host_id(tmp_path) != made  # a damaged file gets a new id rather than a bad one


def test_two_hosts_starting_at_once_on_an_empty_database_migrate_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    opened: list[HostStore] = []
    errors: list[BaseException] = []
    go = threading.Barrier(3)

    def start(name: str) -> None:
        go.wait()
        try:
            opened.append(HostStore(url, name))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start, args=(f"{i:016x}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        applied = [name for s in opened for name in s.applied]
        assert sorted(applied) == sorted(m.name for m in MIGRATIONS)  # each migration by exactly one of them
        with opened[0]._read() as conn:
            assert int(conn.execute(select(func.count()).select_from(schema_migrations)).scalar() or 0) == len(MIGRATIONS)
    finally:
        for s in opened:
            s.close()
