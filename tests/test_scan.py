"""Reading the join line from a QR code (issue 21): QR codes made with segno of every kind of join line,
turned, small, blurred, noisy and photographed, decode to the same line; anything else gets a German reason."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

import pytest
import segno
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFilter

from sync.protocol import InvalidJoinLine, JoinLine
from sync.scan import MAX_PIXELS, read_join_qr

FP = "3F:A9:" + ":".join(f"{n:02X}" for n in range(30))
AUSHANG = JoinLine(url="https://192.168.1.20:8443", code="K7P4Q2", fingerprint=FP)
STARTKARTE = AUSHANG.model_copy(update={"start_number": 12, "secret": "7KQ4-M2XP"})
PLAIN_HTTP = JoinLine(url="http://192.168.1.20:8080", code="WATT2026", start_number=4711, secret="ABCD-EFGH-1234")
IPV6 = JoinLine(url="https://[fd00::1]:8443", code="SK2026", fingerprint=FP, start_number=99999, secret="Z" * 32)
LINES = {"Aushang (https)": AUSHANG, "Startkarte (https, nr+key)": STARTKARTE, "http": PLAIN_HTTP, "IPv6": IPV6}


def qr_image(text: str, scale: int = 8) -> Image.Image:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=4)
    buffer.seek(0)
    return Image.open(buffer).convert("L")


def png(image: Image.Image, kind: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB" if kind == "JPEG" else image.mode).save(buffer, kind, quality=60)
    return buffer.getvalue()


def turned(image: Image.Image) -> Image.Image:
    return image.rotate(23, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)


def upside_down(image: Image.Image) -> Image.Image:
    return image.rotate(180)


def small(image: Image.Image) -> Image.Image:
    """About two pixels per module: the code fills a corner of a far-away photo."""
    return image.resize((image.width // 4, image.height // 4), Image.Resampling.BILINEAR)


def blurred(image: Image.Image) -> Image.Image:
    return image.filter(ImageFilter.GaussianBlur(radius=2.5))


def noisy(image: Image.Image) -> Image.Image:
    """Salt and pepper on 6 % of the pixels, and grain over all of them."""
    rng = random.Random(21)
    pixels = image.copy()
    width, height = pixels.size
    for _ in range(width * height * 6 // 100):
        pixels.putpixel((rng.randrange(width), rng.randrange(height)), rng.choice((0, 255)))
    grain = Image.effect_noise(pixels.size, 40)
    return Image.blend(pixels, grain, 0.25)


def photographed(image: Image.Image) -> Image.Image:
    """Small and turned on a grey table, soft and low in contrast, as a JPEG from a phone."""
    table = Image.new("L", (2400, 1800), 150)
    code = turned(image.resize((image.width * 2 // 3, image.height * 2 // 3))).point(lambda v: 60 + v * 140 // 255)
    table.paste(code, (900, 500))
    return table.filter(ImageFilter.GaussianBlur(radius=1.5))


DISTORTIONS: dict[str, Callable[[Image.Image], Image.Image]] = {
    "as printed": lambda image: image,
    "turned 23°": turned,
    "upside down": upside_down,
    "scaled down": small,
    "blurred": blurred,
    "with noise": noisy,
    "photographed": photographed,
}


@pytest.mark.parametrize("distortion", DISTORTIONS)
@pytest.mark.parametrize("kind", LINES)
def test_every_join_line_decodes_to_the_same_line(kind: str, distortion: str) -> None:
    line = LINES[kind]
    image = DISTORTIONS[distortion](qr_image(line.format()))
    assert read_join_qr(png(image, "JPEG" if distortion == "photographed" else "PNG")) == line


def test_a_qr_code_of_the_web_link_is_read_too() -> None:
    """A QR code of the web app's address (``http://…:8550/beitreten?url=…``) carries the same line."""
    assert read_join_qr(png(turned(qr_image("http://192.168.1.5:8550" + STARTKARTE.web_path())))) == STARTKARTE


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=st.text("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=4, max_size=12),
    number=st.none() | st.integers(1, 99_999),
    key=st.text("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-", min_size=4, max_size=32),
    port=st.integers(1, 65_535),
)
def test_any_join_line_survives_the_qr_code(code: str, number: int | None, key: str, port: int) -> None:
    line = JoinLine(
        url=f"https://10.0.0.2:{port}", code=code, fingerprint=FP, start_number=number, secret=key if number else None
    )
    image = qr_image(line.format(), scale=5).filter(ImageFilter.GaussianBlur(radius=1.5))
    assert read_join_qr(png(image)) == line


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("https://www.watten.at/turniere", "Dieser QR-Code ist nicht von Tischblock (https://www.watten.at/turniere)"),
        ("WIFI:S:Gasthof Post;T:WPA;P:kartln;;", "nicht von Tischblock"),
        ("Sepp Huber, Startnummer 12", "Bitte den QR-Code auf der Startkarte oder am Aushang scannen"),
        ("tischblock://join?url=https://192.168.1.20:8443&code=K7P4Q2", "von Tischblock, aber unvollständig"),
    ],
)
def test_a_qr_code_that_is_not_tischblocks_gets_a_german_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidJoinLine, match=re.escape(reason)):
        read_join_qr(png(qr_image(text)))


def test_no_qr_code_or_no_image_gets_a_german_reason() -> None:
    with pytest.raises(InvalidJoinLine, match="kein QR-Code zu erkennen"):
        read_join_qr(png(Image.new("L", (640, 480), 200)))
    with pytest.raises(InvalidJoinLine, match="kein QR-Code zu erkennen"):  # cut off: half a code is none
        image = qr_image(STARTKARTE.format())
        read_join_qr(png(image.crop((0, 0, image.width // 2, image.height))))
    with pytest.raises(InvalidJoinLine, match="kein Bild"):
        read_join_qr(b"%PDF-1.7 not a photo")
    with pytest.raises(InvalidJoinLine, match="Kein Bild bekommen"):
        read_join_qr(b"")


def test_a_decompression_bomb_is_refused_before_it_is_decoded() -> None:
    side = int(MAX_PIXELS**0.5) + 100
    bomb = png(Image.new("1", (side, side), 1))
    assert len(bomb) < 2_000_000
    with pytest.raises(InvalidJoinLine, match="zu viele Bildpunkte"):
        read_join_qr(bomb)
