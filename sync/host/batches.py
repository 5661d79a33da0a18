"""Taking what waits together as one batch: the group commit's revisions (``store.py``) and the sheets
on their way to a check process (``checking.py``)."""

from __future__ import annotations

import queue
from typing import Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _Queue(Protocol[T_co]):
    def get_nowait(self) -> T_co | None: ...


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
