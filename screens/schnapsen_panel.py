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
from .looks import LOOKS, Fit, choice_fit, growing, rows_alike, text_scale
from .schnapsen_draft import NORMAL, Option, SchnapsenDraft

HEIGHT = 50
"""Height of a choice (at least 48): hit without looking, a beer in the other hand."""

TWO: ft.ResponsiveNumber = {"xs": 6, "sm": 4, "md": 3}
THREE: ft.ResponsiveNumber = {"xs": 4, "md": 3}
WHOLE: ft.ResponsiveNumber = {"xs": 12, "sm": 6, "md": 3}
COLUMNS: dict[int, ft.ResponsiveNumber] = {3: {"xs": 3}, 4: THREE, 6: TWO, 12: WHOLE}
"""A phone row's share (twelfths, ``choice_fit``) as a responsive column: narrower on a tablet."""


def _choice(option: Option, chosen: bool, on_tap: Callable[[Any], None], *, fit: Fit) -> ft.Control:
    """One big button; the chosen one is filled and ticked, so it reads at arm's length. ``fit``: its
    share of the row and its label's lines, as ``choice_fit`` found them for the narrowest phone."""
    color = ft.Colors.ON_PRIMARY if chosen else ft.Colors.ON_SECONDARY_CONTAINER
    share, long = fit
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
    tick = ft.Icon(ft.Icons.CHECK, size=14 if option.note else 20, color=color)
    if chosen and not option.note:
        # the label beside the tick gets what the button has left: wrapped there, not pushed past its edge
        text.expand, text.expand_loose = True, True
        content = ft.Row([tick, text], spacing=2, alignment=ft.MainAxisAlignment.CENTER, tight=True)
    if option.note:
        # a toggle in a quarter of the row ("Herz ×2" over "Herzrunde"): the tick goes beside the small
        # word below, where it fits ("✓ Herz …" at 412 px)
        note = ft.Text(option.note, size=12, color=color, max_lines=1)
        under = ft.Row([tick, note], spacing=2, alignment=ft.MainAxisAlignment.CENTER, tight=True) if chosen else note
        content = ft.Column([text, under], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
    box = ft.Container(
        col=COLUMNS[share],
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


def _each(options: list[Option], scale: float) -> list[tuple[Option, Fit]]:
    """Each choice in half a row, on one line or two, or else in the whole row (games, players' names):
    half a row cut "Bauernschnapser 12" at 360 px and "Maximiliane Oberhuber-Kiermaier" at "Sehr groß"."""
    return [(o, choice_fit([o.short], scale)) for o in options]


def _packed(choices: list[tuple[Option, Fit]]) -> list[tuple[Option, Fit]]:
    """``choices`` in their order, but a half-row choice left alone before a whole-row one moves up
    beside it (Bauernschnapsen: "Farbenringerl 18" and "Trumpfringerl 24" share a row, and
    "Kontrabauernschnapser 24" takes the next), so the panel is a row shorter."""
    out = list(choices)
    filled = 0
    for i, (_, (share, _)) in enumerate(out):
        if share == 12 and filled % 12 and i + 1 < len(out) and out[i + 1][1][0] == 12 - filled % 12:
            out[i], out[i + 1] = out[i + 1], out[i]
            share = out[i][1][0]
        filled += share
    return _rows_alike(out)


def _rows_alike(choices: list[tuple[Option, Fit]]) -> list[tuple[Option, Fit]]:
    """Choices sharing a row alike in height (``rows_alike``)."""
    return [(o, fit) for (o, _), fit in zip(choices, rows_alike([fit for _, fit in choices]), strict=True)]


def _together(options: list[Option], scale: float, shares: tuple[int, ...] = (6, 12)) -> list[tuple[Option, Fit]]:
    """Choices side by side in one layout (won or lost, the Augen classes): the narrowest share holding every
    label; the choices of a last row that is not full share its width, rather than leave a gap beside them
    ("ohne Stich: 3" alone in half the row under the other two Augen classes at "Sehr groß")."""
    share, two = choice_fit([o.short for o in options], scale, shares)
    fits = [(share, two)] * len(options)
    lone = len(options) % (12 // share)
    if lone:
        fits[-lone:] = [(12 // lone, two)] * lone
    return list(zip(options, fits, strict=True))


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
    scale = text_scale(ft.use_context(LOOKS))
    games = _packed(_each(draft.game_options(), scale))
    controls.append(_row([_choice(o, o.value == draft.game, draft.choose_game, fit=fit) for o, fit in games]))
    if draft.game != NORMAL:
        announcers = _rows_alike(_each(draft.announcer_options(), scale))
        controls += [
            _heading("Wer hat angesagt?"),
            _row([_choice(o, o.value == draft.announcer, draft.choose_announcer, fit=fit) for o, fit in announcers]),
        ]
    won = _together(draft.won_options(), scale)
    controls += [
        _heading(draft.won_question),
        _row([_choice(o, o.value == draft.won, draft.set_won, fit=fit) for o, fit in won]),
    ]
    if draft.game == NORMAL:
        augen = _together(draft.augen_options(), scale, (4, 6, 12))
        controls += [
            _heading("Augen der Verlierer"),
            _row([_choice(o, o.value == draft.augen, draft.choose_augen, fit=fit) for o, fit in augen]),
        ]
    herz = draft.herzrunde_option()
    # With the Herzrunde four toggles: a quarter of the row holds "×4" over "zurück" at "Normal", at a
    # large text size half of it (issue 22: "Zurückgespritzt ×4" was cut at 360 px "Sehr groß").
    spritze = ((6 if scale > 1 else 3) if herz is not None else 4, False)
    toggles = [_choice(o, o.value == draft.spritze, draft.toggle_spritze, fit=spritze) for o in draft.spritze_options()]
    if herz is not None:
        toggles.append(_choice(herz, draft.herzrunde, lambda _: draft.toggle_herzrunde(), fit=spritze))
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
                [
                    _choice(o, o.value == draft.rufer, draft.choose_rufer, fit=fit)
                    for o, fit in _rows_alike(_each(draft.rufer_options(), scale))
                ]
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
