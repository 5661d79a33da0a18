"""Reading a sheet file: its bytes to a ``Sheet``, or ``SheetInputError`` with the German message.

The checks and their wording are ``messages.py``'s; this module adds what only the registry
knows: for an entry kind that is no kind at all, the kinds the ruleset the sheet names does know
("Watten (Turnier) kennt: betrug, close, ..."). It sits above the registry, so ``messages.py``,
with which the engine words its own refusals, never needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from .limits import MAX_ENTRIES
from .messages import SheetInputError, load_json, validation_message
from .model import Sheet
from .registry import all_rulesets


def allowed_kinds(doc: Any) -> str | None:
    """``Watten (Turnier) kennt: betrug, close, ...``: the entry kinds of the ruleset a raw sheet
    (or a backup's item) names, if it is known; for ``messages.validation_message(kinds=...)``."""
    ruleset_id = (
        doc.get("ruleset", {}).get("id") if isinstance(doc, Mapping) and isinstance(doc.get("ruleset"), Mapping) else None
    )
    for ruleset in all_rulesets():
        if ruleset.id == ruleset_id:
            return f"{ruleset.title} kennt: {', '.join(ruleset.describe()['entry_kinds'])}"
    return None


def parse_sheet(data: bytes, *, source: str | None) -> Sheet:
    """The sheet in ``data`` (the bytes of a sheet file), or ``SheetInputError`` with the German message.

    ``source`` names the file (or the device it came from) in the message.
    """
    try:
        doc = load_json(data, source=source)
    except SheetInputError as error:
        raise SheetInputError(f"kein gültiges Blatt: {error.reason}", source=source) from None
    entries = doc.get("entries")
    if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
        raise SheetInputError(f"kein gültiges Blatt: zu viele Einträge ({len(entries)}; höchstens {MAX_ENTRIES})", source=source)
    try:
        return Sheet.model_validate(doc)
    except ValidationError as error:
        message = validation_message(error, model=Sheet, kinds=allowed_kinds(doc))
        raise SheetInputError(f"kein gültiges Blatt: {message}", source=source) from None
