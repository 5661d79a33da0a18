"""An arriving sheet parsed and checked with its ruleset, in worker processes where the host has cores to spare.

Parsing a sheet, scoring it with its ruleset (``score_sheet``) and making what the comparison needs
of it (``Tally``) are pure work on the body's bytes: three quarters of the host's CPU per sheet
(``bench/host.py --phases``, issue 24). In the host's own process they share one interpreter lock
with the event loop, the group commit and every other request, so the host took sheets no faster
than one core runs Python. ``SheetChecker`` hands that work to a pool of worker processes, one per
core the host may use, and the host's threads only wait for the answer.

- The answer is the same as checking in the host's own process (``check_sheet``): the worker runs
  the same function. A body the worker cannot parse is parsed again in the host's process, so a
  refused body gets exactly the refusal FastAPI would give (those are rare; the worker sends no
  pydantic error across the pipe).
- Until the workers have started (about a second after the host), where the OS gives only one
  core, and if a worker dies (the pool is started again), sheets are checked in the host's own
  process: a sheet is never refused or delayed because a worker is missing.
- The workers run on every core the host may use (the host's own threads stay on one: ``one_core``)
  and end when the host ends, also when it is killed (each watches its parent).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from concurrent.futures import CancelledError, Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from .batches import Answered, Doorbell, LoopAnswered, take_batches
from .bodies import BodyRefused
from .check_work import AS_SENT, Checked, Head, check_batch, start_worker, worker_ready
from .check_work import check_sheet as check_parsed
from .http import refused_body
from .log import log

__all__ = ["AS_SENT", "BATCH", "Checked", "Head", "SheetChecker", "check_sheet", "default_check_processes"]


def check_sheet(body: bytes, content_type: str | None) -> Checked:
    """``check_work.check_sheet`` in the host's own process: a body that does not parse is refused as
    FastAPI refuses a body (``http.refused_body``); a ruleset's refusal is returned in ``refusal``."""
    try:
        return check_parsed(body, content_type)
    except BodyRefused as error:
        raise refused_body(error) from None


BATCH = 48
"""The most sheets one task carries to a worker (``SheetChecker``): 48 phones sending at once make
batches of about 10 to 20 on two workers; a batch waits for no sheet that has not arrived."""


class _Waiting:
    """A sheet waiting for its check (``SheetChecker.check``): filled in by a lane, ``None`` where the
    requesting thread or coroutine checks it itself; ``done`` wakes it."""

    __slots__ = ("body", "content_type", "done", "found")

    def __init__(self, body: bytes, content_type: str | None, done: Answered | LoopAnswered) -> None:
        self.body, self.content_type = body, content_type
        self.done = done
        self.found: Checked | None = None


def default_check_processes() -> int:
    """One worker per core the host may use, at most 8; none where there is only one core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, 8) if cores > 1 else 0


class SheetChecker:
    """``check`` an arriving sheet in one of ``processes`` worker processes (0: in the calling thread).

    Sheets that arrive together go to a worker together: each waits in one queue, and one lane thread
    per worker takes every sheet waiting (up to ``BATCH``) as one task to the pool and hands each its
    answer, as the group commit does with the revisions it writes (``sync/host/store.py``)."""

    def __init__(self, processes: int = 0, *, gc_thresholds: tuple[int, int, int] | None = None) -> None:
        self.processes = processes
        self._cores = frozenset(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        self._gc_thresholds = gc_thresholds
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._ready = False
        self._closed = False
        self._waiting: queue.SimpleQueue[_Waiting | None] = queue.SimpleQueue()
        self._lanes = [
            threading.Thread(target=self._lane, name=f"tischblock-check-lane-{n}", daemon=True) for n in range(processes)
        ]
        for lane in self._lanes:
            lane.start()
        if processes > 0:
            self._start()

    @property
    def in_workers(self) -> bool:
        """Whether sheets are checked in the worker processes now (not while they start, not at 0)."""
        return self._ready

    def _start(self) -> None:
        """Start the pool and its workers (in the background: the host serves meanwhile)."""
        pool = ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),  # no fork of a process with threads
            initializer=start_worker,
            initargs=(os.getpid(), self._cores, self._gc_thresholds),
        )
        with self._lock:
            if self._closed:  # closed while a broken pool was being replaced
                pool.shutdown(wait=False)
                return
            self._pool, self._ready = pool, False
        threading.Thread(target=self._warm, args=(pool,), name="tischblock-check-start", daemon=True).start()

    def _warm(self, pool: ProcessPoolExecutor) -> None:
        """Wait until every worker of ``pool`` has started (imported its modules and ignores Ctrl-C),
        then hand the checks to them. One task per worker at a time: the pool starts a worker for every
        task no idle worker takes, and a worker still starting takes one while the others are busy."""
        # The workers are spawned from this thread and start with its signal mask: with Ctrl-C blocked, a
        # Ctrl-C while a worker still imports its modules waits until ``start_worker`` ignores it (it
        # printed a KeyboardInterrupt traceback per worker). Blocked in this thread only; Python handles
        # signals in the main thread.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        seen: set[int] = set()
        deadline = time.monotonic() + 120
        try:
            while len(seen) < self.processes:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(seen)} von {self.processes} in 120 s gestartet")
                seen.update(future.result() for future in [pool.submit(worker_ready) for _ in range(self.processes)])
        except Exception as error:  # a worker that cannot start, or the pool shut down meanwhile
            with self._lock:
                mine = self._pool is pool and not self._closed
                if mine:
                    self._pool = None
            if mine:
                log.warning("Prüf-Prozesse starten nicht (%s); der Host prüft die Blätter selbst", error)
                pool.shutdown(wait=False, cancel_futures=True)
            return
        with self._lock:
            if self._pool is pool:
                self._ready = True
                log.info("Ankommende Blätter prüfen %d Prüf-Prozesse", self.processes)

    def check(self, body: bytes, content_type: str | None) -> Checked:
        """``check_sheet(body, content_type)``, in a worker process when they run."""
        answered = Answered()
        waiting = _Waiting(body, content_type, answered)
        if not self._queue(waiting):
            return check_sheet(body, content_type)
        answered.wait()
        found = self._answer(waiting)
        return found if found is not None else check_sheet(body, content_type)

    async def check_in_loop(self, body: bytes, content_type: str | None, bell: Doorbell, executor: Executor) -> Checked:
        """``check`` for a coroutine in ``bell``'s event loop: it waits for its worker's answer in the
        loop, woken with the other sheets of its batch (``Doorbell``), not in a thread of its own. A
        sheet no worker checks is checked in ``executor``, off the loop."""
        answered = LoopAnswered(bell)
        waiting = _Waiting(body, content_type, answered)
        if self._queue(waiting):
            await answered.future
            found = self._answer(waiting)
            if found is not None:
                return found
        return await bell.loop.run_in_executor(executor, check_sheet, body, content_type)

    def _queue(self, waiting: _Waiting) -> bool:
        """Queue ``waiting`` for the lanes if they run (``close`` answers what is queued before it)."""
        with self._lock:
            queued = self._ready and not self._closed
            if queued:
                self._waiting.put(waiting)
        return queued

    @staticmethod
    def _answer(waiting: _Waiting) -> Checked | None:
        """A worker's answer with the body put back where it sent ``AS_SENT``; ``None``: check it here."""
        found = waiting.found
        if found is not None and found.refusal is None and found.canonical == AS_SENT:
            return replace(found, canonical=waiting.body)
        return found

    def _lane(self) -> None:
        """Take every sheet waiting (up to ``BATCH``) to a worker as one task; answer each. ``close``
        puts an end for each lane; a lane that takes one inside its batch passes it on."""
        take_batches(self._waiting, BATCH, self._check_in_pool, pass_end=True)

    def _check_in_pool(self, batch: list[_Waiting]) -> None:
        """Answer each of ``batch`` from one task in a worker. A sheet the pool cannot take (broken, shut
        down) is answered ``None``: its own thread checks it."""
        found: list[Checked | None] = [None] * len(batch)
        with self._lock:
            pool = self._pool if self._ready else None
        if pool is not None:
            try:
                found = pool.submit(check_batch, [(w.body, w.content_type) for w in batch]).result()
            except BrokenProcessPool:
                self._restart(pool)
            except (RuntimeError, CancelledError):  # the pool was shut down under us (the host stops)
                pass
        for waiting, answer in zip(batch, found, strict=True):
            waiting.found = answer
            waiting.done.set()

    def workers(self) -> list[int]:
        """The process ids of the running workers (none while they start or at 0)."""
        with self._lock:
            pool = self._pool
        # ProcessPoolExecutor keeps its processes by pid; it has no public way to list them.
        return sorted(pool._processes or {}) if pool is not None else []  # type: ignore[attr-defined]

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """A worker died (killed, out of memory): a new pool, once, by the first thread to see it."""
        with self._lock:
            if self._pool is not broken or self._closed:
                return
            self._pool, self._ready = None, False
        log.warning("Ein Prüf-Prozess ist ausgefallen; die Prüf-Prozesse starten neu")
        broken.shutdown(wait=False, cancel_futures=True)
        self._start()

    def close(self) -> None:
        """End the lanes (each answers what was queued before), then the workers (the host stops)."""
        with self._lock:
            self._closed = True
        for _ in self._lanes:
            self._waiting.put(None)
        for lane in self._lanes:
            lane.join()
        with self._lock:
            pool, self._pool, self._ready = self._pool, None, False
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
