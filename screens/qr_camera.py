"""The camera's picture while "QR-Code scannen" looks for the Startkarte's or the Aushang's QR code.

flet-camera's ``Camera`` (the phone's back camera; in a browser the camera the page may use): one still
after another goes to ``sync.scan.qr_texts`` in a worker thread until ``on_texts`` takes a join line. A
phone or browser without a camera (or that refuses it) says so through ``on_unavailable``, and the join
screen offers a photo of the QR code instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import flet as ft
import flet_camera as fc

from sync.protocol import InvalidJoinLine
from sync.scan import qr_texts

FRAME_PAUSE = 0.3
"""Seconds between two stills (the decoding itself takes about as long on a phone)."""


def camera_possible(page: ft.Page) -> bool:
    """flet-camera works on Android, iOS and in a browser (there only on https or localhost)."""
    return bool(page.web) or page.platform in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS)


def camera_trouble(error: Exception) -> str:
    """Why the camera does not open, in a player's words (the platform's error names the case)."""
    text = str(error)
    if "NotFound" in text or "cameraNotFound" in text or "no camera" in text.lower():
        return "Keine Kamera gefunden."
    if "ermission" in text or "NotAllowed" in text or "Denied" in text:
        return "Die Kamera ist für Tischblock nicht erlaubt (in den Einstellungen des Handys oder des Browsers erlauben)."
    if "NotSupported" in text or "notSupported" in text or "mediaDevices" in text:
        return "Dieser Browser gibt die Kamera nicht frei (im Browser geht sie nur über https)."
    return "Die Kamera lässt sich nicht öffnen."


def _back_camera(cameras: list[fc.CameraDescription]) -> fc.CameraDescription:
    backs = [c for c in cameras if c.lens_direction == fc.CameraLensDirection.BACK]
    return (backs or cameras)[0]


async def _scan(camera: fc.Camera, on_texts: Callable[[list[str]], bool], on_unavailable: Callable[[str], None]) -> None:
    try:
        cameras = await camera.get_available_cameras()
        if not cameras:
            on_unavailable("Keine Kamera gefunden.")
            return
        await camera.initialize(_back_camera(cameras), fc.ResolutionPreset.HIGH, enable_audio=False)
    except (RuntimeError, TimeoutError) as error:
        on_unavailable(camera_trouble(error))
        return
    while True:
        try:
            picture = await camera.take_picture()
        except (RuntimeError, TimeoutError) as error:
            on_unavailable(f"Die Kamera liefert kein Bild. {camera_trouble(error)}")
            return
        try:
            texts = await asyncio.to_thread(qr_texts, picture)
        except InvalidJoinLine:
            texts = []  # a frame the camera could not encode: the next one
        if texts and on_texts(texts):
            return
        await asyncio.sleep(FRAME_PAUSE)


@ft.component
def QrCamera(on_texts: Callable[[list[str]], bool], on_unavailable: Callable[[str], None]) -> ft.Control:
    """``on_texts``: the QR codes' texts of a still; returns True once it took a join line (scanning stops)."""
    camera = ft.use_memo(lambda: fc.Camera(expand=True, preview_enabled=True), dependencies=[])

    def start() -> Callable[[], object]:
        return ft.context.page.run_task(_scan, camera, on_texts, on_unavailable).cancel

    ft.use_effect(start, dependencies=[])
    return ft.Semantics(
        label="Kamerabild: den QR-Code der Startkarte ins Bild halten",
        container=True,
        content=ft.Container(height=320, border_radius=12, clip_behavior=ft.ClipBehavior.HARD_EDGE, content=camera),
    )
