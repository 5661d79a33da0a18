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

``find_problem`` checks a parsed JSON value against these limits, recursing no deeper than the
limit it checks, so it is safe on any input; the messages for a player are in ``messages.py``.
"""

from __future__ import annotations

import math
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


def not_utf8(text: str) -> bool:
    """Whether ``text`` holds a character UTF-8 cannot write (a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


NOT_UTF8 = "enthält ein Zeichen, das sich nicht als UTF-8 schreiben lässt (ein einzelnes Surrogat wie \\ud800)"
"""Why a text that holds a lone surrogate is refused."""


def find_problem(value: Any, *, max_depth: int, max_text: int | None = None, depth: int = 0) -> tuple[Path, str] | None:
    """The first place in ``value`` that breaks a limit, with a German reason; ``None`` if none does.

    Checks the nesting depth (``max_depth`` levels of objects and lists), that every text and
    every key can be written as UTF-8, that no text is longer than ``max_text`` and that every
    number is finite. The walk stops at ``max_depth``, so a value nested deeper than Python's
    recursion limit is fine; the path is built only for the problem found (every sheet that is
    read passes here, so the walk is kept cheap). ``depth`` is how deep ``value`` itself already
    stands (an entry's ``data`` stands one level below the entry).
    """
    if max_depth > 200:
        raise ValueError("max_depth beyond 200 would let the walk recurse too deep")
    found = _walk(value, depth, max_depth, max_text)
    if found is None:
        return None
    keys, reason = found
    return tuple(reversed(keys)), reason


def _walk(item: Any, depth: int, max_depth: int, max_text: int | None) -> tuple[list[str | int], str] | None:
    """``find_problem`` below one value: the path to the problem (innermost key first) and why."""
    if isinstance(item, str):
        # An ASCII text is always UTF-8: only the others need the (slower) encoding test.
        if not item.isascii() and not_utf8(item):
            return [], NOT_UTF8
        if max_text is not None and len(item) > max_text:
            return [], f"ist zu lang ({len(item)} Zeichen; höchstens {max_text})"
        return None
    if isinstance(item, dict):
        if depth >= max_depth:
            return [], f"ist zu tief verschachtelt (höchstens {max_depth} Ebenen)"
        for key in item:
            if isinstance(key, str) and not key.isascii() and not_utf8(key):
                return [key], "hat einen Namen, der sich nicht als UTF-8 schreiben lässt (ein einzelnes Surrogat)"
        for key, child in item.items():
            if child is None or child.__class__ in _PLAIN or (child.__class__ is str and _plain_text(child, max_text)):
                continue
            found = _walk(child, depth + 1, max_depth, max_text)
            if found is not None:
                found[0].append(key)
                return found
        return None
    if isinstance(item, (list, tuple)):
        if depth >= max_depth:
            return [], f"ist zu tief verschachtelt (höchstens {max_depth} Ebenen)"
        for index, child in enumerate(item):
            if child is None or child.__class__ in _PLAIN or (child.__class__ is str and _plain_text(child, max_text)):
                continue
            found = _walk(child, depth + 1, max_depth, max_text)
            if found is not None:
                found[0].append(index)
                return found
        return None
    if isinstance(item, float) and not math.isfinite(item):
        return [], "ist keine endliche Zahl"
    return None


_PLAIN = (int, bool)
"""Values that can break no limit (exactly these classes; a float may be infinite)."""


def _plain_text(text: str, max_text: int | None) -> bool:
    """Whether ``text`` is ASCII within ``max_text``: then it breaks no limit, and the walk does not
    descend into it (most of a sheet's values are such texts; every sheet read passes here)."""
    return text.isascii() and (max_text is None or len(text) <= max_text)
