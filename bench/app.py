"""From a saved entry to the recomputed sheet state in the app, on a sheet's first game and on its last.

    python bench/app.py [--samples 30]

What the app does between the store's acknowledgement of a new entry (``SheetStore.add_game``:
checked by the ruleset, written durably) and the screen being ready to redraw
(``SheetState.show_saved``): score the sheet (totals are never stored: the log is replayed,
from the state after the previous entry, so only the new entry is applied), build the lines,
and reset the entry panel's draft, which asks the ruleset what it may offer next. Measured on the example sheets of
``docs/examples/``: a full Schafkopf Serie (32 games) and a 20-game Doppelkopf Runde at a
5-player table, plus a Watten Durchgang. The baseline is the sheet's first game in the same run;
the figure is the ratio last/first (target: at most 1.5x). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import Sheet
from scoring.model import CLOSE, CORRECTION, VOID
from screens.sheet_state import SheetState
from storage import SheetStore

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
SHEETS = {
    "watten-turnier": "Watten, Durchgang",
    "schafkopf-turnier": "Schafkopf, Serie (32 Spiele)",
    "doppelkopf-haus": "Doppelkopf, Runde am 5er-Tisch (20 Spiele)",
}


def games_of(sheet: Sheet) -> list[tuple[str, dict[str, object]]]:
    """The sheet's entries as a table enters them: games and events, no corrections, voids or close."""
    return [(e.kind, dict(e.data)) for e in sheet.entries if e.kind not in (CORRECTION, VOID, CLOSE)]


def time_submit(store: SheetStore, blank: Sheet, games: list[tuple[str, dict[str, object]]], before: int) -> float:
    """Seconds for ``SheetState.submit`` of game ``before + 1`` on a sheet already holding ``before`` games."""
    sheet = blank.model_copy(update={"id": uuid.uuid4()})
    store.create(sheet)
    for kind, data in games[:before]:
        store.add_game(sheet.id, data, kind=kind)
    state = SheetState(store, str(sheet.id))
    state.load()
    kind, data = games[before]
    saved = store.add_game(sheet.id, dict(data), kind=kind)
    start = time.perf_counter()
    ok = state.show_saved(saved, "gespeichert")
    elapsed = time.perf_counter() - start
    assert ok, state.error
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--only", nargs="*", default=list(SHEETS), help="ruleset ids to measure")
    args = parser.parse_args()
    print(f"{'Blatt':<45} {'erstes Spiel':>13} {'letztes Spiel':>14} {'letztes/erstes':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        store = SheetStore(Path(tmp) / "store", device="bench")
        for ruleset_id, title in SHEETS.items():
            if ruleset_id not in args.only:
                continue
            example = Sheet.from_json((EXAMPLES / f"{ruleset_id}.json").read_bytes())
            games = games_of(example)
            blank = example.model_copy(update={"entries": ()})
            first, last = [], []
            for _ in range(args.samples):
                first.append(time_submit(store, blank, games, 0))
                last.append(time_submit(store, blank, games, len(games) - 1))
            f, l_ = statistics.median(first) * 1000, statistics.median(last) * 1000
            print(f"{title:<45} {f:>10.1f} ms {l_:>11.1f} ms {l_ / f:>14.2f}x")


if __name__ == "__main__":
    main()
