"""`tischblock host import-into URL` (issue 23): an evening's SQLite moves into the league's real
PostgreSQL, whole; a second run changes nothing; a clash refuses everything and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from cli import main
from sync.host.desk import Desk
from sync.host.league import League
from sync.host.schema import V1_TABLES, V2_TABLES, V3_TABLES, V4_TABLES
from sync.host.store import HostStore

from .pg_server import PostgresServer, postgres_server_fixture  # noqa: F401  (fixture)
from .test_league import play_evening

TABLES = [t for t in V1_TABLES + V2_TABLES + V3_TABLES + V4_TABLES if t.name not in ("schema_migrations", "host_settings")]


def dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every league table, without counters and times of this run (for comparing runs)."""
    store = HostStore(url)
    try:
        with store._read() as conn:
            return {t.name: sorted((tuple(r) for r in conn.execute(select(t))), key=repr) for t in TABLES}
    finally:
        store.close()


def evening(data_dir: Path, name: str, teams: list[str], seed: int) -> str:
    store = HostStore(f"sqlite:///{data_dir / 'host.sqlite3'}")
    try:
        return play_evening(store, League(store), name, teams, seed, "2026-11-20")
    finally:
        store.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["host", "import-into", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_importing_an_evening_twice_changes_nothing_the_second_time(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.new_database()
    league_store = HostStore(url, "1111111111111111")
    league = League(league_store)
    season = league.create_season("Watt-Cup 2026", "watten-turnier")
    desk = Desk(league_store)
    desk.roster_hook = league.link
    desk.create_tournament("Cup in der Liga", "watten-turnier", date="2026-11-01", rounds=1)
    league.join(desk.tournament().id, season.id)
    desk.import_roster("Startnummer;Name;Spieler 1;Spieler 2\n1;Adler;a;b\n2;Bären;c;d\n")
    bears = league.player_ids(desk.tournament().id)[2]

    hall = tmp_path / "hall"
    tid = evening(hall, "Abend im Gasthof", ["Adler", "Bären", "Dachse", "Eulen"], 7)
    local = HostStore(f"sqlite:///{hall / 'host.sqlite3'}")
    try:
        standings_there = League(local).tournament_standings(local.tournament(tid))  # type: ignore[arg-type]
        revisions_there = len(local.all_revisions())
    finally:
        local.close()

    code, out, err = run(capsys, url, "--data-dir", str(hall), "--season", season.id)
    assert code == 0, err
    assert out.startswith("Übernommen nach postgresql+psycopg://tischblock@127.0.0.1")
    assert f"Revisionen: {revisions_there} neu, 0 schon da" in out
    first = dump(url)

    code, out, err = run(capsys, url, "--data-dir", str(hall), "--season", season.id)
    assert code == 0, err
    assert out.startswith("Nichts zu tun: alles schon in")
    assert f"Revisionen: 0 neu, {revisions_there} schon da" in out
    assert dump(url) == first

    # In the league: the same standings, written only by the hall's host, in the season, Bären as one player.
    assert not league_store.owns(tid)
    imported = league_store.tournament(tid)
    assert imported is not None
    assert league.tournament_standings(imported) == standings_there
    assert [t.id for t, _ in league.tournaments(season.id)] == [desk.tournament().id, tid]
    assert league.player_ids(tid)[2] == bears
    rows = league.standings(season.id).rows  # the league's own evening has no sheet yet: no participation
    assert sorted(r.name for r in rows) == ["Adler", "Bären", "Dachse", "Eulen"]
    assert next(r for r in rows if r.name == "Bären").player_id == bears
    league_store.close()


def test_a_clash_or_a_bad_target_refuses_everything_and_changes_nothing(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.new_database()
    one, two = tmp_path / "one", tmp_path / "two"
    evening(one, "Kathreinwatten", ["A", "B"], 1)
    evening(two, "Kathreinwatten", ["C", "D"], 2)  # another evening, the same tournament id
    assert run(capsys, url, "--data-dir", str(one))[0] == 0
    before = dump(url)

    code, _, err = run(capsys, url, "--data-dir", str(two))
    assert code == 1 and "steht in der Liga-Datenbank schon mit anderem Inhalt" in err
    assert dump(url) == before

    league = League(HostStore(url))
    league.create_season("Schafkopf-Liga", "schafkopf-turnier")
    league.store.close()
    for args, message in [
        ((url, "--data-dir", str(tmp_path / "nichts")), "kein Abend"),
        ((url, "--data-dir", str(two), "--season", "gibt-es-nicht"), "gibt es nicht"),
        ((url, "--data-dir", str(two), "--season", "schafkopf-liga"), "wertet schafkopf-turnier"),
        (("postgresql+psycopg://niemand@127.0.0.1:1/x", "--data-dir", str(two)), "nicht erreichbar"),
        (("kein-url", "--data-dir", str(two)), "nicht erreichbar"),
    ]:
        code, _, err = run(capsys, *args)
        assert code == 1 and message in err, err
        assert "Traceback" not in err
    assert {k: v for k, v in dump(url).items() if k != "seasons"} == {k: v for k, v in before.items() if k != "seasons"}
