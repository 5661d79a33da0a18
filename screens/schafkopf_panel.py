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
from .looks import LOOKS, LOST, SMALL, WON, Fit, choice_fit, entered, error_box, rows_alike, text_scale, thumb
from .schafkopf_draft import (
    FEHLER_ARTEN,
    FEHLER_FAELLE,
    SPIEL_LABEL,
    STUFEN,
    SchafkopfDraft,
    stufe_label,
)

WEITERE = "Weitere Angaben: Augen, Stiche, Fehler …"
"""The rare details, one level down (a Rufspiel's called Sau is among them)."""

BIG = 60
"""Height of the buttons of a common game: hit without looking."""
CHOICE = 52
"""Height of every other choice (at least 48 px)."""


def _fit(texts: list[str], scale: float, *, size: int = 17, shares: tuple[int, ...] = (6, 12), tick: bool = True) -> Fit:
    """``screens.looks.choice_fit`` at this panel's 17 px (a game type, a Farbe and a level 16 px, shown
    chosen by their fill alone: ``tick=False``)."""
    return choice_fit(texts, scale, shares, size=size, tick=tick)


def _paired(texts: list[str], scale: float) -> list[Fit]:
    """Players' names, each by its length: two to a row, on one line or two, or a name too long for half a
    row ("Dieter Schwar|zenberger", "Bartholomäu|s Lechner" at "Sehr groß") in the whole row. The seats
    keep their order; a name left alone in its row takes the whole row (no gap beside it), and two names
    sharing a row take as many lines alike (a row of one tall and one short button looked broken)."""
    fits = [_fit([t], scale) for t in texts]
    out: list[Fit] = []
    i = 0
    while i < len(texts):
        if fits[i][0] == 6 and i + 1 < len(texts) and fits[i + 1][0] == 6:
            out += fits[i : i + 2]
            i += 2
        else:
            out.append(_fit([texts[i]], scale, shares=(12,)) if fits[i][0] == 6 else fits[i])
            i += 1
    return rows_alike(out)


def _choice(
    text: str,
    on_click: Callable[[], None],
    *,
    chosen: bool,
    fit: Fit,
    name: str | None = None,
    enabled: bool = True,
    height: int = CHOICE,
    size: int = 17,
    color: str | None = None,
    tick: bool = True,
) -> ft.Control:
    """A big choice button: filled when chosen (and ticked with ``tick``); ``name`` is its accessible name
    when ``text`` alone is not unique; ``fit`` its label's lines as ``_fit`` found them: two lines of a
    smaller font where one line would not hold it (in half a 360 px phone at "Sehr groß" a first and a last
    name each fill a line)."""
    _, two = fit
    label = ft.Text(
        text,
        size=round(size / SMALL) if two else size,
        weight=ft.FontWeight.BOLD if chosen else ft.FontWeight.W_500,
        semantics_label=name,
        max_lines=2 if two else 1,
        overflow=ft.TextOverflow.ELLIPSIS,
        text_align=ft.TextAlign.CENTER,
    )
    content: ft.Control = label
    if chosen and tick:
        # the tick in the room _fit keeps for it; the label gets what the button has left, wrapped there,
        # not pushed past its edge (FilledButton's icon= took 26 px: "Gewonn…" at "Sehr groß")
        label.expand, label.expand_loose = True, True
        tick_icon = ft.Icon(ft.Icons.CHECK, size=round(size * 1.1))
        content = ft.Row([tick_icon, label], spacing=2, alignment=ft.MainAxisAlignment.CENTER, tight=True)
    shape = ft.RoundedRectangleBorder(radius=12)
    padding = ft.Padding.symmetric(horizontal=4)
    if chosen:
        return ft.FilledButton(
            content=content,
            height=height,
            expand=True,
            disabled=not enabled,
            style=ft.ButtonStyle(shape=shape, bgcolor=color, padding=padding),
            on_click=lambda _: on_click(),
        )
    return ft.OutlinedButton(
        content=content,
        height=height,
        expand=True,
        disabled=not enabled,
        style=ft.ButtonStyle(shape=shape, padding=padding),
        on_click=lambda _: on_click(),
    )


def _grid(choices: list[tuple[ft.Control, Fit]]) -> ft.Control:
    """Choices side by side, each in its share of a phone's row (``_fit``); on a tablet all in one row
    (at most four to a row), a whole-row choice in half of it."""
    n = max(len(choices), 1)
    return ft.ResponsiveRow(
        spacing=8,
        run_spacing=8,
        controls=[ft.Container(col={"xs": share, "md": max(12 // n, 3, share // 2)}, content=c) for c, (share, _) in choices],
    )


def _switch(label: str, value: bool, toggle: Callable[[], None]) -> ft.Control:
    """A switch with a label that wraps beside it: Flet's own label does not wrap and ran off the screen's
    edge ("Spritze unberechtigt (Gegenpartei nur 1 Stich)" at 360 px). Built as Flet builds its own (one
    merged node, the label's text its accessible name, a tap on the label toggles it), the label expanded."""
    return thumb(  # a switch's row is 40 px high: the box makes it a thumb's 48
        ft.MergeSemantics(
            content=ft.GestureDetector(
                on_tap=lambda _: toggle(),
                mouse_cursor=ft.MouseCursor.CLICK,
                content=ft.Row(
                    [ft.Switch(value=value, on_change=lambda _: toggle()), ft.Text(label, expand=True)],
                    spacing=8,
                ),
            )
        )
    )


def _heading(text: str) -> ft.Control:
    return ft.Text(text, size=15, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT)


def _players(
    draft: SchafkopfDraft, prefix: str, chosen: str | None, offered: list[str], tap: Callable[[str], None], scale: float
) -> ft.Control:
    names = [draft.name(p) for p in draft.players]
    return _grid(
        [
            (
                _choice(
                    name,
                    functools.partial(tap, p),
                    chosen=p == chosen,
                    fit=fit,
                    name=f"{prefix} {name}",
                    enabled=p in offered or p == chosen,
                ),
                fit,
            )
            for p, name, fit in zip(draft.players, names, _paired(names, scale), strict=True)
        ]
    )


def group_fits(scale: float) -> dict[str, Fit]:
    """The one layout of each group of choices side by side, found for all its labels (so it stays put
    whichever of them the rules offer): a game type and a Farbe a quarter of the row at "Normal" ("Farbw…"
    had 8 px padding), a level a third; a misplay's kind and how it went on with their ticks."""
    levels = [stufe_label(s, won) for s in STUFEN for won in (True, False)]
    return {
        "spiel": _fit(list(SPIEL_LABEL.values()), scale, size=16, shares=(3, 6), tick=False),
        "farbe": _fit(list(FARBNAME.values()), scale, size=16, shares=(3, 6), tick=False),
        "stufe": _fit(levels, scale, size=16, shares=(4, 12), tick=False),
        "gewonnen": _fit(["Gewonnen", "Verloren"], scale, size=20),
        "fehler_art": _fit(list(FEHLER_ARTEN.values()), scale),
        "fehler_fall": _fit(list(FEHLER_FAELLE.values()), scale, shares=(12,)),
    }


def _farben(draft: SchafkopfDraft, fit: Fit) -> ft.Control:
    return _grid(
        [
            (
                _choice(
                    FARBNAME[f], functools.partial(draft.choose_farbe, f), chosen=f == draft.farbe, fit=fit, size=16, tick=False
                ),
                fit,
            )
            for f in draft.farbe_choices()
        ]
    )


def _rare(draft: SchafkopfDraft, scale: float, fits: dict[str, Fit]) -> list[ft.Control]:
    """Augen, Stiche and a misplay: what a table rarely writes."""
    controls: list[ft.Control] = []
    if draft.farbe_choices() and not draft.farbe_required:
        controls += [_heading("Gerufene Sau (freiwillig)"), _farben(draft, fits["farbe"])]
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
        _players(draft, "Fehler von", draft.fehler_von, list(draft.players), draft.choose_fehler_von, scale),
    ]
    if draft.fehler_von is not None:
        art = draft.fehler_art or "ausspiel"
        kind = fits["fehler_art"]
        controls.append(
            _grid(
                [
                    (_choice(text, functools.partial(draft.choose_fehler_art, a), chosen=a == art, fit=kind), kind)
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
                                fit=fits["fehler_fall"],
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
    scale = text_scale(ft.use_context(LOOKS))
    fits = group_fits(scale)
    controls: list[ft.Control] = [
        _heading(header),
        _grid(
            [
                (
                    _choice(
                        SPIEL_LABEL[s],
                        functools.partial(draft.choose_spiel, s),
                        chosen=s == draft.spiel,
                        fit=fits["spiel"],
                        size=16,
                        tick=False,
                    ),
                    fits["spiel"],
                )
                for s in draft.spiel_choices()
            ]
        ),
        _heading("Wer spielt?"),
        _players(draft, "Spieler", draft.spieler, draft.spieler_choices(), draft.choose_spieler, scale),
    ]
    if draft.spiel == "rufspiel":
        controls += [
            _heading("Mit wem? (gerufen)"),
            _players(draft, "Partner", draft.partner, draft.partner_choices(), draft.choose_partner, scale),
        ]
    if draft.farbe_choices() and draft.farbe_required:
        controls += [_heading("Farbe"), _farben(draft, fits["farbe"])]
    if draft.tout_allowed or draft.tout:
        controls.append(_switch("Tout (alle Stiche angesagt)", bool(draft.tout), draft.toggle_tout))
    won = draft.gewonnen_shown
    outcomes = draft.gewonnen_choices()
    big = fits["gewonnen"]
    outcome = [
        _choice(
            text,
            functools.partial(draft.choose_gewonnen, value),
            chosen=won is value,
            fit=big,
            enabled=value in outcomes,
            height=BIG,
            size=20,
            color=color,
        )
        for text, value, color in (("Gewonnen", True, WON), ("Verloren", False, LOST))
    ]
    controls.append(_grid([(choice, big) for choice in outcome]))
    levels = draft.stufe_choices()
    if levels:
        shown = draft.stufe_shown
        level = fits["stufe"]
        controls.append(
            _grid(
                [
                    (
                        _choice(
                            stufe_label(s, won),
                            functools.partial(draft.choose_stufe, s),
                            chosen=s == shown,
                            fit=level,
                            size=16,
                            tick=False,
                        ),
                        level,
                    )
                    for s in levels
                ]
            )
        )
    givers = [p for p in draft.players if p in draft.spritze_choices() or p == draft.spritze_von]
    if givers:
        names = [draft.name(p) for p in givers]
        controls += [
            _heading("Spritze von (Gegenpartei)"),
            _grid(
                [
                    (
                        _choice(
                            name,
                            functools.partial(draft.choose_spritze, p),
                            chosen=p == draft.spritze_von,
                            fit=fit,
                            name=f"Spritze von {name}",
                        ),
                        fit,
                    )
                    for p, name, fit in zip(givers, names, _paired(names, scale), strict=True)
                ]
            ),
        ]
    if draft.unberechtigt_offered:
        controls.append(
            _switch("Spritze unberechtigt (Gegenpartei nur 1 Stich)", bool(draft.unberechtigt), draft.toggle_unberechtigt)
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
        controls += _rare(draft, scale, fits)
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
