"""The files the app shares and the import of a picked file, without a browser (``screens/export_state.py``)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

from scoring import Entry, Participant, Sheet, SheetContext, find_ruleset
from scoring.csv_export import games_csv
from screens.export_state import ExportState, backup_export, file_stem, import_file, sheet_export, slug
from storage import SheetStore, read_backup

from .browser import sheet_files
from .conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples"


def example(name: str) -> Sheet:
    return Sheet.from_json((EXAMPLES / f"{name}.json").read_bytes())


def test_file_names_are_plain_and_say_which_sheet() -> None:
    assert slug("Kartlbrüder Wörgl – Söll/Straße") == "kartlbrueder-woergl-soell-strasse"
    assert file_stem(example("watten-turnier")) == "watten-turnier-durchgang-1-tisch-4"
    assert file_stem(example("talonschnapsen")) == "talonschnapsen-franz-huemer-gerti-stadler"
    names = {sheet_export(example("schafkopf-turnier"), kind).name for kind in ("pdf", "csv", "json")}
    assert names == {
        "tischliste-schafkopf-turnier-serie-2-tisch-7.pdf",
        "spiele-schafkopf-turnier-serie-2-tisch-7.csv",
        "schafkopf-turnier-serie-2-tisch-7.tischblock.json",
    }


def test_the_exports_are_the_cores_files() -> None:
    sheet = example("doppelkopf-turnier")
    assert sheet_export(sheet, "pdf").data.startswith(b"%PDF-")
    csv = sheet_export(sheet, "csv")
    assert csv.mime == "text/csv" and csv.data == games_csv([sheet]).encode("utf-8-sig")
    assert Sheet.from_json(sheet_export(sheet, "json").data) == sheet


def test_a_backup_made_in_the_app_restores_on_another_phone(tmp_path: Path) -> None:
    one = SheetStore(tmp_path / "a")
    for name in ("watten-turnier", "schafkopf-turnier"):
        one.create(example(name))
    file, count = backup_export(one, now=datetime(2026, 11, 23, tzinfo=UTC))
    assert (file.name, count) == ("tischblock-sicherung-2026-11-23.json", 2)
    (tmp_path / file.name).write_bytes(file.data)
    assert len(read_backup(tmp_path / file.name)) == 2  # the format of `tischblock export`
    two = SheetStore(tmp_path / "b")
    report = import_file(two, file.data, file.name)
    assert report.summary == "2 Blätter: 2 neu"
    assert all(line.taken and line.outcome == "neu" for line in report.lines)
    assert {str(i.id) for i in two.list_sheets()} == {str(example(n).id) for n in ("watten-turnier", "schafkopf-turnier")}
    again = import_file(two, file.data, file.name)
    assert again.summary == "2 Blätter: 2 unverändert"


def test_a_damaged_or_foreign_file_changes_nothing_and_names_the_picked_file(tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    store.create(example("watten-turnier"))
    before = sheet_files(tmp_path)
    state = ExportState(store)
    file, _ = backup_export(store)
    state.imported(file.data[:-40], "sicherung.json")
    assert state.error is not None and state.error.startswith("Die Sicherung sicherung.json ist beschädigt")
    assert "tischblock-import-" not in state.error  # not the temporary copy's path
    assert state.report is None
    document = json.loads(file.data)
    document["sheets"][0]["sheet"]["entries"][0]["data"]["value"] = 3
    state.imported(json.dumps(document).encode(), "verändert.json")
    assert state.error is not None and "Prüfsumme der Sicherung verändert.json stimmt nicht" in state.error
    state.imported(b'{"format": "tischblock-sheet", "participants": []}', "blatt.json")
    assert state.error is not None and state.error.startswith("blatt.json ist kein gültiges Blatt: Regelwerk fehlt")
    state.imported(b"\x89PNG\r\n", "foto.png")
    assert state.error is not None and "foto.png" in state.error
    state.imported(None, "weg.json")
    assert state.error == "weg.json konnte nicht gelesen werden; es wurde nichts eingelesen."
    assert sheet_files(tmp_path) == before


def test_one_shared_sheet_is_read_in_and_a_refused_one_says_why(tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    sheet = find_ruleset("watten-turnier").new_sheet(
        [Participant(id="A", name="Die Sautreiber"), Participant(id="B", name="Zwoa Hirsch")],
        SheetContext(round_label="Durchgang", round=2, table=5),
    )
    report = import_file(store, sheet.to_json().encode(), "blatt.tischblock.json")
    assert report.summary == "1 Blatt: neu"
    assert report.lines[0].text == "Watten (Turnier) · Durchgang 2 · Tisch 5 · Die Sautreiber – Zwoa Hirsch: neu"
    longer = sheet.with_entry(Entry(kind="game", data={"winner": "A", "value": 2}))
    assert import_file(store, longer.to_json().encode(), "b.json").summary == "1 Blatt: aktualisiert"
    assert import_file(store, sheet.to_json().encode(), "b.json").lines[0].taken is False  # shorter: kept
    wrong = sheet.model_copy(update={"id": uuid.uuid4()})
    wrong = wrong.with_entry(Entry(kind="game", data={"winner": "A", "value": 1}))
    refused = import_file(store, wrong.to_json().encode(), "falsch.json")
    assert refused.summary == "1 Blatt: abgelehnt"
    assert not refused.lines[0].taken and "1. Spiel" in refused.lines[0].detail
    assert len(store.list_sheets()) == 1
