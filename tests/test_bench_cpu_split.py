"""bench/cpu_split.py is a measurement, not a test: this only proves it runs and counts a child's CPU."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "cpu_split.py"
BURN = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass\nraise SystemExit(3)"


def test_cpu_split_counts_the_commands_cpu_and_passes_its_exit_code_on() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--", sys.executable, "-c", BURN], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("wall "), done.stdout
    other = re.search(r"([\d.]+) s +[\d.]+ % +other", done.stdout)
    assert other and float(other.group(1)) >= 0.4, done.stdout
