"""The comparison of the two sheets of one table: do both teams' Tischlisten agree, game by game?

Where each team writes its own sheet (Watten, Regel 5: "Jede Mannschaft führt eine eigene
Tischliste"), the organizer needs to know whether the two agree and, if not, where they first
part. ``compare_sheets(a, b)`` is a pure function of the two sheets: it scores both with their
ruleset (corrections and voids resolved, so a game corrected on one sheet and written right the
first time on the other counts as the same game) and compares the points each game gave each
participant.

``first_difference`` is the k-th counting line of a sheet after corrections and voids, counted
from 1 (the close is not a game); the message names that line as the players count it on the sheet
(``scoring.numbering``: "8. Spiel", "Strafe nach dem 7. Spiel"), as the phone's Tischliste does, never
by its place in the log or among the lines.
Participants are matched by their key across sheets (the Startnummer, else the name), so two
phones that gave a team different ids still compare.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import Field

from .engine import Score
from .model import CLOSE, Frozen, Sheet
from .numbering import game_number, line_label_of
from .registry import find_ruleset


class Comparison(Frozen):
    """The verdict on two sheets of one table and round."""

    agree: bool
    """Both sheets have the same games with the same points for everyone."""
    games_compared: int = Field(ge=0)
    """Games compared one by one (the shorter sheet's count, or 0 if they cannot be compared)."""
    first_difference: int | None = Field(default=None, ge=1)
    """The first counting line (from 1) where the sheets differ, or where one sheet has a line the other
    lacks; ``message`` names it as the players count it ("8. Spiel")."""
    message: str
    """German, for the organizer: "Die Blätter stimmen überein (12 Spiele)" or where they differ."""


@dataclass(frozen=True, slots=True)
class Tally:
    """What the comparison needs of one scored sheet, and nothing more: the ruleset, who wrote it,
    the participants by key and the points of every game by participant key.

    Built of strings, ints, tuples and dicts of them, so a host that keeps one per stored revision
    keeps a few objects the garbage collector need not trace, not the sheet's and score's models
    (``tally(sheet, score)``; ``compare_tallies`` gives what ``compare_scored`` gives)."""

    ruleset: str
    writer: str | None
    """"Blatt von <Team>" when the sheet names who keeps it."""
    writer_name: str | None
    """The name of the participant who wrote it (``written_by``), else ``written_by`` itself."""
    participants: tuple[tuple[str, str], ...]
    """(key, name) of every participant, in the sheet's order."""
    keys: tuple[str, ...]
    """The participants' keys, sorted, each once: the order of every game's points."""
    games: tuple[tuple[int, ...], ...]
    """Per game (corrections and voids resolved, the close left out): the points of each of ``keys``."""
    kinds: tuple[str, ...]
    """Per line of ``games``: its entry kind (what the sheet calls it is made from it, ``label``)."""
    numbers: tuple[int | None, ...]
    """Per line of ``games``: its game number as the players count ("8. Spiel": 8), ``None`` for an event."""
    paper: bool
    """Typed at the desk from the paper's totals alone (a ``papier`` entry), not game by game."""
    totals: tuple[tuple[str, tuple[int, ...]], ...]
    """The numbers a paper Tischliste writes at its foot (``Ruleset.paper_totals``), each labelled,
    with the value of each of ``keys``: what a sheet is compared by when either side is ``paper``."""

    def label(self, index: int) -> str:
        """What the sheet calls line ``index`` (from 0) of ``games`` as the players count ("8. Spiel",
        "Bscheißn nach dem 6. Spiel"; ``numbering``). Made only where a comparison names a line: the
        labels of every line of every sheet a host takes were half of its tally (issue 24)."""
        before = next((number for number in reversed(self.numbers[:index]) if number is not None), 0)
        return line_label_of(self.kinds[index], self.numbers[index], before)

    def points(self, game: int) -> dict[str, int]:
        """Game ``game`` (from 0): points by participant key, in the sheet's order of participants."""
        return self._in_order(self.games[game])

    def total(self, index: int) -> dict[str, int]:
        """The ``index``-th of ``totals`` (from 0): values by participant key, in the sheet's order."""
        return self._in_order(self.totals[index][1])

    def _in_order(self, values: tuple[int, ...]) -> dict[str, int]:
        by_key = dict(zip(self.keys, values, strict=True))
        return {key: by_key[key] for key, _ in self.participants}


def tally(sheet: Sheet, score: Score) -> Tally:
    """The comparison's view of ``sheet`` scored as ``score`` (which must be its ruleset's ``score(sheet)``)."""
    key_of = {p.id: p.key for p in sheet.participants}
    keys = tuple(sorted(set(key_of.values())))
    ruleset = find_ruleset(sheet.ruleset.id)
    place = {pid: keys.index(key) for pid, key in key_of.items()}  # where each participant's points go
    empty = [0] * len(keys)

    def by_key(points: Mapping[str, int]) -> tuple[int, ...]:
        """``points`` (by participant id) in the order of ``keys``; 0 for a key without points."""
        row = empty.copy()
        for pid, value in points.items():
            row[place[pid]] = value
        return tuple(row)

    counted = ruleset.counted_kinds(sheet)
    games: list[tuple[int, ...]] = []
    kinds: list[str] = []
    numbers: list[int | None] = []
    played = 0  # the games as the players count them (``numbering``)
    for line in score.lines:
        kind = line.kind
        if kind != CLOSE:
            games.append(by_key(line.points))
            kinds.append(kind)
            number, played = game_number(kind, played, counted)
            numbers.append(number)
    totals = [(label, by_key(points)) for label, points in ruleset.paper_totals(sheet, score)]
    return Tally(
        ruleset=sheet.ruleset.id,
        writer=_writer(sheet, None),
        writer_name=sheet.writer_name,
        participants=tuple((p.key, p.name) for p in sheet.participants),
        keys=keys,
        games=tuple(games),
        kinds=tuple(kinds),
        numbers=tuple(numbers),
        paper=ruleset.is_paper_totals(score),
        totals=tuple(totals),
    )


def _writer(sheet: Sheet, fallback: str | None) -> str | None:
    """'Blatt von <Team>' when the sheet names who keeps it, else the fallback."""
    who = sheet.context.written_by
    if who is None:
        return fallback
    for p in sheet.participants:
        if who in (p.id, str(p.seat)):
            return f"Blatt von {p.name}"
    return f"Blatt von {who}"


def _describe(points: Mapping[str, int], names: Mapping[str, str]) -> str:
    shown = [f"{names[key]} {value:+d}" for key, value in points.items() if value]
    return ", ".join(shown) if shown else "keine Punkte"


def _at(side: Tally, index: int) -> str:
    """ "beim 8. Spiel", "beim 3. Gehen", "bei Bscheißn nach dem 6. Spiel": line ``index`` (from 0) of ``side``."""
    return f"{'beim' if side.numbers[index] is not None else 'bei'} {side.label(index)}"


def _where(a: Tally, b: Tally, index: int) -> str:
    """Line ``index`` (from 0) as the players count it, on the sheet that has it; where both sheets have
    it and call it differently (a game on one, a Bscheißn on the other), both names."""
    if index >= len(a.games):
        return _at(b, index)
    if index < len(b.games) and b.label(index) != a.label(index):
        return f"{_at(a, index)} ({b.writer or 'zweites Blatt'}: {b.label(index)})"
    return _at(a, index)


def _played(side: Tally, lines: int | None = None) -> int:
    """The games (as the players count them, events left out) among the first ``lines`` lines."""
    return sum(1 for number in side.numbers[:lines] if number is not None)


def _count(n: int) -> str:
    return "1 Spiel" if n == 1 else f"{n} Spiele"


def compare_sheets(a: Sheet, b: Sheet) -> Comparison:
    """Compare two sheets of one table game by game (Regel 5: each team keeps its own list).

    Raises ``RuleViolation`` (a ``ValueError``) if either sheet breaks its ruleset; the host
    only compares sheets it has validated.
    """
    if a.ruleset.id != b.ruleset.id:
        return _mismatch(a.ruleset.id, _writer(a, None), b.ruleset.id, _writer(b, None))
    ruleset = find_ruleset(a.ruleset.id)
    return compare_scored(a, ruleset.score(a), b, ruleset.score(b))


def compare_scored(a: Sheet, score_a: Score, b: Sheet, score_b: Score) -> Comparison:
    """``compare_sheets`` for sheets already scored (``score_x`` must be ``score(x)``): the host
    scores every arriving sheet once to validate it and need not score it again to compare."""
    return compare_tallies(tally(a, score_a), tally(b, score_b))


def _labels(writer_a: str | None, writer_b: str | None) -> tuple[str, str]:
    label_a, label_b = writer_a or "erstes Blatt", writer_b or "zweites Blatt"
    if label_a == label_b:
        label_a, label_b = f"{label_a} (1)", f"{label_b} (2)"
    return label_a, label_b


def _mismatch(ruleset_a: str, writer_a: str | None, ruleset_b: str, writer_b: str | None) -> Comparison:
    label_a, label_b = _labels(writer_a, writer_b)
    return Comparison(
        agree=False,
        games_compared=0,
        message=f"Die Blätter sind nicht vergleichbar: {label_a} zählt nach '{ruleset_a}', {label_b} nach '{ruleset_b}'",
    )


def compare_tallies(a: Tally, b: Tally) -> Comparison:
    """``compare_scored`` over the tallies of the two scored sheets (``tally``)."""
    if a.ruleset != b.ruleset:
        return _mismatch(a.ruleset, a.writer, b.ruleset, b.writer)
    label_a, label_b = _labels(a.writer, b.writer)
    if a.keys != b.keys:
        names_a = ", ".join(name for _, name in a.participants)
        names_b = ", ".join(name for _, name in b.participants)
        return Comparison(
            agree=False,
            games_compared=0,
            message=f"Die Blätter sind nicht vergleichbar: {label_a} hat {names_a}, {label_b} hat {names_b}",
        )
    names = dict(a.participants)
    if a.paper or b.paper:
        return _compare_totals(a, label_a, b, label_b, names)
    games_a, games_b = a.games, b.games
    compared = min(len(games_a), len(games_b))
    for number, (game_a, game_b) in enumerate(zip(games_a, games_b, strict=False), start=1):
        if game_a != game_b:
            points_a, points_b = a.points(number - 1), b.points(number - 1)
            return Comparison(
                agree=False,
                games_compared=compared,
                first_difference=number,
                message=(
                    f"Unterschied {_where(a, b, number - 1)}: {label_a}: {_describe(points_a, names)}; "
                    f"{label_b}: {_describe(points_b, names)}"
                ),
            )
    if len(games_a) != len(games_b):
        (longer, long_side), (shorter, short_side) = sorted(((label_a, a), (label_b, b)), key=lambda s: -len(s[1].games))
        played = _played(short_side)
        if played == 0:
            same = "noch keines"
        elif played == 1:
            same = "1; das erste stimmt überein"
        else:
            same = f"{played}; die ersten {played} stimmen überein"
        return Comparison(
            agree=False,
            games_compared=compared,
            first_difference=compared + 1,
            message=f"Unterschied {_where(a, b, compared)}: {longer} hat {_count(_played(long_side))}, {shorter} {same}",
        )
    return Comparison(agree=True, games_compared=compared, message=f"Die Blätter stimmen überein ({_count(compared)})")


def _compare_totals(a: Tally, label_a: str, b: Tally, label_b: str, names: Mapping[str, str]) -> Comparison:
    """A paper Tischliste typed from its totals alone has no games to compare: both sheets are compared
    by the numbers the paper writes at its foot (``Ruleset.paper_totals``: each Bummerl's stand, the
    Spielpunkte and Tischpunkte, the points), in order, naming the first that differs."""
    for index, ((what_a, values_a), (what_b, values_b)) in enumerate(zip(a.totals, b.totals, strict=False)):
        if what_a != what_b or values_a != values_b:
            return Comparison(
                agree=False,
                games_compared=0,
                message=(
                    f"Unterschied bei {what_a}: {label_a}: {_stand(a.total(index), names)}; "
                    f"{label_b}: {_stand(b.total(index), names)}"
                ),
            )
    if len(a.totals) != len(b.totals):
        longer, shorter = (label_a, label_b) if len(a.totals) > len(b.totals) else (label_b, label_a)
        missing = (a.totals if len(a.totals) > len(b.totals) else b.totals)[min(len(a.totals), len(b.totals))][0]
        return Comparison(
            agree=False, games_compared=0, message=f"Unterschied bei {missing}: {longer} hat es, {shorter} noch nicht"
        )
    shown = ", ".join(label for label, _ in a.totals)
    return Comparison(agree=True, games_compared=0, message=f"Die Blätter stimmen in den Summen überein ({shown})")


def _stand(points: Mapping[str, int], names: Mapping[str, str]) -> str:
    return ", ".join(f"{names.get(key, key)} {value}" for key, value in points.items())
