"""Where a command's CPU goes, by kind of process (issue 24): Chromium's GPU process, its renderer, its
browser process, Playwright's driver, the tests' processes (xdist's workers too), the app, the hosts,
the children started by ``multiprocessing`` (a host's check processes, a test's phones), PostgreSQL.

    python bench/cpu_split.py -- python -m pytest -n 0 tests/test_app_schafkopf_e2e.py -k 32_games

Runs the command and reads every process's user and system CPU from ``/proc`` five times a second
until it ends (a process that ended is counted with its last reading, the command itself with all
of its CPU; a process that was there before the command counts only what it used after), then prints
the seconds per kind, their share and how many processes of the kind the command started. It sees
every process on the machine, so it is meant for a machine doing nothing else; what else ran shows
under "other". This is a measurement, not a test.

What the readings cannot see is counted too: a process of the command's tree that ended between two
readings, or after its last one, lost that CPU from its kind (a host's short CLI calls, a test's
check processes). The kernel adds every reaped process's CPU to its parent's (``cutime`` and
``cstime`` in ``/proc/PID/stat``), and so up the tree to the command's, read as a zombie at its end:
what a parent reaped beyond the last readings of its children is a row "ended between two readings",
named after the parent (``Family.unseen``). Beside the split's total it prints the
machine's busy CPU over the run (``/proc/stat``): on a machine doing nothing else the two agree, which
checks the split (a browser test module, 29 Nov: 46.9 s split, 46.7 s the machine's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
PF_KTHREAD = 0x00200000
"""The flag of a kernel thread in ``/proc/PID/stat``. An empty command line is no sign of one: a process
that is exiting has none either, and all of its CPU went to the kernel's row."""


def kind(command: str) -> str:
    """The kind of a process by its command line (Chromium rewrites its children's into one string)."""
    if not command:
        return "the kernel's threads (no command line)"
    program = command.split(" ", 1)[0]
    if "chromium" in program or "chrome" in program:
        for part in command.split(" "):
            if part.startswith("--type="):
                return f"Chromium {part.removeprefix('--type=')}"
        return "Chromium browser process (and a renderer that renamed itself)"
    if program.endswith("node") or ("playwright" in command and "driver" in command):
        return "Playwright's driver (node)"
    if "main.py" in command or ("tischblock" in command and " app" in command):
        return "the app (Flet, Python)"
    # Before the tests: a host or a child started by a test has the test's directory (/tmp/pytest-of-...) in it.
    if "spawn_main" in command or "resource_tracker" in command:
        return "a child by multiprocessing (a host's check process, a test's phone process)"
    if " host" in command and ("tischblock" in command or "cli.py" in command or " -m cli " in command):
        return "a host"
    if "uvicorn" in command:
        return "a host"
    if any("pytest" in word for word in command.split(" ")[:3]) or "exec(eval(sys.stdin.readline()))" in command:
        return "the tests (pytest and its xdist workers, Python)"  # xdist's workers start by execnet's bootstrap
    if "postgres" in program or "postgres:" in command:
        return "PostgreSQL"
    if "python" in program:
        return "other Python (the CLI, benches, helpers)"
    return "other"


def kind_of(stat: list[str], command: str) -> str | None:
    """The kind of a process from its ``/proc/PID/stat`` fields after the name, and its command line;
    ``None`` for one that has ended, or is on its way out with its memory, and so its command line, gone."""
    if int(stat[6]) & PF_KTHREAD:
        return kind("")
    if stat[0] == "Z" or not command:
        return None
    return kind(command)


Key = tuple[int, str]
"""A process: its pid and its start time (a pid is used again)."""


def readings(me: int, family: dict[Key, tuple[int, float]] | None = None) -> dict[Key, tuple[str | None, float]]:
    """Every process now: (pid, start time) -> (kind, CPU seconds so far). The kind is ``None`` for a
    process that has ended and not been reaped yet (a zombie has no command line left): it keeps the
    kind it was last seen with. ``family`` gets each process's parent pid (an orphan's turns 1) and the
    CPU of the children it has reaped, which the kernel adds to it (``cutime``, ``cstime``)."""
    found: dict[Key, tuple[str | None, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").strip().decode(errors="replace")
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that just ended
            continue
        key = (int(entry), fields[19])
        found[key] = (kind_of(fields, command), (int(fields[11]) + int(fields[12])) / TICK)
        if family is not None:
            family[key] = (int(fields[1]), (int(fields[13]) + int(fields[14])) / TICK)
    return found


def update(seen: dict[tuple[int, str], tuple[str, float]], now: dict[tuple[int, str], tuple[str | None, float]]) -> None:
    """``seen`` with the readings ``now``: a process that ended since keeps the kind it was seen with."""
    for key, (name, cpu) in now.items():
        seen[key] = (name if name is not None else seen.get(key, (ENDED_UNSEEN, 0.0))[0], cpu)


ENDED_UNSEEN = "a process that ended before it was first seen"


def unseen_row(kind_of_parent: str) -> str:
    """The row of what ended between two readings, named after the process that started it."""
    return f"ended between two readings, started by: {kind_of_parent}"


@dataclass
class Family:
    """Who started whom, and what each has reaped, over the readings of a run."""

    first: dict[Key, int] = field(default_factory=dict)
    """Each process's parent when first seen (before an orphan is handed to init)."""
    last: dict[Key, tuple[int, float]] = field(default_factory=dict)
    """Its parent and its reaped children's CPU at its last reading."""

    def add(self, now: dict[Key, tuple[int, float]]) -> None:
        self.last.update(now)
        for key, (parent, _) in now.items():
            self.first.setdefault(key, parent)

    def tree(self, root: Key) -> dict[Key, list[Key]]:
        """``root`` and the processes it started, and theirs (by the parent each had when first seen):
        each with the processes it started."""
        started_by: dict[int, list[Key]] = {}
        for key, parent in self.first.items():
            started_by.setdefault(parent, []).append(key)
        children: dict[Key, list[Key]] = {root: []}
        todo = [root]
        while todo:
            parent = todo.pop()
            for key in started_by.get(parent[0], []):
                if key not in children and int(key[1]) >= int(parent[1]):
                    children[parent].append(key)
                    children[key] = []
                    todo.append(key)
        return children

    def unseen(self, root: Key, seen: dict[Key, tuple[str, float]], present: set[Key], before: dict[Key, float]) -> Counter[str]:
        """CPU of the command's processes that no reading saw, by the kind of the process that started
        them: what the kernel added to each process of the tree for its reaped children, less the last
        readings of the children reaped there (a process still running or not yet reaped at the end,
        ``present``, or orphaned, is in neither).

        A process that ended reaped some children after its last reading: its count of them is short by
        what those children were seen with, and its parent's count has it all. That shortfall is taken
        from the parent's (children first, up the tree); without it those children counted twice (the
        whole suite, 29 Nov 21:46: 1652.7 s split against 1553.6 s the machine used). So every second the
        tree used is counted once, from the command's own count at its end."""
        children = self.tree(root)
        lost: Counter[str] = Counter()

        def short(process: Key) -> float:
            """What ``process``'s count of its reaped children lacks (0 or less); its own rows added on the way."""
            shorts = {child: short(child) for child in children[process]}  # also below one still running or orphaned
            reaped_here = [child for child in children[process] if child not in present and self.last[child][0] == process[0]]
            shortfall = sum(shorts[child] for child in reaped_here)
            counted = sum(seen[child][1] + self.last[child][1] for child in reaped_here)
            unseen_here = self.last[process][1] - before.get(process, 0.0) - counted + shortfall
            if unseen_here >= 0:
                if unseen_here >= 0.005:
                    lost[unseen_row(seen[process][0])] += unseen_here
                return 0.0
            return unseen_here

        short(root)
        return lost


def machine_cpu() -> float:
    """The machine's CPU seconds so far, all cores, busy only (``/proc/stat``: user, nice, system, irq and
    softirq; not idle, iowait or what the hypervisor took): what the split's total can be checked against."""
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in Path("/proc/stat").read_text().split()[1:8])
    return (user + nice + system + irq + softirq) / TICK


def ended(pid: int) -> bool:
    """Whether the child ``pid`` has ended, without reaping it: until it is reaped its CPU can still be
    read. ``Popen.poll`` reaped the command between two readings, and up to 0.2 s of its last CPU
    went uncounted (``test_bench_cpu_split`` counted 0.3 s of a child's 0.5 s, 29 Nov)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def processes(count: int) -> str:
    """How many processes of a kind the command started, itself and its tree, as the readings saw them
    (one that lived between two readings is not among them: its CPU is in an "ended between two readings"
    row). What else started on the machine is not counted: its CPU is, but a count of processes that
    are not the command's said nothing about it (the CI run of 7 Dec counted 3 of the test's 1, started
    by the tests beside it)."""
    if count == 0:
        return ""
    return f" ({count} process{'es' if count != 1 else ''} started)"


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print(__doc__)
        return 2
    me = os.getpid()
    before: dict[Key, tuple[str, float]] = {}
    reaped_before: dict[Key, tuple[int, float]] = {}
    update(before, readings(me, reaped_before))
    seen = dict(before)
    family = Family()
    started, machine_before = time.monotonic(), machine_cpu()
    process = subprocess.Popen(args)
    while True:
        now: dict[Key, tuple[int, float]] = {}
        done = ended(process.pid)
        update(seen, readings(me, now))  # at the end, the command as a zombie: all of its CPU and its tree's
        family.add(now)
        if done:
            break
        time.sleep(0.2)
    (root,) = [key for key in now if key[0] == process.pid]
    process.wait()
    wall, machine = time.monotonic() - started, machine_cpu() - machine_before
    totals: Counter[str] = Counter()
    started_here: Counter[str] = Counter()
    ours = family.tree(root)
    for key, (name, cpu) in seen.items():
        totals[name] += cpu - (before[key][1] if key in before else 0.0)
        if key in ours:
            started_here[name] += 1
    totals += family.unseen(root, seen, set(now), {key: reaped for key, (_, reaped) in reaped_before.items()})
    everything = sum(totals.values())
    print(f"wall {wall:.1f} s, CPU {everything:.1f} s on {os.cpu_count()} cores (load average now {os.getloadavg()[0]:.2f})")
    print(f"  the machine's CPU over the run (/proc/stat, everything but idle and waiting for disks): {machine:.1f} s")
    for name, cpu in totals.most_common():
        if cpu >= 0.05:
            print(f"  {cpu:7.1f} s  {100 * cpu / everything:5.1f} %  {name}{processes(started_here[name])}")
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
