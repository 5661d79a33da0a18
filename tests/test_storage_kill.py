"""Fault injection: a writer process is killed with SIGKILL at random moments, 500 times.

The writer (forked after imports, so each round starts in microseconds) appends games,
corrects and voids entries, closes sheets, queues them for sync, starts new sheets when a
Durchgang is over or closed and refreshes the index, all through ``SheetStore``. After each acknowledged operation
it reports on a pipe. After each kill the test opens every file of the store and checks that
every acknowledged write is there, in order, and that at most the one write in flight was
added beyond them. Nothing may land in ``damaged/``.

The same loop against TinyDB's default ``JSONStorage`` is ``bench/storage_kill.py``.
"""

from __future__ import annotations

import gc
import json
import os
import random
import select
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring import Entry, Participant, Replacement, RuleViolation, SheetContext
from storage import SCHEMA_VERSION, SheetStore

KILLS = 500
SEED = 20261122
TEAMS = [Participant(id="A", name="Sautreiber", start_number=2), Participant(id="B", name="Kartlbrüder", start_number=9)]

def _ack(fd: int, record: dict[str, Any]) -> None:
    os.write(fd, (json.dumps(record) + "\n").encode())


def _writer(root: Path, fd: int, current: str | None, seed: int) -> None:
    """The child: write until killed. Each line on ``fd`` acknowledges one finished operation."""
    rng = random.Random(seed)
    store = SheetStore(root, device=f"writer-{seed}")
    while True:
        if current is None:
            sheet = store.new_sheet("watten-turnier", TEAMS, SheetContext(table=rng.randint(1, 40)), {"bummerl_count": 2})
            current = str(sheet.id)
            _ack(fd, {"op": "create", "id": current})
            continue
        roll = rng.random()
        try:
            count = len(store.open(current).entries)
            if roll < 0.70:
                entry = Entry(kind="game", data={"winner": rng.choice("AB")})
            elif roll < 0.76 and count:
                entry = Entry(kind="void", target=rng.randint(1, count), reason="Kill-Test")
            elif roll < 0.81 and count:
                replacement = Replacement(kind="game", data={"winner": rng.choice("AB")})
                entry = Entry(kind="correction", target=rng.randint(1, count), replacement=replacement, reason="Kill-Test")
            elif roll < 0.88:
                entry = Entry.now("vergeben", {})
            elif roll < 0.92:
                mark = store.mark_queued(current)
                _ack(fd, {"op": "queued", "id": current, "revision": mark.revision})
                continue
            elif roll < 0.97 or count < 10:
                store.list_sheets()
                continue
            else:
                entry = Entry(kind="close", data={"signed_by": "Kill-Test", "override": "Kill-Test"})  # also mid-Durchgang
            sheet = store.append(current, entry)
        except RuleViolation:
            if entry.kind not in ("void", "correction"):
                current = None  # the Durchgang is over or the sheet closed: start the next sheet
            continue  # a void/correction the rules refuse (e.g. it would break a later entry)
        _ack(fd, {"op": "append", "id": current, "n": len(sheet.entries), "entry": sheet.entries[-1].model_dump(mode="json")})


def _read_acks(fd: int, wanted: int, timeout: float = 30.0) -> bytes:
    """Read from the writer's pipe until ``wanted`` acknowledgements arrived (or it ended)."""
    received = b""
    deadline = time.monotonic() + timeout
    while received.count(b"\n") < wanted:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break  # the writer ended (its error is in what was received)
        received += chunk
    return received


@pytest.fixture(autouse=True)
def _unfreeze_heap() -> Iterator[None]:
    yield
    gc.unfreeze()


def _comparable(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if v is not None}


def test_sigkill_500_times_loses_no_acknowledged_write(tmp_path: Path) -> None:
    root = tmp_path / "store"
    checker = SheetStore(root, device="checker")
    rng = random.Random(SEED)
    acked: dict[str, list[dict[str, Any]]] = {}  # sheet id -> entries as the checker last verified them
    verified: dict[str, bytes] = {}  # sheet id -> the file's bytes when the checker last verified them
    current: str | None = None
    total_acks = 0
    interrupted = 0
    started = time.monotonic()
    for round_number in range(KILLS):
        read_fd, write_fd = os.pipe()
        gc.freeze()  # the child's garbage collector must not copy the parent's whole heap first
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            code = 0
            try:
                os.close(read_fd)
                _writer(root, write_fd, current, SEED + round_number)
            except BaseException:
                import traceback

                _ack(write_fd, {"op": "error", "id": "", "text": traceback.format_exc()})
                code = 3
            finally:
                os._exit(code)
        os.close(write_fd)
        # Kill after a random number of acknowledged operations (0 to 3) plus a random delay, so
        # the kills fall anywhere in the writer's work however slow the machine's disk is today
        # (a fixed time window gave too few writes to prove anything on a loaded machine).
        received = _read_acks(read_fd, rng.randint(0, 3))
        time.sleep(rng.uniform(0.0, 0.03))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        with os.fdopen(read_fd, "rb") as pipe:
            lines = (received + pipe.read()).decode().splitlines()
        errors = [json.loads(line)["text"] for line in lines if '"op": "error"' in line]
        assert not errors, f"round {round_number}: the writer failed:\n{errors[0]}"
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"the writer died on its own ({status})"

        # What the writer acknowledged in this round, per sheet, on top of what was verified before.
        expected = {sid: list(entries) for sid, entries in acked.items()}
        queued: dict[str, int] = {}
        for line in lines:
            record = json.loads(line)
            assert record["op"] != "error", f"round {round_number}: the writer failed:\n{record['text']}"
            sid = record["id"]
            expected.setdefault(sid, [])
            if record["op"] == "append":
                # the writer continues from the verified state, so each ack adds exactly one entry
                assert record["n"] == len(expected[sid]) + 1, f"round {round_number}: entry numbers skip"
                expected[sid].append(record["entry"])
            elif record["op"] == "queued":
                queued[sid] = record["revision"]
            current = sid
        total_acks += len(lines)

        # A temp file left behind means the kill hit a write between open and os.replace.
        interrupted += any(p.name.endswith(".tmp") for p in root.rglob("*"))
        # Every file opens; the index lists every sheet; every acknowledged entry is there.
        infos = {str(info.id): info for info in checker.list_sheets()}
        files = sorted(p.name for p in (root / "sheets").iterdir() if not p.name.endswith(".tmp"))
        assert set(infos) == {name.removesuffix(".json") for name in files}
        for sid in expected:
            assert sid in infos, f"round {round_number}: acknowledged sheet {sid} is missing"
        for sid in infos:
            # A file whose bytes are the ones verified last round, on a sheet with nothing new
            # acknowledged, is still verified: only the files the writer touched are parsed again
            # (parsing every sheet every round made this test quadratic, 2 minutes of a 10-minute suite).
            raw = (root / "sheets" / f"{sid}.json").read_bytes()
            if raw == verified.get(sid) and len(expected.get(sid, [])) == len(acked.get(sid, [])) and sid not in queued:
                continue
            sheet = checker.open(sid)
            stored = [_comparable(e.model_dump(mode="json")) for e in sheet.entries]
            want = [_comparable(e) for e in expected.get(sid, [])]
            assert stored[: len(want)] == want, f"round {round_number}: sheet {sid} lost acknowledged entries"
            assert len(stored) - len(want) <= 1, f"round {round_number}: sheet {sid} has entries nobody wrote"
            acked[sid] = [e.model_dump(mode="json") for e in sheet.entries]
            verified[sid] = raw
            if sid in queued:
                mark = infos[sid].sync
                assert mark.state.value == "queued" and mark.revision >= queued[sid], f"round {round_number}: sync mark lost"
        assert checker.damaged() == [], f"round {round_number}: files were damaged: {checker.damaged()}"
        assert checker.warnings == []
    elapsed = time.monotonic() - started
    print(f"{KILLS} kills, {total_acks} acknowledged operations, {len(acked)} sheets, {interrupted} kills in the middle of a write, {elapsed:.1f} s")
    assert total_acks > KILLS, "the writer hardly wrote anything: the test would prove nothing"
    assert interrupted > 10, "hardly any kill hit a write: the test would prove nothing"
    assert len(acked) > 3, "the writer never got to start new sheets"


# -- kills in the middle of a migration and of an import ----------------------------------------
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "storage" / f"v{SCHEMA_VERSION}" / "store"
ROUNDS = 100


def _forked(template: Path, root: Path, work: Callable[[Path], None]) -> float:
    """How long ``work`` on a copy of ``template`` at ``root`` takes in a forked child, to its exit."""
    shutil.copytree(template, root)
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        try:
            work(root)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    duration = time.perf_counter() - started
    shutil.rmtree(root)
    return duration


def _kill_rounds(template: Path, work_root: Path, work: Callable[[Path], None], check: Callable[[Path], None]) -> int:
    """Copy ``template``, run ``work`` on the copy in a forked child, SIGKILL it at a random moment
    within the time the work takes, then ``check`` the copy. Return how many kills came before
    the work was done.

    The time the work takes follows the machine: a child that finished before its kill says how
    long it took, and the next kill is drawn within that. With one time measured before the rounds,
    rounds that ran faster than that measurement got their kill after the work: in the fresh-clone
    CI of 14b3b0e (28 Nov) in 91 of 100 rounds, and in that of 38a29fc (30 Nov, timed in a warm
    forked child) in 91 again, and the test failed."""
    warm = work_root / "warm"
    shutil.copytree(template, warm)
    work(warm)
    shutil.rmtree(warm)
    window = _forked(template, work_root / "timing", work)
    rng = random.Random(SEED)
    interrupted = 0
    for round_number in range(ROUNDS):
        root = work_root / f"r{round_number}"
        shutil.copytree(template, root)
        gc.freeze()
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                work(root)
                (root / "took").write_text(repr(time.perf_counter() - started))
                os.rename(root / "took", root / "done")
            except BaseException:
                import traceback

                (work_root / "error").write_text(traceback.format_exc())
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, window * 1.2))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert not (work_root / "error").exists(), (work_root / "error").read_text()
        done = root / "done"
        if done.exists():
            window = float(done.read_text())
        else:
            interrupted += 1
        check(root)
        shutil.rmtree(root)
    return interrupted


def test_sigkill_in_the_middle_of_a_migration_loses_nothing_and_migrates_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from storage import schema
    from storage.schema import Migration

    def to_next(raw: dict[str, Any]) -> dict[str, Any]:
        for doc in raw.get("sheet", {}).values():
            doc["device"] = f"{doc.get('device', '?')} (migriert)"
        return raw

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema, "MIGRATIONS", {SCHEMA_VERSION: Migration(SCHEMA_VERSION, "kill-test", to_next)})
    originals = {p.name: p.read_bytes() for p in (FIXTURE / "sheets").iterdir()}

    def work(root: Path) -> None:
        store = SheetStore(root, device="writer")
        for info in store.list_sheets():
            store.stored(info.id)

    def check(root: Path) -> None:
        store = SheetStore(root, device="checker")
        infos = store.list_sheets()
        assert sorted(f"{i.id}.json" for i in infos) == sorted(originals)
        for info in infos:
            stored = store.stored(info.id)
            assert stored.device is not None and stored.device.count("(migriert)") == 1, "migrated exactly once"
            raw = json.loads(store.sheet_path(info.id).read_bytes())
            assert raw["_meta"]["1"]["schema"] == SCHEMA_VERSION + 1
            kept = root / "migrated" / f"{info.id}.json.v{SCHEMA_VERSION}"
            assert kept.read_bytes() == originals[f"{info.id}.json"]
        assert store.damaged() == [] and store.warnings == []

    interrupted = _kill_rounds(FIXTURE, tmp_path, work, check)
    print(f"migration: {ROUNDS} kills, {interrupted} before it was done")
    assert interrupted > 10, "hardly any kill came before the migration was done: the test would prove nothing"


def test_sigkill_in_the_middle_of_an_import_leaves_each_sheet_old_or_new(tmp_path: Path) -> None:
    from storage import export_backup, import_backup

    template = tmp_path / "template"
    source = SheetStore(template, device="source")
    old = []
    for table in range(1, 5):
        sheet = source.new_sheet("watten-turnier", TEAMS, SheetContext(table=table), {"bummerl_count": 3})
        old.append(source.add_game(sheet.id, {"winner": "A"}))
    shutil.copytree(template, tmp_path / "newer")
    newer = SheetStore(tmp_path / "newer", device="newer")
    new = [newer.add_game(newer.add_game(s.id, {"winner": "B"}).id, {"winner": "A"}) for s in old]
    new += [newer.new_sheet("watten-turnier", TEAMS, SheetContext(table=t)) for t in (8, 9)]
    export_backup(newer, tmp_path / "backup.json")
    template_entries = {s.id: s.entries for s in old}
    backup_entries = {s.id: s.entries for s in new}

    def work(root: Path) -> None:
        import_backup(SheetStore(root, device="importer"), tmp_path / "backup.json")

    def check(root: Path) -> None:
        store = SheetStore(root, device="checker")
        infos = store.list_sheets()
        assert set(template_entries) <= {i.id for i in infos} <= set(backup_entries)
        for info in infos:
            entries = store.open(info.id).entries
            assert entries in (template_entries.get(info.id), backup_entries[info.id]), f"sheet {info.id} is neither"
        assert store.damaged() == [] and store.warnings == []
        assert not (root / "conflicts").exists()
        # and the import, run again, completes what the kill interrupted
        import_backup(store, tmp_path / "backup.json")
        assert {i.id: store.open(i.id).entries for i in store.list_sheets()} == backup_entries

    interrupted = _kill_rounds(template, tmp_path, work, check)
    print(f"import: {ROUNDS} kills, {interrupted} before it was done")
    assert interrupted > 10, "hardly any kill came before the import was done: the test would prove nothing"
