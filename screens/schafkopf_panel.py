"""The Schafkopf entry panel: game type, declarer, partner, won or lost in big buttons; level, Tout and
Spritze below; Augen, Stiche and a misplay one level down ("Weitere Angaben").

A Rufspiel won is four taps: the declarer, the partner, "Gewonnen", "Eintragen". What the draft does
not offer (the declarer as his own partner, a Spritze by the declaring party, a Tout in a Rufspiel)
is not shown or is greyed out; what follows from the taps is written in words above the button.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flet as ft

from scoring.schafkopf import FARBNAME

from .drafts import DraftIncomplete, Submit, family
from .looks import LOOKS, LOST, WON, entered, error_box, text_scale, thumb
from .schafkopf_draft import (
    FEHLER_ARTEN,
    FEHLER_FAELLE,
    SPIEL_LABEL,
    SchafkopfDraft,
    stufe_label,
)

WEITERE = "Weitere Angaben: Augen, Stiche, Fehler …"
"""The rare details, one level down (a Rufspiel's called Sau is among them)."""

BIG = 60
"""Height of the buttons of a common game: hit without looking."""
CHOICE = 52
"""Height of every other choice (at least 48 px)."""


def _choice(
    text: str,
    on_click: Callable[[], None],
    *,
    chosen: bool,
    name: str | None = None,
    enabled: bool = True,
    height: int = CHOICE,
    size: int = 17,
    color: str | None = None,
    icon: bool = True,
    lines: int = 1,
) -> ft.Control:
    """A big choice button: filled when chosen; ``name`` is its accessible name when ``text`` alone is not unique;
    ``lines`` the lines its text may take (a player's name two: in half a 360 px phone at "Sehr groß" a
    first and a last name each fill a line, "Maximilian Oberhuber" was cut to "Maximilian …")."""
    label = ft.Text(
        text,
        size=size,
        weight=ft.FontWeight.BOLD if chosen else ft.FontWeight.W_500,
        semantics_label=name,
        max_lines=lines,
        overflow=ft.TextOverflow.ELLIPSIS,
        text_align=ft.TextAlign.CENTER,
    )
    shape = ft.RoundedRectangleBorder(radius=12)
    if chosen:
        return ft.FilledButton(
            content=label,
            icon=ft.Icons.CHECK if icon else None,
            height=height,
            expand=True,
            disabled=not enabled,
            style=ft.ButtonStyle(shape=shape, bgcolor=color, padding=ft.Padding.symmetric(horizontal=8)),
            on_click=lambda _: on_click(),
        )
    return ft.OutlinedButton(
        content=label,
        height=height,
        expand=True,
        disabled=not enabled,
        style=ft.ButtonStyle(shape=shape, padding=ft.Padding.symmetric(horizontal=8)),
        on_click=lambda _: on_click(),
    )


def _grid(controls: list[ft.Control], per_row: int = 2) -> ft.Control:
    """Choices side by side, ``per_row`` on a phone, all in one row from a tablet up."""
    col: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 12 // per_row, "md": max(12 // max(len(controls), 1), 3)}
    return ft.ResponsiveRow(spacing=8, run_spacing=8, controls=[ft.Container(col=col, content=c) for c in controls])


def _heading(text: str) -> ft.Control:
    return ft.Text(text, size=15, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT)


def _players(
    draft: SchafkopfDraft, prefix: str, chosen: str | None, offered: list[str], tap: Callable[[str], None]
) -> ft.Control:
    return _grid(
        [
            _choice(
                draft.name(p),
                functools.partial(tap, p),
                chosen=p == chosen,
                name=f"{prefix} {draft.name(p)}",
                enabled=p in offered or p == chosen,
                lines=2,
            )
            for p in draft.players
        ]
    )


def _rare(draft: SchafkopfDraft) -> list[ft.Control]:
    """Augen, Stiche and a misplay: what a table rarely writes."""
    controls: list[ft.Control] = []
    farben = draft.farbe_choices()
    if farben and not draft.farbe_required:
        controls += [
            _heading("Gerufene Sau (freiwillig)"),
            _grid(
                [
                    _choice(FARBNAME[f], functools.partial(draft.choose_farbe, f), chosen=f == draft.farbe, size=16, icon=False)
                    for f in farben
                ],
                4,
            ),
        ]
    controls += [
        _heading("Augen und Stiche der Spielpartei (freiwillig)"),
        ft.Row(
            spacing=8,
            controls=[
                ft.TextField(
                    label="Augen",
                    value=draft.augen_text,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    text_size=18,
                    expand=True,
                    on_change=lambda e: draft.set_augen(entered(e)),
                ),
                ft.TextField(
                    label="Stiche",
                    value=draft.stiche_text,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    text_size=18,
                    expand=True,
                    on_change=lambda e: draft.set_stiche(entered(e)),
                ),
            ],
        ),
        _heading("Fehler (falsches Ausspiel oder Bedienen) von"),
        _players(draft, "Fehler von", draft.fehler_von, list(draft.players), draft.choose_fehler_von),
    ]
    if draft.fehler_von is not None:
        art = draft.fehler_art or "ausspiel"
        controls.append(
            _grid(
                [
                    _choice(text, functools.partial(draft.choose_fehler_art, a), chosen=a == art)
                    for a, text in FEHLER_ARTEN.items()
                ]
            )
        )
        offered = draft.fehler_fall_choices()
        controls.append(_heading("Wie ging es weiter?"))
        controls.append(
            ft.Column(
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                controls=[
                    ft.Row(
                        [
                            _choice(
                                text,
                                functools.partial(draft.choose_fehler_fall, f),
                                chosen=f == draft.fehler_fall,
                                enabled=f in offered,
                            )
                        ]
                    )
                    for f, text in FEHLER_FAELLE.items()
                ],
            )
        )
    return controls


@family("schafkopf-turnier", draft=SchafkopfDraft)
@ft.component
def SchafkopfPanel(draft: SchafkopfDraft, on_submit: Submit, *, correcting: str | None = None) -> ft.Control:
    if draft.sheet is None:
        return ft.Text("Kein Blatt.")

    def submit(_: Any) -> None:
        try:
            kind, data = draft.entry()
        except DraftIncomplete as error:
            draft.error = str(error)
            return
        draft.error = None
        on_submit(kind, data)

    dealer = draft.dealer
    header = (
        f"{correcting} korrigieren: richtig ist"
        if correcting
        else "Neues Spiel" + (f" · es gibt {draft.name(dealer)}" if dealer else "")
    )
    controls: list[ft.Control] = [
        _heading(header),
        _grid(
            [
                _choice(SPIEL_LABEL[s], functools.partial(draft.choose_spiel, s), chosen=s == draft.spiel, size=16, icon=False)
                for s in draft.spiel_choices()
            ],
            # four to a row cut "Rufspiel" and "Farbwenz" to "Rufs…" at "Sehr groß" on 360-412 px
            per_row=2 if text_scale(ft.use_context(LOOKS)) > 1 else 4,
        ),
        _heading("Wer spielt?"),
        _players(draft, "Spieler", draft.spieler, draft.spieler_choices(), draft.choose_spieler),
    ]
    if draft.spiel == "rufspiel":
        controls += [
            _heading("Mit wem? (gerufen)"),
            _players(draft, "Partner", draft.partner, draft.partner_choices(), draft.choose_partner),
        ]
    farben = draft.farbe_choices()
    if farben and draft.farbe_required:
        controls += [
            _heading("Farbe"),
            _grid(
                [
                    _choice(FARBNAME[f], functools.partial(draft.choose_farbe, f), chosen=f == draft.farbe, size=16, icon=False)
                    for f in farben
                ],
                4,
            ),
        ]
    if draft.tout_allowed or draft.tout:
        controls.append(
            thumb(ft.Switch(label="Tout (alle Stiche angesagt)", value=bool(draft.tout), on_change=lambda _: draft.toggle_tout()))
        )
    won = draft.gewonnen_shown
    outcomes = draft.gewonnen_choices()
    controls.append(
        _grid(
            [
                _choice(
                    "Gewonnen",
                    lambda: draft.choose_gewonnen(True),
                    chosen=won is True,
                    enabled=True in outcomes,
                    height=BIG,
                    size=20,
                    color=WON,
                ),
                _choice(
                    "Verloren",
                    lambda: draft.choose_gewonnen(False),
                    chosen=won is False,
                    enabled=False in outcomes,
                    height=BIG,
                    size=20,
                    color=LOST,
                ),
            ]
        )
    )
    levels = draft.stufe_choices()
    if levels:
        shown = draft.stufe_shown
        controls.append(
            _grid(
                [
                    _choice(stufe_label(s, won), functools.partial(draft.choose_stufe, s), chosen=s == shown, size=16, icon=False)
                    for s in levels
                ],
                per_row=3,
            )
        )
    givers = draft.spritze_choices()
    if givers or draft.spritze_von is not None:
        controls += [
            _heading("Spritze von (Gegenpartei)"),
            _grid(
                [
                    _choice(
                        draft.name(p),
                        functools.partial(draft.choose_spritze, p),
                        chosen=p == draft.spritze_von,
                        name=f"Spritze von {draft.name(p)}",
                        lines=2,
                    )
                    for p in draft.players
                    if p in givers or p == draft.spritze_von
                ]
            ),
        ]
    if draft.unberechtigt_offered:
        controls.append(
            thumb(  # a switch's row is 40 px high: the box makes it a thumb's 48
                ft.Switch(
                    label="Spritze unberechtigt (Gegenpartei nur 1 Stich)",
                    value=bool(draft.unberechtigt),
                    on_change=lambda _: draft.toggle_unberechtigt(),
                )
            )
        )
    controls.append(
        ft.TextButton(
            "Weniger" if draft.weitere else WEITERE,
            icon=ft.Icons.EXPAND_LESS if draft.weitere else ft.Icons.EXPAND_MORE,
            height=48,
            on_click=lambda _: draft.toggle_weitere(),
        )
    )
    if draft.weitere:
        controls += _rare(draft)
    controls.append(ft.Text(draft.summary(), size=17, weight=ft.FontWeight.BOLD))
    preview = draft.preview()
    if preview:
        controls.append(ft.Text(preview, size=15))
    if draft.error:
        controls.append(error_box(draft.error))
    controls.append(
        ft.FilledButton(
            "Korrektur eintragen" if correcting else "Eintragen",
            icon=ft.Icons.EDIT if correcting else ft.Icons.CHECK,
            height=BIG,
            style=ft.ButtonStyle(
                shape=ft.RoundedRectangleBorder(radius=12), text_style=ft.TextStyle(size=20, weight=ft.FontWeight.BOLD)
            ),
            on_click=submit,
        )
    )
    return ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls)
