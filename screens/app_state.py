"""The app's state: the store on this phone and the list of its sheets for the start screen.

Pydantic values (``Sheet``, ``Score``) are held as plain field values; the observable is the
dataclass around them, never the pydantic model itself (that would skip its validation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import flet as ft

from scoring import find_ruleset
from storage import SheetInfo, SheetStore, StorageError

from .scored import scored


@dataclass(frozen=True)
class SheetRow:
    """One sheet in the start screen's list."""

    id: str
    title: str
    where: str
    participants: str
    glance: str
    closed: bool
    tournament: str | None = None
    table: int | None = None

    @property
    def label(self) -> str:
        """The accessible name of the row: what a player reads on it."""
        state = "abgeschlossen" if self.closed else "offen"
        return f"{self.title} · {self.where} · {self.participants} · {self.glance} · {state}"


def where(info: SheetInfo) -> str:
    ctx = info.context
    parts = [
        f"{ctx.round_label} {ctx.round}" if ctx.round else None,
        f"Tisch {ctx.table}" if ctx.table else None,
        ctx.tournament,
    ]
    return " · ".join(p for p in parts if p) or ctx.round_label


def glance(store: SheetStore, info: SheetInfo) -> str:
    """The score at a glance: the ruleset's first status line (Bummerl and stand, games left, ...)."""
    return scored(store, info).glance


@ft.observable
@dataclass
class AppState:
    """The sheets on this phone, open ones first, newest first."""

    store: SheetStore
    rows: list[SheetRow] = field(default_factory=list)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    def refresh(self) -> None:
        """Read the sheet list again (cheap: the store re-reads only changed files)."""
        try:
            infos = self.store.list_sheets()
        except StorageError as error:
            self.error = str(error)
            return
        infos.sort(key=lambda i: i.updated_at, reverse=True)
        infos.sort(key=lambda i: i.closed)
        rows = []
        for info in infos:
            try:
                title = find_ruleset(info.ruleset).title
            except ValueError:
                title = info.ruleset
            rows.append(
                SheetRow(
                    id=str(info.id),
                    title=title,
                    where=where(info),
                    participants=" – ".join(info.participants),
                    glance=glance(self.store, info),
                    closed=info.closed,
                    tournament=info.context.tournament,
                    table=info.context.table,
                )
            )
        self.rows = rows
        self.error = None
        self.warnings = list(self.store.warnings)
