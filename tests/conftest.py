"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RULES = ROOT.parent / "shared" / "rules"


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
