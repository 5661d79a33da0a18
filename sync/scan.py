"""Reading the join line from a QR code: a camera frame or a photo of the Startkarte or the Aushang.

``read_join_qr(image)`` is a pure function from the image's bytes (PNG, JPEG, …) to the ``JoinLine`` it
shows. The decoding is zxing-cpp's (it finds the code turned, small, blurred or noisy); Pillow reads the
image. Every failure is an ``InvalidJoinLine`` with a German sentence the join screen shows next to its
field: no image, no QR code on it, or a QR code that is not Tischblock's.
"""

from __future__ import annotations

import io
import warnings

import zxingcpp
from PIL import Image, ImageFilter, ImageOps, UnidentifiedImageError

from .protocol import InvalidJoinLine, JoinLine

MAX_IMAGE_BYTES = 20 * 1024 * 1024
"""Largest photo read (20 MiB: a phone's full-resolution JPEG is well below)."""
MAX_PIXELS = 50_000_000
"""Larger images are refused before they are decoded (a decompression bomb is no photo)."""
QR = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
WORKING_SIZE = 1600
"""A photo is scaled down to this many pixels on its long side before the QR code is looked for (fast, and a
QR code that fills a tenth of the photo still has several pixels per module)."""


def _image(data: bytes) -> Image.Image:
    if not data:
        raise InvalidJoinLine("Kein Bild bekommen: bitte den QR-Code noch einmal fotografieren oder ein Foto wählen.")
    if len(data) > MAX_IMAGE_BYTES:
        raise InvalidJoinLine(
            f"Das Bild ist zu groß (über {MAX_IMAGE_BYTES // (1024 * 1024)} MB): bitte ein kleineres Foto wählen."
        )
    unreadable = InvalidJoinLine("Das ist kein Bild, das Tischblock lesen kann (PNG oder JPEG-Foto wählen).")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            opened = Image.open(io.BytesIO(data))
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise unreadable from None
        if opened.width * opened.height > MAX_PIXELS:
            raise InvalidJoinLine("Das Bild hat zu viele Bildpunkte: bitte ein gewöhnliches Foto wählen.")
        try:
            opened.load()
        except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise unreadable from None
    image: Image.Image = ImageOps.exif_transpose(opened) or opened
    gray = image.convert("L")
    if max(gray.size) > WORKING_SIZE:
        gray.thumbnail((WORKING_SIZE, WORKING_SIZE))
    return gray


def qr_texts(data: bytes) -> list[str]:
    """The texts of every QR code on the image (empty if there is none); ``InvalidJoinLine`` if it is no image."""
    gray = _image(data)
    # As it is; then a soft or low-contrast photo with its contrast stretched; then a grainy one smoothed.
    for attempt in (gray, ImageOps.autocontrast(gray, cutoff=2), gray.filter(ImageFilter.MedianFilter(3))):
        found = zxingcpp.read_barcodes(attempt, formats=QR)
        if found:
            return [barcode.text for barcode in found if barcode.valid and barcode.text]
    return []


def join_line_of(texts: list[str]) -> JoinLine:
    """The join line among the QR codes' texts; the German reason if there is none."""
    if not texts:
        raise InvalidJoinLine(
            "Auf dem Bild ist kein QR-Code zu erkennen. Bitte den QR-Code ganz, gerade und scharf ins Bild nehmen."
        )
    broken: list[InvalidJoinLine] = []
    for text in texts:
        try:
            line = JoinLine.from_link(text)
        except InvalidJoinLine as error:
            broken.append(error)
            continue
        if line is not None:
            return line
    if broken:
        raise InvalidJoinLine(f"Der QR-Code ist von Tischblock, aber unvollständig: {broken[0]}")
    shown = texts[0] if len(texts[0]) <= 60 else texts[0][:57] + "…"
    raise InvalidJoinLine(
        f"Dieser QR-Code ist nicht von Tischblock ({shown}). Bitte den QR-Code auf der Startkarte oder am Aushang scannen."
    )


def read_join_qr(data: bytes) -> JoinLine:
    """The join line the QR code on the image shows (``InvalidJoinLine`` with the German reason if none)."""
    return join_line_of(qr_texts(data))
