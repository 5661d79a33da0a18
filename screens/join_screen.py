"""Turnier beitreten: the organizer's join line (or address and code), the Startnummer (or the table and
the team), the phone's name; once joined with the Startnummer, "Meinen Tisch öffnen" opens the drawn sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

import flet as ft

from .habits import suggest
from .looks import FIELD_ERROR, entered, offer_chips, scaling
from .qr_camera import QrCamera, camera_possible
from .tournament_state import TournamentState


def _field(
    state: TournamentState, name: str, label: str, value: str, *, number: bool = False, hint: str | None = None
) -> ft.TextField:
    return ft.TextField(
        label=label,
        value=value,
        hint_text=hint,
        error=state.errors.get(name),
        error_max_lines=4,
        error_style=FIELD_ERROR,
        keyboard_type=ft.KeyboardType.NUMBER if number else ft.KeyboardType.TEXT,
        on_change=lambda e: state.set_field(name, entered(e)),
        text_size=17,
    )


def _join_button(on_click: Callable[[ft.Event[ft.Button]], None]) -> ft.Control:
    return ft.Button(
        "Beitreten",
        icon=ft.Icons.LOGIN,
        height=56,
        style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
        on_click=on_click,
    )


def _seat_fields(state: TournamentState) -> list[ft.Control]:
    """The Startnummer (drawn tables), or the table and the team."""
    return [
        ft.Text("Werden die Tische ausgelost: die Startnummer. Sonst Tisch und Mannschaft.", size=14),
        _field(state, "start_number", "Startnummer", state.start_number, number=True),
        ft.Row(
            spacing=8,
            controls=[
                ft.Container(expand=1, content=_field(state, "table", "Tisch", state.table, number=True)),
                ft.Container(expand=2, content=_field(state, "team", "Mannschaft oder Platz", state.team)),
            ],
        ),
    ]


def _from_link(state: TournamentState, join: Callable[[ft.Event[ft.Button]], None], named: bool) -> list[ft.Control]:
    """A Startkarte's or the Aushang's line is read: what it holds is shown, only what it lacks is asked."""
    line = state.link
    assert line is not None
    host = urlsplit(line.url).netloc
    if line.start_number is not None:
        source = f"Startkarte: Startnummer {line.start_number}"
    else:
        source = "Code vom Aushang"
    checked = "Zertifikat wird beim Beitreten geprüft" if line.fingerprint else "ohne Verschlüsselung (nur zum Testen)"
    controls: list[ft.Control] = [
        ft.Container(
            padding=12,
            border_radius=10,
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            content=ft.Column(
                spacing=4,
                controls=[
                    ft.Text(source, size=18, weight=ft.FontWeight.BOLD),
                    ft.Text(f"Veranstalter: {host} · {checked}", size=14),
                ],
            ),
        ),
    ]
    if state.errors.get("target"):
        controls.append(ft.Text(state.errors["target"], size=15, color=ft.Colors.ERROR))
    if state.errors.get("code"):
        controls.append(ft.Text(state.errors["code"], size=15, color=ft.Colors.ERROR))
    if line.start_number is None:
        controls.extend(_seat_fields(state))
    if named and not state.errors.get("device_name"):
        controls.append(ft.Text(f"Dein Name: {state.device_name}", size=16))
    else:
        controls.append(_field(state, "device_name", "Dein Name", state.device_name))
    controls.append(_join_button(join))
    controls.append(
        ft.TextButton("Adresse von Hand eingeben", icon=ft.Icons.KEYBOARD, height=44, on_click=lambda _: state.by_hand())
    )
    return controls


def _by_hand(state: TournamentState, names: list[str], join: Callable[[ft.Event[ft.Button]], None]) -> list[ft.Control]:
    """The last resort: the line pasted, or the address, the code and the fingerprint typed."""
    return [
        ft.Text(
            "Die Beitrittszeile steht unter dem QR-Code (tischblock://join?…): hier einfügen. "
            "Ohne sie: Adresse, Beitrittscode und die ersten 8 Zeichen des Fingerabdrucks abtippen.",
            size=15,
        ),
        _field(state, "target", "Beitrittszeile oder Adresse", state.target),
        _field(state, "code", "Beitrittscode", state.code),
        _field(state, "fingerprint", "Fingerabdruck (erste 8 Zeichen)", state.fingerprint),
        *_seat_fields(state),
        _team_offers(state, names),
        _field(state, "device_name", "Name dieses Handys", state.device_name),
        _join_button(join),
    ]


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
    named: bool = False,
) -> ft.View:
    """``names``: the names used on this phone before, offered for the team as the player types;
    ``on_open``: opens the sheet of the table the draw gave this phone; ``named``: the own name is set
    in the settings (a join from a Startkarte then asks nothing at all)."""

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

    scanning, set_scanning = ft.use_state(False)
    no_camera, set_no_camera = ft.use_state(cast(str | None, None))

    def picked(event: ft.FilePickerResultEvent) -> None:
        if event.files:
            state.take_photo(event.files[0].bytes, named=named)

    picker = ft.use_memo(lambda: ft.FilePicker(on_result=picked), dependencies=[])

    def seen(texts: list[str]) -> bool:
        if state.take_qr(texts, named=named):
            set_scanning(False)
            return True
        return False

    def unavailable(reason: str) -> None:
        set_scanning(False)
        set_no_camera(reason)

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
    elif state.link is not None:
        controls.extend(_from_link(state, join, named))
    else:
        camera = camera_possible(ft.context.page) and no_camera is None
        controls.append(ft.Text("Startkarte scannen", size=20, weight=ft.FontWeight.BOLD))
        controls.append(
            ft.Text(
                "Den QR-Code auf deiner Startkarte scannen (oder den Code vom Aushang): Tischblock füllt alles aus "
                "und prüft selbst, dass es der Rechner des Veranstalters ist.",
                size=15,
            )
        )
        if scanning:
            controls.append(QrCamera(on_texts=seen, on_unavailable=unavailable))
            controls.append(
                ft.OutlinedButton("Scannen beenden", icon=ft.Icons.CLOSE, height=48, on_click=lambda _: set_scanning(False))
            )
        elif camera:
            controls.append(
                ft.Button(
                    "QR-Code scannen",
                    icon=ft.Icons.QR_CODE_SCANNER,
                    height=56,
                    style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
                    on_click=lambda _: set_scanning(True),
                )
            )
        if no_camera:
            controls.append(ft.Text(f"{no_camera} Stattdessen ein Foto vom QR-Code wählen.", size=14))
        controls.append(
            ft.OutlinedButton(
                "Foto vom QR-Code wählen",
                icon=ft.Icons.PHOTO_CAMERA,
                height=52,
                action=ft.PickFiles(
                    picker, dialog_title="Foto vom QR-Code", file_type=ft.FilePickerFileType.IMAGE, with_data=True
                ),
            )
        )
        if state.errors.get("scan"):
            controls.append(ft.Text(state.errors["scan"], size=15, color=ft.Colors.ERROR))
        controls.append(ft.Divider())
        controls.append(ft.Text("Von Hand", size=17, weight=ft.FontWeight.W_600))
        controls.extend(_by_hand(state, names or [], join))
    return ft.View(
        route="/beitreten",
        appbar=ft.AppBar(title=ft.Text("Turnier beitreten")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
