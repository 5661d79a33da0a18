"""What the sheet screen sends to the phone's screen when a game comes in: the new line alone (issue 24).

The lines are listed newest first. Without a key per line, Flet's diff matched them by position, so a
new game on top gave every older line the texts of the line that had stood above it: a patch growing
with the sheet (1159 bytes for the first game of a Durchgang, 6296 for its twentieth) and every line
laid out again in the browser. Keyed by its entry, each line keeps its place in the diff."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest
from flet.controls.object_patch import ObjectPatch

from screens.sheet_screen import listed_lines
from screens.sheet_state import SheetState
from storage import SheetStore

from .test_app_state import watten_sheet


def listed(state: SheetState) -> ft.Column:
    return ft.Column(controls=listed_lines(state, lambda entry: None))


def patch(before: ft.Column, after: ft.Column) -> list[dict[str, Any]]:
    """The operations Flet sends for a screen rebuilt from ``before`` to ``after`` (a component's render)."""
    ops, _, _ = ObjectPatch.from_diff(before, after, control_cls=ft.BaseControl, frozen=True)
    return ops.patch


@pytest.fixture
def state(tmp_path: Path) -> SheetState:
    store = SheetStore(tmp_path / "store", device="Testhandy")
    opened = SheetState(store, watten_sheet(store))
    opened.load()
    for value in (2, 3, 2, 4, 3, 2):
        assert opened.submit("game", {"winner": "A" if value % 2 else "B", "value": value})
    return opened


def test_a_new_game_sends_its_line_alone(state: SheetState) -> None:
    before = listed(state)
    assert state.submit("game", {"winner": "B", "value": 2})
    ops = patch(before, listed(state))
    assert [(op["op"], op["path"]) for op in ops] == [("add", ["controls", 0])], ops
    assert ops[0]["value"].title.value == "7. Spiel"


def test_opening_a_line_changes_that_line_alone(state: SheetState) -> None:
    before = listed(state)
    state.toggle(3)
    ops = patch(before, listed(state))
    # the 3rd game stands 4th from the top (7 lines: 6 games, newest first); its details come in below it
    assert [(op["op"], op["path"]) for op in ops] == [("add", ["controls", 4])], ops


def test_a_correction_rewrites_the_corrected_line_and_the_stands_after_it(state: SheetState) -> None:
    before = listed(state)
    state.start_correction(5)
    state.reason = "falsch aufgeschrieben"
    assert state.submit("game", {"winner": "A", "value": 3})
    ops = patch(before, listed(state))
    changed = {op["path"][1] for op in ops}
    # lines of games 6 and 5 (the stand moves from game 5 on) and game 5's details opened below it
    assert changed <= {0, 1, 2}, ops


def test_the_sheet_played_last_moves_to_the_top_of_the_start_screen_as_one_move() -> None:
    """The start screen lists the sheets newest first: a sheet just played moves to the top. Keyed by the
    sheet, that is one move; by position, every card took the texts of the one above it."""
    from screens.app_state import SheetRow
    from screens.start_screen import _row

    rows = [
        SheetRow(id=f"s{n}", title="Watten", where=f"Tisch {n}", participants=f"Team {n}", glance=f"{n}:0", closed=False)
        for n in range(1, 5)
    ]

    def cards(order: list[SheetRow]) -> ft.Column:
        return ft.Column(controls=[_row(row, lambda sheet_id: None, None, []) for row in order])

    ops = patch(cards(rows), cards([rows[2], rows[0], rows[1], rows[3]]))
    assert [op["op"] for op in ops] == ["move"], ops
