"""Tischblock, the app: ``ft.run(main)``. Routing lives here and only here.

Routes (each level is a view on the stack, so the back button and gesture work):

    /                          the sheets on this phone
    /neu                       a new sheet
    /blatt/<id>                a sheet: totals, lines, the entry panel
    /blatt/<id>/abschluss      close and sign
    /blatt/<id>/teilen         the sheet as PDF Tischliste, CSV or Tischblock JSON (share sheet or download)
    /sicherung                 every sheet as one backup file, and reading a backup or a sheet in
    /beitreten                 join the organizer's tournament (and leave it); ``/beitreten?url=…&code=…&fp=…&nr=…&key=…``
                               (a Startkarte's or the Aushang's QR code as a web link) opens it filled in
    tischblock://join?…        the same line as a deep link (``flet build``: pyproject.toml [tool.flet.deep_linking]);
                               the app gets it as the route ``/?url=…`` (or the whole line) and goes to /beitreten?…
    /statistik                 statistics across the sheets on this phone, with filters
    /einstellungen             theme, text size, house rules for new sheets, own name
    /hilfe                     the user guide (docs/anleitung.md)

``tischblock app`` (or ``./dev app``) serves it in the browser; ``flet build`` packages it. The store
is ``SheetStore`` in the app's data directory (``FLET_APP_STORAGE_DATA`` when packaged, else
``TISCHBLOCK_DATA_DIR`` or the platform's user data directory), one per process, shared by every
window, so two windows on one store lose nothing.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import flet as ft

from screens.app_state import AppState
from screens.backup_screen import BackupScreen
from screens.close_screen import CloseScreen
from screens.export_screen import ExportScreen
from screens.export_state import ExportState
from screens.form_state import NewSheetForm
from screens.habits import names_used
from screens.help_screen import HelpScreen
from screens.join_screen import JoinScreen
from screens.looks import LOOKS, dark_theme, light_theme
from screens.new_sheet_screen import NewSheetScreen
from screens.settings_screen import SettingsScreen
from screens.settings_state import SettingsState
from screens.sheet_screen import SheetScreen
from screens.sheet_state import SheetState
from screens.start_screen import StartScreen
from screens.statistics_screen import StatisticsScreen
from screens.statistics_state import StatisticsState
from screens.tournament_state import TournamentState
from storage import SheetStore, StorageError
from sync.listen import listen_socket
from sync.protocol import InvalidJoinLine, JoinLine

ASSETS = Path(__file__).resolve().parent / "assets"
"""App icon and favicon; found wherever the app is started from."""


@cache
def store() -> SheetStore:
    """The process's one store (threads of one process may share it; see ``SheetStore``)."""
    return SheetStore()


@dataclass
class Session:
    """One window's state: the sheet list, the form, the settings, and the sheets opened in it."""

    store: SheetStore
    app: AppState = field(init=False)
    tournament: TournamentState = field(init=False)
    settings: SettingsState = field(init=False)
    sheets: dict[str, SheetState] = field(default_factory=dict)
    awake: str | None = None
    """The sheet for which the screen is kept on (``ft.Wakelock``), ``None`` when no sheet is open."""
    wakelock: ft.Wakelock | None = None

    def __post_init__(self) -> None:
        self.app = AppState(self.store)
        self.settings = SettingsState(self.store)
        self.tournament = TournamentState(self.store)
        own = self.settings.settings
        if not self.tournament.joined:
            self.tournament.target = self.tournament.target or own.last_host
        # the join form's name: the player's own (from a link: "Dein Name"), else this phone's as the trail
        # has it (``TISCHBLOCK_DEVICE``, the settings' name, else "Mein Handy"); never the host name
        self.tournament.device_name = own.own_name or self.store.device

    def names(self) -> list[str]:
        """The names on this phone's sheets, most used first (offered as the player types)."""
        try:
            return names_used(info.participants for info in self.store.list_sheets())
        except StorageError:
            return []

    def joined(self) -> None:
        """After joining: the host is offered again next time (never a Startkarte's key), and a name typed
        when joining from a link is the own name from now on."""
        self.settings.remember_host(self.tournament.remembered)
        if self.tournament.link is not None and not self.settings.settings.own_name:
            self.settings.set_own_name(self.tournament.device_name)

    def keep_awake(self, sheet_id: str) -> Callable[[], None]:
        """Keep the screen on while the sheet is open (Wakelock; the Screen Wake Lock API in a browser);
        return what lets it sleep again when the sheet is left."""
        self.awake = sheet_id
        self._wake(True)

        def release() -> None:
            if self.awake == sheet_id:
                self.awake = None
                self._wake(False)

        return release

    def _wake(self, on: bool) -> None:
        lock = self.wakelock
        if lock is None:
            return
        try:
            ft.context.page.run_task(lock.enable if on else lock.disable)
        except RuntimeError:  # the window is gone: its screen sleeps anyway
            pass

    def reconnected(self) -> None:
        """The window came back (a reload, a phone waking up): show every open sheet and the list as
        they are now; what changed while it was away was not drawn (``SheetState.redraw``)."""
        self.app.refresh()
        for state in self.sheets.values():
            state.redraw()

    def saved(self, sheet_id: str, closed: bool) -> None:
        """A signed sheet of the joined tournament goes to the organizer, and so do its later corrections."""
        state = self.sheets.get(sheet_id)
        sheet = state.sheet if state is not None else None
        if sheet is not None and self.tournament.belongs(sheet.context.tournament, sheet.context.table):
            self.tournament.saved(sheet_id, closed)

    def form(self) -> NewSheetForm:
        creds = self.tournament.credentials
        joined = (creds.tournament_id, creds.tournament_name, creds.table) if creds is not None and creds.table else None
        own = self.settings.settings
        return NewSheetForm(self.store, joined=joined, own_name=own.own_name, usual_house_rules=own.house_rules == "meist")

    def sheet(self, sheet_id: str) -> SheetState:
        """The open sheet's state, read from the store on first opening (and kept for this window)."""
        if sheet_id not in self.sheets:
            state = SheetState(self.store, sheet_id, on_saved=self.saved)
            state.load()
            self.sheets[sheet_id] = state
        return self.sheets[sheet_id]


SESSION: ft.ContextProvider[Session] = ft.create_context(cast(Session, None))


def go(route: str) -> None:
    ft.context.page.navigate(route)


def join_route(route: str) -> str | None:
    """Where a route carrying a join line leads: ``/beitreten?…`` for a deep link (``tischblock://join?…``
    arrives as ``/?url=…`` or as the whole line), ``None`` for any other route and for ``/beitreten?…`` itself."""
    try:
        line = JoinLine.from_link(route)
    except InvalidJoinLine:
        line = None  # the join screen says what is wrong with it
        if not route.startswith("/beitreten"):
            return "/beitreten?" + urlsplit(route).query
    if line is None or route.startswith("/beitreten"):
        return None
    return line.web_path()


@ft.component
def StartRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    location = ft.use_route_location()
    ft.use_effect(session.app.refresh, dependencies=[location])
    ft.use_effect(following(None, session.tournament), dependencies=[])
    ft.use_effect(lambda: _follow_link(ft.context.page.route), dependencies=[location])
    return StartScreen(
        session.app,
        session.tournament,
        on_open=lambda sheet_id: go(f"/blatt/{sheet_id}"),
        on_new=lambda: go("/neu"),
        on_join=lambda: go("/beitreten"),
        on_stats=lambda: go("/statistik"),
        on_backup=lambda: go("/sicherung"),
        on_settings=lambda: go("/einstellungen"),
        on_help=lambda: go("/hilfe"),
        settings=session.settings,
    )


def _follow_link(route: str) -> None:
    target = join_route(route)
    if target is not None:
        go(target)


@ft.component
def NewSheetRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    form = ft.use_memo(session.form, dependencies=[])

    def created(sheet_id: str) -> None:
        session.sheets.pop(sheet_id, None)
        go(f"/blatt/{sheet_id}")

    return NewSheetScreen(form, on_created=created)


async def follow(state: SheetState | None, tournament: TournamentState, every: float = 1.0) -> None:
    """Re-read the open sheet whenever its file changes on disk (two windows on one store), and
    show where the sheets stand on their way to the organizer (the sender reports from its thread)."""
    while True:
        if state is not None:
            state.refresh_if_changed()
        tournament.pull()
        await asyncio.sleep(every)


def following(state: SheetState | None, tournament: TournamentState) -> Callable[[], Callable[[], object]]:
    """An effect that follows the sheet and the sender while its screen is shown."""

    def watch() -> Callable[[], object]:
        return ft.context.page.run_task(follow, state, tournament).cancel

    return watch


@ft.component
def SheetRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    sheet_id = ft.use_route_params()["id"]
    state = session.sheet(sheet_id)
    ft.use_effect(following(state, session.tournament), dependencies=[sheet_id])
    ft.use_effect(lambda: session.keep_awake(sheet_id), dependencies=[sheet_id])

    def to_close() -> None:
        state.leave_panel()  # the panel's refusal belongs to the panel, not to signing
        go(f"/blatt/{sheet_id}/abschluss")

    return SheetScreen(state, session.tournament, on_close=to_close, route=f"/blatt/{sheet_id}")


@ft.component
def CloseRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    sheet_id = ft.use_route_params()["id"]
    state = session.sheet(sheet_id)

    def done() -> None:
        state.leave_panel()
        go(f"/blatt/{sheet_id}")

    return CloseScreen(state, on_done=done, route=f"/blatt/{sheet_id}/abschluss", signer=session.settings.settings.own_name)


@ft.component
def ShareRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    sheet_id = ft.use_route_params()["id"]
    exports = ft.use_memo(lambda: ExportState(session.store), dependencies=[sheet_id])
    return ExportScreen(session.sheet(sheet_id), exports, route=f"/blatt/{sheet_id}/teilen")


@ft.component
def BackupRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    exports = ft.use_memo(lambda: ExportState(session.store), dependencies=[])
    return BackupScreen(exports, route="/sicherung")


@ft.component
def JoinRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)

    def joined() -> None:
        session.joined()
        go("/")

    def open_drawn(sheet_id: str) -> None:
        session.joined()
        go(f"/blatt/{sheet_id}")

    names = ft.use_memo(session.names, dependencies=[])
    route = ft.context.page.route
    named = bool(session.settings.settings.own_name)

    def take_link() -> None:
        if "?" in route and not session.tournament.joined:
            session.tournament.take_link(route, named=named)

    ft.use_effect(take_link, dependencies=[route])
    return JoinScreen(session.tournament, on_joined=joined, names=names, on_open=open_drawn, named=named)


@ft.component
def SettingsRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    return SettingsScreen(session.settings)


@ft.component
def HelpRoute() -> ft.View:
    return HelpScreen()


@ft.component
def StatisticsRoute() -> ft.View:
    session: Session = ft.use_context(SESSION)
    state = ft.use_memo(lambda: StatisticsState(session.store), dependencies=[])
    ft.use_effect(state.load, dependencies=[])
    return StatisticsScreen(state, route="/statistik")


ROUTES = [
    ft.Route(
        path="/",
        component=StartRoute,
        children=[
            ft.Route(path="neu", component=NewSheetRoute),
            ft.Route(path="beitreten", component=JoinRoute),
            ft.Route(path="sicherung", component=BackupRoute),
            ft.Route(path="statistik", component=StatisticsRoute),
            ft.Route(path="einstellungen", component=SettingsRoute),
            ft.Route(path="hilfe", component=HelpRoute),
            ft.Route(
                path="blatt/:id",
                component=SheetRoute,
                children=[ft.Route(path="abschluss", component=CloseRoute), ft.Route(path="teilen", component=ShareRoute)],
            ),
        ],
    )
]


@ft.component
def App() -> Any:
    session = ft.use_memo(lambda: Session(store(), wakelock=ft.Wakelock()), dependencies=[])
    settings, _ = ft.use_state(session.settings)
    mode = settings.theme_mode

    def apply_theme() -> None:
        page = ft.context.page
        if page.theme_mode != mode:
            page.theme_mode = mode
            page.update()

    ft.use_effect(apply_theme, dependencies=[mode])
    ft.use_effect(lambda: setattr(ft.context.page, "on_connect", lambda _: session.reconnected()), dependencies=[])
    return SESSION(session, lambda: LOOKS(session.settings, lambda: ft.Router(ROUTES, manage_views=True)))


def main(page: ft.Page) -> None:
    page.title = "Tischblock"
    page.theme_mode = ft.ThemeMode.SYSTEM
    page.theme = light_theme()
    page.dark_theme = dark_theme()
    page.render_views(App)


def serve(port: int = 8550, host: str = "127.0.0.1") -> None:
    """Serve the app in the browser view and print its URL once it answers (works offline: no CDN).

    A port it cannot listen on raises ``ListenError`` before anything is printed or served."""
    listen_socket(host, port, what="die App").close()  # Flet binds it itself; taken, it would print a traceback
    url = f"http://{host}:{port}/"
    threading.Thread(target=announce_when_answering, args=(url,), name="announce", daemon=True).start()
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True, assets_dir=str(ASSETS))


def announce_when_answering(url: str) -> None:
    """Print "Tischblock läuft: URL" once the page answers there, not before.

    Flet's web server binds its port well after ``ft.run`` is called (0.3 s here): a line printed
    before it sent a user's browser, or a script reading it, to a port nobody answered yet (a port
    another program holds ``serve`` has refused before). A server bound to every address
    (``0.0.0.0``, ``::``) is asked on the loopback address."""
    parts = urlsplit(url)
    asked = url
    if parts.hostname in ("0.0.0.0", "::", ""):
        asked = parts._replace(netloc=f"127.0.0.1:{parts.port}").geturl()
    while True:
        try:
            with urllib.request.urlopen(asked, timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        time.sleep(0.05)  # the server binds once; polling its port is the only sign Flet gives of it
    print(f"Tischblock läuft: {url}", flush=True)


if __name__ == "__main__":
    serve(port=int(os.environ.get("TISCHBLOCK_PORT", "8550")))
