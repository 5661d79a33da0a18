"""Schema versions and migrations, tested on fixture files of every version."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest

from scoring import score_sheet
from storage import SCHEMA_VERSION, NewerSchema, SheetStore, StorageError, import_backup, schema
from storage.schema import Migration, migrate, migration

from .storage_helpers import new_store, snapshot, watten

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "storage"
VERSIONS = sorted(FIXTURES.glob("v*"), key=lambda p: int(p.name[1:]))


def _copy_store(version: Path, tmp_path: Path) -> Path:
    target = tmp_path / version.name
    shutil.copytree(version / "store", target)
    return target


def _check_against_expected(store: SheetStore, expected: dict[str, Any]) -> None:
    infos = {str(i.id): i for i in store.list_sheets()}
    assert set(infos) == set(expected)
    for sid, want in expected.items():
        info = infos[sid]
        assert info.revision == want["revision"]
        assert info.closed == want["closed"]
        assert (info.sync.state.value, info.sync.revision) == (want["sync"]["state"], want["sync"]["revision"])
        assert info.context.table == want["table"]
        assert score_sheet(store.open(sid)).totals == want["totals"]


def test_there_is_a_fixture_folder_for_the_current_schema() -> None:
    assert [p.name for p in VERSIONS][-1] == f"v{SCHEMA_VERSION}"
    assert [int(p.name[1:]) for p in VERSIONS] == list(range(1, SCHEMA_VERSION + 1)), "no version may be skipped"


@pytest.mark.parametrize("version", VERSIONS, ids=[p.name for p in VERSIONS])
def test_every_schema_version_opens_with_the_current_code(version: Path, tmp_path: Path) -> None:
    expected = json.loads((version / "expected.json").read_text(encoding="utf-8"))
    store = SheetStore(_copy_store(version, tmp_path))
    _check_against_expected(store, expected)
    assert store.damaged() == [] and store.warnings == []
    # and it keeps working: the open sheet takes the next game
    open_sheet = next(sid for sid, want in expected.items() if not want["closed"])
    assert len(store.add_game(open_sheet, {"winner": "A"}).entries) == expected[open_sheet]["revision"] + 1


@pytest.mark.parametrize("version", VERSIONS, ids=[p.name for p in VERSIONS])
def test_every_backup_version_imports_with_the_current_code(version: Path, tmp_path: Path) -> None:
    expected = json.loads((version / "expected.json").read_text(encoding="utf-8"))
    store = SheetStore(tmp_path / "restored")
    report = import_backup(store, version / "backup.json")
    assert len(report.items) == len(expected)
    _check_against_expected(store, expected)


def test_every_file_records_its_schema_version_and_kind(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    store.list_sheets()
    sheet_raw = json.loads(store.sheet_path(sheet.id).read_bytes())
    index_raw = json.loads((store.root / "index.json").read_bytes())
    assert sheet_raw["_meta"] == {"1": {"schema": SCHEMA_VERSION, "kind": "sheet"}}
    assert index_raw["_meta"] == {"1": {"schema": SCHEMA_VERSION, "kind": "index"}}


@pytest.fixture
def next_schema(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Pretend a schema 2 exists: its migration records the device of old sheets as a note."""
    calls: list[str] = []

    def to_v2(raw: dict[str, Any]) -> dict[str, Any]:
        calls.append("sheet" if "sheet" in raw else "index")
        for doc in raw.get("sheet", {}).values():
            doc["device"] = f"{doc.get('device', '?')} (aus Format 1)"
        return raw

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {SCHEMA_VERSION: Migration(SCHEMA_VERSION, "test-geraet-vermerken", to_v2)})
    return calls


def test_a_migration_runs_once_keeps_the_original_and_writes_the_new_version(tmp_path: Path, next_schema: list[str]) -> None:
    root = _copy_store(VERSIONS[-1], tmp_path)
    sid = "11111111-1111-4111-8111-111111111111"
    original = (root / "sheets" / f"{sid}.json").read_bytes()
    store = SheetStore(root)
    stored = store.stored(sid)
    assert stored.device == "Fixture-Handy (aus Format 1)"
    raw = json.loads((root / "sheets" / f"{sid}.json").read_bytes())
    assert raw["_meta"]["1"]["schema"] == SCHEMA_VERSION + 1
    assert (root / "migrated" / f"{sid}.json.v{SCHEMA_VERSION}").read_bytes() == original
    assert next_schema == ["sheet"]
    # idempotent: opening again, listing and appending run the migration of this file never again
    assert store.stored(sid).device == "Fixture-Handy (aus Format 1)"
    store.add_game(sid, {"winner": "B"})
    assert next_schema == ["sheet"]
    store.list_sheets()  # migrates the index and the two other sheet files, once each
    store.list_sheets()
    assert sorted(next_schema) == ["index", "sheet", "sheet", "sheet"]
    assert len(list((root / "migrated").iterdir())) == 4


def assert_newer_file_is_refused_and_untouched(store: SheetStore, sheet_id: uuid.UUID, raw: dict[str, Any]) -> None:
    """Write ``raw`` as the sheet's file: opening and writing are refused with a German message,
    listing skips it with a warning, and the file stays in ``sheets/`` byte for byte."""
    path = store.sheet_path(sheet_id)
    path.write_text(json.dumps(raw))
    before = snapshot(store.root)
    with pytest.raises(NewerSchema, match="neueren Tischblock-Version"):
        store.open(sheet_id)
    with pytest.raises(NewerSchema):
        store.add_game(sheet_id, {"winner": "A"})
    assert store.list_sheets() == []
    assert any("neueren" in w for w in store.warnings)
    assert snapshot(store.root)[f"sheets/{sheet_id}.json"] == before[f"sheets/{sheet_id}.json"]


def test_migrate_is_a_no_op_on_current_files() -> None:
    raw = {"_meta": {"1": {"schema": SCHEMA_VERSION, "kind": "sheet"}}, "sheet": {}}
    assert migrate(raw, "sheet") == (raw, ())


def test_a_file_from_a_newer_version_is_never_touched(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    path = store.sheet_path(sheet.id)
    raw = json.loads(path.read_bytes())
    raw["_meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    assert_newer_file_is_refused_and_untouched(store, sheet.id, raw)
    assert store.damaged() == []


def test_a_missing_migration_step_is_an_error_not_a_guess(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    root = _copy_store(VERSIONS[-1], tmp_path)
    before = snapshot(root)
    with pytest.raises(StorageError, match="Keine Migration"):
        SheetStore(root).open("11111111-1111-4111-8111-111111111111")
    assert snapshot(root) == before


def test_migrations_are_registered_once_per_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    migration(1, "eins")(lambda raw: raw)
    with pytest.raises(ValueError, match="two migrations"):
        migration(1, "noch-eins")(lambda raw: raw)


def test_a_newer_file_with_a_field_this_version_does_not_know_is_never_touched(tmp_path: Path) -> None:
    """A newer schema may add fields (that is what a schema step is for): the file is the newer
    app's, not damaged. It must stay in ``sheets/`` unchanged, so the updated app finds it again."""
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    path = store.sheet_path(sheet.id)
    raw = json.loads(path.read_bytes())
    raw["_meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    raw["sheet"]["1"]["tournament"] = {"id": "kirchtag-2027"}
    assert_newer_file_is_refused_and_untouched(store, sheet.id, raw)
    assert store.damaged() == []


def test_a_migration_reads_old_files_the_current_model_would_refuse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of an older schema is checked *after* its migration: its old shape is what the
    migration exists for, so it is migrated, not kept aside as damaged."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    path = store.sheet_path(sheet.id)
    raw = json.loads(path.read_bytes())
    doc = raw["sheet"]["1"]
    doc["geraet"] = doc.pop("device")  # the old format named the field differently
    path.write_text(json.dumps(raw))

    def to_v2(old: dict[str, Any]) -> dict[str, Any]:
        for item in old.get("sheet", {}).values():
            item["device"] = item.pop("geraet")
        return old

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {SCHEMA_VERSION: Migration(SCHEMA_VERSION, "geraet-heisst-device", to_v2)})
    reopened = SheetStore(store.root, device="test-phone")
    assert reopened.stored(sheet.id).device == "test-phone"
    assert len(reopened.open(sheet.id).entries) == 2
    assert reopened.damaged() == []


def test_a_migration_that_yields_an_invalid_file_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="A")

    def broken(old: dict[str, Any]) -> dict[str, Any]:
        old["sheet"] = {}
        return old

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {SCHEMA_VERSION: Migration(SCHEMA_VERSION, "kaputt", broken)})
    before = snapshot(store.root)
    with pytest.raises(StorageError, match="Migration"):
        SheetStore(store.root).open(sheet.id)
    after = snapshot(store.root)
    assert after[f"sheets/{sheet.id}.json"] == before[f"sheets/{sheet.id}.json"]
    assert not any(name.startswith("damaged/") for name in after)


def test_an_index_written_by_a_newer_version_still_lists_the_sheets_and_stays_untouched(tmp_path: Path) -> None:
    """After trying a newer app and going back: the newer app migrated the index when it listed
    the sheets, but rewrote only the sheet files it touched. The index is a cache of the sheet
    files: this version lists every sheet it can read from them, says why, and leaves the newer
    index as it is (instead of refusing to list anything)."""
    store = new_store(tmp_path)
    sheets = [watten(store, table=1, games="A"), watten(store, table=2, games="AB")]
    store.list_sheets()
    index = store.root / "index.json"
    raw = json.loads(index.read_bytes())
    raw["_meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    index.write_text(json.dumps(raw))
    before = index.read_bytes()
    reopened = SheetStore(store.root, device="test-phone")
    assert {i.id for i in reopened.list_sheets()} == {s.id for s in sheets}
    assert any("neueren" in w for w in reopened.warnings)
    reopened.add_game(sheets[0].id, {"winner": "B"})
    assert [i.revision for i in reopened.list_sheets() if i.id == sheets[0].id] == [2]
    assert index.read_bytes() == before
    assert reopened.damaged() == []
