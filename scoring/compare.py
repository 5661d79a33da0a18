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

from pydantic import Field

from .engine import Line
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


def _games(sheet: Sheet) -> list[Line]:
    score = find_ruleset(sheet.ruleset.id).score(sheet)
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
    names = {p.key: p.name for p in a.participants}
    games_a, games_b = _games(a), _games(b)
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
