"""Every ruleset family's entry panel and draft, found by ruleset id.

Importing this module imports each family's panel module, which registers its draft class and panel
with ``@family(...)`` (``screens/drafts.py``); the sheet's state and screen ask here, so no family is
missing however the modules were imported before.
"""

from __future__ import annotations

from . import doppelkopf_panel, schafkopf_panel, schnapsen_panel, watten_panel
from .drafts import EntryDraft, Family, registered

PANEL_MODULES = (watten_panel, schnapsen_panel, schafkopf_panel, doppelkopf_panel)
"""The modules that register a family; each defines a draft class and a panel component."""


def find_family(ruleset_id: str) -> Family:
    """The family that enters games of ``ruleset_id``; ``KeyError`` if none does."""
    return registered(ruleset_id)


def draft_for(ruleset_id: str) -> EntryDraft:
    """A fresh draft for a sheet of ``ruleset_id``."""
    return find_family(ruleset_id).draft()
