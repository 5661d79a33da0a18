"""Startkarten as PDF (fpdf2, segno): one card per entrant, for the entrant's hands only.

A pure function, ``bytes`` out, like ``printout.py``: ``startkarten_pdf(cards, title, per_page)``.
Each card shows the tournament, the Startnummer and the name in plain text, and a QR code that holds
the card's join line (the hall's line with the Startnummer ``nr`` and the entrant's secret ``key``,
made by the host, which also renders the QR code with segno: ``qr_png``): the phone scans it and
joins as exactly that entrant. The secret is printed too,
to be typed where scanning fails. ``per_page`` 1 prints a card per A4 page; 2, 4 or 8 fill the page
with cards to cut apart (A5, A6, A7).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from .printout import ENCODING, printable

LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 8: (2, 4)}
"""Cards per A4 page: (columns, rows)."""


@dataclass(frozen=True)
class Startkarte:
    """What one card shows: the entrant and the join line its QR code holds."""

    start_number: int
    name: str
    members: tuple[str, ...]
    secret: str
    line: str
    """``tischblock://join?...&nr=<Startnummer>&key=<secret>``."""
    qr_png: bytes
    """The QR code of ``line`` as a PNG (square, with its quiet zone)."""


def startkarten_pdf(cards: Sequence[Startkarte], title: str, subtitle: str = "", *, per_page: int = 1) -> bytes:
    """Every card, ``per_page`` to an A4 page (1, 2, 4 or 8), with cutting lines between them."""
    if per_page not in LAYOUTS:
        raise ValueError(f"{per_page} Startkarten je Seite gibt es nicht (1, 2, 4 oder 8)")
    columns, rows = LAYOUTS[per_page]
    doc = FPDF(orientation="portrait", unit="mm", format="A4")
    doc.core_fonts_encoding = ENCODING
    doc.set_creator("Tischblock")
    doc.set_auto_page_break(auto=False)
    doc.set_margins(0, 0, 0)
    width, height = doc.w / columns, doc.h / rows
    for index, card in enumerate(cards):
        slot = index % per_page
        if slot == 0:
            doc.add_page()
            _cut_lines(doc, columns, rows)
        x, y = (slot % columns) * width, (slot // columns) * height
        _card(doc, card, title, subtitle, x, y, width, height)
    if not cards:
        doc.add_page()
        doc.set_font("Helvetica", size=12)
        doc.set_xy(15, 20)
        doc.cell(0, 8, printable(f"{title}: noch keine Teilnehmer, also keine Startkarten"))
    return bytes(doc.output())


def _cut_lines(doc: FPDF, columns: int, rows: int) -> None:
    doc.set_draw_color(170, 170, 170)
    doc.set_dash_pattern(dash=2, gap=2)
    for c in range(1, columns):
        doc.line(c * doc.w / columns, 0, c * doc.w / columns, doc.h)
    for r in range(1, rows):
        doc.line(0, r * doc.h / rows, doc.w, r * doc.h / rows)
    doc.set_dash_pattern()


def _card(doc: FPDF, card: Startkarte, title: str, subtitle: str, x: float, y: float, width: float, height: float) -> None:
    scale = min(width / 210, height / 297) ** 0.5  # text shrinks slower than the card
    pad = 8 * scale + 4
    inner = width - 2 * pad

    def text(value: str, size: float, style: str = "") -> None:
        doc.set_font("Helvetica", style=style, size=size * scale)
        doc.set_x(x + pad)
        doc.multi_cell(inner, size * scale * 0.5, printable(value), align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    doc.set_text_color(0)
    doc.set_xy(x + pad, y + pad)
    text(title, 18, "B")
    if subtitle:
        text(subtitle, 12)
    text("Startkarte", 12)
    doc.ln(3 * scale)
    text(f"Startnummer {card.start_number}", 30, "B")
    text(card.name, 22, "B")
    if card.members:
        text(", ".join(card.members), 14)
    doc.ln(3 * scale)
    top = doc.get_y()
    room = y + height - pad - 22 * scale - top
    side = max(20.0, min(inner, room, 110 * scale))
    doc.image(io.BytesIO(card.qr_png), x=x + (width - side) / 2, y=top, w=side, h=side)
    doc.set_y(top + side + 2 * scale)
    text(f"Schlüssel: {card.secret}", 16, "B")
    text("Zum Beitreten mit der Tischblock-App scannen. Nur für diesen Teilnehmer: nicht herzeigen, nicht aushängen.", 10)
