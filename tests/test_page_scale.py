"""The tests' phone pages draw at ``PAGE_SCALE`` (a quarter of the pixels each way): the app's layout, as
the tests read it, is the same as at a device pixel ratio of 1, a turn of the wheel scrolls as far, and a
failure's screenshot is drawn at 1 so that it can be read (``tests/browser.py``)."""

from __future__ import annotations

import io
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from scoring import Sheet
from storage import SheetStore

from .browser import (
    PAGE_SCALE,
    PATIENCE_MS,
    PHONE,
    enable_semantics,
    next_frame,
    page_scale,
    painted,
    readable_screenshot,
    running_app,
    turn_wheel,
    wait_for_text,
    wait_until,
    with_editing_probe,
)
from .conftest import ROOT

pytestmark = pytest.mark.browser

KEEP = Path(os.environ["TISCHBLOCK_TEST_KEEP_CAPTURE"]) if os.environ.get("TISCHBLOCK_TEST_KEEP_CAPTURE") else None
"""Where to keep the readable capture, to look at it (not set in the suite)."""

SCALES = sorted({0.25, PAGE_SCALE} - {1.0})
"""The ratios compared with 1: the one the suite runs at, and 0.25 also where ``./dev screenshots`` runs at 1."""

BOXES = """() => [...document.querySelectorAll('flt-semantics, [aria-label]')].map(e => {
    const r = e.getBoundingClientRect();
    return [e.getAttribute('aria-label') || e.innerText.slice(0, 40), r.x, r.y, r.width, r.height];
})"""
"""Every node of Flutter's semantics tree with its name and where it is drawn, in CSS pixels."""


LINE = re.compile(r"^\d+\. Spiel")
"""A line of the sheet's list ("12. Spiel: ..."), which scrolls; the header over it does not."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on a store with the Schafkopf example's 32-game Serie, at "Sehr groß" (its list is many
    screens long and the sheet's header stays over its top); yields the sheet's address and the store."""
    data = tmp_path_factory.mktemp("page-scale")
    sheet = Sheet.from_json((ROOT / "docs" / "examples" / "schafkopf-turnier.json").read_bytes())
    SheetStore(data, device="Handy Maßstab").create(sheet)
    settings = {"text_size": "sehr-gross", "device_name": "Handy Maßstab", "device_asked": True}
    (data / "einstellungen.json").write_text(json.dumps(settings), encoding="utf-8")
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        yield f"{url}blatt/{sheet.id}", data


def sheet_page(browser: Any, url: str, scale: float) -> Any:
    """The sheet on a phone-size page drawn at ``scale``: the suite's phone pages at ``PAGE_SCALE``, any
    other ratio in a context of its own."""
    if scale == PAGE_SCALE:
        page = browser.new_page(viewport=PHONE)
    else:
        context = browser.new_context(viewport=PHONE, device_scale_factor=scale, has_touch=True)
        page = context.new_page()
    page = with_editing_probe(page)
    page.goto(url)
    enable_semantics(page)
    wait_for_text(page, "Spiel", 30_000)
    assert page.evaluate("window.devicePixelRatio") == scale
    return page


def settled_boxes(page: Any) -> list[list[Any]]:
    """``BOXES`` once two reads a frame apart agree and the screen's node covers the page (the screen
    built and drawn at the page's size, any scroll done). Two reads alone could agree on a size the page
    had before: after ``readable_screenshot``'s way back by a screen one pixel wider, whose few frames
    end after 2 s on a busy machine, Flutter's semantics still showed 413 px for two frames (`./dev test`, 8 Dec)."""
    deadline = time.monotonic() + PATIENCE_MS / 1000
    size = page.viewport_size
    screen = [0, 0, size["width"], size["height"]]
    before = page.evaluate(BOXES)
    while True:
        next_frame(page)
        now = page.evaluate(BOXES)
        if now == before and len(now) > 10 and now[0][1:] == screen:
            return list(now)
        assert time.monotonic() < deadline, f"the screen did not settle: {now}"
        before = now


def wheeled(page: Any, delta: float) -> list[list[Any]]:
    """The settled boxes after a turn of ``delta`` px over the sheet's list (below its fixed header)."""
    page.mouse.move(PHONE["width"] / 2, PHONE["height"] - 120)
    turn_wheel(page, delta)
    return settled_boxes(page)


def finest_detail(png: bytes) -> int:
    """How much a capture loses, at most in one pixel, when scaled to a quarter and back: a screen drawn at
    a quarter size and scaled up loses little (a text's edges were blurred already: 41 of 255 on the start
    screen), one drawn at 1 loses its sharp edges (197)."""
    with Image.open(io.BytesIO(png)) as image:
        gray = image.convert("L")
    quarter = gray.resize((gray.width // 4, gray.height // 4), Image.Resampling.BOX)
    back = quarter.resize(gray.size, Image.Resampling.BILINEAR)
    _, high = ImageChops.difference(gray, back).getextrema()
    return int(high)


@pytest.mark.parametrize("scale", SCALES)
def test_the_sheet_is_laid_out_and_scrolled_the_same_as_at_a_ratio_of_one(browser: Any, app: Any, scale: float) -> None:
    """Every node's name and box at ``scale`` is the one at 1: on the sheet as it opens, and after two
    turns of the wheel down and one up (the layout checks judge the same geometry at any ratio)."""
    url, _ = app
    pages = {ratio: sheet_page(browser, url, ratio) for ratio in (1.0, scale)}
    try:
        for what, turn in (("opened", None), ("300 down", 300), ("another 450 down", 450), ("200 up", -200)):
            seen = {ratio: settled_boxes(page) if turn is None else wheeled(page, turn) for ratio, page in pages.items()}
            assert seen[scale] == seen[1.0], f"{what}: at {scale} {seen[scale]}\nat 1: {seen[1.0]}"
    finally:
        for page in pages.values():
            page.close()


def test_a_turn_of_the_wheel_scrolls_the_list_by_its_pixels(browser: Any, app: Any) -> None:
    """At ``PAGE_SCALE`` a turn of 180 px moves every line of the list up by 180 px (a raw turn of the
    wheel would move it 1 / ratio squared as far: 16 times at 0.25)."""
    url, _ = app
    page = sheet_page(browser, url, PAGE_SCALE)
    try:
        wheeled(page, 600)  # the list's lines out from under the header
        before = {name: y for name, _, y, _, _ in settled_boxes(page) if LINE.match(name)}
        after = {name: y for name, _, y, _, _ in wheeled(page, 180) if name in before}
        moved = {name: round(before[name] - y, 3) for name, y in after.items()}
        assert moved and set(moved.values()) == {180.0}, moved
    finally:
        page.close()


def test_a_failures_screenshot_is_drawn_at_a_ratio_of_one_and_the_page_goes_back(browser: Any, app: Any) -> None:
    """``readable_screenshot`` of a page at ``PAGE_SCALE`` has the screen's CSS pixels (412x915, not
    103x229), and the page then draws at its own ratio again with the same layout."""
    url, _ = app
    page = sheet_page(browser, url, PAGE_SCALE)
    try:
        boxes = settled_boxes(page)
        capture = readable_screenshot(page)
        with Image.open(io.BytesIO(capture)) as image:
            assert image.size == (PHONE["width"], PHONE["height"]), image.size
        assert painted(capture), "the capture shows no screen of the app"
        assert finest_detail(capture) > 120, "the capture is the page's quarter-size drawing scaled up, not drawn at 1"
        if KEEP:
            KEEP.write_bytes(capture)
        assert page.evaluate("window.devicePixelRatio") == PAGE_SCALE
        assert page_scale(page) == PAGE_SCALE
        assert settled_boxes(page) == boxes
    finally:
        page.close()


def test_a_turn_of_the_wheel_scrolls_a_plain_html_page_by_its_pixels(browser: Any) -> None:
    """On a page that Flutter does not draw (the layout check's own test pages), a turn of 180 px scrolls
    the page 180 px at ``PAGE_SCALE`` too: Chromium scrolls HTML by the wheel's delta at any ratio."""
    page = browser.new_page(viewport=PHONE)
    body = "<html><body style='margin:0'>" + "".join(f"<p style='height:100px;margin:0'>{n}</p>" for n in range(60))
    page.route("http://wheel.check/**", lambda route: route.fulfill(body=body, content_type="text/html"))
    try:
        page.goto("http://wheel.check/")
        assert page.evaluate("window.devicePixelRatio") == PAGE_SCALE
        page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        turn_wheel(page, 180)
        wait_until(page, lambda: page.evaluate("window.scrollY") > 0, "the page scrolled")
        scrolled = None
        while scrolled != (scrolled := page.evaluate("window.scrollY")):  # until a frame moves it no more
            next_frame(page)
        assert scrolled == 180
    finally:
        page.close()
