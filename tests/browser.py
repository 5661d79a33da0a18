"""Helpers to drive the real app in Debian's Chromium with Playwright (no ``playwright install``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 412, "height": 915}
SCREENSHOTS = ROOT / "docs" / "screenshots"


def require_chromium() -> None:
    """Browser tests need Debian's chromium; ``./dev test`` installs it. On CI its absence fails."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing on CI: ./dev test should have installed it")
        pytest.skip(f"{CHROMIUM} is not installed (./dev test installs it)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running_app(env: dict[str, str] | None = None, cwd: Path = ROOT) -> Iterator[str]:
    """Start ``main.py`` as the user's ``tischblock app`` does; yield its URL; stop it."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py")],
        cwd=cwd,
        env={**os.environ, "TISCHBLOCK_PORT": str(port), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    output = process.stdout.read() if process.stdout else ""
                    raise RuntimeError(f"the app did not start: {output}") from None
                time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def body_text(page) -> str:  # type: ignore[no-untyped-def]
    """What a screen reader would read: the page's text and the labels Flutter puts on groups."""
    return str(
        page.evaluate(
            """document.body.innerText + '\\n' + Array.from(document.querySelectorAll('[aria-label]'))
                 .map(e => e.getAttribute('aria-label')).join('\\n')"""
        )
    )


def enable_semantics(page) -> None:  # type: ignore[no-untyped-def]
    """Flutter draws on a canvas: one click on the placeholder turns on the semantics tree."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")


def screenshot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Save a phone-size screenshot to docs/screenshots/ once Flutter has painted the frame."""
    page.wait_for_timeout(1500)
    page.screenshot(path=str(SCREENSHOTS / name))


TAPS_FILE = ROOT / "docs" / "taps.json"

ON_TOP = """element => {
    const r = element.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (top === element || element.contains(top));
}"""
"""Whether a tap in the middle of the element reaches it (not a control drawn over it)."""


class Taps:
    """Drives a page and counts what a player does: a tap on a control, or one value typed, counts one."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.count = 0

    def tap(self, role: str, name: str, *, exact: bool = True, timeout: float = 15_000) -> None:
        """Tap the control with this accessible role and name (waits until it is there)."""
        locator = self.page.get_by_role(role, name=name, exact=exact)
        locator.first.wait_for(timeout=timeout)
        locator.first.click()
        self.count += 1

    def type(self, label: str, text: str, *, timeout: float = 15_000) -> None:
        """Type ``text`` into the text field labelled ``label`` (one value typed counts one)."""
        field = self.page.get_by_role("textbox", name=label, exact=True).first
        field.wait_for(timeout=timeout)
        # A tap lands where Flutter drew the field: wait until the list under it stopped moving
        # and nothing else is drawn on that spot, or the tap presses whatever is there instead.
        field.scroll_into_view_if_needed()
        previous = None
        for _ in range(40):
            box = field.bounding_box()
            if box is not None and box == previous and field.evaluate(ON_TOP):
                break
            previous = box
            self.page.wait_for_timeout(100)
        for _ in range(3):
            field.click()
            # Flutter moves its one text-editing element to the tapped field: wait until it is there.
            self.page.wait_for_function(
                "label => document.activeElement && document.activeElement.getAttribute('aria-label') === label",
                arg=label,
                timeout=timeout,
            )
            field.fill(text)
            if field.input_value() == text:
                break
        self.count += 1

    def reset(self) -> int:
        """The count so far, and start counting anew."""
        count, self.count = self.count, 0
        return count


def record_taps(ruleset: str, game: str, taps: int, target: int) -> None:
    """Note the taps a typical game took in ``docs/taps.json`` (the README's table is made from it)."""
    import json

    data = json.loads(TAPS_FILE.read_text(encoding="utf-8")) if TAPS_FILE.exists() else {}
    data[f"{ruleset}: {game}"] = {"ruleset": ruleset, "game": game, "taps": taps, "target": target}
    TAPS_FILE.write_text(json.dumps(dict(sorted(data.items())), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def wait_for_text(page, expected, timeout: float = 15_000) -> str:  # type: ignore[no-untyped-def]
    """Wait until the page's text (``body_text``) holds ``expected`` (a string or a compiled regex); return it.

    Flutter merges neighbouring texts into one semantics node, so a text is looked for in the whole
    page's text, not as an element of its own."""
    import time as _time

    deadline = _time.monotonic() + timeout / 1000
    while True:
        text = body_text(page)
        found = expected.search(text) if hasattr(expected, "search") else expected in text
        if found:
            return text
        if _time.monotonic() > deadline:
            raise AssertionError(f"{expected!r} did not appear on the page; it shows:\n{text}")
        page.wait_for_timeout(200)


def scroll_to(page, role: str, name, *, x: int = 200, y: int = 700, steps: int = 40):  # type: ignore[no-untyped-def]
    """Scroll the list under (x, y) down, then up, until the control with this role and name is built; return it.

    Flutter builds a long list lazily: what is far off screen is not in the page until scrolled to."""
    locator = page.get_by_role(role, name=name)
    page.mouse.move(x, y)
    for delta in (300, -300):
        for _ in range(steps):
            if locator.count():
                locator.first.scroll_into_view_if_needed()
                return locator.first
            page.mouse.wheel(0, delta)
            page.wait_for_timeout(150)
    raise AssertionError(f"no {role} named {name!r} on the page:\n{body_text(page)}")


def open_page(browser, url: str):  # type: ignore[no-untyped-def]
    """A phone-size page on ``url`` with Flutter's semantics tree switched on."""
    page = browser.new_page(viewport=PHONE)
    page.goto(url)
    enable_semantics(page)
    return page


def sheet_files(data_dir: Path) -> dict[str, bytes]:
    """Every sheet file of a store with its bytes: a refusal must leave them as they were."""
    return {p.name: p.read_bytes() for p in sorted((data_dir / "sheets").glob("*.json"))}
