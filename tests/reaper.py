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

A process the test process forks without exec (the storage kill tests' writers) does not carry the
mark: ``/proc/PID/environ`` is the environment its parent was started with, before the mark was set.
And it would hold the pipe open, so the reaper would not wake until it ended too. So each such child
says its pid and start time into the pipe and closes its end right after the fork
(``os.register_at_fork``); the reaper ends those still running, the same child by its start time, as
it ends the marked ones.

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

FORKED = b"fork"
"""A line ``fork PID START`` in the pipe: a child forked without exec, and its start time."""

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
    os.register_at_fork(after_in_child=_forked)
    return mark


def _forked() -> None:
    """In a child just forked: tell the reaper who it is, and let go of the pipe (the parent holds it)."""
    if not _pipe:
        return
    write = _pipe.pop()
    try:
        pid = os.getpid()
        os.write(write, b"%s %d %d\n" % (FORKED, pid, start_time(pid)))
    except (OSError, ValueError):  # the reaper is gone, or the child's /proc entry cannot be read
        pass
    finally:
        os.close(write)


def start_time(pid: int) -> int:
    """When ``pid`` started, in clock ticks since boot (``/proc/PID/stat``'s 22nd field): a pid used
    again by another process has another start time. ``ValueError`` for a process that has ended (a
    zombie, whose parent has not reaped it yet)."""
    stat = Path(f"/proc/{pid}/stat").read_bytes()
    fields = stat[stat.rindex(b")") + 2 :].split()
    if fields[0] in (b"Z", b"X"):
        raise ValueError(f"process {pid} has ended")
    return int(fields[19])


def stop() -> None:
    """This process ends normally: its reaper leaves without ending anything."""
    if not _pipe:
        return
    write = _pipe.pop()
    try:
        os.write(write, b"\n" + NORMAL_END + b"\n")  # a line of its own: a child forked now may write after it
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


def forked_alive(forks: dict[int, int]) -> dict[int, str]:
    """Of the children forked without exec (pid: start time), those still running (pid: command line)."""
    found = {}
    for pid, started in forks.items():
        try:
            if start_time(pid) == started:
                found[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):  # ended meanwhile
            pass
    return found


def reap(mark: str, forks: dict[int, int] | None = None) -> list[str]:
    """End every process carrying ``mark`` and every child of ``forks`` (pid: start time) still running:
    SIGTERM, then SIGKILL after ``GRACE_S``; again for what they started meanwhile. Returns the command
    lines it ended."""
    forks = forks or {}

    def left_now() -> dict[int, str]:
        return {**marked(mark), **forked_alive(forks)}

    ended: dict[int, str] = {}
    for _ in range(5):
        left = left_now()
        if not left:
            break
        ended.update(left)
        _signal(left, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline and set(left) & set(left_now()):
            time.sleep(0.1)
        _signal(left_now(), signal.SIGKILL)
    return list(ended.values())


def _signal(processes: dict[int, str], signum: int) -> None:
    for pid in processes:
        try:
            os.kill(pid, signum)
        except OSError:  # ended meanwhile
            pass


def forks_said(said: bytes) -> dict[int, int]:
    """The children forked without exec that the pipe named (pid: start time)."""
    forks = {}
    for line in said.split(b"\n"):
        words = line.split()
        if len(words) == 3 and words[0] == FORKED and words[1].isdigit() and words[2].isdigit():
            forks[int(words[1])] = int(words[2])
    return forks


def main(mark: str) -> None:
    said = sys.stdin.buffer.read()  # until the test process closes the pipe, or dies
    if NORMAL_END in said.split(b"\n"):
        return
    ended = reap(mark, forks_said(said))
    if ended:
        try:
            print(f"tests/reaper.py: the test process {mark} died; ended {len(ended)} of its processes", file=sys.stderr)
        except OSError:  # nobody reads the dead process's output any more
            pass


if __name__ == "__main__":
    main(sys.argv[1])
