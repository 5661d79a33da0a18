"""A fault-injecting TCP proxy for the sync tests: a flaky hall Wi-Fi between phones and the host.

``FaultProxy`` listens on 127.0.0.1 and forwards TCP bytes to an upstream port on 127.0.0.1 (the
host), so it works for plain HTTP and for HTTPS alike: it never looks inside the bytes. It runs
its own asyncio loop in a background thread, so a test (or another process) just connects to
``proxy.port``.

Faults are decided per *turn*, not per connection, so a kept-alive connection is hit as often as
a fresh one: a turn starts when the client sends bytes after the host last answered (an HTTP
request; under TLS the handshake's turns count too). For each turn a seeded ``random.Random``
draws one fault from the ``FaultSchedule``:

``drop``
    the client's bytes of this turn never reach the host: both sides are closed at once (the
    client sees a reset or an empty reply; the host saw nothing of the request).
``lose_reply``
    the request is forwarded; as soon as the host starts answering (it answers only after the
    revision is stored), both sides are closed and the client never hears the answer.
``delay``
    the turn is held back for up to ``max_delay`` seconds before it is forwarded.
``duplicate``
    the turn's bytes go to the host twice: on this connection and, at the same moment, on a
    fresh one whose answer is read and thrown away. Over plain HTTP the host receives the same
    request twice, racing itself; over HTTPS the copy is refused by TLS itself (a TLS record
    cannot be replayed on another connection), which is a replay the host must shrug off too.

The same seed gives the same sequence of decisions (``proxy.decisions``); which request meets
which decision depends on timing. Everything is bounded: ``max_connections`` open client
connections (more are refused), an idle timeout per connection, one chunk in flight per
direction.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

LOOPBACK = "127.0.0.1"
CHUNK = 64 * 1024


class Fault(StrEnum):
    PASS = "pass"
    DROP = "drop"
    LOSE_REPLY = "lose_reply"
    DELAY = "delay"
    DUPLICATE = "duplicate"


@dataclass(frozen=True)
class FaultSchedule:
    """The chance of each fault per turn (the rest passes untouched)."""

    drop: float = 0.0
    lose_reply: float = 0.0
    delay: float = 0.0
    duplicate: float = 0.0
    max_delay: float = 0.3

    def __post_init__(self) -> None:
        chances = (self.drop, self.lose_reply, self.delay, self.duplicate)
        if any(p < 0 for p in chances) or sum(chances) > 1:
            raise ValueError(f"fault chances must be >= 0 and add up to at most 1: {chances}")

    def draw(self, rng: random.Random) -> Fault:
        x = rng.random()
        for fault, chance in (
            (Fault.DROP, self.drop),
            (Fault.LOSE_REPLY, self.lose_reply),
            (Fault.DELAY, self.delay),
            (Fault.DUPLICATE, self.duplicate),
        ):
            if x < chance:
                return fault
            x -= chance
        return Fault.PASS


CLEAN = FaultSchedule()


@dataclass
class _Connection:
    """One client connection and its upstream, with the state of the current turn."""

    client_reader: asyncio.StreamReader
    client_writer: asyncio.StreamWriter
    upstream_reader: asyncio.StreamReader | None = None
    upstream_writer: asyncio.StreamWriter | None = None
    answered: bool = True  # the host answered since the client last sent: the next bytes start a turn
    fault: Fault = Fault.PASS
    duplicates: list[asyncio.Task[None]] = field(default_factory=list)
    duplicate_writer: asyncio.StreamWriter | None = None


class FaultProxy:
    """A TCP proxy on 127.0.0.1 that injects faults into the traffic to ``upstream_port``.

    Use as a context manager, or ``start()`` / ``stop()``. ``schedule`` may be replaced at any
    time (e.g. ``proxy.schedule = CLEAN`` to let the last sheets through).
    """

    def __init__(
        self,
        upstream_port: int,
        schedule: FaultSchedule = CLEAN,
        *,
        seed: int = 0,
        port: int = 0,
        max_connections: int = 256,
        idle_timeout: float = 30.0,
        plan: list[Fault] | None = None,
    ) -> None:
        self.upstream_port = upstream_port
        self.schedule = schedule
        self.plan = list(plan or [])
        """Faults for the first turns, in order, before the schedule draws (for a test that needs one exact fault)."""
        self.rng = random.Random(seed)
        self.requested_port = port
        self.port = 0
        self.max_connections = max_connections
        self.idle_timeout = idle_timeout
        self.stats: Counter[str] = Counter()
        self.decisions: list[Fault] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._open = 0
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> FaultProxy:
        self._thread = threading.Thread(target=self._run, name="faultproxy", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fault proxy did not start")
        if self._error is not None:
            raise RuntimeError(f"fault proxy did not start: {self._error}")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is None or self._thread is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop may already be closed
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
            loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)
        self._loop = None

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._server = loop.run_until_complete(
                asyncio.start_server(self._accept, LOOPBACK, self.requested_port, limit=CHUNK, reuse_address=True)
            )
            self.port = self._server.sockets[0].getsockname()[1]
        except OSError as error:
            self._error = error
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- one connection ----------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if self._open >= self.max_connections:
            self.stats["refused"] += 1
            writer.transport.abort()
            return
        self._open += 1
        self._tasks.add(task)
        self.stats["connections"] += 1
        conn = _Connection(reader, writer)
        try:
            await self._serve(conn)
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            self.stats["errors"] += 1
        except asyncio.CancelledError:
            pass  # the proxy stops: asyncio's stream callback must not see a cancelled task
        finally:
            self._open -= 1
            self._tasks.discard(task)
            self._close(conn)

    async def _serve(self, conn: _Connection) -> None:
        try:
            conn.upstream_reader, conn.upstream_writer = await asyncio.open_connection(LOOPBACK, self.upstream_port, limit=CHUNK)
        except OSError:
            self.stats["upstream_down"] += 1
            return
        upstream = asyncio.ensure_future(self._from_upstream(conn))
        try:
            await self._from_client(conn)
        finally:
            upstream.cancel()
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await upstream
            for dup in conn.duplicates:
                dup.cancel()
            await asyncio.gather(*conn.duplicates, return_exceptions=True)

    async def _from_client(self, conn: _Connection) -> None:
        assert conn.upstream_writer is not None
        while True:
            data = await asyncio.wait_for(conn.client_reader.read(CHUNK), self.idle_timeout)
            if not data:
                return
            if conn.answered:  # a new turn
                conn.answered = False
                conn.fault = self.plan.pop(0) if self.plan else self.schedule.draw(self.rng)
                self.decisions.append(conn.fault)
                self.stats[conn.fault.value] += 1
                if conn.duplicate_writer is not None:  # the last turn's copy: no more requests follow on it
                    with contextlib.suppress(OSError):
                        conn.duplicate_writer.write_eof()
                    conn.duplicate_writer = None
                if conn.fault is Fault.DROP:
                    return
                if conn.fault is Fault.DELAY:
                    await asyncio.sleep(self.rng.uniform(0, self.schedule.max_delay))
                if conn.fault is Fault.DUPLICATE:
                    await self._open_duplicate(conn)
            conn.upstream_writer.write(data)
            await conn.upstream_writer.drain()
            if conn.duplicate_writer is not None:
                with contextlib.suppress(OSError):
                    conn.duplicate_writer.write(data)
                    await conn.duplicate_writer.drain()

    async def _from_upstream(self, conn: _Connection) -> None:
        assert conn.upstream_reader is not None
        while True:
            data = await conn.upstream_reader.read(CHUNK)
            if not data:
                conn.client_writer.close()
                return
            if conn.fault is Fault.LOSE_REPLY:
                self.stats["replies_lost"] += 1
                conn.client_writer.transport.abort()
                return
            conn.answered = True
            conn.client_writer.write(data)
            await conn.client_writer.drain()

    async def _open_duplicate(self, conn: _Connection) -> None:
        """A second upstream connection for this turn's copy; its answer is read and thrown away."""
        try:
            reader, writer = await asyncio.open_connection(LOOPBACK, self.upstream_port, limit=CHUNK)
        except OSError:
            return
        conn.duplicate_writer = writer

        async def drain_answer() -> None:
            try:
                while await asyncio.wait_for(reader.read(CHUNK), self.idle_timeout):
                    pass
            except (OSError, TimeoutError):
                pass
            finally:
                writer.transport.abort()

        conn.duplicates.append(asyncio.ensure_future(drain_answer()))

    def _close(self, conn: _Connection) -> None:
        conn.client_writer.transport.abort()
        if conn.upstream_writer is not None:
            conn.upstream_writer.transport.abort()
