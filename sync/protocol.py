"""The sync protocol between the phones and the organizer's host (API version 1).

Shared by the host (``sync/host/``) and the phone (``sync/client.py``): the paths, the header, the request and
answer models (pydantic v2) and the join line a phone pastes or scans.

- ``GET  /api/v1/info`` (no auth): ``HostInfo``.
- ``POST /api/v1/join``: ``JoinRequest`` -> 201 ``JoinResponse`` (403 wrong code, 429 + Retry-After);
  with a Startnummer when the tournament has a roster (404 unknown number), else with a table.
- ``GET  /api/v1/assignment?round=N`` (device token of a Startnummer): ``AssignmentResponse``, the
  table, seat and prepared sheet of the round (default: the latest drawn); 404 while not drawn.
- ``POST /api/v1/sheets/adopt?round=N`` (device token), body: a sheet begun before joining (no tournament):
  200 ``AdoptResponse``, the drawn table's sheet with its games (the phone keeps it and sends it from then
  on); 422 other teams or another ruleset, 409 the round already signed or decided, 404 not drawn.
- ``PUT  /api/v1/sheets/{sheet_id}/revisions/{revision}`` (device token), body: ``Sheet.to_json()``;
  ``revision == len(sheet.entries)``. 201 ``SubmitResponse(status="stored")`` after the durable
  commit; the same body again 200 ``"already_stored"``; another body for a stored revision 409
  (kept aside for the organizer); a sheet the ruleset refuses 422; over ``MAX_BODY_BYTES`` 413.
- ``GET  /api/v1/sheets/{sheet_id}/revisions/{revision}`` (device of that table, or organizer):
  200 ``SubmitResponse(status="already_stored")`` or 404.
- Organizer (HTTP Basic, user ``ORGANIZER_USER``): ``GET /api/v1/tables`` -> ``list[TableState]``,
  ``GET /api/v1/conflicts`` -> ``list[ConflictInfo]``, ``GET /api/v1/sheets/{sheet_id}`` -> the
  latest revision's sheet JSON; and the tournament's ``/api/v1/organizer/...`` endpoints, one per
  ``sync.host.desk.Desk`` action (docs/sync-client.md lists them).

Every error body is ``Problem`` (``{"detail": "<German message>"}``).
"""

from __future__ import annotations

import hashlib
import re
import uuid
from datetime import datetime
from typing import Literal
from urllib.parse import parse_qs, quote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

from scoring import Sheet
from scoring.compare import Comparison

__all__ = [
    "ADOPT_PATH",
    "API_PREFIX",
    "API_VERSION",
    "MAX_BODY_BYTES",
    "ORGANIZER_USER",
    "TOKEN_HEADER",
    "AdoptResponse",
    "AssignmentResponse",
    "Comparison",
    "ConflictInfo",
    "HostInfo",
    "InvalidJoinLine",
    "JoinLine",
    "JoinRequest",
    "JoinResponse",
    "Problem",
    "SheetSummary",
    "SubmitResponse",
    "TableState",
    "body_sha256",
    "revision_path",
]

API_VERSION = 1
API_PREFIX = "/api/v1"
TOKEN_HEADER = "X-Tischblock-Token"
ORGANIZER_USER = "organizer"
MAX_BODY_BYTES = 1024 * 1024
"""Largest request body the host reads (1 MiB); larger ones get 413."""
JOIN_SCHEME = "tischblock"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Problem(_Model):
    """Every error answer: one German sentence saying what is wrong and where."""

    detail: str


class HostInfo(_Model):
    """What ``GET /api/v1/info`` tells anyone who asks: which tournament this host collects."""

    api_version: int = API_VERSION
    tournament_id: str
    tournament_name: str


class JoinRequest(_Model):
    """A phone joins the tournament: with its ``start_number`` when the tournament has a roster (the
    table then comes from each round's draw), else for one ``table`` (and the team or seat whose
    sheet it keeps). Exactly one of ``table`` and ``start_number``."""

    join_code: str = Field(min_length=1, max_length=64)
    table: int | None = Field(default=None, ge=1, le=100_000)
    team: str | None = Field(default=None, max_length=80)
    """Participant id, team name or seat the phone writes for (``context.written_by`` of its sheets)."""
    device_name: str = Field(min_length=1, max_length=80)
    start_number: int | None = Field(default=None, ge=1, le=100_000)
    secret: str | None = Field(default=None, max_length=32)
    """The entrant's secret from its Startkarte (``XXXX-XXXX``): needed to join with ``start_number``."""

    @model_validator(mode="after")
    def _one_way(self) -> JoinRequest:
        if (self.table is None) == (self.start_number is None):
            raise ValueError("Entweder die Startnummer oder die Tischnummer angeben (genau eines von beiden)")
        return self


class JoinResponse(_Model):
    """The device's token (sent back in ``TOKEN_HEADER``, never in a URL) and where it belongs.

    The phone writes ``tournament_id`` into ``context.tournament`` and ``table`` into
    ``context.table`` of the sheets it submits: the host refuses (403) a sheet of another
    tournament or table. The token cannot be shown again; a phone that lost it joins anew.
    """

    device_token: str
    device_id: str
    tournament_id: str
    tournament_name: str
    table: int | None = None
    """The table joined for; ``None`` for a device that joined with its Startnummer."""
    team: str | None = None
    start_number: int | None = None


class AssignmentResponse(_Model):
    """``GET /api/v1/assignment``: where the device's Startnummer plays in a round, and the sheet to open.

    ``sheet`` is the prepared, empty sheet of that table (participants with Startnummern and seats,
    ruleset and options, context with tournament, round, table and ``written_by`` = this entrant's
    participant id). Its id is the same on every ask, so a phone that asks again opens the same sheet.
    """

    tournament_id: str
    tournament_name: str
    round: int
    round_label: str
    table: int
    seat: int | None = None
    start_number: int
    participant_id: str
    name: str
    started_at: datetime | None = None
    sheet: Sheet


ADOPT_PATH = f"{API_PREFIX}/sheets/adopt"


class AdoptResponse(_Model):
    """``POST /api/v1/sheets/adopt``: the drawn table's sheet holding the games of a sheet begun before joining.

    ``sheet`` has the prepared sheet's id and context (tournament, round, table, ``written_by``) and the
    drawn participants under the begun sheet's participant ids; its entries are the begun sheet's. Nothing
    is stored by this answer: the phone keeps the sheet and sends it like any other."""

    round: int
    round_label: str
    table: int
    sheet: Sheet


class SubmitResponse(_Model):
    """A revision the host holds: stored now, or already stored before."""

    status: Literal["stored", "already_stored"]
    sheet_id: uuid.UUID
    revision: int = Field(ge=0)
    closed: bool
    comparison: Comparison | None = None
    """The comparison with the other sheet of the same table and round, if the host has one."""


class SheetSummary(_Model):
    """One sheet of a table as the organizer sees it: its latest revision."""

    sheet_id: uuid.UUID
    written_by: str | None = None
    team: str | None = None
    """The name of the participant ``written_by`` names, if it names one."""
    revision: int
    closed: bool
    games: int
    updated_at: datetime


class TableState(_Model):
    """A table in a round: its sheets and, with two of them, how they compare."""

    round_label: str
    round: int | None = None
    table: int
    sheets: list[SheetSummary]
    comparison: Comparison | None = None


class ConflictInfo(_Model):
    """A body that differed from the revision already stored: kept aside, never stored over it."""

    id: int
    sheet_id: uuid.UUID
    revision: int
    device_id: str | None = None
    received_at: datetime
    body_sha256: str
    stored_sha256: str
    body: str


def body_sha256(body: bytes) -> str:
    """Hex SHA-256 of a request body (how the host tells "the same body" from "another one")."""
    return hashlib.sha256(body).hexdigest()


def revision_path(sheet_id: uuid.UUID | str, revision: int) -> str:
    """The path of one revision of one sheet, below the host's URL."""
    return f"{API_PREFIX}/sheets/{sheet_id}/revisions/{revision}"


class InvalidJoinLine(ValueError):
    """The pasted or scanned text is no Tischblock join line; ``str()`` says why, in German."""


_FINGERPRINT = re.compile(r"^[0-9A-F]{2}(:[0-9A-F]{2}){31}$")
_SECRET = re.compile(r"^[A-Z0-9-]{4,32}$")


class JoinLine(_Model):
    """The one line a phone pastes or scans to join: host URL, join code, certificate fingerprint,
    and on an entrant's Startkarte that entrant's Startnummer and secret.

    ``tischblock://join?url=https://192.168.1.20:8443&code=K7P4Q2&fp=AB:CD:...`` (the hall's Aushang),
    ``...&nr=12&key=7KQ4-M2XP`` (the Startkarte of Startnummer 12).

    ``fingerprint`` is the SHA-256 of the host's certificate as colon hex (upper case), as
    urllib3's ``assert_fingerprint`` takes it; a line with an ``https`` URL must carry it.
    ``secret`` is the entrant's own key from the host (letters, digits and dashes, read as upper case).
    """

    url: str
    code: str
    fingerprint: str | None = None
    start_number: int | None = Field(default=None, ge=1, le=100_000)
    secret: str | None = Field(default=None, min_length=4, max_length=32, pattern=r"^[A-Z0-9-]+$")

    def format(self) -> str:
        return f"{JOIN_SCHEME}://join?{self.query()}"

    def query(self) -> str:
        """The line's fields as a URL query (``url=…&code=…&fp=…&nr=…&key=…``): the same in the deep link
        and in the web app's address ``/beitreten?…``."""
        query = f"url={quote(self.url, safe=':/[]')}&code={quote(self.code, safe='')}"
        if self.fingerprint:
            query += f"&fp={self.fingerprint}"
        if self.start_number is not None:
            query += f"&nr={self.start_number}"
        if self.secret:
            query += f"&key={self.secret}"
        return query

    def web_path(self) -> str:
        """Where the web app opens "Turnier beitreten" with this line filled in."""
        return f"/beitreten?{self.query()}"

    def for_everyone(self) -> JoinLine:
        """The hall's line without this entrant's Startnummer and key (what a phone may remember)."""
        return self.model_copy(update={"start_number": None, "secret": None})

    @classmethod
    def parse(cls, text: str) -> JoinLine:
        """Read a join line; ``InvalidJoinLine`` with a German reason if it is none."""
        text = text.strip()
        parts = urlsplit(text)
        if parts.scheme != JOIN_SCHEME or parts.netloc != "join":
            raise InvalidJoinLine("Das ist keine Beitritts-Zeile von Tischblock (sie beginnt mit tischblock://join?).")
        query = parse_qs(parts.query, keep_blank_values=True)
        url = query.get("url", [""])[0].strip().rstrip("/")
        code = query.get("code", [""])[0].strip()
        fingerprint = query.get("fp", [""])[0].strip().upper() or None
        target = urlsplit(url)
        if target.scheme not in ("http", "https") or not target.hostname:
            raise InvalidJoinLine("In der Beitritts-Zeile fehlt die Adresse des Veranstalters (url=https://...).")
        if not code:
            raise InvalidJoinLine("In der Beitritts-Zeile fehlt der Beitrittscode (code=...).")
        if fingerprint is not None and not _FINGERPRINT.match(fingerprint):
            raise InvalidJoinLine("Der Fingerabdruck des Zertifikats (fp=...) ist unvollständig oder falsch geschrieben.")
        if target.scheme == "https" and fingerprint is None:
            raise InvalidJoinLine(
                "Für eine https-Adresse braucht die Beitritts-Zeile den Fingerabdruck des Zertifikats (fp=...)."
            )
        number = query.get("nr", [""])[0].strip()
        if number and not re.fullmatch(r"[1-9][0-9]{0,4}", number):
            raise InvalidJoinLine("Die Startnummer in der Beitritts-Zeile (nr=...) ist keine Zahl von 1 bis 99999.")
        secret = query.get("key", [""])[0].strip().upper() or None
        if secret is not None and not _SECRET.match(secret):
            raise InvalidJoinLine("Der Schlüssel der Startkarte (key=...) ist unvollständig oder falsch geschrieben.")
        return cls(url=url, code=code, fingerprint=fingerprint, start_number=int(number) if number else None, secret=secret)

    @classmethod
    def from_link(cls, link: str) -> JoinLine | None:
        """The join line a link carries, or ``None`` if it carries none: the line itself, the web app's
        ``/beitreten?url=…&code=…`` (with or without its host), or the route a ``tischblock://join?…`` deep link
        gives the app (``/?url=…``, ``/join?url=…``). ``InvalidJoinLine`` (German) for a link with the join
        fields that are wrong."""
        parts = urlsplit(link.strip())
        if parts.scheme == JOIN_SCHEME:
            return cls.parse(link)
        if parts.path.rstrip("/") not in ("", "/beitreten", "/join"):
            return None
        query = parse_qs(parts.query)
        if "url" not in query and "code" not in query:
            return None
        return cls.parse(f"{JOIN_SCHEME}://join?{parts.query}")
