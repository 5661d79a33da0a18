"""Crash safety of single files: atomic replace, leftover temp files, damaged files, a full disk."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinydb import TinyDB
from tinydb.storages import JSONStorage

from storage import DamagedFile, SheetNotFound, SheetStore, StorageFull, atomic_write_bytes
from storage.atomic import AtomicJSONStorage

from .storage_helpers import new_store, snapshot, watten


def test_atomic_write_replaces_the_file_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    atomic_write_bytes(path, b'{"a": 1}')
    atomic_write_bytes(path, b'{"a": 2}')
    assert json.loads(path.read_bytes()) == {"a": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_a_secret_is_written_readable_by_its_owner_only_even_over_a_leftover_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "geheim.json"
    (tmp_path / "geheim.json.tmp").write_bytes(b"left over")
    (tmp_path / "geheim.json.tmp").chmod(0o644)
    atomic_write_bytes(target, b'{"token": "x"}', mode=0o600)
    assert target.read_bytes() == b'{"token": "x"}'
    assert target.stat().st_mode & 0o777 == 0o600
    atomic_write_bytes(target, b"{}")
    assert target.stat().st_mode & 0o777 == 0o644, "the default stays what it was"


def test_tinydb_works_on_the_atomic_storage(tmp_path: Path) -> None:
    db = TinyDB(tmp_path / "db" / "x.json", storage=AtomicJSONStorage)
    db.insert({"n": 1})
    db.insert({"n": 2})
    assert [d["n"] for d in TinyDB(tmp_path / "db" / "x.json", storage=AtomicJSONStorage).all()] == [1, 2]


def _disk_full(monkeypatch: pytest.MonkeyPatch, after_bytes: int = 10) -> None:
    """Simulate a full disk: os.write gives up with ENOSPC after ``after_bytes``."""
    real_write = os.write
    written = {"n": 0}

    def write(fd: int, data: bytes | memoryview) -> int:
        if written["n"] >= after_bytes:
            raise OSError(errno.ENOSPC, "No space left on device")
        chunk = bytes(data[: after_bytes - written["n"]])
        written["n"] += len(chunk)
        return real_write(fd, chunk)

    monkeypatch.setattr(os, "write", write)


def test_full_disk_keeps_the_old_file_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.json"
    atomic_write_bytes(path, b'{"old": true}')
    _disk_full(monkeypatch)
    with pytest.raises(StorageFull) as info:
        atomic_write_bytes(path, b'{"new": "' + b"x" * 1000 + b'"}')
    assert "Speicher ist voll" in str(info.value) and "unverändert" in str(info.value)
    assert path.read_bytes() == b'{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"], "the partial temp file is removed"


def test_full_disk_while_appending_a_game_loses_nothing_and_the_next_try_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    before = snapshot(store.root)
    with monkeypatch.context() as patch:
        _disk_full(patch)
        with pytest.raises(StorageFull, match="Speicher ist voll"):
            store.add_game(sheet.id, {"winner": "A"})
    assert snapshot(store.root) == before
    assert len(store.open(sheet.id).entries) == 2
    assert len(store.add_game(sheet.id, {"winner": "A"}).entries) == 3, "after space is freed the entry goes in"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "leer"),
        (b"\x00" * 512, "Nullbytes"),
        (b'{"_meta": {"1": {"schema": 1, "kind": "sheet"}}, "sheet": {"1": {"sheet": {}}', "kein gültiges JSON"),
        (b'{"_meta": {"1": {"schema": 1, "kind": "sheet"}}}{"trailing": 1}', "kein gültiges JSON"),
        (b"[1, 2]", "kein JSON-Objekt"),
        (b'{"_default": {"1": {"n": 1}}}', "keine Tischblock-Datei"),
    ],
)
def test_an_unreadable_sheet_file_is_kept_aside_with_a_clear_message(tmp_path: Path, content: bytes, reason: str) -> None:
    store = new_store(tmp_path)
    good = watten(store, table=1, games="AAB")
    bad = watten(store, table=2, games="B")
    path = store.sheet_path(bad.id)
    path.write_bytes(content)
    with pytest.raises(DamagedFile) as info:
        store.open(bad.id)
    message = str(info.value)
    assert "beschädigt" in message and reason in message and str(path) in message
    kept = info.value.kept_at
    assert kept is not None and kept.parent == store.root / "damaged" and kept.read_bytes() == content
    assert store.damaged() == [kept]
    # the store never silently starts the sheet over empty
    with pytest.raises(SheetNotFound):
        store.add_game(bad.id, {"winner": "A"})
    assert not path.exists()
    # everything else is untouched
    assert [str(i.id) for i in store.list_sheets()] == [str(good.id)]
    assert len(store.open(good.id).entries) == 3


def test_a_plain_tinydb_file_is_not_taken_for_a_sheet(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    path = store.sheet_path(sheet.id)
    path.unlink()
    TinyDB(path, storage=JSONStorage).insert({"whatever": 1})
    with pytest.raises(DamagedFile, match="keine Tischblock-Datei"):
        store.open(sheet.id)


def test_a_sheet_file_holding_another_sheet_is_damaged(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    one = watten(store, table=1)
    two = watten(store, table=2)
    store.sheet_path(two.id).write_bytes(store.sheet_path(one.id).read_bytes())
    with pytest.raises(DamagedFile, match=f"enthält das Blatt {one.id}"):
        store.open(two.id)


def test_leftover_partial_temp_file_is_discarded_and_the_live_file_wins(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    path = store.sheet_path(sheet.id)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(path.read_bytes()[:57])  # a write killed half way
    assert len(store.open(sheet.id).entries) == 2
    assert not tmp.exists()
    assert store.damaged() == []


def test_leftover_complete_temp_file_but_intact_live_file_is_discarded(tmp_path: Path) -> None:
    """A write killed before os.replace was never acknowledged: the live file is the truth."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    path = store.sheet_path(sheet.id)
    older = path.read_bytes()
    store.add_game(sheet.id, {"winner": "A"})
    newer = path.read_bytes()
    path.write_bytes(older)
    path.with_name(path.name + ".tmp").write_bytes(newer)
    assert len(store.open(sheet.id).entries) == 2


def test_temp_file_is_promoted_when_the_live_file_is_missing(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="ABA")
    path = store.sheet_path(sheet.id)
    os.replace(path, path.with_name(path.name + ".tmp"))
    assert len(store.open(sheet.id).entries) == 3
    assert path.exists() and not path.with_name(path.name + ".tmp").exists()


def test_temp_file_is_promoted_over_a_damaged_live_file_which_is_kept_aside(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="ABA")
    path = store.sheet_path(sheet.id)
    path.with_name(path.name + ".tmp").write_bytes(path.read_bytes())
    path.write_bytes(b'{"_meta": ')
    assert len(store.open(sheet.id).entries) == 3
    assert [p.read_bytes() for p in store.damaged()] == [b'{"_meta": ']


def test_a_damaged_index_is_kept_aside_and_rebuilt_from_the_sheets(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheets = [watten(store, table=t, games="A" * t) for t in (1, 2, 3)]
    store.list_sheets()
    (store.root / "index.json").write_bytes(b"\x00\x00\x00")
    infos = store.list_sheets()
    assert {i.id for i in infos} == {s.id for s in sheets}
    assert {i.id: i.revision for i in infos} == {s.id: len(s.entries) for s in sheets}
    assert any("index.json" in w and "neu aufgebaut" in w for w in store.warnings)
    assert [p.name.split(".")[0] for p in store.damaged()] == ["index"]


def test_a_create_killed_before_os_replace_can_be_retried(tmp_path: Path) -> None:
    """The first write of a new sheet died after writing its temp file: creating it again
    finds the recovered sheet instead of writing a second copy into the same file."""
    from storage import SheetExists

    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    path = store.sheet_path(sheet.id)
    os.replace(path, path.with_name(path.name + ".tmp"))
    with pytest.raises(SheetExists):
        store.create(sheet.model_copy(update={"entries": ()}))
    assert store.open(sheet.id) == sheet
    other = watten(store, table=2)
    other_path = store.sheet_path(other.id)
    other_tmp = other_path.with_name(other_path.name + ".tmp")
    os.replace(other_path, other_tmp)
    other_tmp.write_bytes(other_tmp.read_bytes()[:40])  # killed half way through the first write
    assert store.create(other) == other
    assert store.open(other.id) == other


def test_a_really_full_disk_file_size_limit_in_a_child_process(tmp_path: Path) -> None:
    """The kernel refuses the write (RLIMIT_FSIZE gives EFBIG, as a full disk gives ENOSPC):
    the child gets StorageFull with the German message, and the stored sheet is unchanged."""
    import resource
    import signal

    from storage import SheetStore

    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    size = store.sheet_path(sheet.id).stat().st_size
    before = snapshot(store.root)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 1
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
            try:
                SheetStore(store.root).add_game(sheet.id, {"winner": "A"})
                os.write(write_fd, b"written?!")
            except StorageFull as error:
                os.write(write_fd, str(error).encode())
                code = 0
            except BaseException as error:
                os.write(write_fd, repr(error).encode())
        finally:
            os._exit(code)
    os.close(write_fd)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read_fd, "rb") as pipe:
        message = pipe.read().decode()
    assert os.WEXITSTATUS(status) == 0, message
    assert "Der Speicher ist voll" in message and "unverändert" in message
    assert snapshot(store.root) == before
    assert len(store.add_game(sheet.id, {"winner": "A"}).entries) == 3


def test_an_unwritable_data_directory_gives_a_clear_message(tmp_path: Path) -> None:
    from storage import SheetStore, StorageError

    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(StorageError, match=r"kann nicht angelegt werden.*--data-dir"):
        SheetStore(tmp_path / "file" / "store")


def test_a_hand_edited_index_record_is_read_from_the_sheet_file(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    store.list_sheets()
    raw = json.loads((store.root / "index.json").read_bytes())
    raw["sheets"]["1"]["revision"] = "viele"
    (store.root / "index.json").write_text(json.dumps(raw))
    [info] = store.list_sheets()
    assert info.id == sheet.id and info.revision == 2
    assert json.loads((store.root / "index.json").read_bytes())["sheets"]["1"]["revision"] == 2, "and the record is repaired"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=st.lists(st.dictionaries(st.text(max_size=8), json_values, max_size=5), min_size=1, max_size=5))
def test_property_the_storage_reads_back_exactly_the_last_write(tmp_path_factory: pytest.TempPathFactory, writes: list[dict]) -> None:  # type: ignore[type-arg]
    path = tmp_path_factory.mktemp("atomic") / "f.json"
    for data in writes:
        AtomicJSONStorage(path).write(data)
        assert AtomicJSONStorage(path).read() == data
    assert sorted(p.name for p in path.parent.iterdir()) == ["f.json"]


def test_writing_to_a_sheet_whose_first_write_was_killed_half_way_leaves_no_damaged_file(tmp_path: Path) -> None:
    """A create killed in the middle of its temp file was never acknowledged: the sheet does not
    exist. Appending to it or marking it for sync must say so (``SheetNotFound``) and write
    nothing; it used to leave a sheet file without a sheet, which the next listing reported as
    'beschädigt' and moved into ``damaged/``."""
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    path = store.sheet_path(sheet.id)
    tmp = path.with_name(path.name + ".tmp")
    os.replace(path, tmp)
    tmp.write_bytes(tmp.read_bytes()[:40])  # killed half way through the first write
    with pytest.raises(SheetNotFound):
        store.add_game(sheet.id, {"winner": "A"})
    tmp.write_bytes(b'{"_meta":{"1":{"sch')
    with pytest.raises(SheetNotFound):
        store.mark_queued(sheet.id)
    assert not path.exists() and not tmp.exists()
    assert store.list_sheets() == []
    assert store.damaged() == [] and store.warnings == []


def test_a_full_disk_still_lists_and_exports_the_sheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a full disk the organizer must still see the sheets and export them elsewhere (to
    free space or to hand them in). The index is only a cache: when it cannot be written, the
    list comes from the sheet files, with the full-disk message as a warning, and nothing is lost."""
    store = new_store(tmp_path)
    sheets = [watten(store, table=1, games="AB"), watten(store, table=2, games="B")]
    before = snapshot(store.root)
    with monkeypatch.context() as patch:
        _disk_full(patch, after_bytes=0)
        assert {i.id for i in store.list_sheets()} == {s.id for s in sheets}
        assert any("Speicher ist voll" in w for w in store.warnings)
        assert sorted((s.sheet for s in store.all_stored()), key=lambda s: s.context.table) == sheets  # what export writes
    assert snapshot(store.root) == before
    assert {i.id for i in store.list_sheets()} == {s.id for s in sheets}
    assert (store.root / "index.json").exists(), "with space again, the index is written"


def test_a_damaged_file_that_cannot_be_moved_aside_stays_in_place_with_a_clear_message(tmp_path: Path) -> None:
    """Keeping a damaged file aside needs the ``damaged/`` folder; on a full disk (or when it
    cannot be created) the move failed with a bare OSError: a traceback in the CLI, no message
    in the app. The file must stay where it is, untouched, and the message must say so; the
    other sheets stay usable."""
    store = new_store(tmp_path)
    good = watten(store, table=1, games="AAB")
    bad = watten(store, table=2, games="B")
    store.list_sheets()
    path = store.sheet_path(bad.id)
    path.write_bytes(b'{"_meta": {"1"')
    (store.root / "damaged").write_bytes(b"")  # a file where the folder should go: mkdir fails
    with pytest.raises(DamagedFile) as info:
        store.open(bad.id)
    message = str(info.value)
    assert "beschädigt" in message and "bleibt" in message and str(path) in message
    assert info.value.kept_at is None
    assert path.read_bytes() == b'{"_meta": {"1"'
    with pytest.raises(DamagedFile):
        store.add_game(bad.id, {"winner": "A"})
    assert path.read_bytes() == b'{"_meta": {"1"'
    assert [i.id for i in store.list_sheets()] == [good.id]
    assert len(store.add_game(good.id, {"winner": "B"}).entries) == 4


def test_the_folders_of_a_new_store_survive_a_power_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write is acknowledged after the file's directory is fsynced, but on the first start
    ``sheets/`` (and the store folder itself) had just been created with mkdir and nothing
    fsynced the directories holding those new entries: after a power cut the whole folder,
    with the acknowledged first sheet, could be gone. Each folder the store creates (store,
    sheets, damaged, conflicts, migrated) has its parent fsynced before a write is acknowledged."""
    import storage.atomic

    synced: list[Path] = []
    real = storage.atomic.fsync_dir
    monkeypatch.setattr(storage.atomic, "fsync_dir", lambda d: (synced.append(Path(d)), real(d))[1])
    root = tmp_path / "neu" / "store"
    store = SheetStore(root, device="test-phone")
    sheet = watten(store, games="A")
    assert {tmp_path, tmp_path / "neu", root} <= set(synced)
    assert store.sheet_path(sheet.id).parent in synced
    path = store.sheet_path(sheet.id)
    path.write_bytes(b"")
    synced.clear()
    with pytest.raises(DamagedFile):
        store.open(sheet.id)
    assert root in synced, "the new damaged/ folder is recorded in the store folder"
