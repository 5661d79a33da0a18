"""``limits.find_problem`` made cheap (every sheet read passes it) finds exactly what the plain
iterative walk it replaced finds, at the same place, on any JSON-like value (hypothesis)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.limits import find_problem, not_utf8


def reference(value: Any, *, max_depth: int, max_text: int | None = None) -> tuple[tuple[str | int, ...], str] | None:
    """The walk as it was: an explicit stack, every child's path built on the way."""
    stack: list[tuple[tuple[str | int, ...], Any, int]] = [((), value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if isinstance(item, str):
            if not_utf8(item):
                return path, "utf8"
            if max_text is not None and len(item) > max_text:
                return path, "long"
        elif isinstance(item, float) and not math.isfinite(item):
            return path, "float"
        elif isinstance(item, (dict, list, tuple)):
            if depth >= max_depth:
                return path, "deep"
            children: list[tuple[tuple[str | int, ...], Any]] = []
            if isinstance(item, dict):
                for key in item:
                    if isinstance(key, str) and not_utf8(key):
                        return (*path, key), "key"
                children = [((*path, key), child) for key, child in item.items()]
            else:
                children = [((*path, index), child) for index, child in enumerate(item)]
            stack.extend((child_path, child, depth + 1) for child_path, child in reversed(children))
    return None


texts = st.text(alphabet=st.characters(), max_size=8) | st.sampled_from(["\ud800", "x" * 12, "ä\udfff"])
scalars = st.none() | st.booleans() | st.integers() | st.floats() | texts
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=30,
)

KINDS = {
    "utf8": "enthält ein Zeichen",
    "long": "ist zu lang",
    "float": "ist keine endliche Zahl",
    "deep": "ist zu tief verschachtelt",
    "key": "hat einen Namen",
}


@settings(max_examples=1500, deadline=None)
@given(values, st.integers(min_value=0, max_value=6), st.none() | st.integers(min_value=0, max_value=10))
def test_the_cheap_walk_finds_what_the_plain_walk_finds(value: Any, max_depth: int, max_text: int | None) -> None:
    expected = reference(value, max_depth=max_depth, max_text=max_text)
    found = find_problem(value, max_depth=max_depth, max_text=max_text)
    if expected is None:
        assert found is None
    else:
        assert found is not None
        assert found[0] == expected[0]
        assert found[1].startswith(KINDS[expected[1]])


def test_a_value_nested_far_beyond_the_recursion_limit_is_refused_not_a_crash() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert find_problem(deep, max_depth=24) == ((0,) * 24, "ist zu tief verschachtelt (höchstens 24 Ebenen)")
