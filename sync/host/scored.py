"""Stored revisions parsed and scored once: the host's cache of what each stored body says.

The host scores every revision when it arrives (to check it with its ruleset). Of that it keeps
the ``Tally`` (``scoring/compare.py``: the points of every game by participant key, in strings,
ints and tuples) under the body's SHA-256, so the comparison with the other sheet of the table,
which runs for every arriving sheet, neither parses nor scores a stored body again.

The pages and the standings need whole sheets and scores; those are parsed and scored on first
use and kept in a second, bounded cache. Arriving sheets are not put there: a parsed sheet and its
score are some 350 objects the garbage collector traces on every full collection, and keeping
thousands of them made the host pause for up to a second at the end of a round (issue 24).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from scoring import Score, Sheet, score_sheet
from scoring.compare import Tally, tally

from .records import StoredRevision

V = TypeVar("V")


class _Recent(Generic[V]):
    """A bounded map, least recently used out first; shared by the request threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class ScoredSheets:
    """Stored sheets scored, by body hash: a stored revision never changes, so neither does its
    score. ``tally`` for the comparison (every stored revision), ``get`` for whole sheets."""

    def __init__(self, size: int = 4096, tallies: int = 16384) -> None:
        self._sheets: _Recent[tuple[Sheet, Score]] = _Recent(size)
        self._tallies: _Recent[Tally] = _Recent(tallies)

    def put_tally(self, sha: str, made: Tally) -> None:
        """A revision just checked on arrival (``checking.py``): keep what the comparison needs of it."""
        self._tallies.put(sha, made)

    def get(self, stored: StoredRevision) -> tuple[Sheet, Score]:
        """The stored revision's sheet and score (parsed and scored on first use)."""
        found = self._sheets.get(stored.body_sha256)
        if found is not None:
            return found
        sheet = Sheet.from_json(stored.body)
        score = score_sheet(sheet)
        self._sheets.put(stored.body_sha256, (sheet, score))
        self._tallies.put(stored.body_sha256, tally(sheet, score))
        return sheet, score

    def tally(self, stored: StoredRevision) -> Tally:
        """The stored revision's ``Tally`` (raises ``RuleViolation`` if a stored body breaks its ruleset)."""
        found = self._tallies.get(stored.body_sha256)
        if found is not None:
            return found
        whole = self._sheets.get(stored.body_sha256)
        if whole is None:
            sheet = Sheet.from_json(stored.body)
            whole = sheet, score_sheet(sheet)
        made = tally(*whole)
        self._tallies.put(stored.body_sha256, made)
        return made
