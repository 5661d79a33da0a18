"""Limits at the edge: how big, how long and how deep anything a sheet or a backup holds may be.

A sheet comes from many phones, old versions, a USB stick and a host anyone on the Wi-Fi can
reach. Each limit is far beyond any real Tischliste and keeps a damaged or crafted file from
making the app slow, crash or store something it cannot write back:

- a sheet file at most ``MAX_SHEET_BYTES``, a backup at most ``MAX_BACKUP_BYTES``;
- at most ``MAX_ENTRIES`` log entries per sheet (a Schafkopf Serie has 32 games, a long
  Schnapsen evening a few hundred);
- a name at most ``MAX_NAME`` characters, any other text at most ``MAX_TEXT``;
- the ``data`` of an entry and the options at most ``MAX_DATA_DEPTH`` levels deep, a whole
  document at most ``MAX_DOCUMENT_DEPTH`` (the deepest real entry, a Doppelkopf correction,
  needs 7);
- every text writable as UTF-8 (no lone UTF-16 surrogate such as ``"\\ud800"``) and every number
  finite.

``find_problem`` checks a parsed JSON value against these limits without recursion, so it is
safe on any input; the messages for a player are in ``messages.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

MAX_SHEET_BYTES = 2 * 1024 * 1024
MAX_BACKUP_BYTES = 64 * 1024 * 1024
MAX_ENTRIES = 2000
MAX_PARTICIPANTS = 8
MAX_NAME = 80
MAX_TEXT = 500
MAX_DATA_DEPTH = 8
MAX_DOCUMENT_DEPTH = 24
MAX_NUMBER = 10**9
"""Largest count any field of a sheet may hold (Startnummer, round, table, ...)."""

Path = tuple[str | int, ...]


def _children(value: Any, path: Path) -> Iterator[tuple[Path, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), item
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield (*path, index), item


def not_utf8(text: str) -> bool:
    """Whether ``text`` holds a character UTF-8 cannot write (a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def find_problem(value: Any, *, max_depth: int, max_text: int | None = None) -> tuple[Path, str] | None:
    """The first place in ``value`` that breaks a limit, with a German reason; ``None`` if none does.

    Checks the nesting depth (``max_depth`` levels of objects and lists), that every text and
    every key can be written as UTF-8, that no text is longer than ``max_text`` and that every
    number is finite. Iterative: a value nested deeper than Python's recursion limit is fine.
    """
    stack: list[tuple[Path, Any, int]] = [((), value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if isinstance(item, str):
            if not_utf8(item):
                return path, "enthält ein Zeichen, das sich nicht als UTF-8 schreiben lässt (ein einzelnes Surrogat wie \\ud800)"
            if max_text is not None and len(item) > max_text:
                return path, f"ist zu lang ({len(item)} Zeichen; höchstens {max_text})"
        elif isinstance(item, float) and not math.isfinite(item):
            return path, "ist keine endliche Zahl"
        elif isinstance(item, (dict, list, tuple)):
            if depth >= max_depth:
                return path, f"ist zu tief verschachtelt (höchstens {max_depth} Ebenen)"
            if isinstance(item, dict):
                for key in item:
                    if isinstance(key, str) and not_utf8(key):
                        return (*path, key), "hat einen Namen, der sich nicht als UTF-8 schreiben lässt (ein einzelnes Surrogat)"
            children = list(_children(item, path))
            stack.extend((child_path, child, depth + 1) for child_path, child in reversed(children))
    return None
