"""The course of the game on the sheet: a line per team or player through the games (flet-charts),
with the ruleset's markers, and the explanation of the game whose point was tapped.

The numbers and markers are ``scoring.course.course`` (the ruleset's own lines); this file only draws.
Colours: the series take the Okabe-Ito palette (told apart also with red-green colour blindness, on a
light and a dark background) and a dash pattern each; everything else takes the theme's colours.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import flet as ft
import flet_charts as fch

from scoring.course import Course, course

from .sheet_state import SheetState

#: Okabe-Ito: blue, vermillion, bluish green, reddish purple, orange, sky blue.
SERIES_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
#: A dash pattern per series besides its colour (solid, long dashes, short dashes, ...).
SERIES_DASHES: tuple[list[int] | None, ...] = (None, [10, 4], [4, 3], [12, 3, 3, 3], [2, 2], [8, 8])
LEFT_AXIS = 34
"""Pixels the left axis labels take: the plot starts there (the browser test taps points from it)."""
BOTTOM_AXIS = 22
CHART_HEIGHT = 230
TOP_PADDING = 8
PLOT_HEIGHT = CHART_HEIGHT - TOP_PADDING - BOTTOM_AXIS
"""Pixels of the plot between the top padding and the bottom axis labels."""
MARKER_ROOM = 9
"""Pixels kept free above the highest and below the lowest point: a Pflichtsolo's square (11 px and its
2 px stroke) drawn on the plot's edge would reach into the game numbers under it."""
MARKER_COLOUR = ft.Colors.ON_SURFACE_VARIANT
BAND_COLOUR = ft.Colors.with_opacity(0.22, ft.Colors.TERTIARY)


def colour(index: int) -> str:
    return SERIES_COLOURS[index % len(SERIES_COLOURS)]


def _flat(x0: float, x1: float, y: float, **style: object) -> fch.LineChartData:
    """A horizontal marker line (not a game: no point, no tooltip)."""
    return fch.LineChartData(
        points=[fch.LineChartDataPoint(x0, y, show_tooltip=False), fch.LineChartDataPoint(x1, y, show_tooltip=False)],
        point=False,
        **style,  # type: ignore[arg-type]
    )


def segments(data: Course) -> list[tuple[int, int, int]]:
    """The participants' lines as drawn: per series one piece per Bummerl (a line does not run on
    across a boundary, where the count starts anew), as (series index, first x, last x)."""
    cuts = [0, *sorted({b.after for b in data.boundaries if b.after < len(data.points)}), len(data.points)]
    return [
        (index, first + 1, last) for index in range(len(data.series)) for first, last in itertools.pairwise(cuts) if last > first
    ]


def chart_series(data: Course) -> list[fch.LineChartData]:
    """The participants' lines first (so a tapped spot's ``bar_index`` is one of ``segments``), then the markers."""
    marked = {(m.participant, m.x) for m in data.marks}
    lines = []
    for index, first, last in segments(data):
        series = data.series[index]
        lines.append(
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(
                        x,
                        series.values[x - 1],
                        tooltip=f"{series.name}: {series.values[x - 1]}",
                        point=fch.ChartSquarePoint(
                            size=11, color=colour(index), stroke_width=2, stroke_color=ft.Colors.ON_SURFACE
                        )
                        if (series.participant, x) in marked
                        else None,
                    )
                    for x in range(first, last + 1)
                ],
                color=colour(index),
                stroke_width=3,
                dash_pattern=SERIES_DASHES[index % len(SERIES_DASHES)],
                point=fch.ChartCirclePoint(radius=3, color=colour(index), stroke_width=0),
            )
        )
    left, right = 0.5, len(data.points) + 0.5
    for band in data.bands:
        lines.append(
            _flat(
                left,
                right,
                band.high,
                color=ft.Colors.with_opacity(0.0, ft.Colors.TERTIARY),
                stroke_width=0,
                below_line_bgcolor=BAND_COLOUR,
                below_line_cutoff_y=band.low,
            )
        )
    for level in data.levels:
        lines.append(_flat(left, right, level.value, color=MARKER_COLOUR, stroke_width=1.5, dash_pattern=[6, 4]))
    for boundary in data.boundaries:
        x = boundary.after + 0.5
        lines.append(
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(x, data.low, show_tooltip=False),
                    fch.LineChartDataPoint(x, data.high, show_tooltip=False),
                ],
                point=False,
                color=MARKER_COLOUR,
                stroke_width=1.5,
                dash_pattern=[2, 3],
            )
        )
    return lines


class Axes(NamedTuple):
    """Where the chart's axes run and which numbers they show (the geometry the tests check)."""

    min_y: float
    max_y: float
    step: int
    """Between two numbers on the left axis; only its multiples are shown (never the range's ends,
    which would stand on a neighbour: 42 over 40)."""
    y_labels: tuple[int, ...]
    x_labels: tuple[tuple[int, str], ...]
    """(x, the game's number as the players count it); an event (a Strafe) has a point but no number."""

    def pixels(self, value: float) -> float:
        """Height of ``value`` above the plot's bottom edge, in pixels."""
        return (value - self.min_y) * PLOT_HEIGHT / (self.max_y - self.min_y)


def axes(data: Course) -> Axes:
    """The value range with ``MARKER_ROOM`` pixels free at both ends, the left axis' step (at most six
    lines), and about eight game numbers along the bottom."""
    span = max(1, data.high - data.low)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10**9) if span / s <= 6)
    room = MARKER_ROOM / PLOT_HEIGHT
    pad = span * room / (1 - 2 * room)
    min_y, max_y = data.low - pad, data.high + pad
    first = math.ceil(min_y / step) * step
    y_labels = tuple(range(first, math.floor(max_y) + 1, step))
    games = [p for p in data.points if p.game is not None]
    every = max(1, len(games) // 8)
    x_labels = tuple((p.x, str(p.game)) for p in games if p.game is not None and (p.game == 1 or p.game % every == 0))
    return Axes(min_y, max_y, step, y_labels, x_labels)


def _legend(data: Course) -> ft.Control:
    """Who is which line, and what the markers mean, in words (the chart itself is not read aloud)."""
    who: list[ft.Control] = [
        ft.Row(
            spacing=4,
            tight=True,
            controls=[
                ft.Container(width=18, height=4, bgcolor=colour(index), border_radius=2),
                ft.Text(series.name, size=13, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
            ],
        )
        for index, series in enumerate(data.series)
    ]
    notes: list[tuple[ft.Control, str]] = [
        (ft.Container(width=18, height=2, bgcolor=MARKER_COLOUR), level.label) for level in data.levels
    ]
    notes += [(ft.Container(width=18, height=10, bgcolor=BAND_COLOUR), band.label) for band in data.bands]
    if data.boundaries:
        ends = ", ".join(f"{b.label} ({data.label_at(b.after)})" for b in data.boundaries)
        notes.append((ft.Container(width=2, height=14, bgcolor=MARKER_COLOUR, margin=ft.Margin.symmetric(horizontal=8)), ends))
    notes += [
        (
            ft.Container(
                width=10, height=10, border=ft.Border.all(2, ft.Colors.ON_SURFACE), margin=ft.Margin.symmetric(horizontal=4)
            ),
            f"{m.label} ({data.label_at(m.x)})",
        )
        for m in data.marks
    ]
    controls: list[ft.Control] = [ft.Row(wrap=True, spacing=12, run_spacing=2, controls=who)]
    controls += [
        ft.Row(
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
            controls=[swatch, ft.Text(text, size=12, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)],
        )
        for swatch, text in notes
    ]
    return ft.Column(spacing=2, controls=controls)


def summary(data: Course) -> str:
    """The chart's accessible name: what it shows and where it ends."""
    if not data.points:
        return "Spielverlauf: noch kein Spiel"
    last = ", ".join(f"{s.name} {s.values[-1]}" for s in data.series)
    return f"Spielverlauf über {len(data.points)} Spiele ({data.measure}), zuletzt {last}"


def _explanation(state: SheetState, data: Course) -> ft.Control | None:
    """The explanation of the selected line, as the list shows it."""
    if state.expanded is None:
        return None
    view = next((line for line in state.lines if line.entry == state.expanded), None)
    if view is None:
        return None
    texts: list[ft.Control] = [ft.Text(f"Angetippt: {view.title}", size=14, weight=ft.FontWeight.BOLD)]
    texts += [ft.Text(text, size=13) for text in view.explanation]
    if view.points:
        texts.append(ft.Text(f"Punkte: {view.points}", size=13, weight=ft.FontWeight.W_500))
    return ft.Container(
        padding=8,
        border_radius=8,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        content=ft.Column(spacing=2, controls=texts),
    )


@ft.component
def CourseChart(state: SheetState) -> ft.Control:
    """The course of the open sheet; a tapped point opens its game's explanation here and in the list."""
    sheet, score = state.sheet, state.score
    revision = (str(sheet.id), len(sheet.entries)) if sheet is not None else None
    data = ft.use_memo(lambda: course(sheet, score) if sheet is not None else None, dependencies=[revision])
    shown, show = ft.use_state(state.finished)
    """Shown at once on a finished sheet; while a round is played the lines come first, the chart on a tap."""
    if data is None:
        return ft.Container()
    header = ft.Row(
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        controls=[
            ft.Text(f"Spielverlauf · {data.measure}", size=15, weight=ft.FontWeight.W_600, expand=True),
            ft.TextButton(
                "Ausblenden" if shown else "Anzeigen",
                icon=ft.Icons.EXPAND_LESS if shown else ft.Icons.SHOW_CHART,
                tooltip="Spielverlauf ausblenden" if shown else "Spielverlauf anzeigen",
                height=48,
                on_click=lambda _: show(not shown),
            ),
        ],
    )
    if not shown:
        return ft.Container(padding=ft.Padding.symmetric(vertical=2), content=header)
    pieces = segments(data)

    def tapped(event: fch.LineChartEvent) -> None:
        if event.type != fch.ChartEventType.TAP_UP:
            return
        for spot in event.spots:
            if spot.bar_index < len(pieces):
                entry = data.entry_at(pieces[spot.bar_index][1] + spot.spot_index)
                if entry is not None:
                    state.expanded = entry
                return

    grid = axes(data)
    chart = fch.LineChart(
        data_series=chart_series(data),
        min_x=0.5,
        max_x=max(1, len(data.points)) + 0.5,
        min_y=grid.min_y,
        max_y=grid.max_y,
        interactive=True,
        horizontal_grid_lines=fch.ChartGridLines(interval=grid.step, color=ft.Colors.OUTLINE_VARIANT, width=1),
        left_axis=fch.ChartAxis(
            label_size=LEFT_AXIS,
            show_min=False,
            show_max=False,
            labels=[fch.ChartAxisLabel(value=y, label=ft.Text(str(y), size=11)) for y in grid.y_labels],
        ),
        bottom_axis=fch.ChartAxis(
            label_size=BOTTOM_AXIS,
            label_spacing=1,
            show_min=False,
            show_max=False,
            labels=[fch.ChartAxisLabel(value=x, label=ft.Text(text, size=11)) for x, text in grid.x_labels],
        ),
        tooltip=fch.LineChartTooltip(bgcolor=ft.Colors.INVERSE_SURFACE, fit_inside_horizontally=True),
        on_event=tapped,
        expand=True,
    )
    controls: list[ft.Control] = [
        header,
        ft.Semantics(
            label=summary(data),
            container=True,
            content=ft.Container(height=CHART_HEIGHT, padding=ft.Padding.only(right=8, top=TOP_PADDING), content=chart),
        ),
        _legend(data),
    ]
    explanation = _explanation(state, data)
    if explanation is not None:
        controls.append(explanation)
    elif data.points:
        controls.append(ft.Text("Tippe auf einen Punkt: die Erklärung des Spiels erscheint hier.", size=12, italic=True))
    return ft.Container(
        padding=ft.Padding.symmetric(vertical=6),
        content=ft.Column(spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls),
    )
