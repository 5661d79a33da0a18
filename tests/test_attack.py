"""The attack test (issue 20): every route of the real host app, from its route table (so a new route
is attacked by itself), tried as someone on the hall's Wi-Fi would.

The route table is the app ``create_app`` builds (the same code the host process runs); every request
goes to the real host process over HTTPS. Each route is tried without credentials, with a wrong
token, another table's token, the other team's token, a revoked token, a wrong organizer password, a
wrong secret, with oversized, deeply nested and non-UTF-8 bodies, and with huge, negative and odd
values in the path (also with the organizer's password, so the range checks are reached). For every
answer: no 2xx where it must be refused, never 5xx, no traceback; the store (every table, conflicts
included) byte-for-byte unchanged after each one; at the end no traceback and no token or secret in
the host's log.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route

from scoring import Sheet
from sync.host.app import create_app
from sync.host.run import prepare
from sync.protocol import TOKEN_HEADER, revision_path

from .host_helpers import PASSWORD, RunningHost, dump_store, organizer_call, start_host
from .test_trust import ROSTER, assignment, join, roster
from .tournament_sim import play_watten

PUBLIC = {("GET", "/api/v1/info"), ("GET", "/api/v1/openapi.json"), ("GET", "/")}
"""Routes anyone may read: what the host is, its API description, the redirect to the pages."""


@dataclass
class Hall:
    host: RunningHost
    mine: Sheet
    """Startnummer 1's sheet, three games stored (revision 3)."""
    tokens: dict[str, str]
    """"mine", "other team" (same table), "other table", "revoked"."""
    secrets: list[str]


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    host = start_host(
        tmp_path_factory.mktemp("angriff"), "--wrong-codes-per-minute", "100000", "--wrong-passwords-per-minute", "100000"
    )
    try:
        assert organizer_call(host, "PUT", "/plan", {"ruleset_id": "watten-turnier"}).status_code == 200
        assert organizer_call(host, "POST", "/roster/csv", {"csv": ROSTER}).status_code == 200
        assert organizer_call(host, "POST", "/rounds/1/draw", {"seed": 2026}).status_code == 201
        secrets = {n: e["secret"] for n, e in roster(host).items()}
        tokens = {n: join(host, n, secrets[n], f"Handy {n}").json() for n in (1, 2, 3, 4)}
        sheets = {n: assignment(host, tokens[n]["device_token"]) for n in tokens}
        table = sheets[1].context.table
        team = next(n for n in (2, 3, 4) if sheets[n].context.table == table)
        other = next(n for n in (2, 3, 4) if sheets[n].context.table != table)
        mine = play_watten(sheets[1], ["A", "B", "A"], close=False)
        assert host.put(mine, tokens[1]["device_token"]).status_code == 201
        theirs = play_watten(sheets[team], ["A", "B", "A"], close=False)
        assert host.put(theirs, tokens[team]["device_token"]).status_code == 201
        revoked = join(host, 1, secrets[1], "Handy verloren").json()
        assert organizer_call(host, "POST", f"/devices/{revoked['device_id']}/revoke").status_code == 200
        yield Hall(
            host,
            mine,
            {
                "mine": tokens[1]["device_token"],
                "other team": tokens[team]["device_token"],
                "other table": tokens[other]["device_token"],
                "revoked": revoked["device_token"],
            },
            list(secrets.values()),
        )
    finally:
        host.stop()


def route_table(tmp: Path) -> list[tuple[str, str]]:
    """Every (method, path) the host app serves, from the app itself."""
    setup = prepare(tmp, host="127.0.0.1", port=1, organizer_password="x" * 8, tournament="Routen", insecure_http=True)
    try:
        app = create_app(setup.store)
        out: list[tuple[str, str]] = []

        def walk(routes: list[Any], prefix: str) -> None:
            for route in routes:
                included = getattr(route, "original_router", None)  # FastAPI's included router (the pages)
                if included is not None:
                    walk(included.routes, prefix + (getattr(route.include_context, "prefix", "") or ""))
                elif isinstance(route, Route):
                    out.extend((method, prefix + route.path) for method in sorted(route.methods) if method != "HEAD")

        walk(app.routes, "")
        return sorted(set(out))
    finally:
        setup.store.close()


def basic(password: str) -> str:
    return "Basic " + base64.b64encode(f"organizer:{password}".encode()).decode()


ODD = ["99999999999999999999999", "-1", "abc", "..%2f%00"]


def fill(path: str, hall: Hall, odd: str | None) -> str:
    """The route's path with real values (the attacked sheet: Startnummer 1's), or ``odd`` in every parameter."""
    real = {
        "sheet_id": str(hall.mine.id),
        "revision": str(len(hall.mine.entries)),
        "round": "1",
        "number": "1",
        "table": str(hall.mine.context.table),
        "start_number": "1",
        "device_id": "0123456789abcdef",
        "path": "x",
    }
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: odd if odd is not None else real.get(m.group(1), "1"), path)


def bodies(hall: Hall) -> dict[str, bytes | None]:
    nested = b"[" * 100_000 + b"]" * 100_000
    deep_object = b'{"a":' * 50_000 + b"1" + b"}" * 50_000
    next_revision = play_watten(hall.mine, ["B"], close=False).to_json().encode("utf-8")
    return {
        "none": None,
        "my next revision": next_revision,
        "oversized": b'{"x":"' + b"a" * (1024 * 1024 + 10) + b'"}',
        "nested list": nested,
        "nested object": deep_object,
        "not utf-8": b'{"join_code":"\xff\xfe\xfa","name":"\xc3\x28"}',
        "wrong secret": b'{"join_code":"'
        + hall.host.join_code.encode()
        + b'","start_number":1,"secret":"AAAA-AAAA","device_name":"x"}',
    }


def allowed(method: str, template: str, who: str) -> bool:
    """May ``who`` get a 2xx from this route with the real path values? Everything else must be refused."""
    if (method, template) in PUBLIC:
        return True
    if who == "organizer":
        return True
    if who == "token and wrong password":  # the phone's token counts on the phones' routes, the password nowhere
        who = "other team"
    if template == "/api/v1/assignment":
        return who in ("mine", "other team", "other table")
    if method == "GET" and template == "/api/v1/sheets/{sheet_id}/revisions/{revision}":
        return who in ("mine", "other team")  # the two sheets of a table are compared in the open
    return False


def identities(hall: Hall) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {
        "nobody": {},
        "wrong token": {TOKEN_HEADER: "x" * 43},
        "wrong password": {"Authorization": basic("falsch-123")},
    }
    for who in ("other team", "other table", "revoked"):
        out[who] = {TOKEN_HEADER: hall.tokens[who]}
    out["token and wrong password"] = {TOKEN_HEADER: hall.tokens["other team"], "Authorization": basic("falsch-123")}
    return out


def check(
    hall: Hall, before: dict[str, Any], method: str, url: str, headers: dict[str, str], body: bytes | None, may: bool
) -> int:
    host = hall.host
    send = {"Content-Type": "application/json", **headers} if body is not None else headers
    reply = host.session().request(method, host.url + url, data=body, headers=send, timeout=60, allow_redirects=False)
    where = (method, url, sorted(headers), None if body is None else body[:40], reply.status_code, reply.text[:200])
    assert reply.status_code < 500, where
    assert "Traceback" not in reply.text and 'File "' not in reply.text, where
    if not may:
        assert not 200 <= reply.status_code < 300, where
    assert dump_store(host.data_dir) == before, where
    return reply.status_code


def test_every_route_refuses_every_stranger_and_changes_nothing(hall: Hall, tmp_path: Path) -> None:
    routes = route_table(tmp_path / "routen")
    assert ("PUT", "/api/v1/sheets/{sheet_id}/revisions/{revision}") in routes and (
        "POST",
        "/veranstalter/handys/{device_id}/abmelden",
    ) in routes
    before = dump_store(hall.host.data_dir)
    payloads = bodies(hall)
    for method, template in routes:
        writes = method in ("POST", "PUT", "PATCH", "DELETE")
        for who, headers in identities(hall).items():
            body = payloads["my next revision"] if writes else None
            check(hall, before, method, fill(template, hall, None), headers, body, allowed(method, template, who))
        if writes:  # hostile bodies, with a phone's real token (so they get past the door where a phone may go)
            for name, body in payloads.items():
                if name != "my next revision":
                    check(
                        hall, before, method, fill(template, hall, None), {TOKEN_HEADER: hall.tokens["other team"]}, body, False
                    )
        # Odd path values, with the organizer's password (so the range checks, not the door, answer).
        if "{" in template:
            for odd in ODD:
                for headers in ({"Authorization": basic(PASSWORD)}, {TOKEN_HEADER: hall.tokens["mine"]}):
                    check(hall, before, method, fill(template, hall, odd), headers, payloads["none"], may=True)
    terminal = hall.host.terminal()
    assert "Traceback" not in terminal
    assert all(token not in terminal for token in hall.tokens.values())
    assert all(secret not in terminal for secret in hall.secrets)
    # My own phone still delivers after all this: nothing was blocked or set aside for it.
    assert hall.host.put(play_watten(hall.mine, ["B"], close=False), hall.tokens["mine"]).status_code == 201
    assert hall.host.organizer("/conflicts").json() == []
    assert revision_path(hall.mine.id, 1).startswith("/api/v1/sheets/")
