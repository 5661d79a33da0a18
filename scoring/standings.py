"""The tournament's standings, pure: which sheets count, and the ranking over them.

Nothing here computes a score: the standings are sums of what each ruleset's ``score()`` and
``standings()`` say of the collected sheets (Watten Regel 12/13, the Schafkopf Turnierordnung's
Tisch- and Spielpunkte, the Doppelkopf Runden, Schnapsen Bummerl). The host (``sync``) keeps the
tournament and its sheets and calls these functions. The rest of the tournament: the roster in
``roster.py``, the plan in ``plan.py``, the draw in ``draw.py``, the tables of a round in
``table_status.py``, the CSV exports in ``csv_export.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from .compare import Comparison, compare_scored
from .engine import RuleViolation, Score
from .model import Frozen, Sheet
from .plan import TournamentPlan
from .roster import Roster

NOT_PLAYED = "noch kein gewertetes Blatt"
"""``StandingRow.decided_by`` of an entrant without a counted sheet yet (listed last, took no part so far)."""


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
                    rank=rank, start_number=e.start_number, name=e.name, values=zero, decided_by=NOT_PLAYED
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
