"""Smoke test of the organizer pages' benchmark with tiny numbers: it fills a real host store, renders
every page it names and prints each against the baseline measured in the same run."""

from __future__ import annotations

import re

from .conftest import run_bench


def test_bench_pages_runs_with_tiny_numbers() -> None:
    out = run_bench("pages.py", "--teams", "4", "--rounds", "1", "--repeat", "1")
    assert "4 teams, 1 rounds, 2 tables a round" in out, out
    assert re.search(r"read and parse every sheet's latest revision +[\d.]+ ms +[\d.]+ ms +1\.00x", out), out
    for page in ("Durchgang 1: dashboard", "Durchgang 1, Tisch 1: dispute", "Wertung", "Beamer", "Desk.standings"):
        assert re.search(rf"{re.escape(page)}.* [\d.]+ ms +[\d.]+ ms +\d+\.\d\dx", out), out
