"""Backup and restore: everything as one JSON file, each sheet as CSV.

The backup file (``tischblock export``) is::

    {"format": "tischblock-backup", "version": 1, "schema": 1, "exported_at": "...",
     "device": "...", "count": N, "sha256": "<of the sheets, canonical JSON>",
     "sheets": [<stored sheet: {"sheet": ..., "created_at", "updated_at", "device", "sync"}>, ...]}

``import_backup`` checks the whole file first (JSON, format, version, count, checksum, every
sheet valid) and imports nothing if any check fails: a damaged backup gives a clear message
and changes nothing. Sheets of an older storage ``schema`` go through the same migrations as
stored files; a backup of a newer schema is refused with the advice to update the app. Then each sheet goes through ``SheetStore.put``, which never replaces a
longer log with a shorter one and keeps diverging copies under ``conflicts/``.

CSV (one file per sheet, ``;``-separated, UTF-8 with BOM so spreadsheet programs show the
umlauts): one row per log entry with number, kind, time, device, target, reason and the
data as JSON, then the points each participant got on that line and the running totals.
Free text (device, reason) that a spreadsheet would take as a formula gets a leading ``'``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scoring import score_sheet
from scoring.limits import MAX_BACKUP_BYTES
from scoring.messages import SheetInputError, explain, load_json, text_cell, validation_message
from scoring.sheetfile import allowed_kinds

from . import schema
from .atomic import atomic_write_bytes
from .errors import BackupError, StorageError
from .repository import ImportOutcome, SheetStore, StoredSheet

BACKUP_FORMAT = "tischblock-backup"
BACKUP_VERSION = 1


def _checksum(sheets: list[Any]) -> str:
    canonical = json.dumps(sheets, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def backup_document(stored: list[StoredSheet], device: str | None = None) -> dict[str, Any]:
    sheets = [s.document() for s in stored]
    return {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "schema": schema.SCHEMA_VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "device": device,
        "count": len(sheets),
        "sha256": _checksum(sheets),
        "sheets": sheets,
    }


def export_backup(store: SheetStore, path: str | Path) -> int:
    """Write every readable sheet of ``store`` to ``path`` (atomically); return how many."""
    stored = store.all_stored()
    data = json.dumps(backup_document(stored, store.device), ensure_ascii=False, indent=1).encode("utf-8")
    atomic_write_bytes(Path(path), data)
    return len(stored)


def read_backup(path: str | Path) -> list[StoredSheet]:
    """Parse and check a backup file; ``BackupError`` (German) if anything is wrong with it."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BACKUP_BYTES:  # never read a huge file only to refuse it
            raise BackupError(
                f"Die Sicherung {path} ist zu groß ({size // 1024} KB; höchstens {MAX_BACKUP_BYTES // 1024} KB); es wurde nichts eingelesen."
            )
        raw = path.read_bytes()
    except OSError as error:
        raise BackupError(f"Die Sicherung {path} kann nicht gelesen werden: {error.strerror or error}") from None
    try:
        # Size, UTF-8, JSON, depth, and texts that UTF-8 cannot write, before anything (the checksum) touches them.
        doc = load_json(raw, source=None, what="einer Sicherung", max_bytes=MAX_BACKUP_BYTES)
    except SheetInputError as error:
        raise BackupError(f"Die Sicherung {path} ist beschädigt: {error.reason}; es wurde nichts eingelesen.") from None
    if doc.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{path} ist keine Tischblock-Sicherung; es wurde nichts eingelesen.")
    version = doc.get("version")
    if not isinstance(version, int) or version < 1:
        raise BackupError(f"Die Sicherung {path} hat keine gültige Versionsangabe; es wurde nichts eingelesen.")
    if version > BACKUP_VERSION:
        raise BackupError(
            f"Die Sicherung {path} stammt von einer neueren Tischblock-Version (Format {version}); bitte die App aktualisieren."
        )
    sheets = doc.get("sheets")
    if not isinstance(sheets, list) or doc.get("count") != len(sheets):
        raise BackupError(f"Die Sicherung {path} ist unvollständig (Anzahl der Blätter stimmt nicht); es wurde nichts eingelesen.")
    if doc.get("sha256") != _checksum(sheets):
        raise BackupError(
            f"Die Prüfsumme der Sicherung {path} stimmt nicht: die Datei ist beschädigt oder wurde verändert; es wurde nichts eingelesen."
        )
    found = doc.get("schema")
    if not isinstance(found, int) or found < 1:
        raise BackupError(f"Die Sicherung {path} hat keine gültige Angabe des Speicherformats; es wurde nichts eingelesen.")
    if found > schema.SCHEMA_VERSION:
        raise BackupError(
            f"Die Sicherung {path} stammt von einer neueren Tischblock-Version (Speicherformat {found}, "
            f"diese App kennt bis {schema.SCHEMA_VERSION}); bitte die App aktualisieren. Es wurde nichts eingelesen."
        )
    out = []
    for number, item in enumerate(sheets, start=1):
        try:
            if found < schema.SCHEMA_VERSION:  # the same migrations as a stored sheet file of that schema
                old = {schema.META_TABLE: {"1": {"schema": found, "kind": "sheet"}}, "sheet": {"1": item}}
                item = schema.migrate(old, "sheet", path)[0]["sheet"]["1"]
            stored = StoredSheet.model_validate(item)
            if stored.sync.revision > stored.revision:
                raise BackupError(
                    f"Blatt {number} der Sicherung {path} ist ungültig (Sync-Stand {stored.sync.revision}, "
                    f"aber nur {stored.revision} Einträge); es wurde nichts eingelesen."
                )
            out.append(stored)
        except ValidationError as error:
            kinds = allowed_kinds(item.get("sheet") if isinstance(item, dict) else None)
            raise BackupError(
                f"Blatt {number} der Sicherung {path} ist ungültig ({validation_message(error, model=StoredSheet, kinds=kinds)}); es wurde nichts eingelesen."
            ) from None
        except BackupError:
            raise
        except StorageError as error:  # no migration known from that schema
            raise BackupError(f"Blatt {number} der Sicherung {path}: {error}; es wurde nichts eingelesen.") from None
        except (LookupError, TypeError, AttributeError, ValueError):  # the migration met a shape it does not know
            raise BackupError(
                f"Blatt {number} der Sicherung {path} lässt sich nicht aus Speicherformat {found} übernehmen; es wurde nichts eingelesen."
            ) from None
    return out


@dataclass(frozen=True)
class ImportItem:
    sheet_id: str
    outcome: ImportOutcome
    detail: str = ""
    """Why a sheet was skipped as invalid (German, from the ruleset), else empty."""


@dataclass(frozen=True)
class ImportReport:
    items: tuple[ImportItem, ...]

    def count(self, outcome: ImportOutcome) -> int:
        return sum(1 for item in self.items if item.outcome is outcome)

    def summary(self) -> str:
        """German one-liner: ``3 Blätter: 1 neu, 2 unverändert``."""
        parts = [f"{self.count(o)} {o.value}" for o in ImportOutcome if self.count(o)]
        return f"{len(self.items)} Blätter: " + (", ".join(parts) if parts else "nichts zu tun")


def import_backup(store: SheetStore, path: str | Path) -> ImportReport:
    """Check the backup, then import each sheet without ever losing a newer stored revision."""
    sheets = read_backup(path)
    items = []
    for stored in sheets:
        try:
            score_sheet(stored.sheet)
        except ValueError as error:  # RuleViolation, UnknownRuleset: this app cannot score it
            items.append(ImportItem(str(stored.sheet.id), ImportOutcome.INVALID, explain(error)))
            continue
        items.append(ImportItem(str(stored.sheet.id), store.put(stored)))
    store.list_sheets()
    return ImportReport(tuple(items))




def sheet_csv(stored: StoredSheet) -> str:
    """The sheet's log as CSV with each line's points and the running totals."""
    sheet = stored.sheet
    names = [p.name for p in sheet.participants]
    ids = list(sheet.participant_ids)
    lines: dict[int, Any] = {}
    try:
        for line in score_sheet(sheet).lines:
            lines[line.entry] = line
    except ValueError:
        lines = {}
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(
        ["Nr", "Art", "Zeit", "Gerät", "Ziel", "Grund", "Daten"]
        + [f"Punkte {n}" for n in names]
        + [f"Summe {n}" for n in names]
    )
    for number, entry in enumerate(sheet.entries, start=1):
        data: Any = entry.data
        if entry.replacement is not None:
            data = {"kind": entry.replacement.kind, "data": entry.replacement.data}
        scored = lines.get(number)
        points = [scored.points[i] for i in ids] if scored else [""] * len(ids)
        totals = [scored.totals[i] for i in ids] if scored else [""] * len(ids)
        writer.writerow(
            [
                number,
                entry.kind,
                entry.at.isoformat() if entry.at else "",
                text_cell(entry.device),
                entry.target or "",
                text_cell(entry.reason),
                json.dumps(data, ensure_ascii=False, sort_keys=True) if data else "",
                *points,
                *totals,
            ]
        )
    return buffer.getvalue()


def export_csv(store: SheetStore, directory: str | Path) -> list[Path]:
    """Write one CSV per readable sheet into ``directory``; return the files."""
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"Das Verzeichnis {directory} kann nicht angelegt werden: {error.strerror or error}") from None
    written = []
    for stored in store.all_stored():
        path = directory / f"{stored.sheet.id}.csv"
        atomic_write_bytes(path, sheet_csv(stored).encode("utf-8-sig"))
        written.append(path)
    return written
