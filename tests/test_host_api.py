"""The host's API against the real host process (HTTPS on 127.0.0.1, pinned like a phone)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sync.protocol import TOKEN_HEADER, JoinLine, SubmitResponse, TableState, revision_path

from .host_helpers import PASSWORD, RunningHost, host_fixture, start_host, wait_for_log, watten_sheet, with_game  # noqa: F401

TOURNAMENT = "kathreinwatten-soell-2026"


def test_info_names_the_tournament(host: RunningHost) -> None:
    reply = host.session().get(f"{host.url}/api/v1/info", timeout=10)
    assert reply.json() == {"api_version": 1, "tournament_id": TOURNAMENT, "tournament_name": "Kathreinwatten Söll 2026"}


def test_the_printed_join_line_is_what_a_phone_reads(host: RunningHost) -> None:
    line = next(line for line in host.terminal().splitlines() if line.startswith("Beitritts-Zeile: "))
    parsed = JoinLine.parse(line.removeprefix("Beitritts-Zeile: "))
    assert parsed == JoinLine(url=host.url, code=host.join_code, fingerprint=host.fingerprint)


def test_a_revision_is_stored_once_and_a_resend_says_already_stored(host: RunningHost) -> None:
    token = host.join(table=1)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 1, 5)
    first = host.put(sheet, token)
    assert first.status_code == 201, first.text
    stored = SubmitResponse.model_validate(first.json())
    assert (stored.status, stored.sheet_id, stored.revision, stored.closed) == ("stored", sheet.id, 5, False)
    again = host.put(sheet, token)
    assert again.status_code == 200
    assert again.json()["status"] == "already_stored"
    asked = host.session().get(f"{host.url}{revision_path(sheet.id, 5)}", headers={TOKEN_HEADER: token}, timeout=10)
    assert asked.status_code == 200 and asked.json()["status"] == "already_stored"
    missing = host.session().get(f"{host.url}{revision_path(sheet.id, 6)}", headers={TOKEN_HEADER: token}, timeout=10)
    assert missing.status_code == 404
    assert "nicht gespeichert" in missing.json()["detail"]
    older = host.put(watten_sheet(TOURNAMENT, 1, 3, sheet_id=sheet.id), token)
    assert older.status_code == 201  # an older revision is fine to send, stored once like any
    latest = host.organizer(f"/sheets/{sheet.id}")
    assert latest.headers["X-Tischblock-Revision"] == "5"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: nothing to keep together")
def test_every_thread_of_the_host_runs_on_one_core(host: RunningHost) -> None:
    """Issue 24 (``sync.host.run.one_core``): the event loop, the group commit's writer and the
    sheets' worker threads hand the interpreter lock to each other on one core."""
    token = host.join(table=24)["device_token"]  # a table of its own: the module's host is shared
    assert host.put(watten_sheet(TOURNAMENT, 24, 4), token).status_code == 201  # the worker threads run
    assert host.process is not None
    tasks = list(Path(f"/proc/{host.process.pid}/task").iterdir())
    cores = {os.sched_getaffinity(int(task.name)) == os.sched_getaffinity(host.process.pid) for task in tasks}
    assert len(tasks) > 2 and cores == {True}
    assert len(os.sched_getaffinity(host.process.pid)) == 1


def test_another_body_for_a_stored_revision_is_a_conflict_kept_aside(host: RunningHost) -> None:
    token = host.join(table=2)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 2, 8)
    assert host.put(sheet, token).status_code == 201
    changed = with_game(sheet, 7, winner="A", value=3)
    reply = host.put(changed, token)
    assert reply.status_code == 409
    assert "schon mit anderem Inhalt gespeichert" in reply.json()["detail"]
    kept = [c for c in host.organizer("/conflicts").json() if c["sheet_id"] == str(sheet.id)]
    assert len(kept) == 1
    assert json.loads(kept[0]["body"])["entries"][6]["data"] == {"winner": "A", "value": 3}
    stored = host.organizer(f"/sheets/{sheet.id}").json()
    assert stored["entries"][6]["data"] == {"winner": "A", "value": 2}


def test_a_sheet_the_rules_refuse_gets_the_rules_message_and_is_not_stored(host: RunningHost) -> None:
    token = host.join(table=3)["device_token"]
    sheet = with_game(watten_sheet(TOURNAMENT, 3, 4), 3, winner="Z")
    reply = host.put(sheet, token)
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith("3. Spiel: ")
    assert "'Z'" in reply.json()["detail"]
    assert (
        host.session().get(f"{host.url}{revision_path(sheet.id, 4)}", headers={TOKEN_HEADER: token}, timeout=10).status_code
        == 404
    )


def test_a_revision_that_is_not_the_number_of_entries_is_refused(host: RunningHost) -> None:
    token = host.join(table=3)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 3, 4)
    reply = host.put(sheet, token, revision=5)
    assert reply.status_code == 422
    assert reply.json()["detail"] == "Revision 5 passt nicht: das Blatt hat 4 Einträge"
    other_id = host.session().put(
        f"{host.url}{revision_path(uuid.uuid4(), 4)}",
        data=sheet.to_json(),
        headers={TOKEN_HEADER: token, "Content-Type": "application/json"},
        timeout=10,
    )
    assert other_id.status_code == 422
    assert "Blatt-ID" in other_id.json()["detail"]


def test_a_known_device_gets_the_same_answers_by_the_short_way_as_by_fastapis(host: RunningHost) -> None:
    """A known device's sheet at a canonical path skips FastAPI's parameter solving (``KnownDeviceSubmit``);
    any other spelling of the same path goes through the FastAPI route. Both answer alike."""
    token = host.join(table=14)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 14, 4)

    def put(sheet_id: str, revision: str, body: bytes | None = None) -> tuple[int, Any]:
        reply = host.session().put(
            f"{host.url}/api/v1/sheets/{sheet_id}/revisions/{revision}",
            data=sheet.to_json().encode() if body is None else body,
            headers={TOKEN_HEADER: token, "Content-Type": "application/json"},
            timeout=10,
        )
        return reply.status_code, reply.json()

    status, first = put(str(sheet.id).upper(), "4")  # FastAPI's way: it reads the UUID in capitals too
    assert status == 201 and first["status"] == "stored", first
    short, long_ = put(str(sheet.id), "4"), put(str(sheet.id).replace("-", ""), "04")
    assert short == long_ and short[0] == 200 and short[1]["status"] == "already_stored", (short, long_)
    for revision in ("5", "1000001", "-1", "x"):  # refused alike: wrong count, out of bounds, not a number
        assert put(str(sheet.id), revision)[0] == 422
        assert put(str(sheet.id), revision) == put(str(sheet.id).upper(), revision)
    assert put(str(sheet.id), "4", b"{") == put(str(sheet.id).upper(), "4", b"{") == (422, {"detail": "Der Inhalt ist kein gültiges JSON"})
    assert put("not-a-uuid", "4")[0] == 422


def test_malformed_json_gets_a_german_422(host: RunningHost) -> None:
    token = host.join(table=3)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 3, 4)
    reply = host.put(sheet, token, body=b'{"format": "tischblock-sheet", ')
    assert reply.status_code == 422
    assert reply.json() == {"detail": "Der Inhalt ist kein gültiges JSON"}


def test_bodies_over_one_mebibyte_are_refused_with_413(host: RunningHost) -> None:
    token = host.join(table=3)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 3, 4)
    big = b" " * (1024 * 1024 + 1)
    declared = host.put(sheet, token, body=big)
    assert declared.status_code == 413
    assert "größer als 1024 KiB" in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer
        for _ in range(20):
            yield b" " * 65536

    chunked = host.session().put(
        f"{host.url}{revision_path(sheet.id, 4)}",
        data=chunks(),
        headers={TOKEN_HEADER: token, "Content-Type": "application/json"},
        timeout=30,
    )
    assert chunked.status_code == 413
    assert (
        host.session().get(f"{host.url}{revision_path(sheet.id, 4)}", headers={TOKEN_HEADER: token}, timeout=10).status_code
        == 404
    )


def test_missing_forged_and_other_tables_tokens_are_refused(host: RunningHost) -> None:
    table3 = host.join(table=3)["device_token"]
    sheet4 = watten_sheet(TOURNAMENT, 4, 6)
    missing = host.put(sheet4, None)
    assert missing.status_code == 401
    assert "Geräte-Token fehlt" in missing.json()["detail"]
    forged = host.put(sheet4, table3[:-4] + "AAAA")
    assert forged.status_code == 401
    assert "Unbekanntes Geräte-Token" in forged.json()["detail"]
    wrong_table = host.put(sheet4, table3)
    assert wrong_table.status_code == 403
    assert wrong_table.json()["detail"] == "Dieses Gerät darf nur Blätter von Tisch 3 abgeben"
    other_tournament = watten_sheet("ein-anderes-turnier", 3, 6)
    assert host.put(other_tournament, table3).status_code == 403
    # what table 4's own phone stores, table 3's phone cannot even read back
    table4 = host.join(table=4)["device_token"]
    assert host.put(sheet4, table4).status_code == 201
    peek = host.session().get(f"{host.url}{revision_path(sheet4.id, 6)}", headers={TOKEN_HEADER: table3}, timeout=10)
    assert peek.status_code == 403


def test_organizer_endpoints_need_the_organizer_password(host: RunningHost) -> None:
    for path in ("/tables", "/conflicts", f"/sheets/{uuid.uuid4()}"):
        anonymous = host.session().get(f"{host.url}/api/v1{path}", timeout=10)
        assert anonymous.status_code == 401, path
        assert anonymous.headers["WWW-Authenticate"] == "Basic"
        assert host.organizer(path, password="falsch").status_code == 401, path
        token = host.join(table=5)["device_token"]
        assert host.session().get(f"{host.url}/api/v1{path}", headers={TOKEN_HEADER: token}, timeout=10).status_code == 401
    assert host.organizer("/tables").status_code == 200
    assert host.organizer(f"/sheets/{uuid.uuid4()}").status_code == 404


def test_the_two_sheets_of_a_table_are_compared_and_logged(host: RunningHost) -> None:
    phone_a = host.join(table=7, team="A", name="Handy Sepp")["device_token"]
    phone_b = host.join(table=7, team="B", name="Handy Toni")["device_token"]
    sheet_a = watten_sheet(TOURNAMENT, 7, 27, written_by="A")
    sheet_b = watten_sheet(TOURNAMENT, 7, 26, written_by="B", correction=False)
    first = host.put(sheet_a, phone_a).json()
    assert first["closed"] is True and first["comparison"] is None
    second = host.put(sheet_b, phone_b).json()
    assert second["comparison"] == {
        "agree": True,
        "games_compared": 25,
        "first_difference": None,
        "message": "Die Blätter stimmen überein (25 Spiele)",
    }
    [table] = [TableState.model_validate(t) for t in host.organizer("/tables").json() if t["table"] == 7]
    assert {s.team for s in table.sheets} == {"Die Sautreiber", "Kartlbrüder Wörgl"}
    assert table.comparison is not None and table.comparison.agree
    # phone B had written game 7 differently: a new sheet of B for the table names that game
    changed = with_game(watten_sheet(TOURNAMENT, 7, 10, written_by="B", correction=False), 7, winner="A", value=3)
    differs = host.put(changed, phone_b).json()["comparison"]
    assert differs["first_difference"] == 7
    assert differs["message"].startswith("Unterschied beim 7. Spiel: Blatt von Kartlbrüder Wörgl: Die Sautreiber +3")
    log = wait_for_log(host, "Unterschied beim 7. Spiel")
    assert "Tisch 7, Durchgang 1, Die Sautreiber: 25 Spiele, abgeschlossen (Revision 27) – noch kein zweites Blatt" in log
    assert "Tisch 7, Durchgang 1, Kartlbrüder Wörgl: 25 Spiele, abgeschlossen (Revision 26) – Die Blätter stimmen überein" in log


def test_no_token_and_no_password_ever_reaches_the_terminal(host: RunningHost) -> None:
    tokens = [host.join(table=8)["device_token"] for _ in range(3)]
    for token in tokens:
        host.put(watten_sheet(TOURNAMENT, 8, 2), token)
        host.put(watten_sheet(TOURNAMENT, 9, 2), token)
    log = wait_for_log(host, "Tisch 9")
    assert PASSWORD not in log
    for token in tokens:
        assert token not in log


def test_unknown_paths_and_methods_answer_in_german(host: RunningHost) -> None:
    assert host.session().get(f"{host.url}/api/v1/nichts", timeout=10).json() == {"detail": "Nicht gefunden"}
    wrong = host.session().delete(f"{host.url}/api/v1/info", timeout=10)
    assert wrong.status_code == 405
    assert wrong.json() == {"detail": "Diese Methode gibt es für diese Adresse nicht"}


def test_wrong_join_codes_are_rate_limited_per_address(tmp_path: Path) -> None:
    limited = start_host(tmp_path, "--wrong-codes-per-minute", "3")
    try:
        join = f"{limited.url}/api/v1/join"
        body: dict[str, Any] = {"join_code": "FALSCH", "table": 1, "device_name": "Rater"}
        for _ in range(3):
            wrong = limited.session().post(join, json=body, timeout=10)
            assert wrong.status_code == 403
            assert wrong.json() == {"detail": "Falscher Beitrittscode"}
        blocked = limited.session().post(join, json=body, timeout=10)
        assert blocked.status_code == 429
        assert 1 <= int(blocked.headers["Retry-After"]) <= 60
        right = limited.session().post(join, json={**body, "join_code": limited.join_code}, timeout=10)
        assert right.status_code == 429  # while blocked, even the right code waits: no guessing on
        assert "127.0.0.1 gesperrt: zu viele falsche Beitrittscodes" in wait_for_log(limited, "gesperrt")
    finally:
        limited.stop()


def test_a_phones_names_cannot_forge_lines_in_the_terminal(host: RunningHost) -> None:
    host.join(table=10, team="A", name="Handy\n12:00:00 Tisch 1, Durchgang 1: gefälscht\x1b[2J")
    log = wait_for_log(host, "gefälscht")
    [line] = [line for line in log.splitlines() if "gefälscht" in line]
    assert "beigetreten: Tisch 10" in line
    assert "\x1b" not in log


def test_the_organizer_may_ask_for_any_tables_revision(host: RunningHost) -> None:
    token = host.join(table=11)["device_token"]
    sheet = watten_sheet(TOURNAMENT, 11, 3)
    assert host.put(sheet, token).status_code == 201
    asked = host.organizer(f"/sheets/{sheet.id}/revisions/3")
    assert asked.status_code == 200
    assert asked.json()["status"] == "already_stored"
    assert host.organizer(f"/sheets/{sheet.id}/revisions/3", password="falsch").status_code == 401
