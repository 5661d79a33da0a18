"""Handing a file to the platform: the share sheet on a phone (``ft.Share``), a download in the browser
and a save dialog on the desktop (``ft.FilePicker.save_file`` with the bytes).

A browser has no share sheet Flet can reach after the round trip to Python (``navigator.share``
needs the tap itself, and Chromium on the desktop has none), so the browser always downloads.
"""

from __future__ import annotations

from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import flet as ft

from .export_state import ExportFile, ExportState

S = TypeVar("S", bound=ft.Service)

_SERVICES: WeakKeyDictionary[Any, dict[type, ft.Service]] = WeakKeyDictionary()
"""One service of each kind per page, kept as long as the page lives (the page drops a service
nothing refers to)."""


def service(kind: type[S]) -> S:
    """The current page's one ``kind`` service (made on first use)."""
    page = ft.context.page
    services = _SERVICES.setdefault(page, {})
    if kind not in services:
        services[kind] = kind()
    found = services[kind]
    assert isinstance(found, kind)
    return found


def shares() -> bool:
    """Whether this app runs where a share sheet is (the packaged app on a phone)."""
    page = ft.context.page
    return not page.web and page.platform is not None and page.platform.is_mobile()


def hand_over_label() -> str:
    """What handing over a file is called here: teilen, herunterladen or speichern."""
    if shares():
        return "teilen"
    return "herunterladen" if ft.context.page.web else "speichern"


async def hand_over(file: ExportFile) -> str | None:
    """Give ``file`` to the player: share sheet, download or save dialog. Returns what happened, in
    German ("geteilt", "heruntergeladen", "gespeichert unter …"), or ``None`` if the player cancelled."""
    page = ft.context.page
    if shares():
        result = await service(ft.Share).share_files(
            [ft.ShareFile.from_bytes(file.data, mime_type=file.mime, name=file.name)], subject=file.name
        )
        return None if result.status == ft.ShareResultStatus.DISMISSED else "geteilt"
    path = await service(ft.FilePicker).save_file(dialog_title=file.label, file_name=file.name, src_bytes=file.data)
    if page.web:
        return "heruntergeladen"
    return f"gespeichert unter {path}" if path else None


async def deliver(exports: ExportState, file: ExportFile) -> None:
    """Hand ``file`` over (``hand_over``) and tell ``exports`` how it went: done, cancelled or why not."""
    exports.sending(file)
    try:
        how = await hand_over(file)
    except (RuntimeError, ValueError, TimeoutError) as error:
        exports.failed(f"{file.label} konnte nicht übergeben werden: {error}")
        return
    if how is None:
        exports.failed(f"{file.label}: abgebrochen, nichts {hand_over_label()}")
    else:
        exports.done(file, how)
