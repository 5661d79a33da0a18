"""``limits.find_problem`` made cheap (every sheet read passes it) finds exactly what the plain
iterative walk it replaced finds, at the same place, on any JSON-like value (hypothesis)."""

from __future__ import annotations

import math
from typing import Any

import pytest
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


# -- the limits where a sheet holds them (scoring/model.py) ---------------------------------------------------


def _nested(levels: int) -> dict[str, Any]:
    """A dict ``levels`` deep: ``{"x": {"x": ... {}}}`` (``levels`` dicts in all)."""
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"x": value}
    return value


def _limit_errors(model: Any, doc: dict[str, Any], as_json: bool) -> list[dict[str, Any]]:
    """The limit errors of validating ``doc`` as ``model``, from Python values or from a JSON body."""
    import json

    from pydantic import ValidationError

    from scoring.model import INPUT_LIMIT

    try:
        if as_json:
            model.model_validate_json(json.dumps(doc))
        else:
            model.model_validate(doc)
    except ValidationError as error:
        return [item for item in error.errors() if item["type"] == INPUT_LIMIT]
    return []


@pytest.mark.parametrize("as_json", [False, True], ids=["python", "json"])
def test_free_form_values_may_nest_as_deep_as_before_and_no_deeper(as_json: bool) -> None:
    """An entry's data may hold 7 levels below the entry (``MAX_DATA_DEPTH`` 8 counts from the entry),
    a correction's replacement's data one level less, the ruleset's options as an entry's data; as
    when every model's raw input was walked before its fields."""
    from scoring.limits import MAX_DATA_DEPTH
    from scoring.model import Entry, RulesetRef

    deepest = MAX_DATA_DEPTH - 1
    assert not _limit_errors(Entry, {"kind": "game", "data": _nested(deepest)}, as_json)
    [error] = _limit_errors(Entry, {"kind": "game", "data": _nested(deepest + 1)}, as_json)
    assert (*error["loc"], *error["ctx"]["path"]) == ("data", *["x"] * deepest)
    assert error["msg"] == f"ist zu tief verschachtelt (höchstens {MAX_DATA_DEPTH} Ebenen)"

    def corrected(levels: int) -> dict[str, Any]:
        return {"kind": "correction", "target": 1, "replacement": {"kind": "game", "data": _nested(levels)}}

    assert not _limit_errors(Entry, corrected(deepest - 1), as_json)
    [error] = _limit_errors(Entry, corrected(deepest), as_json)
    assert (*error["loc"], *error["ctx"]["path"]) == ("replacement", "data", *["x"] * (deepest - 1))
    assert not _limit_errors(RulesetRef, {"id": "w", "version": 1, "options": _nested(deepest)}, as_json)
    assert _limit_errors(RulesetRef, {"id": "w", "version": 1, "options": _nested(deepest + 1)}, as_json)


def test_every_text_of_a_sheet_given_as_python_values_must_be_writable_as_utf8() -> None:
    """A JSON body cannot hold a lone surrogate (pydantic's parser refuses it), Python values can
    (a backup read with ``json.loads``): every typed text and every text of the free-form data is
    refused, and the player reads where and why."""
    from pydantic import ValidationError

    from scoring.messages import validation_message
    from scoring.model import Entry, Participant, RulesetRef, SheetContext

    bad = "Sepp \ud800"
    cases = [
        (Participant, {"id": "A", "name": bad}, "Name enthält ein Zeichen, das sich nicht als UTF-8"),
        (Participant, {"id": "A", "name": "A", "members": ["B", bad]}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (SheetContext, {"tournament": bad}, "Turnier enthält ein Zeichen, das sich nicht als UTF-8"),
        (SheetContext, {"written_by": bad}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (RulesetRef, {"id": bad, "version": 1}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (RulesetRef, {"id": "w", "version": 1, "options": {"k": [bad]}}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (Entry, {"kind": "game", "device": bad}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (Entry, {"kind": "game", "reason": bad}, "Grund enthält ein Zeichen, das sich nicht als UTF-8"),
        (Entry, {"kind": "game", "data": {"winner": bad}}, "enthält ein Zeichen, das sich nicht als UTF-8"),
        (Entry, {"kind": "game", "data": {bad: 1}}, "hat einen Namen, der sich nicht als UTF-8 schreiben lässt"),
    ]
    for model, doc, expected in cases:
        try:
            model.model_validate(doc)
        except ValidationError as error:
            message = validation_message(error, model=model)
            assert expected in message, (model, doc, message)
        else:
            raise AssertionError(f"{model.__name__} took a lone surrogate: {doc}")
