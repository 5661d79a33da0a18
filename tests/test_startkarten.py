"""Startkarten (issue 20): one per entrant from the organizer's roster page, the QR code on each decodes
(from the rendered page, as a phone's camera sees it) to the join line that joins exactly that entrant."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator

import pypdfium2
import pytest
import segno
import zxingcpp

from scoring.startkarten import Startkarte, startkarten_pdf
from sync.client import join
from sync.protocol import JoinLine

from .host_helpers import PASSWORD, RunningHost, organizer_call, start_host
from .test_trust import ROSTER

NAMES = {1: "Die Sautreiber", 2: "Kartlbrüder Wörgl", 3: "Stanglwirt-Buam", 4: "Hopfgartner Asse"}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    running = start_host(tmp_path_factory.mktemp("karten"))
    try:
        assert organizer_call(running, "PUT", "/plan", {"ruleset_id": "watten-turnier"}).status_code == 200
        assert organizer_call(running, "POST", "/roster/csv", {"csv": ROSTER}).status_code == 200
        yield running
    finally:
        running.stop()


def pages_of(pdf: bytes) -> list[tuple[str, list[str]]]:
    """Each page's text and the QR codes decoded from its rendering (200 dpi)."""
    document = pypdfium2.PdfDocument(pdf)
    out = []
    for page in document:
        text = page.get_textpage().get_text_range()
        image = page.render(scale=200 / 72).to_pil()
        codes = [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
        out.append((text, codes))
    return out


def download(host: RunningHost, per_page: int) -> bytes:
    auth = base64.b64encode(f"organizer:{PASSWORD}".encode()).decode()
    reply = host.session().get(
        f"{host.url}/veranstalter/export/startkarten.pdf",
        params={"je_seite": per_page},
        headers={"Authorization": f"Basic {auth}"},
        timeout=60,
    )
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/pdf" and reply.headers["cache-control"] == "no-store"
    return reply.content


def test_one_card_per_page_each_qr_joins_exactly_its_entrant(host: RunningHost) -> None:
    secrets = {e["entrant"]["start_number"]: e["secret"] for e in organizer_call(host, "GET", "/roster").json()}
    pages = pages_of(download(host, 1))
    assert len(pages) == 4
    for number, (text, codes) in enumerate(pages, start=1):
        assert f"Startnummer {number}" in text and NAMES[number] in text and secrets[number] in text
        (code,) = codes
        line = JoinLine.parse(code)
        assert (line.start_number, line.secret, line.url, line.fingerprint) == (
            number,
            secrets[number],
            host.url,
            host.fingerprint,
        )
        joined = join(code, None, None, f"Handy {number}")
        assert (joined.start_number, joined.team) == (number, NAMES[number])


def test_four_cards_per_page(host: RunningHost) -> None:
    (page,) = pages_of(download(host, 4))
    text, codes = page
    assert sorted(JoinLine.parse(c).start_number or 0 for c in codes) == [1, 2, 3, 4]
    assert all(name in text for name in NAMES.values())
    bad = host.session().get(
        f"{host.url}/veranstalter/export/startkarten.pdf",
        params={"je_seite": 3},
        headers={"Authorization": "Basic " + base64.b64encode(f"organizer:{PASSWORD}".encode()).decode()},
        timeout=30,
    )
    assert bad.status_code == 422


def test_the_pure_renderer_fills_pages_of_eight_and_says_when_there_is_no_one() -> None:
    def card(n: int) -> Startkarte:
        line = f"tischblock://join?url=http://h:1&code=X&nr={n}&key=ABCD-EF{n:02d}"
        png = io.BytesIO()
        segno.make(line, error="m").save(png, kind="png", scale=8, border=4)
        return Startkarte(n, f"Spieler {n}", (), f"ABCD-EF{n:02d}", line, png.getvalue())

    cards = [card(n) for n in range(1, 10)]
    pages = pages_of(startkarten_pdf(cards, "Preisschafkopf", per_page=8))
    assert [len(codes) for _, codes in pages] == [8, 1]
    empty = pages_of(startkarten_pdf([], "Preisschafkopf"))
    assert "noch keine Teilnehmer" in empty[0][0]
    with pytest.raises(ValueError, match="je Seite"):
        startkarten_pdf(cards, "X", per_page=3)
