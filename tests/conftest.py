"""Shared test helpers."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from scoring import Entry, Participant, Ruleset, RuleViolation, Score, Sheet

from . import reaper

# Property tests run on a busy machine too (two xdist workers, other work): no example fails for
# taking long, and slow data generation is not a failure either. Tests' own @settings add to this.
settings.register_profile("tischblock", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tischblock")

# The hosts the tests start check sheets in their own process: each start of check processes costs
# one to two seconds of CPU, and the suite starts hosts some seventy times. The tests of the check
# processes (test_host_checking.py, the host bench's) ask for them with --check-processes.
os.environ.setdefault("TISCHBLOCK_CHECK_PROCESSES", "0")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RULES = ROOT.parent / "shared" / "rules"


def bench_script(name: str) -> Any:
    """``bench/NAME.py`` loaded as a module, for a test of its functions (the benches are scripts, not a
    package; ``NAME`` may name a subdirectory: ``plugins/playwright_calls``)."""
    spec = importlib.util.spec_from_file_location(name.rsplit("/", 1)[-1], ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass's annotations are looked up in its module
    spec.loader.exec_module(module)
    return module


def run_bench(script: str, *args: str, timeout: float = 300) -> str:
    """What ``bench/SCRIPT`` with ``args`` printed, run from the checkout on its own code; it must end
    well (a bench's test runs it on a tiny size: the command its figures name still works)."""
    done = subprocess.run(
        [sys.executable, f"bench/{script}", *args],
        cwd=ROOT,
        env=checkout_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def checkout_env() -> dict[str, str]:
    """The environment for a child process that must run this checkout's code: the venv's
    ``tischblock`` script may be an editable install of another worktree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def wait_for(what: str, done: Callable[[], object], timeout: float = 60.0, *, shows: Callable[[], str] | None = None) -> None:
    """Wait for a state (never for a time) of a process, a file or a server: ``timeout`` only ends a wait
    that would never end. A wait that gives up says what ``shows`` tells of the state it found."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"nicht erreicht: {what}" + (f"\n{shows()}" if shows is not None else ""))
        time.sleep(0.05)


def assert_subset(expected: Any, actual: Any, path: str = "") -> None:
    """Every key of ``expected`` is in ``actual`` with an equal (recursively subset) value.

    Lists must have the same length and match element by element.
    """
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing in {sorted(actual)}"
            assert_subset(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), f"{path}: {len(expected)} expected, {len(actual)} found: {actual!r}"
        for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_subset(e, a, f"{path}[{index}]")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


@dataclass(frozen=True)
class GameTable:
    """A ruleset and its participants, to build sheets from game data in a test line."""

    ruleset: Ruleset[Any, Any]
    participants: Sequence[Participant]

    def sheet(self, *games: dict[str, Any], **options: Any) -> Sheet:
        """A new sheet with ``games`` as ``game`` entries (not checked one by one)."""
        sheet = self.ruleset.new_sheet(self.participants, options=options)
        for data in games:
            sheet = sheet.with_entry(Entry(kind="game", data=data))
        return sheet

    def score(self, *games: dict[str, Any], **options: Any) -> Score:
        return self.ruleset.score(self.sheet(*games, **options))

    def refused(self, *games: dict[str, Any], **options: Any) -> RuleViolation:
        """The violation scoring these games raises (the test fails if none does)."""
        with pytest.raises(RuleViolation) as info:
            self.score(*games, **options)
        return info.value


GameHelpers = tuple[Callable[..., Sheet], Callable[..., Score], Callable[..., RuleViolation]]


def game_helpers(ruleset: Ruleset[Any, Any], participants: Sequence[Participant]) -> GameHelpers:
    """``sheet``, ``score`` and ``refused`` for tests that write one game per line."""
    table = GameTable(ruleset, participants)
    return table.sheet, table.score, table.refused


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    """SIGTERM (``kill PID``, a CI's cancel) ends a run as Ctrl-C does, in the run's process and in each
    xdist worker: the tests' ``finally`` blocks and the fixtures' ends run and stop the hosts, apps and
    phone processes the tests started. Python's default for SIGTERM ends the process at once, and a run
    in one process (``-n 0``, a module run alone) left them running (``test_stopped_run.py``). A
    stopped xdist run already ended its workers' children: execnet interrupts a worker's main thread
    when the run's process is gone.

    A process that dies without its ``finally`` blocks (pytest-timeout's ``os._exit``, a SIGKILL) has its
    processes ended by its reaper (``tests/reaper.py``)."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupted)
    reaper.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's process (or xdist worker) ends normally: its reaper leaves without ending anything."""
    reaper.stop()


LONG_MODULES = ("test_storage_kill.py", "test_sync_faults.py", "test_bench_host.py", "test_host_kill.py", "test_sync_client.py")
"""Modules without browser tests that still take a minute or more (``pytest --durations``)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long modules first, each module's tests together and in their order: a module with browser
    tests, then one of ``LONG_MODULES``, then the next browser module, ..., then the rest. ``./dev test``
    hands modules to two xdist workers in this order (``--dist loadfile --no-loadscope-reorder``): a
    browser module (two processes drawing) mostly runs beside a module that waits on processes and
    disks, and no worker is left alone with a long module at the end."""
    modules = list(dict.fromkeys(item.path for item in items))
    with_browser = {item.path for item in items if item.get_closest_marker("browser")}
    browsers = [m for m in modules if m in with_browser]
    longs = [m for m in modules if m not in with_browser and m.name in LONG_MODULES]
    order: list[Path] = []
    for index in range(max(len(browsers), len(longs))):
        order += browsers[index : index + 1] + longs[index : index + 1]
    order += [m for m in modules if m not in order]
    rank = {module: number for number, module in enumerate(order)}
    items.sort(key=lambda item: rank[item.path])


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Any]:
    """One PostgreSQL server for the whole session (per xdist worker); tests/pg_server.py's
    ``postgres_server`` fixture, imported by the modules that need it, hands out this one."""
    from .pg_server import started_postgres

    with started_postgres() as server:
        yield server


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A browser test that fails other than by one of tests/browser.py's waits (which say it
    themselves) gets what each of its open pages showed added to its report; a test during which a
    page's renderer hung (``tests/renderer_watch.py``) fails with where it hung."""
    outcome = yield
    report = outcome.get_result()
    watch = sys.modules.get(f"{__package__}.renderer_watch")
    if call.when == "call" and watch is not None and watch.HANGS:
        # A page whose renderer hung fails its test, even one that went on without that page.
        hangs = "\n\n".join(hang.describe() for hang in watch.HANGS)
        watch.HANGS.clear()
        report.sections.append(("Chromium's renderer hung", hangs))
        if report.passed:
            report.outcome, report.longrepr = "failed", hangs
    browser = getattr(item, "funcargs", {}).get("browser")
    if not report.failed or call.when != "call" or browser is None or call.excinfo is None:
        return
    from .browser import ScreenAssertionError, app_outputs, what_the_screen_shows

    for url, output in list(app_outputs.items()):  # a module's app runs on past its failed test
        if any(page.url.startswith(url) for context in browser.contexts for page in context.pages):
            report.sections.append((f"the app's last output ({url})", "".join(list(output)[-40:]) or "(nothing)"))
    notes = getattr(call.excinfo.value, "__notes__", [])
    if call.excinfo.errisinstance(ScreenAssertionError) or any("The screen showed" in note for note in notes):
        return  # the error says it already, from before the app stopped
    try:
        pages = [page for context in browser.contexts for page in context.pages]
        shown = "\n\n".join(what_the_screen_shows(page) for page in pages) or "(no page open)"
    except Exception as error:  # the browser itself may be what failed
        shown = f"(the pages could not be read: {error})"
    report.sections.append(("what the browser showed", shown))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright; one per test module, its phone pages in one
    profile (``PhoneBrowser``)."""
    from .browser import phone_browser, require_chromium

    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, phone_browser(playwright) as launched:
        yield launched
