"""CSV exports for spreadsheets: the standings, and every game of every sheet (one row per entry
and participant). ``;``-separated as German spreadsheets open it; free text never reads as a formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from .engine import RuleViolation
from .messages import text_cell
from .model import Sheet
from .numbering import score_sheet
from .standings import Standings


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
            score = score_sheet(sheet)
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
