"""Latency of appending one game with 0, 100 and 1000 stored sheets: Tischblock's store vs plain TinyDB.

    python bench/storage.py [--samples 200] [--sizes 0,100,1000]

Both sides do the same work per game: read the sheet, check the entry with its ruleset,
append, write durably. Tischblock: one ``AtomicJSONStorage`` file per sheet (temp file, fsync,
os.replace, directory fsync). Baseline: plain TinyDB with its default ``JSONStorage`` (which
fsyncs too), every sheet a document of one ``db.json`` as a naive app would store them. The
old sheets each hold a finished Durchgang (24 games). Prints p50/p99 in milliseconds, the
ratio to the baseline in the same run, and the ratio to the empty store.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tinydb import TinyDB
from tinydb.storages import JSONStorage

from scoring import Entry, Participant, Sheet, SheetContext, find_ruleset
from storage import SheetStore, StoredSheet
from storage.repository import SheetStorage

TEAMS = [Participant(id="A", name="Sautreiber", start_number=2), Participant(id="B", name="Kartlbrüder", start_number=9)]
WATTEN = find_ruleset("watten-turnier")
GAMES_PER_SHEET = 48  # fresh sheets with 9 Bummerl take this many games before the next sheet starts


def finished_sheet(table: int) -> Sheet:
    """An old sheet: a whole Durchgang, 3 Bummerl, 24 games."""
    sheet = WATTEN.new_sheet(TEAMS, SheetContext(round_label="Durchgang", round=1 + table // 20, table=table % 20 + 1))
    now = datetime.now(UTC)
    for number in range(24):
        sheet = sheet.with_entry(Entry(kind="game", data={"winner": "A" if number % 8 != 7 else "B"}, at=now, device="bench"))
    WATTEN.score(sheet)
    return sheet


def populate_tischblock(root: Path, count: int) -> SheetStore:
    store = SheetStore(root, device="bench")
    now = datetime.now(UTC)
    for table in range(count):
        sheet = finished_sheet(table)
        doc = StoredSheet(sheet=sheet, created_at=now, updated_at=now, device="bench").document()
        SheetStorage(store.sheet_path(sheet.id)).write({"sheet": {"1": doc}})
    store.list_sheets()  # the index exists, as on a phone in use
    return store


def populate_tinydb(path: Path, count: int) -> TinyDB:
    db = TinyDB(path, storage=JSONStorage)
    db.table("sheets").insert_multiple(finished_sheet(t).model_dump(mode="json") for t in range(count))
    return db


def bench_tischblock(store: SheetStore, samples: int) -> list[float]:
    """Append ``samples`` games to fresh sheets (a new sheet every GAMES_PER_SHEET games)."""
    times: list[float] = []
    while len(times) < samples:
        sheet = store.new_sheet("watten-turnier", TEAMS, options={"bummerl_count": 9})
        for number in range(min(GAMES_PER_SHEET, samples - len(times))):
            start = time.perf_counter()
            store.add_game(sheet.id, {"winner": "A" if number % 2 else "B"})
            times.append(time.perf_counter() - start)
    return times


def bench_tinydb(db: TinyDB, samples: int) -> list[float]:
    table = db.table("sheets")
    times: list[float] = []
    while len(times) < samples:
        doc_id = table.insert(WATTEN.new_sheet(TEAMS, options={"bummerl_count": 9}).model_dump(mode="json"))
        for number in range(min(GAMES_PER_SHEET, samples - len(times))):
            entry = Entry.now("game", {"winner": "A" if number % 2 else "B"}, device="bench")

            def add(doc: dict[str, Any], entry: Entry = entry) -> None:
                sheet = Sheet.model_validate(doc)
                WATTEN.check(sheet, entry)
                doc.update(sheet.with_entry(entry).model_dump(mode="json"))

            start = time.perf_counter()
            table.update(add, doc_ids=[doc_id])
            times.append(time.perf_counter() - start)
    return times


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--sizes", default="0,100,1000")
    parser.add_argument("--rounds", type=int, default=8, help="interleave the sizes in this many rounds, so disk noise hits all alike")
    parser.add_argument("--no-fsync", action="store_true", help="make fsync a no-op on both sides: the layout's own cost without disk flushes")
    args = parser.parse_args()
    if args.no_fsync:
        os.fsync = lambda fd: None  # type: ignore[assignment]
    sizes = [int(s) for s in args.sizes.split(",")]
    batch = max(1, args.samples // args.rounds)
    ours: dict[int, list[float]] = {size: [] for size in sizes}
    theirs: dict[int, list[float]] = {size: [] for size in sizes}
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as tmp:
        stores = {size: populate_tischblock(Path(tmp) / f"tb-{size}", size) for size in sizes}
        dbs = {size: populate_tinydb(Path(tmp) / f"tinydb-{size}.json", size) for size in sizes}
        for _ in range(args.rounds):
            order = sizes[:]
            rng.shuffle(order)
            for size in order:
                ours[size] += bench_tischblock(stores[size], batch)
                theirs[size] += bench_tinydb(dbs[size], batch)
    rows = [
        (size, percentile(ours[size], 50), percentile(ours[size], 99), percentile(theirs[size], 50), percentile(theirs[size], 99))
        for size in sizes
    ]
    base50, base99 = rows[0][1], rows[0][2]
    mode = "fsync disabled on both sides" if args.no_fsync else "durable writes (fsync)"
    print(f"Appending one game, {batch * args.rounds} samples per cell, {mode}, milliseconds (lower is better)")
    print(f"{'stored sheets':>13} | {'Tischblock p50':>14} {'p99':>7} | {'TinyDB p50':>10} {'p99':>7} | {'vs TinyDB p50':>13} {'p99':>6} | {'vs empty p50':>12} {'p99':>6}")
    for size, p50, p99, t50, t99 in rows:
        print(
            f"{size:>13} | {p50:>14.2f} {p99:>7.2f} | {t50:>10.2f} {t99:>7.2f} | {p50 / t50:>12.2f}x {p99 / t99:>5.2f}x"
            f" | {p50 / base50:>11.2f}x {p99 / base99:>5.2f}x"
        )
    worst = max(r[1] / base50 for r in rows)
    print(f"Tischblock with {rows[-1][0]} sheets is {rows[-1][1] / base50:.2f}x the empty store at p50 (goal: within 2x); worst {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
