"""The values the host's store hands out: one frozen dataclass per kind of row, and how a row becomes one."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time the store keeps is UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# -- values -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    join_code: str
    created: datetime


@dataclass(frozen=True)
class Device:
    id: str
    tournament_id: str
    table: int
    """The table it joined for; 0 for a device that joined with its Startnummer (table from the draw)."""
    team: str | None
    name: str
    created: datetime
    start_number: int | None = None
    revoked_at: datetime | None = None
    """When the Turnierleitung revoked it: its token gets 401 from then on."""


@dataclass(frozen=True)
class DrawnSheet:
    """The sheet an entrant keeps in a drawn round: its random id, table and writer (participant id)."""

    tournament_id: str
    round: int
    start_number: int
    table: int
    writer: str
    sheet_id: uuid.UUID


class SheetRefused(ValueError):
    """The store refused a revision because the sheet belongs to another writer, or the side of the
    table to another phone (German message); the transaction changed nothing."""


@dataclass(frozen=True)
class PlanRecord:
    tournament_id: str
    plan: str
    """The plan as JSON (``TournamentPlan.model_dump_json()``)."""
    date: str | None
    updated_at: datetime


@dataclass(frozen=True)
class EntrantRecord:
    tournament_id: str
    start_number: int
    name: str
    members: tuple[str, ...]
    club: str | None
    registered_round: int | None
    withdrawn_after: int | None
    secret: str | None = None
    """The entrant's secret for the Startkarte (a phone joins for the Startnummer only with it)."""


@dataclass(frozen=True)
class DrawRecord:
    tournament_id: str
    round: int
    seed: int
    draw: str
    """The draw as JSON (``RoundDraw.model_dump_json()``)."""
    created: datetime


@dataclass(frozen=True)
class DecisionRecord:
    """A decision of the Turnierleitung about one table of one round: kept forever, never changed."""

    id: int
    tournament_id: str
    round: int
    table: int
    kind: str
    sheet_id: uuid.UUID | None
    revision: int | None
    decided_by: str
    reason: str
    detail: str
    decided_at: datetime


@dataclass(frozen=True)
class NewRevision:
    """A revision the host has checked and wants stored; ``body`` is exactly what the phone sent."""

    sheet_id: uuid.UUID
    revision: int
    body: bytes
    body_sha256: str
    tournament_id: str
    round_label: str
    round: int | None
    table: int
    written_by: str | None
    closed: bool
    games: int
    device_id: str | None
    claim: bool = False
    """Tables-only tournaments: the revision claims its side (``written_by``) of the table for
    ``device_id``; refused if another phone that is not revoked holds it."""


@dataclass(frozen=True)
class StoredRevision:
    sheet_id: uuid.UUID
    revision: int
    body: str
    body_sha256: str
    tournament_id: str
    round_label: str
    round: int | None
    table: int
    written_by: str | None
    closed: bool
    games: int
    device_id: str | None
    received_at: datetime


@dataclass(frozen=True)
class StoreResult:
    """What ``store_revision`` did: stored it now, had it already, or kept a different body aside."""

    status: Literal["stored", "already_stored", "conflict"]
    stored: StoredRevision


@dataclass(frozen=True)
class Conflict:
    id: int
    sheet_id: uuid.UUID
    revision: int
    body: str
    body_sha256: str
    stored_sha256: str
    tournament_id: str | None
    device_id: str | None
    received_at: datetime


def revision_from_row(row: Any) -> StoredRevision:
    return StoredRevision(
        sheet_id=uuid.UUID(row.sheet_id),
        revision=row.revision,
        body=row.body,
        body_sha256=row.body_sha256,
        tournament_id=row.tournament_id,
        round_label=row.round_label,
        round=row.round,
        table=row.table_no,
        written_by=row.written_by,
        closed=bool(row.closed),
        games=row.games,
        device_id=row.device_id,
        received_at=as_utc(row.received_at),
    )


def tournament_from_row(row: Any) -> Tournament:
    return Tournament(id=row.id, name=row.name, join_code=row.join_code, created=as_utc(row.created))


def device_from_row(row: Any) -> Device:
    return Device(
        id=row.id,
        tournament_id=row.tournament_id,
        table=row.table_no,
        team=row.team,
        name=row.name,
        created=as_utc(row.created),
        start_number=row.start_number,
        revoked_at=as_utc(row.revoked_at) if row.revoked_at is not None else None,
    )


def entrant_from_row(row: Any) -> EntrantRecord:
    return EntrantRecord(
        tournament_id=row.tournament_id,
        start_number=row.start_number,
        name=row.name,
        members=tuple(json.loads(row.members)),
        club=row.club,
        registered_round=row.registered_round,
        withdrawn_after=row.withdrawn_after,
        secret=row.secret,
    )


def decision_from_row(row: Any) -> DecisionRecord:
    return DecisionRecord(
        id=row.id,
        tournament_id=row.tournament_id,
        round=row.round,
        table=row.table_no,
        kind=row.kind,
        sheet_id=uuid.UUID(row.sheet_id) if row.sheet_id else None,
        revision=row.revision,
        decided_by=row.decided_by,
        reason=row.reason,
        detail=row.detail,
        decided_at=as_utc(row.decided_at),
    )
