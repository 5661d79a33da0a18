"""The course of the game on a sheet in the real app: the chart is drawn (flet-charts in the offline
web build) with its markers named, and a point tapped opens that game's explanation, the same the list shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring import Sheet, find_ruleset
from scoring.course import course
from screens.course_chart import BOTTOM_AXIS, LEFT_AXIS, TOP_PADDING, axes
from storage import SheetStore

from .browser import (
    Taps,
    body_text,
    next_frame,
    open_page,
    patient,
    running_app,
    screenshot,
    stand_still,
    turn_wheel,
    wait_for_text,
    wait_until,
)
from .conftest import ROOT

pytestmark = pytest.mark.browser

EXAMPLES = ROOT / "docs" / "examples"


def stored(data_dir: Path, name: str) -> Sheet:
    """The example sheet ``name`` put into a store on ``data_dir`` as the app finds it."""
    sheet = Sheet.from_json((EXAMPLES / f"{name}.json").read_bytes())
    SheetStore(data_dir, device="Test").create(sheet)
    return sheet


def point_position(page, chart, x: int, count: int, value: float, low: float, high: float) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Where the chart draws the point at ``x`` (of ``count``) with ``value``: the plot starts after
    the left axis, ends 8 px before the right edge, and spans 0.5 .. count + 0.5 across and
    ``axes(data)``'s range up and down."""
    box = chart.bounding_box()
    assert box is not None
    left, width = box["x"] + LEFT_AXIS, box["width"] - LEFT_AXIS - 8
    top, height = box["y"] + TOP_PADDING, box["height"] - TOP_PADDING - BOTTOM_AXIS
    return left + (x - 0.5) / count * width, top + (high - value) / (high - low) * height


def in_view(page, chart) -> None:  # type: ignore[no-untyped-def]
    """Scroll the Flutter view with the mouse wheel until the chart's node exists, then until it stands
    still wholly on screen (``stand_still``: frame by frame, never for a time)."""
    page.mouse.move(200, 500)
    for _ in range(40):
        if chart.count() and chart.bounding_box() is not None:
            break
        turn_wheel(page, 200)
        next_frame(page)
    stand_still(page, chart, "Spielverlauf", patient())


POINT_ON_TOP = """(element, [x, y]) => {
    const top = document.elementFromPoint(x, y);
    return top !== null && (top === element || element.contains(top));
}"""
"""Whether a tap at (x, y) reaches the chart, not the sheet's totals header drawn over its top."""


def tap_point(page, chart, x: int, count: int, value: float, low: float, high: float) -> None:  # type: ignore[no-untyped-def]
    """Tap the chart's point at ``x`` once the chart stands still and the point itself is not covered
    by the header that stays put while the sheet scrolls; a covered point is wheeled to mid-screen."""
    viewport = page.viewport_size
    for _ in range(5):
        in_view(page, chart)
        px, py = point_position(page, chart, x, count, value, low, high)
        if chart.evaluate(POINT_ON_TOP, [px, py]):
            page.mouse.click(px, py)
            return
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        turn_wheel(page, py - viewport["height"] / 2)
        next_frame(page)
    raise AssertionError(f"point {x} of the chart stayed covered: chart at {chart.bounding_box()}")


def open_sheet(page, title: str):  # type: ignore[no-untyped-def]
    row = page.get_by_role("button", name=re.compile(rf"^{re.escape(title)} · "))
    row.first.wait_for(timeout=patient())
    row.first.click()
    page.get_by_text("Spielverlauf · ").first.wait_for(timeout=patient())
    chart = page.locator("flt-semantics").filter(has=page.locator(":scope > span", has_text="Spielverlauf über")).last
    in_view(page, chart)
    return chart


def scrolled_to_text(page, expected: str, steps: int = 30) -> str:  # type: ignore[no-untyped-def]
    """Scroll the screen down until ``expected`` is in the page's text (Flutter leaves rows off screen
    out of the semantics tree); return that text."""
    page.mouse.move(200, 600)
    for _ in range(steps):
        text = body_text(page)
        if expected in text:
            return text
        turn_wheel(page, 250)
        next_frame(page)
    raise AssertionError(f"{expected!r} did not appear on the page; it shows:\n{body_text(page)}")


def test_watten_chart_point_opens_its_explanation(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data_dir = tmp_path / "handy"
    sheet = stored(data_dir, "watten-turnier")
    score = find_ruleset(sheet.ruleset.id).score(sheet)
    data = course(sheet, score)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        chart = open_sheet(page, "Watten (Turnier)")
        text = body_text(page)
        assert "Spielverlauf über 25 Spiele (Stand im Bummerl), zuletzt Die Sautreiber 16, Kartlbrüder Wörgl 8" in text
        for note in ("Bummerl bei 15", "gspannt (13/14)", "Ende Bummerl 1 (10. Spiel), Ende Bummerl 2 (16. Spiel)"):
            assert note in text
        # tap game 12: B won 5 after 4 (4:9), Bummerl 2; its explanation opens under the chart
        x = 12
        value = data.series[1].values[x - 1]
        grid = axes(data)
        tap_point(page, chart, x, len(data.points), value, grid.min_y, grid.max_y)
        line = next(ln for ln in score.lines if ln.entry == data.entry_at(x))
        shown = wait_for_text(page, f"Angetippt: {data.label_at(x)}")
        for explanation in line.explanation:
            assert f"{explanation.rule}: {explanation.text}" in shown
        screenshot(page, "verlauf-watten.png")


def test_open_sheet_shows_the_chart_on_a_tap_with_the_schneider_line(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Talonschnapsen still being played: the lines come first, the chart on "Anzeigen"; its Schneider
    line and the Schneider of Bummerl 3 are named; game 4 (Hans reaches 30) opens from its point."""
    data_dir = tmp_path / "handy"
    sheet = stored(data_dir, "talonschnapsen")
    score = find_ruleset(sheet.ruleset.id).score(sheet)
    data = course(sheet, score)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        row = page.get_by_role("button", name=re.compile(r"^Talonschnapsen · "))
        row.first.wait_for(timeout=patient())
        row.first.click()
        taps = Taps(page)
        taps.tap("button", "Anzeigen", exact=False)
        chart = page.locator("flt-semantics").filter(has=page.locator(":scope > span", has_text="Spielverlauf über")).last
        chart.wait_for(timeout=patient())
        in_view(page, chart)
        text = body_text(page)
        assert "Schneider bei 0" in text and "Ende Bummerl 3 (Hans Pichler: Schneider) (11. Spiel)" in text
        x = 4
        grid = axes(data)
        tap_point(page, chart, x, len(data.points), data.series[2].values[x - 1], grid.min_y, grid.max_y)
        line = next(ln for ln in score.lines if ln.entry == data.entry_at(x))
        shown = wait_for_text(page, f"Angetippt: {data.label_at(x)}")
        assert all(f"{e.rule}: {e.text}" in shown for e in line.explanation)
        screenshot(page, "verlauf-talonschnapsen.png")


def test_doppelkopf_chart_names_the_pflichtsolo_games(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data_dir = tmp_path / "handy"
    sheet = stored(data_dir, "doppelkopf-turnier")
    data = course(sheet)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        chart = open_sheet(page, "Doppelkopf (Turnier)")
        text = wait_for_text(page, "Pflichtsolo Carla Nowak (3. Spiel)")
        for mark in data.marks:
            assert f"{mark.label} ({data.label_at(mark.x)})" in text
        in_view(page, chart)  # drawn and standing still, not only named in the semantics tree
        screenshot(page, "verlauf-doppelkopf.png")


def test_statistics_screen_with_filters(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """From the start screen to the statistics: every sheet, then one ruleset, then a day; a bad date is named."""
    from datetime import UTC, datetime

    from .test_statistics_state import put

    data_dir = tmp_path / "handy"
    store = SheetStore(data_dir, device="Test")
    put(store, "doppelkopf-turnier", datetime(2026, 11, 21, 12, tzinfo=UTC))
    put(store, "doppelkopf-haus", datetime(2026, 11, 22, 12, tzinfo=UTC))
    put(store, "watten-turnier", datetime(2026, 11, 22, 13, tzinfo=UTC))
    put(store, "schafkopf-turnier", datetime(2026, 11, 20, 19, tzinfo=UTC))
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        taps = Taps(page)
        taps.tap("button", "Statistik", timeout=30_000)
        text = wait_for_text(page, "4 Blätter · 11 Teilnehmer")
        assert "Anna Brandl (Nr. 17): 1 Blatt · 32 Spiele · gewonnen 17 (53 %) · Punkte -3" in text
        assert "Gespielt: Rufspiel 6× (5 gewonnen, 83 %), Solo 1× (1 gewonnen, 100 %), Wenz 1× (1 gewonnen, 100 %)" in text
        # the statistics' text is there as the route opens; the start screen is still drawn until it is gone
        wait_until(page, lambda: page.get_by_role("button", name="Neues Blatt").count() == 0, "the start screen gone")
        screenshot(page, "statistik.png")
        scrolled_to_text(page, "Anna Huber (Nr. 3): 2 Blätter · 32 Spiele")
        turn_wheel(page, -5000)
        taps.tap("button", "Regelwerk: Watten (Turnier)")
        text = wait_for_text(page, "1 Blatt · 2 Teilnehmer")
        assert "Die Sautreiber (Nr. 12): 1 Blatt · 25 Spiele · gewonnen 14 (56 %) · Punkte 35" in text
        assert "Bummerl gewonnen 2 · verloren 1 · Schneider 0" in text
        assert "Anna Huber" not in text
        taps.tap("button", "Regelwerk: Alle Regelwerke")
        wait_for_text(page, "4 Blätter · 11 Teilnehmer")
        taps.type("von (TT.MM.JJJJ)", "22.13.2026")
        wait_for_text(page, "„von“: bitte als TT.MM.JJJJ, z. B. 21.11.2026")
        assert "4 Blätter · 11 Teilnehmer" in body_text(page)  # nothing changed
        taps.type("von (TT.MM.JJJJ)", "22.11.2026")
        text = wait_for_text(page, "2 Blätter · 7 Teilnehmer")
        assert "Anna Brandl" not in text
        screenshot(page, "statistik-filter.png")
        scrolled_to_text(page, "Anna Huber (Nr. 3): 1 Blatt · 16 Spiele")
