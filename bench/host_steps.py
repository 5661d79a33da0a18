"""What the host does with each arriving sheet in pure Python, step by step, on the host bench's own sheets.

    python bench/host.py --per-sheet [--instructions] [--tables N]   (runs this module's ``per_sheet``)

The steps a check process runs for a sheet (``sync/host/check_work.py``): parsing the body
(``parse_json_body``), the ruleset's check (``score_sheet``), the comparison's tally, the stored form
(canonical JSON, SHA-256), and all of them together (``check_sheet``): what the host cannot do with
less. Timed in CPU, the fastest of 5 passes, and with ``--instructions`` counted in instructions
(valgrind's callgrind, ``bench/instructions.py``), which are the same on every run. This module
imports neither the web framework nor the database, as a check process does not, so a run under
valgrind starts in seconds. This is a measurement, not a test.
"""

from __future__ import annotations

import gc
import random
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import instructions  # noqa: E402  (bench/, beside this script)


def sheet_pairs(tournament: str, tables: int, round_no: int, rng: random.Random) -> list[tuple[Any, Any]]:
    """Per table two distinct signed sheets of the same Durchgang: team A's and team B's, each with a
    new id drawn from ``rng`` (the same sheets, byte for byte, for the same ``rng``)."""
    from tests.sync_helpers import watten_sheet, watten_teams

    seeds = [rng.randrange(1 << 30) for _ in range(8)]
    templates = [
        (
            watten_sheet(random.Random(seed), tournament=tournament, table=1, written_by="A"),
            watten_sheet(random.Random(seed), tournament=tournament, table=1, written_by="B"),
        )
        for seed in seeds
    ]
    pairs = []
    for table in range(1, tables + 1):
        pair = []
        for template in templates[table % len(templates)]:
            context = template.context.model_copy(update={"table": table, "round": round_no})
            pair.append(
                template.model_copy(
                    update={
                        "id": uuid.UUID(int=rng.getrandbits(128), version=4),
                        "context": context,
                        "participants": watten_teams(table),
                    }
                )
            )
        pairs.append((pair[0], pair[1]))
    return pairs


STEPS = ("parse (parse_json_body)", "score (score_sheet)", "tally", "stored form", "all (check_sheet)")


def per_sheet_steps(tables: int) -> list[tuple[Callable[[Any], object], list[Any]]]:
    """Per step of ``STEPS`` the step and the items it takes, for the sheets of ``tables`` tables."""
    from scoring import Sheet, score_sheet
    from scoring.compare import tally
    from sync.host.bodies import parse_json_body
    from sync.host.check_work import check_sheet
    from sync.protocol import body_sha256

    sheets = [sheet for pair in sheet_pairs("bench", tables, 1, random.Random(2026)) for sheet in pair]
    bodies = [sheet.to_json().encode("utf-8") for sheet in sheets]
    scored = [(sheet, score_sheet(sheet)) for sheet in sheets]
    return [
        (lambda body: parse_json_body(Sheet, body, "application/json"), bodies),
        (score_sheet, sheets),
        (lambda pair: tally(*pair), scored),
        (lambda sheet: body_sha256(sheet.to_json().encode("utf-8")), sheets),
        (lambda body: check_sheet(body, "application/json"), bodies),
    ]


def per_sheet(tables: int) -> None:
    """CPU per sheet of each step, the fastest of 5 passes."""
    for name, (step, items) in zip(STEPS, per_sheet_steps(tables), strict=True):
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for item in items:
                step(item)
            best = min(best, (time.process_time() - start) / len(items) * 1000)
        print(f"  {name:24s} {best:5.2f} ms of CPU per sheet ({len(items)} sheets, fastest of 5)")


def count_per_sheet(tables: int) -> None:
    """(The child ``per_sheet_instructions`` runs under callgrind.) Each step once on a few sheets (lazy
    set-ups, caches), then on all of them between two marks, after a full garbage collection."""
    steps = per_sheet_steps(tables)
    for step, items in steps:
        for item in items[:4]:
            step(item)
    for step, items in steps:
        gc.collect()
        instructions.mark()
        for item in items:
            step(item)
        instructions.mark()


def per_sheet_instructions(tables: int) -> None:
    """Instructions per sheet of each step (valgrind's callgrind): the same on every run, whatever else runs."""
    totals = instructions.counted([sys.executable, __file__, str(tables)])
    for name, count in zip(STEPS, instructions.measured(totals, len(STEPS)), strict=True):
        print(f"  {name:24s} {count / (2 * tables) / 1000:7.0f} thousand instructions per sheet ({2 * tables} sheets, callgrind)")


if __name__ == "__main__":  # the child of ``per_sheet_instructions``
    count_per_sheet(int(sys.argv[1]))
