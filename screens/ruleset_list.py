"""Start screen: the registered rulesets, each with its example sheet."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .state import RulesetInfo


@ft.component
def RulesetList(rulesets: list[RulesetInfo], on_open: Callable[[str], None]) -> ft.View:
    cards = []
    for info in rulesets:
        cards.append(
            ft.Card(
                content=ft.Container(
                    padding=16,
                    content=ft.Column(
                        spacing=6,
                        controls=[
                            ft.Text(info.title, size=20, weight=ft.FontWeight.BOLD),
                            ft.Text(f"{info.participants} · Regeln: {info.source}", size=14),
                            *[ft.Text(option, size=13, color=ft.Colors.ON_SURFACE_VARIANT) for option in info.options],
                            ft.Button(
                                f"Beispielblatt {info.title} öffnen",
                                icon=ft.Icons.TABLE_VIEW,
                                disabled=not info.has_example,
                                on_click=lambda _, rid=info.id: on_open(rid),
                            ),
                        ],
                    ),
                )
            )
        )
    return ft.View(
        route="/",
        appbar=ft.AppBar(title=ft.Text("Tischblock")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[ft.Text("Regelwerke", size=16, weight=ft.FontWeight.W_600), *cards],
    )
