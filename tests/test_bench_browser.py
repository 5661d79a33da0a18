"""bench/browser.py is a measurement, not a test: this only proves it runs, on a tiny size."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .browser import require_chromium

BENCH = Path(__file__).resolve().parent.parent / "bench" / "browser.py"

pytestmark = pytest.mark.browser


def test_bench_browser_runs_with_tiny_numbers() -> None:
    require_chromium()
    done = subprocess.run(
        [sys.executable, str(BENCH), "--actions", "2", "--settle", "0", "--variant", "fps=20"],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "tap 'Neues Blatt'" in done.stdout and "tap 'Watten (Turnier)'" in done.stdout
    assert "as a ratio of the plain run's" in done.stdout
    assert "fps=20" in done.stdout and "1.00x" in done.stdout


def test_bench_browser_measures_page_starts() -> None:
    require_chromium()
    done = subprocess.run([sys.executable, str(BENCH), "--loads", "1"], check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "off the record" in done.stdout and "profile" in done.stdout and "median after the first" in done.stdout
