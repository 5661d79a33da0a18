"""A watch on the tests' Chromium: a page whose renderer stops answering is caught, named and ended.

Twice on 2026-11-27 a page's renderer span forever while a test typed (its main thread and Flutter's
skwasm worker each at 100 % of a core), and once more in the CI run of 41f20b3's stop. Playwright's
``page.evaluate`` has no timeout of its own, so the test waited until pytest-timeout ended its worker
after 20 minutes, and pytest-xdist then ran the same test again on a new worker: that CI run never
finished.
On 2026-11-29, with the worker on for a trial and ``stacks`` on, the watch caught one: the main thread
in skwasm's text layout, in a loop without a wait (README, "The commands": "A test that hangs cannot
hold the run"); the tests' pages run skwasm without its worker (``TEST_FLUTTER_CONFIG`` in
``tests/browser.py``).

``RendererWatch`` talks to the browser over its own DevTools port (``--remote-debugging-port``), from a
thread of its own, apart from Playwright. Every ``POLL_S`` seconds it asks each page to evaluate ``1``.
A page that has not answered for ``HUNG_S`` seconds is hung: its main thread runs one task at a time,
and none of the app's or the tests' takes seconds, on any load. The watch then crashes the page's
renderer (``Page.crash``, which the renderer takes on its IO thread, beside the spinning main thread;
a page hung before the watch's session with it was set up takes no request, so its renderer is
killed, found by the CPU it burns). Playwright's waiting call fails at once ("Target crashed"), the
test fails saying so (``tests/conftest.py``), and the run goes on with the next test.

With ``stacks=True`` (``TISCHBLOCK_TEST_RENDERER_STACKS=1``) the watch also turns on each page's
debugger, so that a hung page can be paused (V8 interrupts even a loop that never yields) and the
report shows where its JavaScript was; not by default, as the debugger makes the tests 5 to 20 %
slower (the 32-game Schafkopf walk: 103 and 117 s with it, 95 and 100 s without).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import urllib.request
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import ClientConnection, connect

HUNG_S = 60.0
"""A page that has not answered a trivial evaluation for this long is hung."""
POLL_S = 2.0
"""How often the watch asks every page, unless told (``poll_s``): a hang is found within ``hung_s`` plus this."""


SPIN_SHARE = 0.25
"""The share of a core a renderer must use over a window to count as spinning (``_kill_spinning_renderers``):
a page that hangs in a loop takes all it gets, one that waits takes next to none."""

SPIN_WINDOWS = 5
"""How many windows of two seconds ``_kill_spinning_renderers`` looks for a spinning renderer."""


@dataclass
class Hang:
    """A page the watch found hung: its address, how long it had not answered, where its JavaScript was."""

    url: str
    silent_s: float
    stack: list[str]
    ended: str = "crashed the page"
    at: float = field(default_factory=time.time)

    def describe(self) -> str:
        where = "".join(f"\n    {line}" for line in self.stack)
        return (
            f"Chromium's renderer of {self.url} did not answer for {self.silent_s:.0f} s; the watch {self.ended} "
            f"(tests/renderer_watch.py).{' Where its JavaScript was:' if where else ''}{where}"
        )


HANGS: list[Hang] = []
"""Every hang any watch of this process found, for the failing test's report (``tests/conftest.py``)."""


class _Page:
    """One page target, over its own DevTools connection: a request in flight and when it was sent."""

    def __init__(self, port: int, target: dict[str, Any], *, stacks: bool) -> None:
        self.id = str(target["id"])
        self.url = str(target.get("url", ""))
        self._stack = ExitStack()
        self.conn: ClientConnection = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{port}/devtools/page/{self.id}", max_size=None, open_timeout=10, proxy=None)
        )
        self.next_id = 0
        self.pending: dict[int, float] = {}
        self.answered = False
        """Whether the page answered anything on this session: only then does it take a crash through it."""
        self.debugger = self.send("Debugger.enable") if stacks else None
        """With ``stacks``: the id of the request turning the debugger on, until the page answers it (then 0).
        Sent at once, while the page answers: a hung page takes only the few methods Chromium runs by
        interrupting its JavaScript (Debugger.pause among them), and those only with the debugger on."""

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self.next_id += 1
        self.conn.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        return self.next_id

    def drain(self) -> list[dict[str, Any]]:
        """Every message that has arrived, without waiting."""
        messages = []
        while True:
            try:
                messages.append(json.loads(self.conn.recv(timeout=0)))
            except TimeoutError:
                return messages

    def until(self, check: Any, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(self.conn.recv(timeout=left))
            except TimeoutError:
                return None
            if check(message):
                return message
        return None

    def close(self) -> None:
        self._stack.close()


class RendererWatch:
    """Watches every page of the browser listening on ``port`` until ``stop``; ``hangs`` lists what it found."""

    def __init__(self, port: int, *, hung_s: float = HUNG_S, stacks: bool = False, poll_s: float = POLL_S) -> None:
        self.port = port
        self.stacks = stacks
        self.hung_s = hung_s
        self.poll_s = poll_s
        self.hangs: list[Hang] = []
        self.rounds = 0
        """How many times the watch has asked every page so far."""
        self._pages: dict[str, _Page] = {}
        self._ended: dict[str, str] = {}
        """The pages the watch ended, by target, with the address they showed: a crashed page stays in the
        browser's list of pages, answers nothing, and is not a new hang (only once it shows another)."""
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="renderer-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(10)
        for page in self._pages.values():
            page.close()
        self._pages.clear()

    def watching(self, url: str) -> bool:
        """Whether a page showing ``url`` has answered the watch (and turned its debugger on, with ``stacks``)."""
        return any(page.url == url and page.answered and not page.debugger for page in list(self._pages.values()))

    def _targets(self) -> list[dict[str, Any]]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10) as answer:
            return [t for t in json.load(answer) if t.get("type") == "page"]

    def _run(self) -> None:
        while not self._stopping.wait(self.poll_s):
            try:
                self._round()
            except Exception as error:  # the browser going away at the module's end, a page closing
                if not self._stopping.is_set():
                    print(f"renderer watch: {error!r}", file=sys.stderr)

    def _round(self) -> None:
        live = {str(t["id"]): t for t in self._targets()}
        for gone in set(self._pages) - set(live):
            self._pages.pop(gone).close()
        self._ended = {t: url for t, url in self._ended.items() if t in live and live[t].get("url") == url}
        for target_id, target in live.items():
            if target_id in self._ended:
                continue
            page = self._pages.get(target_id)
            if page is None:
                try:
                    page = self._pages[target_id] = _Page(self.port, target, stacks=self.stacks)
                except Exception:  # closed between the list and the connection
                    continue
            page.url = str(target.get("url", page.url))
            try:
                for message in page.drain():
                    if "id" in message:
                        page.answered = True
                        page.pending.pop(message["id"], None)
                        if message["id"] == page.debugger:
                            page.debugger = 0
            except Exception:  # the page closed under us
                self._pages.pop(target_id).close()
                continue
            now = time.monotonic()
            if not page.pending:
                page.pending[page.send("Runtime.evaluate", {"expression": "1", "returnByValue": True})] = now
            elif now - min(page.pending.values()) > self.hung_s:
                self._end(target_id, page, now - min(page.pending.values()))
        self.rounds += 1

    def _end(self, target_id: str, page: _Page, silent_s: float) -> None:
        """Name the hung page (with ``stacks``: where its JavaScript is), then crash its renderer."""
        ended = (
            "crashed the page" if page.answered else "killed its renderer (it hung before the watch's session with it was set up)"
        )
        hang = Hang(page.url, silent_s, self._where(page) if self.stacks else [], ended)
        self.hangs.append(hang)
        HANGS.append(hang)
        self._ended[target_id] = page.url
        print(f"\n{hang.describe()}\n", file=sys.stderr, flush=True)
        self._pages.pop(target_id)
        if page.answered:
            with suppress(Exception):
                page.send("Page.crash")
                page.until(lambda m: False, timeout=2)
            page.close()
        else:  # hung before this session was set up: no request reaches it
            page.close()
            self._kill_spinning_renderers()

    @staticmethod
    def _where(page: _Page) -> list[str]:
        """The hung page's JavaScript stack, paused and let go again (a paused page takes no crash)."""
        if page.debugger != 0:
            return ["(no stack: the page hung before the watch's debugger was on)"]
        stack = []
        try:
            page.send("Debugger.pause")
            paused = page.until(lambda m: m.get("method") == "Debugger.paused", timeout=15)
            for frame in (paused or {}).get("params", {}).get("callFrames", [])[:30]:
                where = frame.get("location", {})
                script = frame.get("url", "").rsplit("/", 1)[-1] or where.get("scriptId", "?")
                line, column = where.get("lineNumber", 0) + 1, where.get("columnNumber", 0) + 1
                stack.append(f"{frame.get('functionName') or '(anonymous)'} ({script}:{line}:{column})")
            page.send("Debugger.resume")
        except Exception as error:
            stack.append(f"(no stack: {error!r})")
        return stack or ["(no stack: the page did not pause)"]

    def _kill_spinning_renderers(self) -> None:
        """SIGKILL every renderer of this browser that used more than ``SPIN_SHARE`` of a core over two
        seconds, looking again for up to ``SPIN_WINDOWS`` such windows until one did. Half a core was
        asked for before: beside a whole suite and two busy loops the spinning renderer got less than
        that in 3 of 4 runs (28 Nov), was not killed, and the test waited out its patience."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        with connect(endpoint, max_size=None, open_timeout=10, proxy=None) as browser:

            def renderers() -> dict[int, float]:
                browser.send(json.dumps({"id": 1, "method": "SystemInfo.getProcessInfo"}))
                while (message := json.loads(browser.recv(timeout=10))).get("id") != 1:
                    pass
                return {p["id"]: p["cpuTime"] for p in message["result"]["processInfo"] if p["type"] == "renderer"}

            before = renderers()
            for _ in range(SPIN_WINDOWS):
                began = time.monotonic()
                time.sleep(2)
                after = renderers()
                window = time.monotonic() - began
                spinning = [pid for pid, cpu in after.items() if cpu - before.get(pid, cpu) > SPIN_SHARE * window]
                for pid in spinning:
                    with suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                if spinning:
                    return
                before = after
