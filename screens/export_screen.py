"""Teilen / Exportieren: one sheet as the PDF Tischliste (the layout the host prints), as CSV for a
spreadsheet and as the Tischblock sheet file, through the share sheet or as a download."""

from __future__ import annotations

import flet as ft

from .export_state import KINDS, ExportState, Kind
from .looks import error_box, scaling
from .share import deliver, hand_over_label
from .sheet_state import SheetState

_HELP: dict[Kind, tuple[ft.IconData, str]] = {
    "pdf": (
        ft.Icons.PICTURE_AS_PDF,
        "Die Tischliste zum Ausdrucken: jedes Spiel mit dem Stand, das Ergebnis, Korrekturen, Unterschrift.",
    ),
    "csv": (ft.Icons.TABLE_CHART, "Jedes Spiel mit den Punkten jedes Teilnehmers, für LibreOffice oder Excel."),
    "json": (ft.Icons.DATA_OBJECT, "Das Blatt selbst, mit jedem Eintrag: ein anderes Handy liest es unter „Sicherung“ ein."),
}


def status(exports: ExportState) -> list[ft.Control]:
    """What the last action did, or why it failed."""
    out: list[ft.Control] = []
    if exports.busy:
        out.append(ft.Text(f"{exports.busy} wird übergeben …", size=14))
    if exports.error:
        out.append(
            error_box(exports.error)
        )
    elif exports.message:
        out.append(ft.Text(exports.message, size=15, weight=ft.FontWeight.W_500))
    return out


@scaling  # every screen follows the player's text size (issue 22)
@ft.component
def ExportScreen(state: SheetState, exports: ExportState, route: str) -> ft.View:
    sheet = state.sheet
    appbar = ft.AppBar(title=ft.Text("Teilen / Exportieren", size=18))
    if sheet is None:
        return ft.View(route=route, appbar=appbar, controls=[ft.Text(state.load_error or "Das Blatt wird geladen …", size=16)])
    verb = hand_over_label()

    async def send(kind: Kind) -> None:
        file = exports.file_for(sheet, kind)
        if file is None:
            return
        await deliver(exports, file)

    def option(kind: Kind) -> ft.Control:
        label = KINDS[kind][0]
        icon, help_text = _HELP[kind]

        async def clicked(_: ft.Event[ft.Button]) -> None:
            await send(kind)

        return ft.Column(
            spacing=4,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            controls=[
                ft.Button(f"{label} {verb}", icon=icon, height=52, disabled=exports.busy is not None, on_click=clicked),
                ft.Text(help_text, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
        )

    controls: list[ft.BaseControl] = [
        ft.Text(state.title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text(" – ".join(p.name for p in sheet.participants), size=15),
    ]
    if state.where:
        controls.append(ft.Text(state.where, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    controls.append(ft.Divider())
    controls.extend(option(kind) for kind in KINDS)
    controls.extend(status(exports))
    return ft.View(
        route=route,
        appbar=appbar,
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=controls,
    )
