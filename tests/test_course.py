"""The course chart's data (``scoring/course.py``) against numbers worked out by hand from the example sheets."""

from __future__ import annotations

import json
from pathlib import Path

from scoring import Sheet
from scoring.course import Band, Boundary, Level, Mark, course

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
