"""The statistics screen's state: the sheets on this phone, the filters, and what ``scoring.statistics`` makes of them.

The numbers are computed from the stored sheets every time the screen opens or a filter changes; a
sheet's score is kept in memory per revision, so a filter change does not score the sheets again.
Bad filter input (a date that is no date) keeps its German message under the field and changes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime

import flet as ft

from scoring import RuleViolation, Score, find_ruleset
from scoring.statistics import DatedSheet, Filter, Statistics, statistics
from storage import SheetStore, StorageError

from .drafts import assign

_SCORES: dict[tuple[uuid.UUID, int], Score | None] = {}
"""Each sheet's score per (sheet, revision); ``None`` where the ruleset refuses the sheet."""

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
        raise ValueError(f"„{where}“: bitte als {DATE_HINT} eingeben, z. B. 21.11.2026") from None


def scores_of(sheets: list[DatedSheet], revisions: dict[uuid.UUID, int]) -> dict[str, Score]:
    """The score of every sheet, from memory where its revision was scored before."""
    out = {}
    for dated in sheets:
        key = (dated.sheet.id, revisions[dated.sheet.id])
        if key not in _SCORES:
            try:
                _SCORES[key] = find_ruleset(dated.sheet.ruleset.id).score(dated.sheet)
            except (RuleViolation, ValueError):
                _SCORES[key] = None
        score = _SCORES[key]
        if score is not None:
            out[str(dated.sheet.id)] = score
    return out


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
    _sheets: list[DatedSheet] = field(default_factory=list, repr=False)
    _scores: dict[str, Score] = field(default_factory=dict, repr=False)

    def load(self) -> None:
        """Read every sheet of the store and compute the statistics with the filters as they are."""
        try:
            stored = self.store.all_stored()
        except StorageError as error:
            self.load_error = f"Die Blätter können nicht gelesen werden: {error}"
            return
        self._sheets = [DatedSheet(s.sheet, s.created_at.astimezone().date()) for s in stored]
        self._scores = scores_of(self._sheets, {s.sheet.id: s.revision for s in stored})
        present = sorted({d.sheet.ruleset.id for d in self._sheets})
        self.rulesets = [(rid, find_ruleset(rid).title) for rid in present]
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
        assign(self, result=statistics(self._sheets, chosen, self._scores))

    def choose_ruleset(self, ruleset: str | None) -> None:
        self.ruleset = ruleset
        self._compute()

    def set_since(self, text: str) -> None:
        self.since = text
        self._compute()

    def set_until(self, text: str) -> None:
        self.until = text
        self._compute()
