"""Taking what waits together as one batch: the group commit's revisions (``store.py``), the sheets
on their way to a check process (``checking.py``) and the host's log lines (``log.py``)."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _Queue(Protocol[T_co]):
    def get_nowait(self) -> T_co | None: ...


class _Takeable(Protocol[T]):
    def get(self) -> T | None: ...
    def get_nowait(self) -> T | None: ...
    def put(self, item: T | None) -> None: ...


class Answered:
    """A one-time signal from the thread that takes a batch to the thread that waits for its item's
    answer: a lock held from the start and released once. ``threading.Event`` does the same with a
    condition in Python code, several times the cost, paid twice for every sheet (issue 24)."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()

    def set(self) -> None:
        """The answer is there (call once)."""
        self._lock.release()

    def wait(self) -> None:
        """Until ``set``."""
        self._lock.acquire()


class Doorbell:
    """Wakes the coroutines of one event loop from the threads that take batches (the check lanes, the
    group commit): every answer given before the loop has woken is handed out in that one wake, so a
    batch's answers cost the loop one ``call_soon_threadsafe``, not a worker thread woken per sheet
    (issue 24)."""

    __slots__ = ("_due", "_lock", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._due: list[asyncio.Future[None]] = []

    def ring(self, future: asyncio.Future[None]) -> None:
        """``future`` is answered (from any thread): the loop sets it at its next wake."""
        with self._lock:
            self._due.append(future)
            first = len(self._due) == 1
        if first:
            try:
                self.loop.call_soon_threadsafe(self._answer)
            except RuntimeError:  # the loop is closed (the host stopped): nobody waits any more
                pass

    def _answer(self) -> None:
        with self._lock:
            due, self._due = self._due, []
        for future in due:
            if not future.done():  # a waiting request cancelled meanwhile
                future.set_result(None)


class LoopAnswered:
    """``Answered`` for a coroutine of ``bell``'s loop: ``set`` once from any thread, then ``await
    answered.future`` returns."""

    __slots__ = ("_bell", "future")

    def __init__(self, bell: Doorbell) -> None:
        self.future: asyncio.Future[None] = bell.loop.create_future()
        self._bell = bell

    def set(self) -> None:
        """The answer is there (call once)."""
        self._bell.ring(self.future)


def waiting_batch(waiting: _Queue[T], first: T, most: int) -> tuple[list[T], bool]:
    """``first`` and whatever else waits in ``waiting`` at this moment, up to ``most`` in all (no wait for
    what has not arrived); and whether an end (``None``) was taken from the queue after them."""
    batch = [first]
    while len(batch) < most:
        try:
            item = waiting.get_nowait()
        except queue.Empty:
            break
        if item is None:
            return batch, True
        batch.append(item)
    return batch, False


def take_batches(waiting: _Takeable[T], most: int, handle: Callable[[list[T]], None], *, pass_end: bool = False) -> None:
    """Until an end (``None``) is taken: wait for something, then ``handle`` it with whatever else
    waits (``waiting_batch``). ``pass_end``: put the end back for the next of several takers, before
    the last batch is handled."""
    while True:
        first = waiting.get()
        if first is None:
            return
        batch, ended = waiting_batch(waiting, first, most)
        if ended and pass_end:
            waiting.put(None)
        handle(batch)
        if ended:
            return
