"""Issue 13's "Done when", in headless Chromium against the real host: an organizer sets up a Watten
team tournament and a Schafkopf tournament from the pages, imports the roster, draws round 1,
receives the phones' sheets (delivered through the host's API as the app delivers them), resolves a
disputed table, draws rounds 2 and 3, and downloads the final standings and Tischlisten.

Screenshots of every page go to docs/screenshots/veranstalter-*.png (1280x800, and the round's
dashboard at phone size too)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import Sheet

from .browser import DESK, PATIENCE_MS, PHONE, docs_screenshot, organizer_page, page_says
from .hostproc import HostProcess, running_host
from .pages_helpers import Phone, join_code_of, schafkopf_serie, watten_durchgang

pytestmark = pytest.mark.browser


WATTEN_TEAMS = [
    (1, "Die Sautreiber", "Sepp Huber", "Hias Mair", "WSV Söll"),
    (2, "Kartlbrüder Wörgl", "Toni Egger", "Vroni Egger", ""),
    (3, "Die Gspannten", "Lisi Mair", "Hans Mair", "WSV Söll"),
    (4, "Bergfex", "Franz Hauser", "Resi Hauser", ""),
    (5, "Schellen-Unter", "Kathi Moser", "Luis Moser", "Kartlrunde Ellmau"),
    (6, "Die Blinden", "Peter Koller", "Maria Koller", ""),
    (7, "Herz-König", "Anton Brandl", "Gerti Brandl", ""),
    (8, "Weli-Fans", "Rudi Steiner", "Heidi Steiner", "Kartlrunde Ellmau"),
]

SCHAFKOPF_PLAYERS = [
    (17, "Anna Brandl"),
    (4, "Bernd Kiermaier"),
    (23, "Carla Huber"),
    (9, "Dieter Obermeier"),
    (11, "Eva Straßer"),
    (2, "Ferdl Wimmer"),
    (30, "Gabi Söllner"),
    (8, "Hubert Ziegler"),
]


def watten_csv(teams: list[tuple[int, str, str, str, str]]) -> str:
    lines = ["Startnummer;Name;Spieler 1;Spieler 2;Verein"]
    lines += [";".join(str(v) for v in team) for team in teams]
    return "\n".join(lines) + "\n"


@pytest.fixture()
def host(tmp_path: Path) -> Iterator[HostProcess]:
    with running_host(tmp_path / "host", tournament="Kathreinwatten Söll 2026") as running:
        yield running


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    with organizer_page(browser) as opened:
        yield opened


def shot(page: Any, name: str, size: dict[str, int] = DESK) -> None:
    page.set_viewport_size(size)
    docs_screenshot(page, f"veranstalter-{name}.png", full_page=False)
    page.set_viewport_size(DESK)


def flash(page: Any) -> str:
    return str(page.get_by_role("status").inner_text())


def download(page: Any, link: str, tmp: Path) -> bytes:
    with page.expect_download() as info:
        page.get_by_role("link", name=link).click()
    target = tmp / info.value.suggested_filename
    info.value.save_as(target)
    return target.read_bytes()


def row_of(page: Any, table: int) -> Any:
    return page.get_by_role("table", name="Tische").locator("tbody tr").nth(table - 1)


def deliver(phones: dict[int, Phone], round: int, make: Any) -> dict[int, Sheet]:
    """Every phone asks for its assignment and sends the sheet ``make(start_number, sheet)`` returns (None: nothing)."""
    sent = {}
    for number, phone in phones.items():
        sheet = make(number, phone.sheet(round))
        if sheet is not None:
            phone.submit(sheet)
            sent[number] = sheet
    return sent


def test_an_organizer_runs_a_watten_and_a_schafkopf_tournament(host: HostProcess, page: Any, tmp_path: Path) -> None:
    url = host.url + "/veranstalter/"
    # -- Watten: set-up -------------------------------------------------------------------------------
    page.goto(url)
    page.get_by_label("Datum").fill("2026-11-23")
    page.get_by_label("Regelwerk").select_option(label="Watten (Turnier)")
    page.wait_for_load_state()
    page.locator('input[name="rounds"]').fill("3")
    page.get_by_role("button", name="Speichern").click()
    assert "Turnier gespeichert" in flash(page)
    page_says(page, "70 Minuten je Durchgang")
    shot(page, "einrichten")

    # -- roster: a bad file imports nothing; the good one all --------------------------------------
    page.get_by_role("link", name="Teilnehmer").click()
    bad = tmp_path / "startliste-fehler.csv"
    bad.write_text(watten_csv(WATTEN_TEAMS[:3]) + "4;Bergfex;Franz Hauser;;\nx;Zweier;A;B;\n", encoding="utf-8")
    page.get_by_label("CSV-Datei").set_input_files(str(bad))
    page.get_by_role("button", name="Importieren").click()
    alert = page.get_by_role("alert").inner_text()
    assert "Nichts importiert" in alert and "Zeile 5" in alert and "Zeile 6" in alert
    page_says(page, "Noch niemand angemeldet")
    shot(page, "import-fehler")
    good = tmp_path / "startliste.csv"
    good.write_text(watten_csv(WATTEN_TEAMS), encoding="utf-8")
    page.get_by_label("CSV-Datei").set_input_files(str(good))
    page.get_by_role("button", name="Importieren").click()
    assert "8 Teilnehmer importiert" in flash(page)
    shot(page, "teilnehmer")

    # -- Durchgang 1: the draw with a seed read out, the clock, the phones ---------------------------
    page.get_by_role("link", name="Durchgang 1").click()
    page.get_by_label("Losnummer").fill("4711")
    page.get_by_role("button", name="Durchgang 1 auslosen").click()
    assert "Losnummer 4711" in flash(page)
    page.get_by_role("button", name=re.compile("Durchgang 1 starten")).click()
    assert "Noch 70 von 70 Minuten" in page.get_by_role("timer").inner_text()

    code = join_code_of(page.goto(url).text())
    phones = {number: Phone(host, code, number) for number, *_ in WATTEN_TEAMS}
    tables: dict[int, list[int]] = {}
    for number, phone in phones.items():
        tables.setdefault(phone.assignment(1)["table"], []).append(number)
    assert sorted(len(v) for v in tables.values()) == [2, 2, 2, 2]
    disputed = tables[1]
    running = tables[2]

    def round1(number: int, sheet: Sheet) -> Sheet:
        if number in running:  # still playing: five games sent, not signed
            return watten_durchgang(sheet, "AB", games=5, close=False)
        if number == disputed[1]:  # this team wrote game 4 the other way round
            return watten_durchgang(sheet, "AABB")
        return watten_durchgang(sheet, "AABA")

    deliver(phones, 1, round1)
    page.goto(host.url + "/veranstalter/runde/1")
    assert "uneinig" in row_of(page, 1).inner_text()
    assert "läuft" in row_of(page, 2).inner_text()
    assert "unterschrieben" in row_of(page, 3).inner_text()
    shot(page, "durchgang")
    shot(page, "durchgang-handy", PHONE)

    # -- "Durchgang abbrechen" for the table still playing: asks for a reason and a confirmation ----
    row_of(page, 2).get_by_role("link", name="Durchgang abbrechen").click()
    page.get_by_label("Grund").fill("Zeitlimit: 70 Minuten um")
    page.get_by_label(re.compile("wirklich abbrechen")).check()
    page.get_by_role("button", name="Durchgang abbrechen").click()
    assert "Tisch 2: Durchgang 1 abgebrochen" in flash(page)
    assert "unterschrieben" in row_of(page, 2).inner_text()

    # -- the dispute: side by side at the first difference, one sheet stands, with a reason ------------
    row_of(page, 1).get_by_role("link", name="Streit klären").click()
    # waited for, not counted once: the click returns when the new page is committed, not parsed (CI on
    # 95ecf7f counted 0 rows while the old page or a part of the new one was there)
    expect(page.get_by_role("row", name="Erster Unterschied")).to_have_count(2, timeout=PATIENCE_MS)
    shot(page, "streit")
    first_side = page.get_by_role("form").filter(has=page.get_by_role("button", name=re.compile("Dieses Blatt gilt"))).first
    first_side.get_by_role("textbox").fill("Beide Mannschaften bestätigen Spiel 4 für dieses Blatt")
    first_side.get_by_role("button").click()
    assert "gilt" in flash(page)
    trail = page.get_by_role("table", name="Entscheidungen").inner_text()
    assert "Turnierleitung" in trail and "Beide Mannschaften bestätigen" in trail
    page.goto(host.url + "/veranstalter/runde/1")
    assert "entschieden" in row_of(page, 1).inner_text()

    # -- between the rounds: a withdrawal makes the count odd, the draw says so; a late team evens it --
    page.get_by_role("link", name="Teilnehmer").click()
    page.get_by_role("button", name="Nr. 8 zurückziehen").click()
    assert "zurückgezogen" in flash(page)
    page.get_by_role("link", name="Durchgang 2").click()
    assert "gerade" in page.get_by_role("alert").inner_text()
    assert page.get_by_role("button", name="Durchgang 2 auslosen").is_disabled()
    page.get_by_role("link", name="Teilnehmer").click()
    page.get_by_label("Name der Mannschaft").fill("Die Nachzügler")
    page.get_by_label("Spieler 1").fill("Lena Wurzer")
    page.get_by_label("Spieler 2").fill("Jakob Wurzer")
    page.get_by_role("button", name="Anmelden").click()
    assert "Die Nachzügler angemeldet (spielt ab Durchgang 2)" in flash(page)
    phones[9] = Phone(host, code, 9)
    del phones[8]

    for number in (2, 3):
        page.get_by_role("link", name=f"Durchgang {number}").click()
        page.get_by_role("button", name=f"Durchgang {number} auslosen").click()  # no seed typed: a random one
        seed = re.search(r"Losnummer (\d+)", flash(page))
        assert seed, flash(page)
        page.get_by_role("button", name=re.compile(f"Durchgang {number} starten")).click()
        deliver(phones, number, lambda n, s: watten_durchgang(s, "AAB" if s.participants[0].start_number % 2 else "ABB"))
        page.goto(f"{host.url}/veranstalter/runde/{number}")
        assert page.locator(".state-unterschrieben").count() == 4, page.content()

    # -- the final standings: ties explained, downloads -----------------------------------------------
    page.get_by_role("link", name="Wertung").click()
    standings = page.get_by_role("table", name="Wertung").inner_text()
    assert "Die Nachzügler" in standings and "Weli-Fans" in standings
    shot(page, "wertung")
    page.emulate_media(media="print")  # what the printer gets: the list, no navigation, no buttons
    # waited for, not read once: the page's style sheet may still be loading (the screenshot taken here
    # before ./dev screenshots had waited for it; CI on 1c08955 read the header still shown)
    expect(page.locator("header.top")).to_be_hidden(timeout=PATIENCE_MS)
    expect(page.get_by_role("table", name="Wertung")).to_be_visible(timeout=PATIENCE_MS)
    assert page.pdf(path=str(tmp_path / "wertung-gedruckt.pdf")).startswith(b"%PDF")
    page.emulate_media(media="screen")
    table = download(page, "Wertung (CSV)", tmp_path).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(table), delimiter=";"))
    assert rows[0][:3] == ["Platz", "Nr.", "Mannschaft"] and len([r for r in rows if r and r[0].isdigit()]) == 9
    assert download(page, "Ergebnisliste (PDF)", tmp_path).startswith(b"%PDF")
    assert download(page, "Alle Spiele (CSV)", tmp_path).decode("utf-8-sig").count("\n") > 12 * 20
    page.get_by_role("link", name="Durchgang 3").click()
    assert download(page, "Tischlisten (PDF)", tmp_path).startswith(b"%PDF")
    assert download(page, "Auslosung (PDF)", tmp_path).startswith(b"%PDF")

    beamer = page.context.new_page()
    beamer.set_viewport_size(DESK)
    beamer.goto(host.url + "/veranstalter/beamer")
    assert "Die Sautreiber" in beamer.content() or "Die Gspannten" in beamer.content()
    assert beamer.locator('meta[http-equiv="refresh"]').count() == 1
    docs_screenshot(beamer, "veranstalter-beamer.png")
    beamer.close()

    # -- Schafkopf: a new tournament from the same page ------------------------------------------------
    page.goto(url)
    page.get_by_label("Name des Turniers").fill("Kirchweih-Schafkopf Aichach 2026")
    page.get_by_label("Regelwerk").select_option(label="Schafkopf (Turnier)")
    page.wait_for_load_state()
    assert page.get_by_label("Name des Turniers").input_value() == "Kirchweih-Schafkopf Aichach 2026"
    page.locator('input[name="opt:spiele"]').fill("8")
    page.get_by_label("Datum").fill("2026-11-24")
    page.get_by_role("button", name="Speichern").click()
    page.get_by_role("status").filter(has_text="Neues Turnier 'Kirchweih-Schafkopf Aichach 2026' angelegt").wait_for()
    code = join_code_of(page.content())
    page.get_by_role("link", name="Teilnehmer").click()
    players = tmp_path / "schafkopf.csv"
    players.write_text("Startnummer,Name\n" + "".join(f"{n},{name}\n" for n, name in SCHAFKOPF_PLAYERS), encoding="utf-8")
    page.get_by_label("CSV-Datei").set_input_files(str(players))
    page.get_by_role("button", name="Importieren").click()
    assert "8 Teilnehmer importiert" in flash(page)

    phones = {number: Phone(host, code, number) for number, _ in SCHAFKOPF_PLAYERS}
    for serie in (1, 2, 3):
        page.get_by_role("link", name=f"Serie {serie}").click()
        page.get_by_label("Losnummer").fill(str(100 + serie))
        page.get_by_role("button", name=f"Serie {serie} auslosen").click()
        assert f"Losnummer {100 + serie}" in flash(page)
        assert "Platz 4:" in page.get_by_role("table", name="Tische").inner_text()
        page.get_by_role("button", name=re.compile(f"Serie {serie} starten")).click()
        # The Listenführer of each table (the player on Platz 1) keeps and sends the table's sheet.
        deliver(
            phones,
            serie,
            lambda n, s, serie=serie: (
                schafkopf_serie(s, serie) if next(p for p in s.participants if p.start_number == n).seat == 1 else None
            ),
        )
        page.goto(f"{host.url}/veranstalter/runde/{serie}")
        assert page.locator(".state-unterschrieben").count() == 2, page.content()
        assert "Reuegeld gesamt" in page.content()
        if serie == 1:
            shot(page, "schafkopf-serie")
    page.get_by_role("link", name="Wertung").click()
    standings = page.get_by_role("table", name="Wertung").inner_text()
    assert all(name in standings for _, name in SCHAFKOPF_PLAYERS)
    shot(page, "schafkopf-wertung")
    table = download(page, "Wertung (CSV)", tmp_path).decode("utf-8-sig")
    assert len([r for r in csv.reader(io.StringIO(table), delimiter=";") if r and r[0].isdigit()]) == 8
    page.get_by_role("link", name="Serie 3").click()
    assert download(page, "Tischlisten (PDF)", tmp_path).startswith(b"%PDF")
