"""``tischblock host`` with a clock on each phase of taking a sheet: ``bench/host.py --phases`` runs the host through this.

    python bench/host_phases.py CLI-ARGS...   (as ``python cli.py CLI-ARGS...``)

Each phase's CPU time is measured in the thread that runs it (``time.thread_time``), so a thread
that waits (for the interpreter lock, the disk, the group commit) is not charged for the wait and no
sampling decides where a thread was. The phases, per arriving sheet:

- **parse**: the body as a ``Sheet`` (``parse_json_body``);
- **ruleset check**: ``score_sheet``, the ruleset replaying the whole log;
- **tally**: what the comparison keeps of the sheet (``scoring/compare.py``);
- **stored form**: the canonical JSON and its SHA-256;
- **commit (writer thread)**: the group commit's transactions, per sheet;
- **comparison**: the comparison with the table's other sheet (``Desk.comparison``);
- **event loop**: uvicorn's thread, the comparison aside: HTTP (or TLS), routing, and what the host
  does with a tables-only phone's sheet there (``KnownDeviceSubmit``): handing it to its check and
  to the group commit, the device, table and writer checks, the log line and the answer's JSON.

Sheets are checked in the host's own process here (``--check-processes 0``): in a worker process
the same parse, check, tally and stored form run, where this clock cannot see them. At the host's
end (SIGTERM) the table is printed per sheet; ``bench/host.py`` prints it with its figures.
"""

from __future__ import annotations

import atexit
import os
import runpy
import signal
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.model import Sheet  # noqa: E402
from sync.host import check_work, desk, phone_api, store  # noqa: E402

spent: defaultdict[str, float] = defaultdict(float)
sheets = [0]
lock = threading.Lock()


spent_in_loop: defaultdict[str, float] = defaultdict(float)
"""What of ``spent`` the event loop's thread (the main thread) spent: its own row leaves it out."""


def clocked(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, adding the calling thread's CPU time for it to phase ``name``."""

    def run(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            used = time.thread_time() - began
            with lock:
                spent[name] += used
                if threading.current_thread() is threading.main_thread():
                    spent_in_loop[name] += used

    return run


def event_loop_seconds() -> float:
    fields = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report() -> None:
    count = sheets[0]
    if not count:
        return
    names = ("parse", "ruleset check", "tally", "stored form", "comparison", "commit (writer thread)")
    rows = [(name, spent[name]) for name in names]
    in_loop = event_loop_seconds() - loop_at_start[0] - spent_in_loop["comparison"]
    rows.append(("event loop (HTTP, routing, the checks of device and table, the answer)", in_loop))
    total = sum(seconds for _, seconds in rows)
    print(f"PHASES {count} sheets taken, CPU per sheet by phase (thread CPU time):", flush=True)
    for name, seconds in rows:
        print(f"PHASES   {seconds / count * 1000:6.3f} ms  {seconds / total:6.1%}  {name}", flush=True)
    print(f"PHASES   {total / count * 1000:6.3f} ms  100.0%  in all", flush=True)


def count_sheet() -> None:
    with lock:
        if sheets[0] == 0:  # the event loop's CPU from the first sheet on (not the phones' joins)
            loop_at_start[0] = event_loop_seconds()
        sheets[0] += 1


def counted(take: Callable[..., Any]) -> Callable[..., Any]:
    """``take_sheet`` (a worker thread's way: a phone with a Startnummer), counting each sheet."""

    def run(*args: Any) -> Any:
        count_sheet()
        return take(*args)

    return run


def counted_in_loop(take: Callable[..., Any]) -> Callable[..., Any]:
    """``take_in_loop`` (the loop's way: the bench's tables-only phones), counting each sheet."""

    async def run(*args: Any) -> Any:
        count_sheet()
        return await take(*args)

    return run


check_work.parse_json_body = clocked("parse", check_work.parse_json_body)
check_work.score_sheet = clocked("ruleset check", check_work.score_sheet)
check_work.tally = clocked("tally", check_work.tally)
check_work.body_sha256 = clocked("stored form", check_work.body_sha256)
Sheet.to_json = clocked("stored form", Sheet.to_json)  # type: ignore[method-assign]
store._GroupCommit._commit = clocked("commit (writer thread)", store._GroupCommit._commit)  # type: ignore[method-assign]
desk.Desk.comparison = clocked("comparison", desk.Desk.comparison)  # type: ignore[method-assign]
_init = phone_api.KnownDeviceSubmit.__init__


def _counted_init(
    self: phone_api.KnownDeviceSubmit, state: Any, route: Any, take: Callable[..., Any], take_in_loop: Callable[..., Any]
) -> None:
    _init(self, state, route, counted(take), counted_in_loop(take_in_loop))


phone_api.KnownDeviceSubmit.__init__ = _counted_init  # type: ignore[method-assign]
loop_at_start = [0.0]

if __name__ == "__main__":
    atexit.register(report)
    # uvicorn ends on SIGTERM by raising it again once it has shut down (the default action: no
    # atexit); this handler, which uvicorn restores before that, ends the process with the report.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.argv = [str(ROOT / "cli.py"), *sys.argv[1:], "--check-processes", "0"]
    runpy.run_path(str(ROOT / "cli.py"), run_name="__main__")
