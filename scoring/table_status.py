"""Where each table of a round stands, for the organizer's dashboard: nicht begonnen, läuft,
unterschrieben, fehlt, uneinig or entschieden, with the stand, the games written, the Watten clock
(Regel 11) and the Schafkopf Reuegeld owed at the Kasse. Pure: from the sheets received for the table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from .compare import Comparison, compare_scored
from .draw import TableDraw
from .engine import Score
from .model import CLOSE, Frozen, Sheet
from .plan import TournamentPlan

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
