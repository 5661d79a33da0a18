"""The host's store: tournaments, devices and every revision of every sheet, in SQL.

One small repository class, ``HostStore``, over SQLAlchemy 2 Core (no ORM); the tables and their
migrations are in ``schema.py``, the values it hands out in ``records.py``. SQLite by default
(``<data-dir>/host.sqlite3``, ``journal_mode=WAL`` and ``synchronous=FULL`` on every
connection, so a commit is on disk when it returns), PostgreSQL with a
``postgresql+psycopg://`` URL for a league that collects many tournaments on one server.

What it promises:

- A revision, once stored, is never changed or removed: the code never updates or deletes one,
  and the database refuses it too (triggers of the migration ``revisionen-unveraenderlich``).
- ``store_revision`` stores a revision in one transaction and returns only after the commit.
  The same body again is "already stored"; another body for a stored (sheet, revision) is kept
  aside in ``conflicts`` (once per distinct body), never stored over the first.
- Schema changes are named migrations applied once, in order, recorded in ``schema_migrations``;
  each one is idempotent, so a crash in the middle of one only repeats that step.

The host serves one current tournament (``host_settings``); the tables are keyed by tournament
so a later issue can add rounds, draws and standings beside them.
"""

from __future__ import annotations

import json
import queue
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from .batches import Answered, Doorbell, LoopAnswered, take_batches
from .records import (
    Conflict,
    DecisionRecord,
    Device,
    DrawnSheet,
    DrawRecord,
    EntrantRecord,
    NewRevision,
    PlanRecord,
    SheetRefused,
    StoredRevision,
    StoreResult,
    Tournament,
    as_utc,
    decision_from_row,
    device_from_row,
    entrant_from_row,
    revision_from_row,
    tournament_from_row,
    utcnow,
)
from .schema import (
    MIGRATIONS,
    conflicts,
    decisions,
    devices,
    drawn_sheets,
    draws,
    entrants,
    host_settings,
    revisions,
    rounds,
    schema_migrations,
    table_claims,
    tournament_plans,
    tournaments,
)

SQLITE_NAME = "host.sqlite3"

# -- the repository ---------------------------------------------------------------------------


def database_url(data_dir: Path | None = None, url: str | None = None) -> str:
    """The URL to open: ``url`` if given, else SQLite in ``data_dir``."""
    if url:
        return url
    if data_dir is None:
        raise ValueError("Ohne --database-url braucht der Host ein Datenverzeichnis (--data-dir)")
    return f"sqlite:///{Path(data_dir).resolve() / SQLITE_NAME}"


class HostStore:
    """The host's repository: every query the host makes, and nothing else touches the database."""

    def __init__(self, url: str, host_id: str | None = None) -> None:
        parsed = make_url(url)
        self.host_id = host_id
        """This host's id (``league.host_id``): on a league's shared database each host has its own
        current tournament and writes only its own tournaments; ``None``: the only host there is."""
        self._owners: dict[str, str | None] = {}
        self.url = parsed
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(
                parsed, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=20, max_overflow=20, pool_timeout=60
            )
            event.listen(self.engine, "connect", _sqlite_on_connect)
            event.listen(self.engine, "begin", _sqlite_on_begin)
        else:
            self.engine = create_engine(parsed, pool_size=20, max_overflow=20, pool_timeout=60, pool_pre_ping=True)
        self._devices: dict[str, Device] = {}
        self._tables = _OwnTables()
        self._group: _GroupCommit | None = None
        self._write_lock: AbstractContextManager[Any] = threading.Lock() if self.is_sqlite else nullcontext()
        self.applied = self.migrate()
        if self.is_sqlite:
            self._group = _GroupCommit(self)

    @classmethod
    def open(cls, data_dir: Path | None = None, url: str | None = None, host_id: str | None = None) -> HostStore:
        return cls(database_url(data_dir, url), host_id)

    def close(self) -> None:
        if self._group is not None:
            self._group.stop()
        self.engine.dispose()

    def describe(self) -> str:
        """Where the data is, for the terminal (never the password of a database URL)."""
        if self.is_sqlite:
            return f"SQLite {self.url.database}"
        return f"PostgreSQL {self.url.render_as_string(hide_password=True)}"

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One write transaction; committed (durably) when the block ends, rolled back on error.

        SQLite has one writer at a time; the threads of this process queue on a lock rather than
        in SQLite's busy handler, which polls with growing sleeps and lets unlucky requests starve.
        """
        with self._write_lock, self.engine.connect() as conn:
            conn.execution_options(tischblock_write=True)
            with conn.begin():
                yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """One read of one statement. On SQLite no BEGIN/COMMIT around it: a single SELECT is
        consistent by itself (in WAL it reads one snapshot), and the two extra round trips were a
        third of what a read cost the host per arriving sheet (issue 24)."""
        with self.engine.connect() as conn:
            conn.execution_options(tischblock_single=True)
            with conn.begin():
                yield conn

    # -- schema ---------------------------------------------------------------------------------
    def migrate(self) -> tuple[str, ...]:
        """Apply the migrations not yet applied, each in its own transaction; return their names."""
        applied: list[str] = []
        for step in MIGRATIONS:
            with self._write() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(7242001)"))
                if schema_migrations.name in _table_names(conn):
                    done = conn.execute(select(schema_migrations.c.name).where(schema_migrations.c.name == step.name)).first()
                    if done is not None:
                        continue
                step.apply(conn)
                conn.execute(insert(schema_migrations).values(name=step.name, applied_at=utcnow()))
                applied.append(step.name)
        return tuple(applied)

    def migrations_applied(self) -> list[str]:
        with self._read() as conn:
            return list(conn.execute(select(schema_migrations.c.name).order_by(schema_migrations.c.applied_at)).scalars())

    # -- settings ---------------------------------------------------------------------------------
    def setting(self, key: str) -> str | None:
        with self._read() as conn:
            return conn.execute(select(host_settings.c.value).where(host_settings.c.key == key)).scalar()

    def set_setting_once(self, key: str, value: str) -> str:
        """Set ``key`` unless it is set; return the value in force (the first one wins). Two hosts
        starting at the same moment on the league's empty database both get here: the second insert
        is skipped by the database itself, not refused (a read first, then an insert, let both read
        nothing and the second host die on the duplicate key)."""
        dialect_insert = postgresql_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        with self._write() as conn:
            conn.execute(dialect_insert(host_settings).values(key=key, value=value).on_conflict_do_nothing())
            return str(conn.execute(select(host_settings.c.value).where(host_settings.c.key == key)).scalar_one())

    # -- tournaments ------------------------------------------------------------------------------
    def create_tournament(self, tournament_id: str, name: str, join_code: str) -> Tournament:
        """A new tournament, made the host's current one."""
        created = utcnow()
        with self._write() as conn:
            conn.execute(
                insert(tournaments).values(
                    id=tournament_id, name=name, join_code=join_code, created=created, host_id=self.host_id
                )
            )
            conn.execute(host_settings.delete().where(host_settings.c.key == self._current_key))
            conn.execute(insert(host_settings).values(key=self._current_key, value=tournament_id))
        self._owners[tournament_id] = self.host_id
        return Tournament(tournament_id, name, join_code, created)

    @property
    def _current_key(self) -> str:
        return "current_tournament" if self.host_id is None else f"current_tournament@{self.host_id}"

    def owns(self, tournament_id: str) -> bool:
        """Does this host write ``tournament_id``? Its own, and those from before hosts had ids; never
        another host's on the league's database (nor one that does not exist)."""
        if tournament_id not in self._owners:
            with self._read() as conn:
                row = conn.execute(select(tournaments.c.host_id).where(tournaments.c.id == tournament_id)).first()
            if row is None:
                return False
            self._owners[tournament_id] = row.host_id
        owner = self._owners[tournament_id]
        return owner is None or self.host_id is None or owner == self.host_id

    def owns_known(self, tournament_id: str) -> bool:
        """``owns`` answered from memory only: ``True`` when this host already knows it writes
        ``tournament_id``; ``False`` when it does not, or does not know yet (then ask ``owns``)."""
        if tournament_id not in self._owners:
            return False
        owner = self._owners[tournament_id]
        return owner is None or self.host_id is None or owner == self.host_id

    def tournament(self, tournament_id: str) -> Tournament | None:
        with self._read() as conn:
            row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        return tournament_from_row(row) if row is not None else None

    def tournament_ids(self) -> set[str]:
        with self._read() as conn:
            return set(conn.execute(select(tournaments.c.id)).scalars())

    def current_tournament(self) -> Tournament | None:
        current = self.setting(self._current_key)
        if current is None and self.host_id is not None:
            # A data directory from before host ids: its current tournament, unless another host writes it.
            legacy = self.setting("current_tournament")
            if legacy is not None and self.owns(legacy):
                return self.tournament(legacy)
        return self.tournament(current) if current is not None else None

    # -- devices ------------------------------------------------------------------------------------
    def add_device(
        self, tournament_id: str, table: int, team: str | None, name: str, token_sha256: str, start_number: int | None = None
    ) -> Device:
        device = Device(uuid.uuid4().hex[:16], tournament_id, table, team, name, utcnow(), start_number)
        with self._write() as conn:
            conn.execute(
                insert(devices).values(
                    id=device.id,
                    tournament_id=tournament_id,
                    table_no=table,
                    team=team,
                    name=name,
                    token_sha256=token_sha256,
                    created=device.created,
                    start_number=start_number,
                )
            )
        self._devices[token_sha256] = device  # its first sheet finds it without the database
        return device

    def known_device(self, token_sha256: str) -> Device | None:
        """The device of a token hash if ``device_by_token`` has found it before (no database)."""
        return self._devices.get(token_sha256)

    def device_by_token(self, token_sha256: str) -> Device | None:
        """The device of a token hash (revoked ones too: the caller refuses them). A found one is
        remembered until ``revoke_device`` changes it; an unknown hash is looked up again next time."""
        known = self._devices.get(token_sha256)
        if known is not None:
            return known
        with self._read() as conn:
            row = conn.execute(select(devices).where(devices.c.token_sha256 == token_sha256)).first()
        if row is None:
            return None
        device = device_from_row(row)
        self._devices[token_sha256] = device
        return device

    def devices(self, tournament_id: str) -> list[Device]:
        """Every device that joined the tournament, oldest first (revoked ones too)."""
        query = select(devices).where(devices.c.tournament_id == tournament_id).order_by(devices.c.created, devices.c.id)
        with self._read() as conn:
            return [device_from_row(row) for row in conn.execute(query)]

    def last_deliveries(self, tournament_id: str) -> dict[str, datetime]:
        """When each device's latest stored revision arrived."""
        query = (
            select(revisions.c.device_id, func.max(revisions.c.received_at))
            .where((revisions.c.tournament_id == tournament_id) & revisions.c.device_id.is_not(None))
            .group_by(revisions.c.device_id)
        )
        with self._read() as conn:
            return {row[0]: as_utc(row[1]) for row in conn.execute(query)}

    def revoke_device(self, tournament_id: str, device_id: str) -> Device | None:
        """Revoke a device of the tournament (once; a second revoke keeps the first time); ``None`` if unknown."""
        key = (devices.c.tournament_id == tournament_id) & (devices.c.id == device_id)
        with self._write() as conn:
            row = conn.execute(select(devices).where(key)).first()
            if row is None:
                return None
            if row.revoked_at is None:
                conn.execute(update(devices).where(key).values(revoked_at=utcnow()))
            token = row.token_sha256
            row = conn.execute(select(devices).where(key)).first()
        self._devices.pop(token, None)
        return device_from_row(row)

    # -- revisions ----------------------------------------------------------------------------------
    def store_revision(self, new: NewRevision) -> StoreResult:
        """Store ``new`` once; the same body again is ``already_stored``; another body is a kept-aside conflict.

        Returns only after the transaction is committed (SQLite ``synchronous=FULL``, PostgreSQL's
        default ``synchronous_commit=on``): an acknowledged revision survives a killed host.
        """
        if self._group is not None:
            return self._group.submit(new)
        return self._store_with_retry(new)

    @property
    def commits_in_groups(self) -> bool:
        """Whether revisions are stored by the group commit (SQLite), so that ``store_revision_in_loop`` may be used."""
        return self._group is not None

    async def store_revision_in_loop(self, new: NewRevision, bell: Doorbell) -> StoreResult:
        """``store_revision`` for a coroutine of ``bell``'s event loop (``commits_in_groups`` only): it
        waits for the commit holding ``new`` in the loop, woken with the rest of its batch."""
        assert self._group is not None, "only with the group commit (SQLite)"
        return await self._group.submit_in_loop(new, bell)

    def _store_with_retry(self, new: NewRevision) -> StoreResult:
        for _ in range(3):
            try:
                return self._store_revision_once(new)
            except IntegrityError:
                # Another request stored the same (sheet, revision) between our look and our insert:
                # look again; the row that won decides.
                continue
        raise RuntimeError(f"revision {new.sheet_id}/{new.revision} could not be stored")

    def _store_revision_once(self, new: NewRevision) -> StoreResult:
        with self._write() as conn:
            result = self._store_in(conn, new)
        self._tables.remember([result])
        return result

    def _store_in(self, conn: Connection, new: NewRevision) -> StoreResult:
        """The statements of one ``store_revision`` inside the open transaction ``conn``.

        A sheet belongs to the tournament, round, table and writer of its first stored revision: a
        revision that says otherwise is refused (``SheetRefused``) before anything is written, so no
        conflict is ever kept for a sheet that is not the sender's own.
        """
        first = conn.execute(
            select(revisions).where(revisions.c.sheet_id == str(new.sheet_id)).order_by(revisions.c.revision).limit(1)
        ).first()
        if first is not None:
            owner = revision_from_row(first)
            if (owner.tournament_id, owner.round_label, owner.round, owner.table, owner.written_by) != (
                new.tournament_id,
                new.round_label,
                new.round,
                new.table,
                new.written_by,
            ):
                raise SheetRefused("Dieses Blatt gehört einem anderen Tisch oder Schreiber; es wurde nichts gespeichert")
        if new.claim:
            self._claim(conn, new)
        key = (revisions.c.sheet_id == str(new.sheet_id)) & (revisions.c.revision == new.revision)
        row = conn.execute(select(revisions).where(key)).first()
        if row is not None:
            existing = revision_from_row(row)
            if existing.body_sha256 == new.body_sha256:
                return StoreResult("already_stored", existing)
            kept = conn.execute(
                select(conflicts.c.id).where(
                    (conflicts.c.sheet_id == str(new.sheet_id))
                    & (conflicts.c.revision == new.revision)
                    & (conflicts.c.body_sha256 == new.body_sha256)
                )
            ).first()
            if kept is None:
                conn.execute(
                    insert(conflicts).values(
                        sheet_id=str(new.sheet_id),
                        revision=new.revision,
                        body=new.body.decode("utf-8"),
                        body_sha256=new.body_sha256,
                        stored_sha256=existing.body_sha256,
                        tournament_id=new.tournament_id,
                        device_id=new.device_id,
                        received_at=utcnow(),
                    )
                )
            return StoreResult("conflict", existing)
        stored = _stored(new, utcnow())
        conn.execute(insert(revisions).values(**_revision_values(stored)))
        return StoreResult("stored", stored)

    def _store_batch(self, conn: Connection, batch: list[NewRevision]) -> list[StoreResult]:
        """``_store_in`` for each of ``batch`` in the open transaction ``conn``, with one look for
        all of them and one multi-row insert of the new ones (the group commit's batch: the
        statements per revision were most of the writer's time).

        A revision takes the fast way only where ``_store_in`` would store it with nothing else to
        decide: its (sheet, revision) is not stored yet, the sheet's first revision has the same
        tournament, round, table and writer (or the sheet is new), it claims no side of a table, and
        its sheet comes once in the batch. Every other one goes through ``_store_in`` (refusals,
        conflicts, claims)."""
        sheets = [str(new.sheet_id) for new in batch]
        rows = conn.execute(_SHEETS_THERE, {"ids": sorted(set(sheets))})
        there: set[tuple[str, int]] = set()
        owners: dict[str, tuple[int, tuple[Any, ...]]] = {}
        for row in rows:
            there.add((row.sheet_id, row.revision))
            owner = (row.tournament_id, row.round_label, row.round, row.table_no, row.written_by)
            if row.sheet_id not in owners or row.revision < owners[row.sheet_id][0]:
                owners[row.sheet_id] = (row.revision, owner)
        once = {sheet for sheet in sheets if sheets.count(sheet) == 1}
        claimers = [_claim_key(new) for new in batch if new.claim]
        held: dict[tuple[str, str, int, int, str], str] = {}
        if claimers:
            found = conn.execute(
                _CLAIMS_AT,
                {
                    "ts": sorted({key[0] for key in claimers}),
                    "ls": sorted({key[1] for key in claimers}),
                    "rs": sorted({key[2] for key in claimers}),
                    "ns": sorted({key[3] for key in claimers}),
                },
            )
            held = {(r.tournament_id, r.round_label, r.round, r.table_no, r.side): r.device_id for r in found}
        received = utcnow()
        results: list[StoreResult] = []
        fresh: list[dict[str, Any]] = []
        claims: list[dict[str, Any]] = []
        for sheet, new in zip(sheets, batch, strict=True):
            mine = (new.tournament_id, new.round_label, new.round, new.table, new.written_by)
            owned = sheet not in owners or owners[sheet][1] == mine
            # a claim takes the fast way where the side is the sender's already, or free and
            # claimed by no other revision of the batch; a side held by another phone (refused, or
            # passed on from a revoked one) is decided by _store_in
            claim = _claim_key(new) if new.claim else None
            claim_free = claim is not None and claim not in held and claimers.count(claim) == 1
            claim_ok = claim is None or held.get(claim) == new.device_id or claim_free
            if (sheet, new.revision) in there or not owned or not claim_ok or sheet not in once:
                results.append(self._store_in(conn, new))
                continue
            if claim_free:
                assert claim is not None
                tournament_id, round_label, round_no, table_no, side = claim
                claims.append(
                    {
                        "tournament_id": tournament_id,
                        "round_label": round_label,
                        "round": round_no,
                        "table_no": table_no,
                        "side": side,
                        "device_id": new.device_id,
                        "claimed_at": received,
                    }
                )
            result = StoreResult("stored", _stored(new, received))
            results.append(result)
            fresh.append(_revision_values(result.stored))
        if claims:
            conn.execute(_INSERT_CLAIM, claims)
        if fresh:
            conn.execute(_INSERT_REVISION, fresh)
        return results

    @staticmethod
    def _claim(conn: Connection, new: NewRevision) -> None:
        """Tables-only: the side ``written_by`` of the table in the round is the first delivering phone's (or passes
        to the next one once the Turnierleitung revoked the holder)."""
        side = new.written_by or ""
        where = {
            "tournament_id": new.tournament_id,
            "round_label": new.round_label,
            "round": new.round or 0,
            "table_no": new.table,
            "side": side,
        }
        key = and_(*(table_claims.c[name] == value for name, value in where.items()))
        held = conn.execute(select(table_claims.c.device_id).where(key)).scalar()
        if held == new.device_id:
            return
        if held is not None:
            holder = conn.execute(select(devices.c.name, devices.c.revoked_at).where(devices.c.id == held)).first()
            if holder is not None and holder.revoked_at is None:
                raise SheetRefused(
                    f"Für {side} an Tisch {new.table} schreibt schon das Handy '{holder.name}'; "
                    "nur die Turnierleitung kann es abmelden und die Seite freigeben"
                )
            conn.execute(update(table_claims).where(key).values(device_id=new.device_id, claimed_at=utcnow()))
            return
        conn.execute(insert(table_claims).values(**where, device_id=new.device_id, claimed_at=utcnow()))

    def revision(self, sheet_id: uuid.UUID, revision: int) -> StoredRevision | None:
        with self._read() as conn:
            row = conn.execute(
                select(revisions).where((revisions.c.sheet_id == str(sheet_id)) & (revisions.c.revision == revision))
            ).first()
        return revision_from_row(row) if row is not None else None

    def latest(self, sheet_id: uuid.UUID) -> StoredRevision | None:
        """The highest revision stored of a sheet."""
        with self._read() as conn:
            row = conn.execute(
                select(revisions).where(revisions.c.sheet_id == str(sheet_id)).order_by(revisions.c.revision.desc()).limit(1)
            ).first()
        return revision_from_row(row) if row is not None else None

    def latest_per_sheet(
        self, tournament_id: str, *, round_label: str | None = None, round: int | None = None, table: int | None = None
    ) -> list[StoredRevision]:
        """The latest revision of every sheet of a tournament (or of one table and round), by table."""
        if table is not None and round is not None:  # every arriving sheet's comparison asks this
            if self.owns_known(tournament_id):
                return self._tables.latest(self, tournament_id, (round_label, round, table))
            with self._read() as conn:
                params = {"t": tournament_id, "l": round_label, "r": round, "n": table}
                return [revision_from_row(row) for row in conn.execute(_TABLE_LATEST, params)]
        where = revisions.c.tournament_id == tournament_id
        if table is not None:
            where = (
                where
                & (revisions.c.round_label == round_label)
                & (revisions.c.round.is_(None) if round is None else revisions.c.round == round)
                & (revisions.c.table_no == table)
            )
        top = (
            select(revisions.c.sheet_id, func.max(revisions.c.revision).label("top"))
            .where(where)
            .group_by(revisions.c.sheet_id)
            .subquery()
        )
        query = select(revisions).join(top, (revisions.c.sheet_id == top.c.sheet_id) & (revisions.c.revision == top.c.top))
        query = query.order_by(revisions.c.round, revisions.c.table_no, revisions.c.received_at, revisions.c.sheet_id)
        with self._read() as conn:
            return [revision_from_row(row) for row in conn.execute(query)]

    def all_revisions(self) -> list[StoredRevision]:
        """Every stored revision (for tests and exports), in (sheet, revision) order."""
        with self._read() as conn:
            return [
                revision_from_row(row)
                for row in conn.execute(select(revisions).order_by(revisions.c.sheet_id, revisions.c.revision))
            ]

    def conflicts(self, tournament_id: str | None = None) -> list[Conflict]:
        query = select(conflicts).order_by(conflicts.c.id)
        if tournament_id is not None:
            query = query.where(conflicts.c.tournament_id == tournament_id)
        with self._read() as conn:
            return [
                Conflict(
                    id=row.id,
                    sheet_id=uuid.UUID(row.sheet_id),
                    revision=row.revision,
                    body=row.body,
                    body_sha256=row.body_sha256,
                    stored_sha256=row.stored_sha256,
                    tournament_id=row.tournament_id,
                    device_id=row.device_id,
                    received_at=as_utc(row.received_at),
                )
                for row in conn.execute(query)
            ]

    # -- the organizer's tournament (issue 13) ----------------------------------------------------
    def save_plan(self, tournament_id: str, plan_json: str, date: str | None) -> PlanRecord:
        """Set (or replace) the tournament's plan; the Desk allows it only before the first draw."""
        record = PlanRecord(tournament_id, plan_json, date, utcnow())
        with self._write() as conn:
            conn.execute(tournament_plans.delete().where(tournament_plans.c.tournament_id == tournament_id))
            conn.execute(
                insert(tournament_plans).values(
                    tournament_id=tournament_id, plan=plan_json, date=date, updated_at=record.updated_at
                )
            )
        return record

    def plan(self, tournament_id: str) -> PlanRecord | None:
        with self._read() as conn:
            row = conn.execute(select(tournament_plans).where(tournament_plans.c.tournament_id == tournament_id)).first()
        return PlanRecord(row.tournament_id, row.plan, row.date, as_utc(row.updated_at)) if row is not None else None

    def entrants(self, tournament_id: str) -> list[EntrantRecord]:
        """The roster, by Startnummer."""
        query = select(entrants).where(entrants.c.tournament_id == tournament_id).order_by(entrants.c.start_number)
        with self._read() as conn:
            return [entrant_from_row(row) for row in conn.execute(query)]

    def replace_entrants(self, tournament_id: str, records: list[EntrantRecord]) -> None:
        """The whole roster at once (a CSV import before the first draw): all rows, or none."""
        created = utcnow()
        with self._write() as conn:
            conn.execute(entrants.delete().where(entrants.c.tournament_id == tournament_id))
            for r in records:
                conn.execute(insert(entrants).values(**_entrant_values(tournament_id, r), created=created))

    def add_entrant(self, record: EntrantRecord) -> None:
        with self._write() as conn:
            conn.execute(insert(entrants).values(**_entrant_values(record.tournament_id, record), created=utcnow()))

    def set_entrant_secret(self, tournament_id: str, start_number: int, secret: str) -> bool:
        """A new secret for the entrant (the old Startkarte no longer joins); ``False`` if not on the roster."""
        key = (entrants.c.tournament_id == tournament_id) & (entrants.c.start_number == start_number)
        with self._write() as conn:
            return bool(conn.execute(update(entrants).where(key).values(secret=secret)).rowcount)

    def withdraw_entrant(self, tournament_id: str, start_number: int, after_round: int) -> None:
        key = (entrants.c.tournament_id == tournament_id) & (entrants.c.start_number == start_number)
        with self._write() as conn:
            conn.execute(update(entrants).where(key).values(withdrawn_after=after_round))

    def save_draw(
        self, tournament_id: str, round: int, seed: int, draw_json: str, sheets: list[DrawnSheet] | None = None
    ) -> DrawRecord:
        """Store a round's draw once, with its sheets' ids; a second draw of the same round is refused by the key."""
        record = DrawRecord(tournament_id, round, seed, draw_json, utcnow())
        with self._write() as conn:
            conn.execute(
                insert(draws).values(tournament_id=tournament_id, round=round, seed=seed, draw=draw_json, created=record.created)
            )
            self._insert_drawn_sheets(conn, sheets or [])
        return record

    def add_drawn_sheets(self, sheets: list[DrawnSheet]) -> None:
        """The sheet ids of a round drawn before they were stored with the draw (all, or none)."""
        with self._write() as conn:
            self._insert_drawn_sheets(conn, sheets)

    @staticmethod
    def _insert_drawn_sheets(conn: Connection, sheets: list[DrawnSheet]) -> None:
        for d in sheets:
            conn.execute(
                insert(drawn_sheets).values(
                    tournament_id=d.tournament_id,
                    round=d.round,
                    start_number=d.start_number,
                    table_no=d.table,
                    writer=d.writer,
                    sheet_id=str(d.sheet_id),
                )
            )

    def drawn_sheets(self, tournament_id: str, round: int) -> list[DrawnSheet]:
        key = (drawn_sheets.c.tournament_id == tournament_id) & (drawn_sheets.c.round == round)
        with self._read() as conn:
            return [
                DrawnSheet(r.tournament_id, r.round, r.start_number, r.table_no, r.writer, uuid.UUID(r.sheet_id))
                for r in conn.execute(select(drawn_sheets).where(key).order_by(drawn_sheets.c.start_number))
            ]

    def draws(self, tournament_id: str) -> list[DrawRecord]:
        query = select(draws).where(draws.c.tournament_id == tournament_id).order_by(draws.c.round)
        with self._read() as conn:
            return [DrawRecord(r.tournament_id, r.round, r.seed, r.draw, as_utc(r.created)) for r in conn.execute(query)]

    def draw_rounds(self, tournament_id: str) -> int:
        """How many rounds are drawn (a cheap check whether a cached list of draws is still whole)."""
        with self._read() as conn:
            return int(
                conn.execute(select(func.count()).select_from(draws).where(draws.c.tournament_id == tournament_id)).scalar() or 0
            )

    def has_decision(self, tournament_id: str, round: int, table: int) -> bool:
        if self.owns_known(tournament_id):
            return self._tables.decided(self, tournament_id, (round, table))
        with self._read() as conn:
            return conn.execute(_HAS_DECISION, {"t": tournament_id, "r": round, "n": table}).first() is not None

    def start_round(self, tournament_id: str, round: int, at: datetime) -> datetime:
        """The round's clock starts at ``at``, once: a second start keeps the first time."""
        key = (rounds.c.tournament_id == tournament_id) & (rounds.c.round == round)
        with self._write() as conn:
            found = conn.execute(select(rounds.c.started_at).where(key)).scalar()
            if found is not None:
                return as_utc(found)
            conn.execute(insert(rounds).values(tournament_id=tournament_id, round=round, started_at=at))
            return at

    def round_starts(self, tournament_id: str) -> dict[int, datetime]:
        query = select(rounds).where(rounds.c.tournament_id == tournament_id)
        with self._read() as conn:
            return {row.round: as_utc(row.started_at) for row in conn.execute(query)}

    def store_host_revision(self, new: NewRevision, decision: DecisionRecord | None) -> StoreResult:
        """A revision the Turnierleitung wrote, with its decision, in one transaction (both or neither)."""
        with self._write() as conn:
            result = self._store_in(conn, new)
            if result.status != "stored":
                raise ValueError(
                    f"Revision {new.revision} von Blatt {new.sheet_id} ist inzwischen schon gespeichert; bitte neu laden"
                )
            if decision is not None:
                self._insert_decision(conn, decision)
        self._tables.remember([result], [decision] if decision is not None else [])
        return result

    def add_decision(self, decision: DecisionRecord) -> None:
        with self._write() as conn:
            self._insert_decision(conn, decision)
        self._tables.remember([], [decision])

    @staticmethod
    def _insert_decision(conn: Connection, d: DecisionRecord) -> None:
        conn.execute(
            insert(decisions).values(
                tournament_id=d.tournament_id,
                round=d.round,
                table_no=d.table,
                kind=d.kind,
                sheet_id=str(d.sheet_id) if d.sheet_id else None,
                revision=d.revision,
                decided_by=d.decided_by,
                reason=d.reason,
                detail=d.detail,
                decided_at=d.decided_at,
            )
        )

    def decisions(self, tournament_id: str, round: int | None = None, table: int | None = None) -> list[DecisionRecord]:
        """The Turnierleitung's decisions, oldest first (of one round, or one table of a round)."""
        where = decisions.c.tournament_id == tournament_id
        if round is not None:
            where = where & (decisions.c.round == round)
        if table is not None:
            where = where & (decisions.c.table_no == table)
        with self._read() as conn:
            return [decision_from_row(row) for row in conn.execute(select(decisions).where(where).order_by(decisions.c.id))]

    def sheet_revisions(self, sheet_id: uuid.UUID) -> list[StoredRevision]:
        """Every stored revision of one sheet, oldest first."""
        query = select(revisions).where(revisions.c.sheet_id == str(sheet_id)).order_by(revisions.c.revision)
        with self._read() as conn:
            return [revision_from_row(row) for row in conn.execute(query)]


def _latest_of(where: Any) -> Any:
    top = (
        select(revisions.c.sheet_id, func.max(revisions.c.revision).label("top"))
        .where(where)
        .group_by(revisions.c.sheet_id)
        .subquery()
    )
    query = select(revisions).join(top, (revisions.c.sheet_id == top.c.sheet_id) & (revisions.c.revision == top.c.top))
    return query.order_by(revisions.c.round, revisions.c.table_no, revisions.c.received_at, revisions.c.sheet_id)


# The statements every arriving sheet runs, built once with bound parameters: building a statement
# and its cache key cost more CPU than SQLite's answer to it (issue 24).
_HAS_DECISION = (
    select(decisions.c.id)
    .where(
        (decisions.c.tournament_id == bindparam("t"))
        & (decisions.c.round == bindparam("r"))
        & (decisions.c.table_no == bindparam("n"))
    )
    .limit(1)
)
_TABLE_LATEST = _latest_of(
    (revisions.c.tournament_id == bindparam("t"))
    & (revisions.c.round_label == bindparam("l"))
    & (revisions.c.round == bindparam("r"))
    & (revisions.c.table_no == bindparam("n"))
)
_TOURNAMENT_LATEST = _latest_of(revisions.c.tournament_id == bindparam("t"))
_DECIDED_TABLES = select(decisions.c.round, decisions.c.table_no).where(decisions.c.tournament_id == bindparam("t")).distinct()
_SHEETS_THERE = select(
    revisions.c.sheet_id,
    revisions.c.revision,
    revisions.c.tournament_id,
    revisions.c.round_label,
    revisions.c.round,
    revisions.c.table_no,
    revisions.c.written_by,
).where(revisions.c.sheet_id.in_(bindparam("ids", expanding=True)))
_INSERT_REVISION = insert(revisions)
_CLAIMS_AT = select(table_claims).where(  # the batch's rounds only: every earlier round's claims were read too
    # Every column of the key up to the table's number: without ``round_label`` SQLite searched the
    # key by the tournament alone and read every claim of every round for each batch (the group
    # commit's writer took 3 times as long in a ninth round as in the first, issue 24).
    table_claims.c.tournament_id.in_(bindparam("ts", expanding=True))
    & table_claims.c.round_label.in_(bindparam("ls", expanding=True))
    & table_claims.c.round.in_(bindparam("rs", expanding=True))
    & table_claims.c.table_no.in_(bindparam("ns", expanding=True))
)
_INSERT_CLAIM = insert(table_claims)


def _claim_key(new: NewRevision) -> tuple[str, str, int, int, str]:
    """The side of a table ``new`` claims, as ``table_claims`` keys it (``_claim``)."""
    return (new.tournament_id, new.round_label, new.round or 0, new.table, new.written_by or "")


def _stored(new: NewRevision, received: datetime) -> StoredRevision:
    return StoredRevision(
        sheet_id=new.sheet_id,
        revision=new.revision,
        body=new.body.decode("utf-8"),
        body_sha256=new.body_sha256,
        tournament_id=new.tournament_id,
        round_label=new.round_label,
        round=new.round,
        table=new.table,
        written_by=new.written_by,
        closed=new.closed,
        games=new.games,
        device_id=new.device_id,
        received_at=received,
    )


def _revision_values(stored: StoredRevision) -> dict[str, Any]:
    return {
        "sheet_id": str(stored.sheet_id),
        "revision": stored.revision,
        "body": stored.body,
        "body_sha256": stored.body_sha256,
        "tournament_id": stored.tournament_id,
        "round_label": stored.round_label,
        "round": stored.round,
        "table_no": stored.table,
        "written_by": stored.written_by,
        "closed": stored.closed,
        "games": stored.games,
        "device_id": stored.device_id,
        "received_at": stored.received_at,
    }


def _entrant_values(tournament_id: str, r: EntrantRecord) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "start_number": r.start_number,
        "name": r.name,
        "members": json.dumps(list(r.members), ensure_ascii=False),
        "club": r.club,
        "registered_round": r.registered_round,
        "withdrawn_after": r.withdrawn_after,
        "secret": r.secret,
    }


TableKey = tuple[str | None, int, int]
"""A table in a round: (round label, round, table)."""


class _OwnTables:
    """What every arriving sheet asks of its table, answered from memory for the tournaments this
    host writes (``HostStore.owns_known``): the latest revision of each sheet at a table
    (``latest_per_sheet`` for one table, the comparison's question) and whether the Turnierleitung
    decided on a table (``has_decision``, the lock's question). The two reads were a sixth of the
    host's CPU per sheet (issue 24).

    A tournament is loaded with one query for each on first use; after that every commit of this
    store that stores a revision or a decision adds it, after the commit and under the same lock as
    the load (so a load either sees a commit in the database or is updated by it). Only this
    process writes the revisions and decisions of a tournament it owns: a league's other hosts
    write only their own (``owns``), and the phones' sheets, the desk's decisions and the
    Turnierleitung's revisions all go through this store. Tournaments this host does not own are
    read from the database every time, as before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, dict[TableKey, dict[uuid.UUID, StoredRevision]]] = {}
        self._decided: dict[str, set[tuple[int, int]]] = {}

    def latest(self, store: HostStore, tournament_id: str, key: TableKey) -> list[StoredRevision]:
        """The latest revision of every sheet at the table, in the database's order (``_latest_of``)."""
        with self._lock:
            tables = self._latest.get(tournament_id)
            if tables is None:
                tables = {}
                with store._read() as conn:
                    for row in conn.execute(_TOURNAMENT_LATEST, {"t": tournament_id}):
                        stored = revision_from_row(row)
                        if stored.round is not None:  # a sheet without a round is looked up in the database
                            tables.setdefault((stored.round_label, stored.round, stored.table), {})[stored.sheet_id] = stored
                self._latest[tournament_id] = tables
            found = list(tables.get(key, {}).values())
        return sorted(found, key=lambda r: (r.received_at, str(r.sheet_id)))

    def decided(self, store: HostStore, tournament_id: str, key: tuple[int, int]) -> bool:
        with self._lock:
            tables = self._decided.get(tournament_id)
            if tables is None:
                with store._read() as conn:
                    tables = {(row.round, row.table_no) for row in conn.execute(_DECIDED_TABLES, {"t": tournament_id})}
                self._decided[tournament_id] = tables
            return key in tables

    def remember(self, results: Sequence[StoreResult], decided: Sequence[DecisionRecord] = ()) -> None:
        """After a commit: its newly stored revisions and its decisions."""
        with self._lock:
            for result in results:
                stored = result.stored
                tables = self._latest.get(stored.tournament_id)
                if result.status != "stored" or tables is None or stored.round is None:
                    continue
                sheets = tables.setdefault((stored.round_label, stored.round, stored.table), {})
                before = sheets.get(stored.sheet_id)
                if before is None or before.revision < stored.revision:
                    sheets[stored.sheet_id] = stored
            for d in decided:
                if d.tournament_id in self._decided:
                    self._decided[d.tournament_id].add((d.round, d.table))


@dataclass
class _Pending:
    new: NewRevision
    done: Answered | LoopAnswered
    result: StoreResult | None = None
    error: BaseException | None = None

    def answer(self) -> StoreResult:
        """What the commit made of ``new`` (once ``done``): its result, or its error raised."""
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class _GroupCommit:
    """Group commit for SQLite: one writer thread stores the revisions that wait together in one
    transaction, so one fsync acknowledges many; each caller returns only after that commit.

    SQLite has one writer and fsyncs every commit (``synchronous=FULL``): 500 tables submitting at
    once would otherwise wait for 500 fsyncs in a row. If a batch fails, its revisions are stored
    one by one, so a bad one fails alone.
    """

    MAX_BATCH = 64

    def __init__(self, store: HostStore) -> None:
        self.store = store
        self.queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="tischblock-host-writer", daemon=True)
        self.thread.start()

    def submit(self, new: NewRevision) -> StoreResult:
        answered = Answered()
        pending = _Pending(new, answered)
        self.queue.put(pending)
        answered.wait()
        return pending.answer()

    async def submit_in_loop(self, new: NewRevision, bell: Doorbell) -> StoreResult:
        """``submit`` for a coroutine of ``bell``'s loop, woken with its batch."""
        answered = LoopAnswered(bell)
        pending = _Pending(new, answered)
        self.queue.put(pending)
        await answered.future
        return pending.answer()

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=30)

    def _run(self) -> None:
        take_batches(self.queue, self.MAX_BATCH, self._commit)

    def _commit(self, batch: list[_Pending]) -> None:
        try:
            with self.store._write() as conn:
                results = self.store._store_batch(conn, [pending.new for pending in batch])
            self.store._tables.remember(results)
            for pending, result in zip(batch, results, strict=True):
                pending.result = result
        except Exception:
            for pending in batch:
                try:
                    pending.result = self.store._store_with_retry(pending.new)
                except Exception as error:
                    pending.error = error
        finally:
            for pending in batch:
                pending.done.set()


def _table_names(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names())


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    """Every SQLite connection: WAL, fsync on every commit, foreign keys; transactions are ours to begin."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_on_begin(conn: Connection) -> None:
    """A write transaction takes the write lock at BEGIN (no deadlock upgrading a read lock later);
    a read of one statement (``_read``) runs in SQLite's autocommit, with no BEGIN at all."""
    options = conn.get_execution_options()
    if options.get("tischblock_write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    elif not options.get("tischblock_single"):
        conn.exec_driver_sql("BEGIN")
