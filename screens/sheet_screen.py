"""The sheet: the running totals and what the rules make of them always on top, every line below
(a tap shows its explanation and trail), the entry panel at the bottom, one tap from every game."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import flet as ft

from scoring.engine import Figure

from .course_chart import CourseChart
from .families import find_family
from .looks import LOOKS, entered, error_box, scaling, text_scale
from .sheet_state import LineView, SheetState
from .tournament_state import TournamentState

TITLE_WORD = 11
"""The longest word the app bar's title holds beside the share icon and the named close action on the
narrowest phone (360 px): "Doppelkopf" does, "Talonschnapsen" broke as "Talonschnapse|n"."""


def _breaks_a_word(figure: Figure, *, compact: bool) -> bool:
    """Whether a word of a name is longer than its share of a 360 px phone's row holds: about 26
    characters of the names' text at a large text size, 36 at normal ("Maximiliane" broke as
    "Maximilian|e" in a third of the row at "Sehr groß"; "Schnapsbrüder" fits half of it). Words end
    at spaces and hyphens."""
    longest = max((len(word) for name, _ in figure.values for word in re.split(r"[\s-]+", name)), default=0)
    return longest > (26 if compact else 36) // max(1, len(figure.values))


def _figure(figure: Figure, *, compact: bool = False) -> ft.Control:
    """One labelled row of headline numbers: the label above, each participant's value with its name.

    Up to three side by side, each in its share of the width. Four or more (Doppelkopf, Schafkopf),
    or a name with a word longer than its share holds, as a scoreboard, one line per player, the name
    on the left and the number on the right: in a quarter of a phone's width at a large text size a
    long name broke in the middle of a word.
    ``compact`` (at "Groß" and "Sehr groß"): the scoreboard's lines tighter, so five players' numbers
    with their names stay in the top third of the screen (issue 22)."""
    label = ft.Text(figure.label, size=13 if compact else 14, weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER)
    if len(figure.values) > 3 or _breaks_a_word(figure, compact=compact):
        rows = [
            ft.Row(
                spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
                controls=[
                    ft.Text(name, size=13 if compact else 16, expand=True),
                    # 22 bold still reads at arm's length; at 26 five rows pushed a Doppelkopf game's
                    # "Eintragen" below the first screen; at a large text size 18 (25 px) keeps five rows in the top third
                    ft.Text(value, size=18 if compact else 22, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.RIGHT),
                ],
            )
            for name, value in figure.values
        ]
        return ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=[label, *rows])
    values = ft.Row(
        spacing=8,
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.START,
        controls=[
            ft.Column(  # side by side, each participant's share of the width; a long name wraps in it
                expand=True,
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                controls=[
                    ft.Text(value, size=32 if compact else 40, weight=ft.FontWeight.BOLD),
                    ft.Text(name, size=13 if compact else 14, text_align=ft.TextAlign.CENTER),
                ],
            )
            for name, value in figure.values
        ],
    )
    return ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER, controls=[label, values])


def _status_lines(state: SheetState) -> list[ft.Control]:
    """The headline's other figures, one line each ("Bummerl gewonnen: …"), and the ruleset's status
    lines ("Spiel 3 von 16", "Es gibt: …")."""
    headline = state.headline
    controls: list[ft.Control] = []
    if headline is not None:
        controls.extend(
            ft.Text(
                f"{f.label}: " + " · ".join(f"{name} {value}" for name, value in f.values),
                size=15,
                weight=ft.FontWeight.W_600,
                text_align=ft.TextAlign.CENTER,
            )
            for f in headline.figures[1:]
        )
    controls.extend(ft.Text(message, size=15, weight=ft.FontWeight.W_500) for message in state.messages)
    return controls


def _header(state: SheetState, *, large_text: bool) -> ft.Control:
    """The numbers that count, big enough to read at arm's length and named as the ruleset names
    them (``Ruleset.headline``), then the ruleset's status lines.

    At a large text size the header holds the numbers that count alone, tighter: it stays put while
    the list scrolls under it, and with the status lines too it took 420 of 915 px at "Sehr groß" with
    five players, leaving the entry panel too little room. The status lines lead the scrolling list
    then (``_status_box``)."""
    headline = state.headline
    controls: list[ft.Control] = []
    if headline is not None:
        controls.append(_figure(headline.main, compact=large_text))
    if not large_text:
        controls.extend(_status_lines(state))
    return ft.Container(
        padding=ft.Padding.symmetric(horizontal=12, vertical=4 if large_text else 8),
        border_radius=12,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        content=ft.Column(spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls),
    )


def _status_box(state: SheetState) -> ft.Control | None:
    """At a large text size: the status lines the header leaves out, on top of the scrolling list."""
    lines = _status_lines(state)
    if not lines:
        return None
    return ft.Container(
        padding=ft.Padding.symmetric(horizontal=12, vertical=6),
        border_radius=12,
        border=ft.Border.all(1, ft.Colors.SECONDARY_CONTAINER),
        content=ft.Column(spacing=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=lines),
    )


def listed_lines(state: SheetState, correct: Callable[[int], Any]) -> list[ft.Control]:
    """The sheet's lines as the screen lists them, newest first, each keyed by its entry (``_line``)."""
    lines: list[ft.Control] = []
    for line in reversed(state.lines):
        lines.extend(_line(state, line, correct))
    if not lines:
        lines.append(ft.Text("Noch kein Spiel eingetragen.", size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    return lines


def _line(state: SheetState, line: LineView, correct: Callable[[int], Any]) -> list[ft.Control]:
    open_ = state.expanded == line.entry
    # keyed by the entry: a new game comes in on top, and without a key every line below took the text of
    # the line that had stood above it, so each game re-sent and re-laid out the whole sheet (issue 24)
    tile = ft.ListTile(
        key=f"line-{line.entry}",
        dense=True,
        min_height=52,
        title=ft.Text(
            line.title,
            size=15,
            weight=ft.FontWeight.W_600,
            style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if line.voided else None,
        ),
        # the whole summary, wrapped at words, at every text size: one line cut "Kartlbrüder Wörgl gewinnt das
        # Spiel zu 3, 1x ausgeschafft" at 360 and 412 px "Normal", as measured in Flutter's font (issue 22)
        subtitle=ft.Text(line.summary, size=13),
        trailing=ft.Column(
            spacing=0,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.END,
            controls=[ft.Text(line.stand, size=16, weight=ft.FontWeight.BOLD)],
        ),
        on_click=lambda _: state.toggle(line.entry),
    )
    rows: list[ft.Control] = [tile]
    if open_:
        details: list[ft.Control] = [ft.Text(text, size=13) for text in line.explanation]
        if line.points:
            details.append(ft.Text(f"Punkte: {line.points}", size=13, weight=ft.FontWeight.W_500))
        for item in state.trail(line.entry):
            details.append(ft.Text(item.text(), size=13, italic=True, color=ft.Colors.ON_SURFACE_VARIANT))
        if line.correctable:
            details.append(
                ft.Row(
                    wrap=True,
                    controls=[
                        ft.OutlinedButton(
                            f"{line.name} korrigieren",
                            icon=ft.Icons.EDIT,
                            height=48,
                            on_click=functools.partial(correct, line.entry),
                        )
                    ],
                )
            )
        rows.append(
            ft.Container(
                key=f"line-{line.entry}-open",
                padding=ft.Padding.only(left=16, right=12, bottom=8),
                content=ft.Column(spacing=4, controls=details),
            )
        )
    return rows


def _correction_bar(state: SheetState) -> ft.Control:
    target = state.correcting
    what = state.label(target) if target is not None else ""

    def strike() -> None:
        if target is not None and state.void(target, state.reason):
            state.finish_correction()

    return ft.Column(
        spacing=6,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            ft.Text(f"{what} korrigieren oder streichen", size=16, weight=ft.FontWeight.BOLD),
            ft.TextField(
                label="Grund der Änderung",
                value=state.reason,
                dense=True,
                on_change=lambda e: state.set_reason(entered(e)),
            ),
            ft.Row(
                wrap=True,
                controls=[
                    ft.OutlinedButton("Abbrechen", height=48, on_click=lambda _: state.cancel_correction()),
                    ft.OutlinedButton(
                        f"{what} streichen",
                        icon=ft.Icons.DELETE_OUTLINE,
                        height=48,
                        on_click=lambda _: strike(),
                    ),
                ],
            ),
        ],
    )


def _sync(state: SheetState, tournament: TournamentState) -> ft.Control | None:
    """Where the sheet stands on its way to the organizer, and a button to send it now."""
    sheet = state.sheet
    if sheet is None:
        return None
    stray = tournament.stray(sheet.context.tournament, sheet.context.table)
    if stray is not None:  # issue 21: say so on the sheet too; the start screen hands it over
        there = (
            " – auf der Startseite „An das Turnier senden“"
            if tournament.can_hand_over(sheet.context.tournament, state.closed)
            else ""
        )
        return ft.Text(f"{stray[:1].upper()}{stray[1:]}{there}.", size=14, weight=ft.FontWeight.W_500, color=ft.Colors.ERROR)
    if not tournament.belongs(sheet.context.tournament, sheet.context.table):
        return None
    sheet_id = str(sheet.id)
    label = tournament.label(sheet_id) or "nicht gesendet"
    sync = tournament.states.get(sheet_id)
    controls: list[ft.Control] = [ft.Text(f"Veranstalter: {label}", size=14, weight=ft.FontWeight.W_500, expand=True)]
    if sync is not None and sync.state == "refused":
        controls.append(
            ft.TextButton("Erneut senden", icon=ft.Icons.SEND, height=44, on_click=lambda _: tournament.retry(sheet_id))
        )
    elif sync is None or sync.state == "not_sent" or sync.revision > sync.acknowledged_revision:
        what = "Jetzt senden" if state.closed else "Zwischenstand senden"
        controls.append(ft.TextButton(what, icon=ft.Icons.SEND, height=44, on_click=lambda _: tournament.queue(sheet_id)))
    row = ft.Row(controls=controls, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    holdup = tournament.holdup(sheet_id)
    if holdup is None:
        return row
    return ft.Column(spacing=2, controls=[row, ft.Text(holdup, size=13, color=ft.Colors.ERROR)])


@scaling
@ft.component
def SheetScreen(state: SheetState, tournament: TournamentState, on_close: Callable[[], None], route: str) -> ft.View:
    if state.sheet is None:
        return ft.View(
            route=route,
            appbar=ft.AppBar(title=ft.Text("Blatt")),
            controls=[ft.Text(state.load_error or "Das Blatt wird geladen …", color=ft.Colors.ERROR, size=16)],
        )
    family = find_family(state.sheet.ruleset.id)
    mounted: ft.Ref[ft.Column] = ft.use_ref(None)  # type: ignore[assignment]
    large_text = text_scale(ft.use_context(LOOKS)) > 1.0
    """The scrolling list as first mounted: later renders are merged into it, so it is the one to scroll."""

    async def to_top() -> None:
        try:
            if mounted.current is not None:
                await mounted.current.scroll_to(offset=0, duration=250)
        except RuntimeError:  # the list was replaced (another screen state); nothing to scroll
            pass

    async def correct(entry: int, _: ft.Event[ft.OutlinedButton] | None = None) -> None:
        """Load the line into the entry panel and scroll up to it."""
        state.start_correction(entry)
        await to_top()

    panel: list[ft.Control] = []
    if state.correcting is not None:
        panel.append(_correction_bar(state))
    if state.correcting is not None or not state.finished:
        correcting = state.label(state.correcting) if state.correcting is not None else None
        panel.append(family.panel(state.draft, state.submit, correcting=correcting))
    if state.error:
        panel.append(error_box(state.error))
    elif state.notice:
        panel.append(ft.Text(state.notice, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    if state.correcting is None and state.last_game is not None and not state.closed:
        panel.append(
            ft.TextButton(
                "Letztes Spiel zurücknehmen",
                icon=ft.Icons.UNDO,
                height=48,
                on_click=lambda _: state.undo_last(),
            )
        )
    if state.finished and state.correcting is None:
        panel.append(
            ft.Container(
                padding=8,
                border_radius=8,
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
                content=ft.Column(
                    spacing=2,
                    controls=[
                        ft.Text("Ergebnis", size=16, weight=ft.FontWeight.BOLD),
                        *[ft.Text(text, size=14) for text in state.result_lines],
                    ],
                ),
            )
        )
    sync = _sync(state, tournament)
    if sync is not None:
        panel.insert(0, sync)
    status = _status_box(state) if large_text else None
    if status is not None:
        panel.insert(0, status)
    lines = listed_lines(state, correct)
    close_label = "Blatt abgeschlossen" if state.closed else "Abschließen und unterschreiben"
    close_name = "Ergebnis" if state.closed else "Abschließen"
    close_icon = ft.Icons.VERIFIED if state.closed else ft.Icons.DRAW
    close: ft.Control = ft.TextButton(close_name, icon=close_icon, tooltip=close_label, height=48, on_click=lambda _: on_close())
    if large_text or any(len(word) > TITLE_WORD for word in state.title.split()):
        # the word beside the icon left the title too little room: it broke mid-word ("Talonschnapse|n"
        # at 360 px, at every text size); the icon alone keeps the action's name for a screen reader
        close = ft.Semantics(
            label=close_name,
            button=True,
            exclude_semantics=True,
            content=ft.IconButton(icon=close_icon, tooltip=close_label, on_click=lambda _: on_close()),
        )
    listing = ft.Column(
        expand=True,
        scroll=ft.ScrollMode.AUTO,
        spacing=0,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            ft.Column(spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=panel),
            CourseChart(state),
            ft.Divider(),
            *lines,
        ],
    )
    if mounted.current is None:
        mounted.current = listing
    return ft.View(
        route=route,
        padding=ft.Padding.symmetric(horizontal=10, vertical=6),
        appbar=ft.AppBar(
            toolbar_height=64,
            title=ft.Column(
                spacing=0,
                controls=[
                    # two lines rather than "Doppelkopf (Turn…" beside the actions at 360-412 px
                    ft.Text(state.title, size=16, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(tournament.where(state.where), size=12, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                ],
            ),
            actions=[
                ft.Semantics(
                    label="Teilen / Exportieren",
                    button=True,
                    exclude_semantics=True,
                    content=ft.IconButton(
                        icon=ft.Icons.SHARE,
                        tooltip="Teilen / Exportieren",
                        on_click=lambda _: ft.context.page.navigate(f"{route}/teilen"),
                    ),
                ),
                close,
            ],
        ),
        controls=[
            ft.Column(
                expand=True,
                spacing=8,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                controls=[
                    _header(state, large_text=large_text),
                    listing,
                ],
            )
        ],
    )
