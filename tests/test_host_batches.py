"""Answers from the threads that take batches to the coroutines that wait for them (``Doorbell``),
the group commit awaited in the event loop, and the sheet route taking a tables-only device's sheet
in the loop (``KnownDeviceSubmit``; issue 24)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from sync.host.app import create_app
from sync.host.batches import Doorbell, LoopAnswered
from sync.host.records import NewRevision, SheetRefused
from sync.host.run import prepare
from sync.host.store import HostStore
from sync.protocol import TOKEN_HEADER, revision_path

from .host_helpers import watten_sheet
from .test_host_store import revision

TOURNAMENT = "kathrein-2026"


def counted_wakes(loop: asyncio.AbstractEventLoop) -> list[int]:
    """Count the loop's ``call_soon_threadsafe`` (each a wake of the loop from another thread)."""
    wakes = [0]
    original = loop.call_soon_threadsafe

    def counting(*args: Any, **kwargs: Any) -> Any:
        wakes[0] += 1
        return original(*args, **kwargs)

    loop.call_soon_threadsafe = counting  # type: ignore[method-assign,assignment]
    return wakes


def test_a_batch_answered_from_a_thread_wakes_the_loop_once() -> None:
    async def main() -> tuple[int, list[bool]]:
        loop = asyncio.get_running_loop()
        wakes = counted_wakes(loop)
        bell = Doorbell(loop)
        waiting = [LoopAnswered(bell) for _ in range(50)]

        def answer_all() -> None:
            for each in waiting:
                each.set()

        answer = threading.Thread(target=answer_all)
        answer.start()
        answer.join()  # all fifty answered while the loop has not woken yet
        await asyncio.wait_for(asyncio.gather(*(w.future for w in waiting)), 30)
        return wakes[0], [w.future.done() for w in waiting]

    wakes, done = asyncio.run(main())
    assert done == [True] * 50
    assert wakes == 1


def test_answers_after_the_loop_woke_ring_again_and_a_cancelled_waiter_is_skipped() -> None:
    async def main() -> tuple[int, bool, bool]:
        loop = asyncio.get_running_loop()
        wakes = counted_wakes(loop)
        bell = Doorbell(loop)
        first, gone, last = LoopAnswered(bell), LoopAnswered(bell), LoopAnswered(bell)
        gone.future.cancel()  # a request that went away meanwhile
        await asyncio.to_thread(first.set)
        await asyncio.wait_for(first.future, 30)
        await asyncio.to_thread(gone.set)
        await asyncio.to_thread(last.set)
        await asyncio.wait_for(last.future, 30)
        return wakes[0], gone.future.cancelled(), last.future.done()

    wakes, cancelled, done = asyncio.run(main())
    assert (cancelled, done) == (True, True)
    assert wakes >= 2  # each answer after a wake rings anew: none waits for a later answer


def test_an_answer_after_the_loop_closed_is_dropped_without_an_error() -> None:
    loop = asyncio.new_event_loop()
    bell = Doorbell(loop)
    late = LoopAnswered(bell)
    loop.close()
    late.set()  # the host stopped: the writer's last batch must not fail on it


def new_revision(table: int, side: str, device: str, sheet_id: uuid.UUID | None = None, number: int = 27) -> NewRevision:
    """A closed Watten sheet of ``table`` written by ``side``, sent by the phone ``device``, claiming its side."""
    body = watten_sheet(TOURNAMENT, table, written_by=side).to_json().encode("utf-8")
    stored = revision(sheet_id or uuid.uuid4(), number, body, table=table, written_by=side)
    return replace(stored, closed=True, device_id=device, claim=True)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HostStore]:
    opened = HostStore.open(tmp_path)
    opened.create_tournament(TOURNAMENT, "Turnier", "CODE1234")
    try:
        yield opened
    finally:
        opened.close()


def test_the_group_commit_answers_coroutines_in_batches_with_the_threads_results(store: HostStore) -> None:
    assert store.commits_in_groups
    news = [new_revision(table, side, f"{table}{side}") for table in range(1, 21) for side in "AB"]
    batches: list[int] = []
    store_batch = store._store_batch

    def counting(conn: Any, batch: list[NewRevision]) -> Any:
        batches.append(len(batch))
        return store_batch(conn, batch)

    store._store_batch = counting  # type: ignore[method-assign]

    async def main() -> list[str]:
        bell = Doorbell(asyncio.get_running_loop())
        results = await asyncio.gather(*(store.store_revision_in_loop(new, bell) for new in news))
        return [result.status for result in results]

    assert asyncio.run(main()) == ["stored"] * 40
    assert sum(batches) == 40 and len(batches) < 40, batches  # stored together, not one commit each
    again = [store.store_revision(new).status for new in news[:2]]  # the thread's way sees the same rows
    assert again == ["already_stored", "already_stored"]
    assert len(store.latest_per_sheet(TOURNAMENT)) == 40


def test_a_refusal_of_the_store_reaches_the_waiting_coroutine_and_stores_nothing(store: HostStore) -> None:
    held = new_revision(3, "A", "phone-1")
    assert store.store_revision(held).status == "stored"
    moved = new_revision(5, "A", "phone-2", held.sheet_id, number=28)  # the same sheet, said to be table 5's

    async def main() -> None:
        await store.store_revision_in_loop(moved, Doorbell(asyncio.get_running_loop()))

    with pytest.raises(SheetRefused, match="anderen Tisch"):
        asyncio.run(main())
    assert [r.sheet_id for r in store.latest_per_sheet(TOURNAMENT)] == [held.sheet_id]


def test_the_sheet_route_takes_a_tables_only_phones_sheet_in_the_loop(tmp_path: Path) -> None:
    """The real app (its sheet route, checks and answer; in process): a tables-only device's sheet is
    stored through the loop's way, answered with its comparison, and refused as before where it is
    not the device's own; every answer is the same as the thread's way gives."""
    setup = prepare(tmp_path, host="127.0.0.1", port=1, organizer_password="x" * 8, tournament="Loop", insecure_http=True)
    store = setup.store
    ways: list[str] = []
    in_loop, in_thread = store.store_revision_in_loop, store.store_revision

    async def loop_way(new: NewRevision, bell: Doorbell) -> Any:
        ways.append("loop")
        return await in_loop(new, bell)

    def thread_way(new: NewRevision) -> Any:
        ways.append("thread")
        return in_thread(new)

    store.store_revision_in_loop = loop_way  # type: ignore[method-assign]
    store.store_revision = thread_way  # type: ignore[method-assign]
    tid = setup.tournament.id
    a = watten_sheet(tid, 4, written_by="A")
    b = watten_sheet(tid, 4, written_by="B", correction=False)

    async def phones() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=create_app(store))
        async with httpx.AsyncClient(transport=transport, base_url="http://host") as client:
            join = {"join_code": setup.tournament.join_code, "table": 4}
            tokens = {}
            for side in "AB":
                joined = await client.post("/api/v1/join", json={**join, "team": side, "device_name": side})
                tokens[side] = joined.json()["device_token"]

            async def put(sheet: Any, side: str) -> httpx.Response:
                headers = {TOKEN_HEADER: tokens[side], "Content-Type": "application/json"}
                path = revision_path(sheet.id, len(sheet.entries))
                return await client.put(path, content=sheet.to_json().encode("utf-8"), headers=headers)

            # another table's sheet last: refused before the store is asked
            return [await put(a, "A"), await put(b, "B"), await put(a, "A"), await put(watten_sheet(tid, 5), "A")]

    try:
        first, second, again, stranger = asyncio.run(phones())
        assert (first.status_code, second.status_code, again.status_code) == (201, 201, 200), second.text
        assert second.json()["comparison"]["agree"] is True, second.json()
        assert again.json()["status"] == "already_stored"
        assert stranger.status_code == 403, stranger.text
        assert "Tisch 4" in stranger.json()["detail"]
        assert ways == ["loop", "loop", "loop"]
    finally:
        store.close()
    assert len(HostStore.open(tmp_path).latest_per_sheet(tid)) == 2
