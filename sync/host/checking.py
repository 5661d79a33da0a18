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

import gc
import multiprocessing
import os
import queue
import signal
import threading
import time
import uuid
from concurrent.futures import CancelledError, Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace

from scoring import RuleViolation, Sheet, UnknownRuleset, score_sheet
from scoring.compare import Tally, tally

from ..protocol import body_sha256
from .batches import Answered, Doorbell, LoopAnswered, take_batches
from .http import json_body
from .log import log


@dataclass(frozen=True, slots=True)
class Head:
    """What the host checks an arriving sheet's device, table and writer against (``take_sheet``), as
    plain values: a parsed ``Sheet`` (its context, participants and ruleset, each a pydantic model)
    cost as much to pickle across the pipe from a check process as the rest of its answer."""

    id: uuid.UUID
    tournament: str | None
    round_label: str
    round: int | None
    table: int | None
    written_by: str | None
    writer_name: str | None
    """``Sheet.writer_name``: the writing participant's name, else ``written_by``."""
    writer_start_number: int | None
    """The Startnummer of the participant whose id is ``written_by`` (``None``: no such participant, or
    one without a Startnummer)."""

    @classmethod
    def of(cls, sheet: Sheet) -> Head:
        context = sheet.context
        named = next((p for p in sheet.participants if p.id == context.written_by), None)
        return cls(
            id=sheet.id,
            tournament=context.tournament,
            round_label=context.round_label,
            round=context.round,
            table=context.table,
            written_by=context.written_by,
            writer_name=sheet.writer_name,
            writer_start_number=named.start_number if named is not None else None,
        )


@dataclass(frozen=True)
class Checked:
    """What the host needs of an arriving sheet that parsed: its ``Head``, and either the ruleset's
    refusal or the stored form and the score's facts."""

    head: Head
    """Id, context and writer for the checks of device, table and writer."""
    entries: int
    """How many log entries it has (the revision it must be sent as)."""
    refusal: str | None = None
    """The ruleset's German refusal (``RuleViolation``, ``UnknownRuleset``); ``None`` if it holds."""
    canonical: bytes = b""
    """Its canonical JSON (``Sheet.to_json()``), the form it is stored in."""
    sha256: str = ""
    closed: bool = False
    games: int = 0
    """Game lines of its score (every line but the close)."""
    tally: Tally | None = None
    """What the comparison with the other sheet of its table needs (``scoring/compare.py``)."""


def check_sheet(body: bytes, content_type: str | None) -> Checked:
    """Parse ``body`` as a sheet (refused as FastAPI refuses a body: ``json_body``) and check it with
    its ruleset; a ruleset's refusal is returned in ``refusal``, not raised."""
    sheet = json_body(Sheet, body, content_type)
    head = Head.of(sheet)
    try:
        score = score_sheet(sheet)
    except (RuleViolation, UnknownRuleset) as error:
        return Checked(head=head, entries=len(sheet.entries), refusal=str(error))
    canonical = sheet.to_json().encode("utf-8")
    return Checked(
        head=head,
        entries=len(sheet.entries),
        canonical=canonical,
        sha256=body_sha256(canonical),
        closed=score.status.closed,
        games=sum(1 for line in score.lines if line.kind != "close"),
        tally=tally(sheet, score),
    )


def _check_in_worker(body: bytes, content_type: str | None) -> Checked | None:
    """``check_sheet`` in a worker; ``None`` for a body that does not parse (the host parses it again)."""
    try:
        return check_sheet(body, content_type)
    except Exception:  # a refused body: its refusal is made in the host's process (see the module docstring)
        return None


def _check_batch(bodies: list[tuple[bytes, str | None]]) -> list[Checked | None]:
    """``_check_in_worker`` for each of ``bodies``, in one task: a task's way to a worker and back (the
    pool's threads, pickling, two pipes, waking the waiting thread) costs the host's process about what
    the check itself costs, and it is paid once for all the sheets that arrived together.

    A sheet whose body is its canonical JSON already (a phone sends ``Sheet.to_json()``) comes back
    without it (``AS_SENT``): the host has those bytes, and a batch of bodies sent back was most of
    the pipe's and the pickles' work."""
    found = []
    for body, content_type in bodies:
        checked = _check_in_worker(body, content_type)
        if checked is not None and checked.refusal is None and checked.canonical == body:
            checked = replace(checked, canonical=AS_SENT)
        found.append(checked)
    return found


AS_SENT = b""
"""``Checked.canonical`` from a check process: the body as it was sent is the canonical JSON."""


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


def _ready() -> int:
    """A started worker's answer: its pid, a little later, so that a worker still starting takes the
    next of these while this one is busy (``SheetChecker._warm``)."""
    time.sleep(0.05)
    return os.getpid()


def _start_worker(parent: int, cores: frozenset[int] | None, thresholds: tuple[int, int, int] | None) -> None:
    """A worker's start: every core the host may use, the host's collector thresholds, and an end
    with its parent (a killed host leaves no worker behind). Ctrl-C at the host's terminal reaches
    every process of its group: the host shuts down on it, its workers leave that to the host."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked from the start (``_warm``), now ignored
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    if thresholds is not None:
        gc.set_threshold(*thresholds)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="tischblock-check-parent", daemon=True).start()


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
            initializer=_start_worker,
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
        # Ctrl-C while a worker still imports its modules waits until ``_start_worker`` ignores it (it
        # printed a KeyboardInterrupt traceback per worker). Blocked in this thread only; Python handles
        # signals in the main thread.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        seen: set[int] = set()
        deadline = time.monotonic() + 120
        try:
            while len(seen) < self.processes:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(seen)} von {self.processes} in 120 s gestartet")
                seen.update(future.result() for future in [pool.submit(_ready) for _ in range(self.processes)])
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
                found = pool.submit(_check_batch, [(w.body, w.content_type) for w in batch]).result()
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
