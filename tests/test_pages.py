"""The organizer's pages on the real host (``tischblock host`` on 127.0.0.1, HTTPS): the password on
every page, the form key on every form, a bad CSV that imports nothing, the refusal of a draw shown
before the round starts, and the downloads' formats. The browser tests (test_pages_e2e.py) drive the
same pages as an organizer does."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from scoring import Entry

from .host_helpers import pinned_session
from .hostproc import PASSWORD, HostProcess, running_host
from .pages_helpers import AUTH, Phone, form_key, join_code_of, organizer_session, watten_durchgang

PAGES = [
    "/veranstalter/",
    "/veranstalter/teilnehmer",
    "/veranstalter/runde/1",
    "/veranstalter/runde/1/tisch/1",
    "/veranstalter/runde/1/tisch/1/abbrechen",
    "/veranstalter/wertung",
    "/veranstalter/beamer",
    "/veranstalter/export/wertung.csv",
    "/veranstalter/export/spiele.csv",
    "/veranstalter/export/ergebnisliste.pdf",
    "/veranstalter/export/runde-1-auslosung.pdf",
    "/veranstalter/export/runde-1-tischlisten.pdf",
]

GOOD_CSV = """Startnummer;Name;Spieler 1;Spieler 2;Verein
1;Die Sautreiber;Sepp Huber;Hias Mair;WSV Söll
2;Kartlbrüder Wörgl;Toni Egger;Vroni Egger;
3;Die Gspannten;Lisi Mair;Hans Mair;WSV Söll
4;Bergfex;Franz Hauser;Resi Hauser;
"""

BAD_CSV = """Startnummer;Name;Spieler 1;Spieler 2;Verein
1;Die Sautreiber;Sepp Huber;Hias Mair;
x;Kartlbrüder;Toni;Vroni;
3;Die Gspannten;Lisi;;
1;Doppelt;A;B;
"""


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("pages"), tournament="Kathreinwatten Söll 2026") as running:
        yield running


@pytest.fixture(scope="module")
def web(host: HostProcess) -> requests.Session:
    return organizer_session(host)


def test_every_page_needs_the_organizers_password(host: HostProcess) -> None:
    anonymous = pinned_session(host.fingerprint)
    for path in PAGES:
        for auth in (None, ("organizer", "falsch-123"), ("phone", PASSWORD)):
            reply = anonymous.get(host.url + path, auth=auth, timeout=30, allow_redirects=False)
            assert reply.status_code == 401, (path, auth, reply.status_code)
            assert reply.headers["WWW-Authenticate"].startswith("Basic")
            assert "Nur für den Veranstalter" in reply.text
    reply = anonymous.post(host.url + "/veranstalter/turnier", data={"name": "x"}, timeout=30, allow_redirects=False)
    assert reply.status_code == 401
    assert anonymous.get(host.url + "/veranstalter/pages.css", timeout=30).status_code == 401
    # With the password, before anything is set up: every page answers in German HTML, never an error trace.
    for path in PAGES:
        reply = anonymous.get(host.url + path, auth=AUTH, timeout=30)
        assert reply.status_code in (200, 422), (path, reply.status_code, reply.text)
        assert reply.headers["Content-Type"].startswith("text/html"), (path, reply.headers["Content-Type"])
    refused = anonymous.get(host.url + "/veranstalter/runde/1/tisch/1/abbrechen", auth=AUTH, timeout=30).text
    assert "noch keinen Plan" in refused or "nicht ausgelost" in refused, refused


def test_set_up_import_draw_and_refusals(host: HostProcess, web: requests.Session, tmp_path: Path) -> None:
    url = host.url
    key = form_key(web, host)
    # A form without this host's form key (another site making the browser post) changes nothing.
    forged = web.post(f"{url}/veranstalter/turnier", data={"name": "Fremd", "ruleset": "schafkopf-turnier"}, timeout=30)
    assert forged.status_code == 403
    assert "Formular abgelehnt" in forged.text
    setup = web.get(f"{url}/veranstalter/", timeout=30).text
    assert "Noch kein Regelwerk gewählt" in setup
    # The ruleset's options are offered with their defaults.
    assert 'name="opt:target" value="15"' in setup and 'name="opt:bummerl_count" value="3"' in setup

    bad_plan = web.post(
        f"{url}/veranstalter/turnier",
        data={"csrf": key, "name": "Kathreinwatten Söll 2026", "ruleset": "watten-turnier", "rounds": "3", "opt:target": "x"},
        timeout=30,
    )
    assert bad_plan.status_code == 422
    assert "Nichts geändert" in bad_plan.text and "target" in bad_plan.text
    saved = web.post(
        f"{url}/veranstalter/turnier",
        data={
            "csrf": key,
            "name": "Kathreinwatten Söll 2026",
            "date": "2026-11-23",
            "ruleset": "watten-turnier",
            "rounds": "3",
            "opt:target": "15",
            "opt:bummerl_count": "3",
        },
        timeout=30,
    )
    assert saved.status_code == 200 and "Turnier gespeichert" in saved.text
    assert "70 Minuten je Durchgang" in saved.text

    # A bad CSV: every bad line named, nothing imported.
    bad = web.post(f"{url}/veranstalter/teilnehmer/import", data={"csrf": key, "text": BAD_CSV}, timeout=30)
    assert bad.status_code == 422
    assert "Nichts importiert" in bad.text
    for line in ("Zeile 3", "Zeile 4", "Zeile 5"):
        assert line in bad.text, line
    assert "Zeile 2:" not in bad.text
    assert "Noch niemand angemeldet" in bad.text

    # The good one as a file upload in Windows-1252, as an older spreadsheet saves it.
    upload = web.post(
        f"{url}/veranstalter/teilnehmer/import",
        data={"csrf": key},
        files={"file": ("startliste.csv", GOOD_CSV.encode("cp1252"), "text/csv")},
        timeout=30,
    )
    assert upload.status_code == 200, upload.text
    assert "4 Teilnehmer importiert" in upload.text
    assert "Kartlbrüder Wörgl" in upload.text and "Sepp Huber, Hias Mair" in upload.text

    # One more team: 5 teams, and Watten refuses the draw before anybody starts.
    late = web.post(
        f"{url}/veranstalter/teilnehmer/neu",
        data={"csrf": key, "start_number": "5", "name": "Nachzügler", "member1": "Max", "member2": "Moritz", "club": ""},
        timeout=30,
    )
    assert "Nr. 5 Nachzügler angemeldet" in late.text
    round_page = web.get(f"{url}/veranstalter/runde/1", timeout=30).text
    assert "kann so nicht ausgelost werden" in round_page and "gerade" in round_page
    refused = web.post(f"{url}/veranstalter/runde/1/auslosen", data={"csrf": key, "seed": "4711"}, timeout=30)
    assert refused.status_code == 422
    withdrawn = web.post(f"{url}/veranstalter/teilnehmer/5/zurueckziehen", data={"csrf": key}, timeout=30)
    assert "zurückgezogen" in withdrawn.text

    drawn = web.post(f"{url}/veranstalter/runde/1/auslosen", data={"csrf": key, "seed": "4711"}, timeout=30)
    assert drawn.status_code == 200 and "Losnummer 4711" in drawn.text
    assert "Tisch" in drawn.text and "Nr. 1 Die Sautreiber" in drawn.text
    again = web.post(f"{url}/veranstalter/runde/1/auslosen", data={"csrf": key, "seed": "1"}, timeout=30)
    assert again.status_code == 422 and "schon ausgelost" in again.text

    # The draw as PDF for the notice board, the Tischlisten of the round (empty sheets to fill in).
    for name in ("runde-1-auslosung.pdf", "runde-1-tischlisten.pdf"):
        pdf = web.get(f"{url}/veranstalter/export/{name}", timeout=30)
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), name
        assert "attachment" in pdf.headers["Content-Disposition"]

    # The phones deliver; the standings CSV opens as a spreadsheet's table.
    code = join_code_of(web.get(f"{url}/veranstalter/", timeout=30).text)
    web.post(f"{url}/veranstalter/runde/1/start", data={"csrf": key}, timeout=30)
    for number in (1, 2, 3, 4):
        phone = Phone(host, code, number)
        phone.submit(watten_durchgang(phone.sheet(1), "AAB"))
    dashboard = web.get(f"{url}/veranstalter/runde/1", timeout=30).text
    assert dashboard.count("state-unterschrieben") == 2, dashboard
    assert '<meta http-equiv="refresh"' in dashboard
    table = web.get(f"{url}/veranstalter/export/wertung.csv", timeout=30)
    rows = list(csv.reader(io.StringIO(table.content.decode("utf-8-sig")), delimiter=";"))
    ranked = rows[: rows.index([])] if [] in rows else rows
    assert ranked[0][:3] == ["Platz", "Nr.", "Mannschaft"]
    assert {row[2] for row in ranked[1:]} >= {"Die Sautreiber", "Kartlbrüder Wörgl", "Die Gspannten", "Bergfex"}, rows
    assert ranked[1][2] == "Die Sautreiber" and ranked[1][3] == "3"
    games = web.get(f"{url}/veranstalter/export/spiele.csv", timeout=30)
    assert games.status_code == 200 and len(games.content.decode("utf-8-sig").splitlines()) > 4 * 20

    # Durchgang 2: table 1's two sheets part at game 4 (noticed while playing); the organizer enters
    # game 4 corrected on one of them.
    drawn = web.post(f"{url}/veranstalter/runde/2/auslosen", data={"csrf": key, "seed": "99"}, timeout=30)
    assert "Losnummer 99" in drawn.text
    web.post(f"{url}/veranstalter/runde/2/start", data={"csrf": key}, timeout=30)
    phones = {number: Phone(host, code, number) for number in (1, 2, 3, 4)}
    table_one = sorted(n for n, p in phones.items() if p.assignment(2)["table"] == 1)
    for number, phone in phones.items():
        if number in table_one:
            pattern = "AABB" if number == table_one[1] else "AABA"
            phone.submit(watten_durchgang(phone.sheet(2), pattern, games=6, close=False))
        else:
            phone.submit(watten_durchgang(phone.sheet(2), "AABA"))
    dashboard = web.get(f"{url}/veranstalter/runde/2", timeout=30).text
    assert "state-uneinig" in dashboard
    standings = web.get(f"{url}/veranstalter/wertung", timeout=30).text
    assert "Durchgang 2, Tisch 1: die Blätter sind uneinig" in standings

    dispute = web.get(f"{url}/veranstalter/runde/2/tisch/1", timeout=30).text
    assert dispute.count('aria-label="Erster Unterschied"') == 2
    assert "Oder „4. Spiel“ berichtigt eintragen" in dispute
    sheet_id = re.search(r'korrigieren".*?name="sheet_id" value="([0-9a-f-]+)"', dispute, re.S).group(1)  # type: ignore[union-attr]
    written = re.search(r'name="data:winner" value="([^"]+)"', dispute).group(1)  # type: ignore[union-attr]
    # The corrected game is what the other sheet says: the other team won game 4.
    corrected_winner = {"A": "B", "B": "A"}.get(written, written)
    no_reason = web.post(
        f"{url}/veranstalter/runde/2/tisch/1/korrigieren",
        data={"csrf": key, "sheet_id": sheet_id, "game": "4", "data:winner": corrected_winner, "reason": " "},
        timeout=30,
    )
    assert no_reason.status_code == 422 and "Begründung fehlt" in no_reason.text
    fixed = web.post(
        f"{url}/veranstalter/runde/2/tisch/1/korrigieren",
        data={"csrf": key, "sheet_id": sheet_id, "game": "4", "data:winner": corrected_winner, "reason": "Laut Schiedsrichter"},
        timeout=30,
    )
    assert fixed.status_code == 200, fixed.text
    assert "4. Spiel" in fixed.text and "Laut Schiedsrichter" in fixed.text and "Turnierleitung" in fixed.text
    assert "state-entschieden" in web.get(f"{url}/veranstalter/runde/2", timeout=30).text
    assert "die Blätter sind uneinig" not in web.get(f"{url}/veranstalter/wertung", timeout=30).text

    # "Durchgang abbrechen" without the confirmation changes nothing.
    unconfirmed = web.post(f"{url}/veranstalter/runde/2/tisch/2/abbrechen", data={"csrf": key, "reason": "Zeitlimit"}, timeout=30)
    assert unconfirmed.status_code == 422 and "bestätigen" in unconfirmed.text

    # The projector pages through a long list by itself: 10 places a page, then back to the first.
    for number in range(10, 18):
        web.post(
            f"{url}/veranstalter/teilnehmer/neu",
            data={"csrf": key, "start_number": str(number), "name": f"Team {number}", "member1": "X", "member2": "Y"},
            timeout=30,
        )
    first = web.get(f"{url}/veranstalter/beamer", timeout=30).text
    assert "Seite 1 von 2" in first and 'content="12;url=/veranstalter/beamer?seite=2"' in first
    second = web.get(f"{url}/veranstalter/beamer?seite=2", timeout=30).text
    assert "Seite 2 von 2" in second and 'content="12;url=/veranstalter/beamer?seite=1"' in second
    ranked_rows = [
        r
        for r in csv.reader(
            io.StringIO(web.get(f"{url}/veranstalter/export/wertung.csv", timeout=30).content.decode("utf-8-sig")), delimiter=";"
        )
        if r and r[0].isdigit()
    ]
    assert len(ranked_rows) > 10
    assert first.count('class="rank"') == 10 and second.count('class="rank"') == len(ranked_rows) - 10


@pytest.mark.parametrize("ruleset_id", ["bauernschnapsen", "talonschnapsen", "doppelkopf-turnier", "schafkopf-turnier"])
def test_the_set_up_form_offers_every_option_and_reads_it_back(ruleset_id: str) -> None:
    """What the form shows of a ruleset's options (defaults, the keys of ``option_choices()``) comes back
    from the browser's form as options the ruleset accepts unchanged."""
    from starlette.datastructures import FormData

    from scoring import find_ruleset
    from sync.host.pages.forms import option_fields, options_from_form

    ruleset = find_ruleset(ruleset_id)
    fields = option_fields(ruleset_id)
    assert [f.name for f in fields] == list(ruleset.Options.model_fields)
    for field in fields:
        if field.name in ruleset.option_choices():
            assert field.kind == "choices" and dict(field.choices) == ruleset.option_choices()[field.name]
    sent: list[tuple[str, str]] = []
    for field in fields:  # what the browser sends for the form as shown
        if field.kind == "choices":
            sent += [(f"opt:{field.name}", key) for key in field.value]
        elif field.kind == "bool":
            sent += [(f"opt:{field.name}", "true")] if field.value else []
        else:
            sent.append((f"opt:{field.name}", str(field.value)))
    read = options_from_form(ruleset_id, FormData(sent))
    assert ruleset.options(read) == ruleset.options()


def test_the_dispute_page_names_games_as_the_players_count_them(tmp_path: Path) -> None:
    """Both sheets of table 1 have a Bscheißn (Regel 10) after the 4th game, then part: the 6th line of
    the comparison is the "5. Spiel" on both phones' Tischliste, and the organizer's page says so in its
    message, its table, its correction form and the decision's trail, never "Spiel 6"."""
    with running_host(tmp_path / "host", tournament="Watten mit Bscheißn") as host:
        web = organizer_session(host)
        url, key = host.url, form_key(web, host)
        plan = {"csrf": key, "name": "Watten mit Bscheißn", "date": "2026-11-26", "ruleset": "watten-turnier", "rounds": "1"}
        saved = web.post(f"{url}/veranstalter/turnier", data={**plan, "opt:target": "15", "opt:bummerl_count": "3"}, timeout=30)
        assert "Turnier gespeichert" in saved.text, re.findall(r"<li>(.*?)</li>", saved.text)
        imported = web.post(f"{url}/veranstalter/teilnehmer/import", data={"csrf": key, "text": GOOD_CSV}, timeout=30)
        assert "4 Teilnehmer importiert" in imported.text
        assert "Losnummer 7" in web.post(f"{url}/veranstalter/runde/1/auslosen", data={"csrf": key, "seed": "7"}, timeout=30).text
        web.post(f"{url}/veranstalter/runde/1/start", data={"csrf": key}, timeout=30)
        code = join_code_of(web.get(f"{url}/veranstalter/", timeout=30).text)
        phones = [Phone(host, code, number) for number in (1, 2, 3, 4)]
        at_one = [phone for phone in phones if phone.assignment(1)["table"] == 1]
        for phone, winner in zip(at_one, (0, 1), strict=True):
            sheet = watten_durchgang(phone.sheet(1), "AAB", close=False, games=4)
            ids = [p.id for p in sheet.participants]
            sheet = sheet.with_entry(Entry(kind="betrug", data={"cheater": ids[1]}))
            phone.submit(sheet.with_entry(Entry(kind="game", data={"winner": ids[winner]})))

        page = web.get(f"{url}/veranstalter/runde/1/tisch/1", timeout=30).text
        assert "Unterschied beim 5. Spiel: " in page, page
        assert "Spiel 6" not in page and "Spiel 5" not in page
        rows = re.findall(r'aria-label="Erster Unterschied">\s*<td>([^<]*)</td>', page)
        assert rows == ["5. Spiel", "5. Spiel"], rows
        assert page.count("<td>Bscheißn nach dem 4. Spiel</td>") == 2
        assert "Oder „5. Spiel“ berichtigt eintragen" in page and "gilt als 5. Spiel." in page
        sheet_id = re.search(r'korrigieren".*?name="sheet_id" value="([0-9a-f-]+)"', page, re.S).group(1)  # type: ignore[union-attr]
        game = re.search(r'name="game" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
        written = re.search(r'name="data:winner" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        fixed = web.post(
            f"{url}/veranstalter/runde/1/tisch/1/korrigieren",
            data={"csrf": key, "sheet_id": sheet_id, "game": game, "data:winner": written, "reason": "Laut beiden Teams"},
            timeout=30,
        )
        assert fixed.status_code == 200, fixed.text
        assert "5. Spiel auf dem Blatt von " in fixed.text and "Spiel 6" not in fixed.text
