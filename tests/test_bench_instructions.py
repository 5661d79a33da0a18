"""bench/instructions.py counts a bench's parts in instructions under valgrind's callgrind: each stretch
between two marks on its own, the same on every run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, bench_script

instructions = bench_script("instructions")

CHILD = """
import sys
sys.path.insert(0, {bench!r})
from instructions import mark
total = sum(range(1000))
mark()
total += sum(range(200_000))
mark()
total += sum(range(50_000))  # between the parts: not counted
mark()
total += sum(range(2_000))
mark()
"""


def test_each_stretch_between_two_marks_is_counted_on_its_own(tmp_path: Path) -> None:
    child = tmp_path / "child.py"
    child.write_text(CHILD.format(bench=str(ROOT / "bench")))
    first = instructions.counted([sys.executable, str(child)])
    big, small = instructions.measured(first, 2)  # the 200 000 additions and the 2 000
    assert big > 50 * small > 0, first
    # the same work counts the same on the next run (within a thousandth: the allocator's and the
    # collector's paths may differ a little)
    again = instructions.measured(instructions.counted([sys.executable, str(child)]), 2)
    assert abs(again[0] - big) < big / 1000, (first, again)


def test_python_starts_uncounted_and_the_stretches_count_the_same(tmp_path: Path) -> None:
    """The child starts with callgrind's instrumentation off and its first mark switches it on
    (``SWITCH_SOURCE``, built here with gcc): the stretch before the first mark, Python's start, counts
    next to nothing; the stretches measured count what they count with the child counted from its start."""
    assert instructions._built_switch(tmp_path) is not None, "gcc or valgrind's header <valgrind/callgrind.h> is missing"
    child = tmp_path / "child.py"
    child.write_text(CHILD.format(bench=str(ROOT / "bench")))
    switched = instructions.counted([sys.executable, str(child)])
    whole = instructions.counted([sys.executable, str(child)], from_start=True)
    assert switched[0] * 1000 < whole[0], (switched, whole)  # Python's start: over a hundred million
    # the 200 000 additions within a thousandth, as on a second run (the collector runs at other points
    # after a start that allocated differently: the 2 000 additions differed by 8 %, 26 175 instructions)
    big, big_from_start = instructions.measured(switched, 2)[0], instructions.measured(whole, 2)[0]
    assert abs(big - big_from_start) < big_from_start / 1000, (switched, whole)


def test_a_count_that_does_not_fit_the_marks_is_an_error() -> None:
    assert instructions.measured([10, 1, 20, 2, 30], 2) == [1, 2]
    with pytest.raises(RuntimeError, match="4 Abschnitte gezählt, 5 erwartet"):
        instructions.measured([10, 1, 20, 2], 2)


def test_a_failing_command_is_an_error(tmp_path: Path) -> None:
    child = tmp_path / "fails.py"
    child.write_text("raise SystemExit(3)\n")
    with pytest.raises(RuntimeError, match="endete mit 3"):
        instructions.counted([sys.executable, str(child)])


def test_the_host_steps_child_runs_its_steps_between_marks() -> None:
    # What ``bench/host.py --per-sheet --instructions`` runs under callgrind, here without it (a mark
    # then does nothing): the counting itself is the test above.
    done = subprocess.run(
        [sys.executable, "bench/host_steps.py", "2"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
