"""Several halls, one database (issue 23): two real ``tischblock host`` processes start at once on an
empty real PostgreSQL (migrations once, both serve) and run four evenings of one season, two at a
time. Every team's phone keeps its own sheet and sends it through the app's real sync code (its
store, the Startkarte's join line, ``HostClient`` and ``Outbox``); one host is killed mid-round and
restarted while a table's phones still hold their closed sheets. The season standings both hosts
show equal those worked out here from the four evenings' final standings, and the evenings are
arranged so that best 2 of 3 strikes a result, the minimum of two evenings leaves someone unranked,
and each tie-break level (more tournament wins, best single result, shared place) decides a place."""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import select

from scoring import Sheet
from scoring.standings import Standings
from sync.client import HostClient, NotAuthorized
from sync.host.auth import OTHER_HOST
from sync.host.schema import MIGRATIONS, revisions, schema_migrations
from sync.host.store import HostStore
from sync.outbox import SheetSyncState

from .hostproc import HostProcess
from .pages_helpers import AppPhone, form_key, new_season, organizer_session, watten_durchgang
from .pg_server import PostgresServer, postgres_server_fixture  # noqa: F401  (fixture)

API = "/api/v1/organizer"
PLACE_POINTS = (10, 6, 4, 2)
BEST_OF = 2
LEAST = 2
SWEEP, CLOSE = "A", "AAB"
"""How a table's winner wins its games: every game (places 1 and 4 of a four-team evening: the best
Punkteverhältnis and the worst), or two of three (places 2 and 3)."""

EVENINGS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    # evening: (winner, loser) of the sweeping table, then of the close one
    "Cup 1 Söll": (("Dachse", "Eulen"), ("Bären", "Füchse")),
    "Cup 2 Wörgl": (("Dachse", "Gämsen"), ("Bären", "Hasen")),
    "Cup 3 Söll": (("Adler", "Hasen"), ("Dachse", "Füchse")),
    "Cup 4 Wörgl": (("Igel", "Adler"), ("Eulen", "Gämsen")),
}
"""Places (10-6-4-2 points): Dachse 1, 1, 2 (best two: 20, the 2nd place struck); Adler 1, 4 and
Bären 2, 2 (12 each: Adler has a tournament win); Eulen 2, 4 and Füchse 3, 3 (8 each, no wins:
Eulen's best single result is 6); Gämsen and Hasen 3, 4 (6, 0, 4 each: shared); Igel won the one
evening it played (unranked)."""


@dataclass
class Evening:
    """One evening on one host: its id, join code and each table's (pattern, winner, phones with their sheets)."""

    id: str
    name: str
    code: str
    tables: list[tuple[str, int, list[tuple[AppPhone, Sheet]]]]


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
        for host in (a, b):
            host.stop()


@pytest.fixture
def phones() -> Iterator[list[AppPhone]]:
    """Every phone the test joins; their connections are closed at the end."""
    joined: list[AppPhone] = []
    yield joined
    for phone in joined:
        phone.close()


def migrations_reported(host: HostProcess) -> list[str]:
    for line in host.output:
        if "Datenbank eingerichtet: " in line:
            return line.split("Datenbank eingerichtet: ", 1)[1].split(", ")
    return []


def set_up(host: HostProcess, web: requests.Session, name: str, season: str, phones: list[AppPhone], root: Path) -> Evening:
    """A new one-Durchgang Watten evening on ``host`` in ``season``: its roster, a draw by hand (the
    sweeping table first), and every team's phone joined with its Startkarte and holding its table's sheet."""
    tables = EVENINGS[name]
    teams = [team for table in tables for team in table]
    made = web.post(f"{host.url}{API}/tournament", json={"name": name, "ruleset_id": "watten-turnier", "rounds": 1}, timeout=30)
    assert made.status_code == 201, made.text
    roster = "Startnummer;Name;Spieler 1;Spieler 2\n" + "".join(f"{n};{t};{t} 1;{t} 2\n" for n, t in enumerate(teams, 1))
    assert web.post(f"{host.url}{API}/roster/csv", json={"csv": roster}, timeout=30).status_code == 200
    drawn = web.post(f"{host.url}{API}/rounds/1/draw", json={"tables": [[1, 2], [3, 4]]}, timeout=30)
    assert drawn.status_code == 201, drawn.text
    joined = web.post(
        f"{host.url}/veranstalter/saison/zuordnen", data={"csrf": form_key(web, host, "/veranstalter/saison"), "season": season}
    )
    assert joined.status_code == 200 and "zählt jetzt für" in joined.text, joined.text[:2000]
    code = made.json()["join_code"]
    seats: list[list[tuple[AppPhone, Sheet]]] = [[], []]
    for number in range(1, 5):
        phone = AppPhone(host, number, root / name, code=code)
        phones.append(phone)
        seats[(number - 1) // 2].append((phone, phone.open_assigned(1)))
    return Evening(made.json()["id"], name, code, [(SWEEP, 1, seats[0]), (CLOSE, 3, seats[1])])


def write(seats: list[tuple[AppPhone, Sheet]], pattern: str, winner: int) -> None:
    """Each phone of the table enters the Durchgang game by game, then closes, signs and queues its sheet."""
    for phone, sheet in seats:
        first_wins = sheet.participants[0].start_number == winner
        played = watten_durchgang(sheet, pattern if first_wins else pattern.translate(str.maketrans("AB", "BA")), close=False)
        phone.write(sheet.id, played)
        phone.outbox.close_and_queue(sheet.id, sheet.participants[0].name)


def deliver(seats: list[tuple[AppPhone, Sheet]]) -> None:
    for phone, sheet in seats:
        report = phone.send()
        assert report.complete and report.acknowledged, report
        assert phone.status(sheet.id).state is SheetSyncState.AT_ORGANIZER


def play(evening: Evening) -> None:
    for pattern, winner, seats in evening.tables:
        write(seats, pattern, winner)
        deliver(seats)


def season_json(web: requests.Session, host: HostProcess) -> dict[str, Any]:
    reply = web.get(f"{host.url}{API}/seasons/unterland-cup/standings", timeout=30)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def final_standings(host: HostProcess, web: requests.Session) -> Standings:
    reply = web.get(f"{host.url}{API}/standings", timeout=30)
    assert reply.status_code == 200
    return Standings.model_validate(reply.json())


def season_rows(host: HostProcess, web: requests.Session, season: str) -> list[list[str]]:
    text = web.get(f"{host.url}/veranstalter/saison/{season}/saisonwertung.csv", timeout=30).text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    return rows[1 : rows.index([])]


def expected_rows(evenings: Sequence[tuple[str, Standings]]) -> list[list[str]]:
    """The season table worked out from the evenings' final standings by the scheme 10-6-4-2, best 2,
    at least 2 evenings, ties by tournament wins, then the best counted result, else shared."""
    results: dict[str, list[tuple[int, str, int]]] = {}
    for order, (name, standings) in enumerate(evenings):
        for row in standings.rows:
            results.setdefault(row.name, []).append((order, name, row.rank))
    lines = []
    for team, mine in results.items():
        valued = [(PLACE_POINTS[rank - 1] if rank <= len(PLACE_POINTS) else 0, order, name) for order, name, rank in mine]
        kept = sorted(valued, key=lambda v: (-v[0], v[1]))[:BEST_OF]
        counted = [v for v in valued if v in kept]
        key = (sum(p for p, _, _ in counted), sum(1 for _, _, rank in mine if rank == 1), max(p for p, _, _ in counted))
        lines.append((key, team, len(mine), counted, [v for v in valued if v not in kept]))
    ranked = sorted((x for x in lines if x[2] >= LEAST), key=lambda x: ((-x[0][0], -x[0][1], -x[0][2]), x[1]))
    levels = ("Punkte", "mehr Turniersiege", "bestes Einzelergebnis")
    out: list[list[str]] = []
    for i, (key, team, played, counted, struck) in enumerate(ranked):
        above = ranked[i - 1][0] if i else None
        neighbours = [ranked[j][0] for j in (i - 1, i + 1) if 0 <= j < len(ranked)]
        if key in neighbours:
            decided = "geteilter Platz"
        else:
            other = above or neighbours[0]
            decided = levels[next(n for n in range(3) if key[n] != other[n])]
        rank = out[-1][0] if above == key else str(i + 1)
        out.append([rank, team, *_figures(key, played, counted, struck), decided])
    for key, team, played, counted, struck in sorted((x for x in lines if x[2] < LEAST), key=lambda x: x[1]):
        out.append(["–", team, *_figures(key, played, counted, struck), f"nicht gewertet: {played} von mindestens {LEAST} Teilnahmen"])
    return out


def _figures(key: tuple[int, int, int], played: int, counted: list[tuple[int, int, str]], struck: list[tuple[int, int, str]]) -> list[str]:
    listed = [", ".join(f"{name} ({points})" for points, _, name in part) for part in (counted, struck)]
    return [str(key[0]), str(played), str(key[1]), str(key[2]), *listed]


def test_two_halls_one_season_on_one_postgresql(
    halls: tuple[str, HostProcess, HostProcess], phones: list[AppPhone], tmp_path: Path
) -> None:
    url, soell, woergl = halls
    # Started at once on an empty database: every migration ran exactly once, by one of them, and both serve.
    reported = migrations_reported(soell) + migrations_reported(woergl)
    assert sorted(reported) == sorted(m.name for m in MIGRATIONS)
    league = HostStore(url)
    try:
        with league._read() as conn:
            assert sorted(conn.execute(select(schema_migrations.c.name)).scalars()) == sorted(m.name for m in MIGRATIONS)
        web_a, web_b = organizer_session(soell), organizer_session(woergl)
        assert soell.organizer("/api/v1/info").json()["tournament_name"] == "Abend Söll"
        assert woergl.organizer("/api/v1/info").json()["tournament_name"] == "Abend Wörgl"
        created = new_season(
            web_a, soell, "Unterland-Cup", "watten-turnier", "Liga", place_points="10, 6, 4, 2", best_of=str(BEST_OF),
            min_participations=str(LEAST),
        )
        assert created.status_code == 200, created.text[:2000]

        cup1 = set_up(soell, web_a, "Cup 1 Söll", "unterland-cup", phones, tmp_path)
        cup2 = set_up(woergl, web_b, "Cup 2 Wörgl", "unterland-cup", phones, tmp_path)
        # Wörgl's organizer cannot put Söll's evening into a season (nor take it anywhere): refused, nothing changed.
        counted = season_json(web_b, woergl)["tournaments"]
        assert counted == [cup1.id, cup2.id]
        for season, message in (("unterland-cup", "schreibt ein anderer Host"), ("gibt-es-nicht", "gibt es nicht")):
            refused = web_b.put(f"{woergl.url}{API}/seasons/{season}/tournaments/{cup1.id}", timeout=30)
            assert refused.status_code == 422 and message in refused.json()["detail"], refused.text
        assert season_json(web_a, soell)["tournaments"] == counted
        # A phone of Söll's evening is nobody at Wörgl's host, though both read one database: the app's
        # own client gets the refusal, the first time and again (a remembered stranger is still a
        # stranger), and nothing is stored.
        stranger, its_sheet = cup1.tables[0][2][0]
        sheet = watten_durchgang(its_sheet, "A", close=False, games=1)
        with HostClient(woergl.url, fingerprint=woergl.fingerprint, token=stranger.credentials.device_token) as foreign:
            with pytest.raises(NotAuthorized, match=OTHER_HOST):
                foreign.assignment(1)
            for _ in range(2):
                with pytest.raises(NotAuthorized, match=OTHER_HOST):
                    foreign.submit(sheet)
        with league._read() as conn:
            assert not conn.execute(select(revisions.c.revision).where(revisions.c.sheet_id == str(sheet.id))).first()

        # Both evenings at once; Wörgl's host dies while its second table's phones hold their closed sheets.
        in_soell = threading.Thread(target=play, args=(cup1,))
        in_soell.start()
        (sweep, winner, first), (close, runner_up, second) = cup2.tables
        write(first, sweep, winner)
        deliver(first)
        write(second, close, runner_up)
        woergl.kill()
        for phone, sheet in second:
            report = phone.send()
            assert report.acknowledged == () and report.problem and "nicht erreichbar" in report.problem, report
            assert phone.status(sheet.id).state is SheetSyncState.WAITING
        woergl.tournament, woergl.join_code = cup2.name, cup2.code  # its current evening
        woergl.start(timeout=120)
        deliver(second)  # the same outboxes, as the app's service retries
        in_soell.join()
        standings = [(cup1.name, final_standings(soell, web_a)), (cup2.name, final_standings(woergl, web_b))]

        # Evenings 3 and 4, again in both halls at once.
        cup3 = set_up(soell, web_a, "Cup 3 Söll", "unterland-cup", phones, tmp_path)
        cup4 = set_up(woergl, web_b, "Cup 4 Wörgl", "unterland-cup", phones, tmp_path)
        in_soell = threading.Thread(target=play, args=(cup3,))
        in_soell.start()
        play(cup4)
        in_soell.join()
        standings += [(cup3.name, final_standings(soell, web_a)), (cup4.name, final_standings(woergl, web_b))]
        for name, evening in standings:  # the sweep gives places 1 and 4, the close table 2 and 3
            (w1, l1), (w2, l2) = EVENINGS[name]
            assert {r.name: r.rank for r in evening.rows} == {w1: 1, w2: 2, l2: 3, l1: 4}, (name, evening.rows)

        want = expected_rows(standings)
        for host, web in ((soell, web_a), (woergl, web_b)):  # read across both halls, from either host
            assert season_rows(host, web, "unterland-cup") == want
            as_json = season_json(web, host)
            assert [[str(r["rank"] or "–"), r["name"], str(r["total"]), r["decided_by"]] for r in as_json["rows"]] == [
                [row[0], row[1], row[2], row[8]] for row in want
            ]
        decided = {row[1]: row[8] for row in want}
        # Each level decides a place at least once, best 2 of 3 struck a result, one evening is too few.
        assert decided["Adler"] == "Punkte" and decided["Bären"] == "mehr Turniersiege"
        assert decided["Eulen"] == "Punkte" and decided["Füchse"] == "bestes Einzelergebnis"
        assert decided["Gämsen"] == decided["Hasen"] == "geteilter Platz"
        dachse = next(row for row in want if row[1] == "Dachse")
        assert dachse[:3] == ["1", "Dachse", "20"] and dachse[7] == "Cup 3 Söll (6)"
        assert next(row for row in want if row[1] == "Igel")[0] == "–"
    finally:
        league.close()
