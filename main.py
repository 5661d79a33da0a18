"""Tischblock, the app: ``ft.run(main)``. Routing lives here and only here.

Routes (each level is a view on the stack, so the back button and gesture work):

    /                          the sheets on this phone
    /neu                       a new sheet
    /blatt/<id>                a sheet: totals, lines, the entry panel
    /blatt/<id>/abschluss      close and sign

``tischblock app`` (or ``./dev app``) serves it in the browser; ``flet build`` packages it. The store
is ``SheetStore`` in the app's data directory (``FLET_APP_STORAGE_DATA`` when packaged, else
``TISCHBLOCK_DATA_DIR`` or the platform's user data directory), one per process, shared by every
window, so two windows on one store lose nothing.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast

import flet as ft

from screens.app_state import AppState
from screens.close_screen import CloseScreen
from screens.form_state import NewSheetForm
from screens.new_sheet_screen import NewSheetScreen
from screens.sheet_screen import SheetScreen
from screens.sheet_state import SheetState
from screens.start_screen import StartScreen
from storage import SheetStore

ASSETS = Path(__file__).resolve().parent / "assets"
"""App icon and favicon; found wherever the app is started from."""


@cache
def store() -> SheetStore:
    """The process's one store (threads of one process may share it; see ``SheetStore``)."""
    return SheetStore()


@dataclass
class Session:
    """One window's state: the sheet list, the form, and the sheets opened in it."""

    store: SheetStore
    app: AppState = field(init=False)
    sheets: dict[str, SheetState] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.app = AppState(self.store)

    def sheet(self, sheet_id: str) -> SheetState:
        """The open sheet's state, read from the store on first opening (and kept for this window)."""
        if sheet_id not in self.sheets:
            state = SheetState(self.store, sheet_id)
            state.load()
            self.sheets[sheet_id] = state
        return self.sheets[sheet_id]


SESSION: ft.ContextProvider[Session] = ft.create_context(cast(Session, None))


def go(route: str) -> None:
    ft.context.page.navigate(route)


@ft.component
def StartRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    location = ft.use_route_location()
    ft.use_effect(session.app.refresh, dependencies=[location])
    return StartScreen(session.app, on_open=lambda sheet_id: go(f"/blatt/{sheet_id}"), on_new=lambda: go("/neu"))


@ft.component
def NewSheetRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    form = ft.use_memo(lambda: NewSheetForm(session.store), dependencies=[])

    def created(sheet_id: str) -> None:
        session.sheets.pop(sheet_id, None)
        go(f"/blatt/{sheet_id}")

    return NewSheetScreen(form, on_created=created)


async def follow(state: SheetState, every: float = 1.0) -> None:
    """Re-read the open sheet whenever its file changes on disk (two windows on one store)."""
    state.refresh_if_changed()
    while True:
        await asyncio.sleep(every)
        state.refresh_if_changed()


@ft.component
def SheetRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    sheet_id = ft.use_route_params()["id"]
    state = session.sheet(sheet_id)

    def watch() -> Callable[[], object]:
        """While the sheet is shown, pick up what another window writes to it (and after a reload)."""
        task = ft.context.page.run_task(follow, state)
        return task.cancel

    ft.use_effect(watch, dependencies=[sheet_id])
    return SheetScreen(state, on_close=lambda: go(f"/blatt/{sheet_id}/abschluss"), route=f"/blatt/{sheet_id}")


@ft.component
def CloseRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    sheet_id = ft.use_route_params()["id"]
    state = session.sheet(sheet_id)
    return CloseScreen(state, on_done=lambda: go(f"/blatt/{sheet_id}"), route=f"/blatt/{sheet_id}/abschluss")


ROUTES = [
    ft.Route(
        path="/",
        component=StartRoute,
        children=[
            ft.Route(path="neu", component=NewSheetRoute),
            ft.Route(path="blatt/:id", component=SheetRoute, children=[ft.Route(path="abschluss", component=CloseRoute)]),
        ],
    )
]


@ft.component
def App() -> Any:
    session = ft.use_memo(lambda: Session(store()), dependencies=[])
    return SESSION(session, lambda: ft.Router(ROUTES, manage_views=True))


def main(page: ft.Page) -> None:
    page.title = "Tischblock"
    page.theme_mode = ft.ThemeMode.LIGHT
    page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN_800)
    page.render_views(App)


def serve(port: int = 8550, host: str = "127.0.0.1") -> None:
    """Serve the app in the browser view and print its URL (works offline: no CDN)."""
    print(f"Tischblock läuft: http://{host}:{port}/", flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True, assets_dir=str(ASSETS))


if __name__ == "__main__":
    serve(port=int(os.environ.get("TISCHBLOCK_PORT", "8550")))
