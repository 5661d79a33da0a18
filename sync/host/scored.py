"""Stored revisions parsed and scored once: the host's cache of what each stored body says.

The host scores every revision when it arrives (to check it with its ruleset) and puts the result
here under the body's SHA-256; the comparison of a table's sheets, the dashboard and the standings
take it from here instead of parsing and scoring the body again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from scoring import Score, Sheet, find_ruleset

from .records import StoredRevision


class ScoredSheets:
    """Stored sheets parsed and scored, by body hash: a stored revision never changes, so neither
    does its score. Bounded (least recently used go first); shared by the request threads."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[Sheet, Score]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, sha: str, sheet: Sheet, score: Score) -> None:
        with self._lock:
            self._items[sha] = (sheet, score)
            self._items.move_to_end(sha)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, stored: StoredRevision) -> tuple[Sheet, Score]:
        with self._lock:
            found = self._items.get(stored.body_sha256)
            if found is not None:
                self._items.move_to_end(stored.body_sha256)
                return found
        sheet = Sheet.from_json(stored.body)
        score = find_ruleset(sheet.ruleset.id).score(sheet)
        self.put(stored.body_sha256, sheet, score)
        return sheet, score
