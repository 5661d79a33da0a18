"""The course chart's data (``scoring/course.py``) against numbers worked out by hand from the example sheets."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from scoring import Sheet
from scoring.course import Band, Boundary, Course, Level, Mark, Point, Series, course
from screens.course_chart import LEFT_AXIS, MARKER_ROOM, PLOT_HEIGHT, axes

from .conftest import ROOT

DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "docs" / "examples"


def sheet_of(path: Path) -> Sheet:
    """The sheet of an example file or of a test sheet (``{"sheet": ...}``)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return Sheet.model_validate(raw.get("sheet", raw))


def values(sheet: Sheet) -> dict[str, tuple[int, ...]]:
    return {s.participant: s.values for s in course(sheet).series}


def test_watten_regel_12_example_bummerl_stand_gspannt_zone_and_end() -> None:
    """A 4, B 3, A 5, B 5, A 4, A 2: 4:0, 4:3, 9:3, 9:8, 13:8 (A gspannt), 15:8 ends Bummerl 1."""
    sheet = sheet_of(DATA / "watten-turnier" / "regel-12-beispiel.json")
    chart = course(sheet)
    assert chart.measure == "Stand im Bummerl"
    assert values(sheet) == {"A": (4, 4, 9, 9, 13, 15), "B": (0, 3, 3, 8, 8, 8)}
    assert [p.entry for p in chart.points] == [1, 2, 3, 4, 5, 6]
    assert chart.boundaries == (Boundary(after=6, label="Ende Bummerl 1"),)
    assert chart.bands == (Band(low=13, high=14, label="gspannt (13/14)"),)
    assert chart.levels == (Level(value=15, label="Bummerl bei 15"),)
    assert (chart.low, chart.high) == (0, 15)


def test_watten_zone_follows_the_options() -> None:
    """A Bummerl to 18 (house rule): gspannt at 16 and 17; the same games end no Bummerl at 15:8."""
    sheet = sheet_of(DATA / "watten-turnier" / "regel-12-beispiel.json")
    sheet = sheet.model_copy(update={"ruleset": sheet.ruleset.model_copy(update={"options": {"target": 18}})})
    chart = course(sheet)
    assert chart.bands == (Band(low=16, high=17, label="gspannt (16/17)"),)
    assert chart.levels == (Level(value=18, label="Bummerl bei 18"),)
    assert values(sheet) == {"A": (4, 4, 9, 9, 13, 15), "B": (0, 3, 3, 8, 8, 8)}
    assert chart.boundaries == ()


def test_watten_durchgang_three_bummerl_with_a_correction_and_the_close() -> None:
    """docs/examples: Bummerl end after line 10 (A 15:11), 16 (B 15:4) and 25 (A 16:8); the close is
    no point; entry 5 (corrected by entry 26) keeps its place and number."""
    sheet = sheet_of(EXAMPLES / "watten-turnier.json")
    chart = course(sheet)
    assert len(chart.points) == 25
    assert [b.after for b in chart.boundaries] == [10, 16, 25]
    a, b = values(sheet)["A"], values(sheet)["B"]
    assert (a[9], b[9]) == (15, 11)
    assert (a[15], b[15]) == (4, 15)
    assert (a[24], b[24]) == (16, 8)
    assert chart.entry_at(5) == 5
    assert chart.entry_at(26) is None


def test_talonschnapsen_schneider_named_on_its_boundary() -> None:
    """Bummerl 3 ends 24:24:0: Hans Pichler is Schneider (2 Bummerl); the Schneider line is 0."""
    sheet = sheet_of(EXAMPLES / "talonschnapsen.json")
    chart = course(sheet)
    assert [b.label for b in chart.boundaries] == [
        "Ende Bummerl 1",
        "Ende Bummerl 2",
        "Ende Bummerl 3 (Hans Pichler: Schneider)",
    ]
    assert chart.levels == (Level(value=24, label="Bummerl bei 24"), Level(value=0, label="Schneider bei 0"))
    assert [s.values[-1] for s in chart.series] == [24, 24, 0]


def test_bauernschnapsen_countdown_swaps_target_and_schneider_line() -> None:
    """Counting down from 24: the stand is what a side still needs; 0 ends, 24 is Schneider."""
    sheet = sheet_of(DATA / "bauernschnapsen" / "countdown-24-auf-null.json")
    chart = course(sheet)
    assert values(sheet) == {"A": (15, 15, 3, 3, 1, 0), "B": (24, 18, 18, 15, 15, 15)}
    assert chart.levels == (Level(value=0, label="Bummerl bei 0"), Level(value=24, label="Schneider bei 24"))
    assert chart.boundaries == (Boundary(after=6, label="Ende Bummerl 1"),)


def test_doppelkopf_pflichtsolo_games_marked() -> None:
    """docs/examples: Bubensolo Carla (entry 3), Damensolo Anna (7), Trumpfsolo Dieter (10),
    Fleischloser Bert (12; corrected by 18); the Strafe (entry 5) is a point of its own."""
    sheet = sheet_of(EXAMPLES / "doppelkopf-turnier.json")
    chart = course(sheet)
    assert chart.measure == "Summe"
    assert chart.marks == (
        Mark(x=3, participant="p3", label="Pflichtsolo Carla Nowak"),
        Mark(x=7, participant="p1", label="Pflichtsolo Anna Huber"),
        Mark(x=10, participant="p4", label="Pflichtsolo Dieter Schulz"),
        Mark(x=12, participant="p2", label="Pflichtsolo Bert Krause"),
    )
    assert [p.entry for p in chart.points] == list(range(1, 18))
    assert chart.boundaries == chart.levels == chart.bands == ()
    # the running totals are the ruleset's: game 1 Re (Anna, Carla) wins 1 each
    assert [s.values[0] for s in chart.series] == [1, -1, 1, -1]
    assert [s.values[-1] for s in chart.series] == [35, 25, -29, -31]


def test_schafkopf_running_totals_without_markers() -> None:
    """Game 1: Anna with Carla win a Rufspiel: +1 +1 against -1 -1; the Serie ends +23 for Dieter."""
    sheet = sheet_of(EXAMPLES / "schafkopf-turnier.json")
    chart = course(sheet)
    assert chart.measure == "Summe"
    assert [s.values[0] for s in chart.series] == [1, -1, 1, -1]
    assert [s.values[-1] for s in chart.series] == [-3, -8, -12, 23]
    assert chart.boundaries == chart.levels == chart.bands == chart.marks == ()


def test_empty_sheet_has_an_empty_course() -> None:
    sheet = sheet_of(EXAMPLES / "watten-turnier.json").model_copy(update={"entries": ()})
    chart = course(sheet)
    assert chart.points == () and all(s.values == () for s in chart.series)
    assert chart.bands  # the zone is drawn from the first game on


def test_stages_follow_the_score_lines_one_to_one() -> None:
    """``Ruleset.stages``: the Bummerl closed after each line of the score; ``None`` without Bummerl."""
    from scoring import find_ruleset

    watten = sheet_of(EXAMPLES / "watten-turnier.json")
    stages = find_ruleset("watten-turnier").stages(watten)
    assert len(stages) == len(find_ruleset("watten-turnier").score(watten).lines)
    assert (stages[9], stages[10], stages[15], stages[-1]) == (1, 1, 2, 3)
    schafkopf = sheet_of(EXAMPLES / "schafkopf-turnier.json")
    assert set(find_ruleset("schafkopf-turnier").stages(schafkopf)) == {None}


def test_doppelkopf_points_are_named_as_the_players_count_the_games() -> None:
    """The Strafe (entry 5) is a point but no game: the games after it keep the players' count, and
    the Pflichtsolo marks are named by the game ("3. Spiel"), not the log entry."""
    chart = course(sheet_of(EXAMPLES / "doppelkopf-turnier.json"))
    assert [p.game for p in chart.points[:6]] == [1, 2, 3, 4, None, 5]
    assert chart.label_at(5).startswith("Strafe nach dem 4. Spiel")
    assert [chart.label_at(m.x) for m in chart.marks] == ["3. Spiel", "6. Spiel", "9. Spiel", "11. Spiel"]


#: The plot is narrowest at 360 px: the page's padding, the left axis and the right padding off.
NARROWEST_PLOT = 360 - 2 * 16 - LEFT_AXIS - 8
LABEL_HEIGHT = 14
"""An 11 px number's line."""
DIGIT_WIDTH = 7
"""An 11 px digit, generously."""


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json") if not p.stem.endswith(".score")))
def test_chart_axes_keep_numbers_apart_and_markers_off_the_axis(name: str) -> None:
    """Issue 22: on the Doppelkopf chart the left axis showed 42 over 40, and a Pflichtsolo square on the
    plot's lower edge covered the game number under it. Now: the left axis shows only multiples of its
    step, far enough apart; every point (and its square) keeps ``MARKER_ROOM`` pixels off the top and
    bottom edge; the game numbers along the bottom do not run into each other at 360 px."""
    data = course(sheet_of(EXAMPLES / f"{name}.json"))
    grid = axes(data)
    assert all(y % grid.step == 0 and grid.min_y <= y <= grid.max_y for y in grid.y_labels)
    heights = [grid.pixels(y) for y in grid.y_labels]
    assert all(b - a >= 2 * LABEL_HEIGHT for a, b in itertools.pairwise(heights)), heights
    for series in data.series:
        for value in series.values:
            assert grid.pixels(value) >= MARKER_ROOM - 1e-9 and PLOT_HEIGHT - grid.pixels(value) >= MARKER_ROOM - 1e-9
    assert MARKER_ROOM >= (11 + 2) / 2 + 2  # the square's half and its stroke, and a gap
    per_x = NARROWEST_PLOT / max(1, len(data.points))
    for (x1, t1), (x2, t2) in itertools.pairwise(grid.x_labels):
        assert (x2 - x1) * per_x >= (len(t1) + len(t2)) / 2 * DIGIT_WIDTH + 4, (t1, t2)
    assert [int(t) for _, t in grid.x_labels] == sorted({int(t) for _, t in grid.x_labels})


def test_a_range_ending_near_a_step_shows_no_extra_number() -> None:
    """A total of 42: the axis shows 0, 10, 20, 30, 40 and not 42 beside 40."""
    data = Course(
        measure="Summe",
        points=tuple(Point(x=x, entry=x, game=x, label=f"{x}. Spiel") for x in (1, 2, 3)),
        series=(Series(participant="a", name="A", values=(0, 20, 42)), Series(participant="b", name="B", values=(0, -5, -2))),
    )
    grid = axes(data)
    assert grid.y_labels == (0, 10, 20, 30, 40)
    assert grid.max_y > 42 and grid.min_y < -5
