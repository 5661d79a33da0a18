"""What the organizer's forms send, read and typed: a ruleset's options, a corrected game, whole numbers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData, UploadFile

from scoring import effective_entries, find_ruleset
from scoring.model import CLOSE

from ..desk import DeskError, HostSheet

MAX_CSV_BYTES = 512 * 1024
"""The largest roster CSV the roster page takes."""


@dataclass(frozen=True)
class OptionField:
    """One option of a ruleset as the set-up form offers it."""

    name: str
    description: str
    kind: str
    """"bool", "choices" or "text"."""
    value: Any
    choices: Mapping[str, str]
    optional: bool


def option_fields(ruleset_id: str, values: Mapping[str, Any] | None = None) -> list[OptionField]:
    """The ruleset's options with their defaults (or ``values``), and the keys ``option_choices()`` offers."""
    ruleset = find_ruleset(ruleset_id)
    choices = ruleset.option_choices()
    out = []
    for name, field in ruleset.Options.model_fields.items():
        default = field.get_default(call_default_factory=True)
        value = (values or {}).get(name, default)
        description = (field.description or name).split(";")[0]
        optional = "None" in str(field.annotation)
        if name in choices:
            out.append(OptionField(name, description, "choices", tuple(value or ()), choices[name], optional))
        elif isinstance(default, bool):
            out.append(OptionField(name, description, "bool", bool(value), {}, optional))
        else:
            out.append(OptionField(name, description, "text", "" if value is None else value, {}, optional))
    return out


def options_from_form(ruleset_id: str, form: FormData) -> dict[str, Any]:
    """The options the set-up form sent, typed as the ruleset's ``Options`` expect them (it checks them)."""
    out: dict[str, Any] = {}
    for field in option_fields(ruleset_id):
        key = f"opt:{field.name}"
        if field.kind == "choices":
            out[field.name] = [str(v) for v in form.getlist(key)]
        elif field.kind == "bool":
            out[field.name] = form.get(key) == "true"
        else:
            raw = str(form.get(key) or "").strip()
            if raw == "" and field.optional:
                out[field.name] = None
            elif re.fullmatch(r"-?\d+", raw):
                out[field.name] = int(raw)
            else:
                out[field.name] = raw
    return out


def correction_fields(host: HostSheet, game: int) -> list[dict[str, Any]]:
    """The inputs of game ``game`` on the sheet, to enter it corrected."""
    games = [e for e in effective_entries(host.sheet.entries) if e.kind != CLOSE]
    if not 1 <= game <= len(games):
        return []
    return [{"name": k, "value": v} for k, v in games[game - 1].data.items()]


def correction_data(form: FormData) -> dict[str, Any]:
    """The corrected game's inputs from the form: numbers as numbers, true/false as booleans."""
    out: dict[str, Any] = {}
    for key, value in form.multi_items():
        if not key.startswith("data:") or isinstance(value, UploadFile):
            continue
        text = value.strip()
        name = key.removeprefix("data:")
        if re.fullmatch(r"-?\d+", text):
            out[name] = int(text)
        elif text in ("True", "true", "False", "false"):
            out[name] = text.lower() == "true"
        elif text in ("None", ""):
            out[name] = None
        else:
            out[name] = text
    return out


def form_int(value: object, what: str) -> int:
    text = str(value or "").strip()
    if not re.fullmatch(r"\d{1,9}", text):
        raise DeskError(f"{what} muss eine ganze Zahl sein, nicht '{text}'")
    return int(text)
