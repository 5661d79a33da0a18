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


HOT_WASM = """async () => {
  // (func (export "f") (param i32) (result i32) (local i32): the sum of param .. 1, one loop
  const bytes = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,  0x03, 0x02, 0x01, 0x00,
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00,
    0x0a, 0x1b, 0x01, 0x19, 0x01, 0x01, 0x7f, 0x03, 0x40,
    0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01,  0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00,  0x0d, 0x00, 0x0b,
    0x20, 0x01, 0x0b]);
  const { instance } = await WebAssembly.instantiate(bytes);
  let sum = 0;
  for (let i = 0; i < 20; i++) sum = instance.exports.f(1000000);
  const f = instance.exports.f;
  return [sum, %IsLiftoffFunction(f) ? "Liftoff" : %IsTurboFanFunction(f) ? "TurboFan" : "?"];
}"""
"""A page's WebAssembly made hot: one function looping 20 million times, far over V8's budget for
moving a function up to its optimizing compiler (``--wasm-tiering-budget``); then which of V8's
compilers made the code the function now runs (V8's test intrinsics, ``--allow-natives-syntax``)."""

CHECK_FLAGS = ("--allow-natives-syntax", "--wasm-sync-tier-up")
"""V8's flags for the check, beside the one under test: the page may ask V8 which code a function runs,
and a function that has used up its tiering budget is compiled by the optimizing compiler on the thread
that runs it, before the call goes on, not in a background job. Before, the check counted that job in
a trace: on a busy machine it could still be queued when the page was done and the trace stopped (CI,
7 Dec: "without the flag V8 optimized nothing"), and with the flag under test broken the check could pass."""


def _with_js_flags(args: list[str], *flags: str) -> list[str]:
    """``args`` with one ``--js-flags`` of ``flags`` in place of theirs (Chromium reads the last only)."""
    return [arg for arg in args if not arg.startswith("--js-flags=")] + ["--js-flags=" + " ".join(flags)]


def _hot_function_compiler(args: list[str]) -> str:
    """Which of V8's compilers, ``Liftoff`` (the baseline) or ``TurboFan`` (the optimizing one), made
    the code ``HOT_WASM``'s function runs once hot, in a page of a Chromium launched with ``args``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_page()
            page.set_content("<p>Tischblock</p>")
            total, compiler = page.evaluate(HOT_WASM)
        finally:
            browser.close()
    assert total == (sum(range(1, 1000001)) + 2**31) % 2**32 - 2**31  # an i32's wrap
    return compiler


def test_the_pages_webassembly_stays_on_v8s_baseline_compiler() -> None:
    """``--js-flags=--liftoff-only`` (``CHROMIUM_ARGS``): V8 never moves a page's WebAssembly up to its
    optimizing compiler. Without the flag the same hot function is optimized, so the check can fail;
    both ways the answer is V8's own and does not hang on how soon a background job ran (``CHECK_FLAGS``)."""
    require_chromium()
    own = [arg.split("=", 1)[1] for arg in CHROMIUM_ARGS if arg.startswith("--js-flags=")][-1].split()
    assert "--liftoff-only" in own
    without = [flag for flag in own if flag != "--liftoff-only"]
    assert _hot_function_compiler(_with_js_flags(CHROMIUM_ARGS, *without, *CHECK_FLAGS)) == "TurboFan", "no check"
    assert _hot_function_compiler(_with_js_flags(CHROMIUM_ARGS, *own, *CHECK_FLAGS)) == "Liftoff"
