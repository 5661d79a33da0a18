"""The organizer's tournament endpoints on the real host (HTTPS on 127.0.0.1): the password, German
refusals that change nothing, the CSV's line-numbered problems, and the Turnierleitung's actions."""

from __future__ import annotations

from typing import Any

import requests

from .host_helpers import PASSWORD, RunningHost, host_fixture  # noqa: F401  (fixture)
from .tournament_sim import play_watten

ORG = "/api/v1/organizer"


def call(host: RunningHost, method: str, path: str, json: Any = None, password: str = PASSWORD) -> requests.Response:
    return host.session().request(method, f"{host.url}{ORG}{path}", json=json, auth=("organizer", password), timeout=30)


def test_every_tournament_endpoint_needs_the_organizers_password(host: RunningHost) -> None:
    for method, path in [
        ("GET", "/tournament"),
        ("POST", "/tournament"),
        ("POST", "/roster/csv"),
        ("POST", "/rounds/1/draw"),
        ("POST", "/rounds/1/tables/1/decide"),
        ("GET", "/standings"),
        ("GET", "/exports/games.csv"),
    ]:
        answer = call(host, method, path, {}, password="falsch")
        assert answer.status_code == 401, (method, path, answer.text)
        assert "Veranstalter" in answer.json()["detail"]
        anonymous = host.session().request(method, f"{host.url}{ORG}{path}", json={}, timeout=30)
        assert anonymous.status_code == 401


def test_the_organizer_sets_up_draws_and_ends_a_durchgang(host: RunningHost) -> None:
    # The host's first tournament (from --tournament) has no plan yet: the phones join by table.
    overview = call(host, "GET", "/tournament").json()
    assert overview["plan"] is None
    assert call(host, "GET", "/standings").json()["detail"].startswith("Das Turnier hat noch keinen Plan")

    refused = call(host, "PUT", "/plan", {"ruleset_id": "jassen"})
    assert refused.status_code == 422 and "Unbekanntes Regelwerk 'jassen'" in refused.json()["detail"]
    plan = call(host, "PUT", "/plan", {"ruleset_id": "watten-turnier", "date": "2026-11-23"})
    assert plan.status_code == 200 and plan.json()["plan"]["time_limit_minutes"] == 70

    bad = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n1;Sautreiber;Sepp;Toni\nzwei;Kartlbrüder;Vroni;Hias\n"
    answer = call(host, "POST", "/roster/csv", {"csv": bad})
    assert answer.status_code == 422
    assert any(p.startswith("Zeile 3") for p in answer.json()["problems"]), answer.json()
    assert call(host, "GET", "/roster").json() == []  # nothing imported

    good = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n" + "".join(f"{n};Team {n};A{n};B{n}\n" for n in range(1, 5))
    assert call(host, "POST", "/roster/csv", {"csv": good}).status_code == 200
    late = call(host, "POST", "/entrants", {"name": "Nachzügler", "members": ["X", "Y"]})
    assert late.status_code == 201 and late.json()["entrant"]["start_number"] == 5
    odd = call(host, "POST", "/rounds/1/draw", {"seed": 77})
    assert odd.status_code == 422 and "gerade Zahl" in odd.json()["detail"]
    assert call(host, "POST", "/entrants/5/withdraw").status_code == 200
    draw = call(host, "POST", "/rounds/1/draw", {"seed": 77})
    assert draw.status_code == 201 and draw.json()["seed"] == 77 and len(draw.json()["tables"]) == 2
    assert call(host, "POST", "/rounds/1/draw", {"seed": 78}).status_code == 422
    assert call(host, "GET", "/rounds/1/draw").json() == draw.json()
    assert call(host, "GET", "/rounds/2/draw").status_code == 422
    started = call(host, "POST", "/rounds/1/start").json()["started_at"]
    assert call(host, "POST", "/rounds/1/start").json()["started_at"] == started

    # A phone that joined with its Startnummer plays three games, then the Turnierleitung ends the Durchgang.
    first = draw.json()["tables"][0]
    number = first["seats"][0]["start_number"]
    roster = call(host, "GET", "/roster").json()

    def secret_of(n: int) -> str:
        return str(next(e["secret"] for e in roster if e["entrant"]["start_number"] == n))

    joined = host.session().post(
        f"{host.url}/api/v1/join",
        json={"join_code": host.join_code, "start_number": number, "device_name": "Handy", "secret": secret_of(number)},
        timeout=10,
    )
    assert joined.status_code == 201, joined.text
    token = joined.json()["device_token"]
    by_table = host.session().post(
        f"{host.url}/api/v1/join", json={"join_code": host.join_code, "table": 1, "device_name": "Alt"}, timeout=10
    )
    assert by_table.status_code == 422 and "Startnummer" in by_table.json()["detail"]
    assignment = host.session().get(f"{host.url}/api/v1/assignment", headers={"X-Tischblock-Token": token}, timeout=10)
    assert assignment.status_code == 200, assignment.text
    from scoring import Sheet

    sheet = Sheet.model_validate(assignment.json()["sheet"])
    assert (sheet.context.table, sheet.context.round) == (first["table"], 1)
    playing = play_watten(sheet, ["A", "B", "A"], close=False)
    assert host.put(playing, token).status_code == 201

    tables = call(host, "GET", "/rounds/1/tables").json()
    assert [t["status"]["state"] for t in tables] == ["läuft", "nicht begonnen"]
    assert call(host, "POST", f"/rounds/1/tables/{first['table']}/abort", {"reason": ""}).status_code == 422
    ended = call(host, "POST", f"/rounds/1/tables/{first['table']}/abort", {"reason": "70 Minuten um", "by": "Vroni"})
    assert ended.status_code == 201, ended.text
    assert ended.json()[0]["decided_by"] == "Vroni" and ended.json()[0]["kind"] == "abbruch"
    later = play_watten(sheet, ["A", "B", "A", "B"], close=False)
    refused_later = host.put(later, token)
    assert refused_later.status_code == 409 and "Turnierleitung" in refused_later.json()["detail"]
    trail = call(host, "GET", "/decisions").json()
    assert [(d["kind"], d["reason"], d["decided_by"]) for d in trail] == [("abbruch", "70 Minuten um", "Vroni")]
    assert "Traceback" not in host.terminal()
