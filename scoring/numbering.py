"""Games numbered as the players count them, whatever the log holds.

The log numbers every entry: games, but also corrections, Streichungen ("Letztes Spiel
zurücknehmen") and the close. A player counts the games on the sheet: "7. Spiel" is the seventh
game that still counts. ``numbering`` maps each log entry to what the sheet calls it: a game that
counts gets its number; an event that is no game (a Strafe, the Zeitlimit, a Bummerl from the
paper), a struck game and the close are named as what they are, next to the game they follow.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .engine import Line, RuleViolation, Score, effective_entries
from .messages import kind_label
from .model import CLOSE, CORRECTION, VOID, Entry, Sheet
from .registry import find_ruleset


@dataclass(frozen=True, slots=True)
class Numbered:
    """What one log entry is on the sheet, as a player says it (a plain frozen value: one is made for
    every entry of every sheet a comparison, the statistics or the sheet screen numbers; a pydantic
    model validated each of them again, a third of a host's tally, issue 24)."""

    entry: int
    """The entry's number in the log (1-based)."""
    game: int | None
    """The game's number as the players count it; ``None`` for what is no game that counts."""
    label: str
    """ "7. Spiel", "7. Gehen", "Strafe nach dem 7. Spiel", "Gestrichen: Spiel nach dem 6. Spiel", "Abschluss"."""


def _after(count: int) -> str:
    return f" nach dem {count}. Spiel" if count else " vor dem 1. Spiel"


def numbering(entries: Sequence[Entry], game_kinds: Collection[str]) -> dict[int, Numbered]:
    """Every game, event, struck game and close of the log, keyed by entry number (corrections and
    Streichungen themselves are not lines: they show on the line they change).

    ``game_kinds``: the entry kinds the ruleset counts as games (``Ruleset.game_kinds``). A corrected
    entry counts with its latest kind; a struck one does not count."""
    try:
        effective = {e.number: e.kind for e in effective_entries(entries)}
    except RuleViolation:  # a broken trail: name no entry rather than call every game struck
        return {}
    numbered: dict[int, Numbered] = {}
    games = 0
    for number, entry in enumerate(entries, start=1):
        if entry.kind in (CORRECTION, VOID):
            continue
        kind = effective.get(number)
        if kind is None:  # struck out
            numbered[number] = Numbered(entry=number, game=None, label=f"Gestrichen: {kind_label(entry.kind)}{_after(games)}")
        else:
            numbered[number], games = _named(number, kind, games, game_kinds)
    return numbered


def _named(number: int, kind: str, games: int, game_kinds: Collection[str]) -> tuple[Numbered, int]:
    """What the sheet calls log entry ``number`` that counts with ``kind`` after ``games`` counted
    games; and the count of games after it."""
    if kind == CLOSE:
        return Numbered(entry=number, game=None, label="Abschluss"), games
    game, games = game_number(kind, games, game_kinds)
    return Numbered(entry=number, game=game, label=line_label_of(kind, game, games)), games


def game_number(kind: str, games: int, game_kinds: Collection[str]) -> tuple[int | None, int]:
    """The game number the players give a line of ``kind`` after ``games`` counted games (``None``: an
    event or the close, which count none), and the count after it: the one count ``numbering``, the
    screen's lines and the comparison's ``Tally`` share."""
    if kind != CLOSE and kind in game_kinds:
        return games + 1, games + 1
    return None, games


def line_label_of(kind: str, game: int | None, games: int) -> str:
    """What a line of ``kind`` other than the close is called: game ``game`` ("8. Spiel"), or with
    ``game`` ``None`` an event after ``games`` counted games ("Bscheißn nach dem 6. Spiel")."""
    if game is not None:
        return f"{game}. {kind_label(kind)}"
    return f"{kind_label(kind)}{_after(games)}"


def line_names(lines: Sequence[Line], game_kinds: Collection[str]) -> list[Numbered]:
    """What ``numbering`` calls the entry of each of a score's ``lines``, in their order, read from the
    lines themselves (each an effective entry, in the log's order, with its latest kind) instead of
    resolving the log again: the comparison names every line of every sheet a host takes (issue 24)."""
    names = []
    games = 0
    for line in lines:
        named, games = _named(line.entry, line.kind, games, game_kinds)
        names.append(named)
    return names


def line_label(called: Mapping[int, Numbered], entry: int) -> str:
    """What ``numbering`` calls log entry ``entry`` ("8. Spiel"); where it names nothing (a broken
    trail), the entry's place in the log ("Eintrag 27"), the only number there is."""
    named = called.get(entry)
    return named.label if named is not None else f"Eintrag {entry}"


def next_label(entries: Sequence[Entry], game_kinds: Collection[str], kind: str) -> str:
    """What a new entry of ``kind`` appended to the log will be called ("26. Spiel")."""
    games = sum(1 for n in numbering(entries, game_kinds).values() if n.game is not None)
    if kind == CLOSE:
        return "Abschluss"
    if kind in game_kinds:
        return f"{games + 1}. {kind_label(kind)}"
    return f"{kind_label(kind)}{_after(games)}"


def entry_label(entries: Sequence[Entry], game_kinds: Collection[str], entry: int, kind: str | None = None) -> str | None:
    """What the sheet calls log entry ``entry`` ("7. Spiel", "Strafe nach dem 6. Spiel"); a
    correction or Streichung is called what it is; an entry one past the log is a new entry of
    ``kind`` ("26. Spiel"). ``None`` where the log itself is broken (its raw number is all there is)."""
    if 1 <= entry <= len(entries):
        if entries[entry - 1].kind in (CORRECTION, VOID):  # the trail itself is wrong: its place in the file
            return f"{'Korrektur' if entries[entry - 1].kind == CORRECTION else 'Streichung'} (Eintrag {entry})"
        named = numbering(entries, game_kinds).get(entry)
        return named.label if named is not None else None
    if entry == len(entries) + 1:
        return next_label(entries, game_kinds, kind) if kind is not None else "Neuer Eintrag"
    return None


def refusal_text(violation: RuleViolation, entries: Sequence[Entry], game_kinds: Collection[str], kind: str | None = None) -> str:
    """A refusal as the player reads it: the entry it names is called by its game number ("7. Spiel:
    Regel 8: …"), not its log number; a new entry of ``kind`` by the number it would get."""
    if violation.entry is None:
        return str(violation)
    where = violation.where or entry_label(entries, game_kinds, violation.entry, kind) or f"Eintrag {violation.entry}"
    return f"{where}: {violation.rule}: {violation.message}"


def named(
    violation: RuleViolation, entries: Sequence[Entry], game_kinds: Collection[str], kind: str | None = None
) -> RuleViolation:
    """``violation`` with its entry named as the players count the games, so ``str()`` reads
    "7. Spiel: Regel 8: …" wherever it is shown (the CLI, the host's replies, the desk)."""
    if violation.entry is None:
        return violation
    return violation.named(entry_label(entries, game_kinds, violation.entry, kind))


def score_sheet(sheet: Sheet) -> Score:
    """Score ``sheet`` with the ruleset it names; a refusal names its entry as the players count the games."""
    ruleset = find_ruleset(sheet.ruleset.id)
    try:
        return ruleset.score(sheet)
    except RuleViolation as violation:
        raise named(violation, sheet.entries, ruleset.counted_kinds(sheet)) from None
