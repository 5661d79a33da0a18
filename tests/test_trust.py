"""Trust at the hall (issue 20), against the real host: a phone writes only its own team's sheet at its
own table, joins for a Startnummer only with its secret, and every refusal changes nothing.

Every refusal here is checked against a dump of every table of the host's database before and after
(``dump_store``): no stored revision, no conflict row, no claim, no device.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from scoring import Sheet
from sync.host.auth import REVOKED
from sync.protocol import TOKEN_HEADER

from .host_helpers import (
    RunningHost,
    dump_store,
    organizer_call,
    start_host,
    wait_for_log,
    watten_sheet,
    with_game,
)
from .tournament_sim import play_watten

TOURNAMENT = "kathreinwatten-soell-2026"
ROSTER = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n" + "".join(
    f"{n};{name};{name} 1;{name} 2\n"
    for n, name in enumerate(["Die Sautreiber", "Kartlbrüder Wörgl", "Stanglwirt-Buam", "Hopfgartner Asse"], start=1)
)


@pytest.fixture(scope="module")
def tables_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    """A tables-only tournament: no plan, no roster; phones join for a table and a team."""
    running = start_host(tmp_path_factory.mktemp("tables"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def drawn_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    """A Watten tournament with four teams and Durchgang 1 drawn."""
    running = start_host(tmp_path_factory.mktemp("drawn"))
    try:
        assert organizer_call(running, "PUT", "/plan", {"ruleset_id": "watten-turnier"}).status_code == 200
        assert organizer_call(running, "POST", "/roster/csv", {"csv": ROSTER}).status_code == 200
        assert organizer_call(running, "POST", "/rounds/1/draw", {"seed": 2026}).status_code == 201
        yield running
    finally:
        running.stop()


def refused(host: RunningHost, reply: Any, status: int, words: str) -> None:
    assert reply.status_code == status, reply.text
    assert words in reply.json()["detail"], reply.json()


def unchanged(host: RunningHost, before: dict[str, Any]) -> None:
    assert dump_store(host.data_dir) == before


# -- tables-only tournaments -------------------------------------------------------------------------


def test_a_phone_cannot_write_into_another_tables_sheet(tables_host: RunningHost) -> None:
    host = tables_host
    one = host.join(table=1, team="A")["device_token"]
    two = host.join(table=2, team="A")["device_token"]
    theirs = watten_sheet(TOURNAMENT, 2, 5)
    assert host.put(theirs, two).status_code == 201
    before = dump_store(host.data_dir)
    # Table 1's phone puts a revision under table 2's sheet id, the body saying table 1 (issue 20, first finding).
    hijack = watten_sheet(TOURNAMENT, 1, 6, sheet_id=theirs.id)
    refused(host, host.put(hijack, one), 403, "gehört einem anderen Tisch")
    # ... and the body saying table 2.
    refused(host, host.put(watten_sheet(TOURNAMENT, 2, 6, sheet_id=theirs.id), one), 403, "nur Blätter von Tisch 1")
    unchanged(host, before)
    # Table 2's own phone delivers on as if nothing happened: no 409, nothing set aside.
    assert host.put(watten_sheet(TOURNAMENT, 2, 6, sheet_id=theirs.id), two).status_code == 201
    assert host.organizer("/conflicts").json() == []


def test_a_phone_cannot_write_as_the_other_team(tables_host: RunningHost) -> None:
    host = tables_host
    team_a = host.join(table=3, team="A")["device_token"]
    team_b = host.join(table=3, team="B")["device_token"]
    b_sheet = watten_sheet(TOURNAMENT, 3, 5, written_by="B", correction=False)
    before = dump_store(host.data_dir)
    refused(host, host.put(b_sheet, team_a), 403, "schreibt für A")
    unchanged(host, before)
    assert host.put(b_sheet, team_b).status_code == 201
    # A conflict is kept only for the sheet's own writer: A cannot make B's sheet a conflict.
    before = dump_store(host.data_dir)
    refused(host, host.put(with_game(b_sheet, 3, winner="A", value=2), team_a), 403, "")
    unchanged(host, before)
    changed = with_game(b_sheet, 3, winner="A", value=3)
    assert host.put(changed, team_b).status_code == 409
    assert len([c for c in host.organizer("/conflicts").json() if c["sheet_id"] == str(b_sheet.id)]) == 1


def test_each_side_of_a_table_is_claimed_once_until_the_organizer_revokes_its_phone(tables_host: RunningHost) -> None:
    host = tables_host
    first = host.join(table=4, team="A", name="Handy Sepp")
    second = host.join(table=4, team="A", name="Handy Hias")
    assert host.put(watten_sheet(TOURNAMENT, 4, 3), first["device_token"]).status_code == 201
    before = dump_store(host.data_dir)
    refused(host, host.put(watten_sheet(TOURNAMENT, 4, 3), second["device_token"]), 403, "schreibt schon das Handy 'Handy Sepp'")
    unchanged(host, before)
    # The organizer sees both phones for table 4, team A, the second one flagged, and revokes the first.
    listed = {d["id"]: d for d in organizer_call(host, "GET", "/devices").json()}
    assert listed[first["device_id"]]["second"] and listed[second["device_id"]]["second"]
    assert listed[first["device_id"]]["last_delivery"] is not None and listed[second["device_id"]]["last_delivery"] is None
    revoked = organizer_call(host, "POST", f"/devices/{first['device_id']}/revoke")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] and not revoked.json()["second"]
    gone = host.put(watten_sheet(TOURNAMENT, 4, 4), first["device_token"])
    refused(host, gone, 401, REVOKED)
    assert host.put(watten_sheet(TOURNAMENT, 4, 3), second["device_token"]).status_code == 201
    assert organizer_call(host, "POST", "/devices/ffff0000/revoke").status_code == 422
    log = wait_for_log(host, "schreibt schon das Handy")
    assert first["device_token"] not in log and second["device_token"] not in log


# -- drawn tournaments: Startnummer and secret ---------------------------------------------------------


def roster(host: RunningHost) -> dict[int, dict[str, Any]]:
    return {e["entrant"]["start_number"]: e for e in organizer_call(host, "GET", "/roster").json()}


def join(host: RunningHost, number: int, secret: str | None, name: str = "Handy") -> Any:
    body: dict[str, Any] = {"join_code": host.join_code, "start_number": number, "device_name": name}
    if secret is not None:
        body["secret"] = secret
    return host.session().post(f"{host.url}/api/v1/join", json=body, timeout=30)


def assignment(host: RunningHost, token: str) -> Sheet:
    reply = host.session().get(f"{host.url}/api/v1/assignment", headers={TOKEN_HEADER: token}, timeout=30)
    assert reply.status_code == 200, reply.text
    return Sheet.model_validate(reply.json()["sheet"])


def test_every_entrant_has_a_typeable_secret_and_joins_only_with_it(drawn_host: RunningHost) -> None:
    host = drawn_host
    secrets = {n: e["secret"] for n, e in roster(host).items()}
    assert all(len(s) == 9 and s[4] == "-" for s in secrets.values()) and len(set(secrets.values())) == 4
    before = dump_store(host.data_dir)
    refused(host, join(host, 1, None), 403, "Falscher Schlüssel für Startnummer 1")
    refused(host, join(host, 1, secrets[2]), 403, "Falscher Schlüssel")
    unchanged(host, before)
    joined = join(host, 1, secrets[1].lower().replace("-", " "))  # as typed: case, dash and spaces do not matter
    assert joined.status_code == 201, joined.text
    log = wait_for_log(host, "Falscher Schlüssel von")
    assert all(s not in log for s in secrets.values())


def test_wrong_secrets_are_limited_like_wrong_join_codes(tmp_path: Any) -> None:
    host = start_host(tmp_path, "--wrong-codes-per-minute", "3")
    try:
        organizer_call(host, "PUT", "/plan", {"ruleset_id": "watten-turnier"})
        organizer_call(host, "POST", "/roster/csv", {"csv": ROSTER})
        right = roster(host)[1]["secret"]
        for _ in range(3):
            assert join(host, 1, "AAAA-AAAA").status_code == 403
        blocked = join(host, 1, right)
        assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1
        assert "Sekunden" in blocked.json()["detail"]
    finally:
        host.stop()


def test_drawn_sheets_have_random_ids_and_belong_to_their_writer(drawn_host: RunningHost) -> None:
    host = drawn_host
    secrets = {n: e["secret"] for n, e in roster(host).items()}
    tokens = {n: join(host, n, secrets[n], f"Handy {n}").json()["device_token"] for n in (1, 2, 3, 4)}
    sheets = {n: assignment(host, tokens[n]) for n in tokens}
    # Random ids: not the old derivation from tournament, Losnummer, round, table and writer.
    for sheet in sheets.values():
        derived = uuid.uuid5(
            uuid.NAMESPACE_URL, f"tischblock:{sheet.context.tournament}:2026:1:{sheet.context.table}:{sheet.context.written_by}"
        )
        assert sheet.id != derived and sheet.id.version == 4
    assert len({s.id for s in sheets.values()}) == 4
    assert assignment(host, tokens[1]).id == sheets[1].id  # asked again: the same sheet

    mine = play_watten(sheets[1], ["A", "B", "A"], close=False)
    assert host.put(mine, tokens[1]).status_code == 201
    opponent = next(n for n in (2, 3, 4) if sheets[n].context.table == sheets[1].context.table)
    other_table = next(n for n in (2, 3, 4) if sheets[n].context.table != sheets[1].context.table)
    before = dump_store(host.data_dir)
    # The opponent's sheet (its id learned somehow), with the opponent as writer: refused.
    refused(host, host.put(play_watten(sheets[opponent], ["A"], close=False), tokens[1]), 403, "nicht das Blatt")
    # My own sheet id, but written as the opponent.
    as_other = mine.model_copy(
        update={"context": mine.context.model_copy(update={"written_by": sheets[opponent].context.written_by})}
    )
    refused(host, host.put(as_other, tokens[1]), 403, "")
    # A made-up id for my table and round.
    refused(host, host.put(mine.model_copy(update={"id": uuid.uuid4()}), tokens[1]), 403, "nicht das Blatt")
    # Another table's sheet.
    refused(host, host.put(play_watten(sheets[other_table], ["B"], close=False), tokens[1]), 403, "")
    unchanged(host, before)
    # The opponent's own phone delivers its sheet as usual.
    assert host.put(play_watten(sheets[opponent], ["A", "B", "A"], close=False), tokens[opponent]).status_code == 201


def test_a_new_secret_locks_out_the_old_startkarte_and_a_second_phone_shows(drawn_host: RunningHost) -> None:
    host = drawn_host
    old = roster(host)[3]["secret"]
    first = join(host, 3, old, "Handy Stanglwirt").json()
    issued = organizer_call(host, "POST", "/entrants/3/secret")
    assert issued.status_code == 200 and issued.json()["secret"] != old
    new = issued.json()["secret"]
    assert roster(host)[3]["secret"] == new
    refused(host, join(host, 3, old), 403, "Falscher Schlüssel")
    second = join(host, 3, new, "Handy Neu").json()
    shown = {d["id"]: d for d in organizer_call(host, "GET", "/devices?round=1").json()}
    assert shown[first["device_id"]]["second"] and shown[second["device_id"]]["second"]
    assert shown[second["device_id"]]["team"] == "Stanglwirt-Buam" and shown[second["device_id"]]["table"] is not None
    organizer_call(host, "POST", f"/devices/{first['device_id']}/revoke")
    reply = host.session().get(f"{host.url}/api/v1/assignment", headers={TOKEN_HEADER: first["device_token"]}, timeout=30)
    refused(host, reply, 401, REVOKED)
    for other in organizer_call(host, "GET", "/devices").json():  # any other phone of Startnummer 3 (earlier tests)
        if other["start_number"] == 3 and other["id"] != second["device_id"]:
            organizer_call(host, "POST", f"/devices/{other['id']}/revoke")
    assert not {d["id"]: d for d in organizer_call(host, "GET", "/devices").json()}[second["device_id"]]["second"]
    assert organizer_call(host, "POST", "/entrants/99/secret").status_code == 422
