"""A sheet waiting to go out says on its own screen why it does not go out (a revoked phone, an
unreachable host): the state's answer, checked without a browser."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from screens.tournament_state import TournamentState, _stop_service
from storage import SheetStore
from sync.client import Credentials
from sync.outbox import SheetSync, SheetSyncState

SHEET = uuid.uuid4()
CREDENTIALS = Credentials(
    url="http://127.0.0.1:1",
    device_token="t" * 32,
    device_id="d1",
    device_name="Handy Sautreiber",
    tournament_id="t1",
    tournament_name="Kathreinwatten",
)
REVOKED = "Der Veranstalter nimmt von diesem Handy nichts an: Dieses Handy wurde abgemeldet."


@pytest.fixture
def state(tmp_path: Path) -> Iterator[TournamentState]:
    store = SheetStore(tmp_path / "handy", device="Handy Sautreiber")
    state = TournamentState(store)
    state.credentials = CREDENTIALS
    yield state
    _stop_service(store)


def sync(state: SheetSyncState, revision: int, acknowledged: int) -> SheetSync:
    return SheetSync(sheet_id=SHEET, revision=revision, state=state, acknowledged_revision=acknowledged)


def test_a_waiting_sheet_names_what_holds_it_up(state: TournamentState) -> None:
    state.states = {str(SHEET): sync(SheetSyncState.WAITING, 2, 1)}
    state.problem = REVOKED
    assert state.holdup(str(SHEET)) == f"Senden klappt gerade nicht: {REVOKED}"
    assert state.label(str(SHEET)) == "wartet auf Versand"


@pytest.mark.parametrize(
    ("sheet_state", "problem", "joined"),
    [
        (sync(SheetSyncState.WAITING, 2, 1), None, True),  # nothing holds it up
        (sync(SheetSyncState.AT_ORGANIZER, 2, 2), REVOKED, True),  # all of it is at the organizer
        (sync(SheetSyncState.NOT_SENT, 1, 0), REVOKED, True),  # a home game, never queued
        (sync(SheetSyncState.WAITING, 2, 1), REVOKED, False),  # the phone left the tournament
        (None, REVOKED, True),  # a sheet the sender does not know
    ],
)
def test_nothing_is_said_where_nothing_waits(
    state: TournamentState, sheet_state: SheetSync | None, problem: str | None, joined: bool
) -> None:
    state.states = {} if sheet_state is None else {str(SHEET): sheet_state}
    state.problem = problem
    if not joined:
        state.credentials = None
    assert state.holdup(str(SHEET)) is None
