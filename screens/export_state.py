"""Sharing and backing up from the app: the files a sheet or the whole phone is exported as, and the
import of a backup (or of one shared sheet) with its report.

The files are made by the pure functions of the core (``scoring.printout.sheet_pdf``,
``scoring.csv_export.games_csv``, ``Sheet.to_json``) and of storage (the backup format of
``storage/backup.py``, which ``tischblock export``/``import`` use too); this module only names them
and keeps what the screen shows. Handing the bytes to the platform (share sheet or download) is the
screen's job (``screens/share.py``).
"""

from __future__ import annotations

import json
import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import flet as ft

from scoring import Sheet, find_ruleset, score_sheet
from scoring.csv_export import games_csv
from scoring.limits import MAX_BACKUP_BYTES
from scoring.messages import SheetInputError, explain
from scoring.sheetfile import parse_sheet
from storage import BackupError, ImportOutcome, SheetStore, StorageError, StoredSheet, import_backup, read_backup
from storage.backup import backup_document

Kind = Literal["pdf", "csv", "json"]

KINDS: dict[Kind, tuple[str, str]] = {
    "pdf": ("Tischliste als PDF", "application/pdf"),
    "csv": ("Spiele als CSV", "text/csv"),
    "json": ("Blatt als Tischblock-JSON", "application/json"),
}
"""What each export is called on its button, and its MIME type."""


@dataclass(frozen=True)
class ExportFile:
    """A file to share or download: its name, MIME type and bytes."""

    name: str
    mime: str
    data: bytes
    label: str


def slug(text: str) -> str:
    """``text`` as a file name part: lower case ASCII, umlauts spelt out, words joined by ``-``."""
    spelt = text.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("Ä", "Ae").replace("Ö", "Oe")
    spelt = spelt.replace("Ü", "Ue").replace("ß", "ss")
    plain = unicodedata.normalize("NFKD", spelt).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-")


def file_stem(sheet: Sheet) -> str:
    """The name a sheet's files share: ruleset, round and table, else the participants."""
    ctx = sheet.context
    parts = [sheet.ruleset.id]
    if ctx.round:
        parts.append(f"{ctx.round_label} {ctx.round}")
    if ctx.table:
        parts.append(f"Tisch {ctx.table}")
    if not (ctx.round or ctx.table):
        parts.extend(p.name for p in sheet.participants[:2])
    return slug(" ".join(parts)) or "blatt"


def sheet_export(sheet: Sheet, kind: Kind) -> ExportFile:
    """The sheet as the PDF Tischliste, as CSV (one row per game and participant, for a spreadsheet:
    UTF-8 with BOM so the umlauts show) or as the Tischblock sheet file."""
    label, mime = KINDS[kind]
    stem = file_stem(sheet)
    if kind == "pdf":
        from scoring.printout import sheet_pdf

        return ExportFile(f"tischliste-{stem}.pdf", mime, sheet_pdf(sheet), label)
    if kind == "csv":
        return ExportFile(f"spiele-{stem}.csv", mime, games_csv([sheet]).encode("utf-8-sig"), label)
    return ExportFile(f"{stem}.tischblock.json", mime, (sheet.to_json() + "\n").encode("utf-8"), label)


def backup_export(store: SheetStore, now: datetime | None = None) -> tuple[ExportFile, int]:
    """Every readable sheet of the store in the backup format of ``tischblock export``; and how many."""
    stored = store.all_stored()
    document = backup_document(stored, store.device)
    data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
    day = (now or datetime.now(UTC)).strftime("%Y-%m-%d")
    return ExportFile(f"tischblock-sicherung-{day}.json", "application/json", data, "Sicherung"), len(stored)


@dataclass(frozen=True)
class ImportLine:
    """One sheet of an import: which sheet, what happened to it, and why where it was not taken."""

    sheet: str
    outcome: str
    detail: str = ""
    taken: bool = True

    @property
    def text(self) -> str:
        return f"{self.sheet}: {self.outcome}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class ImportView:
    """The import's report as the screen shows it."""

    source: str
    summary: str
    lines: tuple[ImportLine, ...]


_KEPT = {ImportOutcome.OLDER, ImportOutcome.CONFLICT}
_WHY = {
    ImportOutcome.OLDER: "auf diesem Handy steht ein längerer Stand desselben Blatts",
    ImportOutcome.CONFLICT: "die Fassungen weichen voneinander ab; die eingelesene liegt unter conflicts/",
}


def describe(sheet: Sheet) -> str:
    """A sheet in one line: ruleset, round, table, participants."""
    try:
        title = find_ruleset(sheet.ruleset.id).title
    except ValueError:
        title = sheet.ruleset.id
    ctx = sheet.context
    where = [f"{ctx.round_label} {ctx.round}" if ctx.round else "", f"Tisch {ctx.table}" if ctx.table else ""]
    names = " – ".join(p.name for p in sheet.participants)
    return " · ".join(part for part in (title, *where, names) if part)


def _outcome(outcome: ImportOutcome, detail: str, sheet: Sheet | None, fallback: str) -> ImportLine:
    name = describe(sheet) if sheet is not None else fallback
    if outcome is ImportOutcome.INVALID:
        return ImportLine(name, "abgelehnt", detail or "diese App kann das Blatt nicht werten", taken=False)
    if outcome in _KEPT:
        return ImportLine(name, "nicht übernommen, gespeicherter Stand behalten", _WHY[outcome], taken=False)
    return ImportLine(name, outcome.value)


def import_file(store: SheetStore, data: bytes, name: str) -> ImportView:
    """Read a picked file into the store: a Tischblock backup (every sheet in it) or one shared sheet.

    A damaged file imports nothing and raises ``StorageError``/``SheetInputError`` with a German
    message naming the file; a sheet already stored is never replaced by an older one (``SheetStore.put``).
    """
    if len(data) > MAX_BACKUP_BYTES:
        raise SheetInputError(
            f"zu groß ({len(data) // 1024} KB; höchstens {MAX_BACKUP_BYTES // 1024} KB); es wurde nichts eingelesen", source=name
        )
    try:
        head = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        head = None
    if isinstance(head, dict) and head.get("format") == "tischblock-sheet":
        sheet = parse_sheet(data, source=name)
        now = datetime.now(UTC)
        outcome = store.put(StoredSheet(sheet=sheet, created_at=now, updated_at=now))
        detail = ""
        if outcome is ImportOutcome.INVALID:
            try:
                score_sheet(sheet)
            except ValueError as error:
                detail = explain(error)
        store.list_sheets()
        line = _outcome(outcome, detail, sheet, name)
        return ImportView(name, f"1 Blatt: {line.outcome}", (line,))
    with tempfile.TemporaryDirectory(prefix="tischblock-import-") as folder:
        path = Path(folder) / (Path(name).name or "sicherung.json")
        path.write_bytes(data)
        try:
            sheets = {str(s.sheet.id): s.sheet for s in read_backup(path)}
            report = import_backup(store, path)
        except StorageError as error:  # the message names the picked file, not the temporary copy
            raise BackupError(str(error).replace(str(path), name)) from None
    lines = tuple(_outcome(item.outcome, item.detail, sheets.get(item.sheet_id), item.sheet_id) for item in report.items)
    return ImportView(name, report.summary(), lines)


@ft.observable
@dataclass
class ExportState:
    """What the share and backup screens show: the last action's result, or why it failed."""

    store: SheetStore
    message: str | None = None
    error: str | None = None
    report: ImportView | None = None
    busy: str | None = None
    """The file being handed over right now (the buttons wait)."""
    sent: list[str] = field(default_factory=list)
    """The files handed over so far on this screen."""

    def count(self) -> int:
        """How many sheets are on this phone (the backup holds every readable one)."""
        try:
            return len(self.store.list_sheets())
        except StorageError:
            return 0

    def file_for(self, sheet: Sheet, kind: Kind) -> ExportFile | None:
        """The sheet's file, or ``None`` with the message why it cannot be made."""
        try:
            return sheet_export(sheet, kind)
        except ValueError as error:
            self.failed(f"{KINDS[kind][0]} lässt sich nicht erstellen: {explain(error)}")
            return None

    def backup(self) -> ExportFile | None:
        """The whole phone as one backup file, or ``None`` with the message why not."""
        try:
            file, count = backup_export(self.store)
        except StorageError as error:
            self.failed(f"Die Sicherung lässt sich nicht erstellen: {error}")
            return None
        self.message = f"{count} Blätter in der Sicherung"
        return file

    def sending(self, file: ExportFile) -> None:
        self.busy, self.error = file.name, None

    def done(self, file: ExportFile, how: str) -> None:
        self.busy = None
        self.message = f"{file.label}: {file.name} {how}"
        self.sent = [*self.sent, file.name]

    def failed(self, message: str) -> None:
        self.busy = None
        self.error = message

    def imported(self, data: bytes | None, name: str) -> None:
        """Read a picked file in; the report (or why nothing was read) is shown."""
        if data is None:
            self.failed(f"{name} konnte nicht gelesen werden; es wurde nichts eingelesen.")
            return
        try:
            self.report = import_file(self.store, data, name)
        except (StorageError, SheetInputError) as error:
            self.report = None
            self.failed(explain(error))
            return
        self.error = None
        self.message = None  # the report says it
