"""An example sheet, scored: status, totals, and every entry with the rules that scored it."""

from __future__ import annotations

import flet as ft

from .state import ExampleState

KIND_LABELS = {"game": "Spiel", "close": "Abschluss"}


def kind_label(kind: str) -> str:
    """German label of an entry kind (the rulesets' own event kinds are German already)."""
    return KIND_LABELS.get(kind, kind.capitalize())


def _points(state: ExampleState, points: dict[str, int]) -> str:
    return "  ".join(f"{state.name(pid)} {value}" for pid, value in points.items())


@ft.component
def ExampleSheet(state: ExampleState) -> ft.View:
    if state.error is not None or state.sheet is None or state.score is None:
        body: list[ft.BaseControl] = [ft.Text(state.error or "Kein Blatt geöffnet.", color=ft.Colors.ERROR, size=16)]
        return ft.View(route="/beispiel", appbar=ft.AppBar(title=ft.Text("Beispielblatt")), controls=body)
    sheet, score = state.sheet, state.score
    ctx = sheet.context
    where = " · ".join(
        part
        for part in (
            ctx.tournament,
            f"{ctx.round_label} {ctx.round}" if ctx.round else None,
            f"Tisch {ctx.table}" if ctx.table else None,
        )
        if part
    )
    status = ft.Container(
        padding=12,
        border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        content=ft.Column(spacing=4, controls=[ft.Text(message, size=16) for message in score.status.messages]),
    )
    totals = ft.Row(
        wrap=True,
        controls=[
            ft.Text(f"{state.name(pid)}: {value}", size=18, weight=ft.FontWeight.BOLD) for pid, value in score.totals.items()
        ],
    )
    rows: list[ft.Control] = []
    for line in score.lines:
        shown = line.stand if line.stand is not None else line.totals
        corrected = f" · korrigiert ({', '.join(map(str, line.corrected_by))})" if line.corrected_by else ""
        rows.append(
            ft.ListTile(
                title=ft.Text(f"{line.entry}. {kind_label(line.kind)}{corrected}"),
                subtitle=ft.Text(_points(state, shown)),
                trailing=ft.Icon(ft.Icons.EXPAND_LESS if line.entry in state.expanded else ft.Icons.EXPAND_MORE),
                on_click=lambda _, n=line.entry: state.toggle(n),
            )
        )
        if line.entry in state.expanded:
            rows.append(
                ft.Container(
                    padding=ft.Padding.only(left=24, right=12, bottom=8),
                    content=ft.Column(
                        spacing=2,
                        controls=[ft.Text(f"{reason.rule}: {reason.text}", size=13) for reason in line.explanation],
                    ),
                )
            )
    return ft.View(
        route="/beispiel",
        appbar=ft.AppBar(title=ft.Text(find_title(sheet.ruleset.id))),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[ft.Text(where, size=14), status, ft.Text("Summe", size=14), totals, ft.Divider(), *rows],
    )


def find_title(ruleset_id: str) -> str:
    from scoring import find_ruleset

    return f"Beispiel: {find_ruleset(ruleset_id).title}"
