"""Shared test helpers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scoring import Entry, Participant, Ruleset, RuleViolation, Score, Sheet

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RULES = ROOT.parent / "shared" / "rules"


def checkout_env() -> dict[str, str]:
    """The environment for a child process that must run this checkout's code: the venv's
    ``tischblock`` script may be an editable install of another worktree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def assert_subset(expected: Any, actual: Any, path: str = "") -> None:
    """Every key of ``expected`` is in ``actual`` with an equal (recursively subset) value.

    Lists must have the same length and match element by element.
    """
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing in {sorted(actual)}"
            assert_subset(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), f"{path}: {len(expected)} expected, {len(actual)} found: {actual!r}"
        for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_subset(e, a, f"{path}[{index}]")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


@dataclass(frozen=True)
class GameTable:
    """A ruleset and its participants, to build sheets from game data in a test line."""

    ruleset: Ruleset[Any, Any]
    participants: Sequence[Participant]

    def sheet(self, *games: dict[str, Any], **options: Any) -> Sheet:
        """A new sheet with ``games`` as ``game`` entries (not checked one by one)."""
        sheet = self.ruleset.new_sheet(self.participants, options=options)
        for data in games:
            sheet = sheet.with_entry(Entry(kind="game", data=data))
        return sheet

    def score(self, *games: dict[str, Any], **options: Any) -> Score:
        return self.ruleset.score(self.sheet(*games, **options))

    def refused(self, *games: dict[str, Any], **options: Any) -> RuleViolation:
        """The violation scoring these games raises (the test fails if none does)."""
        with pytest.raises(RuleViolation) as info:
            self.score(*games, **options)
        return info.value


GameHelpers = tuple[Callable[..., Sheet], Callable[..., Score], Callable[..., RuleViolation]]


def game_helpers(ruleset: Ruleset[Any, Any], participants: Sequence[Participant]) -> GameHelpers:
    """``sheet``, ``score`` and ``refused`` for tests that write one game per line."""
    table = GameTable(ruleset, participants)
    return table.sheet, table.score, table.refused


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright; one per test module."""
    from .browser import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
