"""The repository: sheets, the append-only log, corrections, closing, sync marks, locking."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Entry, RuleViolation, Sheet, find_ruleset, score_sheet
from storage import SheetExists, SheetNotFound, SheetStore, StoreBusy, SyncState, SyncStateError
from storage import atomic as atomic_module
from storage.repository import SHEET_TABLE, SheetStorage, StoredSheet

from .storage_helpers import TEAMS, new_store, snapshot, watten


def test_create_list_open_round_trip(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    first = watten(store, table=3)
    second = watten(store, table=7, games="AB")
    infos = store.list_sheets()
    assert [i.id for i in infos] == [second.id, first.id], "newest first"
    assert infos[0].participants == ("Sautreiber", "Kartlbrüder")
    assert infos[0].context.table == 7 and infos[0].ruleset == "watten-turnier"
    assert infos[0].revision == 2 and infos[1].revision == 0
    assert infos[0].device == "test-phone" and not infos[0].closed
    reopened = SheetStore(store.root).open(second.id)
    assert reopened == second
    assert isinstance(reopened, Sheet)


def test_create_never_overwrites_an_existing_sheet(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    with pytest.raises(SheetExists):
        store.create(sheet.model_copy(update={"entries": ()}))
    assert len(store.open(sheet.id).entries) == 1


def test_unknown_sheet_ids(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    with pytest.raises(SheetNotFound, match="Kein gespeichertes Blatt"):
        store.open(uuid.uuid4())
    with pytest.raises(SheetNotFound):
        store.open("../../etc/passwd")
    with pytest.raises(SheetNotFound):
        store.add_game(uuid.uuid4(), {"winner": "A"})


def test_every_entry_is_checked_by_its_ruleset_before_it_is_written(tmp_path: Path) -> None:
    """Regel 8 (gspannt) is checked by scoring/, not by storage: a refused entry writes nothing."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AAAAAAA")  # 14:0, Sautreiber gspannt
    before = snapshot(store.root)
    with pytest.raises(RuleViolation) as info:
        store.add_game(sheet.id, {"winner": "B", "value": 2})
    assert info.value.rule.startswith("Regel 8") and info.value.entry == 8
    assert "gspannt" in str(info.value)
    with pytest.raises(RuleViolation, match="nicht an diesem Tisch"):
        store.add_game(sheet.id, {"winner": "C"})
    assert snapshot(store.root) == before
    assert store.add_game(sheet.id, {"winner": "B"}).entries[-1].data == {"winner": "B"}


def test_a_game_saved_after_another_keeps_the_logs_entry_objects_unless_someone_else_wrote(tmp_path: Path) -> None:
    """The store reads the sheet's file before each append; where it holds what this store wrote
    last, the saved sheet keeps the entries of the sheet returned before (the screen compares the
    two logs, by identity then, not entry by entry). Where another window wrote in between, its game
    is there and the log read from the file counts."""
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    first = store.add_game(sheet.id, {"winner": "B"})
    second = store.add_game(sheet.id, {"winner": "A"})
    assert len(second.entries) == 3 and all(a is b for a, b in zip(first.entries, second.entries[:2], strict=True))
    other_window = SheetStore(store.root, device="anderes-Fenster")
    other_window.add_game(sheet.id, {"winner": "B"})
    third = store.add_game(sheet.id, {"winner": "B"})
    assert [e.data["winner"] for e in third.entries] == ["A", "B", "A", "B", "B"]
    assert [e.device for e in third.entries[3:]] == ["anderes-Fenster", "test-phone"]
    assert third.entries[0] is not second.entries[0]
    assert score_sheet(third).totals == score_sheet(store.open(sheet.id)).totals
    assert store.open(sheet.id).entries == third.entries


def test_append_stamps_time_and_device_and_keeps_given_ones(tmp_path: Path) -> None:
    store = new_store(tmp_path, device="Tisch-7-Handy")
    sheet = watten(store)
    before = time.time()
    entry = store.add_game(sheet.id, {"winner": "A"}).entries[-1]
    assert entry.device == "Tisch-7-Handy"
    assert entry.at is not None and entry.at.timestamp() >= before - 1
    given_entry = Entry.now("game", {"winner": "B"}, device="Turnierleitung")
    assert store.append(sheet.id, given_entry).entries[-1] == given_entry


def test_corrections_and_voids_are_appended_never_rewritten(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AAB")
    original = store.open(sheet.id).entries
    corrected = store.correct(sheet.id, 2, "game", {"winner": "B", "value": 3}, reason="falsch eingetragen")
    voided = store.void(sheet.id, 3, reason="doppelt")
    log = store.open(sheet.id).entries
    assert log[:3] == original, "earlier entries are never touched"
    assert [e.kind for e in log] == ["game", "game", "game", "correction", "void"]
    assert log[3].target == 2 and log[3].replacement is not None and log[3].replacement.data == {"winner": "B", "value": 3}
    assert log[3].reason == "falsch eingetragen" and log[3].device == "test-phone" and log[3].at is not None
    assert log[4].target == 3 and log[4].reason == "doppelt" and log[4].at is not None
    assert corrected.entries == log[:4] and voided.entries == log
    assert score_sheet(store.open(sheet.id)).totals == {"A": 2, "B": 3}


def test_a_correction_the_rules_refuse_writes_nothing(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    store.void(sheet.id, 2)
    with pytest.raises(RuleViolation, match="bereits gestrichen"):
        store.void(sheet.id, 2)
    with pytest.raises(RuleViolation, match="gibt es nicht"):
        store.correct(sheet.id, 9, "game", {"winner": "A"})
    assert len(store.open(sheet.id).entries) == 3


def test_close_and_sign(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    with pytest.raises(RuleViolation, match="nicht beendet"):  # mid-Durchgang (Watten Regel 11)
        store.close(sheet.id, signed_by="Sepp Huber")
    closed = store.close(sheet.id, signed_by="Sepp Huber", override="Abbruch durch die Turnierleitung")
    assert closed.entries[-1].kind == "close"
    assert closed.entries[-1].data == {"signed_by": "Sepp Huber", "override": "Abbruch durch die Turnierleitung"}
    assert score_sheet(closed).status.closed
    assert store.list_sheets()[0].closed
    with pytest.raises(RuleViolation, match="abgeschlossen"):
        store.add_game(sheet.id, {"winner": "A"})


def test_sync_marks_follow_the_revision(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    assert store.stored(sheet.id).sync.state is SyncState.LOCAL
    assert [i.id for i in store.pending_sync()] == [sheet.id]
    queued = store.mark_queued(sheet.id)
    assert (queued.state, queued.revision) == (SyncState.QUEUED, 2)
    assert store.mark_delivered(sheet.id, 2).state is SyncState.DELIVERED
    acknowledged = store.mark_acknowledged(sheet.id, 2)
    assert (acknowledged.state, acknowledged.revision) == (SyncState.ACKNOWLEDGED, 2)
    assert store.pending_sync() == []
    # a late 'delivered' for the same revision never moves the mark backwards
    assert store.mark_delivered(sheet.id, 2).state is SyncState.ACKNOWLEDGED
    assert store.mark_queued(sheet.id).state is SyncState.ACKNOWLEDGED
    # a new game makes the sheet pending again, and the mark says which revision was acknowledged
    store.add_game(sheet.id, {"winner": "A"})
    info = store.list_sheets()[0]
    assert info.sync.revision == 2 and info.revision == 3 and info.sync_pending
    assert store.mark_queued(sheet.id).revision == 3
    assert store.mark_acknowledged(sheet.id, 2).revision == 3, "an old acknowledgement does not undo the newer queue mark"
    with pytest.raises(SyncStateError, match="Stand 4"):
        store.mark_acknowledged(sheet.id, 4)
    assert len(store.open(sheet.id).entries) == 3, "sync marks are metadata, not log entries"


def record_writes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """From now on, every file the store writes atomically is appended to the returned list."""
    written: list[Path] = []
    real = atomic_module.atomic_write_bytes

    def spy(path: Path, data: bytes) -> None:
        written.append(path)
        real(path, data)

    monkeypatch.setattr(atomic_module, "atomic_write_bytes", spy)
    return written


def test_appending_writes_only_the_sheets_own_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout's promise: one game costs one sheet file, however many sheets are stored."""
    store = new_store(tmp_path)
    sheets = [watten(store, table=t % 40 + 1, games="AB") for t in range(60)]
    store.list_sheets()
    written = record_writes(monkeypatch)
    store.add_game(sheets[17].id, {"winner": "A"})
    store.void(sheets[17].id, 1)
    assert written == [store.sheet_path(sheets[17].id)] * 2
    written.clear()
    infos = store.list_sheets()
    assert written == [store.root / "index.json"], "listing re-reads the one changed sheet and rewrites the index"
    assert {i.id: i.revision for i in infos}[sheets[17].id] == 4
    written.clear()
    store.list_sheets()
    assert written == [], "nothing changed, nothing written"


def _count_validations(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every ``StoredSheet.model_validate`` from now on: each a whole sheet validated."""
    validated: list[object] = []
    original = StoredSheet.model_validate

    def counting(value: object, *args: object, **kwargs: object) -> StoredSheet:
        validated.append(value)
        return original(value, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(StoredSheet, "model_validate", counting)
    return validated


def test_a_read_and_a_save_validate_the_sheet_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's check validates the sheet, and the store takes that sheet instead of validating
    the same document again (issue 24: twice on every read and every save)."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    validated = _count_validations(monkeypatch)
    assert store.open(sheet.id).entries == sheet.entries
    assert len(validated) == 1
    validated.clear()
    saved = store.add_game(sheet.id, {"winner": "A"})
    assert len(validated) == 1
    assert store.open(sheet.id) == saved and len(saved.entries) == 3


def test_a_document_other_than_the_one_read_is_validated_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The storage hands out the sheet its read validated only for that document (or TinyDB's copy of
    it), and only once: a changed document, or the same one asked for again, is validated anew."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    storage = SheetStorage(store.sheet_path(sheet.id))
    raw = storage.read()
    assert raw is not None
    document = raw[SHEET_TABLE]["1"]
    changed = {**document, "device": "ein anderes Handy"}
    validated = _count_validations(monkeypatch)
    assert storage.stored_sheet(changed).device == "ein anderes Handy"
    assert len(validated) == 1
    again = storage.read()
    assert again is not None and len(validated) == 2, "the read validates the file's sheet"
    assert storage.stored_sheet(dict(again[SHEET_TABLE]["1"])).sheet == sheet
    assert len(validated) == 2, "TinyDB's copy of the document read is that document"
    assert storage.stored_sheet(again[SHEET_TABLE]["1"]).sheet == sheet
    assert len(validated) == 3, "taken once"


def _fork(work) -> int:  # type: ignore[no-untyped-def]
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    return pid


def test_two_processes_on_the_same_store_lose_none_of_each_others_writes(tmp_path: Path) -> None:
    """Two app windows: both append to the same sheet and create sheets at the same time."""
    root = tmp_path / "store"
    shared = watten(SheetStore(root), bummerl_count=9)

    def window(name: str) -> None:
        store = SheetStore(root, device=name)
        for number in range(25):
            store.add_game(shared.id, {"winner": "A" if number % 2 else "B"})
            if number % 5 == 0:
                watten(store, table=number + 1)
                store.list_sheets()

    pids = [_fork(lambda n=name: window(n)) for name in ("Fenster-1", "Fenster-2")]
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    store = SheetStore(root)
    log = store.open(shared.id).entries
    assert len(log) == 50
    assert sorted(e.device or "" for e in log).count("Fenster-1") == 25
    assert len(store.list_sheets()) == 1 + 2 * 5
    assert find_ruleset("watten-turnier").score(store.open(shared.id)).totals["A"] > 0


def test_a_window_holding_the_lock_too_long_gives_a_clear_message(tmp_path: Path) -> None:
    root = tmp_path / "store"
    sheet = watten(SheetStore(root))
    read_fd, write_fd = os.pipe()

    def hold() -> None:
        with SheetStore(root).locked():
            os.write(write_fd, b"x")
            time.sleep(30)

    pid = _fork(hold)
    os.read(read_fd, 1)
    try:
        with pytest.raises(StoreBusy, match="von einem anderen Fenster belegt"):
            SheetStore(root, lock_timeout=0.2).add_game(sheet.id, {"winner": "A"})
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert len(SheetStore(root).add_game(sheet.id, {"winner": "A"}).entries) == 1


def test_a_nested_hold_passes_through_and_another_thread_still_waits(tmp_path: Path) -> None:
    """The thread holding the store's lock may take it again (the statistics read every sheet
    under one hold); another thread sharing the store object still waits for the file lock."""
    store = SheetStore(tmp_path / "store", lock_timeout=0.2)
    sheet = watten(store)
    refused: list[BaseException] = []

    def other_thread() -> None:
        try:
            store.add_game(sheet.id, {"winner": "A"})
        except StoreBusy as error:
            refused.append(error)

    with store.locked():
        with store.locked():
            assert store.open(sheet.id).entries == ()
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        assert len(refused) == 1, "another thread got in while this one held the lock"
        assert store.add_game(sheet.id, {"winner": "A"}).entries[-1].kind == "game"
    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert len(refused) == 1
    assert len(store.open(sheet.id).entries) == 2


operations = st.lists(
    st.one_of(
        st.tuples(st.just("game"), st.sampled_from("AB")),
        st.tuples(st.just("void"), st.integers(min_value=1, max_value=12)),
        st.tuples(st.just("correct"), st.integers(min_value=1, max_value=12)),
        st.tuples(st.just("queue"), st.just("")),
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_property_the_store_holds_exactly_what_was_accepted(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, object]]
) -> None:
    """Whatever is appended (and accepted by the rules) reads back identically, scores the same,
    survives a JSON backup round trip, and what the rules refuse leaves no trace."""
    from storage import export_backup, import_backup

    base = tmp_path_factory.mktemp("prop")
    store = SheetStore(base / "a", device="p")
    sheet = watten(store, bummerl_count=9)
    model = sheet
    for kind, arg in ops:
        try:
            if kind == "game":
                model = store.add_game(sheet.id, {"winner": arg})
            elif kind == "void":
                model = store.void(sheet.id, int(arg))  # type: ignore[arg-type]
            elif kind == "correct":
                model = store.correct(sheet.id, int(arg), "game", {"winner": "B", "value": 3})  # type: ignore[arg-type]
            else:
                store.mark_queued(sheet.id)
        except RuleViolation:
            pass
        assert store.open(sheet.id) == model
    reopened = SheetStore(base / "a").open(sheet.id)
    assert reopened == model
    assert score_sheet(reopened) == score_sheet(model)
    assert json.loads(reopened.to_json()) == json.loads(model.to_json())
    export_backup(store, base / "backup.json")
    other = SheetStore(base / "b")
    import_backup(other, base / "backup.json")
    assert other.open(sheet.id) == model
    assert other.list_sheets()[0].participants == tuple(p.name for p in TEAMS)


marks = st.lists(
    st.tuples(st.sampled_from(["queue", "delivered", "acknowledged", "game"]), st.integers(min_value=0, max_value=4)),
    max_size=12,
)
_ORDER = {SyncState.LOCAL: 0, SyncState.QUEUED: 1, SyncState.DELIVERED: 2, SyncState.ACKNOWLEDGED: 3}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=marks)
def test_property_sync_marks_never_move_backwards(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]) -> None:
    """However late or repeated the server's reports arrive, the mark only moves forward:
    to a later revision, or to a further state of the same revision; never past the sheet."""
    store = SheetStore(tmp_path_factory.mktemp("sync"), device="p")
    sheet = watten(store, games="AB")
    previous = store.stored(sheet.id).sync
    for step, revision in steps:
        current_revision = len(store.open(sheet.id).entries)
        if step == "game":
            store.add_game(sheet.id, {"winner": "A"})
        elif step == "queue":
            store.mark_queued(sheet.id)
        elif revision > current_revision:
            with pytest.raises(SyncStateError):
                store._mark(sheet.id, SyncState(step), revision)
        else:
            store._mark(sheet.id, SyncState(step), revision)
        mark = store.stored(sheet.id).sync
        assert (mark.revision, _ORDER[mark.state]) >= (previous.revision, _ORDER[previous.state])
        assert mark.revision <= len(store.open(sheet.id).entries)
        previous = mark


def test_two_threads_sharing_one_store_lose_nothing(tmp_path: Path) -> None:
    import threading

    store = new_store(tmp_path)
    sheet = watten(store, bummerl_count=9)
    errors: list[BaseException] = []

    def play(winner: str) -> None:
        try:
            for _ in range(15):
                store.add_game(sheet.id, {"winner": winner})
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(w,)) for w in "AB"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    log = store.open(sheet.id).entries
    assert len(log) == 30
    assert sorted(e.data["winner"] for e in log) == ["A"] * 15 + ["B"] * 15


def test_a_stray_json_file_in_the_sheets_folder_does_not_rewrite_the_index_at_every_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files that are not sheets end up in ``sheets/`` (macOS writes ``._<name>.json`` beside
    every file on an exFAT card; someone saves ``notes.json`` there). They were taken for sheets
    that vanished, so every listing rewrote the whole index: with 1000 sheets, a few hundred KB
    and an fsync per look at the list. They are ignored like any other foreign file."""
    store = new_store(tmp_path)
    sheet = watten(store, games="AB")
    (store.sheets_dir / f"._{sheet.id}.json").write_bytes(b"\x00\x05\x16\x07")
    (store.sheets_dir / "notes.json").write_text("{}")
    (store.sheets_dir / "notes.json.tmp").write_text("{")
    assert [i.id for i in store.list_sheets()] == [sheet.id]
    written = record_writes(monkeypatch)
    assert [i.id for i in store.list_sheets()] == [sheet.id]
    assert written == [], "nothing changed, nothing written"
    assert store.damaged() == [] and store.warnings == []
    assert (store.sheets_dir / "notes.json").read_text() == "{}"


_AT = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)

window_ops = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=1),
        st.one_of(
            st.tuples(st.just("game"), st.sampled_from(["A", "B", "A2", "B3", "C"])),
            st.tuples(st.just("void"), st.integers(min_value=1, max_value=14)),
            st.tuples(st.just("correct"), st.integers(min_value=1, max_value=14)),
            st.tuples(st.just("close"), st.just("")),
        ),
    ),
    max_size=14,
)


def _entry(kind: str, arg: object) -> Entry:
    if kind == "game":
        text = str(arg)
        data: dict[str, object] = {"winner": text[0], **({"value": int(text[1:])} if text[1:] else {})}
        return Entry(kind="game", data=data, at=_AT, device="w")
    if kind == "void":
        return Entry(kind="void", target=int(arg), at=_AT, device="w")  # type: ignore[call-overload]
    if kind == "correct":
        return Entry(
            kind="correction",
            target=int(arg),
            replacement={"kind": "game", "data": {"winner": "B", "value": 3}},
            at=_AT,
            device="w",
        )  # type: ignore[call-overload,arg-type]
    return Entry(kind="close", data={"signed_by": "A"}, at=_AT, device="w")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=window_ops)
def test_property_two_windows_get_the_verdicts_of_the_whole_log(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[int, tuple[str, object]]]
) -> None:
    """A store checks the next entry from the state after its own last append (issue 24), not by
    replaying the log: whatever another window wrote in between (games, Streichungen, corrections,
    the close), each entry gets exactly the verdict and message of checking it against the whole
    stored log, and the file holds exactly what was accepted."""
    root = tmp_path_factory.mktemp("windows")
    windows = (SheetStore(root, device="w"), SheetStore(root, device="w"))
    sheet = watten(windows[0], bummerl_count=2)
    ruleset = find_ruleset(sheet.ruleset.id)
    for window, (kind, arg) in ops:
        before = windows[window].open(sheet.id)
        entry = _entry(kind, arg)
        try:
            ruleset.check(before, entry)
            expected = None
        except RuleViolation as error:
            expected = str(error)
        try:
            windows[window].append(sheet.id, entry)
            got = None
        except RuleViolation as error:
            got = str(error)
        assert got == expected, (kind, arg)
        assert windows[1 - window].open(sheet.id) == (before if expected else before.with_entry(entry))


def test_the_next_game_is_checked_without_replaying_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut is taken: after a window's first game, its next games are checked with no replay
    of the whole log, also after another window's games, whose game that makes a team gspannt
    decides the next verdict."""
    store = new_store(tmp_path)
    sheet = watten(store, games="A")
    other = new_store(tmp_path)
    other.add_game(sheet.id, {"winner": "B"})
    ruleset = type(find_ruleset(sheet.ruleset.id))

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole log was replayed")

    monkeypatch.setattr(ruleset, "_replay", no_replay)
    for _ in range(5):
        store.add_game(sheet.id, {"winner": "A"})
    other.add_game(sheet.id, {"winner": "A"})  # 14:2, Sautreiber gspannt
    with pytest.raises(RuleViolation) as info:
        store.add_game(sheet.id, {"winner": "B", "value": 2})
    assert info.value.rule.startswith("Regel 8") and info.value.entry == 9
    sheet = store.add_game(sheet.id, {"winner": "B", "value": 3})
    assert [e.data["winner"] for e in sheet.entries] == ["A", "B"] + ["A"] * 6 + ["B"]
