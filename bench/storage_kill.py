"""The kill loop against plain TinyDB ``JSONStorage`` and against Tischblock's ``AtomicJSONStorage``.

    python bench/storage_kill.py [--kills 500]

A forked writer inserts documents of varying size into a TinyDB table and, every few
writes, removes the oldest one (so the file sometimes shrinks, as real data does); after
each write returns it reports on a pipe. The parent kills it with SIGKILL at a random
moment, then checks the file: does it still parse, and is every acknowledged document there?
A broken file is counted, kept aside and replaced by an empty one so the loop goes on.
The same loop, same seed, runs for both storages; this prints how many files broke.
``tests/test_storage_kill.py`` is the test that runs the real repository through 500 kills.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tinydb import TinyDB
from tinydb.storages import JSONStorage

from storage import DamagedFile
from storage.atomic import AtomicJSONStorage

STORAGES = {"TinyDB JSONStorage": JSONStorage, "Tischblock AtomicJSONStorage": AtomicJSONStorage}
MAX_DOCS = 150


def writer(path: Path, storage: type, fd: int, seed: int) -> None:
    rng = random.Random(seed)
    db = TinyDB(path, storage=storage)
    table = db.table("entries")
    while True:
        if len(table) >= MAX_DOCS or rng.random() < 0.25:
            oldest = min((doc.doc_id for doc in table.all()), default=None)
            if oldest is not None:
                os.write(fd, f"?{oldest}\n".encode())  # removal under way: may or may not be done when killed
                table.remove(doc_ids=[oldest])
                os.write(fd, f"-{oldest}\n".encode())
                continue
        doc_id = table.insert({"kind": "game", "winner": rng.choice("AB"), "note": "x" * rng.randint(10, 2000)})
        os.write(fd, f"+{doc_id}\n".encode())


def check(path: Path, storage: type, present: set[int]) -> tuple[str | None, set[int]]:
    """(None, ids in the file) if the file is fine, else (why it is broken, empty set).

    Each storage reads the file as it would when the app starts again (TinyDB: an empty
    file is an empty database; Tischblock: a leftover temp file is cleaned up first).
    """
    try:
        if storage is AtomicJSONStorage:
            data = AtomicJSONStorage(path, damaged_dir=path.parent / "kept").read()
        else:
            data = json.loads(path.read_bytes() or b"{}") if path.exists() else {}
    except (ValueError, DamagedFile) as error:
        return f"{type(error).__name__}: {str(error)[:90]}", set()
    ids = {int(i) for i in (data or {}).get("entries", {})}
    if not present <= ids:
        return f"lost {len(present - ids)} acknowledged documents", set()
    return None, ids


def run(name: str, storage: type, kills: int, seed: int, root: Path) -> tuple[int, int, list[str]]:
    path = root / f"{name.split()[0].lower()}.json"
    damaged = root / "damaged"
    rng = random.Random(seed)
    present: set[int] = set()
    broken: list[str] = []
    acks = 0
    for round_number in range(kills):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_fd)
                writer(path, storage, write_fd, seed + round_number)
            finally:
                os._exit(0)
        os.close(write_fd)
        time.sleep(rng.uniform(0.001, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(read_fd, "rb") as pipe:
            for line in pipe.read().decode().split():
                if line[0] == "?":
                    present.discard(int(line[1:]))  # a removal under way may or may not be done
                    continue
                acks += 1
                (present.add if line[0] == "+" else present.discard)(int(line[1:]))
        why, ids = check(path, storage, present)
        if why is not None:
            broken.append(f"round {round_number}: {why}")
            damaged.mkdir(exist_ok=True)
            if path.exists():
                os.replace(path, damaged / f"{path.name}.{round_number}")
            present.clear()
        else:
            present = ids
    return acks, len(broken), broken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="tischblock-kill-") as tmp:
        for name, storage in STORAGES.items():
            root = Path(tmp) / name.split()[0]
            root.mkdir()
            started = time.monotonic()
            results[name] = run(name, storage, args.kills, args.seed, root)
            acks, broken, examples = results[name]
            print(f"{name}: {args.kills} SIGKILLs, {acks} acknowledged writes, {broken} broken files ({time.monotonic() - started:.0f} s)")
            for example in examples[:3]:
                print(f"    e.g. {example}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
