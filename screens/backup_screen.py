"""Sicherung: every sheet on this phone as one backup file (the format of ``tischblock export``), shared
or downloaded; and a backup or a shared sheet read in from a picked file, with what the import did."""

from __future__ import annotations

import flet as ft

from .export_screen import status
from .export_state import ExportState, ImportView
from .looks import scaling
from .share import deliver, hand_over_label


def _report(report: ImportView) -> ft.Control:
    """What the import did with each sheet: added, updated, unchanged, kept, refused and why."""
    lines: list[ft.Control] = [
        ft.Text(f"Eingelesen aus {report.source}", size=16, weight=ft.FontWeight.BOLD),
        ft.Text(report.summary, size=15, weight=ft.FontWeight.W_500),
    ]
    for line in report.lines:
        lines.append(
            ft.Text(
                line.text,
                size=14,
                color=None if line.taken else ft.Colors.ERROR,
                weight=None if line.taken else ft.FontWeight.W_500,
            )
        )
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        content=ft.Column(spacing=4, controls=lines),
    )


@scaling  # every screen follows the player's text size (issue 22)
@ft.component
def BackupScreen(exports: ExportState, route: str) -> ft.View:
    verb = hand_over_label()

    def picked(event: ft.FilePickerResultEvent) -> None:
        if not event.files:
            return
        chosen = event.files[0]
        exports.imported(chosen.bytes, chosen.name)

    picker = ft.use_memo(lambda: ft.FilePicker(on_result=picked), dependencies=[])

    async def back_up(_: ft.Event[ft.Button]) -> None:
        file = exports.backup()
        if file is None:
            return
        await deliver(exports, file)

    controls: list[ft.BaseControl] = [
        ft.Text(f"Auf diesem Handy: {exports.count()} Blätter", size=16, weight=ft.FontWeight.W_600),
        ft.Button(
            f"Sicherung {verb}",
            icon=ft.Icons.DOWNLOAD,
            height=52,
            disabled=exports.busy is not None,
            on_click=back_up,
        ),
        ft.Text(
            "Alle Blätter mit jedem Eintrag in einer Datei (mit Prüfsumme), wie „tischblock export“ sie schreibt.",
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        ),
        ft.Divider(),
        ft.OutlinedButton(
            "Sicherung einlesen",
            icon=ft.Icons.UPLOAD_FILE,
            height=52,
            action=ft.PickFiles(picker, dialog_title="Sicherung einlesen", with_data=True),
        ),
        ft.Text(
            "Eine Sicherung oder ein geteiltes Blatt (.json). Eine beschädigte Datei ändert nichts; ein Blatt, "
            "das hier weiter ist, wird nie durch einen älteren Stand ersetzt.",
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        ),
        *status(exports),
    ]
    if exports.report is not None:
        controls.append(_report(exports.report))
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text("Sicherung", size=18)),
        scroll=ft.ScrollMode.AUTO,
        padding=12,
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=controls,
    )
