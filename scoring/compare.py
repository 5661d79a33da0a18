"""The comparison of the two sheets of one table: do both teams' Tischlisten agree, game by game?

Where each team writes its own sheet (Watten, Regel 5: "Jede Mannschaft führt eine eigene
Tischliste"), the organizer needs to know whether the two agree and, if not, where they first
part. ``compare_sheets(a, b)`` is a pure function of the two sheets: it scores both with their
ruleset (corrections and voids resolved, so a game corrected on one sheet and written right the
first time on the other counts as the same game) and compares the points each game gave each
participant.

"Spiel k" is the k-th counting line of a sheet after corrections and voids, counted from 1
(the close is not a game). Without corrections it is the entry's number on the sheet.
Participants are matched by their key across sheets (the Startnummer, else the name), so two
phones that gave a team different ids still compare.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from .engine import Line, Ruleset, Score
from .model import CLOSE, Frozen, Sheet
from .registry import find_ruleset


class Comparison(Frozen):
    """The verdict on two sheets of one table and round."""

    agree: bool
    """Both sheets have the same games with the same points for everyone."""
    games_compared: int = Field(ge=0)
    """Games compared one by one (the shorter sheet's count, or 0 if they cannot be compared)."""
    first_difference: int | None = Field(default=None, ge=1)
    """The first game (from 1) where the sheets differ, or where one sheet has a game the other lacks."""
    message: str
    """German, for the organizer: "Die Blätter stimmen überein (12 Spiele)" or where they differ."""


def _games(score: Score) -> list[Line]:
    return [line for line in score.lines if line.kind != CLOSE]


def _writer(sheet: Sheet, fallback: str) -> str:
    """'Blatt von <Team>' when the sheet names who keeps it, else the fallback."""
    who = sheet.context.written_by
    if who is None:
        return fallback
    for p in sheet.participants:
        if who in (p.id, str(p.seat)):
            return f"Blatt von {p.name}"
    return f"Blatt von {who}"


def _by_key(sheet: Sheet, points: Mapping[str, int]) -> dict[str, int]:
    """Points keyed by participant key (Startnummer or name) instead of the sheet's own ids."""
    return {sheet.participant(pid).key: value for pid, value in points.items()}


def _describe(points: Mapping[str, int], names: Mapping[str, str]) -> str:
    shown = [f"{names[key]} {value:+d}" for key, value in points.items() if value]
    return ", ".join(shown) if shown else "keine Punkte"


def _count(n: int) -> str:
    return "1 Spiel" if n == 1 else f"{n} Spiele"


def compare_sheets(a: Sheet, b: Sheet) -> Comparison:
    """Compare two sheets of one table game by game (Regel 5: each team keeps its own list).

    Raises ``RuleViolation`` (a ``ValueError``) if either sheet breaks its ruleset; the host
    only compares sheets it has validated.
    """
    if a.ruleset.id != b.ruleset.id:
        return _compare(a, None, b, None)
    ruleset = find_ruleset(a.ruleset.id)
    return _compare(a, ruleset.score(a), b, ruleset.score(b))


def compare_scored(a: Sheet, score_a: Score, b: Sheet, score_b: Score) -> Comparison:
    """``compare_sheets`` for sheets already scored (``score_x`` must be ``score(x)``): the host
    scores every arriving sheet once to validate it and need not score it again to compare."""
    return _compare(a, score_a, b, score_b)


def _compare(a: Sheet, score_a: Score | None, b: Sheet, score_b: Score | None) -> Comparison:
    label_a = _writer(a, "erstes Blatt")
    label_b = _writer(b, "zweites Blatt")
    if label_a == label_b:
        label_a, label_b = f"{label_a} (1)", f"{label_b} (2)"
    if a.ruleset.id != b.ruleset.id:
        return Comparison(
            agree=False,
            games_compared=0,
            message=f"Die Blätter sind nicht vergleichbar: {label_a} zählt nach '{a.ruleset.id}', {label_b} nach '{b.ruleset.id}'",
        )
    keys_a = {p.key for p in a.participants}
    keys_b = {p.key for p in b.participants}
    if keys_a != keys_b:
        names_a = ", ".join(p.name for p in a.participants)
        names_b = ", ".join(p.name for p in b.participants)
        return Comparison(
            agree=False,
            games_compared=0,
            message=f"Die Blätter sind nicht vergleichbar: {label_a} hat {names_a}, {label_b} hat {names_b}",
        )
    assert score_a is not None and score_b is not None  # same ruleset: both were scored
    names = {p.key: p.name for p in a.participants}
    ruleset = find_ruleset(a.ruleset.id)
    if ruleset.is_paper_totals(score_a) or ruleset.is_paper_totals(score_b):
        return _compare_totals(ruleset, (a, score_a, label_a), (b, score_b, label_b), names)
    games_a, games_b = _games(score_a), _games(score_b)
    compared = min(len(games_a), len(games_b))
    for number, (line_a, line_b) in enumerate(zip(games_a, games_b, strict=False), start=1):
        points_a, points_b = _by_key(a, line_a.points), _by_key(b, line_b.points)
        if points_a != points_b:
            return Comparison(
                agree=False,
                games_compared=compared,
                first_difference=number,
                message=(
                    f"Unterschied bei Spiel {number}: {label_a}: {_describe(points_a, names)}; "
                    f"{label_b}: {_describe(points_b, names)}"
                ),
            )
    if len(games_a) != len(games_b):
        longer, shorter = (label_a, label_b) if len(games_a) > len(games_b) else (label_b, label_a)
        if compared == 0:
            same = "noch keines"
        elif compared == 1:
            same = "1; das erste stimmt überein"
        else:
            same = f"{compared}; die ersten {compared} stimmen überein"
        return Comparison(
            agree=False,
            games_compared=compared,
            first_difference=compared + 1,
            message=(
                f"Unterschied bei Spiel {compared + 1}: {longer} hat {_count(max(len(games_a), len(games_b)))}, {shorter} {same}"
            ),
        )
    return Comparison(agree=True, games_compared=compared, message=f"Die Blätter stimmen überein ({_count(compared)})")


def _compare_totals(
    ruleset: Ruleset[Any, Any], first: tuple[Sheet, Score, str], second: tuple[Sheet, Score, str], names: Mapping[str, str]
) -> Comparison:
    """A paper Tischliste typed from its totals alone has no games to compare: both sheets are compared
    by the numbers the paper writes at its foot (``Ruleset.paper_totals``: each Bummerl's stand, the
    Spielpunkte and Tischpunkte, the points), in order, naming the first that differs."""
    (a, score_a, label_a), (b, score_b, label_b) = first, second
    totals_a = [(label, _by_key(a, points)) for label, points in ruleset.paper_totals(a, score_a)]
    totals_b = [(label, _by_key(b, points)) for label, points in ruleset.paper_totals(b, score_b)]
    for (what_a, points_a), (what_b, points_b) in zip(totals_a, totals_b, strict=False):
        if what_a != what_b or points_a != points_b:
            return Comparison(
                agree=False,
                games_compared=0,
                message=f"Unterschied bei {what_a}: {label_a}: {_stand(points_a, names)}; {label_b}: {_stand(points_b, names)}",
            )
    if len(totals_a) != len(totals_b):
        longer, shorter = (label_a, label_b) if len(totals_a) > len(totals_b) else (label_b, label_a)
        missing = (totals_a if len(totals_a) > len(totals_b) else totals_b)[min(len(totals_a), len(totals_b))][0]
        return Comparison(
            agree=False, games_compared=0, message=f"Unterschied bei {missing}: {longer} hat es, {shorter} noch nicht"
        )
    shown = ", ".join(label for label, _ in totals_a)
    return Comparison(agree=True, games_compared=0, message=f"Die Blätter stimmen in den Summen überein ({shown})")


def _stand(points: Mapping[str, int], names: Mapping[str, str]) -> str:
    return ", ".join(f"{names.get(key, key)} {value}" for key, value in points.items())
