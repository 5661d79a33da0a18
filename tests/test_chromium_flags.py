"""The flags of every Chromium the tests launch (``tests/browser.py``: ``CHROMIUM_ARGS``) do what they say."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .browser import CHROMIUM, CHROMIUM_ARGS, WINDOW_FEATURES_OFF, playwright_disabled_features, require_chromium

pytestmark = pytest.mark.browser


def _processes() -> dict[int, tuple[int, list[str]]]:
    """Every process: its parent and its command line (split at NULs and, as Chromium rewrites its
    own, at spaces)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found[int(entry)] = (int(stat[1]), command.split())
    return found


def _descendants(root: int, processes: dict[int, tuple[int, list[str]]]) -> list[list[str]]:
    def under(pid: int) -> bool:
        for _ in range(10):
            if pid == root:
                return True
            pid = processes.get(pid, (0, []))[0]
        return False

    return [command for pid, (_, command) in processes.items() if pid != root and under(pid)]


@contextmanager
def _launched(args: list[str]) -> Iterator[tuple[list[str], list[list[str]]]]:
    """A Chromium launched by Playwright with ``args`` and one page open on a plain document: the
    browser process's command line, and the command lines of its descendants."""
    from playwright.sync_api import sync_playwright

    me = os.getpid()
    before = set(_processes())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_page()
            page.set_content("<p>Tischblock</p>")
            processes = _processes()
            root = next(
                pid
                for pid, (parent, command) in processes.items()
                if pid not in before
                and command
                and command[0].endswith("chromium")
                and not any(part.startswith("--type=") for part in command)
                and processes.get(parent, (0, []))[0] == me  # started by this process's Playwright driver
            )
            yield processes[root][1], _descendants(root, processes)
        finally:
            browser.close()


def _last_disabled(command: list[str]) -> set[str]:
    values = [part.split("=", 1)[1] for part in command if part.startswith("--disable-features=")]
    return set(values[-1].split(",")) if values else set()


def test_playwrights_features_stay_off_and_no_page_starts_an_address_bar_of_its_own() -> None:
    """Chromium takes the last ``--disable-features`` only: the tests' one carries Playwright's list
    (read from its driver) and ``WINDOW_FEATURES_OFF``. Launched as Playwright alone would, each new page
    brings a renderer for the address bar's popup (``--top-chrome-webui``); with the tests' flags none."""
    require_chromium()
    own = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--disable-features=")]
    with _launched(own) as (command, children):
        playwrights = _last_disabled(command)
        assert any("--top-chrome-webui" in child for child in children), "without the flags: no address bar renderer?"
    assert playwrights, "Playwright passed no --disable-features"
    assert set(playwright_disabled_features()) == playwrights, (
        "tests/browser.py read another list from Playwright's driver than Playwright passes: "
        f"{sorted(set(playwright_disabled_features()) ^ playwrights)}"
    )
    with _launched(CHROMIUM_ARGS) as (command, children):
        last = _last_disabled(command)
        assert playwrights | set(WINDOW_FEATURES_OFF) <= last, sorted(playwrights | set(WINDOW_FEATURES_OFF) - last)
        assert not [child for child in children if "--top-chrome-webui" in child]
