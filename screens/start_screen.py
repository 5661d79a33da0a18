"""Start screen: the sheets on this phone, open ones first, and "Neues Blatt"."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .app_state import AppState, SheetRow
from .looks import entered, scaling
from .settings_state import SettingsState
from .tournament_state import TournamentState


def _ask_device_name(settings: SettingsState, typed: ft.MutableRef[str]) -> ft.Control:
    """The first start's one question: what this phone is called in the trail, the proposal filled in."""
    lines: list[ft.Control] = [
        ft.Text("Wie heißt dieses Handy?", size=16, weight=ft.FontWeight.W_600),
        ft.Text(
            "Der Name steht bei jeder Korrektur und Streichung in der Änderungsspur. Später unter Einstellungen änderbar.",
            size=13,
        ),
        ft.TextField(
            label="Handy-Name",
            value=typed.current or "",
            error=settings.error,
            error_max_lines=4,
            on_change=lambda e: setattr(typed, "current", entered(e)),
            text_size=17,
        ),
        ft.Button(
            "Name übernehmen",
            icon=ft.Icons.CHECK,
            height=48,
            on_click=lambda _: settings.confirm_device_name(typed.current or ""),
        ),
    ]
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        content=ft.Column(spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=lines),
    )


def _stray(row: SheetRow, tournament: TournamentState, on_open: Callable[[str], None]) -> list[ft.Control]:
    """Under a sheet that will not reach the organizer: why, and for one begun before joining "An das Turnier senden"."""
    why = tournament.stray(row.tournament, row.table)
    if why is None:
        return []

    def send() -> None:
        sheet_id = tournament.hand_over(row.id)
        if sheet_id is not None:
            on_open(sheet_id)

    lines: list[ft.Control] = [ft.Text(why[:1].upper() + why[1:], size=13, weight=ft.FontWeight.W_600, color=ft.Colors.ERROR)]
    if tournament.can_hand_over(row.tournament, row.closed):
        lines.append(ft.TextButton("An das Turnier senden", icon=ft.Icons.SEND, height=44, on_click=lambda _: send()))
    problem = tournament.errors.get(f"hand_over:{row.id}")
    if problem:
        lines.append(ft.Text(problem, size=14, color=ft.Colors.ERROR))
    return [ft.Container(padding=ft.Padding.only(left=14, right=14, bottom=6), content=ft.Column(spacing=2, controls=lines))]


def _row(row: SheetRow, on_open: Callable[[str], None], sync: str | None, stray: list[ft.Control]) -> ft.Control:
    state = ft.Text(
        "abgeschlossen" if row.closed else "offen",
        size=13,
        weight=ft.FontWeight.W_600,
        color=ft.Colors.ON_SURFACE_VARIANT if row.closed else ft.Colors.PRIMARY,
    )
    # keyed by the sheet: the list is newest first, and the sheet just played moves to the top (as the
    # sheet screen keys its lines)
    return ft.Card(key=f"sheet-{row.id}", content=ft.Column(spacing=0, controls=[_card(row, on_open, sync, state), *stray]))


def _card(row: SheetRow, on_open: Callable[[str], None], sync: str | None, state: ft.Text) -> ft.Control:
    return ft.Semantics(
        label=row.label + (f" · {sync}" if sync else ""),
        button=True,
        container=True,
        exclude_semantics=True,
        on_tap=lambda _: on_open(row.id),
        content=ft.Container(
            padding=ft.Padding.symmetric(horizontal=14, vertical=10),
            on_click=lambda _: on_open(row.id),
            content=ft.Column(
                spacing=2,
                controls=[
                    ft.Row([ft.Text(row.title, size=17, weight=ft.FontWeight.BOLD, expand=True), state]),
                    # every name whole: two lines cut four long names to "…" at 360 px "Groß" (issue 22)
                    ft.Text(row.participants, size=15),
                    ft.Text(row.glance, size=15, weight=ft.FontWeight.W_500),
                    ft.Text(row.where, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
                    *([ft.Text(sync, size=13, weight=ft.FontWeight.W_600, color=ft.Colors.TERTIARY)] if sync else []),
                ],
            ),
        ),
    )


def _tournament(tournament: TournamentState, on_join: Callable[[], None]) -> ft.Control:
    if not tournament.joined:
        return ft.OutlinedButton("Turnier beitreten", icon=ft.Icons.WIFI, height=48, on_click=lambda _: on_join())
    lines: list[ft.Control] = [ft.Text(f"Turnier: {tournament.summary}", size=15, weight=ft.FontWeight.W_600)]
    if tournament.problem:
        lines.append(ft.Text(f"Senden klappt gerade nicht: {tournament.problem}", size=13, color=ft.Colors.ERROR))
    lines.append(ft.TextButton("Turnier-Anmeldung", icon=ft.Icons.WIFI, height=44, on_click=lambda _: on_join()))
    return ft.Container(
        padding=10,
        border_radius=10,
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        content=ft.Column(spacing=2, controls=lines),
    )


def _action(icon: ft.IconData, label: str, on_click: Callable[[], None]) -> ft.Control:
    return ft.Semantics(
        label=label,
        button=True,
        exclude_semantics=True,
        content=ft.IconButton(icon=icon, tooltip=label, icon_size=26, width=48, height=48, on_click=lambda _: on_click()),
    )


@scaling
@ft.component
def StartScreen(
    state: AppState,
    tournament: TournamentState,
    on_open: Callable[[str], None],
    on_new: Callable[[], None],
    on_join: Callable[[], None],
    on_stats: Callable[[], None] = lambda: None,
    on_backup: Callable[[], None] = lambda: None,
    on_settings: Callable[[], None] = lambda: None,
    on_help: Callable[[], None] = lambda: None,
    settings: SettingsState | None = None,
) -> ft.View:
    """``settings``: on the first start, the screen asks once what this phone is called (``asks_device_name``)."""
    typed = ft.use_ref(settings.proposed_device_name if settings is not None else "")
    controls: list[ft.BaseControl] = [
        ft.Button(
            "Neues Blatt",
            icon=ft.Icons.ADD,
            height=56,
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
            on_click=lambda _: on_new(),
        )
    ]
    if settings is not None and settings.asks_device_name:
        controls.append(_ask_device_name(settings, typed))
    controls.append(_tournament(tournament, on_join))
    if state.error:
        controls.append(ft.Text(state.error, color=ft.Colors.ERROR, size=15))
    controls.extend(ft.Text(w, color=ft.Colors.ERROR, size=13) for w in state.warnings)
    if state.rows:
        controls.append(ft.Text("Blätter auf diesem Handy", size=16, weight=ft.FontWeight.W_600))
        controls.extend(_row(row, on_open, tournament.label(row.id), _stray(row, tournament, on_open)) for row in state.rows)
    else:
        controls.append(
            ft.Text(
                "Noch kein Blatt auf diesem Handy. „Neues Blatt“ legt die Tischliste für Watten, Schafkopf, "
                "Schnapsen oder Doppelkopf an.",
                size=15,
            )
        )
    return ft.View(
        route="/",
        appbar=ft.AppBar(
            title=ft.Text("Tischblock"),
            actions=[
                _action(ft.Icons.INSIGHTS, "Statistik", on_stats),
                _action(ft.Icons.SETTINGS_BACKUP_RESTORE, "Sicherung", on_backup),
                _action(ft.Icons.HELP_OUTLINE, "Hilfe", on_help),
                _action(ft.Icons.SETTINGS, "Einstellungen", on_settings),
            ],
        ),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
