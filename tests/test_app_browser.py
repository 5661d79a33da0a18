"""The real app in a real browser: list the rulesets, open the Watten example, read its score."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .browser import CHROMIUM, CHROMIUM_ARGS, PHONE, body_text, enable_semantics, require_chromium, running_app, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def phone() -> Iterator[object]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with running_app() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        enable_semantics(page)
        yield page
        browser.close()


def test_start_screen_lists_the_rulesets(phone) -> None:  # type: ignore[no-untyped-def]
    page = phone
    page.get_by_role("button", name="Beispielblatt Watten (Turnier) öffnen").wait_for(timeout=30_000)
    text = body_text(page)
    assert "Regelwerke" in text and "Watten (Turnier)" in text
    assert "2 Mannschaften · Regeln: watten-turnier.txt" in text
    assert "Bummerl pro Durchgang" not in text
    screenshot(page, "regelwerke.png")
    page.get_by_role("button", name="Optionen Watten (Turnier) zeigen (2)").click()
    page.get_by_role("button", name="Optionen Watten (Turnier) ausblenden (2)").wait_for(timeout=10_000)
    assert "Bummerl pro Durchgang (Regel 1): 3" in body_text(page)
    page.get_by_role("button", name="Optionen Watten (Turnier) ausblenden (2)").click()
    page.get_by_role("button", name="Optionen Watten (Turnier) zeigen (2)").wait_for(timeout=10_000)


def test_open_and_score_the_watten_example(phone) -> None:  # type: ignore[no-untyped-def]
    page = phone
    page.get_by_role("button", name="Beispielblatt Watten (Turnier) öffnen").click()
    page.get_by_text("Bummerl gewonnen Die Sautreiber 2 : 1 Kartlbrüder Wörgl").wait_for(timeout=30_000)
    text = body_text(page)
    assert "Durchgang beendet" in text
    assert "Die Sautreiber: 35" in text and "Kartlbrüder Wörgl: 34" in text
    page.get_by_text("9. Gehen").click()
    page.get_by_text("Regel 8 (gspannt): Die Sautreiber ist gspannt und geht: Kartlbrüder Wörgl erhält 2").wait_for(timeout=10_000)
    page.mouse.move(200, 600)
    page.mouse.wheel(0, 420)
    screenshot(page, "beispielblatt-watten.png")


def test_app_serves_its_own_icon_from_any_working_directory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import urllib.request

    from .conftest import ROOT

    with running_app(cwd=tmp_path) as url, urllib.request.urlopen(url + "favicon.png", timeout=10) as response:
        assert response.read() == (ROOT / "assets" / "favicon.png").read_bytes()
