"""Instructions instead of seconds: the parts of a bench counted by valgrind (callgrind), the same on every run.

CPU seconds of one process on this shared 2-core machine moved by a factor of two between runs a
minute apart (the statistics from nothing: +209 % to +537 % over reading, 2026-12-01), so a ratio of
two of them reproduced only as a range. The instructions a part executes do not depend on what runs
beside it: a bench runs its parts in a child process under ``valgrind --tool=callgrind`` and calls
``mark()`` between them; callgrind writes its counters out at each mark (``--dump-before=getsid``:
``mark`` is the only caller of libc's ``getsid`` in a bench), so each stretch between two marks is
counted on its own. The child runs with a fixed hash seed. What instructions do not show: the time
a part waits (the disk, a lock), and that an instruction that misses the cache costs more than one
that does not; for CPU-bound Python (scoring, parsing, the statistics) they follow CPU time.

    counts = counted([python, bench/app.py, --count-statistics, ...])   # one total per stretch

A child under callgrind runs about 50 times as slow as without it. Not until its first mark: the child
starts with callgrind's instrumentation off (``--instr-atstart=no``), and its first ``mark()`` switches it
on. ``SWITCH_SOURCE``, built with gcc and preloaded into the child (``LD_PRELOAD``), is the ``getsid``
that ``mark()`` calls: its first call makes valgrind's client request (from valgrind's own header)
that switches the instrumentation on, and callgrind writes out the next to nothing counted so far;
later calls are counted as libc's. Python's start and the bench's imports, which nothing measures,
then run at valgrind's plain speed: the test's command of ``bench/app.py --instructions`` (6 sheets)
took 10.5 to 11.6 s instead of 25.7 s (2026-12-08). Nothing is loaded into Python for it: its game's
first save counted 4007 and 4013 thousand instructions in two runs, against 3997 and 4009 counted
from the start. Where gcc or the header is missing, the child is counted from its start, as before.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

MARKER = "getsid"
"""The function whose calls make callgrind write its counters out (``mark``): libc's, or in a child
started with the instrumentation off the one preloaded from ``SWITCH_SOURCE``."""

SWITCH_SOURCE = Path(__file__).with_name("callgrind_switch.c")
"""The ``getsid`` preloaded into a child: its first call switches callgrind's instrumentation on."""

_TOTAL = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)


def mark() -> None:
    """End the stretch counted so far (in a child under ``counted``; anywhere else it does nothing).
    In a child started with the instrumentation off, the first mark switches it on (``SWITCH_SOURCE``)."""
    os.getsid(0)


def available() -> bool:
    """Whether valgrind is installed (Debian's ``valgrind``; ``./dev test`` installs it)."""
    return shutil.which("valgrind") is not None


def counted(argv: list[str], *, cwd: Path | None = None, timeout: float = 3600, from_start: bool = False) -> list[int]:
    """Run ``argv`` (a Python command) under callgrind; the instructions of each stretch between its
    ``mark()`` calls, in order: before the first mark, between each two, and after the last. Before
    the first mark next to nothing is counted: the instrumentation is off until then (``from_start``,
    or no switch built: counted from the start, Python's start and imports in the first stretch).
    Raises ``RuntimeError`` if the command fails or valgrind is missing."""
    if not available():
        raise RuntimeError("valgrind fehlt (Debian: apt-get install valgrind; ./dev test installiert es)")
    with tempfile.TemporaryDirectory(prefix="tischblock-callgrind-") as folder:
        out = Path(folder) / "cg"
        switch = None if from_start else _built_switch(Path(folder))
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--dump-before={MARKER}",
                f"--callgrind-out-file={out}.%p",
                "--dump-instr=no",
                "--compress-strings=no",
                *(["--instr-atstart=no"] if switch else []),
                *argv,
            ],
            cwd=cwd,
            env={**os.environ, "PYTHONHASHSEED": "0", **({"LD_PRELOAD": _preloading(switch)} if switch else {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{argv} unter valgrind endete mit {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return _totals(Path(folder))


def _built_switch(folder: Path) -> Path | None:
    """``SWITCH_SOURCE`` built into a shared library in ``folder``; None without gcc or valgrind's header."""
    if shutil.which("gcc") is None:
        return None
    library = folder / "callgrind_switch.so"
    done = subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O1", "-o", str(library), str(SWITCH_SOURCE)], capture_output=True, check=False
    )
    return library if done.returncode == 0 else None


def _preloading(library: Path) -> str:
    """``LD_PRELOAD`` with ``library`` first, before what the environment preloads already."""
    return ":".join([str(library), *filter(None, [os.environ.get("LD_PRELOAD")])])


def _totals(folder: Path) -> list[int]:
    """The totals of callgrind's dumps in ``folder``, in the order written: ``cg.PID.1``, ``cg.PID.2``,
    ..., then ``cg.PID`` (the end). Exactly one process may have dumped (the command, not a child)."""
    files = sorted(folder.glob("cg.*"))
    pids = {f.name.split(".")[1] for f in files}
    if len(pids) != 1:
        raise RuntimeError(f"callgrind schrieb für {len(pids)} Prozesse: {sorted(pids)}")

    def order(path: Path) -> int:
        parts = path.name.split(".")
        return int(parts[2]) if len(parts) > 2 else len(files)

    totals = []
    for path in sorted(files, key=order):
        found = _TOTAL.search(path.read_bytes())
        if found is None:
            raise RuntimeError(f"{path.name}: keine Summe")
        totals.append(int(found.group(1)))
    return totals


def measured(totals: list[int], parts: int) -> list[int]:
    """The counts of ``parts`` measured stretches from ``totals`` of a child that marked before and after
    each part (``mark(); part(); mark()``, whatever it does between two parts not counted): the 2nd,
    4th, ... stretch. Raises ``RuntimeError`` where the number of stretches does not fit (something
    else called the marker)."""
    if len(totals) != 2 * parts + 1:
        raise RuntimeError(f"{len(totals)} Abschnitte gezählt, {2 * parts + 1} erwartet: ruft noch etwas {MARKER}()?")
    return totals[1::2][:parts]
