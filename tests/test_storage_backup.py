"""Backup and restore (one JSON file, CSV per sheet), where the store lives, and the CLI commands."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import platformdirs
import pytest

import cli
from scoring import Sheet, score_sheet
from storage import BackupError, ImportOutcome, SheetStore, data_dir, export_backup, export_csv, import_backup, sheet_csv

from .storage_helpers import new_store, snapshot, watten


# -- where the files live ------------------------------------------------------------------
def test_data_dir_explicit_wins_over_everything(tmp_path: Path) -> None:
    env = {"TISCHBLOCK_DATA_DIR": "/env", "FLET_APP_STORAGE_DATA": "/flet"}
    assert data_dir(tmp_path / "x", env) == tmp_path / "x"


def test_data_dir_environment_variable_wins_over_the_packaged_app() -> None:
    assert data_dir(None, {"TISCHBLOCK_DATA_DIR": "/env", "FLET_APP_STORAGE_DATA": "/flet"}) == Path("/env")


def test_data_dir_of_a_packaged_app_is_flets_storage_directory() -> None:
    assert data_dir(None, {"FLET_APP_STORAGE_DATA": "/data/user/0/at.tischblock/files"}) == Path(
        "/data/user/0/at.tischblock/files/tischblock"
    )


def test_data_dir_on_a_desktop_is_platformdirs() -> None:
    assert data_dir(None, {}) == Path(platformdirs.user_data_dir("tischblock", appauthor=False))


# -- backup --------------------------------------------------------------------------------
def test_export_and_import_restore_everything(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheets = [watten(store, table=1, games="AAB"), watten(store, table=2, games="B")]
    store.correct(sheets[0].id, 1, "game", {"winner": "B"}, reason="verschrieben")
    store.close(sheets[1].id, signed_by="Vroni", override="Abbruch durch die Turnierleitung")  # mid-Durchgang
    store.mark_queued(sheets[1].id)
    assert export_backup(store, tmp_path / "backup.json") == 2
    restored = new_store(tmp_path, "restored")
    report = import_backup(restored, tmp_path / "backup.json")
    assert report.summary() == "2 Blätter: 2 neu"
    for sheet in sheets:
        assert restored.open(sheet.id) == store.open(sheet.id)
        assert restored.stored(sheet.id).sync == store.stored(sheet.id).sync
    assert import_backup(restored, tmp_path / "backup.json").summary() == "2 Blätter: 2 unverändert"


def test_import_never_replaces_a_newer_revision_with_an_older_one(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    export_backup(store, tmp_path / "old.json")
    store.add_game(sheet.id, {"winner": "A"})
    store.void(sheet.id, 1)
    before = snapshot(store.root / "sheets")
    report = import_backup(store, tmp_path / "old.json")
    assert [i.outcome for i in report.items] == [ImportOutcome.OLDER]
    assert snapshot(store.root / "sheets") == before
    assert len(store.open(sheet.id).entries) == 4


def phone_and_laptop(tmp_path: Path) -> tuple[SheetStore, SheetStore, Sheet]:
    """A sheet with two games on the phone, copied to the laptop through ``early.json``."""
    phone = new_store(tmp_path, "phone")
    sheet = watten(phone, games="AB")
    export_backup(phone, tmp_path / "early.json")
    laptop = new_store(tmp_path, "laptop")
    import_backup(laptop, tmp_path / "early.json")
    return phone, laptop, sheet


def test_import_of_a_newer_revision_extends_the_stored_sheet_and_keeps_the_local_sync_mark(tmp_path: Path) -> None:
    phone, laptop, sheet = phone_and_laptop(tmp_path)
    laptop.mark_queued(sheet.id)
    phone.add_game(sheet.id, {"winner": "B"})
    export_backup(phone, tmp_path / "late.json")
    report = import_backup(laptop, tmp_path / "late.json")
    assert [i.outcome for i in report.items] == [ImportOutcome.UPDATED]
    assert laptop.open(sheet.id) == phone.open(sheet.id)
    assert laptop.stored(sheet.id).sync.revision == 2
    assert laptop.list_sheets()[0].sync_pending


def test_import_of_a_diverging_sheet_keeps_ours_and_files_theirs_as_conflict(tmp_path: Path) -> None:
    phone, laptop, sheet = phone_and_laptop(tmp_path)
    laptop.add_game(sheet.id, {"winner": "A"})
    phone.add_game(sheet.id, {"winner": "B"})
    export_backup(phone, tmp_path / "phone.json")
    ours = laptop.open(sheet.id)
    report = import_backup(laptop, tmp_path / "phone.json")
    assert [i.outcome for i in report.items] == [ImportOutcome.CONFLICT]
    assert laptop.open(sheet.id) == ours
    [conflict] = list((laptop.root / "conflicts").iterdir())
    assert json.loads(conflict.read_bytes())["sheet"]["entries"][2]["data"] == {"winner": "B"}


def _damage(path: Path, how: str) -> None:
    doc = json.loads(path.read_bytes())
    if how == "truncated":
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    elif how == "edited":
        doc["sheets"][0]["sheet"]["entries"][0]["data"]["winner"] = "B"
        path.write_text(json.dumps(doc))
    elif how == "missing-sheet":
        doc["sheets"].pop()
        path.write_text(json.dumps(doc))
    elif how == "not-a-backup":
        path.write_text(json.dumps({"format": "tischblock-sheet"}))
    elif how == "newer":
        doc["version"] = 99
        path.write_text(json.dumps(doc))
    elif how == "nul-bytes":
        path.write_bytes(b"\x00" * 4096)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("truncated", "beschädigt"),
        ("edited", "Prüfsumme"),
        ("missing-sheet", "unvollständig"),
        ("not-a-backup", "keine Tischblock-Sicherung"),
        ("newer", "neueren Tischblock-Version"),
        ("nul-bytes", "Nullbytes"),
    ],
)
def test_a_damaged_backup_gives_a_clear_message_and_changes_nothing(tmp_path: Path, how: str, message: str) -> None:
    source = new_store(tmp_path, "source")
    watten(source, table=1, games="AB")
    watten(source, table=2, games="B")
    export_backup(source, tmp_path / "backup.json")
    _damage(tmp_path / "backup.json", how)
    target = new_store(tmp_path, "target")
    kept = watten(target, table=9, games="AAA")
    before = snapshot(target.root)
    with pytest.raises(BackupError, match=message):
        import_backup(target, tmp_path / "backup.json")
    assert snapshot(target.root) == before
    assert target.open(kept.id) == kept


def test_a_backup_with_an_invalid_sheet_imports_nothing(tmp_path: Path) -> None:
    from storage.backup import _checksum

    source = new_store(tmp_path, "source")
    watten(source, games="AB")
    export_backup(source, tmp_path / "backup.json")
    doc = json.loads((tmp_path / "backup.json").read_bytes())
    doc["sheets"][0]["sheet"]["participants"] = []
    doc["sha256"] = _checksum(doc["sheets"])
    (tmp_path / "backup.json").write_text(json.dumps(doc))
    target = new_store(tmp_path, "target")
    with pytest.raises(BackupError, match=r"Blatt 1 .* ist ungültig"):
        import_backup(target, tmp_path / "backup.json")
    assert target.list_sheets() == []


def test_csv_has_one_row_per_log_entry_with_points_and_totals(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AAB")
    store.correct(sheet.id, 2, "game", {"winner": "B", "value": 3}, reason="verschrieben")
    text = sheet_csv(store.stored(sheet.id))
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == [
        "Nr", "Art", "Zeit", "Gerät", "Ziel", "Grund", "Daten",
        "Punkte Sautreiber", "Punkte Kartlbrüder", "Summe Sautreiber", "Summe Kartlbrüder",
    ]  # fmt: skip
    assert [r[0:2] for r in rows[1:]] == [["1", "game"], ["2", "game"], ["3", "game"], ["4", "correction"]]
    assert rows[2][7:] == ["0", "3", "2", "3"], "entry 2 as corrected: B got 3"
    assert rows[3][7:] == ["0", "2", "2", "5"]
    assert rows[4][4:6] == ["2", "verschrieben"] and rows[4][7:] == ["", "", "", ""]
    assert score_sheet(store.open(sheet.id)).totals == {"A": 2, "B": 5}
    files = export_csv(store, tmp_path / "csv")
    assert [f.name for f in files] == [f"{sheet.id}.csv"]
    assert files[0].read_bytes().startswith(b"\xef\xbb\xbf"), "BOM, so spreadsheets read the umlauts"


@pytest.mark.parametrize("text", ['=HYPERLINK("http://example.invalid";"Ergebnis")', "-2 vergessen", "+1", "@SUMME(A1)", "\t=1"])
def test_csv_free_text_is_never_read_as_a_formula(tmp_path: Path, text: str) -> None:
    """The CSV is made for spreadsheet programs, and reason and device are free text (typed at
    the table, or from an imported backup). A cell starting with = + - @ or a tab/CR is taken
    as a formula there (CSV injection; '-2 vergessen' shows as #NAME?): it is written with a
    leading apostrophe, which spreadsheets read as 'text' and do not show."""
    from scoring import Entry

    store = SheetStore(tmp_path / "store", device=text[:80])
    sheet = watten(store, games="A")
    store.append(sheet.id, Entry(kind="correction", target=1, replacement={"kind": "game", "data": {"winner": "B"}}, reason=text))
    rows = list(csv.reader(io.StringIO(sheet_csv(store.stored(sheet.id))), delimiter=";"))
    assert rows[2][3] == "'" + text and rows[2][5] == "'" + text
    assert rows[1][7:] == ["0", "2", "0", "2"] and rows[2][0] == "2", "numbers stay numbers"


# -- CLI -----------------------------------------------------------------------------------
def test_cli_export_and_import_with_data_dir_before_or_after_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SheetStore(tmp_path / "a")
    sheet = watten(store, games="AB")
    assert cli.main(["--data-dir", str(tmp_path / "a"), "export", str(tmp_path / "b.json"), "--csv", str(tmp_path / "csv")]) == 0
    out = capsys.readouterr().out
    assert "1 Blätter" in out and "1 CSV-Dateien" in out
    assert cli.main(["import", str(tmp_path / "b.json"), "--data-dir", str(tmp_path / "c")]) == 0
    assert "1 neu" in capsys.readouterr().out
    assert SheetStore(tmp_path / "c").open(sheet.id) == store.open(sheet.id)


def test_cli_data_dir_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    watten(SheetStore(tmp_path / "env"), games="A")
    monkeypatch.setenv("TISCHBLOCK_DATA_DIR", str(tmp_path / "env"))
    assert cli.main(["export", str(tmp_path / "b.json")]) == 0
    assert str(tmp_path / "env") in capsys.readouterr().out


def test_cli_import_of_a_damaged_backup_fails_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.json").write_bytes(b'{"format": "tischblock-backup", "version": 1, "sheets": [')
    assert cli.main(["--data-dir", str(tmp_path / "c"), "import", str(tmp_path / "broken.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Fehler: Die Sicherung") and "beschädigt" in err and "nichts eingelesen" in err


def test_cli_score_and_rulesets_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    from .conftest import ROOT

    assert cli.main(["score", str(ROOT / "docs" / "examples" / "watten-turnier.json")]) == 0
    assert "totals" in json.loads(capsys.readouterr().out)
    assert cli.main(["rulesets"]) == 0
    assert "watten-turnier" in capsys.readouterr().out


def test_cli_app_hands_data_dir_to_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tischblock app --data-dir DIR``: the app's ``SheetStore()`` uses DIR (via TISCHBLOCK_DATA_DIR)."""
    import sys
    import types

    served: list[Path] = []
    fake_main = types.ModuleType("main")
    fake_main.serve = lambda port, host: served.append(data_dir())  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "main", fake_main)
    monkeypatch.delenv("TISCHBLOCK_DATA_DIR", raising=False)
    assert cli.main(["app", "--data-dir", str(tmp_path / "app-data"), "--port", "1"]) == 0
    assert served == [tmp_path / "app-data"]


def test_a_sheet_this_app_cannot_score_is_skipped_with_the_reason_and_the_rest_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from storage.backup import _checksum

    source = new_store(tmp_path, "source")
    good = watten(source, table=1, games="AB")
    watten(source, table=2, games="A")
    export_backup(source, tmp_path / "backup.json")
    doc = json.loads((tmp_path / "backup.json").read_bytes())
    doc["sheets"][1]["sheet"]["ruleset"]["id"] = "schafkopf-kurz"  # a ruleset this app does not know
    doc["sha256"] = _checksum(doc["sheets"])
    (tmp_path / "backup.json").write_text(json.dumps(doc))
    assert cli.main(["--data-dir", str(tmp_path / "target"), "import", str(tmp_path / "backup.json")]) == 0
    out = capsys.readouterr().out
    assert "1 neu, 1 ungültig, übersprungen" in out and "Unbekanntes Regelwerk 'schafkopf-kurz'" in out
    assert [i.id for i in SheetStore(tmp_path / "target").list_sheets()] == [good.id]


def test_a_backup_of_a_newer_storage_schema_says_update_the_app_not_invalid_sheet(tmp_path: Path) -> None:
    """The backup records the schema of its sheets (``"schema"``). A newer app's sheets may carry
    fields this one does not know: the message must say to update the app, as it does for a newer
    backup format, not call sheet 1 'ungültig'. Nothing is imported."""
    from storage import SCHEMA_VERSION
    from storage.backup import _checksum

    source = new_store(tmp_path, "source")
    watten(source, games="AB")
    export_backup(source, tmp_path / "backup.json")
    doc = json.loads((tmp_path / "backup.json").read_bytes())
    doc["schema"] = SCHEMA_VERSION + 1
    doc["sheets"][0]["tournament"] = {"id": "kirchtag-2027"}
    doc["sha256"] = _checksum(doc["sheets"])
    (tmp_path / "backup.json").write_text(json.dumps(doc))
    target = new_store(tmp_path, "target")
    with pytest.raises(BackupError, match=r"neueren Tischblock-Version.*aktualisieren"):
        import_backup(target, tmp_path / "backup.json")
    assert target.list_sheets() == []


def test_a_backup_of_an_older_storage_schema_is_migrated_like_a_stored_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheets in a backup of an older schema go through the same migrations as stored files."""
    from storage import SCHEMA_VERSION, schema
    from storage.backup import _checksum
    from storage.schema import Migration

    source = new_store(tmp_path, "source")
    sheet = watten(source, games="AB")
    export_backup(source, tmp_path / "backup.json")
    doc = json.loads((tmp_path / "backup.json").read_bytes())
    doc["sheets"][0]["geraet"] = doc["sheets"][0].pop("device")
    doc["sha256"] = _checksum(doc["sheets"])
    (tmp_path / "backup.json").write_text(json.dumps(doc))

    def to_v2(old: dict) -> dict:  # type: ignore[type-arg]
        for item in old.get("sheet", {}).values():
            item["device"] = item.pop("geraet")
        return old

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {SCHEMA_VERSION: Migration(SCHEMA_VERSION, "geraet-heisst-device", to_v2)})
    target = new_store(tmp_path, "target")
    report = import_backup(target, tmp_path / "backup.json")
    assert report.count(ImportOutcome.NEW) == 1
    assert target.stored(sheet.id).device == "test-phone"


def test_a_backup_restores_a_sheet_whose_stored_file_is_damaged_in_one_go(tmp_path: Path) -> None:
    """Restoring from the backup is what an organizer does when a sheet file is damaged: the
    import keeps the damaged file aside (as every read does), restores the sheet from the
    backup and imports the sheets after it too, instead of stopping at the damaged file and
    leaving the rest of the backup unread."""
    store = new_store(tmp_path)
    first = watten(store, table=1, games="AB")
    second = watten(store, table=2, games="B")
    export_backup(store, tmp_path / "backup.json")
    store.sheet_path(first.id).write_bytes(b'{"_meta": {"1": {"schema": 1, "ki')  # damaged
    store.sheet_path(second.id).unlink()
    report = import_backup(store, tmp_path / "backup.json")
    assert report.count(ImportOutcome.NEW) == 2
    assert store.open(first.id) == first and store.open(second.id) == second
    assert [p.name.split(".")[0] for p in store.damaged()] == [str(first.id)]
    assert any("beschädigt" in w for w in store.warnings)


def test_cli_import_shows_the_warnings_about_damaged_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    export_backup(store, tmp_path / "backup.json")
    store.sheet_path(sheet.id).write_bytes(b"\x00" * 64)
    assert cli.main(["import", str(tmp_path / "backup.json"), "--data-dir", str(store.root)]) == 0
    err = capsys.readouterr().err
    assert "Warnung:" in err and "beschädigt" in err and "damaged" in err
    assert SheetStore(store.root).open(sheet.id) == sheet


def test_a_backup_whose_sync_mark_is_ahead_of_the_log_imports_nothing(tmp_path: Path) -> None:
    """Invariant of the sync marks (``SheetStore._mark``): a mark covers at most the revisions the
    sheet has. A backup claiming 'acknowledged, revision 99' for a sheet of 2 entries would hide
    every later game from the sync (``sync_pending`` stays false until revision 99)."""
    from storage.backup import _checksum

    source = new_store(tmp_path, "source")
    watten(source, games="AB")
    export_backup(source, tmp_path / "backup.json")
    doc = json.loads((tmp_path / "backup.json").read_bytes())
    doc["sheets"][0]["sync"] = {"state": "acknowledged", "revision": 99, "at": "2026-11-22T20:00:00Z"}
    doc["sha256"] = _checksum(doc["sheets"])
    (tmp_path / "backup.json").write_text(json.dumps(doc))
    target = new_store(tmp_path, "target")
    with pytest.raises(BackupError, match=r"Blatt 1 .*Stand 99.*2 Einträge"):
        import_backup(target, tmp_path / "backup.json")
    assert target.list_sheets() == []


def test_two_diverging_copies_imported_at_the_same_clock_reading_are_both_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Clock skew: a phone's clock set back, a frozen clock, or a coarse one (Windows ticks in
    ~15 ms) gives two conflict files the same time stamp. The second must not overwrite the
    first: each diverging copy is the only record of its games."""
    from datetime import UTC, datetime

    from storage import repository

    _, laptop, sheet = phone_and_laptop(tmp_path)
    laptop.add_game(sheet.id, {"winner": "A"})
    for number, winner in enumerate("BB"):
        other = new_store(tmp_path, f"tablet{number}")
        import_backup(other, tmp_path / "early.json")
        other.add_game(sheet.id, {"winner": winner})
        other.add_game(sheet.id, {"winner": "A"} if number else {"winner": "B"})
        export_backup(other, tmp_path / f"tablet{number}.json")
    monkeypatch.setattr(repository, "utcnow", lambda: datetime(2026, 11, 22, 20, 0, tzinfo=UTC))
    for number in range(2):
        assert import_backup(laptop, tmp_path / f"tablet{number}.json").count(ImportOutcome.CONFLICT) == 1
    kept = [json.loads(p.read_bytes())["sheet"]["entries"][3]["data"] for p in sorted((laptop.root / "conflicts").iterdir())]
    assert sorted(kept, key=str) == [{"winner": "A"}, {"winner": "B"}]


def test_a_maliciously_deep_backup_gives_a_clear_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A crafted backup nesting 100000 objects made json.loads raise RecursionError, which no
    one caught: 'tischblock import' ended in a Python traceback. It is a damaged backup like
    any other: a German message, exit 1, nothing imported."""
    depth = 100_000
    (tmp_path / "deep.json").write_text('{"format": "tischblock-backup", "sheets": [' + '{"a":' * depth + "1" + "}" * depth + "]}")
    target = new_store(tmp_path, "target")
    kept = watten(target, games="AB")
    before = snapshot(target.root)
    with pytest.raises(BackupError, match=r"beschädigt.*verschachtelt"):
        import_backup(target, tmp_path / "deep.json")
    assert cli.main(["import", str(tmp_path / "deep.json"), "--data-dir", str(target.root)]) == 1
    assert "Fehler: Die Sicherung" in capsys.readouterr().err
    assert snapshot(target.root) == before and target.open(kept.id) == kept


def test_a_backup_with_times_without_time_zone_does_not_break_the_sheet_list(tmp_path: Path) -> None:
    """A backup written by hand or by another tool may carry times without a zone
    ('2026-11-22T20:00:00'). Stored as they were, the sheet list compared them with the store's
    UTC times and raised TypeError on every listing from then on, the import's own included:
    no sheet could be listed, exported or synced any more. Such times are read as UTC."""
    from storage.backup import _checksum

    source = new_store(tmp_path, "source")
    sheet = watten(source, games="AB")
    export_backup(source, tmp_path / "backup.json")
    source.add_game(sheet.id, {"winner": "A"})
    export_backup(source, tmp_path / "later.json")
    for name in ("backup.json", "later.json"):
        doc = json.loads((tmp_path / name).read_bytes())
        doc["sheets"][0]["created_at"] = "2026-11-22T20:00:00"
        doc["sheets"][0]["updated_at"] = "2026-11-22T20:30:00"
        doc["sheets"][0]["sync"] = {"state": "queued", "revision": 1, "at": "2026-11-22T20:31:00"}
        doc["sha256"] = _checksum(doc["sheets"])
        (tmp_path / name).write_text(json.dumps(doc))
    target = new_store(tmp_path, "target")
    other = watten(target, table=7, games="B")
    assert import_backup(target, tmp_path / "backup.json").count(ImportOutcome.NEW) == 1
    assert import_backup(target, tmp_path / "later.json").count(ImportOutcome.UPDATED) == 1
    assert {i.id for i in target.list_sheets()} == {sheet.id, other.id}
    stored = target.stored(sheet.id)
    assert stored.created_at.isoformat() == "2026-11-22T20:00:00+00:00"
    assert stored.sync.at is not None and stored.sync.at.utcoffset() is not None
    assert len(stored.sheet.entries) == 3
