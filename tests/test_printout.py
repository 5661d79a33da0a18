"""The PDF printouts (``scoring/printout.py``), read back with pypdf: what a player or organizer sees on
paper must be what the ruleset's score says, on every page, with umlauts and the euro sign intact.

Page 1 of each kind of printout is rendered to ``docs/screenshots/`` (pypdfium2) so it can be looked at."""

from __future__ import annotations

import io
import re
import uuid
from datetime import UTC
from pathlib import Path

import pypdf
import pytest

from scoring import Entry, Participant, Sheet, SheetContext, find_ruleset, score_sheet
from scoring.numbering import numbering
from scoring.printout import printable, sheet_pdf, table_pdf, tischlisten_pdf

from .browser import SCREENSHOTS, SCREENSHOTS_WANTED
from .conftest import ROOT

pytestmark = pytest.mark.printout

EXAMPLES = ROOT / "docs" / "examples"
SHEETS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".score.json"))


def pages(data: bytes) -> list[str]:
    assert data.startswith(b"%PDF-"), "not a PDF"
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def flat(text: str) -> str:
    """The text with every run of whitespace as one space: a cell wraps where it must."""
    return re.sub(r"\s+", " ", text)


def render(data: bytes, name: str, page: int = 0) -> None:
    """Page ``page`` as a PNG into docs/screenshots/ (A4 at 110 dpi)."""
    import pypdfium2

    image = pypdfium2.PdfDocument(data)[page].render(scale=110 / 72).to_pil()
    if SCREENSHOTS_WANTED:  # ./dev screenshots
        image.save(SCREENSHOTS / name)


def load(name: str) -> Sheet:
    return Sheet.from_json((EXAMPLES / name).read_bytes())


@pytest.mark.parametrize("path", SHEETS, ids=[p.stem for p in SHEETS])
def test_the_tischliste_shows_every_line_with_its_running_totals(path: Path) -> None:
    sheet = Sheet.from_json(path.read_bytes())
    score = score_sheet(sheet)
    text = "\n".join(pages(sheet_pdf(sheet, tz=UTC)))
    ruleset = find_ruleset(sheet.ruleset.id)
    assert f"Tischliste · {ruleset.title}" in text
    ctx = sheet.context
    if ctx.tournament:
        assert ctx.tournament in text
    if ctx.round:
        assert f"{ctx.round_label} {ctx.round}" in text
    if ctx.table:
        assert f"Tisch {ctx.table}" in text
    for p in sheet.participants:
        assert p.name in flat(text)
        for member in p.members:
            assert member in text
    # Every line that counts, in log order: a game's number as the players count it starts its row
    # (an event's or the close's row has none), and the row ends with the running totals the ruleset
    # gives (the open Bummerl as "Stand" beside the "Summe" where it has one).
    stand = any(line.stand is not None for line in score.lines)
    called = numbering(sheet.entries, ruleset.counted_kinds(sheet))
    position = 0
    for line in score.lines:
        game = called[line.entry].game
        start = re.compile(rf"(?m)^{game} " if game is not None else r"(?m)^\D").search(text, position)
        assert start is not None, f"row {line.entry} missing after position {position}"
        values = []
        for p in sheet.participants:
            if stand:
                values.append(str(line.stand[p.id]) if line.stand is not None else "")
            values.append(str(line.totals[p.id]))
        expected = re.compile(r"(?m)(^| )" + re.escape(" ".join(v for v in values if v)) + "$")
        found = expected.search(text, start.end())
        assert found is not None, f"row {line.entry}: running totals {values} not found"
        position = found.end()
    for result in ruleset.result_lines(sheet, score):
        assert flat(result) in flat(text)
    for message in score.status.messages:
        assert flat(message) in flat(text)


def test_rows_are_in_order_and_each_row_has_its_own_totals() -> None:
    """The row scan above cannot take a later row's totals for an earlier one: here every row differs."""
    sheet = load("watten-turnier.json")
    text = pages(sheet_pdf(sheet, tz=UTC))[0]
    assert re.search(r"(?m)^1 Die Sautreiber gewinnt das Spiel zu 2 2 2 0 0$", text)
    assert re.search(r"(?m)^12 Kartlbrüder Wörgl gewinnt das Spiel zu 5, 3x ausgeschafft 0 15 9 20$", text)


def test_the_tischliste_marks_corrections_and_the_signature() -> None:
    sheet = load("watten-turnier.json")
    text = flat("\n".join(pages(sheet_pdf(sheet, tz=UTC))))
    assert "(korrigiert: Änderung 1)" in text
    assert "Korrekturen und Streichungen" in text
    assert "Änderung 1: 5. Spiel korrigiert; am 21.11.2026 20:22 auf tablet-A; Grund: Spiel 5 war ausgeschafft" in text
    assert "vorher: Kartlbrüder Wörgl gewinnt das Spiel zu 2 (Kartlbrüder Wörgl +2)" in text
    assert "jetzt: Kartlbrüder Wörgl gewinnt das Spiel zu 3, 1x ausgeschafft (Kartlbrüder Wörgl +3)" in text
    assert "Abgeschlossen und unterschrieben von Sepp Huber am 21.11.2026 20:25 auf tablet-A" in text
    assert "Unterschrift Die Sautreiber" in text and "Unterschrift Kartlbrüder Wörgl" in text


def test_a_voided_entry_keeps_its_row_and_says_what_it_was() -> None:
    sheet = load("bauernschnapsen.json")
    voids = [(n, e) for n, e in enumerate(sheet.entries, start=1) if e.kind == "void"]
    assert voids, "the example has a void"
    text = flat("\n".join(pages(sheet_pdf(sheet, tz=UTC))))
    changes = [n for n, e in enumerate(sheet.entries, start=1) if e.kind in ("correction", "void")]
    called = numbering(sheet.entries, find_ruleset(sheet.ruleset.id).counted_kinds(sheet))
    for number, void in voids:
        change = changes.index(number) + 1
        assert f"gestrichen (Änderung {change})" in text
        struck = called[void.target].label.removeprefix("Gestrichen: ")
        assert f"Änderung {change}: {struck} gestrichen" in text, struck
        if void.reason:
            assert flat(void.reason) in text


def test_umlauts_and_the_euro_sign_print_as_they_are() -> None:
    sheet = load("schafkopf-turnier.json")
    data = sheet_pdf(sheet, tz=UTC)
    text = flat("\n".join(pages(data)))
    assert "Reuegeld am Tisch: 8,00 €" in text
    assert "Bernd Kiermaier zahlt 0,50 € (verlorenes Rufspiel)" in text
    assert "Kirchweih-Schafkopfturnier" in text
    render(data, "pdf-tischliste-schafkopf.png")
    render(sheet_pdf(load("watten-turnier.json"), tz=UTC), "pdf-tischliste-watten.png")


def test_characters_the_core_fonts_lack_print_in_their_plain_form() -> None:
    assert printable("Zoë Strauß „Wirt“ – 1,50 € ×2") == "Zoë Strauß „Wirt“ – 1,50 € ×2"
    assert printable("Łukasz → Nowak ≤ 3") == "Lukasz -> Nowak <= 3"
    assert printable("Dvořák Čech") == "Dvorák Cech"
    assert printable("🂡 王") == "? ?"
    sheet = find_ruleset("watten-turnier").new_sheet(
        [Participant(id="A", name="Łukasz & Dvořák"), Participant(id="B", name="Zoë 🂡")],
        SheetContext(tournament="Watten → Söll", round_label="Durchgang", round=1, table=2),
    )
    text = "\n".join(pages(sheet_pdf(sheet)))
    assert "Lukasz & Dvorák" in text and "Zoë ?" in text and "Watten -> Söll" in text


def test_a_long_sheet_breaks_pages_and_repeats_the_headings() -> None:
    sheet = load("doppelkopf-haus.json")
    texts = pages(sheet_pdf(sheet, tz=UTC))
    assert len(texts) >= 3
    table_pages = [t for t in texts if re.search(r"(?m)^\d+ ", t)]
    assert len(table_pages) >= 2
    for number, text in enumerate(texts, start=1):
        assert f"Seite {number} von {len(texts)}" in text
        assert f"Blatt {str(sheet.id)[:8]}" in text
    for text in table_pages:
        assert text.count("Nr Spiel") == 1
        assert "Emil" in text and "Wagner" in text
    render(sheet_pdf(sheet, tz=UTC), "pdf-tischliste-seite-2.png", page=1)


def test_a_sheet_its_ruleset_refuses_still_prints_its_log_and_says_why() -> None:
    sheet = load("watten-turnier.json")
    broken = sheet.model_copy(update={"entries": (*sheet.entries[:3], Entry(kind="game", data={"winner": "A", "value": 99}))})
    text = flat("\n".join(pages(sheet_pdf(broken, tz=UTC))))
    assert "Das Blatt lässt sich nicht werten: 4. Spiel" in text
    assert "Die Sautreiber" in text


def blank_schafkopf(table: int) -> Sheet:
    return (
        find_ruleset("schafkopf-turnier")
        .new_sheet(
            [
                Participant(id=f"p{i}", name=name, seat=i, start_number=10 * table + i)
                for i, name in enumerate(["Änne Öttl", "Jürgen Weiß", "Bernd Kiermaier", "Zoë Strauß"], start=1)
            ],
            SheetContext(tournament="Kirchweih-Schafkopfturnier Aichach 2026", round_label="Serie", round=1, table=table),
        )
        .model_copy(update={"id": uuid.UUID(int=table)})
    )  # the same page every run


def test_the_tischlisten_of_a_round_put_each_table_on_its_own_pages() -> None:
    watten = load("watten-turnier.json")
    data = tischlisten_pdf(
        [blank_schafkopf(3), watten, blank_schafkopf(4)], "Kirchweih Aichach 2026", "Samstag, 21.11.2026", tz=UTC
    )
    texts = pages(data)
    starts = [i for i, t in enumerate(texts) if "Tischliste · " in t]
    assert [texts[i].count("Tischliste · ") for i in starts] == [1, 1, 1]
    assert len(starts) == 3
    for text in texts:
        assert text.startswith("Kirchweih Aichach 2026\nSamstag, 21.11.2026")
    # A blank Tischliste is one page: the Serie's 32 rows to fill in, and the lines to sign.
    blank = texts[starts[0]]
    assert starts[1] == starts[0] + 1
    assert [int(n) for n in re.findall(r"(?m)^(\d+)$", blank)] == list(range(1, 33))
    assert "Tisch 3" in blank and "Unterschrift Zoë Strauß" in blank
    assert "Datum: ____________" in blank
    assert "Tisch 4" in texts[starts[2]]
    assert "Kathreinwatten Söll 2026" in texts[starts[1]]
    render(data, "pdf-tischliste-leer.png")


def test_a_list_repeats_title_and_headings_on_every_page() -> None:
    rows: list[list[str | int]] = [
        [n, f"Spieler {n} Müßig", "SV Söll" if n % 3 else "", 200 - n, f"{n // 2},{50 if n % 2 else 0:02d} €"]
        for n in range(1, 90)
    ]
    data = table_pdf(
        "Rangliste Kathreinwatten Söll 2026",
        "Söll, 21.11.2026 · nach 3 Durchgängen",
        ["Rang", "Name", "Verein", "Punkte", "Reuegeld"],
        rows,
        ["Tisch 7, Serie 2: Summe 98 statt 100", "Startnummer 12 hat nach Durchgang 2 zurückgezogen"],
    )
    texts = pages(data)
    assert len(texts) >= 2
    for number, text in enumerate(texts, start=1):
        assert text.startswith("Rangliste Kathreinwatten Söll 2026\nSöll, 21.11.2026 · nach 3 Durchgängen")
        assert "Rang Name Verein Punkte Reuegeld" in text
        assert f"Seite {number} von {len(texts)}" in text
    body = "\n".join(texts)
    found = [int(n) for n in re.findall(r"(?m)^(\d+) Spieler \1 Müßig", body)]
    assert found == list(range(1, 90))
    assert "2 Spieler 2 Müßig SV Söll 198 1,00 €" in body
    assert "Tisch 7, Serie 2: Summe 98 statt 100" in texts[-1]
    render(data, "pdf-liste.png")


def test_a_wide_list_turns_the_page_and_a_bad_row_is_refused() -> None:
    columns = [f"Durchgang {n} Bummerl" for n in range(1, 10)]
    data = table_pdf("Breit", "", columns, [[n] * 9 for n in range(3)])
    box = pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert box.width > box.height
    narrow = pypdf.PdfReader(io.BytesIO(table_pdf("Schmal", "", ["Nr", "Name"], [[1, "A"]]))).pages[0].mediabox
    assert narrow.width < narrow.height
    with pytest.raises(ValueError, match="Zeile 2 hat 3 Werte, die Liste nur 2 Spalten"):
        table_pdf("Falsch", "", ["Nr", "Name"], [[1, "A"], [2, "B", "C"]])


def test_the_stand_and_summe_headings_stay_whole_words() -> None:
    """Issue 22: "Summe" broke as "Summ|e" in a narrow column; each heading is one word on one line."""
    for path in SHEETS:
        sheet = Sheet.from_json(path.read_bytes())
        text = pages(sheet_pdf(sheet, tz=UTC))[0]
        if "Stand" in text:
            assert re.search(r"(?m)\bSumme\b", text) and not re.search(r"(?m)\bSumm$", text), text[:400]
