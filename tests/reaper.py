"""Ends what a test process leaves running when it dies without its ``finally`` blocks.

pytest-timeout ends a hung test's process with ``os._exit(1)`` (``timeout_method = "thread"``), and the
kernel's OOM killer or a ``kill -9`` end it with SIGKILL: neither runs a test's ``finally`` or a
fixture's end, so the hosts, apps, phone processes, Chromium and the session's PostgreSQL server it
started ran on, holding ports, memory and CPU beside the rest of the run.

Every process the tests start inherits its environment, so each test process (a run's own, each xdist
worker) marks its environment with a name of its own (``MARK``), and starts a reaper: a small Python
process of its own session that waits on a pipe only the test process holds. A test process that ends
normally says so into the pipe (``stop``, from ``pytest_unconfigure``) and the reaper leaves; a pipe
that closes without that means the test process died, and the reaper ends every process that carries
its mark (SIGTERM, then SIGKILL for what is still there after ``GRACE_S``). A run stopped with SIGTERM
ends normally (``conftest.pytest_configure``): its own ``finally`` blocks stop what it started.

Standard library only: the reaper runs as ``python tests/reaper.py MARK``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

MARK = "TISCHBLOCK_TEST_PROCESS"
"""The environment variable naming the test process whose child (or grandchild) a process is."""

GRACE_S = 10.0
"""How long the processes of a dead test process get to end on SIGTERM before they get SIGKILL."""

NORMAL_END = b"normal end"

_pipe: list[int] = []
"""The write end of this process's pipe to its reaper, while it has one."""


def start() -> str:
    """Mark this process's environment and start its reaper; returns the mark. Once per process."""
    if _pipe:
        return os.environ[MARK]
    mark = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
    read, write = os.pipe()  # neither end is inherited by the processes the tests start (O_CLOEXEC)
    env = {name: value for name, value in os.environ.items() if name != MARK}
    subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), mark],
        stdin=read,
        stdout=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # a Ctrl-C to the terminal's process group does not end it first
    )
    os.close(read)
    os.environ[MARK] = mark
    _pipe.append(write)
    return mark


def stop() -> None:
    """This process ends normally: its reaper leaves without ending anything."""
    if not _pipe:
        return
    write = _pipe.pop()
    try:
        os.write(write, NORMAL_END)
    finally:
        os.close(write)


def marked(mark: str, variable: str = MARK) -> dict[int, str]:
    """The processes (pid: command line) whose environment holds ``variable=mark``."""
    found = {}
    needle = f"{variable}={mark}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if needle in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                found[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile, or not ours to read
            pass
    return found


def reap(mark: str) -> list[str]:
    """End every process carrying ``mark``: SIGTERM, then SIGKILL after ``GRACE_S``; again for what they
    started meanwhile. Returns the command lines it ended."""
    ended: list[str] = []
    for _ in range(5):
        left = marked(mark)
        if not left:
            break
        ended += left.values()
        _signal(left, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline and set(left) & set(marked(mark)):
            time.sleep(0.1)
        _signal(marked(mark), signal.SIGKILL)
    return ended


def _signal(processes: dict[int, str], signum: int) -> None:
    for pid in processes:
        try:
            os.kill(pid, signum)
        except OSError:  # ended meanwhile
            pass


def main(mark: str) -> None:
    said = sys.stdin.buffer.read()  # until the test process closes the pipe, or dies
    if said == NORMAL_END:
        return
    ended = reap(mark)
    if ended:
        try:
            print(f"tests/reaper.py: the test process {mark} died; ended {len(ended)} of its processes", file=sys.stderr)
        except OSError:  # nobody reads the dead process's output any more
            pass


if __name__ == "__main__":
    main(sys.argv[1])
