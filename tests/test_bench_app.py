"""bench/app.py is a measurement, not a test: this only proves it runs, on a tiny size."""

from __future__ import annotations

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
