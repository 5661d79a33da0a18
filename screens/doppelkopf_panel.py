"""The Doppelkopf entry panel: the game type, the Re players, the Augen of Re, Ansagen and
Sonderpunkte as chips; Strafe, Schmeißen and an out-of-turn dealer one level down.

A normal game with Re announced: two taps for the Re players, one for "Re", the Augen typed,
"Eintragen" (5). Every chip's accessible name says what it is ("Re: Fuchs", "Kontra: keine 90"),
so it is unique on the screen; its text stays short and big for the table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import cast

import flet as ft

from scoring.doppelkopf_games import Seite

from .doppelkopf_draft import (
    ABSAGEN,
    FARBEN,
    SEITE_NAME,
    SEITEN,
    SONDER_LABEL,
    STRAFE_SPIEL,
    TYP_LABEL,
    DoppelkopfDraft,
)
from .drafts import DraftIncomplete, Submit, family
from .looks import LOOKS, Fit, choice_fit, entered, growing, text_scale

TOUCH = 52
"""Height of a chip: above the 48 px a thumb needs at a loud table."""
LINE = 24
"""Height of one line of a chip's 17 px text at normal size (Roboto's line height, 1.4 x 17 rounded)."""
SIDE = 80
"""Width of the "Re" / "Kontra" label in front of a side's chips ("Kontra" whole at "Sehr groß")."""
COLUMNS: dict[int, ft.ResponsiveNumber] = {3: {"xs": 3}, 6: {"xs": 6, "md": 3}, 12: {"xs": 12, "md": 6}}
"""A phone row's share (twelfths, ``choice_fit``) as a responsive column; on a tablet (from 768 px)
half of it, which is still wider than the share on the narrowest phone."""
SONDER_SHORT = {"fuchs": "Fuchs", "doppelkopf": "Doko", "karlchen": "Karlchen", "herzstich": "Herz"}
"""What a Sonderpunkt chip shows, short so that a side's chips fit one phone row."""


def _chip(
    label: str, on_click: Callable[[], object], *, selected: bool, text: str | None = None, fit: Fit | None = None
) -> ft.Control:
    """A toggle as a big button, filled and ticked when chosen; ``label`` is its accessible name.

    Chosen or not, it is the same control with another style, so a tap that lands while the app
    redraws the panel still reaches it. ``fit``: the chip's place in a grid of alike chips (``_grid``),
    else it is as wide as its text."""
    shown = text if text is not None else label
    two_lines = fit is not None and fit[1]
    content = ft.Row(
        tight=True,
        spacing=4,
        alignment=ft.MainAxisAlignment.CENTER,
        controls=[
            ft.Icon(ft.Icons.CHECK, size=18, color=ft.Colors.ON_PRIMARY, visible=selected),
            ft.Text(
                shown,
                size=16 if two_lines else 17,
                weight=ft.FontWeight.BOLD if selected else ft.FontWeight.W_500,
                color=ft.Colors.ON_PRIMARY if selected else ft.Colors.PRIMARY,
                text_align=ft.TextAlign.CENTER,
                # At most the row's width: a name wider than the phone wraps inside its chip rather than
                # running out of it, where the chip cut it off unseen (its text is not in the semantics tree).
                expand=True,
                expand_loose=True,
            ),
        ],
    )
    style = ft.ButtonStyle(
        # A chip in a row of chips is as tall as its text: one line is TOUCH high at normal text, a
        # wrapped name or a name with its note ("Solo offen") grows the chip instead of being cut off.
        # In a grid 8 px at the sides, as much room as ``choice_fit`` counts with (a Schnapsen choice's).
        padding=ft.Padding.symmetric(horizontal=14, vertical=(TOUCH - LINE) / 2)
        if fit is None
        else ft.Padding.symmetric(horizontal=8, vertical=0),
        bgcolor=ft.Colors.PRIMARY if selected else None,
        side=ft.BorderSide(2 if selected else 1, ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE),
    )
    button = ft.OutlinedButton(content=content, expand=fit is not None, style=style, on_click=lambda _: on_click())
    # ``selected``: a screen reader says which chips are chosen (the web client shows it as aria-current)
    chip = ft.Semantics(label=label, button=True, selected=selected, container=True, exclude_semantics=True, content=button)
    if fit is not None:
        # As the Schnapsen panel's choices: a sized box in a responsive row around the semantics node;
        # two lines of text need more than one line's height at a large text size.
        box = ft.Container(col=COLUMNS[fit[0]], height=TOUCH, content=chip)
        return growing(box) if two_lines else box
    return chip


def grid_fit(texts: list[str], scale: float) -> Fit:
    """Where each of ``texts`` (players' names) goes in a grid of alike chips, for the narrowest phone
    (360 px) at the text size ``scale``: all four in a row, two to a row or each in the whole row, on
    one line or on two lines of the smaller font, one layout for all, never broken inside a word nor
    cut. A quarter of the row broke "Diet|er" and cut "Maxi|milia…" at 360 px "Sehr groß",
    "Barth|olom" at 412 px "Normal" (issue 22)."""
    return choice_fit(texts, scale, (3, 6, 12))


def _grid(chips: list[ft.Control]) -> ft.Control:
    return ft.ResponsiveRow(controls=chips, spacing=8, run_spacing=8)


def _minus(label: str, on_click: Callable[[], object]) -> ft.Control:
    """A counter's step down, beside its chip: a 48 x 48 target named for what it lowers."""
    return ft.Semantics(
        label=label,
        button=True,
        container=True,
        exclude_semantics=True,
        content=ft.IconButton(
            icon=ft.Icons.REMOVE_CIRCLE_OUTLINE, tooltip=label, width=TOUCH, height=TOUCH, on_click=lambda _: on_click()
        ),
    )


def _wrap(controls: list[ft.Control]) -> ft.Row:
    return ft.Row(wrap=True, spacing=8, run_spacing=8, controls=controls)


def _caption(text: str) -> ft.Text:
    return ft.Text(text, size=15, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT)


def _game(draft: DoppelkopfDraft, submit: Callable[[], None]) -> list[ft.Control]:
    """The common game: type, Re players, Augen, Ansagen, Sonderpunkte."""
    first = [_chip(TYP_LABEL[t], partial(draft.set_typ, t), selected=draft.typ == t) for t in draft.common_types]
    if draft.other_types and draft.typ not in draft.other_types:
        first.append(_chip("Solo, stille Hochzeit …", draft.toggle_types, selected=draft.more_types, text="Solo …"))
    controls: list[ft.Control] = [_wrap(first)]
    if draft.show_other_types:
        controls.append(
            _wrap([_chip(TYP_LABEL[t], partial(draft.set_typ, t), selected=draft.typ == t) for t in draft.other_types])
        )
    controls += []
    if draft.farben:
        controls.append(
            _wrap(
                [
                    _chip(f"Trumpf {f.capitalize()}", partial(draft.set_farbe, f), selected=draft.farbe == f, text=f.capitalize())
                    for f in FARBEN
                ]
            )
        )
    players: list[ft.Control] = []
    for pid in draft.players:
        note = draft.solo_note(pid)
        name = draft.name(pid)
        players.append(
            _chip(
                f"Re: {name}",
                partial(draft.toggle_re, pid),
                selected=pid in draft.re,
                text=f"{name}\n{note}" if note else name,
            )
        )
    # Each chip as wide as its name, wrapping onto the next line: a long name at "Sehr groß" is never cut off.
    controls += [_caption(f"{draft.re_prompt} ({draft.table_text})"), _wrap(players)]
    kontra = 240 - int(draft.augen) if draft.augen.isdigit() and int(draft.augen) <= 240 else None
    controls.append(
        ft.Row(
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[
                ft.TextField(
                    label="Augen Re",
                    value=draft.augen,
                    width=150,
                    text_size=22,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    input_filter=ft.NumbersOnlyInputFilter(),
                    max_length=3,
                    counter="",
                    on_change=lambda e: draft.set_augen(entered(e)),
                    on_submit=lambda _: submit(),
                ),
                # Beside the field and as wide as what is left of the row: at 360 px and "Sehr groß" it
                # ended at the screen's edge; it wraps rather than runs off.
                ft.Text(f"Kontra: {kontra}" if kontra is not None else "Kontra: 240 − Re", size=17, expand=True),
            ],
        )
    )
    controls += _ansagen(draft)
    keys = [k for k in draft.sonder_keys if k not in draft.rare_sonder_keys or draft.show_rare_calls]
    if keys:
        controls.append(_caption("Sonderpunkte"))
        for seite in SEITEN:
            chips: list[ft.Control] = []
            for key in keys:
                count = draft.sonder_count(seite, key)
                text = SONDER_SHORT[key] + (f" ×{count}" if count > 1 else "")
                chip = _chip(
                    f"{SEITE_NAME[seite]}: {SONDER_LABEL[key]}",
                    partial(draft.tap_sonder, seite, key),
                    selected=count > 0,
                    text=text,
                )
                if count:  # a tap too many is taken back as easily as it was made
                    chip = ft.Row(
                        tight=True,
                        spacing=0,
                        controls=[
                            chip,
                            _minus(f"{SEITE_NAME[seite]}: {SONDER_LABEL[key]} weniger", partial(draft.untap_sonder, seite, key)),
                        ],
                    )
                chips.append(chip)
            controls.append(
                ft.Row(
                    spacing=8,
                    controls=[
                        ft.Text(SEITE_NAME[seite], size=15, width=SIDE),
                        ft.Row(wrap=True, spacing=6, run_spacing=6, expand=True, controls=chips),
                    ],
                )
            )
    if draft.schwein_possible or draft.schwein:
        controls.append(_wrap([_chip("Schwein", draft.toggle_schwein, selected=draft.schwein)]))
    return controls


def _ansagen(draft: DoppelkopfDraft) -> list[ft.Control]:
    """Re / Kontra; one tap down ("…", ``show_rare_calls``) "Einen zurück" where the other side
    called, the Absagen of a side that called, and the rare Sonderpunkte (Herzstich): with both
    sides' Absagen open the panel was one and a half screens tall, "Eintragen" below the fold."""
    chips = [_chip(SEITE_NAME[s], partial(draft.toggle_ansage, s), selected=bool(draft.ansage.get(s))) for s in SEITEN]
    if draft.has_rare_calls:
        shown = draft.show_rare_calls
        chips.append(_chip("Absagen ausblenden" if shown else "Absagen …", draft.toggle_calls, selected=False, text="Absage …"))
    calls = ft.Row(
        wrap=True,  # at "Sehr groß" on 360 px the fold's chip goes onto a line of its own, nothing is cut off
        spacing=8,
        run_spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        controls=[ft.Text("Ansage", size=15), *chips],  # as wide as the word: "Ansa|ge" at "Sehr groß" was a fixed 60 px
    )
    if not draft.show_rare_calls:
        return [calls]
    replies = [
        _chip(
            f"{SEITE_NAME[s]}: Einen zurück",
            partial(draft.toggle_zurueck, s),
            selected=bool(draft.zurueck.get(s)),
            text=f"{SEITE_NAME[s]}: Einen zurück",
        )
        for s in SEITEN
        if draft.zurueck_possible(s)
    ]
    controls: list[ft.Control] = [calls]
    if replies:
        controls.append(_wrap(replies))
    for seite in SEITEN:
        if draft.absage_possible(seite):
            controls.append(_absagen(draft, seite))
    return controls


def _absagen(draft: DoppelkopfDraft, seite: Seite) -> ft.Control:
    chosen = draft.absage.get(seite)
    return ft.Row(
        spacing=8,
        controls=[
            ft.Text(SEITE_NAME[seite], size=15, width=SIDE),
            ft.Row(
                wrap=True,
                spacing=6,
                run_spacing=6,
                expand=True,
                controls=[
                    _chip(f"{SEITE_NAME[seite]}: {a}", partial(draft.set_absage, seite, a), selected=chosen == a, text=a)
                    for a in ABSAGEN
                ],
            ),
        ],
    )


def _rare(draft: DoppelkopfDraft, scale: float) -> list[ft.Control]:
    """One level down: a Strafe, Schmeißen, a dealer out of turn, schwarz with Neunen."""
    kinds = {"game": "Spiel", "strafe": "Strafe", "schmeissen": "Schmeißen"}
    controls: list[ft.Control] = [
        _wrap(
            [
                _chip(f"Eintrag: {kinds[k]}", partial(draft.set_kind, k), selected=draft.kind == k, text=kinds[k])
                for k in draft.kinds
            ]
        )
    ]
    if draft.kind != "game":
        # The game's chips are hidden: the Strafe or Schmeißen stands right under its chip.
        return controls + _penalty(draft, scale)
    controls.append(_caption("Geber außer der Reihe"))
    controls.append(
        _wrap(
            [
                _chip(f"Geber: {draft.name(p)}", partial(draft.set_geber, p), selected=draft.geber == p, text=draft.name(p))
                for p in draft.everyone
            ]
        )
    )
    if draft.schwarz_explicit:
        controls.append(_caption("Schwarz (ohne Stich)"))
        controls.append(
            _wrap([_chip(f"{SEITE_NAME[s]} schwarz", partial(draft.set_schwarz, s), selected=draft.schwarz == s) for s in SEITEN])
        )
    return controls


def _penalty(draft: DoppelkopfDraft, scale: float) -> list[ft.Control]:
    """Who gets the Strafe (with a reason), or who throws in: the players' names alike in a grid."""
    strafe = draft.kind == "strafe"
    prefix = "Strafe" if strafe else "Schmeißt"
    fit = grid_fit([draft.name(p) for p in draft.players], scale)
    controls: list[ft.Control] = [
        _caption(draft.strafe_text if strafe else "Schmeißen (fünf Könige): derselbe Geber gibt neu, kein Spiel"),
        _caption("Wer?"),
        _grid(
            [
                _chip(
                    f"{prefix}: {draft.name(p)}",
                    partial(draft.set_spieler, p),
                    selected=draft.spieler == p,
                    text=draft.name(p),
                    fit=fit,
                )
                for p in draft.players
            ]
        ),
    ]
    if strafe:
        controls.append(
            ft.TextField(
                label="Grund der Strafe",
                value=draft.grund,
                text_size=17,
                max_length=200,
                counter="",
                on_change=lambda e: draft.set_grund(entered(e)),
            )
        )
        if draft.strafe_spiel_choices:
            controls.append(
                _wrap(
                    [
                        _chip(STRAFE_SPIEL[s], partial(draft.set_spiel, s), selected=draft.spiel == s)
                        for s in draft.strafe_spiel_choices
                    ]
                )
            )
    return controls


def _still_incomplete(draft: DoppelkopfDraft) -> bool:
    """A "what is missing" message stays only while it is still missing."""
    try:
        draft.entry()
    except DraftIncomplete:
        return True
    return False


@family("doppelkopf-turnier", "doppelkopf-haus", draft=DoppelkopfDraft)
@ft.component
def DoppelkopfPanel(draft: DoppelkopfDraft, on_submit: Submit, *, correcting: str | None = None) -> ft.Control:
    if draft.sheet is None or draft.lage is None:
        return ft.Text("Kein Blatt.")
    problem, set_problem = ft.use_state(cast("str | None", None))
    scale = text_scale(ft.use_context(LOOKS))

    def submit() -> None:
        try:
            kind, data = draft.entry()
        except DraftIncomplete as error:
            set_problem(str(error))
            return
        set_problem(None)
        if correcting is None:
            preview = draft.preview()
            if preview is not None and not preview[0]:
                return  # the refusal already shows under the button ("Nicht erlaubt: …"): once, not twice
        on_submit(kind, data)

    controls: list[ft.Control] = []
    if draft.kind == "game":
        controls += _game(draft, submit)
    more = ft.TextButton(
        "Weniger" if draft.more else "Strafe, Schmeißen, Geber …",
        icon=ft.Icons.EXPAND_LESS if draft.more else ft.Icons.EXPAND_MORE,
        height=48,
        on_click=lambda _: draft.toggle_more(),
    )
    if draft.more:  # open: the rare entry stands above the button that enters it
        controls += [more, *_rare(draft, scale)]
    label = "Korrektur eintragen" if correcting else "Eintragen"
    controls.append(
        ft.FilledButton(
            content=ft.Text(label, size=20, weight=ft.FontWeight.BOLD),
            height=60,
            icon=ft.Icons.EDIT if correcting else ft.Icons.CHECK_CIRCLE,
            on_click=lambda _: submit(),
        )
    )
    # Below the button, so the button does not move while the player types: what is tapped, what is
    # missing, or what the game gives as the ruleset scores it.
    controls.append(ft.Text(draft.summary, size=15))
    if not draft.more:  # closed: under the button, so that a game's "Eintragen" stays on the first screen
        controls.append(more)
    if problem and _still_incomplete(draft):
        controls.append(ft.Text(problem, color=ft.Colors.ERROR, size=16, weight=ft.FontWeight.W_600))
    elif correcting is None:
        preview = draft.preview()
        if preview is not None:
            ok, text = preview
            if ok:
                controls.append(ft.Text(f"Ergibt: {text}", size=16, weight=ft.FontWeight.W_500))
            else:
                controls.append(ft.Text(f"Nicht erlaubt: {text}", size=15, color=ft.Colors.ERROR))
    return ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls)
