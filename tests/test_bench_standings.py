"""Smoke test of the standings benchmark with tiny numbers, for both rulesets it takes: it writes the
sheets, ranks them twice (scored again, and from the scores kept at arrival) and prints the ratios to
just reading them, measured in the same run."""

from __future__ import annotations

import re

import pytest

from .conftest import run_bench


@pytest.mark.parametrize("ruleset", ["schafkopf-turnier", "doppelkopf-turnier"])
def test_bench_standings_runs_with_tiny_numbers(ruleset: str) -> None:
    out = run_bench("standings.py", "--ruleset", ruleset, "--players", "16", "--rounds", "2", "--repeat", "1")
    assert re.search(r"16 players, 8 sheets of 2 rounds, \d+ games; median of 1", out), out
    assert re.search(r"\(a\) load and parse the sheets +[\d.]+s +1\.00x \| +[\d.]+s +1\.00x", out), out
    for row in (r"\(b\) \(a\) \+ standings, every sheet scored again", r"\(c\) \(a\) \+ standings, scores kept from arrival"):
        assert re.search(rf"{row} +[\d.]+s +[\d.]+x \| +[\d.]+s +[\d.]+x", out), out
