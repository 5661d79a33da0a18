"""The Watten entry panel: a big button per team and value, the rare events one level down."""

from __future__ import annotations

import flet as ft

from .drafts import Submit, family
from .watten_draft import Choice, WattenDraft

BIG = 64
"""Height of a common game's button: hit without looking, beer in the other hand."""


def _button(choice: Choice, on_submit: Submit, *, chosen: bool, height: int = BIG, size: int = 26) -> ft.Control:
    style = ft.ButtonStyle(
        shape=ft.RoundedRectangleBorder(radius=12),
        bgcolor=ft.Colors.TERTIARY_CONTAINER if chosen else None,
    )
    return ft.Container(
        expand=True,
        height=height,
        content=ft.Semantics(
            label=choice.label,
            button=True,
            selected=chosen,
            container=True,
            exclude_semantics=True,
            content=ft.FilledTonalButton(
                content=ft.Text(choice.short, size=size, weight=ft.FontWeight.BOLD),
                style=style,
                expand=True,
                on_click=lambda _: on_submit(choice.kind, dict(choice.data)),
            ),
        ),
    )


@family("watten-turnier", draft=WattenDraft)
@ft.component
def WattenPanel(draft: WattenDraft, on_submit: Submit, *, correcting: str | None = None) -> ft.Control:
    if draft.sheet is None:
        return ft.Text("Kein Blatt.")
    columns: list[ft.Control] = []
    for team in draft.sheet.participants:
        choices = draft.team_choices(team.id)
        columns.append(
            ft.Column(
                expand=True,
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                controls=[
                    ft.Text(
                        team.name,
                        size=16,
                        weight=ft.FontWeight.W_600,
                        text_align=ft.TextAlign.CENTER,
                        max_lines=2,  # a long team name wraps rather than "Die Sautreiber …"
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                    *[ft.Row([_button(c, on_submit, chosen=c == draft.chosen)]) for c in choices],
                ],
            )
        )
    rare_controls: list[ft.Control] = []
    if draft.show_rare:
        rare_controls = [
            ft.Row(
                wrap=True,
                spacing=8,
                run_spacing=8,
                controls=[
                    ft.OutlinedButton(
                        choice.label,
                        height=52,
                        on_click=lambda _, c=choice: on_submit(c.kind, dict(c.data)),
                        style=ft.ButtonStyle(bgcolor=ft.Colors.TERTIARY_CONTAINER if choice == draft.chosen else None),
                    )
                    for choice in draft.rare
                ],
            )
        ]
    header = f"{correcting} korrigieren: richtig ist" if correcting else "Wer hat gewonnen?"
    return ft.Column(
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            ft.Text(header, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row(spacing=12, vertical_alignment=ft.CrossAxisAlignment.START, controls=columns),
            ft.TextButton(
                ("Weniger" if draft.show_rare else "Gehen, Vergeben, Bscheißn, Zeitlimit …"),
                icon=ft.Icons.EXPAND_LESS if draft.show_rare else ft.Icons.EXPAND_MORE,
                height=48,
                on_click=lambda _: draft.toggle_rare(),
            ),
            *rare_controls,
        ],
    )
