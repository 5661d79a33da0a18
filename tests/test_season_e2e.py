"""Issue 23 in headless Chromium against the real host: the organizer sets up a season on the pages,
puts two tournaments into it (their sheets delivered through the phones' API as the app delivers
them), sees the season page with its note that the rule documents define no season and each
player's counted results, and downloads its PDF. Screenshot: docs/screenshots/veranstalter-saison.png."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scoring.season import SEASONS_NOT_IN_RULES

from .browser import docs_screenshot, organizer_page, page_says
from .hostproc import HostProcess, running_host
from .pages_helpers import organizer_session
from .test_season_pages import play_cup

pytestmark = pytest.mark.browser


@pytest.fixture()
def host(tmp_path: Path) -> Iterator[HostProcess]:
    with running_host(tmp_path / "host", tournament="Cup 1") as running:
        yield running


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    with organizer_page(browser) as opened:
        yield opened


def test_an_organizer_sets_up_a_season_with_two_tournaments_and_prints_it(host: HostProcess, page: Any) -> None:
    web = organizer_session(host)
    page.goto(host.url + "/veranstalter/")
    page.get_by_role("link", name="Saison", exact=True).click()
    assert SEASONS_NOT_IN_RULES in page.get_by_role("note").inner_text()
    page.get_by_label("Name der Saison").fill("Watt-Cup 2026")
    page.get_by_label("Regelwerk").select_option("watten-turnier")
    page.get_by_role("button", name="Saison anlegen").click()
    assert "Saison Watt-Cup 2026 angelegt" in page.get_by_role("status").inner_text()

    # Cup 1 joins later, on the season page; Cup 2 on its setup page, which offers the seasons of its ruleset.
    play_cup(host, web, "Cup 1", {1: "A", 2: "AAB"})
    page.goto(host.url + "/veranstalter/saison")
    page.get_by_label("Saison", exact=True).select_option(label="Watt-Cup 2026 (watten-turnier)")
    page.get_by_role("button", name="Diesem Turnier zuordnen").click()
    assert "Cup 1 zählt jetzt für Watt-Cup 2026" in page.get_by_role("status").inner_text()
    play_cup(host, web, "Cup 2", {1: "B", 2: "A"})
    page.goto(host.url + "/veranstalter/")
    page.get_by_label("Saison", exact=True).select_option(label="Watt-Cup 2026 (Übliche Cup-Wertung (Vorgabe))")
    page.get_by_role("button", name="Speichern").click()
    assert "zählt für die Saison Watt-Cup 2026" in page.get_by_role("status").inner_text()
    page.get_by_role("link", name="Saisonseite").click()
    page.get_by_role("list", name="Saisons").get_by_role("link", name="Watt-Cup 2026").click()

    assert [t.strip() for t in page.get_by_role("list", name="Turniere der Saison").inner_text().splitlines()] == [
        "Cup 1",
        "Cup 2",
    ]
    table = page.get_by_role("table", name="Saisonwertung").inner_text()
    for team in ("Adler", "Bären", "Dachse", "Eulen"):
        assert team in table
    assert "Cup 1: " in table and "Cup 2: " in table
    page_says(page, "Übliche Cup-Wertung (Vorgabe)")
    docs_screenshot(page, "veranstalter-saison.png", full_page=False)

    with page.expect_download() as info:
        page.get_by_role("link", name="Aushang (PDF)").click()
    download = info.value
    assert download.suggested_filename == "watt-cup-2026-saisonwertung.pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(Path(download.path()).read_bytes())).pages)
    assert "Watt-Cup 2026: Saisonwertung" in text and "Adler" in text
