"""Issue 22 without a browser: the Doppelkopf Strafe's "Wer?" names whole at 360 and 412 px, at every
text size, and the sheet's lines not cut with "…" at a large text size."""

from __future__ import annotations

import pytest

from screens.doppelkopf_panel import grid_fit
from screens.looks import SMALL, lines_of, room_of
from screens.settings_state import TEXT_SCALE

SURVEY = ["Dieter Schwarzenberger", "Annemarie Huber", "Bartholomäus Lechner", "Maximilian Oberhuber"]


@pytest.mark.parametrize("scale", TEXT_SCALE.values())
def test_long_names_are_drawn_whole_in_their_share(scale: float) -> None:
    share, two_lines = grid_fit(SURVEY, scale)
    # four to a row broke "Diet|er", "Barth|olom" and cut "Maxi|milia…" (issue 22)
    assert share > 3
    room = room_of(share, scale)
    for name in SURVEY:
        if two_lines:
            assert lines_of(name, room * SMALL) <= 2, name
        else:
            assert len(name) <= room, name


def test_the_grid_is_as_narrow_as_the_names_allow() -> None:
    assert grid_fit(SURVEY, 1.0) == (6, True)  # two to a row, "Dieter" over "Schwarzenberger"
    assert grid_fit(SURVEY, 1.4)[0] == 12
    assert grid_fit(["Anna", "Bert", "Carl", "Dora"], 1.0) == (3, False)
    assert grid_fit(["Annemarie", "Bert", "Carl", "Dora"], 1.0) == (6, False)
