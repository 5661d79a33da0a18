"""Tischblock's functional core: the sheet model, the scoring engine and the rulesets.

Pure functions over pydantic models; nothing here imports flet, tinydb or requests.

    >>> from scoring import find_ruleset
    >>> find_ruleset("watten-turnier").title
    'Watten (Turnier)'
"""

from . import (
    doppelkopf,  # noqa: F401  (registers doppelkopf-turnier and doppelkopf-haus)
    schafkopf,  # noqa: F401  (registers schafkopf-turnier)
    schnapsen,  # noqa: F401  (registers bauernschnapsen and talonschnapsen)
    watten,  # noqa: F401  (registers watten-turnier)
)
from .engine import (
    Context,
    Explanation,
    Line,
    Outcome,
    Ruleset,
    RuleViolation,
    Score,
    Status,
    UnknownRuleset,
    effective_entries,
)
from .messages import SheetInputError, explain
from .model import Entry, Participant, Replacement, RulesetRef, Sheet, SheetContext
from .numbering import score_sheet
from .registry import all_rulesets, find_ruleset, register
from .sheetfile import parse_sheet

__all__ = [
    "Context",
    "Entry",
    "Explanation",
    "Line",
    "Outcome",
    "Participant",
    "Replacement",
    "RuleViolation",
    "Ruleset",
    "RulesetRef",
    "Score",
    "Sheet",
    "SheetContext",
    "SheetInputError",
    "Status",
    "UnknownRuleset",
    "all_rulesets",
    "effective_entries",
    "explain",
    "find_ruleset",
    "parse_sheet",
    "register",
    "score_sheet",
]
