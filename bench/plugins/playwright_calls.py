"""What the browser tests ask Playwright, and what that costs the tests' own process (issue 24).

    PYTHONPATH=$PWD/bench/plugins ./dev test -m browser -p playwright_calls
    python bench/plugins/playwright_calls.py

As a pytest plugin (``-p playwright_calls``, with ``bench/plugins`` on the path: not ``bench``, whose
``storage.py`` and ``host.py`` would stand in for the packages of those names in every process the
tests start) it counts every call the tests
make to Playwright's page, locator, mouse and touchscreen by the helper that made it (the first caller
outside Playwright), and the CPU time of the calling process inside each; at the end each process
(every xdist worker) writes its counts to ``TISCHBLOCK_PLAYWRIGHT_CALLS`` (a directory, default
``/tmp/tischblock-playwright-calls``). Run as a script it adds up the files there and prints the
largest rows, the calls' CPU against the processes' own. This is a measurement, not a test.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(os.environ.get("TISCHBLOCK_PLAYWRIGHT_CALLS") or Path(tempfile.gettempdir()) / "tischblock-playwright-calls")

WATCHED = {
    "Page": ("evaluate", "wait_for_timeout", "screenshot", "goto", "wait_for_selector", "set_viewport_size"),
    "Locator": ("evaluate", "wait_for", "count", "fill", "click", "press", "inner_text", "bounding_box"),
    "Mouse": ("wheel", "move", "click"),
    "Touchscreen": ("tap",),
}

PACKAGE = f"{os.sep}playwright{os.sep}"
"""Where a frame of Playwright's own code is (its package's directory)."""

calls: Counter[str] = Counter()
spent: Counter[str] = Counter()


def _counted(owner: str, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        frame = sys._getframe(1)
        while frame is not None and PACKAGE in frame.f_code.co_filename:  # Playwright's own frames
            frame = frame.f_back
        key = f"{owner}.{name} <- {frame.f_code.co_name if frame is not None else '?'}"
        started = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            calls[key] += 1
            spent[key] += time.process_time() - started

    return counted


def _write() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    report = {"process_cpu": time.process_time(), "calls": dict(calls), "spent": dict(spent)}
    (OUT / f"calls-{os.getpid()}.json").write_text(json.dumps(report), encoding="utf-8")


def pytest_configure(config: Any) -> None:
    """Wrap the watched methods (once per process) and write the counts at its end; the run's first
    process (xdist's controller, or the only one) clears the last run's counts."""
    from playwright.sync_api import _generated

    if not hasattr(config, "workerinput"):
        for old in OUT.glob("calls-*.json"):
            old.unlink()

    for owner, names in WATCHED.items():
        cls = getattr(_generated, owner)
        for name in names:
            setattr(cls, name, _counted(owner, name, getattr(cls, name)))
    atexit.register(_write)


def main() -> None:
    total_calls: Counter[str] = Counter()
    total_spent: Counter[str] = Counter()
    processes = 0.0
    files = sorted(OUT.glob("calls-*.json"))
    for path in files:
        report = json.loads(path.read_text(encoding="utf-8"))
        total_calls.update(report["calls"])
        total_spent.update(report["spent"])
        processes += report["process_cpu"]
    print(
        f"{len(files)} processes, {sum(total_calls.values())} calls, {sum(total_spent.values()):.1f} s of CPU in them "
        f"of {processes:.1f} s the processes used in all"
    )
    for key, count in total_calls.most_common(25):
        print(f"  {count:7d} {total_spent[key]:7.2f} s  {key}")


if __name__ == "__main__":
    main()
