"""The renderer watch (tests/renderer_watch.py) against a real Chromium page that spins forever: the
waiting Playwright call fails instead of holding the run, and the report says where the page spun."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .browser import chromium_and_watch, require_chromium
from .renderer_watch import HANGS, POLL_S, RendererWatch

pytestmark = pytest.mark.browser

SPINNING = "data:text/html,<title>Kreisel</title><script>function kreiseln() { for (;;) {} }</script>"
SPINNING_AT_ONCE = "data:text/html,<title>Kreisel</title><script>for (;;) {}</script>"


def _watching(stacks: bool, poll_s: float) -> Iterator[tuple[Any, RendererWatch]]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, chromium_and_watch(playwright, hung_s=3, stacks=stacks, poll_s=poll_s) as watched:
        yield watched


@pytest.fixture(params=[False, True], ids=["plain", "with-stacks"])
def watched(request: pytest.FixtureRequest) -> Iterator[tuple[Any, RendererWatch]]:
    """The watch asking as for the suite's pages, every ``POLL_S``: asked sooner, its session with a page
    that spins from its first script is set up on the blank page before the spinning one loads."""
    yield from _watching(request.param, POLL_S)


@pytest.fixture(params=[False, True], ids=["plain", "with-stacks"])
def watched_often(request: pytest.FixtureRequest) -> Iterator[tuple[Any, RendererWatch]]:
    """The watch asking four times a second: a page that spins once it has answered is found hung within
    3.25 s, not 5."""
    yield from _watching(request.param, 0.25)


def test_a_page_that_spins_forever_is_crashed_with_its_stack(watched_often: tuple[Any, RendererWatch]) -> None:
    browser, watch = watched_often
    page = browser.new_page()
    page.goto(SPINNING)
    calm = browser.new_page()  # a page that answers is left alone
    calm.goto("data:text/html,<title>Ruhig</title>")
    deadline = time.monotonic() + 60
    while not watch.watching(SPINNING):
        assert time.monotonic() < deadline, "the watch never took up the page"
        page.wait_for_timeout(100)
    started = time.monotonic()
    with pytest.raises(PlaywrightError):
        page.evaluate("kreiseln()")  # without the watch: never returns
    assert time.monotonic() - started < 60
    assert len(watch.hangs) == 1, watch.hangs
    hang = watch.hangs[0]
    assert hang.silent_s >= 3 and hang.url == SPINNING
    assert "the watch crashed the page" in hang.describe()
    if watch.stacks:
        assert any(line.startswith("kreiseln ") for line in hang.stack), hang.stack
        assert "Where its JavaScript was:\n    kreiseln (" in hang.describe()
    else:
        assert hang.stack == [] and "JavaScript" not in hang.describe()
    assert "did not answer for" in hang.describe()
    assert calm.evaluate("1 + 1") == 2
    # The crashed page stays open and answers nothing: it is not found hung again, however long it stays.
    ended = watch.rounds
    while watch.rounds < ended + 2 + watch.hung_s / watch.poll_s:
        assert time.monotonic() - started < 120, "the watch stopped asking"
        calm.wait_for_timeout(100)
    assert watch.hangs == [hang]
    HANGS.remove(hang)  # on purpose: not one to fail this test (tests/conftest.py)


def test_a_page_that_spins_from_its_first_script_is_killed(watched: tuple[Any, RendererWatch]) -> None:
    """A page that hangs before the watch's session with it is set up takes no request on that session:
    its renderer is killed, found by the CPU it burns."""
    browser, watch = watched
    page = browser.new_page()
    started = time.monotonic()
    with pytest.raises(PlaywrightError):
        page.goto(SPINNING_AT_ONCE, timeout=120_000)
    assert time.monotonic() - started < 60
    assert [hang.url for hang in watch.hangs] == [SPINNING_AT_ONCE]
    assert "killed its renderer (it hung before the watch's session with it was set up)" in watch.hangs[0].describe()
    HANGS.remove(watch.hangs[0])  # on purpose: not one to fail this test (tests/conftest.py)
