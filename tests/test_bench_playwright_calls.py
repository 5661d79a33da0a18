"""bench/plugins/playwright_calls.py is a measurement, not a test: this only proves it counts calls by their
caller and adds up what each process wrote."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import bench_script

BENCH = Path(__file__).resolve().parent.parent / "bench" / "plugins" / "playwright_calls.py"


def _bench() -> Any:
    return bench_script("plugins/playwright_calls")


def test_calls_are_counted_by_the_helper_that_made_them() -> None:
    bench = _bench()
    evaluate = bench._counted("Page", "evaluate", len)

    def body_text() -> int:
        return int(evaluate("document.body.innerText"))

    assert body_text() == len("document.body.innerText") and body_text() > 0
    assert bench.calls == {"Page.evaluate <- body_text": 2}
    assert set(bench.spent) == {"Page.evaluate <- body_text"}


def test_the_script_adds_up_each_processs_counts(tmp_path: Path) -> None:
    for pid, (calls, cpu) in {
        1: ({"Page.evaluate <- body_text": 3}, 2.0),
        2: ({"Page.evaluate <- body_text": 4, "Touchscreen.tap <- finger": 1}, 3.0),
    }.items():
        report = {"process_cpu": cpu, "calls": calls, "spent": {key: 0.25 for key in calls}}
        (tmp_path / f"calls-{pid}.json").write_text(json.dumps(report), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(BENCH)],
        env={"TISCHBLOCK_PLAYWRIGHT_CALLS": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "2 processes, 8 calls, 0.8 s of CPU in them of 5.0 s the processes used in all", done.stdout
    assert lines[1].split() == ["7", "0.50", "s", "Page.evaluate", "<-", "body_text"], done.stdout
