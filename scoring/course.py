"""The course of the game: what the sheet's chart draws, per game the running count per team or player.

Nothing here scores: the numbers are the ruleset's own lines (``Ruleset.score``), the markers are
what the ruleset says of its state (``Ruleset.stage``: the Bummerl boundaries) and of its options and
result (``Ruleset.chart_marks``: lines, zones and marked games).

- The value of a point is what the sheet's list shows on that line: the open Bummerl's ``stand``
  where the ruleset keeps one (Watten, Schnapsen), else the running ``totals``.
- Watten: the Bummerl boundaries (Regel 1) and the gspannt zone (Regel 8: 13 and 14 of 15, or
  ``target - 2`` and ``target - 1``), and the target.
- Schnapsen: the Bummerl boundaries (a Schneider or Retourschneider named on its boundary), the
  target and the Schneider line (a side still on 0 when the Bummerl ends is Schneider; with
  ``countdown`` the lines are swapped: 0 is the target, 24 the Schneider line).
- Doppelkopf: the Pflichtsolo games (Regel 6), on the game of each player's Pflichtsolo.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .engine import Ruleset, Score
from .model import CLOSE, Frozen, Sheet
from .numbering import line_label, numbering
from .registry import find_ruleset


class Series(Frozen):
    """One team's or player's line through the games."""

    participant: str
    name: str
    values: tuple[int, ...]
    """One value per point of the course (``Course.points``)."""


class Point(Frozen):
    """One game or event of the sheet on the chart's x axis."""

    x: int
    """1 for the first line of the sheet, 2 for the second, ..."""
    entry: int
    """The log entry the point stands for: its explanation is that line's."""
    game: int | None = None
    """The game's number as the players count it (``scoring.numbering``); ``None`` for an event (a Strafe)."""
    label: str = ""
    """What the sheet calls the line: "7. Spiel", "Strafe nach dem 7. Spiel"."""


class Boundary(Frozen):
    """A vertical line after game ``after``: a Bummerl ended there."""

    after: int
    label: str


class Level(Frozen):
    """A horizontal line (the target, the Schneider line)."""

    value: int
    label: str


class Band(Frozen):
    """A horizontal zone, ``low`` to ``high`` (the gspannt zone)."""

    low: int
    high: int
    label: str


class Mark(Frozen):
    """A game picked out on the chart (a Pflichtsolo)."""

    x: int
    participant: str
    label: str


class Course(Frozen):
    """Everything the chart of one sheet draws."""

    measure: str
    """What the y axis counts, in German ("Stand im Bummerl", "Summe")."""
    points: tuple[Point, ...]
    series: tuple[Series, ...]
    boundaries: tuple[Boundary, ...] = ()
    levels: tuple[Level, ...] = ()
    bands: tuple[Band, ...] = ()
    marks: tuple[Mark, ...] = ()

    @property
    def low(self) -> int:
        """The lowest value anything on the chart reaches (0 at most)."""
        values = [v for s in self.series for v in s.values] + [lv.value for lv in self.levels] + [b.low for b in self.bands]
        return min([0, *values])

    @property
    def high(self) -> int:
        """The highest value anything on the chart reaches (0 at least)."""
        values = [v for s in self.series for v in s.values] + [lv.value for lv in self.levels] + [b.high for b in self.bands]
        return max([0, *values])

    def entry_at(self, x: int) -> int | None:
        """The log entry of the point at ``x``, if there is one."""
        return self.points[x - 1].entry if 1 <= x <= len(self.points) else None

    def label_at(self, x: int) -> str:
        """What the sheet calls the line of the point at ``x`` ("7. Spiel"), as the players count the games."""
        return self.points[x - 1].label if 1 <= x <= len(self.points) else ""


def course(sheet: Sheet, score: Score | None = None) -> Course:
    """The course of ``sheet`` as its ruleset scores it (``score``: that score, if already at hand)."""
    ruleset = find_ruleset(sheet.ruleset.id)
    score = score if score is not None else ruleset.score(sheet)
    kept = [(line, stage) for line, stage in zip(score.lines, ruleset.stages(sheet), strict=True) if line.kind != CLOSE]
    uses_stand = any(line.stand is not None for line, _ in kept)
    ids = sheet.participant_ids
    values: dict[str, list[int]] = {pid: [] for pid in ids}
    points: list[Point] = []
    boundaries: list[Boundary] = []
    previous_stage = 0
    last: dict[str, int] = dict.fromkeys(ids, 0)
    history = _bummerl_history(score.result)
    called = numbering(sheet.entries, ruleset.counted_kinds(sheet))
    for x, (line, stage) in enumerate(kept, start=1):
        shown = line.stand if line.stand is not None else (last if uses_stand else line.totals)
        for pid in ids:
            values[pid].append(int(shown.get(pid, 0)))
        last = dict.fromkeys(ids, 0) if stage is not None and stage > previous_stage else dict(shown)
        if stage is not None and stage > previous_stage:
            for number in range(previous_stage + 1, stage + 1):
                boundaries.append(Boundary(after=x, label=_boundary_label(number, history, sheet)))
            previous_stage = stage
        name = called.get(line.entry)
        points.append(Point(x=x, entry=line.entry, game=name.game if name else None, label=line_label(called, line.entry)))
    series = tuple(Series(participant=p.id, name=p.name, values=tuple(values[p.id])) for p in sheet.participants)
    base = Course(
        measure="Stand im Bummerl" if uses_stand else "Summe",
        points=tuple(points),
        series=series,
        boundaries=tuple(boundaries),
    )
    return base.model_copy(update=_markers(ruleset, sheet, score, base))


def _bummerl_history(result: BaseModel) -> list[Any]:
    """The ruleset's closed Bummerl in order (Watten ``bummerl``, Schnapsen ``history``), else none."""
    for name in ("history", "bummerl"):
        value = getattr(result, name, None)
        if isinstance(value, (list, tuple)):
            return list(value)
    return []


def _boundary_label(number: int, history: list[Any], sheet: Sheet) -> str:
    """ "Bummerl 2", and for Schnapsen who lost it as Schneider or Retourschneider."""
    label = f"Ende Bummerl {number}"
    if number - 1 < len(history):
        losers = getattr(history[number - 1], "losers", ())
        worse = [f"{sheet.participant(v.participant).name}: {v.art}" for v in losers if v.art != "Bummerl"]
        if worse:
            label += " (" + ", ".join(worse) + ")"
    return label


def _markers(ruleset: Ruleset[Any, Any], sheet: Sheet, score: Score, base: Course) -> dict[str, Any]:
    """The ruleset's lines, zones and marked games (``Ruleset.chart_marks``; see the module docstring)."""
    marks = ruleset.chart_marks(ruleset.options(sheet.ruleset.options), score.result)
    x_of = {point.entry: point.x for point in base.points}
    games = [
        Mark(x=x_of[entry], participant=pid, label=f"{what} {sheet.participant(pid).name}")
        for entry, pid, what in marks.games
        if entry in x_of
    ]
    return {
        "levels": tuple(Level(value=value, label=label) for value, label in marks.levels),
        "bands": tuple(Band(low=low, high=high, label=label) for low, high, label in marks.bands),
        "marks": tuple(sorted(games, key=lambda m: m.x)),
    }
