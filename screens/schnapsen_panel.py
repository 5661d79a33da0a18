"""The Schnapsen entry panel (Bauern- and Talonschnapsen): the catalogue as big buttons, who
announced, won or lost, the Augen class of a normal game, Spritze and Herzrunde as toggles.

A normal game takes three taps (the normal game and its Rufer are preselected): won or lost, the
Augen class, Eintragen. A Rufer other than the expected one is one level down ("Weitere …").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from .drafts import Submit, family
from .looks import LOOKS, growing, text_scale
from .schnapsen_draft import NORMAL, Option, SchnapsenDraft

HEIGHT = 50
"""Height of a choice (at least 48): hit without looking, a beer in the other hand."""

TWO: ft.ResponsiveNumber = {"xs": 6, "sm": 4, "md": 3}
THREE: ft.ResponsiveNumber = {"xs": 4, "md": 3}
FOUR: ft.ResponsiveNumber = {"xs": 3}
TWO_BY_TWO: ft.ResponsiveNumber = {"xs": 6, "md": 3}
WHOLE: ft.ResponsiveNumber = {"xs": 12, "sm": 6, "md": 3}
SHORT = 9
"""A game's name this long or shorter ("Bettler 4") fits half a phone's width at "Sehr groß" with its tick ("✓ Schnapser 6" did not)."""
LONG = 18
"""Labels longer than this get a smaller font and two lines ("Kontrabauernschnapser" / "24")."""


def _choice(option: Option, chosen: bool, on_tap: Callable[[Any], None], *, col: ft.ResponsiveNumber) -> ft.Control:
    """One big button; the chosen one is filled and ticked, so it reads at arm's length."""
    color = ft.Colors.ON_PRIMARY if chosen else ft.Colors.ON_SECONDARY_CONTAINER
    long = len(option.short) > LONG
    text = ft.Text(
        option.short,
        size=16 if long else 18,
        weight=ft.FontWeight.BOLD,
        text_align=ft.TextAlign.CENTER,
        max_lines=2 if long else 1,
        overflow=ft.TextOverflow.ELLIPSIS,
        color=color,
    )
    content: ft.Control = text
    if chosen:
        content = ft.Row(
            [ft.Icon(ft.Icons.CHECK, size=20, color=color), text],
            spacing=2,
            alignment=ft.MainAxisAlignment.CENTER,
            tight=True,
        )
    if option.note:
        content = ft.Column(
            [content, ft.Text(option.note, size=12, color=color, max_lines=1)],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
    box = ft.Container(
        col=col,
        height=HEIGHT + (6 if option.note else 0),
        content=ft.Semantics(
            label=option.label,
            button=True,
            selected=chosen,
            container=True,
            exclude_semantics=True,
            content=ft.FilledTonalButton(
                content=content,
                expand=True,
                style=ft.ButtonStyle(
                    shape=ft.RoundedRectangleBorder(radius=12),
                    padding=ft.Padding.symmetric(horizontal=4),
                    bgcolor=ft.Colors.PRIMARY if chosen else ft.Colors.SECONDARY_CONTAINER,
                ),
                on_click=lambda _: on_tap(option.value),
            ),
        ),
    )
    # Two lines (a long name, "Kontrabauernschnapser") need more than one line's height at a large text size.
    return growing(box) if long else box


def _name_col(option: Option, large: bool) -> ft.ResponsiveNumber:
    """Players' names two to a row (also for three players); a name longer than half a row holds takes
    the row, as a long game's name does: half a row cut "Maximiliane Oberhuber-Kiermaier" to "Maximilia…"."""
    return WHOLE if len(option.short) > (SHORT if large else LONG) else TWO


def _heading(text: str) -> ft.Control:
    return ft.Text(text, size=16, weight=ft.FontWeight.W_600)


def _row(controls: list[ft.Control]) -> ft.Control:
    return ft.ResponsiveRow(controls=controls, spacing=8, run_spacing=8)


@family("bauernschnapsen", "talonschnapsen", draft=SchnapsenDraft)
@ft.component
def SchnapsenPanel(draft: SchnapsenDraft, on_submit: Submit, *, correcting: str | None = None) -> ft.Control:
    if draft.sheet is None:
        return ft.Text("Kein Blatt.")
    controls: list[ft.Control] = []
    if correcting:
        controls.append(_heading(f"{correcting} korrigieren: richtig ist"))
    large = text_scale(ft.use_context(LOOKS)) > 1
    # at a large text size half a phone's width holds "Gang 9" but not "Bauernschn…": a long name takes the row
    games = [(o, WHOLE if large and len(o.short) > SHORT else TWO) for o in draft.game_options()]
    controls.append(_row([_choice(o, o.value == draft.game, draft.choose_game, col=col) for o, col in games]))
    if draft.game != NORMAL:
        controls += [
            _heading("Wer hat angesagt?"),
            _row(
                [
                    _choice(o, o.value == draft.announcer, draft.choose_announcer, col=_name_col(o, large))
                    for o in draft.announcer_options()
                ]
            ),
        ]
    controls += [
        _heading(draft.won_question),
        _row([_choice(o, o.value == draft.won, draft.set_won, col={"xs": 6}) for o in draft.won_options()]),
    ]
    if draft.game == NORMAL:
        controls += [
            _heading("Augen der Verlierer"),
            _row([_choice(o, o.value == draft.augen, draft.choose_augen, col=THREE) for o in draft.augen_options()]),
        ]
    herz = draft.herzrunde_option()
    # With the Herzrunde four toggles; four to a row leave a phone's quarter, too narrow for a Spritze's
    # name at a large text size ("Zurückgespritzt ×4" cut at 360 px): two to a row there.
    width = (TWO_BY_TWO if large else FOUR) if herz is not None else THREE
    toggles = [_choice(o, o.value == draft.spritze, draft.toggle_spritze, col=width) for o in draft.spritze_options()]
    if herz is not None:
        toggles.append(_choice(herz, draft.herzrunde, lambda _: draft.toggle_herzrunde(), col=width))
    controls.append(_row(toggles))
    more = ft.TextButton(
        "Weniger" if draft.show_more else "Weitere … (anderer Rufer)",
        icon=ft.Icons.EXPAND_LESS if draft.show_more else ft.Icons.EXPAND_MORE,
        height=48,
        on_click=lambda _: draft.toggle_more(),
    )
    if draft.show_more:
        # One level down: a Rufer other than the one the rules expect (the first game, a slip).
        controls += [
            more,
            _heading("Wer hat Trumpf gerufen? (gilt ab diesem Spiel)"),
            _row(
                [_choice(o, o.value == draft.rufer, draft.choose_rufer, col=_name_col(o, large)) for o in draft.rufer_options()]
            ),
        ]
    if draft.problem:
        controls.append(ft.Text(draft.problem, size=16, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600))
    controls.append(
        ft.Container(
            height=60,
            content=ft.FilledButton(
                content=ft.Text("Korrektur eintragen" if correcting else "Eintragen", size=20),
                expand=True,
                style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12)),
                on_click=lambda _: draft.submit(on_submit),
            ),
        )
    )
    if not draft.show_more:
        controls.append(more)  # below "Eintragen", so the common game needs no scrolling
    return ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls)
