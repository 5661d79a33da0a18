"""Statistics across the sheets on this phone, per team or player: pure functions of the stored sheets.

Every number comes from the sheet's own score (``Ruleset.score``): nothing is stored besides the
sheets, and nothing is counted twice in another way. How the figures are read:

- Who: a team or player is known by the name written on the sheet (case and spaces aside), with
  the Startnummer of the latest sheet shown beside it where it has one.
- Games: the lines of games played (a game, Gehen, Vergeben, Ausschaffen; not a Strafe, Zeitlimit,
  Bscheißn, Schmeißen or the close). Doppelkopf at a five-player table counts the games a player
  took part in, as the ruleset does (``result.spieler[...].spiele``).
- Won: a game line that gave the participant points (more than 0).
- Points: the sheet's totals (Watten: the points written; Schafkopf: Spielpunkte; ...).
- Bummerl: won and lost as the ruleset's result says (Watten, Schnapsen); Schneider: a Schnapsen
  Bummerl lost as Schneider or Retourschneider.
- Schafkopf: the games a player declared, by type (Rufspiel, Solo, Wenz, Farbwenz, each also as
  Tout), with how many he won. Doppelkopf: the solos a player played alone and won (a Hochzeit
  without partner counts as a solo, Regel 11).
- Best and worst game: the line with the most and the fewest points for the participant (Doppelkopf
  at a five-player table: among the games he played, i.e. with points other than 0), named as the
  players count the games on the sheet ("8. Spiel", ``scoring.numbering``), never by its log entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .doppelkopf_games import ist_solo
from .engine import Line, RuleViolation, Score, effective_entries
from .model import Participant, Sheet
from .numbering import Numbered, line_label, numbering, score_sheet
from .registry import find_ruleset

#: Line kinds that are games played (the rest are events: Strafe, Zeitlimit, Bscheißn, Schmeißen, close).
GAME_KINDS = frozenset({"game", "gehen", "vergeben", "ausschaffen"})
SCHAFKOPF_TYPES = {"rufspiel": "Rufspiel", "solo": "Solo", "wenz": "Wenz", "farbwenz": "Farbwenz"}


@dataclass(frozen=True, slots=True)
class GameRef:
    """One game of one sheet: where to find it and what it gave the participant."""

    points: int
    sheet: str
    """Sheet id."""
    entry: int
    """The entry's number in the sheet's log."""
    label: str
    """The game as the players count it on the sheet ("8. Spiel", "3. Gehen"; ``numbering``)."""
    day: date
    ruleset: str
    text: str
    """The game as the sheet's list summarises it (its first explanation)."""


@dataclass(frozen=True, slots=True)
class TypeCount:
    """Games of one type a player declared, and how many of them he won."""

    played: int = 0
    won: int = 0

    @property
    def share(self) -> float:
        """The share won, 0 to 1."""
        return self.won / self.played if self.played else 0.0

    def plus(self, other: TypeCount) -> TypeCount:
        return TypeCount(played=self.played + other.played, won=self.won + other.won)


@dataclass(frozen=True, slots=True)
class Figures:
    """What one participant did: on one sheet, or summed over many."""

    sheets: int = 0
    games: int = 0
    won: int = 0
    points: int = 0
    bummerl_won: int = 0
    bummerl_lost: int = 0
    schneider: int = 0
    types: Mapping[str, TypeCount] = field(default_factory=dict)
    solos: TypeCount = TypeCount()
    best: GameRef | None = None
    worst: GameRef | None = None

    def plus(self, other: Figures) -> Figures:
        """The figures of both (sheets, games, points ... added; the better best and the worse worst)."""
        types = dict(self.types)
        for name, count in other.types.items():
            types[name] = types.get(name, TypeCount()).plus(count)
        bests = [g for g in (self.best, other.best) if g is not None]
        worsts = [g for g in (self.worst, other.worst) if g is not None]
        return Figures(
            sheets=self.sheets + other.sheets,
            games=self.games + other.games,
            won=self.won + other.won,
            points=self.points + other.points,
            bummerl_won=self.bummerl_won + other.bummerl_won,
            bummerl_lost=self.bummerl_lost + other.bummerl_lost,
            schneider=self.schneider + other.schneider,
            types=dict(sorted(types.items())),
            solos=self.solos.plus(other.solos),
            best=max(bests, key=lambda g: g.points) if bests else None,
            worst=min(worsts, key=lambda g: g.points) if worsts else None,
        )


@dataclass(frozen=True, slots=True)
class Row:
    """The statistics of one team or player."""

    key: str
    name: str
    start_number: int | None
    figures: Figures


@dataclass(frozen=True, slots=True)
class Statistics:
    """The statistics over the sheets that pass the filter."""

    sheets: int
    rows: tuple[Row, ...]
    refused: tuple[str, ...] = ()
    """Sheets that could not be scored (a German line each): counted nowhere."""

    def row(self, name: str) -> Row:
        """The row of the participant called ``name``."""
        return next(r for r in self.rows if r.name == name)


@dataclass(frozen=True)
class DatedSheet:
    """A stored sheet with the day it was started on this phone."""

    sheet: Sheet
    day: date


@dataclass(frozen=True)
class Filter:
    """Which sheets count: ``rulesets`` (ids; empty: every one), from ``since`` to ``until`` inclusive."""

    rulesets: frozenset[str] = field(default_factory=frozenset)
    since: date | None = None
    until: date | None = None

    def admits(self, ruleset: str, day: date) -> bool:
        if self.rulesets and ruleset not in self.rulesets:
            return False
        if self.since is not None and day < self.since:
            return False
        return self.until is None or day <= self.until


def participant_key(participant: Participant) -> str:
    """Who across sheets: the name as written (case and outer spaces aside); the Startnummer is shown beside it."""
    return " ".join(participant.name.split()).casefold()


def sheet_figures(dated: DatedSheet, score: Score) -> dict[str, Figures]:
    """Per participant id: the figures of one sheet, read from its ``score`` (see the module docstring).

    One pass over the game lines per participant, and one over the entries' data for the Schafkopf
    types and Doppelkopf solos (grouped by the declarer), not one per figure (issue 24)."""
    sheet, ruleset = dated.sheet, find_ruleset(dated.sheet.ruleset.id)
    family = ruleset.id.split("-")[0]
    games = [line for line in score.lines if line.kind in GAME_KINDS]
    declared = _declared(games, sheet, family) if family in ("schafkopf", "doppelkopf") else {}
    result = score.result
    players: Mapping[str, Any] = getattr(result, "spieler", {}) if family == "doppelkopf" else {}
    five = len(sheet.participants) > 4 and bool(players)
    history, bummerl = getattr(result, "history", None) or (), getattr(result, "bummerl", None)
    sheet_id = str(sheet.id)
    called = numbering(sheet.entries, ruleset.counted_kinds(sheet))
    out = {}
    for p in sheet.participants:
        pid = p.id
        won = 0
        best = worst = None
        high = low = 0
        for ln in games:
            value = ln.points.get(pid, 0)
            if value > 0:
                won += 1
            if five and value == 0:
                continue  # a game he sat out (five at the table): not his best or worst
            # The first line with the most (the fewest) points, as max() and min() pick it.
            if best is None or value > high:
                best, high = ln, value
            if worst is None or value < low:
                worst, low = ln, value
        won_bummerl, lost_bummerl, schneider = _bummerl(history, bummerl, pid)
        mine = declared.get(pid, [])
        out[pid] = Figures(
            sheets=1,
            games=players[pid].spiele if pid in players else len(games),
            won=won,
            points=score.totals.get(pid, 0),
            bummerl_won=won_bummerl,
            bummerl_lost=lost_bummerl,
            schneider=schneider,
            types=_schafkopf_types(mine, pid) if family == "schafkopf" else {},
            solos=_doppelkopf_solos(mine, pid) if family == "doppelkopf" else TypeCount(),
            best=_ref(dated, sheet_id, ruleset.title, best, pid, called) if best is not None else None,
            worst=_ref(dated, sheet_id, ruleset.title, worst, pid, called) if worst is not None else None,
        )
    return out


Declared = list[tuple[Line, Mapping[str, Any]]]


def _declared(games: Sequence[Line], sheet: Sheet, family: str) -> dict[str, Declared]:
    """The game lines with their entry's data by who declared the game, in one pass for all
    participants: Schafkopf's ``spieler``, Doppelkopf's single Re player (solo, Hochzeit alone)."""
    data = {eff.number: eff.data for eff in effective_entries(sheet.entries)}
    out: dict[str, Declared] = {}
    for line in games:
        raw = data[line.entry]
        if family == "schafkopf":
            who = raw.get("spieler")
        else:
            re = tuple(raw.get("re") or ())
            who = re[0] if len(re) == 1 else None
        if isinstance(who, str):
            out.setdefault(who, []).append((line, raw))
    return out


def _ref(dated: DatedSheet, sheet_id: str, title: str, line: Line, pid: str, called: Mapping[int, Numbered]) -> GameRef:
    return GameRef(
        points=line.points.get(pid, 0),
        sheet=sheet_id,
        entry=line.entry,
        label=line_label(called, line.entry),
        day=dated.day,
        ruleset=title,
        text=next((e.text for e in line.explanation if e.text), ""),
    )


def _bummerl(history: Sequence[Any], bummerl: Any, pid: str) -> tuple[int, int, int]:
    """Bummerl won, lost, and lost as Schneider, from the ruleset's result (Watten, Schnapsen):
    its ``history`` (Schnapsen) and ``bummerl`` (Watten), read once per sheet."""
    won = lost = schneider = 0
    for item in history:  # Schnapsen
        won += pid in item.winners
        for loss in item.losers:
            if loss.participant == pid:
                lost += 1
                schneider += loss.art != "Bummerl"
    if isinstance(bummerl, (list, tuple)):  # Watten
        for item in bummerl:
            won += item.winner == pid
            lost += item.winner is not None and item.winner != pid
    return won, lost, schneider


def _schafkopf_types(declared: Declared, pid: str) -> dict[str, TypeCount]:
    counts: dict[str, list[int]] = {}
    for line, raw in declared:
        if raw.get("spieler") != pid or raw.get("spiel") not in SCHAFKOPF_TYPES:
            continue
        name = SCHAFKOPF_TYPES[raw["spiel"]] + (" Tout" if raw.get("tout") else "")
        count = counts.setdefault(name, [0, 0])
        count[0] += 1
        count[1] += line.points.get(pid, 0) > 0
    return {name: TypeCount(played=played, won=won) for name, (played, won) in sorted(counts.items())}


def _doppelkopf_solos(declared: Declared, pid: str) -> TypeCount:
    count = TypeCount()
    for line, raw in declared:
        re = tuple(raw.get("re") or ())
        if re == (pid,) and ist_solo(str(raw.get("typ", "normal")), len(re)):
            count = count.plus(TypeCount(played=1, won=int(line.points.get(pid, 0) > 0)))
    return count


@dataclass(frozen=True, slots=True)
class SheetFigures:
    """One sheet's share of the statistics: what the filter asks about it, and per participant its figures.

    ``refused`` holds the German reason where the ruleset refuses the sheet (then ``figures`` is empty)."""

    ruleset: str
    day: date
    participants: tuple[Participant, ...]
    figures: Mapping[str, Figures]
    refused: str | None = None


def figures_of(dated: DatedSheet, score: Score | None = None) -> SheetFigures:
    """The sheet's figures from its ``score`` (scored here if not given; a refused sheet says why)."""
    sheet = dated.sheet
    try:
        score = score if score is not None else score_sheet(sheet)
        figures = sheet_figures(dated, score)
    except (RuleViolation, ValueError) as error:
        return SheetFigures(sheet.ruleset.id, dated.day, sheet.participants, {}, refused=f"Blatt {sheet.id}: {error}")
    return SheetFigures(sheet.ruleset.id, dated.day, sheet.participants, figures)


def combine(sheets: Iterable[SheetFigures], where: Filter = Filter()) -> Statistics:
    """The statistics of every team and player over the sheets ``where`` admits, sorted by name.
    A sheet its ruleset refuses is named in ``refused`` and counted nowhere."""
    rows: dict[str, Row] = {}
    numbered: dict[str, date] = {}
    """The day of the sheet each row's Startnummer comes from: the newest sheet's counts."""
    refused = []
    count = 0
    for item in sheets:
        if not where.admits(item.ruleset, item.day):
            continue
        if item.refused is not None:
            refused.append(item.refused)
            continue
        count += 1
        for p in item.participants:
            key = participant_key(p)
            before = rows.get(key)
            total = item.figures[p.id] if before is None else before.figures.plus(item.figures[p.id])
            number = before.start_number if before else None
            if p.start_number is not None and (key not in numbered or item.day >= numbered[key]):
                number, numbered[key] = p.start_number, item.day
            rows[key] = Row(key=key, name=p.name, start_number=number, figures=total)
    ordered = sorted(rows.values(), key=lambda r: (r.name.casefold(), r.key))
    return Statistics(sheets=count, rows=tuple(ordered), refused=tuple(refused))


def statistics(sheets: Iterable[DatedSheet], where: Filter = Filter()) -> Statistics:
    """The statistics over ``sheets`` as ``where`` admits them, each scored by its ruleset (``combine``)."""
    return combine(figures_of(dated) for dated in sheets if where.admits(dated.sheet.ruleset.id, dated.day))
