"""Issue 20, in a real browser: the organizer revokes a phone on the dashboard ("Handys"); the phone's
next delivery says "Dieses Handy wurde von der Turnierleitung abgemeldet" and the sheet stays on it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from storage import SheetStore

from .browser import (
    PHONE,
    Taps,
    docs_screenshot,
    enable_semantics,
    running_app,
    screenshot,
    wait_for_line,
    wait_for_text,
    with_editing_probe,
)
from .hostproc import PASSWORD, running_host
from .test_app_sync_e2e import A, B, join

pytestmark = pytest.mark.browser

REVOKED = "Dieses Handy wurde von der Turnierleitung abgemeldet"


def test_a_revoked_phone_is_told_so_and_keeps_its_sheet(browser: Any, tmp_path: Path) -> None:
    data = tmp_path / "handy-a"
    with (
        running_host(tmp_path / "host") as host,
        running_app(env={"TISCHBLOCK_DATA_DIR": str(data), "TISCHBLOCK_DEVICE": "Handy Sautreiber"}) as url,
    ):
        phone = with_editing_probe(browser.new_page(viewport=PHONE))
        phone.goto(url)
        enable_semantics(phone)
        wait_for_text(phone, "Noch kein Blatt auf diesem Handy", 30_000)
        join(phone, host.line, "A")
        taps = Taps(phone)
        taps.tap("button", "Neues Blatt")
        wait_for_text(phone, "Für das Turnier Kathreinwatten Söll 2026, Tisch 4")
        taps.tap("radio", "Watten (Turnier)")
        taps.type("Mannschaft 1: Name", A)
        taps.type("Mannschaft 2: Name", B)
        taps.type("Durchgang", "1")
        taps.tap("radio", A)
        taps.tap("button", "Blatt anlegen")
        wait_for_text(phone, "Bummerl 1 von 3, Stand 0:0")
        taps.tap("button", f"+2 für {A}")
        wait_for_line(phone, "1. Spiel eingetragen")
        taps.tap("button", "Zwischenstand senden")
        wait_for_text(phone, re.compile(r"Veranstalter: beim Veranstalter"), 60_000)

        # The organizer, on the laptop: the phone is listed on "Handys" and is revoked there.
        desk = browser.new_context(
            viewport={"width": 1280, "height": 900},
            http_credentials={"username": "organizer", "password": PASSWORD},
            ignore_https_errors=True,
        )
        try:
            page = desk.new_page()
            page.goto(f"{host.url}/veranstalter/handys")
            row = page.get_by_role("row").filter(has_text="Handy Sautreiber")
            assert "aktiv" in row.inner_text()
            page.get_by_role("button", name="Handy Handy Sautreiber abmelden").click()
            page.get_by_role("status").filter(has_text="abgemeldet").wait_for(timeout=30_000)
            assert "abgemeldet" in page.get_by_role("row").filter(has_text="Handy Sautreiber").inner_text()
            docs_screenshot(page, "veranstalter-handys.png")
        finally:
            desk.close()

        # The phone's next delivery is refused with the organizer's words; the sheet stays on the phone.
        phone.bring_to_front()
        taps.tap("button", f"+3 für {B}")
        wait_for_line(phone, "2. Spiel eingetragen")
        # The background sync may have tried already after the game, and the refusal may stand on the
        # screen: sending again then changes nothing on it, and the app has nothing to answer the tap with.
        taps.tap("button", "Zwischenstand senden", answered=False)
        wait_for_text(phone, "Veranstalter: wartet auf Versand")
        # The sheet itself says why it does not go out, not only the start screen.
        wait_for_text(phone, f"Senden klappt gerade nicht: Der Veranstalter nimmt von diesem Handy nichts an: {REVOKED}", 60_000)
        screenshot(phone, "turnier-blatt-abgemeldet.png")
        taps.tap("button", "Back")  # the start screen says why nothing goes out
        wait_for_text(phone, f"Senden klappt gerade nicht: Der Veranstalter nimmt von diesem Handy nichts an: {REVOKED}", 60_000)
        screenshot(phone, "turnier-handy-abgemeldet.png")
        store = SheetStore(data)
        (info,) = store.list_sheets()
        sheet = store.open(info.id)
        assert [e.data for e in sheet.entries] == [{"winner": "A", "value": 2}, {"winner": "B", "value": 3}]
        assert (info.sync.state.value, info.sync.revision) == ("queued", 2)  # revision 2 waits here, not lost
        assert [r for s, r, _ in host.stored_revisions() if s == str(info.id)] == [1]
        phone.close()
