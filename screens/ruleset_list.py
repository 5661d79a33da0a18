"""Start screen: the registered rulesets, each with its example sheet."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from .state import RulesetInfo


@ft.component
def RulesetList(rulesets: list[RulesetInfo], on_open: Callable[[str], None]) -> ft.View:
    shown, set_shown = ft.use_state(frozenset[str]())

    def toggle(ruleset_id: str) -> None:
        set_shown(lambda ids: ids ^ {ruleset_id})

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
                            ft.TextButton(
                                f"Optionen {info.title} {'ausblenden' if info.id in shown else 'zeigen'} ({len(info.options)})",
                                icon=ft.Icons.EXPAND_LESS if info.id in shown else ft.Icons.EXPAND_MORE,
                                on_click=lambda _, rid=info.id: toggle(rid),
                            ),
                            *(
                                [ft.Text(option, size=13, color=ft.Colors.ON_SURFACE_VARIANT) for option in info.options]
                                if info.id in shown
                                else []
                            ),
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
