"""Helpers to drive the real app in Debian's Chromium with Playwright (no ``playwright install``)."""

from __future__ import annotations

import atexit
import base64
import functools
import hashlib
import io
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

import pytest
from filelock import FileLock
from PIL import Image, ImageChops
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .conftest import ROOT, wait_for

if TYPE_CHECKING:
    from .renderer_watch import RendererWatch

CHROMIUM = "/usr/bin/chromium"

WINDOW_FEATURES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""Chromium features of the browser's own window, off in every Chromium the tests launch: headless
Chromium still builds a window with an address bar for every page, and since Chromium 15x the address
bar's popup is a web page of its own (``chrome://omnibox-popup.top-chrome``) in a renderer of its own
(``--top-chrome-webui``), loaded with every new page: about 400 of its scripts, about 0.5 s of
Chromium's CPU per page start (``python bench/browser.py --loads 5``; a trace of a start put 0.6 s of
CPU in that renderer, 2026-12-07). Only both features together keep it from starting. No page the
tests open shows an address bar, and what a page draws is the same."""


@functools.cache
def playwright_disabled_features() -> tuple[str, ...]:
    """The Chromium features Playwright disables at every launch (its driver's ``disabledFeatures``).

    Chromium takes only the last ``--disable-features`` of its command line, and Playwright puts its
    own first: a second one from the tests would switch Playwright's back on (HTTPS upgrades, paint
    holding, ...). So the tests' one carries Playwright's list as well, read from its driver's code;
    ``tests/test_browser_waits.py`` checks it against the command line of a Chromium Playwright
    launched. Empty where the driver's list is not found (the tests then still run, only without
    ``WINDOW_FEATURES_OFF``, and that test fails)."""
    import playwright

    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    for candidate in (lib / "server" / "chromium" / "chromiumSwitches.js", lib / "coreBundle.js"):
        try:
            code = candidate.read_text(encoding="utf-8")
        except OSError:
            continue
        found = re.search(r"disabledFeatures = \[(.*?)\]", code, re.DOTALL)
        if found:
            listed = re.sub(r"//[^\n]*", "", found.group(1))
            return tuple(re.findall(r"[\"']([A-Za-z0-9_]+)[\"']", listed))
    return ()


def _disable_features() -> list[str]:
    """The tests' ``--disable-features``: Playwright's list and ``WINDOW_FEATURES_OFF``, or nothing
    where Playwright's list is not known (see ``playwright_disabled_features``)."""
    theirs = playwright_disabled_features()
    if not theirs:
        return []
    return ["--disable-features=" + ",".join(dict.fromkeys((*theirs, *WINDOW_FEATURES_OFF)))]


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--js-flags=--liftoff-only",
    *_disable_features(),
]
"""The flags of every Chromium the tests launch. ``--js-flags=--liftoff-only`` keeps V8 from moving the
page's WebAssembly (Flutter's ``main.dart.wasm`` and skwasm) up to its optimizing compiler: a trace of
the bench's actions (Chromium's ``start_tracing``, category ``v8.wasm``, 2026-12-07) found 1.4 s of the
renderer's CPU in 127 such compilations in 15 s (most of it register allocation for Flutter's large
functions), work each new page does again. Without it the code runs faster once optimized, which the
longest walk needs about as much as it saves (the 32-game Schafkopf Serie: 102.3 and 108.5 s of CPU
with it, 102.8 and 106.4 s without); the other tests are short for their pages and gain. The browser
tests alone (``./dev test -m browser``, in turn, 12:35 and 12:43): 916.2 s of CPU with it against
1040.7 s (the renderer 345.9 s against 439.5 s), 8:21 against 9:38. What the app does and draws is
the same: only how fast its code runs (``tests/test_chromium_flags.py`` checks that the flag holds)."""
CHROMIUM_ARGS_VARIABLE = "TISCHBLOCK_TEST_CHROMIUM_ARGS"
"""More flags for every Chromium the tests launch, separated by spaces, after ``CHROMIUM_ARGS``, to measure a
flag on the real tests; unset: ``CHROMIUM_ARGS`` alone. Chromium takes the last ``--js-flags`` only, so one
given here replaces the tests' own: ``--js-flags=--no-liftoff-only`` measures the tests as before 7 Dec."""
PHONE = {"width": 412, "height": 915}
DESK = {"width": 1280, "height": 800}
"""The organizer's laptop."""
SCREENSHOTS = ROOT / "docs" / "screenshots"

SCREENSHOTS_WANTED = os.environ.get("TISCHBLOCK_SCREENSHOTS") == "1"
"""Whether the browser tests write the docs' screenshots (``./dev screenshots``): not in ``./dev test``, where
waiting for each still frame took about a minute of the workers' time and, on a loaded machine, wrote
frames no reader should see (Flet's "Working..." screen, a white page mid-transition)."""

PAGE_SCALE = float(os.environ.get("TISCHBLOCK_TEST_PAGE_SCALE", "1" if SCREENSHOTS_WANTED else "0.25"))
"""The device pixel ratio of the tests' phone pages: 0.25 in ``./dev test``, 1 for the docs' screenshots.

Chromium draws Flutter's frames here in software (SwiftShader, in its GPU process and renderer), which
was 55 % of the suite's CPU. Flutter lays a screen out in logical pixels, which are the page's CSS
pixels at any ratio; only the canvas it paints has fewer pixels (at 0.25 a 412x915 screen is 103x229,
a sixteenth). Every box the tests read (the semantics tree, in CSS pixels) is the same at 0.25 as at 1,
before and after a scroll (``tests/test_page_scale.py``), so the layout checks judge the same geometry.
The same Schafkopf Serie of 32 games alone: 57.0 s of CPU at 1, 48.3 s at 0.5, 43.0 s at 0.25
(``python bench/cpu_split.py -- python -m pytest -n 0 tests/test_app_schafkopf_e2e.py -k 32_games``,
2026-12-05). A failure's screenshot is taken at 1 (``what_the_screen_shows``) so that it can be read."""

PATIENCE_MS = float(os.environ.get("TISCHBLOCK_BROWSER_PATIENCE_MS", "90000"))
"""How long any wait for a state may take before the test fails: a guard against an app that hangs,
far above what a busy machine needs. Waits end as soon as the state is there; a helper given a shorter
``timeout`` (tuned to a quiet machine) still waits this long."""

FAILURES = Path(os.environ.get("TISCHBLOCK_BROWSER_FAILURES", Path(tempfile.gettempdir()) / "tischblock-browser-failures"))
"""Where a failed wait leaves its screenshot (the failure message names the file)."""
_failure_numbers = itertools.count(1)


def patient(timeout: float | None = None) -> float:
    """The timeout to wait for a state with: never shorter than ``PATIENCE_MS``."""
    return max(timeout or 0.0, PATIENCE_MS)


def what_the_screen_shows(page) -> str:  # type: ignore[no-untyped-def]
    """For a failure message: the page's text (``body_text``) and the path of a screenshot of it."""
    try:
        text = body_text(page)
    except PlaywrightError as error:
        text = f"(the page's text could not be read: {error})"
    try:
        FAILURES.mkdir(parents=True, exist_ok=True)
        path = FAILURES / f"failure-{os.getpid()}-{next(_failure_numbers)}-{int(time.time())}.png"
        path.write_bytes(readable_screenshot(page))
        shot = str(path)
    except PlaywrightError as error:
        shot = f"(no screenshot: {error})"
    return f"The screen showed (screenshot: {shot}; connections to the app and console: {connections(page)}):\n{text}"


def readable_screenshot(page) -> bytes:  # type: ignore[no-untyped-def]
    """A screenshot of the page drawn at a device pixel ratio of 1, for a failure's report: a page at
    ``PAGE_SCALE`` 0.25 would give 103x229 pixels, too few to read. The page is drawn again at 1 for the
    capture (Chromium's device metrics, over a DevTools session of its own) and set back to its ratio.

    Flutter takes a new ratio only with a new size, so each change goes by a screen one pixel wider
    first (``_drawn_at``). The session stays open with the page: detached, it would take its setting
    with it, and the page would draw at 1 from then on. Whatever goes wrong on the way (a page that
    hangs), the capture is taken as the page stands."""
    scale = page_scale(page)
    viewport = page.viewport_size
    if scale >= 1 or viewport is None:
        return bytes(page.screenshot())
    try:
        session = _sessions.get(page)
        if session is None:
            session = _sessions[page] = page.context.new_cdp_session(page)
        _drawn_at(page, session, viewport, 1)
        try:
            # Playwright's own capture would scale it back to the ratio it set: Chromium's, over the session
            return base64.b64decode(session.send("Page.captureScreenshot", {"format": "png"})["data"])
        finally:
            _drawn_at(page, session, viewport, scale)
    except PlaywrightError:
        return bytes(page.screenshot())


def _drawn_at(page, session, viewport: dict[str, int], scale: float) -> None:  # type: ignore[no-untyped-def]
    """Set the page's device metrics to ``viewport`` at ``scale`` by way of a screen one pixel wider, each
    followed by a few frames (or two seconds: no wait that could hang a failure's report)."""
    for width in (viewport["width"] + 1, viewport["width"]):
        metrics = {"width": width, "height": viewport["height"], "mobile": False, "deviceScaleFactor": scale}
        session.send("Emulation.setDeviceMetricsOverride", metrics)
        page.evaluate(FRAMES_OR_LIMIT, [4, 2_000])


_sessions: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
"""The DevTools session ``readable_screenshot`` opened on a page, kept while the page lives."""


FRAMES_OR_LIMIT = """([frames, limit]) => new Promise(done => {
    setTimeout(() => done(false), limit);
    let seen = 0;
    const next = () => ++seen >= frames ? done(true) : requestAnimationFrame(next);
    requestAnimationFrame(next);
})"""
"""``frames`` animation frames, or ``limit`` ms, whichever comes first."""


_page_scales: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def page_scale(page) -> float:  # type: ignore[no-untyped-def]
    """The page's device pixel ratio (``PAGE_SCALE`` for a phone page), asked once per page."""
    scale = _page_scales.get(page)
    if scale is None:
        scale = _page_scales[page] = float(page.evaluate("window.devicePixelRatio"))
    return scale


def turn_wheel(page, delta: float) -> None:  # type: ignore[no-untyped-def]
    """Turn the mouse wheel where the mouse stands, so that Flutter's list under it scrolls ``delta`` CSS px.

    Every test turns the wheel through this, never with ``page.mouse.wheel`` itself (``tests/test_quality.py``
    checks): under Chromium's device emulation at a ratio r, Flutter's web client scrolls a wheel's delta
    divided by r squared (at 0.5 a turn of 100 scrolled 400 px), so the turn is multiplied by r squared
    (``tests/test_page_scale.py`` measures that a turn of N px scrolls N px). A page that is not Flutter's
    (the layout check's own test pages, plain HTML) scrolls a wheel's delta as it is, at any ratio."""
    scale, flutter = page.evaluate(IS_FLUTTER)
    page.mouse.wheel(0, delta * scale * scale if flutter else delta)


IS_FLUTTER = "() => [window.devicePixelRatio, document.querySelector('flutter-view') !== null]"
"""The page's device pixel ratio, and whether Flutter draws it (its ``flutter-view`` element)."""


class ScreenAssertionError(AssertionError):
    """A wait for a state that did not come; the message says what the screen showed instead."""


def waited(page, what: str, error: Exception) -> ScreenAssertionError:  # type: ignore[no-untyped-def]
    """The failure of a wait for ``what``, with what the screen showed."""
    return ScreenAssertionError(f"{what}: {error}\n{what_the_screen_shows(page)}")


STACKS = os.environ.get("TISCHBLOCK_TEST_RENDERER_STACKS") == "1"
"""Whether the renderer watch reads a hung page's stack (5 to 20 % more browser time)."""


@contextmanager
def watched_chromium(playwright: Any, extra_args: tuple[str, ...] = ()) -> Iterator[Any]:
    """Debian's Chromium launched through ``playwright``, its pages watched for a renderer that stops
    answering (``tests/renderer_watch.py``); closed at the end."""
    with chromium_and_watch(playwright, extra_args, stacks=STACKS) as (launched, _):
        yield launched


class PhoneBrowser:
    """A module's browser whose phone pages (``new_page``) open in one Chromium profile kept on disk.

    Chromium keeps a page's compiled WebAssembly (Flutter's 8.5 MB ``main.dart.wasm``) in a profile's
    code cache, and Playwright's contexts (``Browser.new_page``) are off the record: each page the tests
    opened compiled it anew, about 2 to 2.5 s of Chromium's CPU, against 0.6 to 0.8 s for a start that
    finds the cache (about half of them did in ``python bench/browser.py --loads 8``, 28 Nov). One
    profile serves a worker's modules one after the other. Pages stay apart as before: the app keeps
    nothing in the browser (its files are the host's side of Flet), and each page is a session of its
    own. Pages with
    options of their own and other contexts (the organizer's login, a camera) go to a plain browser,
    launched when first asked for."""

    def __init__(self, playwright: Any, extra_args: tuple[str, ...], stack: Any) -> None:
        self._playwright, self._extra_args, self._stack = playwright, extra_args, stack
        self._phones = stack.enter_context(persistent_chromium(playwright, stack.enter_context(_profile()), extra_args))
        self._plain: Any = None

    def new_page(self, viewport: dict[str, int] | None = None, **options: Any) -> Any:
        """A page in the profile's context, ``viewport`` wide and high (``PHONE`` unless said)."""
        if options:
            return self.plain().new_page(viewport=viewport, **options)
        page = self._phones.new_page()
        page.set_viewport_size(viewport or PHONE)
        return page

    def new_context(self, **options: Any) -> Any:
        return self.plain().new_context(**options)

    def plain(self) -> Any:
        """The plain browser beside the profile's, for contexts of their own."""
        if self._plain is None:
            self._plain = self._stack.enter_context(watched_chromium(self._playwright, self._extra_args))
        return self._plain

    @property
    def contexts(self) -> list[Any]:
        return [self._phones, *(self._plain.contexts if self._plain is not None else [])]


_profiles: list[str] = []
"""This process's Chromium profiles not in use: the next module's browser starts on the last one's code
cache."""


@atexit.register
def _remove_profiles() -> None:
    for profile in _profiles:
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def _profile() -> Iterator[str]:
    """A profile directory for one Chromium at a time, kept for the next one of this process."""
    profile = _profiles.pop() if _profiles else tempfile.mkdtemp(prefix="tischblock-chromium-")
    try:
        yield profile
    finally:
        _profiles.append(profile)


@contextmanager
def phone_browser(playwright: Any, extra_args: tuple[str, ...] = ()) -> Iterator[PhoneBrowser]:
    """A ``PhoneBrowser``, closed at the end; its profile is kept for this process's next one."""
    with ExitStack() as stack:
        yield PhoneBrowser(playwright, extra_args, stack)


@contextmanager
def persistent_chromium(playwright: Any, profile: str, extra_args: tuple[str, ...] = ()) -> Iterator[Any]:
    """Debian's Chromium on the profile ``profile``, watched as ``watched_chromium``: its one context."""
    with chromium_and_watch(playwright, extra_args, profile=profile, stacks=STACKS) as (context, _):
        yield context


@contextmanager
def chromium_and_watch(
    playwright: Any, extra_args: tuple[str, ...] = (), *, profile: str | None = None, **watching: Any
) -> Iterator[tuple[Any, RendererWatch]]:
    """``watched_chromium`` with its watch (``RendererWatch``'s settings as ``watching``); with ``profile``,
    on that profile directory, and what it yields is the profile's one context."""
    from .renderer_watch import RendererWatch

    port = free_port()
    args = [*CHROMIUM_ARGS, *os.environ.get(CHROMIUM_ARGS_VARIABLE, "").split(), f"--remote-debugging-port={port}", *extra_args]
    if profile is None:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
    else:
        # A phone's screen takes touches (``Taps.tap`` taps with a finger where the page can be touched)
        launched = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=args, has_touch=True, device_scale_factor=PAGE_SCALE
        )
        for page in launched.pages:  # the blank page a profile opens with
            page.close()
    watch = RendererWatch(port, **watching)
    try:
        yield launched, watch
    finally:
        watch.stop()
        launched.close()


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


_open_pages: weakref.WeakSet[Any] = weakref.WeakSet()
"""The pages ``open_page`` opened: a test that fails inside ``running_app`` gets what they show."""

app_outputs: dict[str, deque[str]] = {}
"""The last lines each running app (``running_app``) printed, by its URL: a failed test of a module's app
gets them in its report (``tests/conftest.py``), as the app is still running then."""


@contextmanager
def organizer_page(browser: Any) -> Iterator[Any]:
    """A page on the organizer's laptop, logged in with the password (the browser's own login box),
    accepting the host's own certificate once and downloads."""
    from .hostproc import PASSWORD

    context = browser.new_context(
        viewport=DESK,
        http_credentials={"username": "organizer", "password": PASSWORD},
        ignore_https_errors=True,  # the host's own certificate; the phones pin it, the laptop accepts it once
        accept_downloads=True,
        locale="de-AT",
    )
    try:
        yield context.new_page()
    finally:
        context.close()


def page_says(page: Any, text: str) -> None:
    """Wait until an organizer page (HTML, not the app's canvas) shows ``text``; fail after ``PATIENCE_MS``.

    For a page a click has just opened: ``click()`` returns once the new page is committed, before it is
    parsed, so ``page.content()`` or a ``count()`` read at once may see none of it (CI on 95ecf7f)."""
    expect(page.locator("body")).to_contain_text(text, timeout=PATIENCE_MS)


ANNOUNCED = "Tischblock läuft: "
"""The line an app prints once its page answers (``main.announce_when_answering``; the README quotes it)."""


@contextmanager
def running_app(env: dict[str, str] | None = None, cwd: Path = ROOT, script: Path = ROOT / "main.py") -> Iterator[str]:
    """Start ``main.py`` as the user's ``tischblock app`` does (or another ``script`` serving on
    ``TISCHBLOCK_PORT``); yield its URL; stop it.

    The app's output is read all along (a full pipe would stop the app in the middle of a test) and
    its last lines kept. A test failing inside gets, before the app stops, what each page it opened
    with ``open_page`` showed and the app's last output added to its error."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=cwd,
        # Flet's own log at "info" says when a window's connection went and came back ("Session disconnected")
        # TISCHBLOCK_TEST_DRAWN: every text says what it draws, for the layout check (screens/looks.py)
        env={"FLET_LOG_LEVEL": "info", "TISCHBLOCK_TEST_DRAWN": "1", **os.environ, "TISCHBLOCK_PORT": str(port), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: deque[str] = deque(maxlen=200)
    announced = threading.Event()

    def read() -> None:
        for line in process.stdout or ():
            output.append(line)
            if line.startswith(ANNOUNCED):
                announced.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    url = f"http://127.0.0.1:{port}/"
    app_outputs[url] = output
    try:
        # the app says it runs once its page answers (main.announce_when_answering), or it ends
        wait_for(
            "the app says it runs",
            lambda: announced.is_set() or process.poll() is not None,
            patient(60_000) / 1000,
            shows=lambda: "".join(output),
        )
        if not announced.is_set():
            reader.join(5)
            raise RuntimeError(f"the app did not start: {''.join(output)}")
        yield url
    except BaseException as error:
        if not isinstance(error, ScreenAssertionError):
            for page in list(_open_pages):
                if not page.is_closed() and page.url.startswith(url):
                    error.add_note(what_the_screen_shows(page))
        error.add_note("The app's last output:\n" + "".join(list(output)[-40:]))
        raise
    finally:
        app_outputs.pop(url, None)
        close_pages_on(url)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        reader.join(5)


def body_text(page) -> str:  # type: ignore[no-untyped-def]
    """What a screen reader would read: the page's text and the labels Flutter puts on groups."""
    return str(
        page.evaluate(
            """document.body.innerText + '\\n' + Array.from(document.querySelectorAll('[aria-label]'))
                 .map(e => e.getAttribute('aria-label')).join('\\n')"""
        )
    )


def enable_semantics(page) -> None:  # type: ignore[no-untyped-def]
    """Flutter draws on a canvas: one click on the placeholder turns on the semantics tree.

    Every later Playwright wait on the page without a timeout of its own waits ``PATIENCE_MS``."""
    page.set_default_timeout(PATIENCE_MS)
    try:
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=patient())
    except PlaywrightError as error:
        raise waited(page, "Flutter did not start on the page", error) from None
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")


def still_frame(page, *, limit_s: float = 10.0) -> bytes:  # type: ignore[no-untyped-def]
    """A screenshot of the page once Flutter has stopped painting: two captures in a row alike.

    A transition or a list still moving gives different captures; a blinking text cursor never
    stops, so after ``limit_s`` the latest capture is taken as it is (this is for the docs, not a check)."""
    next_frame(page)
    previous = page.screenshot()
    deadline = time.monotonic() + limit_s
    while True:
        page.wait_for_timeout(100)
        current = page.screenshot()
        if current == previous or time.monotonic() > deadline:
            return current
        previous = current


def screenshot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Save a phone-size screenshot to docs/screenshots/ (only for ``./dev screenshots``) once Flutter has
    painted the screen (``painted``) and it stands still (``still_frame``). A screen that never gets there
    fails the test instead of landing in the docs.

    Flutter puts a new screen's semantics into the page before its worker has painted it: a test reads the
    screen's text while the canvas still shows the screen before, a white page or Flet's boot screen
    ("Working...", which stays put, so two captures in a row are alike). Three such frames had been saved."""
    if not SCREENSHOTS_WANTED:
        return
    deadline = time.monotonic() + patient() / 1000
    while True:
        capture = still_frame(page)
        if painted(capture):
            write_atomically(SCREENSHOTS / name, capture)
            return
        if time.monotonic() > deadline:
            raise ScreenAssertionError(
                f"no screenshot for {name}: the screen stayed blank or booting. {what_the_screen_shows(page)}"
            )
        page.wait_for_timeout(TEXT_POLL_MS)


def docs_screenshot(page, name: str, **options: Any) -> None:  # type: ignore[no-untyped-def]
    """Save a screenshot of a page that is not Flutter's (the organizer's pages) to docs/screenshots/, only
    for ``./dev screenshots`` (``screenshot``)."""
    if SCREENSHOTS_WANTED:
        page.screenshot(path=str(SCREENSHOTS / name), **options)


def painted(png: bytes) -> bool:
    """Whether a capture shows a screen of the app: what differs from the colour of its top left corner
    begins in the top eighth (the app bar) and reaches across at least half its width. A white page has
    nothing that differs; Flet's boot screen only a spinner and "Working..." in the middle."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
        drawn = ImageChops.difference(rgb, Image.new("RGB", rgb.size, rgb.getpixel((0, 0)))).getbbox()
    return drawn is not None and drawn[1] < rgb.height / 8 and drawn[2] - drawn[0] >= rgb.width / 2


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` whole: a reader (another test, in another worker) never sees half a file."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, path)


TAPS_FILE = ROOT / "docs" / "taps.json"

EDITING_PROBE = """(() => {
    window.__tischblockProbe = true;
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (type, listener, options) {
        if (type === 'input' && this instanceof HTMLElement) this.__tischblockEditing = (this.__tischblockEditing || 0) + 1;
        return add.call(this, type, listener, options);
    };
    EventTarget.prototype.removeEventListener = function (type, listener, options) {
        if (type === 'input' && this instanceof HTMLElement) this.__tischblockEditing = Math.max(0, (this.__tischblockEditing || 0) - 1);
        return remove.call(this, type, listener, options);
    };
})();"""
"""Marks the element Flutter edits text in: Flutter listens for ``input`` on a field's element only while
it edits that field (from the focusing tap until the field loses focus). A value filled in before that
stays in the page but never reaches the app: typing waits for this mark (``type_into``)."""

EDITING = """label => {
    const element = document.activeElement;
    if (!element || element.getAttribute('aria-label') !== label) return false;
    return element.__tischblockEditing > 0;
}"""
"""Whether the field labelled ``label`` has the focus and Flutter listens to what is typed into it."""


_FLUTTER_CONFIG = """(() => {
  const given = CONFIG, earlier = window.__tischblockFlutterConfig || {};
  window.__tischblockFlutterConfig = DEFAULTS ? Object.assign({}, given, earlier) : Object.assign(earlier, given);
  if (window.__tischblockFlutterHooked) return;
  window.__tischblockFlutterHooked = true;
  let loader;
  window._flutter = window._flutter || {};
  Object.defineProperty(window._flutter, "loader", {
    configurable: true,
    get: () => loader,
    set: value => {
      loader = value;
      const load = value.load.bind(value);
      value.load = options => { Object.assign(options.config, window.__tischblockFlutterConfig); return load(options); };
    },
  });
})();"""


def flutter_config(config: dict[str, Any], *, defaults: bool = False) -> str:
    """An init script adding ``config`` to the configuration Flet's bootstrap hands Flutter's loader (the
    bootstrap starts the engine with the same object, so the engine sees it too: ``renderer``,
    ``canvasKitForceCpuOnly``, ``forceSingleThreadedSkwasm``). Scripts add up; a later one's keys win, but
    for one with ``defaults``, whose keys only fill in what no other script set."""
    return _FLUTTER_CONFIG.replace("CONFIG", json.dumps(config)).replace("DEFAULTS", "true" if defaults else "false")


TEST_FLUTTER_CONFIG = {"forceSingleThreadedSkwasm": True}
"""What every page the tests open runs with: skwasm drawing on the page's main thread, without a worker.

On a cross-origin isolated page (Flet's, on 127.0.0.1) skwasm draws on a worker of its own, and its
pages hang now and then: three times on 2026-11-27 (``tests/renderer_watch.py``), both threads at 100 %
of a core, and once more on 2026-11-29 in three whole-suite rounds with both cores busy and the worker
on, caught with its stack: the main thread in skwasm's ``paragraph_layout``, in a loop of
``skwasm.wasm`` (its function 2104) that walks a chain of records to a given one, with no wait in it: a
chain another thread changed meanwhile never ends (README, "The commands": "A test that hangs cannot
hold the run"). Without the worker no page has hung since. It costs Chromium the same (``python
bench/browser.py --variant threads``: 1.00x); the app's Python side and Flutter's layout are the same
either way. The app's own page asks for the same (``assets/index.html``); a test's configuration given
here comes first and wins, so ``TISCHBLOCK_TEST_FLUTTER_CONFIG`` can still ask for the worker."""

HOLD_FPS = """(() => {
  const raf = window.requestAnimationFrame.bind(window);
  let last = -1e9, queue = new Map(), next = 1, pending = false;
  window.requestAnimationFrame = cb => {
    const id = next++; queue.set(id, cb);
    if (!pending) {
      pending = true;
      setTimeout(() => raf(ts => { last = ts; pending = false; const q = queue; queue = new Map(); q.forEach(f => f(ts)); }),
                 Math.max(0, last + MIN_MS - performance.now()));
    }
    return id;
  };
  window.cancelAnimationFrame = id => { queue.delete(id); };
})();"""
"""``requestAnimationFrame`` held to one frame every MIN_MS: every callback asked for waits for the next slot."""

FAST_FRAMES = """(() => {
  const queue = new Map(), channel = new MessageChannel();
  let next = 1, pending = false, last = -1e9;
  channel.port1.onmessage = () => {
    pending = false;
    last = performance.now();
    const callbacks = Array.from(queue.values());
    queue.clear();
    callbacks.forEach(f => f(last));
  };
  window.requestAnimationFrame = cb => {
    const id = next++;
    queue.set(id, cb);
    if (!pending) {
      pending = true;
      const wait = last + MIN_MS - performance.now();
      if (wait > 0) setTimeout(() => channel.port2.postMessage(0), wait); else channel.port2.postMessage(0);
    }
    return id;
  };
  window.cancelAnimationFrame = id => { queue.delete(id); };
})();"""
"""``requestAnimationFrame`` answered as soon as the page is free, at most once every MIN_MS, instead of
at the display's 60 frames a second: the callbacks asked for run together, in the order they were
asked for, as the browser runs a frame's. Flutter draws a frame when it has something to draw, and
what it draws is shown by the browser's next composite as before; a wait for "the next frame" (a
control standing still, the app's answer drawn) no longer waits out the rest of a 16.7 ms frame it
does not need. Nothing in the app animates without end (no spinner), so no page draws more frames
for it; the animations run warped (``TIME_WARP``)."""

FRAME_MS = float(os.environ.get("TISCHBLOCK_TEST_FRAME_MS") or "4")
"""The shortest time between two frames of a page the tests open (``FAST_FRAMES``);
``TISCHBLOCK_TEST_FRAME_MS=0``: Chromium's own frames, 60 a second."""

TIME_WARP = """(() => {
  const raf = window.requestAnimationFrame.bind(window);
  let first = null;
  window.requestAnimationFrame = cb => raf(ts => { if (first === null) first = ts; cb(first + (ts - first) * FACTOR); });
})();"""
"""``requestAnimationFrame``'s time running FACTOR times as fast as the clock: Flutter times its
animations (a route's transition, a button's ink, a field's label floating up, a list scrolled to a
control) by the timestamp its frame callback is given, so an animation ends in its first frame or two.

The tests look at states, never at an animation on its way: what a screen shows once it is drawn is
the same, and every wait is for a state. Flutter's timers (a text cursor's blink, a notice's time on
the screen, a long press) run on the clock as before. At the clock's pace an action drew 20 to 75
frames at about 30 ms of Chromium's CPU each, most of them animation: ``python bench/browser.py
--variant warp=1`` (2026-11-28 09:03, load 1.4, two rounds) gave **1.92x** the CPU (8.87 s against 4.62 s
for the ten actions, 283 frames against 132)."""

TIME_WARP_FACTOR = float(os.environ.get("TISCHBLOCK_TEST_TIME_WARP", "100"))
"""How many times as fast as the clock Flutter's animations run in every page the tests open
(``TISCHBLOCK_TEST_TIME_WARP=1``: at the clock's pace). At 100 a frame 16 ms after the last is 1.6 s
later for Flutter, longer than any of the app's animations."""

HOLD_FPS_VARIABLE = "TISCHBLOCK_TEST_HOLD_FPS"
"""Frames a second to hold every page the tests open to (``HOLD_FPS``), to measure what the animation
frames cost the real tests; unset: as many as Chromium draws."""


FLUTTER_CONFIG_VARIABLE = "TISCHBLOCK_TEST_FLUTTER_CONFIG"
"""A JSON object added to Flutter's configuration in every page the tests open (``flutter_config``), to
measure a renderer setting on the real tests: ``{"renderer": "canvaskit", "canvasKitForceCpuOnly": true}``,
or ``{"forceSingleThreadedSkwasm": false}`` for Flet's default, skwasm with its worker."""


def with_editing_probe(page, *, warp: float = TIME_WARP_FACTOR, frame_ms: float = FRAME_MS):  # type: ignore[no-untyped-def]
    """``page`` with ``EDITING_PROBE`` installed for every document it loads (call before ``goto``); closed
    with the app it shows (``close_pages_on``); its connections to the app logged (``connections``) and
    its frames to and from the app counted (``TRAFFIC_PROBE``); its animations ``warp`` times as fast
    (``TIME_WARP``); its frames drawn as soon as it is free, at most every ``frame_ms`` (``FAST_FRAMES``)."""
    page.add_init_script(EDITING_PROBE)
    page.add_init_script(TRAFFIC_PROBE)
    page.add_init_script(flutter_config(TEST_FLUTTER_CONFIG, defaults=True))
    if os.environ.get(FLUTTER_CONFIG_VARIABLE):
        page.add_init_script(flutter_config(json.loads(os.environ[FLUTTER_CONFIG_VARIABLE])))
    if frame_ms > 0:
        page.add_init_script(FAST_FRAMES.replace("MIN_MS", repr(frame_ms)))
    if warp != 1:
        page.add_init_script(TIME_WARP.replace("FACTOR", repr(warp)))
    if os.environ.get(HOLD_FPS_VARIABLE):
        page.add_init_script(HOLD_FPS.replace("MIN_MS", str(1000 / float(os.environ[HOLD_FPS_VARIABLE]))))
    _open_pages.add(page)
    log: list[str] = []
    _connection_logs[page] = log
    started = time.monotonic()

    def note(what: str) -> None:
        log.append(f"{time.monotonic() - started:.1f} s {what}")

    def opened(connection) -> None:  # type: ignore[no-untyped-def]
        note(f"opened {connection.url}")
        connection.on("close", lambda _: note("closed"))
        connection.on("socketerror", lambda error: note(f"failed: {error}"))

    page.on("websocket", opened)
    # Flutter reports an exception in a frame (a build or layout that threw) on the console and goes on
    # showing the last good frame; the screen then stops following the app without another sign
    page.on("console", lambda message: message.type in ("error", "warning") and note(f"console: {message.text[:400]}"))
    page.on("pageerror", lambda error: note(f"page error: {str(error)[:400]}"))
    return page


_connection_logs: weakref.WeakKeyDictionary[Any, list[str]] = weakref.WeakKeyDictionary()


TRAFFIC_PROBE = """(() => {
    const traffic = window.__tischblockTraffic = {sockets: 0, number: 0, lastEvent: 0, lastReceived: 0};
    const Native = window.WebSocket;
    const send = Native.prototype.send;
    Native.prototype.send = function (data) {
        traffic.number++;
        const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
            : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
        if (bytes !== null && bytes.length > 2 && bytes[2] === EVENT) traffic.lastEvent = traffic.number;
        return send.call(this, data);
    };
    window.WebSocket = class extends Native {
        constructor(...args) {
            super(...args);
            traffic.sockets++;
            this.addEventListener('message', () => { traffic.number++; traffic.lastReceived = traffic.number; });
        }
    };
})();""".replace("EVENT", "3")  # Flet's ClientAction.CONTROL_EVENT: the frame a page sends for a tap
"""The frames between a page and the app, numbered in the page in the order they went and came
(``window.__tischblockTraffic``). Flet's web client sends an event (a tap) as a msgpack frame
``[3, {...}]`` and the app answers with patches ``[2, {...}]``; nothing else is sent while the app is
idle (no heartbeat). A tap is answered when a frame comes back after the tap's event went out
(``wait_for_answer``). Counted in the page, not from Playwright's frame events: a wait is then one
call to the page instead of one per frame, and no frame's bytes are copied to the test."""

EVENT_FRAMES = 10
"""How many frames a tap has to send its event in: Flutter sends it from the pointer-up handler, within
a frame; a tap that sends none in this many frames reached no control that takes taps (counted, not
timed: a busy machine draws fewer frames a second and gets the same number)."""

ANSWERED = """([since, eventFrames, limit]) => new Promise(done => {
    const traffic = window.__tischblockTraffic;
    if (traffic === undefined) return done("unwatched");
    if (traffic.sockets === 0) return done("no connection");
    if (document.visibilityState !== "visible") return done("hidden");
    const timer = setTimeout(() => done(document.visibilityState !== "visible" ? "hidden" : "unanswered"), limit);
    const end = answer => { clearTimeout(timer); done(answer); };
    const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => end("answered")));
    let frames = 0;
    const answered = () => traffic.lastReceived >= traffic.lastEvent ? drawn() : requestAnimationFrame(answered);
    const sent = () => {
        if (traffic.lastEvent > since) return answered();
        if (frames++ >= eventFrames) return end("no event");
        requestAnimationFrame(() => requestAnimationFrame(sent));
    };
    sent();
})"""
"""Waits in the page, frame by frame, as ``wait_for_answer`` says; answers how it ended."""


def traffic_number(page) -> int:  # type: ignore[no-untyped-def]
    """How many frames the page and the app have exchanged so far (0 on a page without the probe)."""
    return int(page.evaluate("() => window.__tischblockTraffic?.number ?? 0"))


def wait_for_answer(page, what: str, since: int) -> None:  # type: ignore[no-untyped-def]
    """After a tap (``since``: ``traffic_number`` before it): wait until the app has answered its event and
    the answer is drawn, as a player looks before the next tap. Without it, a tap right after one that
    re-lays the panel out was aimed at where the control stood before the answer came: on a busy machine
    "Absagen …", tapped after "Kontra", landed on the Kontra chip the answer had just widened, and took
    the Kontra back (stress round, 27 Nov). A page opened without ``with_editing_probe`` is not watched.

    One call to the page (``ANSWERED``): the tap's event within ``EVENT_FRAMES`` frames (none: the tap
    reached no control that takes taps, nothing to wait for), then a frame back from the app, then the
    frame that draws it."""
    answer = page.evaluate(ANSWERED, [since, EVENT_FRAMES, patient()])
    if answer == "unanswered":
        raise ScreenAssertionError(f"the app did not answer the tap on {what!r}. {what_the_screen_shows(page)}")
    if answer == "hidden":
        raise ScreenAssertionError(f"the page is in the background, it draws no frame. {what_the_screen_shows(page)}")
    if answer == "no connection":
        raise ScreenAssertionError(f"the page never connected to the app. {what_the_screen_shows(page)}")


def connections(page) -> str:  # type: ignore[no-untyped-def]
    """When the page's connections to the app opened and closed, and its console's errors and warnings
    (seconds since the page was opened): a tap while the app is not connected is lost, and Flet redraws
    the whole screen when it reconnects."""
    log = _connection_logs.get(page)
    return "; ".join(log[-8:]) if log else "(not logged)"


def close_pages_on(url: str) -> None:
    """Close every page showing the app at ``url``, as the app stops. A page left open when its app
    stops shows Flet's boot screen and tries to reconnect forever, its spinner drawn at 60 frames a
    second: a whole core of Chromium's time (5.3 s of CPU in 5 s) for as long as the module's browser
    ran."""
    for page in list(_open_pages):
        with suppress(PlaywrightError):  # its browser may have closed first, taking the page with it
            if not page.is_closed() and page.url.startswith(url):
                page.close()


def type_into(page, label: str, text: str, *, timeout: float = 15_000) -> None:  # type: ignore[no-untyped-def]
    """Type ``text`` into the text field labelled ``label`` as a player does: tap it, then type.

    Waits for states, not for time: until the field stands still where it is drawn (a tap on a list
    still moving lands on whatever is there by then), then until Flutter edits that field (``EDITING``),
    and only then fills it in; Flutter hands the value to the app before any later tap. The page must
    carry the probe (``open_page``, ``with_editing_probe``): without it a value filled in before Flutter
    listened stayed in the page and never reached the app (CI, 27 Nov: a table number and a name lost)."""
    try:
        _type_into(page, label, text, patient(timeout))
    except PlaywrightError as error:
        raise waited(page, f"could not type {text!r} into the field {label!r}", error) from None


def _type_into(page, label: str, text: str, timeout: float) -> None:  # type: ignore[no-untyped-def]
    if not page.evaluate("() => window.__tischblockProbe === true"):
        raise ScreenAssertionError(
            f"typing into {label!r}: the page was opened without the editing probe (use open_page or with_editing_probe)"
        )
    field = page.get_by_role("textbox", name=label, exact=True).first
    field.wait_for(timeout=timeout)
    tries: list[str] = []
    for attempt in range(1, 4):
        still = stand_still(page, field, label, timeout)
        # Tapped where it stands still, as ``Taps.tap`` does: Playwright's own click checks the spot
        # again, and where another node is there by then (a redraw under way) it scrolls the page to
        # try elsewhere, which moves Flutter's list under the finger. Under three workers (29 Nov) the
        # tap on "Mannschaft 2: Name" three times opened "Turnier", a page further down, instead.
        finger(page, still.x, still.y)
        if not page.evaluate(EDITING_WITHIN_FRAMES, [label, 30, timeout]):
            # the tap did not open the field (it was redrawn under the finger): tap again
            tries.append(f"tap {attempt} at ({still.x:.0f}, {still.y:.0f}) opened {_focused(page)}")
            continue
        field.fill(text)
        if page.evaluate(HOLDS_WITHIN_FRAMES, [label, text, 30, timeout]):
            return
        # The field was redrawn while typing (the app answered an earlier tap): type it again.
        tries.append(f"tap {attempt} opened it, then {_focused(page)} had the focus")
    raise ScreenAssertionError(f"the field {label!r} did not take {text!r} ({'; '.join(tries)}). {what_the_screen_shows(page)}")


def _focused(page) -> str:  # type: ignore[no-untyped-def]
    """For a failure message: the field that has the focus, and what it holds."""
    return str(
        page.evaluate(
            """() => { const e = document.activeElement;
                 return !e || e === document.body ? 'no field' : `${JSON.stringify(e.getAttribute('aria-label'))}`
                   + (e.value === undefined ? '' : ` holding ${JSON.stringify(e.value)}`); }"""
        )
    )


HOLDS_WITHIN_FRAMES = """([label, text, frames, limit]) => new Promise(done => {
    setTimeout(() => done(false), limit);  // a page that draws no frame: answered, never waited for forever
    let seen = 0;
    const check = () => {
        const element = document.activeElement;
        if (element && element.getAttribute('aria-label') === label && element.value === text) return done(true);
        return ++seen > frames ? done(false) : requestAnimationFrame(check);
    };
    check();
})"""
"""Whether the field labelled ``label`` still has the focus and holds ``text`` within ``frames`` frames (and
``limit`` ms: ``page.evaluate`` itself has no timeout, and a page that stops drawing frames would hold the
test forever, as one did in a run of 27 Nov)."""


EDITING_WITHIN_FRAMES = f"""([label, frames, limit]) => new Promise(done => {{
    setTimeout(() => done(false), limit);
    const editing = {EDITING};
    let seen = 0;
    const check = () => editing(label) ? done(true) : ++seen > frames ? done(false) : requestAnimationFrame(check);
    check();
}})"""
"""Whether Flutter edits the field labelled ``label`` within the next ``frames`` frames (counted, not timed:
a busy machine draws fewer frames a second and gets the same number; at most ``limit`` ms)."""


def stand_still(page, locator, what: str, timeout: float) -> Still:  # type: ignore[no-untyped-def]
    """Wait until ``locator`` is wholly on the screen and stays where it is drawn from one frame to the
    next, with nothing over it: Flutter hit-tests a tap on what it drew, so a tap at a place a redraw or
    a scroll is still moving lands on the control beside it. Return where it stands (``Still``).

    A control not wholly on the screen is scrolled to with the mouse wheel, as a finger scrolls. Never
    with the browser's own scrolling (``scroll_into_view_if_needed``): that moves the page under
    Flutter's feet, Flutter follows a frame later, and the tap lands on what was there before.

    Where the control is drawn is read in the page, frame by frame (``STILL``): one call to the page
    until it stands still or has to be scrolled to, not three calls a frame."""
    deadline = time.monotonic() + timeout / 1000
    scrolled_from = None
    first, overshot = True, False
    turns: list[float] = []  # the wheel turns, for the report of a control that never stood still
    viewport = page.viewport_size or PHONE
    band = (APPBAR_HEIGHT, viewport["height"] - SCREEN_MARGIN)
    seen: dict[str, Any] = {}
    while True:
        if seen and time.monotonic() > deadline:  # also when every look so far wheeled it on
            raise _not_still(page, what, seen, turns)
        seen = _look_still(
            page,
            locator,
            after_a_frame=not first,
            first_box=overshot,
            band=band,
            scrolled_from=scrolled_from,
            limit_s=max(STALLED_S, deadline - time.monotonic()),
        )
        box, first = seen["box"], False
        if box is not None and box != scrolled_from:  # a control the wheel does not move stays where it is
            below = box["y"] + box["height"] - band[1]
            above = band[0] - box["y"]
            if overshot and below < 0 and above <= 0:
                # Wheeled past (its whole box now drawn): back until it ends at the margin, where the old
                # 10-px steps left it. The list stays scrolled no further than needed: scrolled further, a
                # panel that then shrank sprang the list back under the next tap (Doppelkopf's Schmeißen).
                overshot = False
                wheel(page, viewport, below)
                turns.append(below)
                scrolled_from = box
                continue
            covered = below <= 0 and above <= 0 and seen["still"] and not seen["on_top"]
            if below > 0 or above > 0 or covered:
                # Under a header that stays put while the list scrolls (the sheet's totals, at "Sehr groß"
                # more than half the screen): down to the list's foot, where nothing is drawn over it.
                foot = box["y"] + box["height"] - (viewport["height"] - LIST_FOOT)
                if below > 0 and box["y"] + box["height"] > viewport["height"]:
                    # Reaching past the screen's edge, so not cut by the list's (Flutter cuts a node's box only
                    # where the list's edge crosses it): its whole box, wheeled to end at the margin in one turn.
                    delta = below
                elif below > 0:  # its top brought up to REVEAL above the margin (its box may be cut at the edge)
                    delta = max(below, box["y"] - (viewport["height"] - SCREEN_MARGIN - REVEAL))
                    overshot = delta > below
                else:
                    # Above the band or under the header: to the list's foot in one turn (wheeled to the band's
                    # top first, a control came to stand under the sheet's header at "Sehr groß": two turns).
                    delta = foot if abs(foot) >= 1 else -viewport["height"] / 4
                wheel(page, viewport, delta)
                turns.append(delta)
                scrolled_from = box
                continue
        if box is not None and seen["still"] and seen["on_top"]:
            return Still(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, int(seen["traffic"]))
        if time.monotonic() > deadline:
            raise _not_still(page, what, seen, turns)


def _not_still(page, what: str, seen: dict[str, Any], turns: list[float]) -> ScreenAssertionError:  # type: ignore[no-untyped-def]
    """The failure of ``stand_still``: where the control was last seen, and how the wheel was turned."""
    return ScreenAssertionError(
        f"{what!r} did not stand still (drawn at {seen['box']}, still: {seen['still']}, on top: {seen['on_top']}; "
        f"{len(turns)} wheel turns, the last ones {[round(t) for t in turns[-8:]]} px). {what_the_screen_shows(page)}"
    )


class Still(NamedTuple):
    """Where a control stands still (``stand_still``): its middle, and the page's ``traffic_number`` then."""

    x: float
    y: float
    traffic: int


STILL = """(element, [afterAFrame, frames, limit, top, bottom, scrolledFrom, firstBox]) => new Promise(done => {
    const box = () => {
        if (!element.isConnected) return null;
        const r = element.getBoundingClientRect();
        return r.width === 0 && r.height === 0 ? null : {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const same = (a, b) => a !== null && b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    const onTop = () => {
        const r = element.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return top !== null && (top === element || element.contains(top));
    };
    let seen = 0, before = null, ended = false, timer = null;
    const end = (how, now) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        const still = how === "still";
        done({how, box: now, still, on_top: still && onTop(), traffic: window.__tischblockTraffic?.number ?? 0});
    };
    const frame = f => requestAnimationFrame(() => requestAnimationFrame(() => { seen++; f(); }));
    const look = () => {
        const now = box();
        if (now !== null && !same(now, scrolledFrom) && (firstBox || now.y < top || now.y + now.height > bottom)) return end("away", now);
        if (same(before, now)) return end("still", now);
        if (seen >= frames) return end("moving", now);
        before = now;
        frame(look);
    };
    if (document.visibilityState !== "visible") return done({how: "hidden", box: null, still: false, on_top: false, traffic: 0});
    timer = setTimeout(() => end(document.visibilityState !== "visible" ? "hidden" : seen ? "moving" : "stalled", box()), limit);
    afterAFrame ? frame(look) : look();
})"""
"""Where ``element`` is drawn once it stands still: read, then again after each frame (two animation
frames: the next one complete) until two reads agree (``still``, with whether a tap in its middle then
reaches it, not a control drawn over it) or ``frames`` frames have passed; and the page's
``traffic_number``. It ends at the first read that finds the control outside the band from ``top`` to
``bottom`` (to be scrolled to) and not where it was before the last scroll (``scrolledFrom``), or at the
first read at all (``firstBox``). ``afterAFrame``: the first read a frame later."""

STALLED_S = 5.0
"""The least time one call of ``STILL`` is given before a page that drew no frame in it counts as stalled.
Given only what was left of the wait's deadline, a last look with a millisecond left found no frame
drawn yet and reported a page that draws nothing, where a control was still being scrolled to (a full
run of the suite, 28 Nov): the wait may end this much past its deadline, with the true report."""

STILL_FRAMES = 30
"""How many frames one call of ``STILL`` waits for a control to stand still before the test looks again
(counted, not timed): the wait's deadline is checked between calls."""


def _look_still(  # type: ignore[no-untyped-def]
    page,
    locator,
    *,
    after_a_frame: bool,
    first_box: bool,
    band: tuple[float, float],
    scrolled_from: dict[str, float] | None,
    limit_s: float,
) -> dict[str, Any]:
    """One call of ``STILL`` on ``locator`` (which waits for the control to be on the page first).

    A page that draws no frame in ``limit_s`` (one in the background gets no animation frames at all)
    is reported with what it shows."""
    seen = locator.evaluate(STILL, [after_a_frame, STILL_FRAMES, limit_s * 1000, *band, scrolled_from, first_box])
    if seen["how"] in ("hidden", "stalled"):
        raise drew_no_frame(page, seen["how"])
    return dict(seen)


def wheel(page, viewport: dict[str, int], delta: float) -> None:  # type: ignore[no-untyped-def]
    """Turn the mouse wheel over the screen's list by ``delta`` px, as a finger scrolls (its scroll is drawn
    in the next frame: ``stand_still`` looks a frame later)."""
    page.mouse.move(*over_the_list(viewport))
    turn_wheel(page, delta)


SCREEN_MARGIN = 16
"""How far from the screen's lower edge a control to be tapped must end."""

REVEAL = 200
"""How far above ``SCREEN_MARGIN`` the top of a control below the screen is wheeled to: more than the tallest
control's height at "Sehr groß". A control the list cuts off at the screen's lower edge has a box only as
high as the part on the screen (its lower edge is the screen's), so wheeling by what lies below the margin
moved it 10 px at a time: 332 of the 483 wheel turns of the Schafkopf Serie at 360 px "Sehr groß" crept
that way. Once its whole box is drawn, ``stand_still`` wheels it back to end at the margin. A control
wholly below the list's edge keeps its whole box and is wheeled just far enough, in one turn."""

LIST_FOOT = 120
"""How far above the screen's lower edge the wheel is turned (``over_the_list``)."""


def over_the_list(viewport: dict[str, int]) -> tuple[float, float]:
    """Where a finger scrolls the screen's list: low on the screen, mid-width. Not the middle: at
    "Sehr groß" on a narrow phone the sheet's fixed header (which stays put while the list scrolls under
    it) reaches below the middle, and a wheel turned over it scrolls nothing, so a wait for a control
    to come into view would wait out its patience."""
    return viewport["width"] / 2, viewport["height"] - LIST_FOOT


APPBAR_HEIGHT = 64
"""Where the list under the app bar begins: a control above it is under the bar, not tappable."""


def drew_no_frame(page, how: str) -> ScreenAssertionError:  # type: ignore[no-untyped-def]
    """The failure of a wait for frames that the page did not draw (``how``: "hidden" or "stalled"), with
    what the screen showed."""
    return ScreenAssertionError(
        f"the page drew no frame ({how}): a page in the background gets no animation frames, "
        f"bring it to the front first. {what_the_screen_shows(page)}"
    )


def next_frame(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the browser has drawn the next frame (two animation frames: the next one is complete).

    A page in the background gets no animation frames at all, so waiting for one would wait forever:
    that is reported at once (bring the page to the front first), and a page that draws no frame for
    ``patient()`` is reported with what it shows."""
    answer = page.evaluate(NEXT_FRAME, patient(15_000))
    if answer != "frame":
        raise drew_no_frame(page, answer)


NEXT_FRAME = """limit => new Promise(done => {
    if (document.visibilityState !== "visible") { done("hidden"); return; }
    const stalled = setTimeout(() => done(document.visibilityState !== "visible" ? "hidden" : "stalled"), limit);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(stalled); done("frame"); }));
})"""


_touchable: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()


def finger(page, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    """Tap at ``x``, ``y`` as a player does: with a finger on a page that takes touches (the phone pages of
    ``PhoneBrowser``), with the mouse elsewhere (the organizer's pages, a plain context).

    A finger does not hover. The mouse's click first moved the pointer there, and Flutter drew the
    hover of the control it entered, and again of the control under the resting pointer once the answer
    had re-laid the screen out: a tap of the 32-game Schafkopf walk drew 8.5 frames with the mouse
    and 6.1 with a finger (WebGL draw calls 10089 against 7018 for 48 taps, 29 Nov)."""
    touchable = _touchable.get(page)
    if touchable is None:
        touchable = _touchable[page] = bool(page.evaluate("navigator.maxTouchPoints > 0"))
    if touchable:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


class Taps:
    """Drives a page and counts what a player does: a tap on a control, or one value typed, counts one."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.count = 0

    def tap(self, role: str, name: str, *, exact: bool = True, timeout: float = 15_000, answered: bool | None = None) -> None:
        """Tap the control with this accessible role and name: once it is there and stands still, and then,
        for a button, until the app has answered the tap (``wait_for_answer``), as a player looks before
        the next tap. ``answered=False`` for a button whose tap the app has nothing to redraw for: one the
        page handles itself (an expansion tile's header), or one whose answer is the screen as it stands
        (sending again to a host that refused, with the refusal already shown). ``answered=True`` for a
        radio button, a checkbox or a switch whose tap the app answers by redrawing the screen (the text
        size): the next tap waits for that answer, or it lands where the redraw moves another control."""
        locator = self.page.get_by_role(role, name=name, exact=exact)
        try:
            locator.first.wait_for(timeout=patient(timeout))
            still = stand_still(self.page, locator.first, name, patient(timeout))
            finger(self.page, still.x, still.y)  # where it stands still, with nothing over it
        except PlaywrightError as error:
            raise waited(self.page, f"no {role} named {name!r} to tap", error) from None
        self.count += 1
        if answered or (answered is None and role == "button"):
            # A radio button, a checkbox or a switch shows its tap itself, and the app may have nothing to
            # redraw (a ruleset chosen on the form: no answer came); a button's tap shows only by the answer.
            wait_for_answer(self.page, name, still.traffic)

    def type(self, label: str, text: str, *, timeout: float = 15_000, answered: bool = False) -> None:
        """Type ``text`` into the text field labelled ``label`` (one value typed counts one).

        ``answered=True`` for a field whose value the app answers by re-laying the screen out (the
        Schafkopf panel's "Augen": its summary line and its refusal come and go): the next tap waits for
        that answer, as after a button's. Not by default: most fields' values the app only keeps, and a
        wait for an answer that never comes would last the test's patience. Seen once in a full run
        (28 Nov): "Augen" emptied, the answer came after "Weniger" stood still and moved it under the
        finger, the tap missed and the panel stayed open."""
        since = traffic_number(self.page)
        type_into(self.page, label, text, timeout=timeout)
        self.count += 1
        if answered:
            wait_for_answer(self.page, label, since)

    def reset(self) -> int:
        """The count so far, and start counting anew."""
        count, self.count = self.count, 0
        return count


def record_taps(ruleset: str, game: str, taps: int, target: int) -> None:
    """Note the taps a typical game took in ``docs/taps.json`` (the README's table is made from it).

    Tests in parallel workers write it too: read, change and replace it under a lock of this checkout."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    with FileLock(Path(tempfile.gettempdir()) / f"tischblock-taps-{checkout}.lock"):
        data = json.loads(TAPS_FILE.read_text(encoding="utf-8")) if TAPS_FILE.exists() else {}
        data[f"{ruleset}: {game}"] = {"ruleset": ruleset, "game": game, "taps": taps, "target": target}
        text = json.dumps(dict(sorted(data.items())), indent=2, ensure_ascii=False) + "\n"
        write_atomically(TAPS_FILE, text.encode("utf-8"))


TEXT_POLL_MS = 40
"""How often a wait reads the page's text: a tap's answer is seen about 50 ms sooner than at 100 ms,
for a read of the page's text (a millisecond of the browser's time)."""


def wait_for_text(page, expected, timeout: float = 15_000) -> str:  # type: ignore[no-untyped-def]
    """Wait until the page's text (``body_text``) holds ``expected`` (a string or a compiled regex); return it.

    Flutter merges neighbouring texts into one semantics node, so a text is looked for in the whole
    page's text, not as an element of its own. Waits ``patient(timeout)``."""
    deadline = time.monotonic() + patient(timeout) / 1000
    while True:
        text = body_text(page)
        found = expected.search(text) if hasattr(expected, "search") else expected in text
        if found:
            return text
        if time.monotonic() > deadline:
            raise ScreenAssertionError(f"{expected!r} did not appear on the page. {what_the_screen_shows(page)}")
        page.wait_for_timeout(TEXT_POLL_MS)


def wait_for_line(page, line: str, timeout: float = 15_000) -> str:  # type: ignore[no-untyped-def]
    """Wait until one line of the page's text is exactly ``line`` (a notice such as "2. Spiel eingetragen").

    Not a part of a longer line: "Schmeißen vor dem 1. Spiel eingetragen" holds "1. Spiel eingetragen",
    and a wait for the one would pass on the other before the app had answered the tap."""
    return wait_for_text(page, re.compile(rf"^{re.escape(line)}$", re.MULTILINE), timeout)


def wait_for_control(page, role: str, name, *, exact: bool = True, timeout: float = 15_000):  # type: ignore[no-untyped-def]
    """Wait (``patient(timeout)``) until the control with this role and name is on the page; return it.

    A failure says what the screen showed instead."""
    locator = page.get_by_role(role, name=name, exact=exact).first
    try:
        locator.wait_for(timeout=patient(timeout))
    except PlaywrightError as error:
        raise waited(page, f"no {role} named {name!r} appeared", error) from None
    return locator


def wait_gone(page, role: str, name: str, *, timeout: float = 15_000) -> None:  # type: ignore[no-untyped-def]
    """Wait (``patient(timeout)``) until no control with this role and name is left on the page.

    A screen left with the back route (the close form, once signed) stays in Flutter's semantics tree
    beside the screen under it for some frames: a look at the screen then reads both. A failure says
    what the screen showed."""
    try:
        page.get_by_role(role, name=name, exact=True).first.wait_for(state="detached", timeout=patient(timeout))
    except PlaywrightError as error:
        raise waited(page, f"the {role} named {name!r} did not go", error) from None


def wait_for_locator(page, locator, what: str, *, timeout: float = 15_000):  # type: ignore[no-untyped-def]
    """Wait (``patient(timeout)``) until ``locator`` finds something on the page; return its first.

    For controls not found by role and name; a failure names ``what`` and says what the screen showed."""
    try:
        locator.first.wait_for(timeout=patient(timeout))
    except PlaywrightError as error:
        raise waited(page, f"{what} did not appear", error) from None
    return locator.first


def wait_until(page, check, what: str, *, timeout: float = 15_000, poll_ms: float = 100):  # type: ignore[no-untyped-def]
    """Poll ``check()`` every ``poll_ms`` until it returns something true (``patient(timeout)``); return that.

    For states outside the page (a file written, a host's answer); a failure names ``what`` and
    says what the screen showed. A check that only reads the page can poll at ``TEXT_POLL_MS``."""
    deadline = time.monotonic() + patient(timeout) / 1000
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise ScreenAssertionError(f"{what} did not happen. {what_the_screen_shows(page)}")
        page.wait_for_timeout(poll_ms)


def scroll_to(page, role: str, name, *, x: int = 200, y: int = 700, steps: int = 40):  # type: ignore[no-untyped-def]
    """Scroll the list under (x, y) down, then up, until the control with this role and name is built; return it.

    Flutter builds a long list lazily: what is far off screen is not in the page until scrolled to."""
    locator = page.get_by_role(role, name=name)
    page.mouse.move(x, y)
    for delta in (300, -300):
        for _ in range(steps):
            if locator.count():
                stand_still(page, locator.first, str(name), patient())
                return locator.first
            turn_wheel(page, delta)
            next_frame(page)
    raise ScreenAssertionError(f"no {role} named {name!r} on the page. {what_the_screen_shows(page)}")


def open_page(browser, url: str):  # type: ignore[no-untyped-def]
    """A phone-size page on ``url`` with Flutter's semantics tree switched on."""
    page = with_editing_probe(browser.new_page(viewport=PHONE))
    page.goto(url)
    enable_semantics(page)
    return page


GO_IN_APP = """path => {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate', {state: null}));
}"""
"""The browser's address changed to ``path`` while the app runs, as a link or the browser's history does."""


def go_in_app(page, url: str) -> None:  # type: ignore[no-untyped-def]
    """Go to ``url`` (an address of the app the page shows) in the running app, without loading the page
    again: the address changes and Flutter's router hears of it (``popstate``), as after the browser's
    back button, and the app's routing (``main.py``) shows that screen. A new page load is a new start
    of Flutter's web client, about 2 s of Chromium's CPU (``python bench/browser.py --loads 5``): the
    tests load a page anew only where a fresh start is what they check.

    Returns once the app has answered the new address and its answer is drawn (``ANSWERED``, as after a
    tap): a text the screen before showed too ("Abschließen" on two sheets) is not taken for the new
    screen's. A page that sends the app no event for it fails, saying what it shows."""
    target = urlsplit(url)
    here = urlsplit(page.url)
    assert (target.scheme, target.netloc) == (here.scheme, here.netloc), f"{url} is not the app of {page.url}"
    path = target.path + (f"?{target.query}" if target.query else "")
    since = traffic_number(page)
    page.evaluate(GO_IN_APP, path)
    answer = page.evaluate(ANSWERED, [since, EVENT_FRAMES, patient()])
    if answer != "answered":
        raise ScreenAssertionError(f"the app did not answer the address {path!r} ({answer}). {what_the_screen_shows(page)}")


def sheet_files(data_dir: Path) -> dict[str, bytes]:
    """Every sheet file of a store with its bytes: a refusal must leave them as they were."""
    return {p.name: p.read_bytes() for p in sorted((data_dir / "sheets").glob("*.json"))}
