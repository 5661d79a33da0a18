"""The one place that turns any refusal into a German message a player can act on.

A message names the file, the game as the sheet numbers it ("Eintrag 7", counted from 1 like the
sheet and the app), the field as a player calls it ("Teilnehmer 2, Name", "Eintrag 7, Spritze"),
what is wrong and what is allowed (the entry kinds of the ruleset, the range of a number, the
line and column of a JSON syntax error, "keine UTF-8-Datei", "leere Datei").

The CLI, the store, the app and the host use it through three functions:

- ``parse_sheet(data, source=...)`` (in ``sheetfile.py``, which knows the rulesets' entry kinds):
  bytes of a sheet file to a ``Sheet``, or ``SheetInputError`` (a ``ValueError``) whose ``str()``
  is the message;
- ``load_json(data, source=..., ...)``: the checks of a sheet file for any JSON document (a backup);
- ``explain(error, source=...)``: the message for any refusal (pydantic ``ValidationError``,
  ``RuleViolation``, ``UnknownRuleset``, JSON and UTF-8 errors, storage and import errors).

Nothing here asks the registry (the engine words its refusals with this module): where a message
names the entry kinds a ruleset knows, the caller passes them (``sheetfile.allowed_kinds``).
Pure: no I/O. ``docs/fehlermeldungen.md`` shows the messages for the most common mistakes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from .limits import MAX_DOCUMENT_DEPTH, MAX_SHEET_BYTES, NOT_UTF8, find_problem
from .model import INPUT_LIMIT


class SheetInputError(ValueError):
    """Input that is no valid sheet (or backup). ``str()`` is the German message, naming the file."""

    def __init__(self, reason: str, *, source: str | None = None) -> None:
        self.reason = reason
        self.source = source
        super().__init__(f"{source} ist {reason}" if source else reason)


# -- field names as a player calls them -------------------------------------------------------------

#: German names of the sheet's and the rulesets' fields (``docs/sheet-format.md``, ``docs/rulesets/``).
FIELD_NAMES: dict[str, str] = {
    # the sheet
    "format": "Format",
    "format_version": "Format-Version",
    "id": "Kennung",
    "ruleset": "Regelwerk",
    "version": "Version",
    "options": "Optionen",
    "participants": "Teilnehmer",
    "name": "Name",
    "seat": "Platz",
    "start_number": "Startnummer",
    "members": "Spieler",
    "context": "Tisch-Angaben",
    "tournament": "Turnier",
    "round_label": "Rundenbezeichnung",
    "round": "Runde",
    "table": "Tisch",
    "written_by": "Listenführer",
    "entries": "Einträge",
    "kind": "Art",
    "data": "Daten",
    "target": "Ziel (Nummer des Eintrags)",
    "replacement": "Ersatz",
    "at": "Zeit",
    "device": "Gerät",
    "reason": "Grund",
    # a backup and a stored sheet
    "sheets": "Blätter",
    "created_at": "angelegt",
    "updated_at": "geändert",
    "sync": "Sync-Stand",
    "state": "Zustand",
    "revision": "Stand",
    # close
    "signed_by": "Unterschrift",
    "override": "Vermerk der Turnierleitung",
    # Watten
    "winner": "Gewinner",
    "value": "Spielwert",
    "team": "Mannschaft",
    "dealer": "Geber",
    "cheater": "Betrüger",
    # Bauern- und Talonschnapsen
    "game": "Spiel",
    "announcer": "Ansager",
    "won": "gewonnen",
    "augen": "Augen",
    "spritze": "Spritze",
    "herzrunde": "Herzrunde",
    "rufer": "Rufer",
    # Doppelkopf
    "typ": "Spieltyp",
    "re": "Re",
    "kontra": "Kontra",
    "schwarz": "schwarz",
    "ansagen": "Ansagen",
    "ansage": "Ansage",
    "zurueck": "Einen zurück",
    "absage": "Absage",
    "sonderpunkte": "Sonderpunkte",
    "doppelkopf": "Doppelkopf",
    "fuchs": "Füchse",
    "karlchen": "Karlchen",
    "herzstich": "Herzstich",
    "schwein": "Schwein",
    "farbe": "Farbe",
    "geber": "Geber",
    "spieler": "Spieler",
    "grund": "Grund",
    # Schafkopf
    "spiel": "Spiel",
    "partner": "Partner",
    "tout": "Tout",
    "gewonnen": "gewonnen",
    "stufe": "Stufe",
    "stiche": "Stiche",
    "fehler": "Fehler",
    "von": "von",
    "unberechtigt": "unberechtigt",
    "art": "Art",
    "fall": "Fall",
}

#: What a field means, where its allowed values need more than a range.
FIELD_HINTS: dict[str, str] = {
    "spritze": "0 ohne, 1 gespritzt ×2, 2 zurückgespritzt ×4, 3 nochmal zurückgespritzt ×8",
}

#: A list, indexed from 0 in the file, whose items a player counts from 1.
_NUMBERED = {"participants": "Teilnehmer", "entries": "Eintrag", "sheets": "Blatt", "members": "Spieler"}
_SKIPPED = {"sheet"}  # the stored sheet inside a backup's item: "Blatt 2, Eintrag 3", not "Blatt 2, sheet, ..."


def field_label(loc: Sequence[str | int]) -> str:
    """A pydantic location as a player reads it: ``entries.6.data.spritze`` -> ``Eintrag 7, Spritze``.

    Beyond what the table knows (deeply nested data) at most two more steps are named.
    """
    parts: list[str] = []
    items = [p for p in loc if not (isinstance(p, str) and ("[" in p or p.startswith("function-")))]
    index = 0
    unknown = 0
    while index < len(items):
        part = items[index]
        following = items[index + 1] if index + 1 < len(items) else None
        if isinstance(part, str) and part in _NUMBERED and isinstance(following, int):
            parts.append(f"{_NUMBERED[part]} {following + 1}")
            index += 2
            continue
        if part in _SKIPPED or (part == "data" and following is not None):
            index += 1
            continue
        if isinstance(part, str) and part == "options" and following is not None:
            parts.append(f"Option '{following}'")
            index += 2
            continue
        if part == "id" and not parts and len(items) == 1:
            parts.append("Blatt-ID")
        elif isinstance(part, int):
            parts.append(f"Nr. {part + 1}")
        elif part in FIELD_NAMES:
            parts.append(FIELD_NAMES[part])
        else:
            unknown += 1
            if unknown > 2:
                parts.append("…")
                break
            parts.append(f"'{_short(part, 30)}'")
        index += 1
    return ", ".join(parts)


# -- showing a value ------------------------------------------------------------------------------------


def one_line(text: str) -> str:
    """``text`` with every control character and lone surrogate escaped (``\n``, ``\ud800``): a message stays one line."""
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def _short(text: str, limit: int = 40) -> str:
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: Any) -> str:
    """A value as a message shows it: short, never a huge number written out."""
    if value is None:
        return "leer (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) >= 10**15:
            digits = math.floor(value.bit_length() * math.log10(2)) + 1
            head = str(value)[:12] if digits < 4000 else ""
            return f"{head}… (eine Zahl mit {digits} Stellen)"
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "keine endliche Zahl"
    if isinstance(value, str):
        return f"'{_short(value)}'"
    if isinstance(value, Mapping):
        return "ein Objekt"
    if isinstance(value, (list, tuple)):
        return "eine Liste"
    return type(value).__name__


def _type_name(value: Any) -> str:
    """``eine Liste``, ``ein Text``, ... : what a value is, for "... statt eines Blatts"."""
    if isinstance(value, bool):
        return "ein Wahrheitswert"
    if isinstance(value, (int, float)):
        return "eine Zahl"
    if isinstance(value, str):
        return "ein Text"
    if isinstance(value, list):
        return "eine Liste"
    if value is None:
        return "null"
    return "ein Objekt"


# -- the model behind a location: allowed fields and ranges ------------------------------------------


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _field_at(model: type[BaseModel] | None, loc: Sequence[str | int]) -> tuple[type[BaseModel] | None, FieldInfo | None]:
    """The model holding the last named field of ``loc``, and that field (either may be None)."""
    current = model
    field: FieldInfo | None = None
    parent = model
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        if part not in current.model_fields:
            return current, None
        parent = current
        field = current.model_fields[part]
        annotation = field.annotation
        origin = get_origin(annotation)
        if origin is dict:
            current = None
        else:
            current = _model_in(annotation)
    return parent, field


def _bounds(field: FieldInfo | None) -> tuple[Any, Any]:
    low: Any = None
    high: Any = None
    for meta in field.metadata if field else ():
        if isinstance(meta, annotated_types.Ge):
            low = meta.ge
        elif isinstance(meta, annotated_types.Gt):
            low = meta.gt
        elif isinstance(meta, annotated_types.Le):
            high = meta.le
        elif isinstance(meta, annotated_types.Lt):
            high = meta.lt
    return low, high


# -- pydantic errors ----------------------------------------------------------------------------------------


def _one(item: Mapping[str, Any], model: type[BaseModel] | None, kinds: str | None, prefix: Sequence[str | int]) -> str:
    loc = [*prefix, *item["loc"]]
    kind = item["type"]
    ctx = item.get("ctx") or {}
    given = item.get("input")
    if kind == INPUT_LIMIT:
        loc = [*loc, *ctx.get("path", [])]
        return f"{field_label(loc) or 'Blatt'} {ctx['reason']}"
    label = field_label(loc) or "Blatt"
    if kind == "value_error":
        text = str(ctx.get("error", item["msg"]))
        return f"{label}: {text}" if item["loc"] else text
    parent, field = _field_at(model, item["loc"])
    name = str(item["loc"][-1]) if item["loc"] else ""
    if kind == "missing":
        return f"{label} fehlt (Feld '{name}')" if name else f"{label} fehlt"
    if kind == "extra_forbidden":
        allowed = f" (erlaubt: {', '.join(parent.model_fields)})" if parent is not None else ""
        return f"{label} gibt es hier nicht{allowed}"
    if kind in ("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing"):
        return f"{label} muss eine ganze Zahl sein, nicht {shown(given)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"{label} muss true oder false sein (ja/nein), nicht {shown(given)}"
    if kind == "string_unicode":  # a lone surrogate, which pydantic's constrained texts refuse themselves
        return f"{label} {NOT_UTF8}"
    if kind == "string_type":
        return f"{label} muss ein Text sein, nicht {_type_name(given)}"
    if kind in ("model_type", "model_attributes_type", "dict_type", "dataclass_type"):
        return f"{label} muss ein Objekt {{...}} sein, nicht {_type_name(given)}"
    if kind in ("list_type", "tuple_type", "iterable_type"):
        return f"{label} muss eine Liste [...] sein, nicht {_type_name(given)}"
    if kind in ("literal_error", "enum"):
        expected = str(ctx.get("expected", "?")).replace(" or ", " oder ")
        return f"{label} ist {shown(given)}; erlaubt: {expected}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        low, high = _bounds(field)
        hint = FIELD_HINTS.get(name) or (field.description if field else None)
        allowed = f" (erlaubt sind {low} bis {high}{': ' + hint if hint else ''})" if low is not None and high is not None else ""
        if kind.startswith("greater"):
            bound = low if low is not None else ctx.get("ge", ctx.get("gt"))
            return f"{label}: mindestens {bound}, nicht {shown(given)}{allowed}"
        bound = high if high is not None else ctx.get("le", ctx.get("lt"))
        return f"{label}: höchstens {bound}, nicht {shown(given)}{allowed}"
    if kind == "string_too_short":
        return f"{label} ist leer"
    if kind == "string_too_long":
        return f"{label} ist zu lang ({len(given) if isinstance(given, str) else '?'} Zeichen; höchstens {ctx.get('max_length')})"
    if kind == "too_short":
        return f"{label} hat zu wenige Einträge (mindestens {ctx.get('min_length')})"
    if kind == "too_long":
        return f"{label} hat zu viele Einträge (höchstens {ctx.get('max_length')})"
    if kind == "string_pattern_mismatch":
        if name == "kind":
            return f"{label}: {shown(given)} ist keine Eintragsart" + (
                f"; {kinds}" if kinds else " (Kleinbuchstaben, z. B. 'game')"
            )
        return f"{label}: {shown(given)} ist keine gültige Kennung (Buchstaben, Ziffern und _ . -, höchstens 40 Zeichen)"
    if kind in ("uuid_parsing", "uuid_type", "uuid_version"):
        return f"{label}: {shown(given)} ist keine gültige UUID (z. B. 3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f)"
    if kind.startswith(("datetime", "date", "time")):
        return f"{label}: {shown(given)} ist keine gültige Zeit (z. B. 2026-11-23T20:15:00Z)"
    return f"{label} ist ungültig ({shown(given)})"


def validation_message(
    error: ValidationError,
    *,
    model: type[BaseModel] | None = None,
    kinds: str | None = None,
    prefix: Sequence[str | int] = (),
    limit: int = 3,
) -> str:
    """A German message for a pydantic error: each field as a player calls it, what is wrong, what is allowed.

    ``model`` is the model that was validated (for the allowed fields and ranges), ``kinds`` the
    entry kinds the ruleset of the input knows (``sheetfile.allowed_kinds``, named for an entry kind
    that is none), ``prefix`` where the validated value sits in a larger document. At most ``limit`` problems are named, then how many more there are.
    """
    seen: list[str] = []
    for item in error.errors():
        text = _one(item, model, kinds, prefix)
        if text not in seen:
            seen.append(text)
    if not seen:
        return "ungültige Eingabe"
    rest = len(seen) - limit
    more = "; und ein weiterer Fehler" if rest == 1 else (f"; und {rest} weitere Fehler" if rest > 1 else "")
    return "; ".join(seen[:limit]) + more


# -- JSON ---------------------------------------------------------------------------------------------------

_JSON_DE = {
    "Expecting value": "hier fehlt ein Wert",
    "Expecting property name enclosed in double quotes": "hier fehlt ein Feldname in doppelten Anführungszeichen",
    "Expecting ',' delimiter": "hier fehlt ein Komma",
    "Expecting ':' delimiter": "hier fehlt ein Doppelpunkt",
    "Unterminated string starting at": 'ein Text ist nicht mit " abgeschlossen',
    "Invalid control character at": "ein Steuerzeichen (z. B. Zeilenumbruch) mitten im Text",
    "Invalid \\escape": "ein ungültiges \\-Zeichen im Text",
    "Invalid \\uXXXX escape": "ein ungültiges \\u-Zeichen im Text",
    "Extra data": "nach dem Ende des Dokuments folgt noch etwas",
    "Illegal trailing comma before end of object": "ein Komma zu viel vor }",
    "Illegal trailing comma before end of array": "ein Komma zu viel vor ]",
}


def json_message(error: json.JSONDecodeError) -> str:
    """``kein gültiges JSON: hier fehlt ein Komma (Zeile 3, Spalte 7)``."""
    what = _JSON_DE.get(error.msg, error.msg)
    return f"kein gültiges JSON: {what} (Zeile {error.lineno}, Spalte {error.colno})"


class _Constant(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _Constant(name)


def load_json(
    data: bytes,
    *,
    source: str | None,
    what: str = "eines Blatts",
    max_bytes: int = MAX_SHEET_BYTES,
    max_depth: int = MAX_DOCUMENT_DEPTH,
) -> dict[str, Any]:
    """Parse a JSON document (a sheet, a backup); ``SheetInputError`` naming the file and the reason.

    Refused: more than ``max_bytes``, empty, not UTF-8, not JSON (with line and column), NaN or
    Infinity, numbers with thousands of digits, no object at the top (``what`` says what was
    expected: "eine Liste statt eines Blatts"), and any limit of ``limits.find_problem``.
    """
    if len(data) > max_bytes:
        raise SheetInputError(f"zu groß ({len(data) // 1024} KB; höchstens {max_bytes // 1024} KB)", source=source)
    if not data.strip():
        raise SheetInputError("leere Datei", source=source)
    if not data.strip(b"\x00"):
        raise SheetInputError("eine Datei, die nur Nullbytes enthält (ein abgebrochenes Schreiben)", source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SheetInputError(f"keine UTF-8-Datei (ungültiges Byte an Stelle {error.start + 1})", source=source) from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise SheetInputError(json_message(error), source=source) from None
    except _Constant as error:
        raise SheetInputError(f"kein gültiges JSON: {error} ist keine Zahl", source=source) from None
    except RecursionError:
        raise SheetInputError(f"zu tief verschachtelt (höchstens {max_depth} Ebenen)", source=source) from None
    except ValueError:  # an integer of more than 4300 digits
        raise SheetInputError("kein gültiges JSON: eine Zahl mit zu vielen Stellen", source=source) from None
    if not isinstance(value, dict):
        raise SheetInputError(f"{_type_name(value)} statt {what}", source=source)
    problem = find_problem(value, max_depth=max_depth)
    if problem is not None:
        path, reason = problem
        raise SheetInputError(f"{field_label(path)} {reason}", source=source)
    return value


# -- any refusal -------------------------------------------------------------------------------------------------


def explain(error: BaseException, *, source: str | None = None) -> str:
    """The German message for any refusal; ``source`` (a file, a device) is named first if given.

    ``SheetInputError`` already names its file; a ``ValidationError`` gets the field names of
    ``field_label``; ``RuleViolation``, ``UnknownRuleset`` and the storage's errors carry their
    own German message; JSON, UTF-8 and OS errors are worded here.
    """
    if isinstance(error, SheetInputError):
        if error.source is None and source is not None:
            return one_line(f"{source} ist {error.reason}")
        return one_line(str(error))
    if isinstance(error, ValidationError):
        text = validation_message(error)
    elif isinstance(error, json.JSONDecodeError):
        text = json_message(error)
    elif isinstance(error, UnicodeDecodeError):
        text = f"keine UTF-8-Datei (ungültiges Byte an Stelle {error.start + 1})"
    elif isinstance(error, UnicodeEncodeError):
        text = "enthält ein Zeichen, das sich nicht als UTF-8 schreiben lässt (ein einzelnes Surrogat)"
    elif isinstance(error, RecursionError):
        text = "zu tief verschachtelt"
    elif isinstance(error, OSError):
        text = f"kann nicht gelesen werden: {error.strerror or error}"
    else:
        text = str(error) or type(error).__name__
    return one_line(f"{source}: {text}" if source else text)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str | None) -> str:
    """Free text (a name, a device, a reason) for a spreadsheet cell: never read as a formula
    (CSV injection, OWASP): a text starting with = + - @ or a tab gets a leading apostrophe."""
    if not text:
        return ""
    return "'" + text if text.startswith(_FORMULA_START) else text


KIND_LABELS = {
    "game": "Spiel",
    "close": "Abschluss",
    "gehen": "Gehen",
    "ausschaffen": "Ausschaffen (unerlaubt)",
    "vergeben": "Vergeben",
    "betrug": "Bscheißn",
    "zeitlimit": "Zeitlimit",
    "strafe": "Strafe",
    "schmeissen": "Schmeißen",
    "correction": "Korrektur",
    "void": "Streichung",
}
"""The German names of entry kinds, as the paper list and the app write them."""


def kind_label(kind: str) -> str:
    """The German name of an entry kind (``KIND_LABELS``, else the kind capitalised)."""
    return KIND_LABELS.get(kind, kind.capitalize())
