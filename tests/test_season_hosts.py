"""Several halls, one database (issue 23): two real ``tischblock host`` processes start at once on an
empty real PostgreSQL (migrations once, both serve), run evenings of one season at the same time
through the phones' real API, one host is killed mid-round and restarted, and the season standings
both hosts show equal those worked out here from the evenings' final standings."""

from __future__ import annotations

import csv
import io
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from sqlalchemy import select

from scoring.season import SeasonScheme, SeasonTournament, placings_from_standings, season_standings
from scoring.standings import Standings
from sync.host.auth import OTHER_HOST
from sync.host.schema import MIGRATIONS, revisions, schema_migrations
from sync.host.store import HostStore
from sync.protocol import revision_path

from .host_helpers import pinned_session
from .hostproc import HostProcess
from .pages_helpers import AUTH, Phone, watten_durchgang
from .pg_server import PostgresServer, postgres_server_fixture  # noqa: F401  (fixture)

API = "/api/v1/organizer"
SCHEME = SeasonScheme(name="Liga", place_points=(10, 6, 4, 2), best_of=2, min_participations=2)


def roster(*names: str) -> str:
    return "Startnummer;Name;Spieler 1;Spieler 2\n" + "".join(f"{n};{name};{name} 1;{name} 2\n" for n, name in enumerate(names, 1))


def session(host: HostProcess) -> requests.Session:
    web = pinned_session(host.fingerprint)
    web.auth = AUTH
    return web


def form_key(web: requests.Session, host: HostProcess) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get(host.url + "/veranstalter/saison", timeout=30).text)
    assert found
    return found.group(1)


@pytest.fixture
def halls(postgres_server: PostgresServer, tmp_path: Path) -> Iterator[tuple[str, HostProcess, HostProcess]]:
    url = postgres_server.new_database()
    a = HostProcess(tmp_path / "soell", tournament="Abend Söll", database_url=url)
    b = HostProcess(tmp_path / "woergl", tournament="Abend Wörgl", database_url=url)
    errors: list[BaseException] = []
    go = threading.Barrier(2)

    def start(host: HostProcess) -> None:
        go.wait()
        try:
            host.start(timeout=120)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start, args=(h,)) for h in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == [], errors
        yield url, a, b
    finally:
        a.stop()
        b.stop()


def migrations_reported(host: HostProcess) -> list[str]:
    for line in host.output:
        if "Datenbank eingerichtet: " in line:
            return line.split("Datenbank eingerichtet: ", 1)[1].split(", ")
    return []


def evening(host: HostProcess, web: requests.Session, name: str, teams: str, seed: int) -> tuple[str, list[list[Phone]]]:
    """A new one-Durchgang Watten evening on ``host`` with its roster and draw; the phones of each table, joined."""
    made = web.post(f"{host.url}{API}/tournament", json={"name": name, "ruleset_id": "watten-turnier", "rounds": 1}, timeout=30)
    assert made.status_code == 201, made.text
    assert web.post(f"{host.url}{API}/roster/csv", json={"csv": teams}, timeout=30).status_code == 200
    drawn = web.post(f"{host.url}{API}/rounds/1/draw", json={"seed": seed}, timeout=30)
    assert drawn.status_code == 201, drawn.text
    code = made.json()["join_code"]
    tables = [[Phone(host, code, seat["start_number"]) for seat in table["seats"]] for table in drawn.json()["tables"]]
    return made.json()["id"], tables


def play(tables: list[list[Phone]], patterns: list[str]) -> None:
    for phones, winners in zip(tables, patterns, strict=True):
        for phone in phones:
            phone.submit(watten_durchgang(phone.sheet(1), winners))


def join_season(host: HostProcess, web: requests.Session, season: str) -> None:
    joined = web.post(f"{host.url}/veranstalter/saison/zuordnen", data={"csrf": form_key(web, host), "season": season}, timeout=30)
    assert joined.status_code == 200 and "zählt jetzt für" in joined.text, joined.text[:2000]


def final_standings(host: HostProcess, web: requests.Session) -> Standings:
    reply = web.get(f"{host.url}{API}/standings", timeout=30)
    assert reply.status_code == 200
    return Standings.model_validate(reply.json())


def season_rows(host: HostProcess, web: requests.Session, season: str) -> list[tuple[str, str, str, str, str, str]]:
    text = web.get(f"{host.url}/veranstalter/saison/{season}/saisonwertung.csv", timeout=30).text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    return [(r[0], r[1], r[2], r[3], r[6], r[7]) for r in rows[1 : rows.index([])]]


def test_two_halls_one_season_on_one_postgresql(halls: tuple[str, HostProcess, HostProcess]) -> None:
    url, soell, woergl = halls
    # Started at once on an empty database: every migration ran exactly once, by one of them, and both serve.
    reported = migrations_reported(soell) + migrations_reported(woergl)
    assert sorted(reported) == sorted(m.name for m in MIGRATIONS)
    store = HostStore(url)
    try:
        with store._read() as conn:
            assert sorted(conn.execute(select(schema_migrations.c.name)).scalars()) == sorted(m.name for m in MIGRATIONS)
    finally:
        store.close()
    web_a, web_b = session(soell), session(woergl)
    assert soell.organizer("/api/v1/info").json()["tournament_name"] == "Abend Söll"
    assert woergl.organizer("/api/v1/info").json()["tournament_name"] == "Abend Wörgl"

    created = web_a.post(
        f"{soell.url}/veranstalter/saison/neu",
        data={"csrf": form_key(web_a, soell), "name": "Unterland-Cup", "family": "watten-turnier", "scheme_name": "Liga",
              "points": "places", "place_points": "10, 6, 4, 2", "best_of": "2", "min_participations": "2"},
        timeout=30,
    )
    assert created.status_code == 200, created.text[:2000]

    # Evening 1 in Söll and evening 2 in Wörgl at the same time; Wörgl's host dies mid-round.
    t1, tables1 = evening(soell, web_a, "Cup 1 Söll", roster("Adler", "Bären", "Dachse", "Eulen"), 1)
    join_season(soell, web_a, "unterland-cup")
    t2, tables2 = evening(woergl, web_b, "Cup 2 Wörgl", roster("Bären", "Dachse", "Eulen", "Füchse"), 2)
    join_season(woergl, web_b, "unterland-cup")
    # A phone of Söll's evening is nobody at Wörgl's host, though both read one database.
    stranger = tables1[0][0]
    foreign = pinned_session(woergl.fingerprint).get(
        f"{woergl.url}/api/v1/assignment", params={"round": 1}, headers={"X-Tischblock-Token": stranger.token}, timeout=30
    )
    assert foreign.status_code == 401 and OTHER_HOST in foreign.text
    # Nor can it deliver a sheet there, the first time or again (the host remembers devices it has
    # looked up: a remembered stranger is still a stranger), and the refusals store nothing.
    sheet = watten_durchgang(stranger.sheet(1), "A", close=False, games=1)
    for _ in range(2):
        put = pinned_session(woergl.fingerprint).put(
            f"{woergl.url}{revision_path(sheet.id, len(sheet.entries))}",
            data=sheet.to_json().encode("utf-8"),
            headers={"Content-Type": "application/json", "X-Tischblock-Token": stranger.token},
            timeout=30,
        )
        assert put.status_code == 401 and OTHER_HOST in put.text, put.text
    league = HostStore(url)
    try:
        with league._read() as conn:
            assert not conn.execute(select(revisions.c.revision).where(revisions.c.sheet_id == str(sheet.id))).first()
    finally:
        league.close()

    play_a = threading.Thread(target=play, args=(tables1, ["A", "AAB"]))
    play_a.start()
    play(tables2[:1], ["ABB"])
    woergl.kill()
    woergl.tournament, woergl.join_code = "Cup 2 Wörgl", tables2[0][0].join_code  # its current evening
    woergl.start(timeout=120)
    play(tables2[1:], ["A"])
    play_a.join()
    standings1 = final_standings(soell, web_a)  # Söll's current evening until evening 3 starts
    standings2 = final_standings(woergl, web_b)

    # Evening 3 in Söll (Füchse again, Adler not): everyone but Adler now has two or more evenings.
    t3, tables3 = evening(soell, web_a, "Cup 3 Söll", roster("Bären", "Dachse", "Eulen", "Füchse"), 3)
    join_season(soell, web_a, "unterland-cup")
    play(tables3, ["AB", "A"])
    standings3 = final_standings(soell, web_a)

    # The expectation, worked out here from the three evenings' final standings (a player is their name).
    given = [
        SeasonTournament(id=tid, name=name, placings=placings_from_standings(s, {}))
        for tid, name, s in ((t1, "Cup 1 Söll", standings1), (t2, "Cup 2 Wörgl", standings2), (t3, "Cup 3 Söll", standings3))
    ]
    expected = season_standings(given, SCHEME)
    want = [
        (
            str(r.rank) if r.rank is not None else "–",
            r.name,
            str(r.total),
            str(r.participations),
            ", ".join(f"{x.tournament_name} ({x.season_points})" for x in r.counted),
            ", ".join(f"{x.tournament_name} ({x.season_points})" for x in r.not_counted),
        )
        for r in expected.rows
    ]
    assert [r.name for r in expected.rows if r.rank is None] == ["Adler"]  # one evening: listed, not ranked
    assert any(r.not_counted for r in expected.rows)  # best 2 of 3 struck a result
    assert season_rows(soell, web_a, "unterland-cup") == want
    assert season_rows(woergl, web_b, "unterland-cup") == want  # read across both halls, from either host
