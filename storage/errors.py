"""The storage's errors. Each ``str()`` is a German message the app can show as it is.

None of them means data was lost: every one is raised *before* anything was overwritten,
and a file that cannot be read is kept aside (see ``DamagedFile.kept_at``).
"""

from __future__ import annotations

from pathlib import Path


class StorageError(Exception):
    """Something went wrong reading or writing the local store; nothing already stored was changed."""


class DamagedFile(StorageError):
    """A file cannot be read (not JSON, truncated, empty, not a Tischblock file).

    The file was moved aside to ``kept_at`` (nothing is deleted) and is never silently
    replaced by an empty one.
    """

    def __init__(self, path: Path, reason: str, kept_at: Path | None = None) -> None:
        self.path = path
        self.reason = reason
        self.kept_at = kept_at
        where = f" Die Datei wurde unverändert nach {kept_at} gelegt." if kept_at else ""
        super().__init__(f"Die Datei {path} ist beschädigt und kann nicht gelesen werden ({reason}).{where}")


class StorageFull(StorageError):
    """The disk is full (or a quota reached): the write was abandoned, the old file is intact."""

    def __init__(self, path: Path, detail: str) -> None:
        self.path = path
        super().__init__(
            f"Der Speicher ist voll: {path} konnte nicht geschrieben werden ({detail}). "
            "Der letzte gespeicherte Stand ist unverändert; bitte Platz schaffen und den Eintrag wiederholen."
        )


class NewerSchema(StorageError):
    """The file was written by a newer Tischblock: this version must not touch it."""

    def __init__(self, path: Path, found: int, known: int) -> None:
        self.path = path
        self.found = found
        self.known = known
        super().__init__(
            f"{path} wurde von einer neueren Tischblock-Version geschrieben (Speicherformat {found}, "
            f"diese App kennt bis {known}). Bitte die App aktualisieren; die Datei bleibt unverändert."
        )


class SheetNotFound(StorageError, LookupError):
    """No stored sheet has that id."""

    def __init__(self, sheet_id: object) -> None:
        self.sheet_id = sheet_id
        super().__init__(f"Kein gespeichertes Blatt mit der ID {sheet_id}")


class SheetExists(StorageError):
    """A sheet with that id is already stored (create never overwrites)."""

    def __init__(self, sheet_id: object) -> None:
        self.sheet_id = sheet_id
        super().__init__(f"Ein Blatt mit der ID {sheet_id} ist bereits gespeichert")


class StoreBusy(StorageError):
    """Another window holds the store's lock for too long."""


class SyncStateError(StorageError, ValueError):
    """A sync mark that does not fit the sheet (e.g. acknowledging a revision it never had)."""


class BackupError(StorageError, ValueError):
    """A backup file that cannot be imported: damaged, truncated, wrong format or checksum."""
