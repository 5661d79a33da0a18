"""The printable downloads of the organizer's pages: results list, draw, a round's Tischlisten and the Startkarten as PDF.

The PDFs are made by ``scoring/printout.py`` (fpdf2), imported in the function that makes one: fpdf2 is
a quarter second of the host's start (``LATE`` in ``tests/test_quality.py``). This module only picks
what goes in them from ``Desk``: the standings as they stand, the draw of a round, and per table of a
round the sheet the standings count (or, where no phone has sent one yet, the table's empty sheet to
fill in by hand).
"""

from __future__ import annotations

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from scoring import Sheet
from scoring.draw import sheet_for

from ...protocol import JoinLine
from ..desk import DeskError
from .formats import SEAT_WORD, german_date
from .site import PREFIX, download
from .views import Pages

PDF = "application/pdf"
RoundNumber = Annotated[int, Path(ge=1, le=1000)]


def _title_and_subtitle(pages: Pages) -> tuple[str, str]:

    desk = pages.desk()
    return desk.tournament().name, german_date(desk.date())


def results_pdf(pages: Pages) -> bytes:
    from scoring.printout import table_pdf

    desk = pages.desk()
    standings = desk.standings()
    name, date = _title_and_subtitle(pages)
    columns = ["Platz", "Nr.", "Name", *standings.columns, "Gleichstand"]
    rows: list[list[str | int]] = [
        [r.rank, "" if r.start_number is None else r.start_number, r.name, *r.values, r.decided_by] for r in standings.rows
    ]
    return table_pdf(f"{name}: Ergebnisliste", date, columns, rows, standings.notes)


def draw_pdf(pages: Pages, round: int) -> bytes:
    from scoring.printout import table_pdf

    desk = pages.desk()
    plan = desk.plan()
    draw = desk.draw_of(round)
    entrants = {e.start_number: e for e in desk.roster().entrants}
    name, date = _title_and_subtitle(pages)
    rows: list[list[str | int]] = []
    for table in draw.tables:
        for seat in table.seats:
            entrant = entrants.get(seat.start_number)
            who = entrant.name if entrant else "?"
            if entrant is not None and entrant.members:
                who += f" ({', '.join(entrant.members)})"
            rows.append([table.table, seat.seat, seat.start_number, who])
    notes = [f"Losnummer {draw.seed}"]
    if draw.bye:
        notes.append("Spielfrei: " + ", ".join(f"Nr. {n}" for n in draw.bye))
    subtitle = " · ".join(p for p in (date, f"{plan.round_label} {round}") if p)
    return table_pdf(
        f"{name}: Auslosung {plan.round_label} {round}", subtitle, ["Tisch", SEAT_WORD[plan.unit], "Nr.", "Name"], rows, notes
    )


def round_sheets(pages: Pages, round: int) -> list[Sheet]:
    """One sheet per table of the round: the one the standings count, else the table's empty sheet."""
    desk = pages.desk()
    plan = desk.plan()
    draw = desk.draw_of(round)
    counted, _ = desk.result_sheets(round)
    by_table = {s.context.table: s for s in counted}
    roster = desk.roster()
    out = []
    for table in draw.tables:
        sheet = by_table.get(table.table)
        if sheet is None:
            found = desk.table_sheets(round, table.table)
            sheet = found[-1].sheet if found else None
        if sheet is None:
            sheet = sheet_for(plan, roster, draw, table.table, tournament=desk.tournament().id, written_by=None)
        out.append(sheet)
    return out


def tischlisten_pdf(pages: Pages, round: int) -> bytes:
    from scoring.printout import tischlisten_pdf as make

    desk = pages.desk()
    name, date = _title_and_subtitle(pages)
    plan = desk.plan()
    subtitle = " · ".join(p for p in (date, f"{plan.round_label} {round}") if p)
    return make(round_sheets(pages, round), f"{name}: Tischlisten", subtitle)


def startkarten(pages: Pages, base_url: str, per_page: int) -> bytes:
    """Every entrant's Startkarte: the QR code holds the join line with its Startnummer and secret."""
    from scoring.startkarten import Startkarte, startkarten_pdf

    desk = pages.desk()
    tournament = desk.tournament()
    url, fingerprint = pages.state.address or (base_url.rstrip("/"), None)
    cards = []
    for e in desk.roster_entries():
        if e.withdrawn_after is not None or not e.secret:
            continue
        line = JoinLine(
            url=url, code=tournament.join_code, fingerprint=fingerprint, start_number=e.entrant.start_number, secret=e.secret
        ).format()
        png = io.BytesIO()
        segno.make(line, error="m").save(png, kind="png", scale=8, border=4)
        cards.append(Startkarte(e.entrant.start_number, e.entrant.name, tuple(e.entrant.members), e.secret, line, png.getvalue()))
    name, date = _title_and_subtitle(pages)
    return startkarten_pdf(cards, name, date, per_page=per_page)


def install_pdf_downloads(router: APIRouter, pages: Pages) -> None:

    @router.get(f"{PREFIX}/export/startkarten.pdf")
    def cards(request: Request, je_seite: Annotated[int, Query(ge=1, le=8)] = 1) -> Response:
        from scoring.startkarten import LAYOUTS

        if je_seite not in LAYOUTS:
            raise DeskError(f"{je_seite} Startkarten je Seite gibt es nicht: 1, 2, 4 oder 8")
        body = startkarten(pages, str(request.base_url), je_seite)
        return download(body, f"{pages.desk().tournament().id}-startkarten.pdf", PDF)

    @router.get(f"{PREFIX}/export/ergebnisliste.pdf")
    def results() -> Response:
        return download(results_pdf(pages), f"{pages.desk().tournament().id}-ergebnisliste.pdf", PDF)

    @router.get(f"{PREFIX}/export/runde-{{round}}-auslosung.pdf")
    def draw(round: RoundNumber) -> Response:
        return download(draw_pdf(pages, round), f"{pages.desk().tournament().id}-auslosung-{round}.pdf", PDF)

    @router.get(f"{PREFIX}/export/runde-{{round}}-tischlisten.pdf")
    def tischlisten(round: RoundNumber) -> Response:
        return download(tischlisten_pdf(pages, round), f"{pages.desk().tournament().id}-tischlisten-{round}.pdf", PDF)
