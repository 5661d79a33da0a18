"""The repository the app and sync use: ``SheetStore``.

Layout of a store directory (see ``paths.py`` for where it is)::

    .lock                  the file lock two windows share (filelock)
    index.json             TinyDB: one summary per sheet, a cache for the list screen
    sheets/<uuid>.json     TinyDB: one file per sheet (the sheet with its log, times, sync mark)
    damaged/               unreadable files, moved aside, never deleted
    migrated/              originals of files before a schema migration
    conflicts/             imported sheets that diverged from the stored one

Writing a game rewrites only that sheet's file (``AtomicJSONStorage``: temp file, fsync,
``os.replace``, directory fsync), so a phone with 1000 old sheets appends as fast as an empty
one. The index is a cache: each record carries the (inode, mtime, size) of the sheet file it
was read from; ``list_sheets`` re-reads only the files that changed since, picks up new ones,
drops vanished ones and writes the index back once. A damaged index is kept aside and rebuilt
from the sheet files.

Every operation holds the store's file lock while it reads and writes, so two processes on
the same directory (two app windows) see each other's writes and lose none.

Every entry is checked by its ruleset before it is written (``Ruleset.check``); a refused
entry raises ``RuleViolation`` and nothing is written. Corrections, voids and the close are
appended to the log like any entry, stamped with time and device: nothing is rewritten in
place. The revision of a sheet is the length of its log. Sync marks (queued, delivered,
acknowledged) are storage metadata about a revision, not log entries.
"""

from __future__ import annotations

import os
import platform
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, cast

import filelock
from pydantic import AfterValidator, Field, ValidationError
from tinydb import TinyDB
from tinydb.table import Document

from scoring import Entry, Participant, Replacement, Sheet, SheetContext, effective_entries, find_ruleset, score_sheet
from scoring.engine import EntryChecker
from scoring.limits import MAX_NAME
from scoring.messages import validation_message
from scoring.model import CLOSE, CORRECTION, VOID, Frozen

from .atomic import DAMAGED_DIR, TMP_SUFFIX, atomic_write_bytes, dump_json, ensure_dir
from .errors import (
    DamagedFile,
    NewerSchema,
    SheetExists,
    SheetNotFound,
    StorageError,
    StorageFull,
    StoreBusy,
    SyncStateError,
)
from .paths import data_dir
from .schema import VersionedStorage

SHEETS_DIR = "sheets"
INDEX_FILE = "index.json"
CONFLICTS_DIR = "conflicts"
HANDED_OVER_DIR = "uebergeben"
"""Sheets begun before joining whose games now stand on the drawn table's sheet (kept, not listed)."""
LOCK_FILE = ".lock"
SHEET_TABLE = "sheet"
INDEX_TABLE = "sheets"
ENV_DEVICE = "TISCHBLOCK_DEVICE"


def utcnow() -> datetime:
    return datetime.now(UTC)


def _as_utc(value: datetime) -> datetime:
    """A time without a zone (from a hand-made backup) is read as UTC, so times always compare."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


UtcDatetime = Annotated[datetime, AfterValidator(_as_utc)]


def default_device() -> str:
    """The device name stamped on entries: ``TISCHBLOCK_DEVICE`` or the host name."""
    return (os.environ.get(ENV_DEVICE) or platform.node() or "unbekannt")[:80]


class SyncState(StrEnum):
    """Where a revision of a sheet stands on its way to the organizer."""

    LOCAL = "local"
    QUEUED = "queued"
    DELIVERED = "delivered"
    ACKNOWLEDGED = "acknowledged"


_SYNC_ORDER = {SyncState.LOCAL: 0, SyncState.QUEUED: 1, SyncState.DELIVERED: 2, SyncState.ACKNOWLEDGED: 3}


class SyncMark(Frozen):
    """The sync state of one revision (``revision`` = number of log entries it covers)."""

    state: SyncState = SyncState.LOCAL
    revision: int = Field(default=0, ge=0)
    at: UtcDatetime | None = None


class SheetInfo(Frozen):
    """One line of the sheet list: enough to show and sort, without reading the sheet's file."""

    id: uuid.UUID
    ruleset: str
    participants: tuple[str, ...]
    context: SheetContext
    revision: int
    closed: bool
    created_at: UtcDatetime
    updated_at: UtcDatetime
    device: str | None = None
    sync: SyncMark = SyncMark()

    @property
    def sync_pending(self) -> bool:
        """True while the organizer has not acknowledged the sheet as it is now."""
        return self.sync.state != SyncState.ACKNOWLEDGED or self.sync.revision < self.revision


class StoredSheet(Frozen):
    """A sheet as stored: the sheet itself plus the store's metadata about it."""

    sheet: Sheet
    created_at: UtcDatetime
    updated_at: UtcDatetime
    device: str | None = Field(default=None, max_length=MAX_NAME)
    sync: SyncMark = SyncMark()

    @property
    def revision(self) -> int:
        return len(self.sheet.entries)

    def info(self) -> SheetInfo:
        closed = any(e.kind == CLOSE for e in effective_entries(self.sheet.entries))
        return SheetInfo(
            id=self.sheet.id,
            ruleset=self.sheet.ruleset.id,
            participants=tuple(p.name for p in self.sheet.participants),
            context=self.sheet.context,
            revision=self.revision,
            closed=closed,
            created_at=self.created_at,
            updated_at=self.updated_at,
            device=self.device,
            sync=self.sync,
        )

    def document(self) -> dict[str, Any]:
        """The raw TinyDB document of the sheet file."""
        return self.model_dump(mode="json", exclude_none=True)


class ImportOutcome(StrEnum):
    NEW = "neu"
    UPDATED = "aktualisiert"
    SAME = "unverändert"
    OLDER = "älter, gespeicherter Stand behalten"
    CONFLICT = "Konflikt, gespeicherter Stand behalten"
    INVALID = "ungültig, übersprungen"


class SheetStorage(VersionedStorage):
    """A sheet file: besides the schema, it must hold exactly one valid sheet document."""

    def __init__(self, path: str | os.PathLike[str], damaged_dir: str | os.PathLike[str] | None = None) -> None:
        super().__init__(path, "sheet", damaged_dir)
        self._validated: tuple[dict[str, Any], StoredSheet] | None = None

    def validate_content(self, value: dict[str, Any]) -> None:
        table = value.get(SHEET_TABLE)
        if not isinstance(table, dict) or set(table) != {"1"}:
            raise ValueError("das Blatt fehlt in der Datei")
        try:
            stored = StoredSheet.model_validate(table["1"])
        except ValidationError as error:
            raise ValueError(f"ungültiges Blatt: {validation_message(error, model=StoredSheet)}") from None
        if f"{stored.sheet.id}.json" != self.path.name:
            raise ValueError(f"die Datei enthält das Blatt {stored.sheet.id}")
        self._validated = (table["1"], stored)

    def stored_sheet(self, document: Mapping[str, Any]) -> StoredSheet:
        """``document`` (the sheet's TinyDB document) as a ``StoredSheet``: the one this storage's
        read validated, where ``document`` is that document or TinyDB's copy of it, else validated
        now. Taken once: a document changed after it (a save's) is validated anew. Every read and
        every save validated the whole sheet twice, the file's check and then the store's own (a
        32-game Serie's save: 0.3 ms of its 2.7 ms of CPU, issue 24)."""
        validated, self._validated = self._validated, None
        if validated is not None and (document is validated[0] or document == validated[0]):
            return validated[1]  # TinyDB's copy shares the values: compared by identity, cheaply
        return StoredSheet.model_validate(dict(document))


class IndexStorage(VersionedStorage):
    def __init__(self, path: str | os.PathLike[str], damaged_dir: str | os.PathLike[str] | None = None) -> None:
        super().__init__(path, "index", damaged_dir)


def _replace_document(doc: MutableMapping[str, Any], new: Mapping[str, Any]) -> None:
    """TinyDB update callback body: the stored document becomes ``new``, whole."""
    doc.clear()
    doc.update(new)


def _stamp(stat: os.stat_result) -> list[int]:
    """What identifies one version of a sheet file: every write is a new inode (os.replace)."""
    return [stat.st_ino, stat.st_mtime_ns, stat.st_size]


def _valid_info(record: dict[str, Any]) -> bool:
    """Whether an index record is a well-formed ``SheetInfo`` (else the sheet file is read again)."""
    try:
        SheetInfo.model_validate({k: v for k, v in record.items() if k != "stamp"})
    except ValidationError:
        return False
    return True


def _canonical_id(name: str) -> str:
    """The sheet id a file name in ``sheets/`` stands for, or "" if it is no sheet file of ours."""
    stem = name.removesuffix(TMP_SUFFIX).removesuffix(".json")
    try:
        return stem if str(uuid.UUID(stem)) == stem else ""
    except ValueError:
        return ""


def _parse_id(sheet_id: uuid.UUID | str) -> uuid.UUID:
    try:
        return sheet_id if isinstance(sheet_id, uuid.UUID) else uuid.UUID(str(sheet_id))
    except ValueError:
        raise SheetNotFound(sheet_id) from None


class SheetStore:
    """Crash-safe local store of scoresheets. Every method returns plain values (``Sheet``, ...).

    ``root`` overrides where the store lives (see ``paths.data_dir``); ``device`` is stamped
    on every entry that has none (default: ``TISCHBLOCK_DEVICE`` or the host name).

    One object per process: a forked child must make its own ``SheetStore`` (the file lock
    refuses to be inherited across ``fork``). Threads of one process may share one.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        device: str | None = None,
        lock_timeout: float = 10.0,
    ) -> None:
        self.root = data_dir(root)
        self.sheets_dir = self.root / SHEETS_DIR
        self.damaged_dir = self.root / DAMAGED_DIR
        try:
            ensure_dir(self.sheets_dir)
        except OSError as error:
            raise StorageError(
                f"Der Speicher {self.root} kann nicht angelegt werden: {error.strerror or error}. "
                "Mit --data-dir oder TISCHBLOCK_DATA_DIR lässt sich ein anderes Verzeichnis wählen."
            ) from None
        self.device = (device or default_device())[:80]
        self.lock_timeout = lock_timeout
        self._lock = filelock.FileLock(str(self.root / LOCK_FILE), timeout=lock_timeout)
        self._holder: tuple[int, int] | None = None
        """(process id, thread id) holding ``_lock`` through ``locked``, so a nested hold costs nothing."""
        self._checker: EntryChecker | None = None
        """The ruleset's checker of the sheet as this store last appended to it (``append``): the next
        game is checked from the state after the last one, not by replaying the whole log (issue 24:
        with that replay a Schafkopf Serie's last game took 1.9 times its first from the tap to the
        screen, ``bench/app.py``). It is only a shortcut: ``EntryChecker.advanced`` uses it only
        where the sheet read from the file begins with the log it has seen (else the log is
        replayed), so another window's write, a correction or another sheet cannot make it give
        another verdict."""
        self.warnings: list[str] = []
        """German messages about files found damaged and kept aside, for the app to show."""

    # -- plumbing --------------------------------------------------------------------------
    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's file lock (re-entrant within this object).

        A nested hold by the thread that holds it already passes straight through: re-entering the
        file lock took 50 µs, once per sheet where the statistics read every sheet under one hold
        (issue 24)."""
        me = (os.getpid(), threading.get_ident())
        if self._holder == me:
            yield
            return
        try:
            with self._lock:
                self._holder = me
                try:
                    yield
                finally:
                    self._holder = None
        except filelock.Timeout:
            raise StoreBusy(
                f"Der Speicher {self.root} ist seit {self.lock_timeout:g} s von einem anderen Fenster belegt; bitte erneut versuchen."
            ) from None

    def sheet_path(self, sheet_id: uuid.UUID | str) -> Path:
        return self.sheets_dir / f"{_parse_id(sheet_id)}.json"

    def _sheet_db(self, path: Path) -> TinyDB:
        return TinyDB(path, storage=SheetStorage, damaged_dir=self.damaged_dir)

    def _read(self, sheet_id: uuid.UUID | str) -> StoredSheet:
        path = self.sheet_path(sheet_id)
        if not path.exists() and not Path(str(path) + TMP_SUFFIX).exists():
            raise SheetNotFound(sheet_id)
        db = self._sheet_db(path)
        try:
            doc = db.table(SHEET_TABLE).get(doc_id=1)
        except DamagedFile as error:
            self._warn(str(error))
            raise
        if doc is None:
            raise SheetNotFound(sheet_id)
        return cast(SheetStorage, db.storage).stored_sheet(doc)

    def _update(self, sheet_id: uuid.UUID | str, change: Callable[[StoredSheet], StoredSheet]) -> StoredSheet:
        """Read-change-write one sheet file under the lock; ``change(StoredSheet) -> StoredSheet``.

        If ``change`` raises, nothing is written.
        """
        path = self.sheet_path(sheet_id)
        out: list[StoredSheet] = []

        def transform(doc: MutableMapping[str, Any]) -> None:
            new = change(storage.stored_sheet(doc))
            _replace_document(doc, new.document())
            out.append(new)

        with self.locked():
            db = self._sheet_db(path)
            storage = cast(SheetStorage, db.storage)
            if not path.exists():
                # Only a leftover temp file: recover it if complete, else discard it (a create that
                # was never acknowledged). TinyDB's update writes the file even when it finds no
                # document, which would leave a sheet file without a sheet.
                db.storage.read()
                if not path.exists():
                    raise SheetNotFound(sheet_id)
            try:
                db.table(SHEET_TABLE).update(transform, doc_ids=[1])
            except DamagedFile as error:
                self._warn(str(error))
                raise
        if not out:
            raise SheetNotFound(sheet_id)
        return out[0]

    def _stamp_entry(self, entry: Entry) -> Entry:
        update: dict[str, Any] = {}
        if entry.at is None:
            update["at"] = utcnow()
        if entry.device is None:
            update["device"] = self.device
        return entry.model_copy(update=update) if update else entry

    # -- sheets ----------------------------------------------------------------------------
    def create(self, sheet: Sheet) -> Sheet:
        """Store a new sheet (checked by its ruleset first). ``SheetExists`` if the id is taken."""
        score_sheet(sheet)
        now = utcnow()
        stored = StoredSheet(sheet=sheet, created_at=now, updated_at=now, device=self.device)
        with self.locked():
            if self._exists(sheet.id):
                raise SheetExists(sheet.id)
            self._insert(stored)
        return sheet

    def _exists(self, sheet_id: uuid.UUID | str) -> bool:
        """Whether the sheet is stored (after recovering a leftover temp file). Hold the lock.

        A damaged file is not a stored sheet: reading it kept it aside under ``damaged/`` (and
        noted a warning), so its id is free, e.g. for the sheet restored from a backup.
        """
        try:
            self._read(sheet_id)
        except (SheetNotFound, DamagedFile):
            return False
        return True

    def _insert(self, stored: StoredSheet) -> None:
        """Write a new sheet file in one atomic write, the sheet as document 1. Hold the lock."""
        table = self._sheet_db(self.sheet_path(stored.sheet.id)).table(SHEET_TABLE)
        table.insert(Document(stored.document(), doc_id=1))

    def new_sheet(
        self,
        ruleset_id: str,
        participants: Sequence[Participant],
        context: SheetContext | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Sheet:
        """Create and store an empty sheet under ``ruleset_id``."""
        return self.create(find_ruleset(ruleset_id).new_sheet(participants, context, options))

    def open(self, sheet_id: uuid.UUID | str) -> Sheet:
        """The stored sheet. ``SheetNotFound``, or ``DamagedFile`` (file kept aside) if unreadable."""
        return self.stored(sheet_id).sheet

    def stored(self, sheet_id: uuid.UUID | str) -> StoredSheet:
        """The stored sheet with its metadata (times, device, sync mark)."""
        with self.locked():
            return self._read(sheet_id)

    def list_sheets(self) -> list[SheetInfo]:
        """Every stored sheet, newest first. Reads only sheet files changed since the last listing."""
        with self.locked():
            return self._refresh_index()

    def damaged(self) -> list[Path]:
        """Files that could not be read and were moved aside, oldest first."""
        if not self.damaged_dir.exists():
            return []
        return sorted(self.damaged_dir.iterdir())

    # -- the log ---------------------------------------------------------------------------
    def append(self, sheet_id: uuid.UUID | str, entry: Entry) -> Sheet:
        """Append ``entry`` to the sheet's log after its ruleset accepted it; return the new sheet.

        The entry is stamped with time and device if it has none. ``RuleViolation`` (German
        message naming rule and entry): nothing is written.
        """
        entry = self._stamp_entry(entry)
        checked: list[EntryChecker] = []

        def change(stored: StoredSheet) -> StoredSheet:
            sheet = stored.sheet
            ruleset = find_ruleset(sheet.ruleset.id)
            if entry.kind in (CORRECTION, VOID):
                ruleset.check(sheet, entry)
            else:
                after = ruleset.checker(sheet, self._checker).then(entry)  # raises the refusal
                checked.append(after)
                return stored.model_copy(update={"sheet": after.sheet, "updated_at": utcnow()})
            return stored.model_copy(update={"sheet": sheet.with_entry(entry), "updated_at": utcnow()})

        sheet = self._update(sheet_id, change).sheet
        self._checker = checked[0] if checked and checked[0].sheet is sheet else None
        return sheet

    def add_game(self, sheet_id: uuid.UUID | str, data: Mapping[str, Any], kind: str = "game") -> Sheet:
        """Append a game (or another event ``kind`` of the ruleset) with ``data``."""
        return self.append(sheet_id, Entry(kind=kind, data=dict(data)))

    def correct(
        self,
        sheet_id: uuid.UUID | str,
        target: int,
        kind: str,
        data: Mapping[str, Any],
        reason: str | None = None,
    ) -> Sheet:
        """Append a correction of entry ``target``: the log keeps both, with time and device."""
        entry = Entry(kind=CORRECTION, target=target, replacement=Replacement(kind=kind, data=dict(data)), reason=reason)
        return self.append(sheet_id, entry)

    def void(self, sheet_id: uuid.UUID | str, target: int, reason: str | None = None) -> Sheet:
        """Append a void (Streichung) of entry ``target``."""
        return self.append(sheet_id, Entry(kind=VOID, target=target, reason=reason))

    def close(self, sheet_id: uuid.UUID | str, signed_by: str, override: str | None = None) -> Sheet:
        """Close and sign the sheet (the ruleset may refuse, e.g. while something is owed)."""
        data: dict[str, Any] = {"signed_by": signed_by}
        if override is not None:
            data["override"] = override
        return self.append(sheet_id, Entry(kind=CLOSE, data=data))

    # -- sync marks ------------------------------------------------------------------------
    def mark_queued(self, sheet_id: uuid.UUID | str) -> SyncMark:
        """Queue the sheet as it is now (its current revision) for delivery to the organizer."""

        def change(stored: StoredSheet) -> StoredSheet:
            mark = SyncMark(state=SyncState.QUEUED, revision=stored.revision, at=utcnow())
            if stored.sync.revision == stored.revision and _SYNC_ORDER[stored.sync.state] >= _SYNC_ORDER[mark.state]:
                return stored
            return stored.model_copy(update={"sync": mark})

        return self._update(sheet_id, change).sync

    def mark_delivered(self, sheet_id: uuid.UUID | str, revision: int) -> SyncMark:
        """Revision ``revision`` reached the organizer's server."""
        return self._mark(sheet_id, SyncState.DELIVERED, revision)

    def mark_acknowledged(self, sheet_id: uuid.UUID | str, revision: int) -> SyncMark:
        """The organizer confirmed revision ``revision``."""
        return self._mark(sheet_id, SyncState.ACKNOWLEDGED, revision)

    def _mark(self, sheet_id: uuid.UUID | str, state: SyncState, revision: int) -> SyncMark:
        def change(stored: StoredSheet) -> StoredSheet:
            if not 0 <= revision <= stored.revision:
                raise SyncStateError(
                    f"Blatt {stored.sheet.id} hat Stand {stored.revision}; Stand {revision} kann nicht '{state.value}' sein"
                )
            old = stored.sync
            if revision < old.revision or (revision == old.revision and _SYNC_ORDER[old.state] >= _SYNC_ORDER[state]):
                return stored  # a late or repeated report never moves the mark backwards
            return stored.model_copy(update={"sync": SyncMark(state=state, revision=revision, at=utcnow())})

        return self._update(sheet_id, change).sync

    def pending_sync(self) -> list[SheetInfo]:
        """Sheets whose current revision the organizer has not acknowledged yet."""
        return [info for info in self.list_sheets() if info.sync_pending]

    # -- import (used by backup.py) --------------------------------------------------------
    def put(self, incoming: StoredSheet) -> ImportOutcome:
        """Store ``incoming`` unless that would lose anything: never replaces a longer log by a shorter one.

        New id: stored. Same log: unchanged. The incoming log extends the stored one (same
        header): replaced, keeping the local sync mark. The stored log extends the incoming one:
        kept. Anything else is a conflict: the stored sheet is kept and the incoming one is
        written to ``conflicts/`` for the organizer.
        """
        try:
            score_sheet(incoming.sheet)
        except ValueError:
            return ImportOutcome.INVALID
        path = self.sheet_path(incoming.sheet.id)
        with self.locked():
            if not self._exists(incoming.sheet.id):
                self._insert(incoming)
                return ImportOutcome.NEW
            current = self._read(incoming.sheet.id)
            ours, theirs = current.sheet, incoming.sheet
            same_header = ours.model_dump(exclude={"entries"}) == theirs.model_dump(exclude={"entries"})
            if same_header and ours.entries == theirs.entries:
                return ImportOutcome.SAME
            if same_header and theirs.entries[: len(ours.entries)] == ours.entries:
                replaced = current.model_copy(update={"sheet": theirs, "updated_at": max(current.updated_at, incoming.updated_at)})
                document = replaced.document()
                self._sheet_db(path).table(SHEET_TABLE).update(lambda doc: _replace_document(doc, document), doc_ids=[1])
                return ImportOutcome.UPDATED
            if same_header and ours.entries[: len(theirs.entries)] == theirs.entries:
                return ImportOutcome.OLDER
            conflicts = self.root / CONFLICTS_DIR
            ensure_dir(conflicts)
            stamp = utcnow().strftime("%Y%m%dT%H%M%S%fZ")
            target = conflicts / f"{theirs.id}.{stamp}.json"
            counter = 1
            while target.exists():  # a clock set back or coarse: never overwrite an earlier copy
                counter += 1
                target = conflicts / f"{theirs.id}.{stamp}-{counter}.json"
            atomic_write_bytes(target, dump_json(incoming.document()))
            return ImportOutcome.CONFLICT

    def hand_over(self, begun_id: uuid.UUID | str, sheet: Sheet) -> Sheet:
        """Put the tournament's ``sheet`` in place of the sheet begun before joining (issue 21): the same games
        under the drawn table's header. Under the prepared sheet's id, an empty copy of it is replaced; the
        begun sheet's file is then kept aside in ``uebergeben/``. ``SheetExists`` if a sheet with games holds
        that id; nothing changes on any refusal."""
        score_sheet(sheet)
        now = utcnow()
        with self.locked():
            begun = self._read(begun_id)
            if begun.sheet.entries != sheet.entries:
                raise StorageError("Das Blatt hat sich inzwischen geändert; bitte noch einmal an das Turnier senden.")
            target = self.sheet_path(sheet.id)
            fresh = StoredSheet(sheet=sheet, created_at=begun.created_at, updated_at=now, device=begun.device)
            if sheet.id == begun.sheet.id or self._exists(sheet.id):
                current = begun if sheet.id == begun.sheet.id else self._read(sheet.id)
                if sheet.id != begun.sheet.id and current.sheet.entries:
                    raise SheetExists(sheet.id)
                document = fresh.model_copy(update={"sync": current.sync}).document()
                self._sheet_db(target).table(SHEET_TABLE).update(lambda doc: _replace_document(doc, document), doc_ids=[1])
            else:
                self._insert(fresh)
            if sheet.id != begun.sheet.id:
                aside = self.root / HANDED_OVER_DIR
                ensure_dir(aside)
                os.replace(self.sheet_path(begun_id), aside / self.sheet_path(begun_id).name)
        return sheet

    def all_stored(self) -> list[StoredSheet]:
        """Every readable stored sheet (for the backup), oldest first."""
        with self.locked():
            infos = self._refresh_index()
            out = []
            for info in reversed(infos):
                try:
                    out.append(self._read(info.id))
                except (DamagedFile, SheetNotFound):
                    continue
            return out

    # -- the index -------------------------------------------------------------------------
    def _index_db(self) -> TinyDB:
        return TinyDB(self.root / INDEX_FILE, storage=IndexStorage, damaged_dir=self.damaged_dir)

    def _refresh_index(self) -> list[SheetInfo]:
        db = self._index_db()
        keep_index = False
        try:
            records = {doc["id"]: dict(doc) for doc in db.table(INDEX_TABLE).all() if isinstance(doc.get("id"), str)}
        except DamagedFile as error:
            self._warn(f"{error} Das Verzeichnis der Blätter wird aus den Blatt-Dateien neu aufgebaut.")
            records = {}
            db = self._index_db()
        except NewerSchema as error:  # the index is only a cache: list from the sheet files, never touch it
            self._warn(f"{error} Die Blätter werden direkt aus ihren Dateien gelesen.")
            records = {}
            keep_index = True
        fresh: dict[str, dict[str, Any]] = {}
        changed = False
        with os.scandir(self.sheets_dir) as entries:
            names = [e.name for e in entries if e.name.endswith(".json") or e.name.endswith(".json" + TMP_SUFFIX)]
        ids = sorted({sid for sid in map(_canonical_id, names) if sid})  # foreign files are not sheets
        for sid in ids:
            path = self.sheets_dir / f"{sid}.json"
            record = records.get(sid)
            try:
                stamp = _stamp(path.stat())
            except FileNotFoundError:
                stamp = None
            if record is not None and stamp is not None and record.get("stamp") == stamp and _valid_info(record):
                fresh[sid] = record
                continue
            try:
                stored = self._read(sid)
            except (DamagedFile, SheetNotFound, NewerSchema) as error:
                if isinstance(error, NewerSchema):
                    self._warn(str(error))
                changed = True
                continue
            fresh[sid] = {**stored.info().model_dump(mode="json"), "stamp": _stamp(path.stat())}
            changed = True
        if (changed or set(fresh) != set(records)) and not keep_index:
            raw = {INDEX_TABLE: {str(n): rec for n, rec in enumerate(fresh.values(), start=1)}}
            try:
                db.storage.write(raw)
            except StorageFull as error:  # the index is only a cache: the list is right without it
                self._warn(f"{error} Das betrifft nur das Verzeichnis der Blätter; die Blätter selbst sind vollständig.")
        infos = [SheetInfo.model_validate({k: v for k, v in rec.items() if k != "stamp"}) for rec in fresh.values()]
        infos.sort(key=lambda i: (i.created_at, str(i.id)), reverse=True)
        return infos


