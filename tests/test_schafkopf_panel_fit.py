"""Issue 22: every choice label of the Schafkopf panel goes somewhere whole on a 360 px phone at every text
size (``screens.schafkopf_panel._fit``): before, half a row broke "Dieter Schwar|zenberger" and cut
"Schnei…", "Sch…" (Schellen), "Falsches …" and the quarter-row "Farbw…"."""

from __future__ import annotations

import pytest

from scoring.schafkopf import FARBNAME
from screens.looks import SMALL, lines_of, room_of
from screens.schafkopf_draft import FEHLER_ARTEN, FEHLER_FAELLE, SPIEL_LABEL, STUFEN, stufe_label
from screens.schafkopf_panel import Fit, _fit, _paired, group_fits
from screens.settings_state import TEXT_SCALE

NAMES = ["Maximilian Oberhuber", "Dieter Schwarzenberger", "Bartholomäus Lechner", "Annemarie Huber"]
GROUPS: dict[str, tuple[list[str], int, bool]] = {
    "spiel": (list(SPIEL_LABEL.values()), 16, False),
    "farbe": (list(FARBNAME.values()), 16, False),
    "stufe": ([stufe_label(s, won) for s in STUFEN for won in (True, False)], 16, False),
    "gewonnen": (["Gewonnen", "Verloren"], 20, True),
    "fehler_art": (list(FEHLER_ARTEN.values()), 17, True),
    "fehler_fall": (list(FEHLER_FAELLE.values()), 17, True),
}
"""Each group's labels, their size in px and whether the chosen one shows a tick, as the panel draws them."""


def _whole(label: str, fit: Fit, scale: float, size: int, tick: bool) -> bool:
    """Whether ``label`` is drawn whole where ``fit`` puts it: on one line, or two of the smaller font."""
    share, two = fit
    room = room_of(share, scale, size=size, tick=tick)
    return lines_of(label, room * SMALL) <= 2 if two else len(label) <= room


@pytest.mark.parametrize("scale", TEXT_SCALE.values())
@pytest.mark.parametrize("group", GROUPS)
def test_each_group_of_choices_shares_one_layout_that_holds_every_label(group: str, scale: float) -> None:
    labels, size, tick = GROUPS[group]
    fit = group_fits(scale)[group]
    assert [label for label in labels if not _whole(label, fit, scale, size, tick)] == []


@pytest.mark.parametrize("scale", TEXT_SCALE.values())
def test_no_name_is_broken_inside_a_word(scale: float) -> None:
    fits = _paired(NAMES, scale)
    assert [n for n, fit in zip(NAMES, fits, strict=True) if not _whole(n, fit, scale, 17, True)] == []
    # the rows fill up: two halves side by side, a name alone takes the whole row, both halves as tall
    row = 0
    for i, (share, two) in enumerate(fits):
        row += share
        if share == 6 and row % 12:
            assert fits[i + 1] == (6, two)
    assert row % 12 == 0


def test_what_was_cut_at_360_px() -> None:
    normal, large = group_fits(1.0), group_fits(1.4)
    assert normal["spiel"] == (3, False)  # four to a row at "Normal" as before, "Farbwenz" whole
    assert large["stufe"] == (4, True)  # "Schnei…" in a third at 16 px: a smaller font
    assert large["farbe"][0] == 6  # "Sch…" (Schellen) in a quarter
    assert normal["fehler_art"] == (6, True)  # "Falsches Auss…" chosen: two lines
    assert _paired(NAMES, 1.0) == [(6, True)] * 4  # "Dieter Schwarze|nberger": two lines, half a row as before
    assert [share for share, _ in _paired(NAMES, 1.4)] == [12, 12, 12, 12]  # "Bartholomäu|s Lechner"


def test_a_word_longer_than_half_a_row_takes_the_whole_row() -> None:
    assert _fit(["Dieter Schwarzenberger"], 1.4) == (12, False)
    assert _fit(["Anna Brandl"], 1.4) == (6, True)
    assert _paired(["Anna Brandl", "Dieter Schwarzenberger", "Eva Ott"], 1.4) == [(12, False), (12, False), (12, False)]
