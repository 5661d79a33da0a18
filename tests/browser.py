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
