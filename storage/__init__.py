"""Crash-safe local storage of scoresheets (see ``repository.py`` for the layout).

    >>> from storage import SheetStore
    >>> store = SheetStore("/tmp/tischblock-doctest")            # doctest: +SKIP
    >>> sheet = store.new_sheet("watten-turnier", participants)  # doctest: +SKIP
    >>> store.add_game(sheet.id, {"winner": "A", "value": 2})     # doctest: +SKIP

Nothing here is imported by ``scoring``; the app and sync import ``storage``.
"""

from .atomic import AtomicJSONStorage, atomic_write_bytes
from .backup import ImportReport, export_backup, export_csv, import_backup, read_backup, sheet_csv
from .errors import (
    BackupError,
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
from .repository import ImportOutcome, SheetInfo, SheetStore, StoredSheet, SyncMark, SyncState
from .schema import SCHEMA_VERSION, migrate, migration

__all__ = [
    "SCHEMA_VERSION",
    "AtomicJSONStorage",
    "BackupError",
    "DamagedFile",
    "ImportOutcome",
    "ImportReport",
    "NewerSchema",
    "SheetExists",
    "SheetInfo",
    "SheetNotFound",
    "SheetStore",
    "StorageError",
    "StorageFull",
    "StoreBusy",
    "StoredSheet",
    "SyncMark",
    "SyncState",
    "SyncStateError",
    "atomic_write_bytes",
    "data_dir",
    "export_backup",
    "export_csv",
    "import_backup",
    "migrate",
    "migration",
    "read_backup",
    "sheet_csv",
]
