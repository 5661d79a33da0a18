"""The real settings screen, redrawn as often as the app can, as a busy phone redraws a screen while the
player types (the sync state read every second, a sheet re-read from disk, a slow phone's late frames).

Served by ``tests/test_app_typing_e2e.py`` on ``TISCHBLOCK_PORT`` with the store in ``TISCHBLOCK_DATA_DIR``;
not a test itself. The redraw changes nothing the player sees: it flips the screen's error between
``None`` and ``""`` (both show no error)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import flet as ft

from main import announce_when_answering
from screens.settings_screen import SettingsScreen
from screens.settings_state import SettingsState
from storage import SheetStore

REDRAW_EVERY_S = 0.0
"""A redraw queued all the time: one lands between a value and its change event every time (every 2 ms:
about one in thirty)."""


@ft.component
def Busy() -> ft.View:
    state = ft.use_memo(lambda: SettingsState(SheetStore(Path(os.environ["TISCHBLOCK_DATA_DIR"]))), dependencies=[])

    async def redraw() -> None:
        while True:
            state.error = "" if state.error is None else None
            await asyncio.sleep(REDRAW_EVERY_S)

    ft.use_effect(lambda: ft.context.page.run_task(redraw).cancel, dependencies=[])
    return SettingsScreen(state)


def main(page: ft.Page) -> None:
    page.render_views(Busy)


if __name__ == "__main__":
    port = int(os.environ["TISCHBLOCK_PORT"])
    # says it runs as the app does, once its page answers: tests.browser.running_app waits for that line
    threading.Thread(target=announce_when_answering, args=(f"http://127.0.0.1:{port}/",), daemon=True).start()
    ft.run(main, view=ft.AppView.WEB_BROWSER, port=port, no_cdn=True)
