"""Sharing and backing up in the real app in a real browser: a player gets the sheet as PDF, CSV and
Tischblock JSON as downloads, the whole phone as a backup file, and reads a backup (or one shared
sheet) in from a picked file, seeing what was added, kept and refused, and why.

The bytes a download gives are checked against the pure functions that make them (the PDF by its
text, the CSV and JSON byte for byte); the import against the store on disk.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pytest

from scoring import Entry, Sheet
from scoring.csv_export import games_csv
from scoring.printout import sheet_pdf
from storage import SheetStore, StoredSheet, read_backup
from storage.backup import backup_document

from .browser import body_text, open_page, patient, running_app, screenshot, sheet_files, wait_for_text
from .conftest import ROOT

pytestmark = pytest.mark.browser

EXAMPLES = ROOT / "docs" / "examples"


def example(name: str) -> Sheet:
    return Sheet.from_json((EXAMPLES / f"{name}.json").read_bytes())


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def download(page, name: str) -> tuple[str, bytes]:  # type: ignore[no-untyped-def]
    """Tap the button ``name`` and return the file the browser downloads: its name and bytes."""
    button = page.get_by_role("button", name=name, exact=True)
    button.wait_for(timeout=patient())
    with page.expect_download(timeout=patient()) as info:
        button.click()
    got = info.value
    return got.suggested_filename, Path(got.path()).read_bytes()


def pick(page, name: str, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Tap the button ``name`` and choose ``path`` in the file chooser it opens."""
    button = page.get_by_role("button", name=name, exact=True)
    button.wait_for(timeout=patient())
    with page.expect_file_chooser(timeout=patient()) as chooser:
        button.click()
    chooser.value.set_files(str(path))


def test_a_sheet_is_shared_as_pdf_csv_and_json(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sheet = example("watten-turnier")
    SheetStore(tmp_path).create(sheet)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        page = open_page(browser, f"{url}blatt/{sheet.id}")
        wait_for_text(page, "Bummerl gewonnen: Die Sautreiber 2 · Kartlbrüder Wörgl 1", 30_000)
        screenshot(page, "blatt-teilen-knopf.png")
        page.get_by_role("button", name="Teilen / Exportieren").click()
        wait_for_text(page, "Tischliste als PDF herunterladen", 15_000)

        name, data = download(page, "Tischliste als PDF herunterladen")
        assert name == "tischliste-watten-turnier-durchgang-1-tisch-4.pdf"
        assert data.startswith(b"%PDF-")
        assert pdf_text(data) == pdf_text(sheet_pdf(sheet))  # the layout the host prints, this sheet's numbers
        wait_for_text(page, f"Tischliste als PDF: {name} heruntergeladen", 10_000)
        screenshot(page, "teilen.png")

        name, data = download(page, "Spiele als CSV herunterladen")
        assert name == "spiele-watten-turnier-durchgang-1-tisch-4.csv"
        assert data == games_csv([sheet]).encode("utf-8-sig")
        assert "Kartlbrüder Wörgl" in data.decode("utf-8-sig")

        name, data = download(page, "Blatt als Tischblock-JSON herunterladen")
        assert name == "watten-turnier-durchgang-1-tisch-4.tischblock.json"
        assert Sheet.from_json(data) == sheet
        wait_for_text(page, f"Blatt als Tischblock-JSON: {name} heruntergeladen", 10_000)
        page.close()


def test_a_backup_goes_out_and_comes_back_in_with_the_report(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    names = ["bauernschnapsen", "doppelkopf-haus", "doppelkopf-turnier", "schafkopf-turnier", "talonschnapsen", "watten-turnier"]
    phone = tmp_path / "handy-a"
    store = SheetStore(phone)
    for name in names:
        store.create(example(name))

    # Phone A: the whole phone as one backup file.
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(phone)}) as url:
        page = open_page(browser, url)
        page.get_by_role("button", name="Sicherung").click()
        wait_for_text(page, "Auf diesem Handy: 6 Blätter", 30_000)
        filename, data = download(page, "Sicherung herunterladen")
        assert filename.startswith("tischblock-sicherung-") and filename.endswith(".json")
        wait_for_text(page, f"Sicherung: {filename} heruntergeladen", 10_000)
        screenshot(page, "sicherung.png")
        page.close()
    backup = tmp_path / filename
    backup.write_bytes(data)
    assert sorted(str(s.sheet.id) for s in read_backup(backup)) == sorted(str(example(n).id) for n in names)
    assert {str(s.sheet.id): s.sheet for s in read_backup(backup)} == {str(s.sheet.id): s.sheet for s in store.all_stored()}

    # Phone B already has three of the sheets: one further on, one that went another way, one the same.
    other = tmp_path / "handy-b"
    second = SheetStore(other)
    watten = example("watten-turnier")
    second.create(watten.with_entry(Entry(kind="void", target=27, reason="Unterschrift vergessen")))
    doppelkopf = example("doppelkopf-turnier")
    second.create(doppelkopf.model_copy(update={"entries": (*doppelkopf.entries[:3], Entry(kind="void", target=3))}))
    second.create(example("schafkopf-turnier"))
    # A backup from a newer app: a sheet of a ruleset this app does not know.
    foreign = StoredSheet.model_validate(json.loads(backup.read_text(encoding="utf-8"))["sheets"][0])
    foreign = foreign.model_copy(
        update={"sheet": foreign.sheet.model_copy(update={"ruleset": foreign.sheet.ruleset.model_copy(update={"id": "skat"})})}
    )
    newer = tmp_path / "neuere-app.json"
    newer.write_text(json.dumps(backup_document([foreign], "Handy C"), ensure_ascii=False), encoding="utf-8")
    damaged = tmp_path / "kaputt.json"
    damaged.write_bytes(data[: len(data) // 2])
    shared = tmp_path / "geteilt.tischblock.json"
    shared.write_text(example("bauernschnapsen").to_json(), encoding="utf-8")

    with running_app(env={"TISCHBLOCK_DATA_DIR": str(other)}) as url:
        page = open_page(browser, f"{url}sicherung")
        wait_for_text(page, "Auf diesem Handy: 3 Blätter", 30_000)

        # A damaged file: a clear message, nothing changed on disk.
        before = sheet_files(other)
        pick(page, "Sicherung einlesen", damaged)
        wait_for_text(page, "Die Sicherung kaputt.json ist beschädigt", 15_000)
        assert "es wurde nichts eingelesen" in body_text(page)
        assert sheet_files(other) == before

        # The real backup: three added, one unchanged, two kept with the reason.
        pick(page, "Sicherung einlesen", backup)
        text = wait_for_text(page, f"Eingelesen aus {filename}", 15_000)
        assert (
            "6 Blätter: 3 neu, 1 unverändert, 1 älter, gespeicherter Stand behalten, 1 Konflikt, gespeicherter Stand behalten"
            in text
        )
        assert (
            "Watten (Turnier) · Durchgang 1 · Tisch 4 · Die Sautreiber – Kartlbrüder Wörgl: nicht übernommen, "
            "gespeicherter Stand behalten (auf diesem Handy steht ein längerer Stand desselben Blatts)"
        ) in text
        assert (
            "Doppelkopf (Turnier) · Runde 1 · Tisch 3 · Anna Huber – Bert Krause – Carla Nowak – Dieter Schulz: nicht übernommen"
            in text
        )
        assert "die Fassungen weichen voneinander ab; die eingelesene liegt unter conflicts/" in text
        assert (
            "Schafkopf (Turnier) · Serie 2 · Tisch 7 · Anna Brandl – Bernd Kiermaier – Carla Huber – Dieter Obermeier: unverändert"
            in text
        )
        assert "Talonschnapsen · Franz Huemer – Gerti Stadler – Hans Pichler: neu" in text
        screenshot(page, "sicherung-bericht.png")
        after = SheetStore(other)
        assert len(after.list_sheets()) == 6
        assert len(after.open(watten.id).entries) == len(watten.entries) + 1  # the longer log stayed
        assert after.open(doppelkopf.id).entries == (*doppelkopf.entries[:3], Entry(kind="void", target=3))

        # A sheet of a ruleset this app does not know is refused, and the report says why.
        pick(page, "Sicherung einlesen", newer)
        text = wait_for_text(page, "Eingelesen aus neuere-app.json", 15_000)
        assert "1 Blätter: 1 ungültig, übersprungen" in text
        assert "abgelehnt (Unbekanntes Regelwerk 'skat'" in text

        # One shared sheet (the Tischblock JSON of the share screen) is read in the same way.
        pick(page, "Sicherung einlesen", shared)
        text = wait_for_text(page, "Eingelesen aus geteilt.tischblock.json", 15_000)
        assert "1 Blatt: unverändert" in text
        page.close()
