"""bench/app.py is a measurement, not a test: this only proves it runs, on a tiny size."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "app.py"
TINY = ("--statistics-samples", "1", "--profile", "--per-ruleset", "--rounds", "1", "--texts", "0.5")


def test_bench_app_runs_with_tiny_numbers() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--samples", "1", "--only", "watten-turnier", "--sheets", "6", *TINY],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "6 Blätter, aus dem Nichts" in done.stdout
    assert "the rulesets' handlers" in done.stdout
    assert "doppelkopf-haus" in done.stdout and "im Mittel" in done.stdout
    assert "in building texts" in done.stdout and "the engine around them" in done.stdout
    assert "with no text built" in done.stdout


def test_bench_app_counts_a_game_and_the_statistics_in_instructions() -> None:
    """One child under callgrind counts both: a Watten game saved and shown, first and last, and the
    statistics' parts over 6 sheets."""
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            *("--only", "watten-turnier", "--samples", "1"),
            *("--sheets", "6", "--statistics-samples", "1", "--instructions"),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Statistik über (Instruktionen, callgrind)" in done.stdout, done.stdout
    for part in (" lesen und werten, sonst nichts", ", aus dem Nichts", ", nach der Startseite"):
        assert re.search(rf"6 Blätter{part} +\d+ Mi +\d+ Mi +[+-]\d+\.\d%", done.stdout), (part, done.stdout)
    assert "Ein Spiel in Instruktionen" in done.stdout, done.stdout
    games = re.findall(r"^Watten, Durchgang +(\d+) Tsd +(\d+) Tsd +(\d+\.\d\d)x$", done.stdout, re.MULTILINE)
    assert len(games) == 2, done.stdout  # from the saved entry, and with the save before it
    (shown_first, shown_last, _), (tapped_first, tapped_last, _) = games
    assert int(tapped_first) > int(shown_first) > 0 and int(tapped_last) > int(shown_last) > 0, games
