"""'Papierblatt erfassen' attacked on the real host (HTTPS on 127.0.0.1): without the password or the form
key, with garbage in every field, for tables and rounds that do not exist, twice; never a 5xx, and
nothing stored but the one good paper sheet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .host_helpers import pinned_session
from .hostproc import HostProcess
from .pages_helpers import AUTH
from .test_pages import GOOD_CSV, form_key


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    running = HostProcess(tmp_path_factory.mktemp("paper"), tournament="Kathreinwatten Söll 2026").start()
    try:
        yield running
    finally:
        running.stop()


def test_the_paper_form_refuses_garbage_and_stores_nothing_but_a_good_sheet(host: HostProcess) -> None:
    web = pinned_session(host.fingerprint)
    web.auth = AUTH
    url = host.url + "/veranstalter"
    key = form_key(web, host)
    plan = {"csrf": key, "name": "Kathreinwatten Söll 2026", "ruleset": "watten-turnier", "rounds": "3"}
    assert web.post(f"{url}/turnier", data={**plan, "opt:target": "15", "opt:bummerl_count": "3"}, timeout=30).ok
    assert web.post(f"{url}/teilnehmer/import", data={"csrf": key, "text": GOOD_CSV}, timeout=30).ok
    assert web.post(f"{url}/runde/1/auslosen", data={"csrf": key, "seed": "4711"}, timeout=30).ok

    page = web.get(f"{url}/runde/1/tisch/1/papier", timeout=30)
    assert page.status_code == 200 and 'aria-label="Zeile 1, Mannschaft (Sieger)"' in page.text
    totals = web.get(f"{url}/runde/1/tisch/1/papier?art=summen", timeout=30)
    assert totals.status_code == 200 and "Bummerl 3" in totals.text

    good = {"csrf": key, "art": "summen", "t1:A": "15", "t1:B": "9", "t2:A": "3", "t2:B": "16", "t3:A": "15", "t3:B": "14"}
    anonymous = pinned_session(host.fingerprint)
    assert anonymous.post(f"{url}/runde/1/tisch/1/papier", data=good, timeout=30).status_code == 401
    forged = web.post(f"{url}/runde/1/tisch/1/papier", data={**good, "csrf": "0" * 32}, timeout=30)
    assert forged.status_code == 403

    attacks: list[tuple[str, dict[str, str], str]] = [
        ("/runde/1/tisch/1/papier", {**good, "art": "raten"}, "Unbekannte Art der Erfassung"),
        ("/runde/1/tisch/1/papier", {**good, "t1:A": "fünfzehn"}, "keine ganze Zahl"),
        ("/runde/1/tisch/1/papier", {**good, "t1:A": "9" * 40}, "keine ganze Zahl"),
        ("/runde/1/tisch/1/papier", {**good, "t2:B": ""}, "es fehlt"),
        ("/runde/1/tisch/1/papier", {**good, "t3:B": "15"}, "beide Mannschaften haben 15"),
        ("/runde/1/tisch/1/papier", {**good, "t1:zeitlimit": "ja"}, "Zeitlimit"),
        ("/runde/1/tisch/1/papier", {"csrf": key, "art": "summen"}, "noch keine Zeile"),
        ("/runde/1/tisch/1/papier", {"csrf": key, "art": "spiele", "g1:team": "Z", "g1:art": "game"}, "Zeile 1"),
        ("/runde/1/tisch/1/papier", {"csrf": key, "art": "spiele", "g1:team": "A", "g1:wert": "-3"}, "Zeile 1"),
        ("/runde/1/tisch/1/papier", {"csrf": key, "art": "spiele", "g1:art": "<script>", "g1:team": "A"}, "Zeile 1"),
        ("/runde/1/tisch/1/papier", {**good, "override": "x" * 5000}, "zu lang"),
        ("/runde/1/tisch/9/papier", good, "Tisch 9 gibt es"),
        ("/runde/2/tisch/1/papier", good, "noch nicht ausgelost"),
    ]
    for path, data, message in attacks:
        reply = web.post(url + path, data=data, timeout=30)
        assert reply.status_code == 422, (path, data, reply.status_code)
        assert message in reply.text, (message, reply.text[:2000])
        assert "<script>" not in reply.text
    for path in ("/runde/1/tisch/9/papier", "/runde/7/tisch/1/papier", "/runde/1/tisch/1/papier?art=%00"):
        assert web.get(url + path, timeout=30).status_code < 500
    assert host.stored_revisions() == []

    saved = web.post(f"{url}/runde/1/tisch/1/papier", data=good, timeout=30)
    assert saved.status_code == 200 and "Papier-Tischliste erfasst (nur die Summen)" in saved.text
    assert len(host.stored_revisions()) == 1
    again = web.post(f"{url}/runde/1/tisch/1/papier", data=good, timeout=30)
    assert again.status_code == 422 and "schon erfasst" in again.text
    assert len(host.stored_revisions()) == 1
    assert "schon erfasst" in web.get(f"{url}/runde/1/tisch/1/papier", timeout=30).text
