"""What one screen action of the browser tests costs Chromium, plainly and in the variants tried (issue 24).

    python bench/browser.py [--variant warp=1] [--variant fps=10] [--variant mouse] [--variant arg=--in-process-gpu]
        [--variant renderer=canvaskit] [--variant cpu-only] [--variant threads] [--rounds 1] [--per-action]
    python bench/browser.py --loads 5

Each run starts the real app (``main.py``) on a fresh data directory and a fresh Debian Chromium with
the browser tests' flags (``tests/browser.py``), and does what a test does at a phone's size: "Neues
Blatt", the Watten (Turnier) choice, six values typed into the form, "Blatt anlegen", and the first
game in one tap (``Taps``, so every control is waited for until it stands still, as in the tests).
Around each action it counts the animation frames the page asked for and sums the CPU time of every
process of that Chromium (``/proc``), until the page has been quiet for ``--settle`` seconds after it.

The plain run is the baseline and runs in the same invocation as the variants, in turn, ``--rounds``
times; the figures are each variant's Chromium CPU for the same actions as a ratio of the baseline's
(the machine's other work moves both). Variants:

- ``warp=F``: Flutter's animations F times as fast as the clock (``TIME_WARP`` in ``tests/browser.py``;
  the tests run at ``TIME_WARP_FACTOR``, 100; ``warp=1``: at the clock's pace, as before 28 Nov).
- ``fps=N``: ``requestAnimationFrame`` held to N frames a second (an init script): is it the frames?
- ``mouse``: taps as mouse clicks instead of touches (the tests' phone pages take touches, ``finger``).
- ``arg=FLAG``: one more Chromium flag (``--in-process-gpu``, ``--enable-features=SkiaGraphite``, ...).
  Chromium takes the last ``--disable-features`` (or ``--enable-features``) only: one given here replaces
  the tests' own (Playwright's list and ``WINDOW_FEATURES_OFF``), so give it whole.
- ``drop=FLAG``: one of the tests' flags left out (``--disable-gpu``: GPU compositing on SwiftShader).
  ``drop=--js-flags=--liftoff-only``: V8 optimizing the page's WebAssembly again, as before 7 Dec.
- ``renderer=canvaskit`` or ``renderer=skwasm``: Flutter's web renderer forced (an init script adds it
  to the configuration Flet's bootstrap hands Flutter; Flet's own default, "auto", loads skwasm where
  the browser has WebAssembly GC and WebGL, as Chromium does).
- ``dsf=X``: the page drawn at X device pixels per CSS pixel (the tests draw at 1): is it the pixels?
- ``cpu-only``: CanvasKit rasterizing on the CPU (Flutter's ``canvasKitForceCpuOnly``) instead of WebGL,
  which with ``--disable-gpu`` Chromium's GPU process emulates on SwiftShader.
- ``threads``: skwasm drawing on a worker of its own, as Flet's pages do in a browser (they are
  cross-origin isolated), instead of on the page's main thread as the tests run it
  (``forceSingleThreadedSkwasm``, ``tests/browser.py: TEST_FLUTTER_CONFIG``).

``--loads N`` measures instead what a page's start costs Chromium, N starts one after the other, in
Playwright's own contexts (off the record) and in one profile on disk, as the tests' ``PhoneBrowser``
opens them: the profile keeps Flutter's compiled WebAssembly in its code cache.

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    HOLD_FPS,
    PHONE,
    TIME_WARP_FACTOR,
    Taps,
    enable_semantics,
    flutter_config,
    running_app,
    wait_for_text,
    with_editing_probe,
)

COUNT_FRAMES = """(() => { window.__benchFrames = 0; let last = null; const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = cb => raf(ts => { if (ts !== last) { last = ts; window.__benchFrames++; } cb(ts); }); })();"""
"""Counts the animation frames the page runs: the slots whose callbacks ran, each seen once by its time
(every callback of a frame gets the same). Installed after the page's own scripts (``with_editing_probe``),
which replace ``requestAnimationFrame`` (``FAST_FRAMES`` without calling the browser's): wrapping the
browser's own before them counted 0 frames since 28 Nov."""

WHICH_RENDERER = "() => window._flutter_skwasmInstance ? 'skwasm' : 'canvaskit'"
"""The renderer the page runs: Flet's bootstrap keeps skwasm's instance on the window."""

RENDERERS: dict[str, str] = {}

FIRST_GAME = """Array.from(document.querySelectorAll('flt-semantics[role=button]'))
  .map(e => e.getAttribute('aria-label') || e.innerText).find(name => name && name.startsWith('+2'))"""
"""The Watten panel's first one-tap game: 2 points for the first team."""

TICK = os.sysconf("SC_CLK_TCK")


def _parent(pid: int) -> int:
    """``pid``'s parent (0 for a process that just ended)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _chromium_processes() -> dict[int, tuple[int, bool]]:
    """Every Chromium process: its parent and whether it is a browser process (no ``--type=``)."""
    found: dict[int, tuple[int, bool]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:  # a process that just ended
            continue
        if command and b"chromium" in command[0]:
            found[int(entry)] = (_parent(int(entry)), not any(part.startswith(b"--type=") for part in command))
    return found


def _launched_chromium(before: set[int]) -> int:
    """The browser process of the Chromium this process just launched: new since ``before``, and started
    by this process's Playwright driver (another bench or test may launch one at the same time)."""
    me = os.getpid()
    return next(
        pid for pid, (parent, top) in _chromium_processes().items() if top and pid not in before and _parent(parent) == me
    )


def _cpu_seconds(root: int) -> float:
    """User and system CPU of the Chromium whose browser process is ``root`` and of all its descendants,
    those that ended included: a closed page's renderer ends, and its CPU moves to what its parent (the
    zygote, in the tree) counts for its waited-for children (``cutime``, ``cstime``). Without those two,
    a start during which the previous page's renderer ended counted that renderer's CPU as a saving.

    The tree is every process's parent from ``/proc/PID/stat``, not the processes whose command line
    names Chromium: a renderer that has ended but is not yet waited for (a zombie) has no command line
    left but still its CPU in ``stat``, and a reading that skipped it counted its whole CPU again once
    the zygote had waited for it (in ``cutime``): one start in three or four counted the previous
    page's renderer twice, about 1.7 s (found 2026-12-07)."""
    table: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that was waited for meanwhile: its CPU is in its parent's cutime now
            continue
        table[int(entry)] = (int(fields[1]), sum(int(value) for value in fields[11:15]))  # utime, stime, cutime, cstime

    def descends(pid: int) -> bool:
        for _ in range(10):
            if pid == root:
                return True
            pid = table.get(pid, (0, 0))[0]
        return False

    total = sum(ticks for pid, (_, ticks) in table.items() if descends(pid))
    return total / TICK


def run_once(variant: str, settle: float, actions: int = 10) -> list[tuple[str, int, float]]:
    """The first ``actions`` actions once in a fresh app and Chromium with ``variant``: (action, frames,
    Chromium CPU s) each."""
    kind, _, value = variant.partition("=")
    args = [a for a in CHROMIUM_ARGS if not (kind == "drop" and a == value)] + ([value] if kind == "arg" else [])
    rows: list[tuple[str, int, float]] = []
    with (
        tempfile.TemporaryDirectory(prefix="tischblock-bench-browser-") as data,
        running_app(env={"TISCHBLOCK_DATA_DIR": data}) as url,
        sync_playwright() as playwright,
    ):
        before = set(_chromium_processes())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            root = _launched_chromium(before)
            scale = {"device_scale_factor": float(value)} if kind == "dsf" else {}
            context = browser.new_context(viewport=PHONE, has_touch=kind != "mouse", **scale)
            if kind == "fps":
                context.add_init_script(HOLD_FPS.replace("MIN_MS", str(1000 / float(value))))
            if kind == "renderer":
                context.add_init_script(flutter_config({"renderer": value}))
            if kind == "cpu-only":
                config = {"renderer": "canvaskit", "canvasKitForceCpuOnly": True}
                context.add_init_script(flutter_config(config))
            if kind == "threads":
                context.add_init_script(flutter_config({"forceSingleThreadedSkwasm": False}))
            page = with_editing_probe(context.new_page(), warp=float(value) if kind == "warp" else TIME_WARP_FACTOR)
            page.add_init_script(COUNT_FRAMES)
            page.goto(url)
            enable_semantics(page)
            wait_for_text(page, "Noch kein Blatt", 30_000)
            RENDERERS[variant or "plain"] = f"{page.evaluate(WHICH_RENDERER)}, {len(page.workers)} worker(s)"
            taps = Taps(page)

            def type_(label: str, text: str) -> Callable[[], object]:
                return lambda: taps.type(label, text)

            def anlegen() -> None:
                taps.tap("button", "Blatt anlegen")
                wait_for_text(page, "Bummerl 1 von 3")

            def first_game() -> None:
                taps.tap("button", page.evaluate(FIRST_GAME))
                wait_for_text(page, "1. Spiel eingetragen")

            steps: list[tuple[str, Callable[[], object]]] = [
                ("tap 'Neues Blatt'", lambda: taps.tap("button", "Neues Blatt")),
                ("tap 'Watten (Turnier)'", lambda: taps.tap("radio", "Watten (Turnier)")),
                *[
                    (f"type {label!r}", type_(label, text))
                    for label, text in (
                        ("Mannschaft 1: Name", "Die Sautreiber"),
                        ("Mannschaft 1: Startnr.", "7"),
                        ("Mannschaft 2: Name", "Kartlbrüder"),
                        ("Mannschaft 2: Startnr.", "12"),
                        ("Durchgang", "1"),
                        ("Tisch", "4"),
                    )
                ],
                ("tap 'Blatt anlegen'", anlegen),
                ("tap the first game (+2)", first_game),
            ]
            for name, action in steps[:actions]:
                frames, cpu = page.evaluate("window.__benchFrames"), _cpu_seconds(root)
                action()
                time.sleep(settle)  # what the action set going (its animations) ends in this window
                rows.append((name, page.evaluate("window.__benchFrames") - frames, _cpu_seconds(root) - cpu))
        finally:
            browser.close()
    return rows


def page_starts(count: int) -> dict[str, list[float]]:
    """Chromium's CPU for ``count`` starts of the app's page one after the other, each in a new page as
    the tests open them: in Playwright's own contexts (off the record: ``Browser.new_page``) and in one
    profile kept on disk (``PhoneBrowser``), each in a fresh Chromium. A start counts until the start
    screen is shown and three seconds after (WebAssembly's optimizing compiler runs on after it)."""
    from tests.browser import persistent_chromium

    found: dict[str, list[float]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="tischblock-bench-browser-") as data,
        running_app(env={"TISCHBLOCK_DATA_DIR": data}) as url,
        sync_playwright() as playwright,
    ):
        for way in ("off the record", "profile"):
            before = set(_chromium_processes())
            with tempfile.TemporaryDirectory(prefix="tischblock-bench-profile-") as profile, ExitStack() as stack:
                if way == "profile":
                    opener = stack.enter_context(persistent_chromium(playwright, profile))
                else:
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                    stack.callback(browser.close)
                    opener = browser
                root = _launched_chromium(before)
                for _ in range(count):
                    cpu = _cpu_seconds(root)
                    page = with_editing_probe(opener.new_page())
                    page.set_viewport_size(PHONE)
                    page.goto(url)
                    enable_semantics(page)
                    wait_for_text(page, "Noch kein Blatt", 30_000)
                    time.sleep(3)
                    found.setdefault(way, []).append(_cpu_seconds(root) - cpu)
                    page.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="fps=N, mouse, arg=FLAG, drop=FLAG, renderer=NAME, cpu-only, threads or dsf=X (repeatable)",
    )
    parser.add_argument("--per-action", action="store_true", help="each variant's actions in round 1, not only the plain run's")
    parser.add_argument("--rounds", type=int, default=1, help="baseline and variants this many times, in turn")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after each action that still count for it")
    parser.add_argument("--actions", type=int, default=10, help="only the first N of the 10 actions")
    parser.add_argument("--loads", type=int, default=0, help="instead: N page starts off the record and in a profile")
    args = parser.parse_args()
    if args.loads:
        print(f"load average at the start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
        starts = page_starts(args.loads)
        for way, values in starts.items():
            print(
                f"  {way:16s} "
                + " ".join(f"{v:5.2f}" for v in values)
                + f"  s; median after the first {statistics.median(values[1:] or values):5.2f} s"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        return
    for variant in args.variant:
        kind = variant.partition("=")[0]
        if kind not in ("warp", "fps", "mouse", "arg", "drop", "renderer", "cpu-only", "dsf", "threads"):
            parser.error(f"unknown variant {variant!r}")
    print(f"load average at the start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    totals: dict[str, list[float]] = {"plain": []}
    for variant in args.variant:
        totals[variant] = []
    for round_no in range(1, args.rounds + 1):
        for variant in totals:
            rows = run_once("" if variant == "plain" else variant, args.settle, args.actions)
            totals[variant].append(sum(cpu for *_, cpu in rows))
            if round_no == 1 and (variant == "plain" or args.per_action):
                print(f"{variant} (the tests' flags), per action:")
                for name, frames, cpu in rows:
                    print(f"  {name:34s} {frames:4d} frames  Chromium CPU {cpu:5.2f} s")
            frames = sum(f for _, f, _ in rows)
            print(
                f"round {round_no} {variant:28s} {len(rows)} actions, {frames:5d} frames, Chromium CPU {totals[variant][-1]:6.2f} s"
            )
    base = statistics.median(totals["plain"])
    print(
        f"Chromium CPU for the same {len(rows)} actions, median of {args.rounds}, as a ratio of the plain run's ({base:.2f} s):"
    )
    for variant, values in totals.items():
        print(
            f"  {variant:28s} {statistics.median(values):6.2f} s   {statistics.median(values) / base:5.2f}x"
            f"   (renderer: {RENDERERS.get(variant, '?')})"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
