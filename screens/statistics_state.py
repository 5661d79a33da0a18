"""The statistics screen's state: the sheets on this phone, the filters, and what ``scoring.statistics`` makes of them.

The numbers are computed from the stored sheets every time the screen opens or a filter changes. A
sheet's share is taken from its score, which the app keeps in memory per revision (``scored.py``: the
start screen scored every sheet for its glance already), so only a sheet changed since is read again.
Bad filter input (a date that is no date) keeps its German message under the field and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

import flet as ft

from scoring import find_ruleset
from scoring.statistics import Filter, SheetFigures, Statistics, combine
from storage import SheetStore, StorageError

from .drafts import assign
from .scored import scored

DATE_FORMAT = "%d.%m.%Y"
DATE_HINT = "TT.MM.JJJJ"


def parse_day(text: str, where: str) -> date | None:
    """``"21.11.2026"`` -> that day; empty -> ``None``; anything else a German ``ValueError`` naming ``where``."""
    text = text.strip()
    if not text:
        return None
    try:
        return datetime.strptime(text, DATE_FORMAT).date()
    except ValueError:
        raise ValueError(f"„{where}“: bitte als {DATE_HINT}, z. B. 21.11.2026") from None


def _known(ruleset: str) -> bool:
    try:
        find_ruleset(ruleset)
    except ValueError:
        return False
    return True


@ft.observable
@dataclass
class StatisticsState:
    """The statistics over the sheets of this phone, as filtered."""

    store: SheetStore
    ruleset: str | None = None
    """The ruleset id chosen, ``None`` for all."""
    since: str = ""
    until: str = ""
    errors: dict[str, str] = field(default_factory=dict)
    """German messages per filter field (``von``, ``bis``)."""
    load_error: str | None = None
    rulesets: list[tuple[str, str]] = field(default_factory=list)
    """(id, title) of the rulesets that have sheets on this phone."""
    result: Statistics | None = None
    _sheets: list[SheetFigures] = field(default_factory=list, repr=False)

    def load(self) -> None:
        """Read every sheet of the store and compute the statistics with the filters as they are."""
        try:
            # One hold of the store's file lock for the whole reading (as ``all_stored``), not one
            # per sheet: taking it was a third of reading a sheet (issue 24).
            with self.store.locked():
                infos = self.store.list_sheets()
                self._sheets = [scored(self.store, info).figures for info in infos]
        except StorageError as error:
            self.load_error = f"Die Blätter können nicht gelesen werden: {error}"
            return
        present = sorted({item.ruleset for item in self._sheets})
        self.rulesets = [(rid, find_ruleset(rid).title) for rid in present if _known(rid)]
        self.load_error = None
        self._compute()

    def _compute(self) -> None:
        errors = {}
        days: dict[str, date | None] = {}
        for where, text in (("von", self.since), ("bis", self.until)):
            try:
                days[where] = parse_day(text, where)
            except ValueError as error:
                errors[where] = str(error)
        if not errors and days["von"] and days["bis"] and days["von"] > days["bis"]:
            errors["bis"] = "„bis“ liegt vor „von“: bitte ein späteres Datum eingeben"
        self.errors = errors
        if errors:
            return
        chosen = Filter(rulesets=frozenset({self.ruleset}) if self.ruleset else frozenset(), since=days["von"], until=days["bis"])
        assign(self, result=combine(self._sheets, chosen))

    def choose_ruleset(self, ruleset: str | None) -> None:
        self.ruleset = ruleset
        self._compute()

    def set_since(self, text: str) -> None:
        self.since = text
        self._compute()

    def set_until(self, text: str) -> None:
        self.until = text
        self._compute()
