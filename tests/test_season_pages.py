"""The season's pages on the real host (``tischblock host`` on 127.0.0.1, HTTPS, issue 23): set up a
season, put the tournament in it, the standings page with its note that the rule documents define no
season, the projector, CSV and PDF, the roster's name field offering the season's players, merging
two records; and every route attacked: no password, a forged form, unknown ids, huge numbers,
garbage; a refusal never answers 5xx and changes nothing."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from pypdf import PdfReader

from scoring.season import SEASONS_NOT_IN_RULES

from .host_helpers import pinned_session
from .hostproc import HostProcess, running_host
from .pages_helpers import Phone, form_key, new_season, organizer_session, watten_durchgang

TEAMS = "Startnummer;Name;Spieler 1;Spieler 2;Spielerpass\n1;Adler;a;b;1001\n2;Bären;c;d;\n3;Dachse;e;f;\n4;Eulen;g;h;\n"
API = "/api/v1/organizer"
SEASONS = "/veranstalter/saison"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("season"), tournament="Cup 1") as running:
        yield running


@pytest.fixture(scope="module")
def web(host: HostProcess) -> requests.Session:
    return organizer_session(host)


def play_cup(host: HostProcess, web: requests.Session, name: str, patterns: dict[int, str], teams: str = TEAMS) -> None:
    """A one-Durchgang Watten evening through the JSON endpoints and the phones' real API."""
    made = web.post(f"{host.url}{API}/tournament", json={"name": name, "ruleset_id": "watten-turnier", "rounds": 1}, timeout=30)
    assert made.status_code == 201, made.text
    code = made.json()["join_code"]
    assert web.post(f"{host.url}{API}/roster/csv", json={"csv": teams}, timeout=30).status_code == 200
    return_code = web.post(f"{host.url}{API}/rounds/1/draw", json={"seed": 5}, timeout=30)
    assert return_code.status_code == 201, return_code.text
    for table in return_code.json()["tables"]:
        winner = patterns[table["table"]]
        for seat in table["seats"]:
            phone = Phone(host, code, seat["start_number"])
            phone.submit(watten_durchgang(phone.sheet(1), winner))


def snapshot(web: requests.Session, host: HostProcess, season: str) -> str:
    return web.get(f"{host.url}/veranstalter/saison/{season}/saisonwertung.csv", timeout=30).text


def test_a_season_on_the_organizers_pages(host: HostProcess, web: requests.Session) -> None:
    url = host.url
    key = form_key(web, host, SEASONS)
    created = new_season(web, host, "Watt-Cup 2026", "watten-turnier", "Cup", place_points="10, 6, 4, 2")
    assert created.status_code == 200 and "Saison Watt-Cup 2026 angelegt" in created.text, created.text
    assert SEASONS_NOT_IN_RULES in created.text
    assert "Cup: Punkte je Platz 10-6-4-2" in created.text

    play_cup(host, web, "Cup 1", {1: "A", 2: "AAB"})
    joined = web.post(f"{url}/veranstalter/saison/zuordnen", data={"csrf": key, "season": "watt-cup-2026"}, timeout=30)
    assert joined.status_code == 200 and "Cup 1 zählt jetzt für Watt-Cup 2026" in joined.text
    page = joined.text
    assert "Regelwerke" in page and "sagen nichts" in page
    for name in ("Adler", "Bären", "Dachse", "Eulen"):
        assert name in page

    # The roster of the next evening offers the season's players by name.
    play_cup(host, web, "Cup 2", {1: "B", 2: "ABB"})
    web.post(f"{url}/veranstalter/saison/zuordnen", data={"csrf": key, "season": "watt-cup-2026"}, timeout=30)
    roster = web.get(f"{url}/veranstalter/teilnehmer", timeout=30).text
    assert 'list="saison-spieler"' in roster and '<option value="Bären">' in roster
    suggested = web.get(f"{url}/veranstalter/saison/watt-cup-2026/spieler", params={"q": "ul"}, timeout=30)
    assert [p["name"] for p in suggested.json()] == ["Eulen"]

    rows = list(csv.reader(io.StringIO(snapshot(web, host, "watt-cup-2026").lstrip("\ufeff")), delimiter=";"))
    assert rows[0][:3] == ["Platz", "Spieler", "Punkte"]
    ranked = [r for r in rows[1:5]]
    assert all(r[3] == "2" for r in ranked)  # four players, two evenings each
    assert any(r == ["Hinweis", SEASONS_NOT_IN_RULES] for r in rows)

    pdf = web.get(f"{url}/veranstalter/saison/watt-cup-2026/saisonwertung.pdf", timeout=30)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Watt-Cup 2026: Saisonwertung" in text and "Adler" in text and "sagen nichts" in " ".join(text.split())

    beamer = web.get(f"{url}/veranstalter/saison/watt-cup-2026/beamer?seite=99", timeout=30)
    assert beamer.status_code == 200 and "Watt-Cup 2026" in beamer.text and "Saisonwertung" in beamer.text

    # Best 1 of 2: the page shows per player what counted and what did not.
    changed = web.post(
        f"{url}/veranstalter/saison/watt-cup-2026/schema",
        data={"csrf": key, "scheme_name": "Cup", "points": "places", "place_points": "10-6-4-2", "best_of": "1",
              "min_participations": "1"},
        timeout=30,
    )
    assert changed.status_code == 200 and "Schema gespeichert" in changed.text
    assert "Streichergebnis (nur die besten 1 zählen)" in changed.text


BAD_FORMS = [
    ("/veranstalter/saison/neu", {"name": "", "family": "watten-turnier", "points": "places", "place_points": "1"}, "fehlt"),
    ("/veranstalter/saison/neu", {"name": "X", "family": "jassen", "points": "places", "place_points": "1"}, "gibt es nicht"),
    ("/veranstalter/saison/neu", {"name": "X", "family": "watten-turnier", "points": "places", "place_points": "9" * 5000}, "Punktetabelle"),
    ("/veranstalter/saison/neu", {"name": "X", "family": "watten-turnier", "points": "places", "place_points": "1",
                                  "best_of": "99999999999999999999"}, "1 bis 1000"),
    ("/veranstalter/saison/neu", {"name": "Watt-Cup 2026", "family": "watten-turnier", "points": "places", "place_points": "1"}, "gibt es schon"),
    ("/veranstalter/saison/zuordnen", {"season": "gibt-es-nicht"}, "gibt es nicht"),
    ("/veranstalter/saison/zuordnen", {"season": "x" * 10_000}, "gibt es nicht"),
    ("/veranstalter/saison/watt-cup-2026/schema", {"points": "places", "place_points": "1, 5"}, "mehr Punkte"),
    ("/veranstalter/saison/watt-cup-2026/schema", {"points": "places", "place_points": "-1"}, "Punktetabelle"),
    ("/veranstalter/saison/watt-cup-2026/zusammenfuehren", {"from": "SP-1001", "into": "SP-1001", "reason": "x"}, "sich selbst"),
    ("/veranstalter/saison/watt-cup-2026/zusammenfuehren", {"from": "T-nix", "into": "SP-1001", "reason": "x"}, "gibt es nicht"),
    ("/veranstalter/saison/watt-cup-2026/zusammenfuehren", {"from": "SP-1001", "into": "T-nix", "reason": ""}, "Grund"),
    ("/veranstalter/saison/gibt-es-nicht/schema", {"points": "own"}, "gibt es nicht"),
    ("/veranstalter/saison/gibt-es-nicht/zusammenfuehren", {"from": "a", "into": "b", "reason": "c"}, "gibt es nicht"),
]

BAD_GETS = [
    "/veranstalter/saison/gibt-es-nicht",
    "/veranstalter/saison/gibt-es-nicht/beamer",
    "/veranstalter/saison/gibt-es-nicht/saisonwertung.csv",
    "/veranstalter/saison/gibt-es-nicht/saisonwertung.pdf",
    "/veranstalter/saison/gibt-es-nicht/spieler?q=a",
    "/veranstalter/saison/" + "a" * 500,
    "/veranstalter/saison/%00%ff",
    "/veranstalter/saison/DROP TABLE",
    "/veranstalter/saison/watt-cup-2026/beamer?seite=99999999999999999999",
    "/veranstalter/saison/watt-cup-2026/beamer?seite=-1",
    "/veranstalter/saison/watt-cup-2026/spieler?q=" + "x" * 500,
]

SEASON_ROUTES = [
    "/veranstalter/saison",
    "/veranstalter/saison/watt-cup-2026",
    "/veranstalter/saison/watt-cup-2026/beamer",
    "/veranstalter/saison/watt-cup-2026/saisonwertung.csv",
    "/veranstalter/saison/watt-cup-2026/saisonwertung.pdf",
    "/veranstalter/saison/watt-cup-2026/spieler?q=a",
]
SEASON_POSTS = [
    "/veranstalter/saison/neu",
    "/veranstalter/saison/zuordnen",
    "/veranstalter/saison/watt-cup-2026/schema",
    "/veranstalter/saison/watt-cup-2026/zusammenfuehren",
]


def test_every_season_route_is_the_organizers_and_refusals_change_nothing(host: HostProcess, web: requests.Session) -> None:
    url = host.url
    before = snapshot(web, host, "watt-cup-2026")
    seasons_page = web.get(f"{url}/veranstalter/saison", timeout=30).text
    anonymous = pinned_session(host.fingerprint)
    for path in SEASON_ROUTES:
        for auth in (None, ("organizer", "falsch-123")):
            reply = anonymous.get(url + path, auth=auth, timeout=30)
            assert reply.status_code == 401, (path, reply.status_code)
    key = form_key(web, host, SEASONS)
    for path in SEASON_POSTS:
        data = {"csrf": key, "name": "Fremd", "family": "watten-turnier", "points": "own", "season": "watt-cup-2026",
                "from": "SP-1001", "into": "SP-1001", "reason": "x"}
        assert anonymous.post(url + path, data=data, timeout=30).status_code == 401, path
        forged = web.post(url + path, data={k: v for k, v in data.items() if k != "csrf"}, timeout=30)
        assert forged.status_code == 403 and "Formular abgelehnt" in forged.text, path
    for path, data, message in BAD_FORMS:
        reply = web.post(url + path, data={"csrf": key, **data}, timeout=30)
        assert reply.status_code in (404, 422), (path, data, reply.status_code)
        assert message in reply.text, (path, data, reply.text[:2000])
    for path in BAD_GETS:
        reply = web.get(url + path, timeout=30)
        assert 400 <= reply.status_code < 500, (path, reply.status_code)
    assert snapshot(web, host, "watt-cup-2026") == before
    assert web.get(f"{url}/veranstalter/saison", timeout=30).text.count("<li>") == seasons_page.count("<li>")


def test_merging_two_records_of_one_person_has_a_trail_and_the_season_follows(host: HostProcess, web: requests.Session) -> None:
    url = host.url
    key = form_key(web, host, SEASONS)
    play_cup(host, web, "Cup 3", {1: "A", 2: "A"}, TEAMS.replace("Eulen", "Die Eulen"))  # another spelling: a new record
    web.post(f"{url}/veranstalter/saison/zuordnen", data={"csrf": key, "season": "watt-cup-2026"}, timeout=30)
    page = web.get(f"{url}/veranstalter/saison/watt-cup-2026", timeout=30).text
    ids = dict(re.findall(r'<option value="([^"]+)">([^<(]+) \(', page))
    new, old, dachse = (next(i for i, n in ids.items() if n == name) for name in ("Die Eulen", "Eulen", "Dachse"))
    refused = web.post(
        f"{url}/veranstalter/saison/watt-cup-2026/zusammenfuehren",
        data={"csrf": key, "from": old, "into": dachse, "reason": "Verwechslung"},
        timeout=30,
    )
    assert refused.status_code == 422 and "spielten beide im Turnier" in refused.text
    merged = web.post(
        f"{url}/veranstalter/saison/watt-cup-2026/zusammenfuehren",
        data={"csrf": key, "from": new, "into": old, "reason": "Die Eulen sind die Eulen"},
        timeout=30,
    )
    assert merged.status_code == 200 and f"{new} ist jetzt {old}" in merged.text
    assert f"{new} → {old}: Die Eulen sind die Eulen" in merged.text
    rows = list(csv.reader(io.StringIO(snapshot(web, host, "watt-cup-2026").lstrip("\ufeff")), delimiter=";"))
    ranked = rows[1 : rows.index([])]
    assert sorted(r[1] for r in ranked) == ["Adler", "Bären", "Dachse", "Eulen"]
    assert all(r[3] == "3" for r in ranked)  # three evenings each, Die Eulen counted as Eulen


def season_json(web: requests.Session, host: HostProcess, season: str) -> dict[str, Any]:
    reply = web.get(f"{host.url}{API}/seasons/{season}/standings", timeout=30)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def current(web: requests.Session, host: HostProcess) -> dict[str, Any]:
    return dict(web.get(f"{host.url}{API}/tournament", timeout=30).json())


def test_the_seasons_json_is_the_organizers_and_reads_what_the_csv_shows(host: HostProcess, web: requests.Session) -> None:
    url = host.url
    found = season_json(web, host, "watt-cup-2026")
    assert found["season"]["name"] == "Watt-Cup 2026" and found["scheme"]["place_points"] == [10, 6, 4, 2]
    assert SEASONS_NOT_IN_RULES in found["notes"] and found["scheme_text"].startswith("Cup: Punkte je Platz")
    rows = list(csv.reader(io.StringIO(snapshot(web, host, "watt-cup-2026").lstrip("\ufeff")), delimiter=";"))
    shown = [[r[0], r[1], r[2], r[3], r[8]] for r in rows[1 : rows.index([])]]
    assert [[str(r["rank"] or "–"), r["name"], str(r["total"]), str(r["participations"]), r["decided_by"]] for r in found["rows"]] == shown
    assert all(len(r["results"]) == r["participations"] and {"counted", "why"} <= set(r["results"][0]) for r in found["rows"])
    assert [s["id"] for s in web.get(f"{url}{API}/seasons", timeout=30).json()] == ["watt-cup-2026"]
    anonymous = pinned_session(host.fingerprint)
    for path in ("/seasons", "/seasons/watt-cup-2026/standings"):
        for auth in (None, ("organizer", "falsch-123")):
            assert anonymous.get(f"{url}{API}{path}", auth=auth, timeout=30).status_code == 401, path
    for path in ("gibt-es-nicht", "DROP%20TABLE", "a" * 200, "%00%ff", "-x"):
        reply = web.get(f"{url}{API}/seasons/{path}/standings", timeout=30)
        assert reply.status_code == 422, (path, reply.status_code)
    assert "gibt es nicht" in web.get(f"{url}{API}/seasons/gibt-es-nicht/standings", timeout=30).json()["detail"]


def test_the_setup_page_puts_a_tournament_into_a_season_of_its_ruleset(host: HostProcess, web: requests.Session) -> None:
    url = host.url
    key = form_key(web, host, SEASONS)
    made = new_season(web, host, "Schafkopf-Liga", "schafkopf-turnier", "Liga", points="own")
    assert made.status_code == 200, made.text[:2000]
    setup = web.get(f"{url}/veranstalter/", timeout=30).text
    offered = re.findall(r'<option value="([^"]*)"[^>]*>[^<]*</option>', setup.split('name="season"', 1)[1].split("</select>", 1)[0])
    assert offered == ["", "watt-cup-2026"]  # none, or the seasons that count Watten; not the Schafkopf-Liga
    assert re.search(r'<option value="watt-cup-2026" selected', setup)  # the current evening counts for it

    before = (current(web, host), snapshot(web, host, "watt-cup-2026"), season_json(web, host, "schafkopf-liga"))
    new_evening = {"csrf": key, "name": "Cup 4", "date": "2026-12-03", "ruleset": "watten-turnier", "rounds": "1",
                   "opt:target": "15", "opt:bummerl_count": "3"}
    for season, message in (
        ("schafkopf-liga", "wertet schafkopf-turnier, das Turnier spielt watten-turnier"),
        ("gibt-es-nicht", "Eine Saison 'gibt-es-nicht' gibt es nicht"),
        ("x" * 10_000, "gibt es nicht"),
        ("<script>", "gibt es nicht"),
    ):
        refused = web.post(f"{url}/veranstalter/turnier", data={**new_evening, "season": season}, timeout=30)
        assert refused.status_code == 422 and message in html.unescape(refused.text), (season, refused.status_code, refused.text[:2000])
        assert "<script>" not in refused.text
    assert (current(web, host), snapshot(web, host, "watt-cup-2026"), season_json(web, host, "schafkopf-liga")) == before

    saved = web.post(f"{url}/veranstalter/turnier", data={**new_evening, "season": "watt-cup-2026"}, timeout=30)
    assert saved.status_code == 200 and "zählt für die Saison Watt-Cup 2026" in saved.text, saved.text[:2000]
    cup4 = current(web, host)["id"]
    assert cup4 != before[0]["id"] and cup4 in season_json(web, host, "watt-cup-2026")["tournaments"]
    left = web.post(f"{url}/veranstalter/turnier", data={**new_evening, "season": ""}, timeout=30)
    assert left.status_code == 200 and "zählt nicht mehr für die Saison Watt-Cup 2026" in left.text
    assert cup4 not in season_json(web, host, "watt-cup-2026")["tournaments"]

    # Later, by the organizer's JSON: this host's tournament, this evening or an earlier one, into a season.
    joined = web.put(f"{url}{API}/seasons/watt-cup-2026/tournaments/{cup4}", timeout=30)
    assert joined.status_code == 200 and joined.json()["id"] == "watt-cup-2026"
    assert cup4 in season_json(web, host, "watt-cup-2026")["tournaments"]
    earlier = before[0]["id"]
    assert web.put(f"{url}{API}/seasons/watt-cup-2026/tournaments/{earlier}", timeout=30).status_code == 200
    after = (snapshot(web, host, "watt-cup-2026"), season_json(web, host, "schafkopf-liga"))
    anonymous = pinned_session(host.fingerprint)
    for path, status, message in (
        (f"schafkopf-liga/tournaments/{cup4}", 422, "wertet schafkopf-turnier"),
        (f"gibt-es-nicht/tournaments/{cup4}", 422, "gibt es nicht"),
        ("watt-cup-2026/tournaments/gibt-es-nicht", 422, "gibt es nicht"),
        ("watt-cup-2026/tournaments/DROP%20TABLE", 422, ""),
        (f"watt-cup-2026/tournaments/{'a' * 200}", 422, ""),
    ):
        reply = web.put(f"{url}{API}/seasons/{path}", timeout=30)
        assert reply.status_code == status and message in reply.text, (path, reply.status_code, reply.text)
        assert anonymous.put(f"{url}{API}/seasons/{path}", timeout=30).status_code == 401
    assert anonymous.put(f"{url}{API}/seasons/schafkopf-liga/tournaments/{cup4}", auth=("organizer", "x"), timeout=30).status_code == 401
    assert (snapshot(web, host, "watt-cup-2026"), season_json(web, host, "schafkopf-liga")) == after
