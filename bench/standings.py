"""A full recompute of the tournament standings from the stored sheets, against just loading them.

    python bench/standings.py [--ruleset schafkopf-turnier|doppelkopf-turnier] [--players 2000] [--rounds 3] [--repeat 5]

2000 players at 500 tables, 3 rounds drawn by ``draw_round``: every table's sheet is written in
full (Schafkopf: a Serie of 32 games, closed and signed by the Listenführer; Doppelkopf: a Runde
of 16 games) as one JSON file in a temporary directory, as the host keeps them. Then, in the
same run and interleaved, (a) reading and parsing every file into a ``Sheet`` and (b) the same
plus ``tournament_standings`` (every sheet scored by its ruleset, the ranking, the notes) are
timed; the medians are printed with (b) as a ratio of (a), like ``bench/app.py`` and
``bench/storage.py``. Target: (b) under one second, the ratio near 1.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import Entry, Score, Sheet
from scoring.draw import RoundDraw, draw_round, sheet_for
from scoring.plan import TournamentPlan, plan_for
from scoring.roster import Entrant, Roster
from scoring.standings import tournament_standings

PLAYERS = ("p1", "p2", "p3", "p4")


def schafkopf_game(rng: random.Random) -> dict[str, Any]:
    """A random valid Schafkopf game: mostly Rufspiele, some Soli and Wenz, won or lost."""
    spieler = rng.choice(PLAYERS)
    gewonnen = rng.random() < 0.6
    stufe = rng.choice(("einfach", "einfach", "einfach", "schneider", "schwarz"))
    kind = rng.random()
    if kind < 0.7:
        partner = rng.choice([p for p in PLAYERS if p != spieler])
        return {"spiel": "rufspiel", "spieler": spieler, "partner": partner, "gewonnen": gewonnen, "stufe": stufe}
    if kind < 0.85:
        return {
            "spiel": "solo",
            "spieler": spieler,
            "farbe": rng.choice(("eichel", "gras", "herz", "schellen")),
            "gewonnen": gewonnen,
            "stufe": stufe,
        }
    return {"spiel": "wenz", "spieler": spieler, "gewonnen": gewonnen, "stufe": stufe}


def doppelkopf_game(rng: random.Random) -> dict[str, Any]:
    """A random valid normal Doppelkopf game at a 4-player table, sometimes with Re announced."""
    re = rng.sample(PLAYERS, 2)
    game: dict[str, Any] = {"re": re, "augen": rng.choice((100, 110, 125, 130, 150, 160, 180))}
    if rng.random() < 0.3:
        game["ansagen"] = {"re": {"ansage": True}}
    return game


def write_sheets(
    plan: TournamentPlan,
    roster: Roster,
    rounds: int,
    folder: Path,
    rng: random.Random,
    arrived: dict[tuple[uuid.UUID, int], Score],
) -> tuple[int, float]:
    """Draw every round and write each table's full sheet; the number of files and the draw time.
    ``arrived`` gets each sheet's score, as the host computes it when the sheet arrives."""
    draws: list[RoundDraw] = []
    draw_time = 0.0
    count = 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        draw = draw_round(plan, roster.active(), draws, number, seed=1000 + number)
        draw_time += time.perf_counter() - start
        draws.append(draw)
        for table in draw.tables:
            sheet = sheet_for(plan, roster, draw, table.table, tournament="Bench-Turnier", written_by="p1")
            entries = []
            if plan.ruleset_id == "schafkopf-turnier":
                entries = [Entry(kind="game", data=schafkopf_game(rng)) for _ in range(plan.options["spiele"])]
                entries.append(Entry(kind="close", data={"signed_by": sheet.participants[0].name}))
            else:
                entries = [Entry(kind="game", data=doppelkopf_game(rng)) for _ in range(16)]
                entries.append(Entry(kind="close", data={"signed_by": "Listenführer", "override": "Bench: ohne Pflichtsoli"}))
            sheet = sheet.model_copy(update={"entries": tuple(entries)})
            arrived[(sheet.id, len(sheet.entries))] = plan.ruleset.score(sheet)
            (folder / f"{sheet.id}.json").write_text(sheet.to_json(), encoding="utf-8")
            count += 1
    return count, draw_time


def load(folder: Path) -> list[Sheet]:
    return [Sheet.from_json(path.read_bytes()) for path in sorted(folder.glob("*.json"))]


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of ``work`` (the CPU time is what other load on the machine leaves alone)."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="schafkopf-turnier", choices=("schafkopf-turnier", "doppelkopf-turnier"))
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    plan = plan_for(args.ruleset, rounds=args.rounds)
    roster = Roster(entrants=tuple(Entrant(start_number=n, name=f"Spieler {n}") for n in range(1, args.players + 1)))
    rng = random.Random(13)
    arrived: dict[tuple[uuid.UUID, int], Score] = {}

    def cached(sheet: Sheet) -> Score:
        """The score the host computed when this revision arrived (scored now if it has none)."""
        score = arrived.get((sheet.id, len(sheet.entries)))
        return score if score is not None else plan.ruleset.score(sheet)

    runs: dict[str, list[tuple[float, float]]] = {"load": [], "full": [], "cached": []}
    with tempfile.TemporaryDirectory(prefix="tischblock-standings-") as tmp:
        folder = Path(tmp)
        count, draw_time = write_sheets(plan, roster, args.rounds, folder, rng, arrived)
        games = sum(len(s.entries) - 1 for s in load(folder))
        for _ in range(args.repeat):
            runs["load"].append(timed(lambda: load(folder)))
            runs["full"].append(timed(lambda: tournament_standings(plan, roster, load(folder))))
            runs["cached"].append(timed(lambda: tournament_standings(plan, roster, load(folder), scorer=cached)))
    wall = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in runs.items()}
    print(f"{plan.game}: {args.players} players, {count} sheets of {args.rounds} rounds, {games} games; median of {args.repeat}")
    print(f"draw of all {args.rounds} rounds: {draw_time:.2f} s")
    print(f"{'':<50} {'wall':>8} {'ratio':>6} | {'CPU':>8} {'ratio':>6}")
    labels = {
        "load": "(a) load and parse the sheets",
        "full": "(b) (a) + standings, every sheet scored again",
        "cached": "(c) (a) + standings, scores kept from arrival",
    }
    for key, label in labels.items():
        print(
            f"{label:<50} {wall[key]:>7.3f}s {wall[key] / wall['load']:>5.2f}x | {cpu[key]:>7.3f}s {cpu[key] / cpu['load']:>5.2f}x"
        )
    print("target: under 1 s, ratio near 1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
