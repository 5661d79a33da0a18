"""Close and sign: the result as the ruleset computes it, the signature, and before the end of the
round the Turnierleitung's note, which the rulesets require for an early close."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .looks import entered, error_box, scaling
from .sheet_state import NO_SIGNATURE, SheetState


@scaling
@ft.component
def CloseScreen(state: SheetState, on_done: Callable[[], None], route: str, signer: str = "") -> ft.View:
    """``signer``: the player's own name from the settings, prefilled as the signature.

    What is typed is kept in refs, not in state: the tap on "Abschließen und unterschreiben" can reach
    the app before the re-render that follows the last keystroke, and must sign with what was typed."""
    signature = ft.use_ref(signer)
    note = ft.use_ref("")

    def set_signer(value: str) -> None:
        signature.current = value

    def set_note(value: str) -> None:
        note.current = value

    def sign(_: ft.Event[ft.Button]) -> None:
        if state.close(signature.current or "", (note.current or "") if state.needs_note else None):
            on_done()

    controls: list[ft.BaseControl] = []
    if state.sheet is None:
        controls.append(ft.Text(state.load_error or "Kein Blatt.", color=ft.Colors.ERROR))
    else:
        controls.append(ft.Text(state.title + (f" · {state.where}" if state.where else ""), size=15))
        controls.extend(ft.Text(m, size=15, weight=ft.FontWeight.W_500) for m in state.status_messages)
        lines = state.result_lines
        if lines:
            controls.append(ft.Text("Ergebnis", size=18, weight=ft.FontWeight.BOLD))
            controls.extend(ft.Text(text, size=15) for text in lines)
        if state.closed:
            controls.append(ft.Text("Das Blatt ist abgeschlossen und unterschrieben.", size=16, weight=ft.FontWeight.BOLD))
        else:
            if state.needs_note:
                controls.append(
                    ft.Text(
                        "Die Runde ist noch nicht zu Ende. Vorzeitig abschließen darf nur die Turnierleitung: "
                        "ihr Vermerk ist nötig.",
                        size=15,
                        color=ft.Colors.ERROR,
                    )
                )
                controls.append(
                    ft.TextField(
                        label="Vermerk der Turnierleitung",
                        value=note.current or "",
                        on_change=lambda e: set_note(entered(e)),
                    )
                )
            controls.append(
                ft.TextField(
                    label="Unterschrift (Name)",
                    value=signature.current or "",
                    error=state.close_error if state.close_error == NO_SIGNATURE else None,
                    on_change=lambda e: set_signer(entered(e)),
                    text_size=18,
                )
            )
            if state.close_error and state.close_error != NO_SIGNATURE:
                controls.append(error_box(state.close_error))
            controls.append(
                ft.Button(
                    "Abschließen und unterschreiben",
                    icon=ft.Icons.DRAW,
                    height=56,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
                    on_click=sign,
                )
            )
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text("Abschließen")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
