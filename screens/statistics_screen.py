"""Statistics across the sheets on this phone, per team or player, with filters by ruleset and date."""

from __future__ import annotations

import flet as ft

from scoring.statistics import Figures, GameRef, Row

from .looks import entered, scaling, thumb
from .statistics_state import DATE_HINT, StatisticsState


def percent(won: int, played: int) -> str:
    return f"{round(100 * won / played)} %" if played else "–"


def _game(label: str, game: GameRef | None) -> str | None:
    if game is None:
        return None
    points = f"{game.points:+d}" if game.points else "0"
    # the game as the players count it on its sheet ("8. Spiel"), never its log entry ("Eintrag 27")
    return f"{label}: {points} ({game.label}, {game.ruleset}, {game.day.strftime('%d.%m.%Y')}: {game.text})"


def row_lines(figures: Figures) -> list[str]:
    """What a row says, line by line (also its accessible name)."""
    sheets = f"{figures.sheets} Blatt" if figures.sheets == 1 else f"{figures.sheets} Blätter"
    lines = [
        f"{sheets} · {figures.games} Spiele · gewonnen {figures.won} ({percent(figures.won, figures.games)}) · Punkte {figures.points}"
    ]
    if figures.bummerl_won or figures.bummerl_lost:
        lines.append(f"Bummerl gewonnen {figures.bummerl_won} · verloren {figures.bummerl_lost} · Schneider {figures.schneider}")
    if figures.types:
        lines.append(
            "Gespielt: "
            + ", ".join(f"{name} {c.played}× ({c.won} gewonnen, {percent(c.won, c.played)})" for name, c in figures.types.items())
        )
    if figures.solos.played:
        lines.append(f"Soli: {figures.solos.played}, davon {figures.solos.won} gewonnen")
    lines += [text for text in (_game("Bestes Spiel", figures.best), _game("Schlechtestes Spiel", figures.worst)) if text]
    return lines


def _row(row: Row) -> ft.Control:
    title = row.name + (f" (Nr. {row.start_number})" if row.start_number is not None else "")
    lines = row_lines(row.figures)
    return ft.Card(
        content=ft.Semantics(
            label=f"{title}: " + " · ".join(lines),
            container=True,
            exclude_semantics=True,
            content=ft.Container(
                padding=ft.Padding.symmetric(horizontal=14, vertical=10),
                content=ft.Column(
                    spacing=2,
                    controls=[
                        ft.Text(title, size=17, weight=ft.FontWeight.BOLD),
                        *[ft.Text(line, size=14) for line in lines],
                    ],
                ),
            ),
        )
    )


def _filters(state: StatisticsState) -> ft.Control:
    choices = [(None, "Alle Regelwerke"), *state.rulesets]
    chips: list[ft.Control] = [
        ft.Semantics(
            label=f"Regelwerk: {title}" + (" (gewählt)" if state.ruleset == rid else ""),
            button=True,
            selected=state.ruleset == rid,
            exclude_semantics=True,
            on_tap=lambda _, rid=rid: state.choose_ruleset(rid),  # type: ignore[misc]
            content=thumb(
                ft.Chip(
                    label=ft.Text(title),
                    selected=state.ruleset == rid,
                    show_checkmark=True,
                    on_select=lambda _, rid=rid: state.choose_ruleset(rid),  # type: ignore[misc]
                ),
                grows=False,
            ),
        )
        for rid, title in choices
    ]
    return ft.Column(
        spacing=6,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            ft.Row(wrap=True, spacing=6, run_spacing=4, controls=chips),
            ft.ResponsiveRow(  # one above the other on a phone: a field's message wraps in half its width to
                spacing=8,  # a one-word column ("„von“: bitte als TT.MM.JJJJ eingeben" cut at 412 px)
                run_spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.START,
                controls=[
                    ft.TextField(
                        col={"xs": 12, "md": 6},
                        label=f"von ({DATE_HINT})",
                        value=state.since,
                        error=state.errors.get("von"),
                        error_max_lines=4,
                        keyboard_type=ft.KeyboardType.DATETIME,
                        on_change=lambda e: state.set_since(entered(e)),
                    ),
                    ft.TextField(
                        col={"xs": 12, "md": 6},
                        label=f"bis ({DATE_HINT})",
                        value=state.until,
                        error=state.errors.get("bis"),
                        error_max_lines=4,
                        keyboard_type=ft.KeyboardType.DATETIME,
                        on_change=lambda e: state.set_until(entered(e)),
                    ),
                ],
            ),
        ],
    )


@scaling  # every screen follows the player's text size (issue 22)
@ft.component
def StatisticsScreen(state: StatisticsState, route: str) -> ft.View:
    controls: list[ft.BaseControl] = [_filters(state)]
    if state.load_error:
        controls.append(ft.Text(state.load_error, color=ft.Colors.ERROR, size=15))
    result = state.result
    if result is not None:
        count = f"{result.sheets} Blatt" if result.sheets == 1 else f"{result.sheets} Blätter"
        controls.append(ft.Text(f"{count} · {len(result.rows)} Teilnehmer", size=15, weight=ft.FontWeight.W_600))
        controls.extend(ft.Text(text, size=13, color=ft.Colors.ERROR) for text in result.refused)
        if not result.rows:
            controls.append(ft.Text("Kein Blatt passt zu diesem Filter.", size=15))
        controls.extend(_row(row) for row in result.rows)
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text("Statistik")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
