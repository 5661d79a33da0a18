"""Turnier beitreten: the organizer's join line (or address and code), the Startnummer (or the table and
the team), the phone's name; once joined with the Startnummer, "Meinen Tisch öffnen" opens the drawn sheet."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .habits import suggest
from .looks import offer_chips, scaling
from .tournament_state import TournamentState


def _field(
    state: TournamentState, name: str, label: str, value: str, *, number: bool = False, hint: str | None = None
) -> ft.TextField:
    return ft.TextField(
        label=label,
        value=value,
        hint_text=hint,
        error=state.errors.get(name),
        keyboard_type=ft.KeyboardType.NUMBER if number else ft.KeyboardType.TEXT,
        on_change=lambda e: state.set_field(name, e.control.value),
        text_size=17,
    )


def _team_offers(state: TournamentState, names: list[str]) -> ft.Control:
    """Team names used on this phone before that fit what is typed (the row keeps its place when empty)."""
    offered = suggest(names, state.team) if state.team.strip() else []
    return offer_chips(offered, lambda name: state.set_field("team", name))


@scaling
@ft.component
def JoinScreen(
    state: TournamentState,
    on_joined: Callable[[], None],
    names: list[str] | None = None,
    on_open: Callable[[str], None] | None = None,
) -> ft.View:
    """``names``: the names used on this phone before, offered for the team as the player types;
    ``on_open``: opens the sheet of the table the draw gave this phone."""

    def open_table() -> None:
        sheet_id = state.open_assigned()
        if sheet_id is not None and on_open is not None:
            on_open(sheet_id)

    def join(_: ft.Event[ft.Button]) -> None:
        if state.join():
            if state.by_draw and on_open is not None:
                sheet_id = state.open_assigned()
                if sheet_id is not None:
                    on_open(sheet_id)
                return  # not drawn yet: stay here, the button below asks again
            on_joined()

    controls: list[ft.BaseControl] = []
    if state.joined:
        controls.append(ft.Text(f"Angemeldet: {state.summary}", size=17, weight=ft.FontWeight.BOLD))
        controls.append(
            ft.Text("Abgeschlossene Blätter gehen von selbst an den Veranstalter, sobald das Handy ihn erreicht.", size=15)
        )
        if state.by_draw:
            if state.assigned:
                controls.append(ft.Text(f"Ausgelost: {state.assigned}", size=15))
            if state.errors.get("assignment"):
                controls.append(ft.Text(state.errors["assignment"], size=15, color=ft.Colors.ERROR))
            controls.append(
                ft.Button(
                    "Meinen Tisch öffnen",
                    icon=ft.Icons.TABLE_RESTAURANT,
                    height=56,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
                    on_click=lambda _: open_table(),
                )
            )
        controls.append(
            ft.OutlinedButton(
                "Turnier auf diesem Handy verlassen", icon=ft.Icons.LOGOUT, height=48, on_click=lambda _: state.leave()
            )
        )
    else:
        controls.extend(
            [
                ft.Text(
                    "Die Beitrittszeile steht unter dem QR-Code des Veranstalters (tischblock://join?…). "
                    "Ohne sie: Adresse, Beitrittscode und die ersten 8 Zeichen des Fingerabdrucks abtippen.",
                    size=15,
                ),
                _field(state, "target", "Beitrittszeile oder Adresse", state.target),
                _field(state, "code", "Beitrittscode", state.code),
                _field(state, "fingerprint", "Fingerabdruck (erste 8 Zeichen)", state.fingerprint),
                ft.Text("Werden die Tische ausgelost: die Startnummer. Sonst Tisch und Mannschaft.", size=14),
                _field(state, "start_number", "Startnummer", state.start_number, number=True),
                ft.Row(
                    spacing=8,
                    controls=[
                        ft.Container(expand=1, content=_field(state, "table", "Tisch", state.table, number=True)),
                        ft.Container(expand=2, content=_field(state, "team", "Mannschaft oder Platz", state.team)),
                    ],
                ),
                _team_offers(state, names or []),
                _field(state, "device_name", "Name dieses Handys", state.device_name),
                ft.Button(
                    "Beitreten",
                    icon=ft.Icons.LOGIN,
                    height=56,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
                    on_click=join,
                ),
            ]
        )
    return ft.View(
        route="/beitreten",
        appbar=ft.AppBar(title=ft.Text("Turnier beitreten")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
