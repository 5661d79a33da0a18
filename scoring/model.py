"""The scoresheet: who plays, where, under which rules, and the log of what happened.

A sheet stores raw inputs only. Totals, status and results are never stored as truth:
``Ruleset.score(sheet)`` recomputes them from the log every time (see ``engine.py``).

The log is append-only. A past entry is never rewritten: a ``correction`` entry names the
entry it replaces (``target``) and carries the replacement, a ``void`` entry names the entry
it cancels. Both stay in the log with time, device and reason, so the trail of every change
is the log itself.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator
from pydantic_core import PydanticCustomError

from .limits import (
    MAX_DATA_DEPTH,
    MAX_ENTRIES,
    MAX_NAME,
    MAX_NUMBER,
    MAX_PARTICIPANTS,
    MAX_TEXT,
    NOT_UTF8,
    find_problem,
    not_utf8,
)

SHEET_FORMAT = "tischblock-sheet"
SHEET_FORMAT_VERSION = 1

#: Log entries every ruleset understands; the rulesets add their own game and event kinds.
CORRECTION = "correction"
VOID = "void"
CLOSE = "close"
GENERIC_KINDS = frozenset({CORRECTION, VOID, CLOSE})

_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"
_KIND_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"


class Frozen(BaseModel):
    """Base for the sheet's values: immutable, and unknown fields are an error, not noise."""

    model_config = ConfigDict(frozen=True, extra="forbid")


#: Error type of a value that breaks a limit of ``limits.py``; ``ctx`` holds the ``path`` inside it.
INPUT_LIMIT = "input_limit"


def _limit_error(path: list[str | int], reason: str) -> PydanticCustomError:
    return PydanticCustomError(INPUT_LIMIT, "{reason}", {"reason": reason, "path": path})


def _writable(text: str) -> str:
    """A typed text of a sheet must be writable as UTF-8. A JSON body cannot hold a lone surrogate
    (pydantic's parser refuses it); a Python value can (``json.loads`` of ``"\\ud800"``)."""
    if not text.isascii() and not_utf8(text):
        raise _limit_error([], NOT_UTF8)
    return text


def _free_form(depth: int) -> AfterValidator:
    """The limits of ``limits.py`` for a free-form value (an entry's ``data``, the ruleset's options)
    standing ``depth`` levels below the model that holds it (an entry's ``data`` one, a correction's
    replacement's ``data`` two): no text longer than ``MAX_TEXT`` or unwritable as UTF-8, no number
    that is not finite, nothing deeper than ``MAX_DATA_DEPTH`` below the model."""

    def check(value: dict[str, Any]) -> dict[str, Any]:
        problem = find_problem(value, max_depth=MAX_DATA_DEPTH, max_text=MAX_TEXT, depth=depth)
        if problem is not None:
            path, reason = problem
            raise _limit_error(list(path), reason)
        return value

    return AfterValidator(check)


Text = Annotated[str, AfterValidator(_writable)]
"""A typed text of a sheet (its length is bounded by its field)."""
Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME), AfterValidator(_writable)]
FreeForm = Annotated[dict[str, Any], _free_form(1)]
"""An entry's ``data``, the ruleset's options: free-form, within the limits."""
ReplacementData = Annotated[dict[str, Any], _free_form(2)]
"""A correction's replacement's ``data``: two levels below the entry that holds it."""


class Checked(Frozen):
    """Base of what a sheet is made of, within the limits of ``limits.py``.

    Every text must be writable as UTF-8, every number finite, nothing nested deeper than
    ``MAX_DATA_DEPTH`` and no text longer than ``MAX_TEXT``; so nothing a sheet holds can fail
    to be written back. The typed fields hold this by their types (``Text``, ``Name``, lengths);
    the free-form ones (``FreeForm``) are walked. Walking every model's raw input instead (a
    validator before the fields) cost more than the rest of parsing a sheet and made pydantic
    turn a JSON body into Python values first (``bench/host.py --per-sheet``: parse 0.15 ms to
    0.06 ms a sheet; issue 24).
    """


class Participant(Checked):
    """A team or a player at the table.

    ``id`` is the key used in entries and totals (short, e.g. ``"A"`` or ``"p1"``).
    ``start_number`` is the tournament's Startnummer and identifies the participant across
    the sheets of a tournament; ``seat`` is the place at the table (1 = first seat, going
    clockwise), which fixes the order of dealing.
    """

    id: str = Field(pattern=_ID_PATTERN)
    name: Name
    seat: int | None = Field(default=None, ge=1, le=MAX_PARTICIPANTS)
    start_number: int | None = Field(default=None, ge=1, le=MAX_NUMBER)
    members: tuple[Name, ...] = Field(default=(), max_length=MAX_PARTICIPANTS)

    @property
    def key(self) -> str:
        """Identity across sheets of one tournament: the Startnummer, else the name."""
        return f"#{self.start_number}" if self.start_number is not None else self.name


class SheetContext(Checked):
    """Where the sheet belongs: tournament, round, table and who writes it."""

    tournament: Text | None = Field(default=None, max_length=MAX_TEXT)
    round_label: Literal["Durchgang", "Serie", "Runde", "Spielabend"] = "Spielabend"
    round: int | None = Field(default=None, ge=1, le=MAX_NUMBER)
    table: int | None = Field(default=None, ge=1, le=MAX_NUMBER)
    written_by: Text | None = Field(default=None, max_length=MAX_NAME)
    """Participant id (or seat) of the team or Listenführer who keeps this sheet."""


class RulesetRef(Checked):
    """The ruleset a sheet is scored by, with the options in force snapshotted."""

    id: Text = Field(min_length=1, max_length=40)
    version: int = Field(ge=1, le=MAX_NUMBER)
    options: FreeForm = Field(default_factory=dict)


class Replacement(Checked):
    """What a correction puts in place of the entry it targets."""

    kind: str = Field(pattern=_KIND_PATTERN)
    data: ReplacementData = Field(default_factory=dict)


class Entry(Checked):
    """One line of the log: a game, an event the rules know, a correction, a void, a close.

    ``kind`` is ``"game"`` for a played game or a ruleset's event (``"vergeben"``,
    ``"zeitlimit"``, ``"strafe"``, ...); ``data`` holds its raw inputs, which the ruleset
    validates. Entries are numbered from 1 in log order; ``target`` of a correction or
    void is such a number.
    """

    kind: str = Field(pattern=_KIND_PATTERN)
    data: FreeForm = Field(default_factory=dict)
    target: int | None = Field(default=None, ge=1, le=MAX_ENTRIES)
    replacement: Replacement | None = None
    at: datetime | None = None
    device: Text | None = Field(default=None, max_length=MAX_NAME)
    reason: Text | None = Field(default=None, max_length=MAX_TEXT)

    @model_validator(mode="after")
    def _shape(self) -> Entry:
        if self.kind in (CORRECTION, VOID) and self.target is None:
            raise ValueError(f"Ein Eintrag '{self.kind}' braucht 'target' (die Nummer des Eintrags).")
        if self.kind not in (CORRECTION, VOID) and self.target is not None:
            raise ValueError(f"'target' gibt es nur bei Korrektur und Streichung, nicht bei '{self.kind}'.")
        if (self.kind == CORRECTION) != (self.replacement is not None):
            raise ValueError("Eine Korrektur braucht genau eine 'replacement'; andere Einträge keine.")
        if self.replacement is not None and self.replacement.kind in GENERIC_KINDS - {CLOSE}:
            raise ValueError("Eine Korrektur kann keine Korrektur oder Streichung enthalten.")
        return self

    @classmethod
    def now(cls, kind: str, data: dict[str, Any] | None = None, **fields: Any) -> Entry:
        """An entry stamped with the current UTC time."""
        return cls(kind=kind, data=data or {}, at=datetime.now(UTC), **fields)


class Sheet(Frozen):
    """A scoresheet (Tischliste) of one table for one round."""

    format: Literal["tischblock-sheet"] = "tischblock-sheet"
    format_version: int = Field(default=SHEET_FORMAT_VERSION, ge=1, le=MAX_NUMBER)
    id: uuid.UUID = Field(default_factory=uuid.uuid4)
    ruleset: RulesetRef
    participants: tuple[Participant, ...] = Field(min_length=1, max_length=MAX_PARTICIPANTS)
    context: SheetContext = SheetContext()
    entries: tuple[Entry, ...] = Field(default=(), max_length=MAX_ENTRIES)

    @field_validator("format_version")
    @classmethod
    def _known_format(cls, value: int) -> int:
        if value > SHEET_FORMAT_VERSION:
            raise ValueError(f"Das Blatt hat Format-Version {value}; diese App kennt bis Version {SHEET_FORMAT_VERSION}")
        return value

    @field_validator("participants")
    @classmethod
    def _unique_participants(cls, value: tuple[Participant, ...]) -> tuple[Participant, ...]:
        ids = [p.id for p in value]
        if len(set(ids)) != len(ids):
            raise ValueError(f"Teilnehmer-IDs müssen eindeutig sein: {ids}")
        seats = [p.seat for p in value if p.seat is not None]
        if len(set(seats)) != len(seats):
            raise ValueError(f"Jeder Platz darf nur einmal besetzt sein: {seats}")
        return value

    @property
    def participant_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.participants)

    def participant(self, participant_id: str) -> Participant:
        for p in self.participants:
            if p.id == participant_id:
                return p
        raise KeyError(participant_id)

    @property
    def writer_name(self) -> str | None:
        """The name of the participant who writes the sheet (``context.written_by``, their id or seat),
        else ``written_by`` itself; ``None`` where the sheet does not say (docs/sheet-format.md)."""
        who = self.context.written_by
        if who is None:
            return None
        return next((p.name for p in self.participants if who in (p.id, str(p.seat))), who)

    def with_entry(self, entry: Entry) -> Sheet:
        """A copy of the sheet with ``entry`` appended to the log (nothing is checked here)."""
        return self.model_copy(update={"entries": (*self.entries, entry)})

    def to_json(self) -> str:
        return self.model_dump_json(indent=2, exclude_none=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Sheet:
        return cls.model_validate_json(text)
