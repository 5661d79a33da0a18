"""Schema versions of the store's files, and the migrations between them.

Every file the store writes (each sheet file, the index) carries its schema version and
kind in a ``_meta`` table: ``{"_meta": {"1": {"schema": 1, "kind": "sheet"}}, ...}``.

A schema change bumps ``SCHEMA_VERSION`` and registers one named migration from the version
before::

    @migration(1, "sync-state-als-objekt")
    def _v1_to_v2(raw: dict) -> dict:
        ...            # rewrite the raw TinyDB dict of a version-1 file
        return raw

``migrate`` applies the missing steps in order when a file is opened; the migrated file is
written back atomically, and the original is kept under ``migrated/`` first. A migration
is a pure function of the raw dict and is applied once per version step, so opening a file
again (or after a crash in the middle) runs nothing twice. A file from a *newer* schema is
never touched (``NewerSchema``).

History: version 1 is the first storage format; there is no older one. The fixture files of
every version live under ``tests/fixtures/storage/v<N>/`` and are opened by the tests with
the current code.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import AtomicJSONStorage, atomic_write_bytes, ensure_dir
from .errors import NewerSchema, StorageError

SCHEMA_VERSION = 1
META_TABLE = "_meta"
KINDS = ("sheet", "index")
MIGRATED_DIR = "migrated"

Raw = dict[str, Any]


@dataclass(frozen=True)
class Migration:
    """One step from ``from_version`` to ``from_version + 1``."""

    from_version: int
    name: str
    apply: Callable[[Raw], Raw]


MIGRATIONS: dict[int, Migration] = {}


def migration(from_version: int, name: str) -> Callable[[Callable[[Raw], Raw]], Callable[[Raw], Raw]]:
    """Register the migration of files from ``from_version`` to the next version."""

    def decorate(function: Callable[[Raw], Raw]) -> Callable[[Raw], Raw]:
        if from_version in MIGRATIONS:
            raise ValueError(f"two migrations from schema {from_version}")
        MIGRATIONS[from_version] = Migration(from_version, name, function)
        return function

    return decorate


def meta_of(raw: Raw) -> dict[str, Any]:
    """The ``_meta`` document of a raw file; ``ValueError`` (German) when there is none."""
    table = raw.get(META_TABLE)
    if not isinstance(table, dict) or not isinstance(table.get("1"), dict):
        raise ValueError("keine Tischblock-Datei (Angabe des Speicherformats fehlt)")
    meta = table["1"]
    if not isinstance(meta.get("schema"), int) or meta["schema"] < 1:
        raise ValueError("keine Tischblock-Datei (ungültige Version des Speicherformats)")
    return meta


def meta_doc(kind: str) -> dict[str, Any]:
    return {"schema": SCHEMA_VERSION, "kind": kind}


def migrate(raw: Raw, kind: str, path: Path | None = None) -> tuple[Raw, tuple[str, ...]]:
    """Bring a raw file of ``kind`` to ``SCHEMA_VERSION``; return it and the names of the steps applied."""
    version = meta_of(raw)["schema"]
    if version > SCHEMA_VERSION:
        raise NewerSchema(path or Path("?"), version, SCHEMA_VERSION)
    applied: list[str] = []
    current = raw
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise StorageError(f"Keine Migration von Speicherformat {version} nach {version + 1} bekannt ({path})")
        current = step.apply(copy.deepcopy(current))
        version += 1
        current[META_TABLE] = {"1": {**meta_of(current), "schema": version, "kind": kind}}
        applied.append(step.name)
    return current, tuple(applied)


class VersionedStorage(AtomicJSONStorage):
    """``AtomicJSONStorage`` for one kind of store file, with the schema version in every file.

    Reading an older file migrates it and writes it back (the original is kept under
    ``migrated/``); reading a newer one raises ``NewerSchema``; a file without ``_meta`` or
    of another kind counts as damaged.
    """

    def __init__(self, path: str | os.PathLike[str], kind: str, damaged_dir: str | os.PathLike[str] | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown store file kind {kind!r}")
        super().__init__(path, damaged_dir)
        self.kind = kind
        self.applied: tuple[str, ...] = ()

    def validate(self, value: Raw) -> None:
        meta = meta_of(value)
        if meta.get("kind") != self.kind:
            raise ValueError(f"eine Datei der Art '{meta.get('kind')}', erwartet '{self.kind}'")
        if meta["schema"] == SCHEMA_VERSION:
            self.validate_content(value)
        # An older file is checked after its migration (its old shape is what the migration is
        # for); a newer one not at all: it is the newer app's, and ``read`` refuses to touch it.

    def validate_content(self, value: Raw) -> None:
        """Hook for subclasses: check a file of the current schema; ``ValueError`` (German) if it is not one."""

    def read(self) -> Raw | None:
        raw = super().read()
        if raw is None:
            return None
        version = meta_of(raw)["schema"]
        if version == SCHEMA_VERSION:
            return raw
        migrated, applied = migrate(raw, self.kind, self.path)
        try:
            self.validate_content(migrated)
        except ValueError as error:
            raise StorageError(
                f"{self.path} ist nach der Migration von Speicherformat {version} ungültig ({error}); "
                "die Datei bleibt unverändert."
            ) from None
        keep = self.damaged_dir.parent / MIGRATED_DIR
        ensure_dir(keep)
        copy_path = keep / f"{self.path.name}.v{version}"
        if not copy_path.exists():
            atomic_write_bytes(copy_path, self.path.read_bytes())
        super().write(migrated)
        self.applied = applied
        return migrated

    def write(self, data: Raw) -> None:
        data[META_TABLE] = {"1": meta_doc(self.kind)}
        super().write(data)
