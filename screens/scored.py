"""A stored sheet scored once per revision, for the start screen's glance and the statistics.

The start screen lists every sheet with its score at a glance, so it scores every sheet anyway; the
statistics' share of the sheet (``scoring.statistics.figures_of``) is taken from the same score, and
the statistics screen then needs no sheet read or scored again until it changes. Kept in memory only:
nothing but the sheets is ever stored.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass

from scoring import RuleViolation, score_sheet
from scoring.statistics import DatedSheet, SheetFigures, figures_of
from storage import SheetInfo, SheetStore, StorageError


@dataclass(frozen=True)
class Scored:
    """What the app keeps of one sheet's score: the glance line and the statistics' figures."""

    glance: str
    figures: SheetFigures


_SCORED: dict[tuple[uuid.UUID, int], Scored] = {}
_LOCK = threading.Lock()


def scored(store: SheetStore, info: SheetInfo) -> Scored:
    """The sheet of ``info`` scored (from memory where this revision was scored before)."""
    key = (info.id, info.revision)
    with _LOCK:
        known = _SCORED.get(key)
    if known is not None:
        return known
    day = info.created_at.astimezone().date()
    try:
        sheet = store.open(info.id)
        score = score_sheet(sheet)
    except (StorageError, RuleViolation, ValueError) as error:
        refused = SheetFigures(info.ruleset, day, (), {}, refused=f"Blatt {info.id}: {error}")
        result = Scored(glance=f"nicht lesbar: {error}", figures=refused)
    else:
        result = Scored(glance=" · ".join(score.status.messages[:2]), figures=figures_of(DatedSheet(sheet, day), score))
    with _LOCK:
        _SCORED[key] = result
    return result


def forget() -> None:
    """Drop everything kept (the bench measures the statistics from nothing)."""
    with _LOCK:
        _SCORED.clear()
