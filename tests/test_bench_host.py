"""Smoke test of the host benchmark with tiny numbers: it runs over both transports, both targets
store every sheet, the host answers each table's second sheet with the comparison, it prints its figures and leaves
no temporary directory behind."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import run_bench


def bench(*args: str) -> str:
    """What ``bench/host.py`` with ``args`` printed (it drops TISCHBLOCK_CHECK_PROCESSES itself: its host
    runs as by default); it must end well."""
    return run_bench("host.py", *args)


def test_bench_host_runs_with_tiny_numbers() -> None:
    # One connection: each sheet is acknowledged before the next is sent, so every table's second sheet
    # finds its first stored and is answered with the comparison. With more connections than that, a
    # table's two sheets may share one group commit and neither sees the other: the count then depends
    # on the order they arrive in (0 of 3 once in a full run of the suite).
    out = bench("--tables", "3", "--connections", "1", "--rounds", "1")
    for transport in ("plain HTTP", "HTTPS"):
        assert transport in out, out
    assert len(re.findall(r"round 1 bare: p50 +[\d.]+ ms .* answered 6/6  stored 6/6", out)) == 2, out
    assert len(re.findall(r"round 1 host: p50 +[\d.]+ ms .* answered 6/6  stored 6/6", out)) == 2, out
    compared = [int(n) for n in re.findall(r"the host answered (\d+) sheets with the comparison", out)]
    assert compared == [3, 3], out
    for transport in ("HTTP", "HTTPS"):
        assert re.search(rf"{transport} +host throughput / bare throughput: \d+\.\d\d", out), out
    split = r"of its CPU: event loop \d+\.\d\d ms/sheet, the other threads -?\d+\.\d\d ms/sheet, its check processes \d+\.\d\d ms/sheet"
    assert len(re.findall(split, out)) == 4, out
    assert "all stored" in out
    folder = re.search(r"data in (\S+) \(removed at the end\)", out)
    assert folder is not None, out
    assert not Path(folder.group(1)).exists(), "the bench left its temporary directory behind"


def test_bench_host_times_the_pure_steps_per_sheet() -> None:
    out = bench("--tables", "2", "--per-sheet")
    for step in ("parse (parse_json_body)", "score (score_sheet)", "tally", "stored form", "all (check_sheet)"):
        assert re.search(rf"{re.escape(step)} +\d+\.\d\d ms of CPU per sheet \(4 sheets, fastest of 5\)", out), out


def test_bench_host_clocks_each_phase_of_taking_a_sheet() -> None:
    out = bench("--tables", "3", "--connections", "4", "--rounds", "1", "--transport", "http", "--phases")
    assert "6 sheets taken, CPU per sheet by phase (thread CPU time):" in out, out
    phases = ("parse", "ruleset check", "tally", "stored form", "comparison", "commit (writer thread)")
    phases += ("event loop (HTTP, routing, the checks of device and table, the answer)", "in all")
    for phase in phases:
        assert re.search(rf"-?\d+\.\d{{3}} ms +-?[\d.]+% +{re.escape(phase)}\n", out), (phase, out)
    assert re.search(r"its check processes 0\.00 ms/sheet", out), out  # --phases: checked in the host itself
