"""The entry panels' contract: one draft (state) and one panel (component) per ruleset family.

A *draft* is the entry panel's state: an observable dataclass that knows, for the sheet as it
stands, which choices the rules allow now (it asks the ruleset: ``Ruleset.check``, ``Score.status``,
never a rule of its own), what is implied (the dealer, the Rufer, the player sitting out), and turns
the player's taps into the raw ``(kind, data)`` of a log entry. Its methods are plain Python and
tested without a browser. A *panel* is the Flet component that shows the draft and calls
``on_submit(kind, data)``; the sheet screen saves it (a new game, or the correction of a past one).

Each family's panel module registers itself with ``@family(...)``; ``screens/families.py`` imports
every one of them and finds a family by ruleset id (``find_family``, ``draft_for``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scoring import Entry, RuleViolation, Score, Sheet, find_ruleset
from scoring.engine import EntryChecker
from scoring.numbering import refusal_text

from .looks import scaling

Submit = Callable[[str, dict[str, Any]], None]
"""What a panel calls with the entry's kind and data; the sheet screen saves it."""


class DraftIncomplete(ValueError):
    """The taps so far do not make an entry yet; ``str()`` says in German what is missing."""


class EntryDraft(Protocol):
    """The state of one family's entry panel."""

    def reset(self, sheet: Sheet, score: Score) -> None:
        """Start a new game on ``sheet`` as it stands (``score`` is its score): preselect what is implied."""

    def load(self, sheet: Sheet, score: Score, kind: str, data: Mapping[str, Any]) -> None:
        """Fill the panel with a past entry's ``kind`` and ``data``, to correct it."""

    def entry(self) -> tuple[str, dict[str, Any]]:
        """The entry the taps make: ``(kind, data)``; ``DraftIncomplete`` naming what is missing."""


@dataclass(frozen=True)
class Family:
    """A ruleset family's draft class and panel component, and the ruleset ids it serves."""

    rulesets: tuple[str, ...]
    draft: Callable[[], EntryDraft]
    panel: Callable[..., Any]
    """``panel(draft, on_submit, *, correcting: str | None)`` (what the corrected entry is called, "7. Spiel") -> a Flet control."""


_FAMILIES: dict[str, Family] = {}


def family(*rulesets: str, draft: Callable[[], EntryDraft]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator on a panel component: register it and its draft class for ``rulesets``."""

    def register(panel: Callable[..., Any]) -> Callable[..., Any]:
        panel = scaling(panel)  # the panel's texts follow the player's text size
        entry = Family(rulesets=rulesets, draft=draft, panel=panel)
        for ruleset_id in rulesets:
            _FAMILIES[ruleset_id] = entry
        return panel

    return register


def registered(ruleset_id: str) -> Family:
    """The family registered for ``ruleset_id``; ``KeyError`` if none is (``screens/families.py`` registers them all)."""
    return _FAMILIES[ruleset_id]


def assign(state: Any, **values: Any) -> None:
    """Set fields of an observable state and notify, without comparing old and new values first.

    ``ft.observable`` compares a field's old and new value to decide whether to re-render; for a
    whole ``Sheet`` or ``Score`` that compare walks every entry, which made a sheet's last game
    slower to show than its first. A new sheet or score is always news: set it, say so."""
    for name, value in values.items():
        object.__setattr__(state, name, value)
        state._notify(name)


_LAST: list[tuple[Sheet, EntryChecker]] = []
"""The checker of the last sheet asked about: a panel asks about many candidates on one sheet."""


_LOCK = threading.Lock()


def checker(sheet: Sheet) -> EntryChecker:
    """The ruleset's checker of ``sheet`` (kept for the last sheet asked about): its score and what it allows."""
    with _LOCK:
        if not _LAST or _LAST[0][0] is not sheet:
            previous = _LAST[0][1] if _LAST else None
            _LAST[:] = [(sheet, find_ruleset(sheet.ruleset.id).checker(sheet, previous))]
        return _LAST[0][1]


def allowed(sheet: Sheet, kind: str, data: Mapping[str, Any]) -> bool:
    """Whether the ruleset accepts this entry on ``sheet`` now (so a panel offers only what is allowed).

    Only the verdict: the refusal's text names the game by its number, which walks the whole log, and
    a panel asks this of every choice it shows after every game (issue 24: the last game of a Watten
    Durchgang cost 2.5 times its first for those texts alone)."""
    return _problem(sheet, kind, data) is None


def refusal(sheet: Sheet, kind: str, data: Mapping[str, Any]) -> str | None:
    """The ruleset's German message if it refuses this entry on ``sheet`` now, else ``None``.

    Same verdict as ``Ruleset.check``; the sheet's log is replayed once for all the candidates."""
    problem = _problem(sheet, kind, data)
    if problem is None:
        return None
    if isinstance(problem, RuleViolation):
        return refusal_text(problem, sheet.entries, find_ruleset(sheet.ruleset.id).counted_kinds(sheet), kind)
    return str(problem)


def _problem(sheet: Sheet, kind: str, data: Mapping[str, Any]) -> ValueError | None:
    """Why the ruleset refuses this entry on ``sheet`` now (the rule it breaks, or its data's error), else ``None``."""
    try:
        entry = Entry(kind=kind, data=dict(data))
    except ValueError as error:
        return error
    return checker(sheet).refusal(entry)
