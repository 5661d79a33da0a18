"""Einstellungen: theme, text size, the house rules for new sheets, the player's own name, the host
last joined. Every change is saved at once and shows at once."""

from __future__ import annotations

import flet as ft

from .looks import choices, entered, scaling
from .settings_state import HOUSE_RULES, TEXT_SIZES, THEMES, SettingsState


def _heading(text: str) -> ft.Control:
    return ft.Text(text, size=16, weight=ft.FontWeight.W_600)


@scaling
@ft.component
def SettingsScreen(state: SettingsState) -> ft.View:
    settings = state.settings
    controls: list[ft.BaseControl] = []
    if state.error:
        controls.append(ft.Text(state.error, color=ft.Colors.ERROR, size=15))
    controls.extend(
        [
            _heading("Aussehen"),
            choices(settings.theme, THEMES, state.set_theme),
            _heading("Textgröße"),
            choices(settings.text_size, TEXT_SIZES, state.set_text_size),
            _heading("Hausregeln für neue Blätter"),
            choices(settings.house_rules, HOUSE_RULES, state.set_house_rules),
            _heading("Mein Name"),
            ft.TextField(
                label="Eigener Name",
                value=state.own_name,
                on_change=lambda e: state.set_own_name(entered(e)),
                text_size=17,
            ),
            ft.Text(
                "Wird als Unterschrift und Name dieses Handys vorgeschlagen; die Mannschaft oder der Spieler "
                "mit diesem Namen schreibt das Blatt.",
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
            ft.TextField(
                label="Name dieses Handys",
                value=state.device_name,
                hint_text=settings.own_name or None,
                on_change=lambda e: state.set_device_name(entered(e)),
                text_size=17,
            ),
            ft.Text(
                f"Steht bei jeder Korrektur und Streichung in der Änderungsspur (jetzt: „{state.store.device}“); "
                "leer: der eigene Name.",
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
            _heading("Zuletzt beigetreten"),
            ft.Text(
                settings.last_host or "Noch keinem Turnier beigetreten.",
                size=14,
                max_lines=3,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            ft.Text(
                "Gespeichert auf diesem Handy, bei den Blättern.",
                size=13,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
        ]
    )
    return ft.View(
        route="/einstellungen",
        appbar=ft.AppBar(title=ft.Text("Einstellungen")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
