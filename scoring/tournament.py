"""The organizer's tournament, pure: the roster, the plan of rounds, the standings and the exports.

Nothing here computes a score: the standings are sums of what each ruleset's ``score()`` and
``standings()`` say of the collected sheets (Watten Regel 12/13, the Schafkopf Turnierordnung's
Tisch- and Spielpunkte, the Doppelkopf Runden, Schnapsen Bummerl). The host (``sync``) keeps the
tournament and its sheets and calls these functions; the draw is in ``draw.py``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from .compare import Comparison, compare_scored
from .draw import TableDraw
from .engine import Ruleset, RuleViolation, Score
from .limits import MAX_NAME, MAX_NUMBER
from .messages import text_cell
from .model import CLOSE, Frozen, Sheet
from .registry import find_ruleset

Unit = Literal["team", "player"]

MAX_ENTRANTS = 10_000
"""More entrants than any hall holds: a roster beyond this is refused, not read."""


# -- the roster --------------------------------------------------------------------------------


class Entrant(Frozen):
    """A team or a player of the tournament, known by its Startnummer."""

    start_number: int = Field(ge=1, le=MAX_NUMBER)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    members: tuple[str, ...] = ()
    """A team's players (Watten, Bauernschnapsen: two)."""
    club: str | None = Field(default=None, max_length=MAX_NAME)


class RosterError(ValueError):
    """A roster that cannot be taken as it is: every problem, each "Zeile 7: ..." (German)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


_COLUMNS: dict[str, str] = {
    "startnummer": "start_number",
    "start number": "start_number",
    "startnr": "start_number",
    "startnr.": "start_number",
    "nr": "start_number",
    "nr.": "start_number",
    "nummer": "start_number",
    "name": "name",
    "mannschaft": "name",
    "team": "name",
    "spieler": "name",
    "spielername": "name",
    "player": "name",
    "spieler 1": "member1",
    "spieler1": "member1",
    "player 1": "member1",
    "member 1": "member1",
    "spieler 2": "member2",
    "spieler2": "member2",
    "player 2": "member2",
    "member 2": "member2",
    "members": "members",
    "mitglieder": "members",
    "verein": "club",
    "club": "club",
}
"""Header names a roster may use (compared case-insensitively, ``_`` read as a space)."""


_EMPTY = "Die Datei ist leer: erwartet wird eine Kopfzeile (z. B. Startnummer;Name) und eine Zeile je Meldung"


def _column(header: str) -> str | None:
    key = " ".join(header.replace("_", " ").split()).casefold()
    return _COLUMNS.get(key)


def _delimiter(header_line: str) -> str:
    """``;`` as German spreadsheets write CSV, else ``,`` or a tab, whichever the header uses most."""
    counts = {d: header_line.count(d) for d in (";", ",", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ";"


class Roster(Frozen):
    """The entrants of a tournament, and who withdrew (their finished rounds still count)."""

    entrants: tuple[Entrant, ...] = ()
    withdrawn: tuple[int, ...] = ()
    """Start numbers that withdrew: not drawn any more."""

    @classmethod
    def parse_csv(cls, text: str, unit: Unit, *, team_size: int = 2) -> Roster:
        """Read a roster from CSV as a spreadsheet exports it.

        The first row names the columns, in German or English: ``Startnummer``/``start_number``
        (or ``Nr.``; without it the rows are numbered from 1), ``Name`` (for teams also
        ``Mannschaft``), ``Spieler 1``/``Spieler 2`` or ``members`` (``|``- or ``/``-separated,
        teams only), ``Verein``/``club``. Separated by ``;`` (as German spreadsheets write it),
        ``,`` or tabs; a byte-order mark and empty lines are ignored. A team without a name is
        called by its players ("Anna / Bert").

        Every problem is collected with its line number and the reason; if there is any, nothing
        is imported (``RosterError`` with all of them).
        """
        if text.startswith("\ufeff"):
            text = text[1:]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise RosterError([_EMPTY])
        delimiter = _delimiter(lines[first])
        problems: list[str] = []
        rows: list[tuple[int, list[str]]] = []
        try:
            reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
            line_before = 0
            for row in reader:
                start = line_before + 1
                line_before = reader.line_num
                if any(cell.strip() for cell in row):
                    rows.append((start, row))
                if len(rows) > MAX_ENTRANTS + 1:
                    raise RosterError([f"Zeile {start}: mehr als {MAX_ENTRANTS} Meldungen, so groß ist kein Turnier"])
        except csv.Error:
            raise RosterError(
                [f"Zeile {line_before + 1}: ein Anführungszeichen ist nicht geschlossen oder steht mitten im Feld"]
            ) from None
        if not rows:
            raise RosterError([_EMPTY])
        header_line, header = rows[0]
        fields: list[str | None] = [_column(h) for h in header]
        for index, (raw, field) in enumerate(zip(header, fields, strict=True)):
            if field is None:
                problems.append(
                    f"Zeile {header_line}: unbekannte Spalte '{_shown(raw.strip())}' (erlaubt: Startnummer, Name, Spieler 1, Spieler 2, Verein)"
                )
            elif field in fields[:index]:
                problems.append(f"Zeile {header_line}: Spalte '{_shown(raw.strip())}' doppelt")
            elif unit == "player" and field in ("member1", "member2", "members"):
                problems.append(
                    f"Zeile {header_line}: Spalte '{_shown(raw.strip())}' gibt es nur bei Mannschaften, hier melden sich Spieler"
                )
        if "name" not in fields and not (unit == "team" and ("member1" in fields or "members" in fields)):
            problems.append(f"Zeile {header_line}: die Spalte 'Name' fehlt")
        if problems:
            raise RosterError(problems)
        entrants: list[Entrant] = []
        seen: dict[int, int] = {}
        names: dict[str, int] = {}
        for position, (line, cells) in enumerate(rows[1:], start=1):
            if len(cells) > len(fields):
                problems.append(f"Zeile {line}: {len(cells)} Felder, die Kopfzeile hat nur {len(fields)}")
                continue
            values = {f: cells[i].strip() for i, f in enumerate(fields) if f is not None and i < len(cells)}
            entrant, problem = _entrant(values, position, unit, team_size, "start_number" in fields)
            if problem is not None:
                problems.append(f"Zeile {line}: {problem}")
                continue
            assert entrant is not None
            if entrant.start_number in seen:
                problems.append(
                    f"Zeile {line}: Startnummer {entrant.start_number} steht schon in Zeile {seen[entrant.start_number]}"
                )
                continue
            key = entrant.name.casefold()
            if unit == "team" and key in names:
                problems.append(f"Zeile {line}: die Mannschaft '{entrant.name}' steht schon in Zeile {names[key]}")
                continue
            seen[entrant.start_number] = line
            names[key] = line
            entrants.append(entrant)
        if not entrants and not problems:
            problems.append(f"Zeile {header_line}: nur die Kopfzeile, keine Meldung")
        if problems:
            raise RosterError(problems)
        return cls(entrants=tuple(entrants))

    def with_entrant(self, entrant: Entrant) -> Roster:
        """The roster with a late registration; ``RosterError`` for a taken Startnummer or name."""
        problems = []
        if any(e.start_number == entrant.start_number for e in self.entrants):
            problems.append(
                f"Nachmeldung: Startnummer {entrant.start_number} ist schon vergeben (an {self.by_number(entrant.start_number).name})"
            )
        if not entrant.name.strip():
            problems.append("Nachmeldung: der Name fehlt")
        else:
            same = [e for e in self.entrants if e.name.casefold() == entrant.name.strip().casefold()]
            if same and (same[0].members or entrant.members):
                problems.append(f"Nachmeldung: '{same[0].name}' ist schon gemeldet (Startnummer {same[0].start_number})")
        if len(self.entrants) >= MAX_ENTRANTS:
            problems.append(f"Nachmeldung: mehr als {MAX_ENTRANTS} Meldungen gehen nicht")
        if problems:
            raise RosterError(problems)
        clean = entrant.model_copy(update={"name": entrant.name.strip()})
        return self.model_copy(update={"entrants": (*self.entrants, clean)})

    def withdraw(self, start_number: int) -> Roster:
        """The roster with ``start_number`` withdrawn: not drawn any more, finished rounds count."""
        self.by_number(start_number)
        if start_number in self.withdrawn:
            raise RosterError([f"Startnummer {start_number} hat schon zurückgezogen"])
        return self.model_copy(update={"withdrawn": (*self.withdrawn, start_number)})

    def by_number(self, start_number: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.start_number == start_number:
                return entrant
        raise RosterError([f"Startnummer {start_number} ist nicht gemeldet"])

    def active(self) -> tuple[int, ...]:
        """The start numbers to draw: everyone registered who has not withdrawn."""
        gone = set(self.withdrawn)
        return tuple(e.start_number for e in self.entrants if e.start_number not in gone)

    def next_number(self) -> int:
        """The next free Startnummer for a late registration."""
        return max((e.start_number for e in self.entrants), default=0) + 1


def _shown(text: str) -> str:
    """The start of a text for a message, printable whatever it holds."""
    return "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?" for c in text[:20])


def _entrant(
    values: Mapping[str, str], position: int, unit: Unit, team_size: int, numbered: bool
) -> tuple[Entrant | None, str | None]:
    """One roster row as an entrant, or the German reason it is not one."""
    if numbered:
        raw = values.get("start_number", "")
        if not raw:
            return None, "die Startnummer fehlt"
        if not (raw.isascii() and raw.isdigit()):
            return None, f"Startnummer '{_shown(raw)}' ist keine ganze Zahl"
        number = int(raw) if len(raw) <= 12 else MAX_NUMBER + 1
        if number < 1:
            return None, f"Startnummer {number} gibt es nicht, sie beginnen bei 1"
        if number > MAX_NUMBER:
            return None, f"Startnummer {_shown(raw)} ist zu groß (höchstens {MAX_NUMBER})"
    else:
        number = position
    members: list[str] = []
    if values.get("members"):
        sep = "|" if "|" in values["members"] else "/"
        members = [m.strip() for m in values["members"].split(sep)]
    else:
        members = [values[k] for k in ("member1", "member2") if k in values]
        if members and not any(members):
            members = []
    if unit == "team" and members:
        if len(members) != team_size or not all(members):
            return None, f"eine Mannschaft hat {team_size} Spieler, hier stehen {len([m for m in members if m])}"
        if len({m.casefold() for m in members}) != len(members):
            return None, f"zweimal derselbe Spieler '{members[0]}'"
    name = values.get("name", "") or (" / ".join(members) if members else "")
    if not name:
        return None, "der Name fehlt"
    club = values.get("club") or None
    for text in (name, *members, club or ""):
        if len(text) > MAX_NAME:
            return None, f"'{_shown(text)}…' ist länger als {MAX_NAME} Zeichen"
        if any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in text):
            return None, f"'{_shown(text)}' enthält Steuerzeichen oder ungültige Zeichen"
    return Entrant(start_number=number, name=name, members=tuple(members), club=club), None


# -- the plan ------------------------------------------------------------------------------------


RoundLabel = Literal["Durchgang", "Serie", "Runde", "Spielabend"]


class TournamentPlan(Frozen):
    """How a tournament is played: ruleset and options, teams or players, rounds and table sizes."""

    ruleset_id: str
    options: dict[str, Any] = Field(default_factory=dict)
    """Every option of the ruleset, filled in (what each round's sheets snapshot)."""
    unit: Unit
    rounds: int = Field(ge=1, le=50)
    round_label: RoundLabel
    table_sizes: tuple[int, ...]
    """Entrants per table: Watten (2,) teams; Bauernschnapsen (2,) teams of two; Talonschnapsen (3,);
    Schafkopf (4,); Doppelkopf (4, 5)."""
    time_limit_minutes: int | None = Field(default=None, ge=1, le=24 * 60)
    """Watten Regel 11: 70 minutes per Durchgang."""
    games_per_round: int | None = None
    """Where the document fixes it: Watten 3 Bummerl, Doppelkopf 16 games per player, Schafkopf the Serie's games."""
    sheets_per_table: int = Field(default=1, ge=1, le=2)
    """Watten Regel 5: each team keeps its own Tischliste (2); elsewhere one Listenführer (1)."""
    byes: bool = False
    """May entrants sit out a round (Freilos) when the count does not fill the tables? No document
    provides for it; the organizer may allow it."""
    game: str = ""
    """The game's German name for messages ("Watten", "Doppelkopf", ...)."""

    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        return find_ruleset(self.ruleset_id)


_GAME_NAMES = {
    "watten-turnier": "Watten",
    "schafkopf-turnier": "Schafkopf",
    "doppelkopf-turnier": "Doppelkopf",
    "doppelkopf-haus": "Doppelkopf",
    "bauernschnapsen": "Bauernschnapsen",
    "talonschnapsen": "Talonschnapsen",
}


def plan_for(
    ruleset_id: str, options: Mapping[str, Any] | None = None, rounds: int | None = None, *, byes: bool = False
) -> TournamentPlan:
    """The plan each document prescribes, with the organizer's options and number of rounds.

    - Watten (Regel 1, 2, 5, 11): 3 Durchgänge of ``bummerl_count`` (3) Bummerl, two teams a
      table, each team writes its own list, 70 minutes per Durchgang.
    - Schafkopf (Turnierordnung): Serien as the organizer sets them (default 3), four players a
      table, drawn anew each Serie ("Jede Serie wird neu ausgelost"), ``spiele`` games each.
    - Doppelkopf (Regel 1): 3 Runden at 4- and 5-player tables, 16 games for every player.
    - Bauernschnapsen, Talonschnapsen: rounds as the organizer sets them (default 3), two teams
      resp. three players a table, ``bummerl_count`` Bummerl a round if set.

    Unknown rulesets and invalid options are refused (``ValueError``)."""
    ruleset = find_ruleset(ruleset_id)
    opts = ruleset.options(options).model_dump(mode="json")
    if rounds is not None and not 1 <= rounds <= 50:
        raise ValueError(f"Zahl der Runden muss zwischen 1 und 50 liegen, nicht {rounds}")
    label: RoundLabel = ruleset.round_label if ruleset.round_label != "Spielabend" else "Durchgang"
    common: dict[str, Any] = {
        "ruleset_id": ruleset_id,
        "options": opts,
        "unit": ruleset.participant_kind,
        "round_label": label,
        "rounds": rounds or 3,
        "table_sizes": tuple(ruleset.participant_counts),
        "byes": byes,
        "game": _GAME_NAMES.get(ruleset_id, ruleset.title),
    }
    if ruleset_id == "watten-turnier":
        return TournamentPlan(**common, time_limit_minutes=70, games_per_round=opts["bummerl_count"], sheets_per_table=2)
    if ruleset_id == "schafkopf-turnier":
        return TournamentPlan(**common, games_per_round=opts["spiele"])
    if ruleset_id.startswith("doppelkopf"):
        return TournamentPlan(**common, games_per_round=16)
    return TournamentPlan(**common, games_per_round=opts.get("bummerl_count") or None)


# -- the standings -----------------------------------------------------------------------------


class StandingRow(Frozen):
    """One line of the standings: place, who, the ruleset's figures, and why the tie was broken."""

    rank: int
    start_number: int | None
    name: str
    values: tuple[str | int, ...]
    """In the order of ``Standings.columns``."""
    decided_by: str
    """What separates this row from its neighbour (German), or "Entscheidungsbummerl nötig"."""


class Standings(Frozen):
    """The tournament's ranking as each document ranks it, with the checks and what was left out."""

    columns: tuple[str, ...]
    """German headers of each row's ``values`` (rank, number, name and ``decided_by`` come besides)."""
    rows: tuple[StandingRow, ...]
    notes: tuple[str, ...] = ()
    """The Schafkopf 100-point check per Serie and table, sheets not counted (yet) and why, withdrawals."""
    name_header: str = "Name"

    @property
    def header(self) -> tuple[str, ...]:
        """The full header of a printed list: Platz, Nr., name, the columns, Entscheidung."""
        return ("Platz", "Nr.", self.name_header, *self.columns, "Entscheidung")

    def table(self) -> list[tuple[str | int, ...]]:
        """Every row in the order of ``header``, for a CSV or a printed list."""
        return [(r.rank, r.start_number or "", r.name, *r.values, r.decided_by) for r in self.rows]


def _where(plan: TournamentPlan | None, sheet: Sheet) -> str:
    label = sheet.context.round_label if plan is None else plan.round_label
    parts = []
    if sheet.context.round is not None:
        parts.append(f"{label} {sheet.context.round}")
    if sheet.context.table is not None:
        parts.append(f"Tisch {sheet.context.table}")
    return ", ".join(parts) or f"Blatt {sheet.id}"


def _counts(plan: TournamentPlan, sheet: Sheet, score: Score) -> bool:
    """Does the sheet count for the standings yet? Schafkopf: once the Listenführer signed (the
    Tischpunkte are given after the Serie); elsewhere once the round is over (or closed)."""
    if plan.ruleset_id == "schafkopf-turnier":
        return score.status.closed
    return score.status.finished


Scorer = Callable[[Sheet], Score]
"""What scores a sheet: its ruleset's ``score`` (the default), or the host's cache of the scores it
computed when each revision arrived (it must return exactly ``score(sheet)``)."""


def counted_sheets(
    plan: TournamentPlan,
    sheets: Sequence[Sheet],
    scorer: Scorer | None = None,
    decided: Collection[tuple[int, int]] = (),
) -> tuple[list[tuple[Sheet, Score]], list[str]]:
    """The sheets that count, scored once, and a German note for each left out and why.

    Sheets are grouped by round and table. A table's sheets count when they are finished and
    (where both teams write, Watten Regel 5) agree; disagreeing sheets wait for the
    Turnierleitung's decision, a table with only one finished sheet counts with a note.
    ``decided`` names the (round, table) whose sheet the Turnierleitung decided: the one sheet
    given for it stands alone, without a note that the other team's is missing."""
    ruleset = plan.ruleset
    notes: list[str] = []
    groups: dict[tuple[Any, ...], list[tuple[Sheet, Score]]] = {}
    for sheet in sheets:
        if sheet.ruleset.id != plan.ruleset_id:
            notes.append(
                f"{_where(plan, sheet)}: zählt nach '{sheet.ruleset.id}', nicht nach '{plan.ruleset_id}'; nicht gewertet"
            )
            continue
        try:
            score = (scorer or ruleset.score)(sheet)
        except RuleViolation as error:
            notes.append(f"{_where(plan, sheet)}: fehlerhaft, nicht gewertet ({error})")
            continue
        context = sheet.context
        key: tuple[Any, ...] = (
            (context.round, context.table) if context.round is not None and context.table is not None else (0, 0, str(sheet.id))
        )
        groups.setdefault(key, []).append((sheet, score))
    counted: list[tuple[Sheet, Score]] = []
    for key in sorted(groups, key=lambda k: tuple(str(p).zfill(12) for p in k)):
        group = groups[key]
        where = _where(plan, group[0][0])
        differing = _differing(group)
        if differing is not None:
            notes.append(
                f"{where}: die Blätter sind uneinig, gewertet erst nach der Entscheidung der Turnierleitung ({differing.message})"
            )
            continue
        done = [(s, sc) for s, sc in group if _counts(plan, s, sc)]
        if len(done) < len(group):
            waiting = "nicht unterschrieben" if plan.ruleset_id == "schafkopf-turnier" else "noch nicht beendet"
            notes.append(f"{where}: {waiting}, noch nicht gewertet")
            continue
        first_sheet, first_score = done[0]
        disagree = None
        for other_sheet, other_score in done[1:]:
            comparison = compare_scored(first_sheet, first_score, other_sheet, other_score)
            if not comparison.agree:
                disagree = comparison
                break
        if disagree is not None:
            notes.append(
                f"{where}: die Blätter sind uneinig, gewertet erst nach der Entscheidung der Turnierleitung ({disagree.message})"
            )
            continue
        if len(done) < plan.sheets_per_table and key not in decided:
            notes.append(f"{where}: nur ein Blatt abgegeben, das zweite fehlt; gewertet nach dem vorliegenden")
        counted.append((first_sheet, first_score))
    return counted, notes


def _differing(group: Sequence[tuple[Sheet, Score]]) -> Comparison | None:
    """The first comparison of a table's sheets that differs at a game both have written
    (Regel 5: the two teams' lists must agree game by game, finished or not)."""
    first_sheet, first_score = group[0]
    for other_sheet, other_score in group[1:]:
        comparison = compare_scored(first_sheet, first_score, other_sheet, other_score)
        if (
            not comparison.agree
            and comparison.first_difference is not None
            and comparison.first_difference <= comparison.games_compared
        ):
            return comparison
    return None


def _number(key: str) -> int | None:
    return int(key[1:]) if key.startswith("#") and key[1:].isascii() and key[1:].isdigit() else None


def _ratio(points: int, against: int) -> str:
    if against == 0:
        return "–" if points == 0 else "∞"
    return f"{points / against:.3f}".replace(".", ",")


def _euro(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def tournament_standings(
    plan: TournamentPlan,
    roster: Roster,
    sheets: Sequence[Sheet],
    *,
    scorer: Scorer | None = None,
    decided: Collection[tuple[int, int]] = (),
) -> Standings:
    """The standings over all counted sheets, ranked by the ruleset's own ``standings()``.

    - Watten (Regel 13): Bummerl won, Punkteverhältnis, Punkte, direct comparison, else an
      Entscheidungsbummerl (``decided_by`` says which).
    - Schafkopf: the sum of the Serien's results (Tischpunkte + Spielpunkte); ``notes`` show each
      Serie's 100-point check per table; the Reuegeld each player paid.
    - Doppelkopf: the sum of the Runden, each Runde's points shown.
    - Schnapsen: Bummerl won, then points.

    Withdrawn entrants keep their finished rounds. Entrants without a counted sheet yet are
    listed last. Sheets not counted (unfinished, unsigned, disputed) are named in ``notes``.

    Every sheet is scored once (``scorer``, by default its ruleset's ``score``); a host that
    scored each revision when it arrived may pass those scores instead of scoring all again.
    ``decided``: the tables whose sheet the Turnierleitung decided (``counted_sheets``)."""
    ruleset = plan.ruleset
    counted, notes = counted_sheets(plan, sheets, scorer, decided)
    sheet_list = [s for s, _ in counted]
    score_list = [sc for _, sc in counted]
    name_header = "Mannschaft" if plan.unit == "team" else "Spieler"
    rows: list[StandingRow] = []
    zero: tuple[str | int, ...]
    if plan.ruleset_id == "watten-turnier":
        columns: tuple[str, ...] = ("Bummerl", "Punkte", "Gegenpunkte", "Verhältnis")
        zero = (0, 0, 0, "–")
        for w in ruleset.standings(sheet_list, scores=score_list):  # type: ignore[attr-defined]
            rows.append(
                StandingRow(
                    rank=w.rank,
                    start_number=_number(w.key),
                    name=w.name,
                    values=(w.bummerl_won, w.points, w.points_against, _ratio(w.points, w.points_against)),
                    decided_by=w.decided_by,
                )
            )
    elif plan.ruleset_id == "schafkopf-turnier":
        columns = ("Ergebnis", "Tischpunkte", "Spielpunkte", "Serien", "Reuegeld")
        zero = (0, 0, 0, 0, _euro(0))
        for s in ruleset.standings(sheet_list, scores=score_list):  # type: ignore[attr-defined]
            rows.append(
                StandingRow(
                    rank=s.rank,
                    start_number=_number(s.key),
                    name=s.name,
                    values=(s.ergebnis, s.tischpunkte, s.spielpunkte, s.serien, _euro(s.reuegeld_cent)),
                    decided_by=s.decided_by,
                )
            )
        notes = _hundert(plan, counted) + notes
    elif plan.ruleset_id.startswith("doppelkopf"):
        round_columns = tuple(f"{plan.round_label} {r}" for r in range(1, plan.rounds + 1))
        columns = ("Punkte", *round_columns, "Spiele")
        zero = (0, *(["–"] * plan.rounds), 0)
        for d in ruleset.standings(sheet_list, scores=score_list):  # type: ignore[attr-defined]
            per_round = tuple(d.runden.get(r, "–") for r in range(1, plan.rounds + 1))
            rows.append(
                StandingRow(
                    rank=d.rank,
                    start_number=_number(d.key),
                    name=d.name,
                    values=(d.punkte, *per_round, d.spiele),
                    decided_by=d.decided_by,
                )
            )
    else:
        columns = ("Bummerl gewonnen", "Punkte", "Bummerl verloren")
        zero = (0, 0, 0)
        for b in ruleset.standings(sheet_list, scores=score_list):  # type: ignore[attr-defined]
            rows.append(
                StandingRow(
                    rank=b.rank,
                    start_number=_number(b.key),
                    name=b.name,
                    values=(b.bummerl_won, b.points, b.bummerl_lost),
                    decided_by=b.decided_by,
                )
            )
    # Names as the roster has them (a sheet may carry an older spelling).
    known = {e.start_number: e for e in roster.entrants}
    rows = [r.model_copy(update={"name": known[r.start_number].name}) if r.start_number in known else r for r in rows]
    listed = {r.start_number for r in rows}
    withdrawn = set(roster.withdrawn)
    waiting = [e for e in roster.entrants if e.start_number not in listed and e.start_number not in withdrawn]
    if waiting:
        rank = len(rows) + 1
        for e in sorted(waiting, key=lambda e: e.start_number):
            rows.append(
                StandingRow(
                    rank=rank, start_number=e.start_number, name=e.name, values=zero, decided_by="noch kein gewertetes Blatt"
                )
            )
    for number in roster.withdrawn:
        if number in known:
            e = known[number]
            kept = "die beendeten Runden zählen" if number in listed else "ohne gewertete Runde"
            notes.append(f"Nr. {number} {e.name} hat zurückgezogen; {kept}")
    for r in rows:
        if r.start_number is not None and r.start_number not in known:
            notes.append(f"Nr. {r.start_number} {r.name} steht auf einem Blatt, aber nicht in der Meldeliste")
    return Standings(columns=columns, rows=tuple(rows), notes=tuple(notes), name_header=name_header)


def _hundert(plan: TournamentPlan, counted: Sequence[tuple[Sheet, Score]]) -> list[str]:
    """Schafkopf: each Serie's results per table, which must add up to 100 (Turnierordnung)."""
    notes = []
    for sheet, score in counted:
        result: Any = score.result
        parts = [f"{p.name} {result.spieler[p.id].ergebnis}" for p in sheet.participants]
        total = sum(result.spieler[p.id].ergebnis for p in sheet.participants)
        verdict = "stimmt" if total == 100 else "FEHLER: muss 100 sein"
        notes.append(f"{_where(plan, sheet)}: {' + '.join(parts)} = {total} ({verdict})")
    return notes


# -- the tables of a round -------------------------------------------------------------------------


TableState = Literal["nicht begonnen", "läuft", "unterschrieben", "fehlt", "uneinig", "entschieden"]


class TableStatus(Frozen):
    """Where one table of the round stands, for the organizer's dashboard."""

    table: int
    state: TableState
    stand: str
    """The current stand as the ruleset's status says it (German)."""
    games: int
    """Games written so far (the further of the table's sheets)."""
    reuegeld_cents: int = 0
    """Schafkopf: the Reuegeld the Listenführer owes at the Kasse for this table."""
    comparison: Comparison | None = None
    """Where both teams write (Watten Regel 5): the comparison of their two sheets."""
    minutes_left: int | None = None
    """Watten Regel 11: minutes left of the Durchgang's 70 from the round's start (0 when up)."""
    time_up: bool = False
    sheets: int = 0
    """Sheets received for this table."""
    notes: tuple[str, ...] = ()


def _games(score: Score) -> int:
    return sum(1 for line in score.lines if line.kind != CLOSE)


def table_status(
    plan: TournamentPlan,
    table: TableDraw,
    sheets: Sequence[Sheet],
    now: datetime | None = None,
    started_at: datetime | None = None,
    decided: bool = False,
) -> TableStatus:
    """The state of one table from the sheets received for it (the latest revision of each).

    - "nicht begonnen": no sheet, or no game written yet;
    - "läuft": games written, not every sheet signed;
    - "unterschrieben": every expected sheet closed (and, where both teams write, agreeing);
    - "fehlt": one team's sheet is signed and the other's never arrived (Watten Regel 5);
    - "uneinig": the two sheets give different points for a game (``scoring.compare``), or both
      are signed and differ;
    - "entschieden": ``decided``: the Turnierleitung decided which sheet stands (the one given); the
      table is closed to the phones from then on.

    Sheets of other tables (other start numbers) are left out with a note."""
    ruleset = plan.ruleset
    expected = set(table.start_numbers)
    scored: list[tuple[Sheet, Score]] = []
    notes: list[str] = []
    for sheet in sheets:
        numbers = {p.start_number for p in sheet.participants}
        if numbers != expected:
            notes.append(f"Blatt {sheet.id} gehört nicht an Tisch {table.table} (andere Startnummern)")
            continue
        scored.append((sheet, ruleset.score(sheet)))
    minutes_left: int | None = None
    time_up = False
    if plan.time_limit_minutes is not None and started_at is not None and now is not None:
        left = plan.time_limit_minutes * 60 - (now - started_at).total_seconds()
        minutes_left = max(0, math.ceil(left / 60))
        time_up = left <= 0
    if not scored:
        return TableStatus(
            table=table.table,
            state="nicht begonnen",
            stand="noch kein Blatt",
            games=0,
            minutes_left=minutes_left,
            time_up=time_up,
            notes=tuple(notes),
        )
    _, leading = max(scored, key=lambda pair: _games(pair[1]))
    games = _games(leading)
    stand = "; ".join(leading.status.messages)
    reuegeld = 0
    result: Any = leading.result
    if plan.ruleset_id == "schafkopf-turnier":
        reuegeld = result.reuegeld_tisch_cent
    comparison: Comparison | None = None
    if len(scored) >= 2:
        (a, score_a), (b, score_b) = scored[0], scored[1]
        comparison = compare_scored(a, score_a, b, score_b)
    closed = [sc.status.closed for _, sc in scored]
    state: TableState
    if decided:
        state = "entschieden"
    elif (
        comparison is not None
        and not comparison.agree
        and (
            all(closed) or (comparison.first_difference is not None and comparison.first_difference <= comparison.games_compared)
        )
    ):
        state = "uneinig"
    elif all(closed) and len(scored) >= plan.sheets_per_table:
        state = "unterschrieben"
    elif all(closed):
        state = "fehlt"
    elif games == 0:
        state = "nicht begonnen"
    else:
        state = "läuft"
    finished = state == "unterschrieben" or (decided and all(closed)) or (all(sc.status.finished for _, sc in scored) and len(scored) >= plan.sheets_per_table)
    return TableStatus(
        table=table.table,
        state=state,
        stand=stand,
        games=games,
        reuegeld_cents=reuegeld,
        comparison=comparison,
        minutes_left=None if finished else minutes_left,
        time_up=time_up and not finished,
        sheets=len(scored),
        notes=tuple(notes),
    )


# -- exports ---------------------------------------------------------------------------------------


def standings_csv(standings: Standings) -> str:
    """The standings as CSV (``;``-separated, as German spreadsheets open it; quoted where needed),
    with the header row of ``Standings.header``; the notes follow after an empty row."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(standings.header)
    for row in standings.table():
        writer.writerow([text_cell(cell) if isinstance(cell, str) else cell for cell in row])
    if standings.notes:
        writer.writerow([])
        for note in standings.notes:
            writer.writerow(["Hinweis", note])
    return out.getvalue()


GAMES_COLUMNS = (
    "tournament",
    "round_label",
    "round",
    "table",
    "sheet_id",
    "written_by",
    "entry",
    "kind",
    "corrected_by",
    "at",
    "device",
    "participant_id",
    "start_number",
    "name",
    "points",
    "total",
    "explanation",
)


def games_csv(sheets: Sequence[Sheet]) -> str:
    """Every game of every sheet as CSV: one row per counting entry and participant (long format,
    so a pivot table sums it), ``;``-separated with the csv module's quoting.

    Columns (stable, English snake_case): ``tournament``, ``round_label``, ``round``, ``table``,
    ``sheet_id``, ``written_by``, ``entry`` (its number in the log), ``kind`` (``game``, an event,
    ``close``), ``corrected_by`` (numbers of the corrections, ``|``-separated), ``at``, ``device``,
    ``participant_id``, ``start_number``, ``name``, ``points`` (what the ruleset's ``score()`` gave
    this participant for the entry), ``total`` (running total), ``explanation`` (the rules cited).
    A sheet its ruleset refuses is left out. Free text is written so that a spreadsheet never reads
    it as a formula (``text_cell``)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(GAMES_COLUMNS)
    for sheet in sheets:
        try:
            score = find_ruleset(sheet.ruleset.id).score(sheet)
        except (RuleViolation, ValueError):
            continue
        context = sheet.context
        for line in score.lines:
            entry = sheet.entries[line.entry - 1]
            explanation = " | ".join(f"{e.rule}: {e.text}" for e in line.explanation)
            for p in sheet.participants:
                writer.writerow(
                    (
                        text_cell(context.tournament),
                        context.round_label,
                        context.round or "",
                        context.table or "",
                        str(sheet.id),
                        text_cell(context.written_by),
                        line.entry,
                        line.kind,
                        "|".join(map(str, line.corrected_by)),
                        entry.at.isoformat() if entry.at else "",
                        text_cell(entry.device),
                        p.id,
                        p.start_number or "",
                        text_cell(p.name),
                        line.points.get(p.id, 0),
                        line.totals.get(p.id, 0),
                        explanation,
                    )
                )
    return out.getvalue()
