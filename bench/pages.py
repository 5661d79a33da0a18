"""How long the organizer's pages take to render for a big tournament: the round's dashboard, the
standings and the projector, over a real SQLite host store filled as the phones would fill it.

    python bench/pages.py [--teams 64] [--rounds 3] [--repeat 15]

Each team's sheet of every table and round is stored (two per Watten table, all signed, one table
per round disputed), then every page is rendered ``--repeat`` times in this process (``Pages`` over
``Desk``, without HTTP: what the host does per request besides TLS). Prints the median per page in
wall time and in CPU time of this process, and the CPU time's ratio to the baseline measured in the
same run: just reading the latest revision of every sheet from the store and parsing it (what any
page over all sheets cannot avoid). The ratio is in CPU time, which what else runs on the machine
leaves alone (the wall time is printed beside it). The projector is timed with a fresh ``Pages``
each time, since one keeps its standings for 11 seconds. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import Entry, Sheet, find_ruleset
from sync.host.app import create_app
from sync.host.credentials import PASSWORD_SETTING, hash_password
from sync.host.desk import Desk, start_tournament
from sync.host.pages.views import Pages
from sync.host.records import NewRevision
from sync.host.store import HostStore
from sync.protocol import body_sha256


def played(sheet: Sheet, rng: random.Random) -> Sheet:
    ruleset = find_ruleset(sheet.ruleset.id)
    ids = [p.id for p in sheet.participants]
    while not ruleset.score(sheet).status.finished:
        sheet = sheet.with_entry(Entry(kind="game", data={"winner": rng.choice(ids)}))
    return sheet.with_entry(Entry(kind="close", data={"signed_by": sheet.participants[0].name}))


def store(desk: Desk, sheet: Sheet, round: int, table: int) -> None:
    body = sheet.to_json().encode("utf-8")
    score = find_ruleset(sheet.ruleset.id).score(sheet)
    desk.store.store_revision(
        NewRevision(
            sheet_id=sheet.id,
            revision=len(sheet.entries),
            body=body,
            body_sha256=body_sha256(body),
            tournament_id=desk.tournament().id,
            round_label=sheet.context.round_label,
            round=round,
            table=table,
            written_by=sheet.context.written_by,
            closed=score.status.closed,
            games=sum(1 for line in score.lines if line.kind != "close"),
            device_id="bench",
        )
    )


def timed(label: str, action: Callable[[], object], repeat: int, baseline: float | None = None) -> float:
    """Run ``action`` ``repeat`` times; print the medians of wall and CPU time and the CPU ratio to ``baseline``."""
    walls, cpus = [], []
    for _ in range(repeat):
        gc.collect()  # each rendering starts after a full collection: what the last one left is not its cost
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    median = statistics.median(cpus)
    ratio = f"{median / baseline:6.2f}x" if baseline else "  1.00x (baseline)"
    print(f"{label:<44} {statistics.median(walls) * 1000:8.1f} ms {median * 1000:8.1f} ms {ratio}")
    return median


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=15, help="renderings of each page; the medians are printed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        host_store = HostStore.open(Path(tmp))
        host_store.set_setting_once(PASSWORD_SETTING, hash_password("bench-passwort"))
        start_tournament(host_store, "Bench-Watten")
        app = create_app(host_store)
        pages = Pages(app.state.host)
        desk = pages.desk()
        desk.configure("watten-turnier", rounds=args.rounds)
        rows = ["Startnummer;Name;Spieler 1;Spieler 2"] + [f"{n};Team {n};A{n};B{n}" for n in range(1, args.teams + 1)]
        desk.import_roster("\n".join(rows) + "\n")
        rng = random.Random(13)
        start = time.perf_counter()
        for round in range(1, args.rounds + 1):
            desk.draw(round, round)
            desk.start_round(round)
            for table in desk.draw_of(round).tables:
                for seat in table.seats:
                    sheet = played(desk.assignment(seat.start_number, round).sheet, random.Random(round * 1000 + table.table))
                    if table.table == 1 and seat.seat == 2:  # one disputed table per round
                        sheet = played(desk.assignment(seat.start_number, round).sheet, rng)
                    store(desk, sheet, round, table.table)
        print(
            f"{args.teams} teams, {args.rounds} rounds, {args.teams // 2} tables a round: stored in {time.perf_counter() - start:.1f} s"
        )
        tournament_id = desk.tournament().id
        n = args.repeat
        print(f"{'median of ' + str(n):<44} {'wall':>11} {'CPU':>11} {'CPU ratio':>9}")
        base = timed(
            "read and parse every sheet's latest revision",
            lambda: [Sheet.from_json(r.body) for r in host_store.latest_per_sheet(tournament_id)],
            n,
        )
        timed(f"Durchgang {args.rounds}: dashboard", lambda: pages.round(args.rounds), n, base)
        timed(f"Durchgang {args.rounds}, Tisch 1: dispute", lambda: pages.dispute(args.rounds, 1), n, base)
        timed("Wertung", pages.standings, n, base)
        timed("Beamer (no kept standings)", lambda: Pages(app.state.host).beamer(1), n, base)
        timed("Desk.standings() alone", desk.standings, n, base)
        host_store.close()


if __name__ == "__main__":
    main()
