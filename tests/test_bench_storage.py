"""Smoke tests of the storage benchmarks with tiny numbers: appending a game beside plain TinyDB, and the
kill loop against both storages (a measurement: ``tests/test_storage_kill.py`` is the test of the store)."""

from __future__ import annotations

import re

from .conftest import run_bench


def test_bench_storage_runs_with_tiny_numbers() -> None:
    out = run_bench("storage.py", "--samples", "4", "--sizes", "0,3", "--rounds", "2")
    assert "Appending one game, 4 samples per cell, durable writes (fsync)" in out, out
    for size in (0, 3):
        assert re.search(rf"^ +{size} \|( +[\d.]+){{2}} \|( +[\d.]+){{2}} \|( +[\d.]+x){{2}} \|( +[\d.]+x){{2}}$", out, re.M), out
    assert re.search(r"Tischblock with 3 sheets is [\d.]+x the empty store at p50", out), out


def test_bench_storage_kill_runs_with_tiny_numbers() -> None:
    out = run_bench("storage_kill.py", "--kills", "5")
    for name in ("TinyDB JSONStorage", "Tischblock AtomicJSONStorage"):
        assert re.search(rf"{name}: 5 SIGKILLs, \d+ acknowledged writes, \d+ broken files", out), out
    # what the test of the store proves at 500 kills holds at five: the atomic storage breaks nothing
    assert re.search(r"Tischblock AtomicJSONStorage: 5 SIGKILLs, \d+ acknowledged writes, 0 broken files", out), out
