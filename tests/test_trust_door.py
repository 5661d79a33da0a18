"""The organizer's door (issue 20), against the real host: a password with umlauts works the same on
the pages and the API, wrong passwords are limited per address and overall, every number in a page's
URL is range-checked, and the dashboard shows and revokes the phones."""

from __future__ import annotations

import base64
import re
import stat
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from sync.host.auth import REVOKED
from sync.protocol import TOKEN_HEADER

from .host_helpers import RunningHost, dump_store, start_host, watten_sheet
from .test_trust import ROSTER, join

UMLAUT = "Söll-2026"


def basic(password: str, user: str = "organizer") -> dict[str, str]:
    """HTTP Basic in UTF-8 (RFC 7617 charset="UTF-8", as browsers send it); requests would send Latin-1."""
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    running = start_host(tmp_path_factory.mktemp("door"), password=UMLAUT)
    try:
        yield running
    finally:
        running.stop()


def get(host: RunningHost, path: str, password: str = UMLAUT, **kwargs: Any) -> requests.Response:
    return host.session().get(f"{host.url}{path}", headers=basic(password), timeout=30, allow_redirects=False, **kwargs)


def post(host: RunningHost, path: str, password: str = UMLAUT, **kwargs: Any) -> requests.Response:
    return host.session().post(f"{host.url}{path}", headers=basic(password), timeout=30, allow_redirects=False, **kwargs)


def test_a_password_with_umlauts_opens_the_pages_and_the_api_alike(host: RunningHost) -> None:
    assert get(host, "/veranstalter/").status_code == 200
    assert get(host, "/api/v1/organizer/tournament").status_code == 200
    assert get(host, "/api/v1/tables").status_code == 200
    decomposed = unicodedata.normalize("NFD", UMLAUT)  # "o" + combining diaeresis, as some keyboards send it
    assert decomposed != UMLAUT
    assert get(host, "/api/v1/organizer/tournament", decomposed).status_code == 200
    assert get(host, "/veranstalter/", decomposed).status_code == 200
    assert get(host, "/api/v1/organizer/tournament", "Soll-2026").status_code == 401


def test_every_number_in_a_page_url_is_range_checked(host: RunningHost) -> None:
    assert post(host, "/api/v1/organizer/../organizer/plan").status_code in (404, 405, 422)
    put = host.session().put(
        f"{host.url}/api/v1/organizer/plan", json={"ruleset_id": "watten-turnier"}, headers=basic(UMLAUT), timeout=30
    )
    assert put.status_code == 200, put.text
    key = re.search(r'name="csrf" value="([0-9a-f]+)"', get(host, "/veranstalter/").text).group(1)  # type: ignore[union-attr]
    huge = "99999999999999999999999"
    before = dump_store(host.data_dir)
    for path in (
        f"/veranstalter/runde/{huge}",
        f"/veranstalter/runde/1/tisch/{huge}",
        f"/veranstalter/runde/{huge}/tisch/1",
        "/veranstalter/runde/-1",
        f"/veranstalter/runde/1/tisch/{huge}/abbrechen",
        f"/veranstalter/beamer?seite={huge}",
    ):
        reply = get(host, path)
        assert reply.status_code in (404, 422), (path, reply.status_code, reply.text[:300])
    for path, form in (
        (f"/veranstalter/runde/1/tisch/{huge}/entscheiden", {"sheet_id": "x", "reason": "r"}),
        (f"/veranstalter/runde/{huge}/tisch/1/korrigieren", {"game": huge, "sheet_id": "x", "reason": "r"}),
        ("/veranstalter/runde/1/tisch/1/korrigieren", {"game": huge, "sheet_id": "x", "reason": "r"}),
        ("/veranstalter/runde/1/tisch/1/entscheiden", {"sheet_id": huge, "reason": "r"}),
        (f"/veranstalter/runde/{huge}/auslosen", {"seed": huge}),
        ("/veranstalter/runde/1/auslosen", {"seed": huge}),
        (f"/veranstalter/teilnehmer/{huge}/zurueckziehen", {}),
        (f"/veranstalter/teilnehmer/{huge}/schluessel", {}),
        (f"/veranstalter/handys/{huge}x/abmelden", {}),
        ("/veranstalter/teilnehmer/neu", {"name": "X", "member1": "a", "member2": "b", "start_number": huge}),
    ):
        reply = post(host, path, data={"csrf": key, **form})
        assert reply.status_code in (404, 422), (path, reply.status_code, reply.text[:300])
    assert dump_store(host.data_dir) == before


def test_wrong_organizer_passwords_are_limited_per_address_with_a_german_wait(tmp_path: Any) -> None:
    running = start_host(tmp_path, password=UMLAUT)
    try:
        before = dump_store(running.data_dir)
        answers = [get(running, "/api/v1/organizer/tournament", f"falsch-{n}").status_code for n in range(10)]
        assert answers == [401] * 10
        blocked = get(running, "/api/v1/organizer/tournament", "falsch-11")
        assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1
        assert re.search(r"bitte in \d+ Sekunden wieder versuchen", blocked.json()["detail"])
        page = get(running, "/veranstalter/", "noch-falscher")
        assert page.status_code == 429 and "Sekunden" in page.text and page.headers["Retry-After"]
        # Even the right password waits out the lock from this address: guessing gains nothing.
        assert get(running, "/api/v1/organizer/tournament").status_code == 429
        assert dump_store(running.data_dir) == before
        assert "Falsches Veranstalter-Passwort von 127.0.0.1" in running.terminal()
        assert "falsch-1" not in running.terminal()
    finally:
        running.stop()


def test_the_round_dashboard_lists_the_phones_and_revokes_one(host: RunningHost) -> None:
    if get(host, "/api/v1/organizer/roster").json() == []:
        csv = host.session().post(
            f"{host.url}/api/v1/organizer/roster/csv", json={"csv": ROSTER}, headers=basic(UMLAUT), timeout=30
        )
        assert csv.status_code == 200, csv.text
    draw = post(host, "/api/v1/organizer/rounds/1/draw", json={"seed": 7})
    assert draw.status_code == 201, draw.text
    secrets = {n: e["secret"] for n, e in roster_with(host).items()}
    first = join(host, 1, secrets[1], "Handy Sepp").json()
    second = join(host, 1, secrets[1], "Handy Hias").json()
    page = get(host, "/veranstalter/runde/1")
    assert page.status_code == 200
    text = page.text
    assert "Handy Sepp" in text and "Handy Hias" in text and "zweites Handy für diese Startnummer" in text
    key = re.search(r'name="csrf" value="([0-9a-f]+)"', text).group(1)  # type: ignore[union-attr]
    no_key = post(host, f"/veranstalter/handys/{first['device_id']}/abmelden", data={"zurueck": "/veranstalter/runde/1"})
    assert no_key.status_code == 403
    done = post(
        host, f"/veranstalter/handys/{first['device_id']}/abmelden", data={"csrf": key, "zurueck": "/veranstalter/runde/1"}
    )
    assert done.status_code == 303 and done.headers["location"].startswith("/veranstalter/runde/1?ok=")
    answer = host.session().get(f"{host.url}/api/v1/assignment", headers={TOKEN_HEADER: first["device_token"]}, timeout=30)
    assert answer.status_code == 401 and answer.json()["detail"] == REVOKED
    assert "abgemeldet" in get(host, "/veranstalter/runde/1").text
    assert host.session().get(f"{host.url}/api/v1/assignment", headers={TOKEN_HEADER: second["device_token"]}, timeout=30).ok
    # The roster page shows each secret (not printed) and issues a new one.
    roster_page = get(host, "/veranstalter/teilnehmer").text
    assert secrets[1] in roster_page and "Startkarten" in roster_page
    issued = post(host, "/veranstalter/teilnehmer/1/schluessel", data={"csrf": key})
    assert issued.status_code == 303
    assert roster_with(host)[1]["secret"] != secrets[1]


def roster_with(host: RunningHost) -> dict[int, dict[str, Any]]:
    reply = get(host, "/api/v1/organizer/roster")
    assert reply.status_code == 200
    return {e["entrant"]["start_number"]: e for e in reply.json()}


def test_the_hosts_files_are_its_owners_only_and_checked_at_every_start(tmp_path: Any) -> None:
    folder = tmp_path / "daten"
    folder.mkdir()
    folder.chmod(0o755)
    running = start_host(folder)
    try:
        terminal = running.terminal()
        assert f"WARNUNG: Datenverzeichnis {folder} war für andere Benutzer lesbar (Modus 0755); jetzt 0700" in terminal
        token = running.join(table=1)["device_token"]
        assert running.put(watten_sheet("kathreinwatten-soell-2026", 1, 3), token).status_code == 201
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.rglob("*")]}
        assert {"host.sqlite3", "host-key.pem"} <= modes.keys()
        assert modes.pop("host-cert.pem") == 0o644  # public: every phone pins it anyway
        assert {name: mode for name, mode in modes.items() if mode & 0o077} == {}
        running.stop()
        (folder / "host.sqlite3").chmod(0o644)
        running.start()
        restarted = running.terminal().split("--- start 2")[-1]
        assert f"WARNUNG: Datei {folder / 'host.sqlite3'} war für andere Benutzer lesbar (Modus 0644); jetzt 0600" in restarted
        assert stat.S_IMODE((folder / "host.sqlite3").stat().st_mode) == 0o600
    finally:
        running.stop()
