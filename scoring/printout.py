"""Printouts as PDF (fpdf2): the paper Tischliste of a sheet, the Tischlisten of a round, and lists.

Pure functions, ``bytes`` out, no file I/O: the app shares the bytes, the host serves them. Every
number printed is what the sheet's ruleset says (``Ruleset.score`` and ``result_lines``); nothing
is computed here.

- ``sheet_pdf(sheet)``: one sheet as the paper Tischliste: the header with tournament, round, table,
  the participants and the ruleset; one row per entry of the log with what the rules made of it and
  the running totals (for rulesets that restart a count, the open Bummerl as "Stand" beside the
  "Summe"); the result lines; every correction and void with when, where and why; the signature.
- ``tischlisten_pdf(sheets, title, subtitle)``: the Tischlisten of a round, each table on a page of its
  own (an empty sheet prints as a blank Tischliste to fill in by hand).
- ``table_pdf(title, subtitle, columns, rows, notes)``: a printable list (results, the draw for the
  notice board): the header on every page, the column headings repeated on every page, page numbers.

The fonts are fpdf2's core fonts (Helvetica) in the Windows-1252 encoding, so ä ö ü ß, „“ – and €
print as they are, with no font file to ship. A character that encoding lacks is printed as its
closest plain form (``printable``), never dropped silently and never an error.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any

from fpdf import FPDF, FontFace
from fpdf.enums import TableBordersLayout, XPos, YPos

from .engine import Line, Score
from .messages import kind_label
from .model import CLOSE, CORRECTION, VOID, Sheet
from .numbering import numbering, score_sheet
from .registry import find_ruleset

ENCODING = "windows-1252"

_REPLACEMENTS = {
    "→": "->",
    "←": "<-",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "−": "-",
    "‑": "-",
    "\u00a0": " ",
    "\u202f": " ",
    "✓": "x",
    "✔": "x",
}

_GREY = (90, 90, 90)
_RULE = (150, 150, 150)
_HEAD_FILL = (225, 225, 225)
_ZEBRA = (244, 244, 244)


def printable(text: str) -> str:
    """``text`` as the core fonts can print it: Windows-1252 as is, the rest by its closest plain form.

    Umlauts, ß, „“, –, € and × stay; ``→`` becomes ``->``; a letter with a diacritic the encoding lacks
    loses the diacritic (``ł`` stays a letter: ``l``); anything else becomes ``?``."""
    out = []
    for char in text:
        try:
            char.encode(ENCODING)
            out.append(char)
            continue
        except UnicodeEncodeError:
            pass
        if char in _REPLACEMENTS:
            out.append(_REPLACEMENTS[char])
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        try:
            plain.encode(ENCODING)
            out.append(plain or "?")
        except UnicodeEncodeError:
            out.append({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i"}.get(char, "?"))
    return "".join(out)


def _when(at: datetime | None, tz: tzinfo | None) -> str:
    if at is None:
        return ""
    return at.astimezone(tz).strftime("%d.%m.%Y %H:%M")


class _Document(FPDF):
    """A4 with the list's title on every page and "Seite x von y" with a note in the footer."""

    def __init__(self, orientation: str = "portrait") -> None:
        super().__init__(orientation=orientation, unit="mm", format="A4")
        self.core_fonts_encoding = ENCODING
        self.set_margins(12, 12, 12)
        self.set_auto_page_break(auto=True, margin=16)
        self.alias_nb_pages("{nb}")
        self.set_creator("Tischblock")
        self.set_font("Helvetica", size=10)
        self.page_title = ""
        self.page_subtitle = ""
        self.footer_note = ""

    def text_line(self, text: str, *, size: float = 10, style: str = "", height: float | None = None) -> None:
        """One paragraph across the page (wrapped), in the given size and style."""
        self.set_font("Helvetica", style=style, size=size)
        self.multi_cell(0, height or size * 0.45, printable(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def header(self) -> None:
        if not (self.page_title or self.page_subtitle):
            return
        self.set_text_color(0)
        self.set_font("Helvetica", style="B", size=12)
        self.cell(0, 6, printable(self.page_title), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if self.page_subtitle:
            self.set_font("Helvetica", size=10)
            self.cell(0, 5, printable(self.page_subtitle), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(*_RULE)
        self.line(self.l_margin, self.get_y() + 1, self.w - self.r_margin, self.get_y() + 1)
        self.ln(4)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("Helvetica", size=8)
        self.set_text_color(*_GREY)
        self.cell(0, 5, printable(self.footer_note), align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, f"Seite {self.page_no()} von {{nb}}", align="R")
        self.set_text_color(0)

    def bytes(self) -> bytes:
        return bytes(self.output())


# -- the Tischliste -----------------------------------------------------------------------------


def sheet_pdf(sheet: Sheet, *, tz: tzinfo | None = None) -> bytes:
    """One sheet as the paper Tischliste (A4); times in ``tz`` (default: this device's local time)."""
    doc = _Document()
    _tischliste(doc, sheet, tz)
    return doc.bytes()


def tischlisten_pdf(sheets: Sequence[Sheet], title: str, subtitle: str, *, tz: tzinfo | None = None) -> bytes:
    """The Tischlisten of a round, each table from a new page; ``title``/``subtitle`` (the tournament's
    name and date) on top of every page. An empty sheet prints as a blank Tischliste to fill in."""
    doc = _Document()
    doc.page_title, doc.page_subtitle = title, subtitle
    for sheet in sheets:
        _tischliste(doc, sheet, tz)
    if not sheets:
        doc.add_page()
        doc.text_line("Keine Tische in dieser Runde.", size=11)
    return doc.bytes()


def _scored(sheet: Sheet) -> tuple[Score | None, str | None]:
    try:
        return score_sheet(sheet), None
    except ValueError as error:  # RuleViolation, UnknownRuleset: print the log as it is, and say why
        return None, str(error)


def _where(sheet: Sheet) -> str:
    ctx = sheet.context
    parts = [
        f"{ctx.round_label} {ctx.round}" if ctx.round else (ctx.round_label if ctx.round_label != "Spielabend" else None),
        f"Tisch {ctx.table}" if ctx.table else None,
    ]
    return " · ".join(p for p in parts if p)


def _title_of(sheet: Sheet) -> str:
    try:
        return find_ruleset(sheet.ruleset.id).title
    except ValueError:
        return sheet.ruleset.id


def _house_rules(sheet: Sheet) -> str:
    """The options that differ from the ruleset's defaults, ``name = value``."""
    try:
        defaults = find_ruleset(sheet.ruleset.id).options().model_dump(mode="json")
    except ValueError:
        return ""
    changed = [f"{k} = {v}" for k, v in sheet.ruleset.options.items() if defaults.get(k, v) != v]
    return ", ".join(changed)


def _tischliste(doc: _Document, sheet: Sheet, tz: tzinfo | None) -> None:
    """Add ``sheet`` to ``doc``, starting on a new page."""
    score, problem = _scored(sheet)
    doc.add_page()  # draws the footer of the page before: only then the note changes
    doc.footer_note = f"Tischblock · Blatt {str(sheet.id)[:8]} · {len(sheet.entries)} Einträge"
    _sheet_header(doc, sheet, tz)
    if problem:
        doc.set_text_color(170, 0, 0)
        doc.text_line(f"Das Blatt lässt sich nicht werten: {problem}", size=10, style="B")
        doc.set_text_color(0)
    _games(doc, sheet, score)
    if sheet.entries:
        _result(doc, sheet, score)
    _trail(doc, sheet, tz)
    _signature(doc, sheet, tz)


def _sheet_header(doc: _Document, sheet: Sheet, tz: tzinfo | None) -> None:
    ctx = sheet.context
    doc.set_font("Helvetica", style="B", size=18)
    doc.cell(0, 9, printable(f"Tischliste · {_title_of(sheet)}"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if ctx.tournament:
        doc.text_line(ctx.tournament, size=12, style="B", height=6)
    first = next((e.at for e in sheet.entries if e.at is not None), None)
    facts = [_where(sheet), f"Datum: {_when(first, tz)[:10]}" if first else "Datum: ____________"]
    doc.text_line("     ".join(f for f in facts if f), size=11, height=6)
    doc.ln(1)
    with_seats = any(p.seat is not None for p in sheet.participants)
    with_numbers = any(p.start_number is not None for p in sheet.participants)
    with_members = any(p.members for p in sheet.participants)
    headings = [
        *(["Platz"] if with_seats else []),
        *(["Startnr."] if with_numbers else []),
        "Mannschaft" if with_members else "Name",
        *(["Spieler"] if with_members else []),
    ]
    widths = [*([14] if with_seats else []), *([18] if with_numbers else []), 70, *([84] if with_members else [])]
    doc.set_font("Helvetica", size=10)
    with doc.table(
        col_widths=widths,
        width=sum(widths),
        align="LEFT",
        text_align="LEFT",
        line_height=5.5,
        headings_style=FontFace(emphasis="BOLD", size_pt=9, fill_color=_HEAD_FILL),
        borders_layout=TableBordersLayout.HORIZONTAL_LINES,
    ) as table:
        table.row([printable(h) for h in headings])
        for p in sheet.participants:
            cells = [
                *([str(p.seat or "")] if with_seats else []),
                *([str(p.start_number or "")] if with_numbers else []),
                printable(p.name),
                *([printable(", ".join(p.members))] if with_members else []),
            ]
            table.row(cells)
    doc.ln(1)
    ruleset = f"Regelwerk: {_title_of(sheet)}, Version {sheet.ruleset.version}"
    house = _house_rules(sheet)
    if house:
        ruleset += f"; Hausregeln: {house}"
    if ctx.written_by:
        try:
            writer = sheet.participant(ctx.written_by).name
        except KeyError:
            writer = ctx.written_by
        ruleset += f"; geführt von {writer}"
    doc.set_text_color(*_GREY)
    doc.text_line(ruleset, size=9)
    doc.set_text_color(0)
    doc.ln(2)


def _has_stand(sheet: Sheet, score: Score | None) -> bool:
    """Whether the ruleset restarts a count (the open Bummerl): then "Stand" is printed beside "Summe"."""
    if score is None:
        return False
    return any(line.stand is not None for line in score.lines) or isinstance(score.status.details.get("stand"), dict)


def _blank_rows(sheet: Sheet, score: Score | None) -> int:
    """How many empty rows a blank Tischliste gets: the games the ruleset fixes, else a page's worth."""
    if score is not None:
        for key in ("spiele", "games_total", "games"):
            value = score.status.details.get(key)
            if isinstance(value, int) and 0 < value <= 40:
                return value
    return 24


def _games(doc: _Document, sheet: Sheet, score: Score | None) -> None:
    """The log as rows: number, what it was, the running totals per participant."""
    stand = _has_stand(sheet, score)
    people = sheet.participants
    per = 2 if stand else 1
    doc.set_font("Helvetica", style="B", size=8.5)
    longest = max(doc.get_string_width(printable(word)) for p in people for word in p.name.split())
    value_width = max(13.0 if per == 2 else (16.0 if len(people) <= 5 else 12.0), min(longest + 3, 26.0) / per)
    if stand:  # the column headings stay whole words: "Summe", not "Summ|e" (issue 22)
        value_width = max(value_width, max(doc.get_string_width(h) for h in ("Stand", "Summe")) + 2 * 1.2 + 0.8)
    blank = all(entry.kind in (CORRECTION, VOID) for entry in sheet.entries)
    line_height = 3.8
    padding = (1.0, 1.2, 1.0, 1.2)  # top, right, bottom, left
    empty = _blank_rows(sheet, score)
    if blank:  # to fill in by hand: wide columns for the numbers, and the rows the round needs on one page
        value_width = max(value_width, min(30.0, (doc.epw - 70) / (per * len(people))))
        room = doc.h - doc.b_margin - doc.get_y() - (18 if stand else 12) - _signature_height(sheet) - 4
        line_height = max(3.0, min(6.0, room / empty - 1.2))
        padding = (0.6, 1.2, 0.6, 1.2)  # top, right, bottom, left
    value_width = min(value_width, (doc.epw - 10 - 50) / (per * len(people)))  # eight players still leave room
    values = value_width * per * len(people)
    text_width = doc.epw - 10 - values
    widths = [10, text_width] + [value_width] * (per * len(people))
    lines = {line.entry: line for line in score.lines} if score is not None else {}
    voids = {e.target: n for n, e in enumerate(sheet.entries, start=1) if e.kind == VOID}
    head = FontFace(emphasis="BOLD", size_pt=8.5, fill_color=_HEAD_FILL)
    doc.set_font("Helvetica", size=8.5)
    with doc.table(
        col_widths=widths,
        width=doc.epw,
        text_align="LEFT",
        line_height=line_height,
        num_heading_rows=2 if stand else 1,
        headings_style=head,
        padding=padding,
        v_align="TOP",
    ) as table:
        row = table.row()
        row.cell("Nr", align="RIGHT", rowspan=2 if stand else 1)
        row.cell("Spiel", rowspan=2 if stand else 1)
        for p in people:
            row.cell(printable(p.name), colspan=per, align="CENTER")
        if stand:
            row = table.row()
            for _ in people:
                row.cell("Stand", align="RIGHT")
                row.cell("Summe", align="RIGHT")
        printed = 0
        called = numbering(sheet.entries, _ruleset_kinds(sheet))
        changes = _changes(sheet)
        for number, entry in enumerate(sheet.entries, start=1):
            if entry.kind in (CORRECTION, VOID):
                continue
            printed += 1
            line = lines.get(number)
            game = called[number].game if number in called else None
            nr = str(game) if game is not None else ""
            if line is None and number in voids:
                _voided_row(table, sheet, number, entry.kind, changes[voids[number]], per)
            else:
                corrections = [changes[n] for n in line.corrected_by] if line is not None else []
                _line_row(table, sheet, nr, entry.kind, line, stand, corrections)
        if not printed:
            for number in range(1, empty + 1):
                row = table.row()
                row.cell(str(number), align="RIGHT")
                for _ in range(1 + per * len(people)):
                    row.cell("")
    doc.ln(2)


def _ruleset_kinds(sheet: Sheet) -> frozenset[str]:
    try:
        return find_ruleset(sheet.ruleset.id).counted_kinds(sheet)
    except ValueError:  # an unknown ruleset still prints its log
        return frozenset({"game"})


def _changes(sheet: Sheet) -> dict[int, int]:
    """Each correction and Streichung of the log by its number in the list of changes (1, 2, ...)."""
    numbers = [n for n, e in enumerate(sheet.entries, start=1) if e.kind in (CORRECTION, VOID)]
    return {n: i for i, n in enumerate(numbers, start=1)}


def _line_row(table: Any, sheet: Sheet, nr: str, kind: str, line: Line | None, stand: bool, corrections: list[int]) -> None:
    """One row: the game's number as the players count it (none for an event), what happened, the numbers."""
    row = table.row()
    row.cell(nr, align="RIGHT")
    if line is None:  # the sheet cannot be scored: only what the log says
        row.cell(printable(kind_label(kind)))
        for _ in range(len(sheet.participants) * (2 if stand else 1)):
            row.cell("")
        return
    texts = _texts(line)
    if not texts:
        texts = [kind_label(line.kind)]
    elif line.kind != "game":
        texts[0] = f"{kind_label(line.kind)}: {texts[0]}"
    if corrections:
        texts.append("(korrigiert: " + ", ".join(f"Änderung {c}" for c in corrections) + ")")
    row.cell(printable("\n".join(texts)))
    for p in sheet.participants:
        total = str(line.totals.get(p.id, ""))
        if stand:
            current = line.stand.get(p.id, "") if line.stand is not None else ""
            row.cell(str(current), align="RIGHT", style=FontFace(emphasis="BOLD"))
            row.cell(total, align="RIGHT")
        else:
            row.cell(total, align="RIGHT", style=FontFace(emphasis="BOLD"))


def _texts(line: Line) -> list[str]:
    """What a paper list writes of a line: the game (the first reason), the booking (the reason that gives
    exactly the line's points) and whatever followed it (a Bummerl won, Reuegeld); the counting steps
    between game and booking are left to the app's explanation. Without such a booking: every reason."""
    reasons = [e for e in line.explanation if e.text]
    points = {pid: value for pid, value in line.points.items() if value}
    booking = next((i for i, e in enumerate(reasons) if points and {pid: v for pid, v in e.points.items() if v} == points), None)
    if booking is None:
        return [e.text for e in reasons]
    return [e.text for e in [reasons[0], *reasons[max(booking, 1) :]]]


def _voided_row(table: Any, sheet: Sheet, number: int, kind: str, change: int, per: int) -> None:
    """A voided entry keeps its row, without a game number: what it was, struck through, and which
    change (in "Korrekturen und Streichungen") struck it."""
    void = next(n for n, e in enumerate(sheet.entries, start=1) if e.kind == VOID and e.target == number)
    was = _line_before(sheet, number, void)
    row = table.row()
    row.cell("", align="RIGHT", style=FontFace(color=_GREY))
    reason = sheet.entries[void - 1].reason
    text = f"{kind_label(kind)} gestrichen (Änderung {change})" + (f" ({reason})" if reason else "")
    if was:
        text += f"; war: {was}"
    row.cell(printable(text), style=FontFace(color=_GREY, emphasis="ITALICS"))
    for _ in range(per * len(sheet.participants)):
        row.cell("")


def _line_before(sheet: Sheet, entry: int, length: int) -> str:
    """What line ``entry`` said when the log had its first ``length - 1`` entries."""
    partial = sheet.model_copy(update={"entries": sheet.entries[: length - 1]})
    score, _ = _scored(partial)
    if score is None:
        return ""
    for line in score.lines:
        if line.entry == entry:
            texts = [e.text for e in line.explanation if e.text]
            points = ", ".join(f"{sheet.participant(pid).name} {value:+d}" for pid, value in line.points.items() if value)
            return (texts[0] if texts else kind_label(line.kind)) + (f" ({points})" if points else "")
    return ""


def _result(doc: _Document, sheet: Sheet, score: Score | None) -> None:
    if score is None:
        return
    names = {p.id: p.name for p in sheet.participants}
    lines = list(find_ruleset(sheet.ruleset.id).result_lines(sheet, score))
    messages = list(score.status.messages)
    totals = "Summe: " + ", ".join(f"{names[pid]} {value}" for pid, value in score.totals.items())
    doc.set_font("Helvetica", style="B", size=11)
    doc.cell(0, 6, "Ergebnis" if score.status.finished else "Stand", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    for text in [*messages, *lines, totals]:
        doc.text_line(f"• {text}" if text is not totals else text, size=9.5, height=4.6)
    doc.ln(2)


def _trail(doc: _Document, sheet: Sheet, tz: tzinfo | None) -> None:
    """Every correction and void: which entry, when, on which device, why, and what it became."""
    changes = [(n, e) for n, e in enumerate(sheet.entries, start=1) if e.kind in (CORRECTION, VOID)]
    if not changes:
        return
    doc.set_font("Helvetica", style="B", size=11)
    doc.cell(0, 6, "Korrekturen und Streichungen", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    called = numbering(sheet.entries, _ruleset_kinds(sheet))
    for index, (number, entry) in enumerate(changes, start=1):
        what = "korrigiert" if entry.kind == CORRECTION else "gestrichen"
        target = called.get(entry.target) if entry.target is not None else None
        name = target.label.removeprefix("Gestrichen: ") if target is not None else f"Eintrag {entry.target}"
        parts = [f"Änderung {index}: {name} {what}"]
        if entry.at or entry.device:
            parts.append(
                " ".join(
                    p
                    for p in (f"am {_when(entry.at, tz)}" if entry.at else "", f"auf {entry.device}" if entry.device else "")
                    if p
                )
            )
        if entry.reason:
            parts.append(f"Grund: {entry.reason}")
        if entry.kind == CORRECTION and entry.target is not None:
            before = _line_before(sheet, entry.target, number)
            after = _line_before(sheet, entry.target, number + 1)
            if before:
                parts.append(f"vorher: {before}")
            if after:
                parts.append(f"jetzt: {after}")
        doc.text_line("; ".join(parts), size=9, height=4.4)
    doc.ln(2)


def _signature_height(sheet: Sheet) -> float:
    return 12 + 13 * ((len(sheet.participants) + 1) // 2)


def _signature(doc: _Document, sheet: Sheet, tz: tzinfo | None) -> None:
    """Who signed (the close entry), the Turnierleitung's note, and a line per participant to sign by hand."""
    close = None
    for entry in sheet.entries:
        if entry.kind == CLOSE:
            close = entry
    if doc.get_y() + _signature_height(sheet) > doc.h - doc.b_margin:
        doc.add_page()
    doc.set_font("Helvetica", style="B", size=11)
    doc.cell(0, 6, "Unterschriften", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if close is not None and _still_closed(sheet):
        signed = f"Abgeschlossen und unterschrieben von {close.data.get('signed_by', '')}"
        if close.at:
            signed += f" am {_when(close.at, tz)}"
        if close.device:
            signed += f" auf {close.device}"
        doc.text_line(signed, size=9.5, height=4.6)
        if close.data.get("override"):
            doc.text_line(f"Vermerk der Turnierleitung: {close.data['override']}", size=9.5, height=4.6)
    elif sheet.entries:
        doc.text_line("Noch nicht abgeschlossen.", size=9.5, height=4.6)
    half = doc.epw / 2
    doc.set_draw_color(0)
    for index, p in enumerate(sheet.participants):
        if index % 2 == 0:
            top = doc.get_y() + 8.0
        x = doc.l_margin + (index % 2) * half
        doc.line(x, top, x + half - 10, top)
        doc.set_xy(x, top + 0.5)
        doc.set_font("Helvetica", size=8)
        doc.cell(half - 10, 4, printable(f"Unterschrift {p.name}"))
        if index % 2 == 1 or index == len(sheet.participants) - 1:
            doc.set_xy(doc.l_margin, top + 5)


def _still_closed(sheet: Sheet) -> bool:
    """The last close counts unless it was voided later."""
    closes = [n for n, e in enumerate(sheet.entries, start=1) if e.kind == CLOSE]
    voided = {e.target for e in sheet.entries if e.kind == VOID}
    return bool(closes) and closes[-1] not in voided


# -- lists --------------------------------------------------------------------------------------


def _is_number(value: str | int) -> bool:
    if isinstance(value, int):
        return True
    text = value.strip().removesuffix("€").removesuffix("%").strip().replace(",", ".").lstrip("+-±")
    return text.replace(".", "", 1).isdigit()


def _fit(natural: list[float], numeric: list[bool], width: float) -> list[float]:
    """Column widths across the page: too wide, all shrink alike; narrower, the text columns take the rest."""
    total = sum(natural)
    if not natural or total <= 0:
        return natural
    if total >= width:
        return [w * width / total for w in natural]
    text = sum(w for w, number in zip(natural, numeric, strict=True) if not number)
    if text <= 0:
        return [w * width / total for w in natural]
    grow = (width - total) / text
    return [w if number else w * (1 + grow) for w, number in zip(natural, numeric, strict=True)]


def table_pdf(
    title: str,
    subtitle: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str | int]],
    notes: Sequence[str] = (),
) -> bytes:
    """A printable list: ``title`` and ``subtitle`` (the tournament's name and date) on every page, the
    column headings repeated on every page, numbers right-aligned, ``notes`` below, page numbers.

    Landscape when the columns do not fit across a portrait page. A row with fewer cells than
    ``columns`` is padded; one with more is refused (``ValueError``)."""
    for number, row in enumerate(rows, start=1):
        if len(row) > len(columns):
            raise ValueError(f"Zeile {number} hat {len(row)} Werte, die Liste nur {len(columns)} Spalten")
    probe = _Document()
    probe.set_font("Helvetica", size=9)
    natural = []
    for index, heading in enumerate(columns):
        cells = [str(row[index]) for row in rows if index < len(row)]
        width = max([probe.get_string_width(printable(heading)) + 4, *(probe.get_string_width(printable(c)) + 4 for c in cells)])
        natural.append(min(max(width, 10.0), 90.0))
    doc = _Document("landscape" if sum(natural) > 186 else "portrait")
    doc.page_title, doc.page_subtitle = title, subtitle
    doc.footer_note = f"Tischblock · {title}"
    doc.add_page()
    numeric = [
        all(_is_number(row[i]) for row in rows if i < len(row) and str(row[i]).strip()) and bool(rows)
        for i in range(len(columns))
    ]
    widths = _fit(natural, numeric, doc.epw)
    doc.set_font("Helvetica", size=9)
    if columns:
        with doc.table(
            col_widths=widths,
            width=min(sum(widths), doc.epw),
            align="LEFT",
            text_align="LEFT",
            line_height=4.6,
            headings_style=FontFace(emphasis="BOLD", size_pt=9, fill_color=_HEAD_FILL),
            cell_fill_color=_ZEBRA,
            cell_fill_mode="ROWS",
            padding=(1.0, 1.2, 1.0, 1.2),
        ) as table:
            head_row = table.row()
            for index, name in enumerate(columns):
                head_row.cell(printable(name), align="RIGHT" if numeric[index] else "LEFT")
            for row in rows:
                body_row = table.row()
                for index in range(len(columns)):
                    value = str(row[index]) if index < len(row) else ""
                    body_row.cell(printable(value), align="RIGHT" if numeric[index] else "LEFT")
    if notes:
        doc.ln(3)
        for note in notes:
            doc.text_line(note, size=9, height=4.4)
    return doc.bytes()
