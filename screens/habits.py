"""What this phone's sheets say about its players' habits: the names they write and the house rules
they play. Pure functions over the stored sheets (no flet, no store): the screens offer the names
as the player types and prefill the new-sheet form's house rules with them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import Sheet


def names_used(sheets_names: Iterable[Sequence[str]]) -> list[str]:
    """Every name on the sheets (newest sheet first), most often used first, ties in the order met.

    ``sheets_names`` is one sequence of names per sheet, newest sheet first (teams, players and the
    players of a team alike). Names that differ only in case or spaces count as one, written as first met.
    """
    counts: Counter[str] = Counter()
    written: dict[str, str] = {}
    order: dict[str, int] = {}
    for names in sheets_names:
        for name in names:
            text = " ".join(name.split())
            key = text.casefold()
            if not key:
                continue
            counts[key] += 1
            written.setdefault(key, text)
            order.setdefault(key, len(order))
    return [written[key] for key in sorted(counts, key=lambda k: (-counts[k], order[k]))]


def suggest(names: Sequence[str], typed: str, taken: Iterable[str] = (), limit: int = 6) -> list[str]:
    """The names to offer while ``typed`` is in a field: those with a word starting with what was
    typed (case and accents as written), none already typed elsewhere (``taken``), not the typed text itself.

    Nothing typed yet offers the most used names.
    """
    want = " ".join(typed.split()).casefold()
    skip = {" ".join(t.split()).casefold() for t in taken} | {want}
    offered = []
    for name in names:
        key = name.casefold()
        if key in skip:
            continue
        if want and not (key.startswith(want) or any(word.startswith(want) for word in key.split())):
            continue
        offered.append(name)
        if len(offered) >= limit:
            break
    return offered


@dataclass(frozen=True)
class UsualOptions:
    """The house rules most often played with one ruleset on this phone."""

    options: dict[str, Any]
    sheets: int
    """On how many of the ruleset's sheets they were in force."""
    of: int
    """How many sheets of the ruleset there are."""

    @property
    def text(self) -> str:
        return f"Wie meist gespielt ({self.sheets} von {self.of} Blättern)"


def usual_options(sheets: Iterable[Sheet], ruleset_id: str) -> UsualOptions | None:
    """The options in force on most of the ruleset's sheets (ties: the newest sheet's), ``None`` if
    there is none. ``sheets`` newest first."""
    counts: Counter[str] = Counter()
    values: dict[str, dict[str, Any]] = {}
    for sheet in sheets:
        if sheet.ruleset.id != ruleset_id:
            continue
        key = json.dumps(sheet.ruleset.options, sort_keys=True, default=str)
        counts[key] += 1
        values.setdefault(key, dict(sheet.ruleset.options))
    if not counts:
        return None
    first = list(values)
    best = max(counts, key=lambda k: (counts[k], -first.index(k)))
    return UsualOptions(options=values[best], sheets=counts[best], of=sum(counts.values()))
