"""Whole simulated tournaments through the real host (``tischblock host`` on 127.0.0.1, HTTPS, pinned).

Per ruleset: the organizer sets the tournament up with the JSON endpoints (plan, roster CSV), draws
three rounds; every entrant's phone joins with its Startnummer (``HostClient`` as the app does), asks
for its assignment, writes the games on the prepared sheet in its own ``SheetStore`` and the
``Outbox`` (what the app's ``SyncService`` runs) sends it. The final standings must equal an
expectation the test works out itself from the sheets: each sheet scored by its ruleset and summed
per Startnummer. Watten also has a disputed table that the organizer resolves: it shows in the
standings, and the trail shows who decided what.
"""

from __future__ import annotations

import itertools
import random
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import requests

from scoring import Entry, Replacement, Sheet, find_ruleset
from storage import SheetStore
from sync.client import Credentials, HostClient, NotAuthorized, SheetConflict
from sync.outbox import Outbox

from .hostproc import JOIN_CODE, PASSWORD, HostProcess, running_host
from .tournament_data import WATTEN_EXPECTED, WATTEN_TABLES, watten_entries, watten_roster
from .tournament_sim import play_random, play_watten, sign, watten_durchgang

TIMINGS: dict[str, float] = {}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as running:
        yield running


class Organizer:
    """The organizer's side: the JSON endpoints with the password, over the pinned certificate."""

    def __init__(self, host: HostProcess) -> None:
        self.client = HostClient(host.url, fingerprint=host.fingerprint)
        self.url = host.url

    def call(self, method: str, path: str, json: Any = None, status: int | None = None) -> Any:
        response = self.client.session.request(
            method, f"{self.url}/api/v1/organizer{path}", json=json, auth=("organizer", PASSWORD), timeout=60
        )
        expected = status or (201 if method == "POST" else 200)
        assert response.status_code == expected, response.text[:2000]
        return response.json() if "json" in response.headers.get("content-type", "") else response.text


@dataclass
class Phone:
    start_number: int
    store: SheetStore
    credentials: Credentials
    client: HostClient

    def sheet_for(self, round: int) -> Sheet:
        found = self.client.assignment(round)
        assert found.start_number == self.start_number and found.round == round
        return found.sheet

    def write_and_send(self, sheet: Sheet) -> None:
        """The sheet goes into the phone's store and out through its outbox, as in the app."""
        self.store.create(sheet)
        outbox = Outbox(self.store, self.client, self.credentials)
        outbox.queue(sheet.id)
        report = outbox.send_pending()
        assert report.problem is None and not report.refused, report
        assert (sheet.id, len(sheet.entries)) in report.acknowledged


def join_all(host: HostProcess, tmp: Path, numbers: list[int], code: str) -> dict[int, Phone]:
    phones = {}
    for n in numbers:
        client = HostClient(host.url, fingerprint=host.fingerprint)
        creds = client.join(code, None, None, f"Handy {n}", start_number=n, secret=host.secret(n))
        assert creds.start_number == n and creds.table is None
        phones[n] = Phone(n, SheetStore(tmp / f"handy-{n}"), creds, client)
    return phones


def roster_csv(count: int, team: bool) -> str:
    if team:
        head = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n"
        return head + "".join(f"{n};Team {n};Spieler {n}a;Spieler {n}b\n" for n in range(1, count + 1))
    return "Startnummer;Name;Verein\n" + "".join(f"{n};Spieler {n};Verein {n % 5}\n" for n in range(1, count + 1))


def setup(organizer: Organizer, name: str, ruleset: str, count: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    made = organizer.call(
        "POST", "/tournament", {"name": name, "ruleset_id": ruleset, "date": "2026-11-23", "options": options, "rounds": 3}
    )
    team = made["plan"]["unit"] == "team"
    roster = organizer.call("POST", "/roster/csv", {"csv": roster_csv(count, team)}, status=200)
    assert len(roster) == count
    return dict(made)


def keepers(draw: dict[str, Any], sheets_per_table: int) -> list[tuple[int, int]]:
    """(table, start number) of the phones that keep a sheet: both teams (Watten), else seat 1 (Listenführer)."""
    out = []
    for table in draw["tables"]:
        seats = sorted(table["seats"], key=lambda s: s["seat"])
        for seat in seats[:sheets_per_table]:
            out.append((table["table"], seat["start_number"]))
    return out


def expected_watten(sheets: list[Sheet]) -> dict[int, tuple[int, int, int]]:
    ruleset = find_ruleset("watten-turnier")
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for sheet in sheets:
        result = ruleset.score(sheet).result
        for p in sheet.participants:
            team = result.teams[p.id]  # type: ignore[attr-defined]
            row = sums[p.start_number or 0]
            row[0] += team.bummerl_won
            row[1] += team.points
            row[2] += team.points_against
    return {n: (a, b, c) for n, (a, b, c) in sums.items()}


def expected_sum(sheets: list[Sheet], figure: str) -> dict[int, int]:
    """Per Startnummer, the sum over the sheets of one figure of each participant's result."""
    sums: dict[int, int] = defaultdict(int)
    for sheet in sheets:
        result = find_ruleset(sheet.ruleset.id).score(sheet).result
        for p in sheet.participants:
            if figure == "bummerl_won":
                sums[p.start_number or 0] += result.bummerl_won[p.id]  # type: ignore[attr-defined]
            else:
                sums[p.start_number or 0] += getattr(result.spieler[p.id], figure)  # type: ignore[attr-defined]
    return dict(sums)


def play_rounds(
    organizer: Organizer, phones: dict[int, Phone], plan: dict[str, Any], seed: int, disputed: bool = False
) -> tuple[list[Sheet], dict[str, Any]]:
    """Three rounds: draw, every keeping phone writes and sends its sheet; the counted sheets, and the dispute."""
    rng = random.Random(seed)
    counted: list[Sheet] = []
    dispute: dict[str, Any] = {}
    for round in (1, 2, 3):
        draw = organizer.call("POST", f"/rounds/{round}/draw", {"seed": seed * 10 + round})
        organizer.call("POST", f"/rounds/{round}/start", status=200)
        by_table: dict[int, list[tuple[int, Sheet]]] = defaultdict(list)
        for table, number in keepers(draw, plan["sheets_per_table"]):
            by_table[table].append((number, phones[number].sheet_for(round)))
        for table, prepared in sorted(by_table.items()):
            if plan["ruleset_id"] == "watten-turnier":
                winners = watten_durchgang(rng)
                written = [play_watten(s, winners) for _, s in prepared]
                if disputed and round == 2 and table == 1:
                    wrong = list(winners)
                    wrong[4] = "B" if wrong[4] == "A" else "A"
                    written[1] = play_watten(prepared[1][1], wrong, finish=True)
                    dispute = {"round": 2, "table": 1, "right": written[0], "wrong": written[1], "wrong_phone": prepared[1][0]}
            else:
                written = [play_random(s, rng) for _, s in prepared]
            for (number, _), sheet in zip(prepared, written, strict=True):
                phones[number].write_and_send(sheet)
            counted.append(written[0])
    return counted, dispute


def check_order(rows: list[dict[str, Any]], key: Any) -> None:
    keys = [key(r) for r in rows]
    assert keys == sorted(keys, reverse=True), keys
    for above, below in itertools.pairwise(rows):
        if key(above) != key(below):
            assert above["rank"] < below["rank"], (above, below)


def test_watten_32_teams_with_a_disputed_table(host: HostProcess, tmp_path: Path) -> None:
    started = time.monotonic()
    organizer = Organizer(host)
    made = setup(organizer, "Kathreinwatten Söll 2026", "watten-turnier", 32)
    plan = made["plan"]
    assert (plan["rounds"], plan["time_limit_minutes"], plan["sheets_per_table"]) == (3, 70, 2)

    # A tournament with a roster takes phones by Startnummer only; an unknown number is refused.
    with HostClient(host.url, fingerprint=host.fingerprint) as stranger:
        with pytest.raises(Exception, match="Startnummer"):
            stranger.join(made["join_code"], 4, "A", "Handy Tisch 4")
        with pytest.raises(Exception, match="Startnummer 99 steht nicht auf der Startliste"):
            stranger.join(made["join_code"], None, None, "Handy 99", start_number=99)
        with pytest.raises(Exception, match="Beitrittscode"):
            stranger.join(JOIN_CODE, None, None, "Handy 1", start_number=1)  # the first tournament's code is no longer good
    phones = join_all(host, tmp_path, list(range(1, 33)), made["join_code"])
    with pytest.raises(Exception, match="noch nicht ausgelost"):
        phones[1].client.assignment(1)

    counted, dispute = play_rounds(organizer, phones, plan, seed=7, disputed=True)

    # The disputed table: the host sees it, leaves it out of the standings until decided.
    tables = organizer.call("GET", "/rounds/2/tables")
    (table1,) = [t for t in tables if t["draw"]["table"] == 1]
    assert table1["status"]["state"] == "uneinig", table1["status"]
    standing = organizer.call("GET", "/standings")
    assert any("Tisch 1" in n and "uneinig" in n for n in standing["notes"]), standing["notes"]
    side = organizer.call("GET", "/rounds/2/tables/1/dispute")
    assert side["comparison"]["first_difference"] == 5 and side["lines"][0][0].startswith("5. Spiel: ")

    # A sheet for a table the phone is not drawn to is refused (403, German).
    wrong_phone = phones[dispute["wrong_phone"]]
    elsewhere = dispute["right"].model_copy(
        update={"context": dispute["right"].context.model_copy(update={"table": 2}), "id": uuid.uuid4()}
    )
    with pytest.raises(NotAuthorized, match=r"Startnummer \d+ ist in Durchgang 2 an Tisch 1 ausgelost, nicht an Tisch 2"):
        wrong_phone.client.submit(elsewhere)

    decision = organizer.call(
        "POST",
        "/rounds/2/tables/1/decide",
        {"sheet_id": str(dispute["right"].id), "reason": "Spiel 5 laut beiden Spielern für die Gäste", "by": "Sepp Huber"},
    )
    assert decision["decided_by"] == "Sepp Huber" and decision["kind"] == "entscheidung"
    trail = organizer.call("GET", "/decisions")
    assert [(d["decided_by"], d["reason"], d["table"], d["round"]) for d in trail] == [
        ("Sepp Huber", "Spiel 5 laut beiden Spielern für die Gäste", 1, 2)
    ]
    decided = Sheet.model_validate(
        next(h["sheet"] for h in organizer.call("GET", "/rounds/2/tables")[0]["sheets"] if h["written_by_host"])
    )
    assert decided.entries[-1].device == "Turnierleitung" and "Sepp Huber" in (decided.entries[-1].reason or "")

    # The phone that lost may not undo the decision with a later revision of its sheet.
    later = dispute["wrong"].with_entry(
        Entry(kind="correction", target=5, replacement=Replacement(kind="game", data={"winner": "A"}))
    )
    with pytest.raises(SheetConflict, match="Turnierleitung hat über Tisch 1 entschieden"):
        wrong_phone.client.submit(later)

    standing = organizer.call("GET", "/standings")
    assert not any("uneinig" in n for n in standing["notes"]), standing["notes"]
    expected = expected_watten(counted)
    got = {r["start_number"]: tuple(r["values"][:3]) for r in standing["rows"]}
    assert got == expected

    def primary(row: dict[str, Any]) -> tuple[int, Fraction | float, int]:
        won, points, against = row["values"][:3]
        return (won, float("inf") if against == 0 else Fraction(points, against), points)

    check_order(standing["rows"], primary)
    csv_text = organizer.call("GET", "/exports/standings.csv")
    assert "Team 1" in csv_text
    TIMINGS["watten"] = time.monotonic() - started


@pytest.mark.parametrize(
    ("ruleset", "count", "options", "figure"),
    [
        ("schafkopf-turnier", 64, {"spiele": 12}, "ergebnis"),
        ("doppelkopf-turnier", 66, None, "punkte"),
        ("bauernschnapsen", 16, {"bummerl_count": 1, "target": 12}, "bummerl_won"),
    ],
)
def test_simulated_tournament(
    host: HostProcess, tmp_path: Path, ruleset: str, count: int, options: dict[str, Any] | None, figure: str
) -> None:
    started = time.monotonic()
    organizer = Organizer(host)
    made = setup(organizer, f"Turnier {ruleset}", ruleset, count, options)
    phones = join_all(host, tmp_path, list(range(1, count + 1)), made["join_code"])
    counted, _ = play_rounds(organizer, phones, made["plan"], seed=3)
    if ruleset.startswith("doppelkopf"):
        sizes = {len(t["seats"]) for r in (1, 2, 3) for t in organizer.call("GET", f"/rounds/{r}/draw")["tables"]}
        assert sizes == {4, 5}
    standing = organizer.call("GET", "/standings")
    expected = expected_sum(counted, figure)
    got = {r["start_number"]: r["values"][0] for r in standing["rows"]}
    assert got == expected, standing["notes"]
    check_order(standing["rows"], lambda r: r["values"][0])
    TIMINGS[ruleset] = time.monotonic() - started


_ = requests  # the organizer's session is requests', through HostClient


def test_watten_every_tie_break_level_through_the_host(host: HostProcess, tmp_path: Path) -> None:
    """t-core's ten-team Watten tournament (tests/tournament_data.py), where every level of Regel 13
    decides once, played through the host: the organizer enters its draw by hand (the paper Lose),
    both teams' phones write each table's games on their prepared sheets, one table is disputed and
    decided; the standings are the ones worked out by hand there, tie-breaks included."""
    organizer = Organizer(host)
    made = organizer.call("POST", "/tournament", {"name": "Watten Regel 13", "ruleset_id": "watten-turnier", "rounds": 3})
    roster = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n" + "".join(
        f"{e.start_number};{e.name};{e.members[0]};{e.members[1]}\n" for e in watten_roster().entrants
    )
    organizer.call("POST", "/roster/csv", {"csv": roster}, status=200)
    phones = join_all(host, tmp_path, [e.start_number for e in watten_roster().entrants], made["join_code"])
    refused = organizer.client.session.post(
        f"{host.url}/api/v1/organizer/rounds/1/draw",
        json={"tables": [[1, 2], [2, 3]]},
        auth=("organizer", PASSWORD),
        timeout=30,
    )
    assert refused.status_code == 422 and "sitzt schon an einem anderen Tisch" in refused.json()["detail"]
    assert "Ohne Tisch: Startnummer 4, 5, 6, 7, 8, 9, 10" in refused.json()["detail"]
    for round in (1, 2, 3):
        tables = sorted((t, a, b, bummerl) for r, t, a, b, bummerl in WATTEN_TABLES if r == round)
        drawn = organizer.call("POST", f"/rounds/{round}/draw", {"tables": [[a, b] for _, a, b, _ in tables]})
        assert [[s["start_number"] for s in t["seats"]] for t in drawn["tables"]] == [[a, b] for _, a, b, _ in tables]
        for table, a, b, bummerl in tables:
            entries = [Entry(kind=kind, data=data) for kind, data in watten_entries(bummerl)]
            for number in (a, b):
                sheet = phones[number].sheet_for(round)
                assert (sheet.context.table, [p.start_number for p in sheet.participants]) == (table, [a, b])
                games = entries
                if (round, table, number) == (3, 1, b):  # this team's phone writes its first game wrong
                    first = entries[0]
                    games = [
                        first.model_copy(update={"data": {**first.data, "winner": "B" if first.data["winner"] == "A" else "A"}})
                    ]
                    games += entries[1:]
                for e in games:
                    sheet = sheet.with_entry(e)
                phones[number].write_and_send(sign(sheet))
    assert organizer.call("GET", "/rounds/3/tables")[0]["status"]["state"] == "uneinig"
    side = organizer.call("GET", "/rounds/3/tables/1/dispute")
    assert side["comparison"]["first_difference"] == 1
    right = next(h["sheet"]["id"] for h in side["sheets"] if h["sheet"]["context"]["written_by"] == "A")
    organizer.call(
        "POST", "/rounds/3/tables/1/decide", {"sheet_id": right, "reason": "Spielzettel von Tisch 1 geprüft", "by": "Vroni Egger"}
    )
    standing = organizer.call("GET", "/standings")
    rows = [(r["rank"], r["start_number"], tuple(r["values"]), r["decided_by"]) for r in standing["rows"]]
    assert rows == list(WATTEN_EXPECTED), standing["notes"]
    (trail,) = organizer.call("GET", "/decisions")
    assert (trail["decided_by"], trail["reason"], trail["round"], trail["table"]) == (
        "Vroni Egger",
        "Spielzettel von Tisch 1 geprüft",
        3,
        1,
    )


def test_timings_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print("\nSimulated tournaments through the host (seconds):", {k: round(v, 1) for k, v in TIMINGS.items()})
