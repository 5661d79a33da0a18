"""Smoke test of the host benchmark with tiny numbers: it runs, both targets store every sheet, it prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys

from .conftest import ROOT, checkout_env


def test_bench_host_runs_with_tiny_numbers() -> None:
    done = subprocess.run(
        [sys.executable, "bench/host.py", "--tables", "4", "--processes", "2", "--rounds", "1"],
        cwd=ROOT,
        env=checkout_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert re.search(r"round 1 bare: p50 +[\d.]+ ms .* answered 4/4  stored 4/4", out), out
    assert re.search(r"round 1 host: p50 +[\d.]+ ms .* answered 4/4  stored 4/4", out), out
    assert re.search(r"host throughput / bare throughput: \d+\.\d\d", out), out
    assert "all stored" in out
