"""bench/browser.py is a measurement, not a test: this only proves it runs, on a tiny size."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .browser import require_chromium

BENCH = Path(__file__).resolve().parent.parent / "bench" / "browser.py"

pytestmark = pytest.mark.browser


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The bench with ``args``, its temporary files in a folder of their own; it leaves none of its own there.

    A short folder under the system's: Chromium's socket path in a pytest ``tmp_path`` is too long."""
    with tempfile.TemporaryDirectory(prefix="tb-") as folder:
        env = {**os.environ, "TMPDIR": folder}
        done = subprocess.run(
            [sys.executable, str(BENCH), *args], check=False, capture_output=True, text=True, timeout=600, env=env
        )
        assert not [p.name for p in Path(folder).iterdir() if p.name.startswith("tischblock-bench-")]
    return done


def test_bench_browser_runs_with_tiny_numbers() -> None:
    require_chromium()
    done = _run("--actions", "2", "--settle", "0", "--variant", "fps=20")
    assert done.returncode == 0, done.stderr
    assert "tap 'Neues Blatt'" in done.stdout and "tap 'Watten (Turnier)'" in done.stdout
    # a screen change draws frames: the count saw none while the tests' own frame pacing replaced the
    # function it wrapped (28 Nov to 7 Dec)
    counted = re.search(r"tap 'Neues Blatt' +(\d+) frames", done.stdout)
    assert counted and int(counted.group(1)) > 0, done.stdout
    assert "as a ratio of the plain run's" in done.stdout
    assert "fps=20" in done.stdout and "1.00x" in done.stdout


def test_bench_browser_measures_page_starts() -> None:
    require_chromium()
    done = _run("--loads", "1")
    assert done.returncode == 0, done.stderr
    assert "off the record" in done.stdout and "profile" in done.stdout and "median after the first" in done.stdout
