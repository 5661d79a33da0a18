"""bench/cpu_split.py is a measurement, not a test: this only proves it runs and counts a child's CPU."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import bench_script

BENCH = Path(__file__).resolve().parent.parent / "bench" / "cpu_split.py"
OTHER_PYTHON = re.compile(r"([\d.]+) s +[\d.]+ % +other Python.*\((\d+) process(?:es)? started\)")
"""The split's row of other Python processes: its seconds and how many the command started."""
BURN = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass\nraise SystemExit(3)"


def test_cpu_split_counts_the_commands_cpu_and_passes_its_exit_code_on() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--", sys.executable, "-c", BURN], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("wall "), done.stdout
    other = OTHER_PYTHON.search(done.stdout)
    # all of the child's 0.5 s: read as a zombie before it is reaped (it counted 0.3 to 0.45 s before that)
    assert other and float(other.group(1)) >= 0.5, done.stdout
    assert other.group(2) == "1", done.stdout  # the command, the one process of its kind


STARTER = (
    "import subprocess, sys, time\n"
    "while True:\n"
    "    subprocess.run([sys.executable, '-c', 'import time; time.sleep(0.5)'], check=True)\n"
)


def test_cpu_split_counts_only_the_processes_the_command_started() -> None:
    """Python processes started beside the command, outside its tree, while it runs: the CI run of 7 Dec
    (xdist's other workers starting CLIs) counted 3 where the command had started 1."""
    beside = subprocess.Popen([sys.executable, "-c", STARTER])
    try:
        wait = "import time\nend = time.monotonic() + 2\nwhile time.monotonic() < end: time.sleep(0.05)"
        done = subprocess.run(
            [sys.executable, str(BENCH), "--", sys.executable, "-c", wait], check=False, capture_output=True, text=True, timeout=120
        )
    finally:
        beside.kill()
        beside.wait()
    assert done.returncode == 0, done.stderr
    other = OTHER_PYTHON.search(done.stdout)
    assert other and other.group(2) == "1", done.stdout  # the command; the dozen beside it are not its own


SHORT_LIVED = (
    "import subprocess, sys\n"
    "burn = 'import time\\nend = time.process_time() + 0.05\\nwhile time.process_time() < end: pass'\n"
    "for _ in range(20):\n"
    "    subprocess.run([sys.executable, '-c', burn], check=True)\n"
)


def test_cpu_split_counts_processes_that_end_between_two_readings() -> None:
    """Twenty children of 0.05 s of CPU each, each gone within a reading's 0.2 s: the readings saw
    about a third of their CPU (0.6 s of 2.6 s for such a tree, 29 Nov). What the kernel added to their
    parent for them is counted now, under the kind of the process that started them."""
    done = subprocess.run(
        [sys.executable, str(BENCH), "--", sys.executable, "-c", SHORT_LIVED],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    total = re.search(r"CPU ([\d.]+) s on", done.stdout)
    assert total and float(total.group(1)) >= 20 * 0.05, done.stdout
    assert "ended between two readings, started by: other Python" in done.stdout, done.stdout


def test_what_no_reading_saw_is_what_the_parent_reaped_beyond_its_childrens_last_readings() -> None:
    bench = _bench()
    root, child, running, orphan = (10, "100"), (11, "101"), (12, "102"), (13, "103")
    grandchild = (20, "105")
    family = bench.Family()
    family.add({root: (1, 0.0), child: (10, 0.0), running: (10, 0.0), orphan: (10, 0.0), grandchild: (11, 0.0)})
    # the command's end: the child reaped (seen with 0.3 s of its own and its own child's 0.1 s, of which 0.04 s
    # were seen), the orphan handed to init, one child still running
    family.add({root: (1, 1.0), running: (10, 0.0), orphan: (1, 0.0)})
    seen = {
        root: ("other", 0.1),
        child: ("a host", 0.3),
        running: ("PostgreSQL", 0.2),
        orphan: ("other", 0.4),
        grandchild: ("other Python (the CLI, benches, helpers)", 0.04),
    }
    family.last[child] = (10, 0.1)  # its last reading saw it had reaped its own child's 0.1 s
    lost = family.unseen(root, seen, {root, running, orphan}, {})
    # the root reaped 1.0 s; the child seen with 0.3 s and 0.1 s reaped: 0.6 s of the root's children unseen.
    # The child reaped 0.1 s, its own child seen with 0.04 s: 0.06 s more.
    assert lost == {bench.unseen_row("other"): pytest.approx(0.6), bench.unseen_row("a host"): pytest.approx(0.06)}


def _bench() -> Any:
    return bench_script("cpu_split")


def test_cpu_split_names_the_suites_processes() -> None:
    """The suite's processes by their command lines: nothing the suite starts is left as "other"."""
    bench = _bench()
    python = "/work/main/.venv/bin/python"
    assert bench.kind(f"{python} -u -c import sys;exec(eval(sys.stdin.readline()))").startswith("the tests")
    assert bench.kind(f"{python} -m pytest -n 2 --dist loadfile").startswith("the tests")
    assert bench.kind(f"{python} /work/main/cli.py --data-dir /tmp/d host --host 127.0.0.1 --port 1") == "a host"
    in_a_test = "/tmp/pytest-of-root/pytest-7/popen-gw1/test_x0"
    assert bench.kind(f"{python} /work/main/cli.py --data-dir {in_a_test}/host host --host 127.0.0.1") == "a host"
    assert bench.kind(f"{python} /work/main/cli.py --data-dir {in_a_test}/d score x.json").startswith("other Python")
    assert bench.kind(f"{python} -m cli host --data-dir /tmp/d --host 127.0.0.1") == "a host"
    assert bench.kind(f"{python} /work/main/.venv/bin/tischblock host --data-dir d") == "a host"
    spawned = f"{python} -c from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=12, pipe_handle=16) --multiprocessing-fork"
    assert bench.kind(spawned).startswith("a child by multiprocessing")
    assert bench.kind(f"{python} /work/main/main.py") == "the app (Flet, Python)"
    assert bench.kind("/usr/lib/chromium/chromium --type=gpu-process --headless") == "Chromium gpu-process"
    assert bench.kind("/usr/lib/postgresql/15/bin/postgres -D /tmp/pg") == "PostgreSQL"
    assert bench.kind(f"{python} /work/main/cli.py score sheet.json").startswith("other Python")
    assert bench.kind("").startswith("the kernel's threads")


def test_a_process_read_after_it_ended_keeps_its_kind() -> None:
    """A zombie has no command line left: its last reading counts its CPU under the kind it was seen
    with (the split of 29 Nov 10:26 put 335 s of ended processes under the kernel's threads)."""
    bench = _bench()
    seen: dict[tuple[int, str], tuple[str, float]] = {}
    bench.update(seen, {(7, "100"): ("a host", 1.0), (8, "101"): ("the kernel's threads (no command line)", 0.5)})
    bench.update(seen, {(7, "100"): (None, 1.4), (9, "102"): (None, 0.3)})
    assert seen == {
        (7, "100"): ("a host", 1.4),
        (8, "101"): ("the kernel's threads (no command line)", 0.5),
        (9, "102"): (bench.ENDED_UNSEEN, 0.3),
    }
    (me,) = [key for key in bench.readings(-1) if key[0] == os.getpid()]
    assert bench.readings(-1)[me][0] == "the tests (pytest and its xdist workers, Python)"


def test_a_process_on_its_way_out_keeps_its_kind_and_a_kernel_thread_is_known_by_its_flag() -> None:
    """An exiting process has no command line left: it was read as one of the kernel's threads, and all of
    its CPU moved to that row (199.7 s of 1598.7 s in the whole suite, 29 Nov 21:43)."""
    bench = _bench()
    stat = "S 1 1 1 0 -1 {flags} 0 0 0 0 100 20 0 0 20 0 1 0 5000".split()

    def with_(state: str, flags: int) -> list[str]:
        return [state, *stat[1:6], str(flags), *stat[7:]]

    assert bench.kind_of(with_("R", 0x400040), "") is None  # exiting: keeps the kind it was seen with
    assert bench.kind_of(with_("Z", 0x400040), "") is None
    assert bench.kind_of(with_("I", 0x04208060), "").startswith("the kernel's threads")  # PF_KTHREAD
    assert bench.kind_of(with_("S", 0x400000), "/usr/lib/postgresql/15/bin/postgres -D /tmp/pg") == "PostgreSQL"


def test_children_reaped_after_their_parents_last_reading_count_once() -> None:
    """A process that ended reaped its own child after its last reading: its parent's count holds that
    child in full, and the child was also seen. Without taking the shortfall up the tree the child
    counted twice (the whole suite, 29 Nov 21:46: the split 1652.7 s, the machine 1553.6 s)."""
    bench = _bench()
    root, child, grandchild = (10, "100"), (11, "101"), (12, "102")
    family = bench.Family()
    family.add({root: (1, 0.0), child: (10, 0.0), grandchild: (11, 0.0)})
    family.add({root: (1, 0.6)})  # the child (0.1 s) and the grandchild (0.5 s), reaped after their last readings
    seen = {root: ("other", 0.05), child: ("a host", 0.1), grandchild: ("PostgreSQL", 0.5)}
    assert family.unseen(root, seen, {root}, {}) == {}
    # 0.2 s more of the grandchild unseen: only the root's count has it, so it is named after the root
    family.add({root: (1, 0.8)})
    assert family.unseen(root, seen, {root}, {}) == {bench.unseen_row("other"): pytest.approx(0.2)}
