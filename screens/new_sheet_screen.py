"""New sheet: the ruleset, its house rules, round and table, the teams or players, who writes.

A bad field is marked next to the field, in German; nothing is created until every field is right.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import flet as ft

from .form_state import FORM, NewSheetForm, OptionField
from .looks import FIELD_ERROR, LOOKS, choices, entered, offer_chips, scaling, switched, text_scale, thumb


def _field(
    form: NewSheetForm,
    label: str,
    key: str,
    value: str,
    on_change: Callable[[str], None],
    *,
    number: bool = False,
    expand: bool | int | None = None,
) -> ft.TextField:
    return ft.TextField(
        label=label,
        value=value,
        error=form.errors.get(key),
        error_max_lines=4,
        error_style=FIELD_ERROR,
        keyboard_type=ft.KeyboardType.NUMBER if number else ft.KeyboardType.TEXT,
        on_change=lambda e: on_change(entered(e)),
        expand=expand,
        text_size=17,
    )


def _offers(form: NewSheetForm, keys: list[str]) -> list[ft.Control]:
    """Names used before that fit what is typed, under the name field the player is typing in."""
    key = form.typing
    if key not in keys:
        return []
    names = form.offers(key)
    if not names:
        return []
    return [offer_chips(names, lambda name: form.take_offer(key, name))]


def _option(form: NewSheetForm, spec: OptionField) -> ft.Control:
    value = form.options.get(spec.name)
    key = f"option.{spec.name}"
    if spec.kind == "bool":
        return ft.Column(
            spacing=0,
            controls=[
                thumb(
                    ft.Switch(
                        label=spec.label, value=bool(value), on_change=lambda e: form.set_option(spec.name, switched(e))
                    )
                ),
                *([ft.Text(form.errors[key], color=ft.Colors.ERROR, size=13)] if key in form.errors else []),
            ],
        )
    if spec.kind == "choices":
        chosen = list(value or [])
        return ft.Column(
            spacing=0,
            controls=[
                ft.Text(spec.label, size=14),
                ft.Row(
                    wrap=True,
                    spacing=6,
                    controls=[
                        thumb(
                            ft.Checkbox(label=label, value=k in chosen, on_change=lambda _, k=k: form.toggle_choice(spec.name, k))
                        )
                        for k, label in spec.choices
                    ],
                ),
                *([ft.Text(form.errors[key], color=ft.Colors.ERROR, size=13)] if key in form.errors else []),
            ],
        )
    return _field(form, spec.label, key, str(value or ""), lambda v: form.set_option(spec.name, v), number=True)


def _line(narrow: bool, controls: list[ft.Control]) -> ft.Control:
    """Fields side by side; one under the other when the text is large (they would not fit the width)."""
    if narrow:
        for control in controls:
            control.expand = None
        return ft.Column(spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, controls=controls)
    return ft.Row(spacing=8, controls=controls)


def _participant(form: NewSheetForm, index: int, narrow: bool = False) -> ft.Control:
    label = form.participant_label(index)
    name_label = f"{label}: Name"
    controls: list[ft.Control] = [
        _line(
            True,  # side by side, "Mannschaft 1: Startnr." is squeezed into two tiny lines at 360-412 px
            [
                _field(form, name_label, f"name.{index}", form.names[index], lambda v: form.set_name(index, v), expand=3),
                _field(
                    form,
                    f"{label}: Startnr.",
                    f"start.{index}",
                    form.start_numbers[index],
                    lambda v: form.set_start_number(index, v),
                    number=True,
                    expand=2,
                ),
            ],
        )
    ]
    if form.team_size:
        controls.append(
            _line(
                narrow,
                [
                    _field(
                        form,
                        f"{label}, Spieler {m + 1}",
                        f"member.{index}.{m}",
                        form.members[index][m],
                        functools.partial(form.set_member, index, m),
                        expand=True,
                    )
                    for m in range(form.team_size)
                ],
            )
        )
    controls.extend(_offers(form, [f"name.{index}", *(f"member.{index}.{m}" for m in range(form.team_size))]))
    return ft.Column(spacing=6, controls=controls)


@scaling
@ft.component
def NewSheetScreen(form: NewSheetForm, on_created: Callable[[str], None]) -> ft.View:
    def create(_: ft.Event[ft.Button]) -> None:
        sheet_id = form.submit()
        if sheet_id is not None:
            on_created(sheet_id)

    # The tile's open state is the screen's: Flutter reports a tap on it back to the control, so a tile
    # built closed on every redraw snapped shut as soon as the player typed into a house rule.
    rules_open, set_rules_open = ft.use_state(False)
    who = "Mannschaften" if form.is_team else "Spieler"
    controls: list[ft.BaseControl] = [
        ft.Text("Regelwerk", size=16, weight=ft.FontWeight.W_600),
        choices(form.ruleset_id, form.rulesets, form.choose),
    ]
    if len(form.counts) > 1:
        controls.append(
            choices(str(form.count), [(str(n), f"{n} {who}") for n in form.counts], lambda v: form.resize(int(v)), row=True)
        )
    controls.append(ft.Text(who, size=16, weight=ft.FontWeight.W_600))
    # Names used before: tapped, one goes into the next empty field. Those that fit what is typed show
    # under the field being typed in. The slot stays (empty when all are used), so the fields below keep
    # their place while the player types.
    recent: list[ft.Control] = (
        [
            ft.Row(
                wrap=True,
                spacing=6,
                controls=[
                    ft.Text("Zuletzt:", size=13),
                    *[
                        thumb(ft.Chip(label=ft.Text(name), on_click=lambda _, n=name: form.fill_next(n)), grows=False)
                        for name in form.suggestions
                    ],
                ],
            )
        ]
        if form.suggestions
        else []
    )
    controls.append(ft.Column(spacing=0, controls=recent))
    narrow = text_scale(ft.use_context(LOOKS)) > 1.1
    controls.extend(_participant(form, i, narrow) for i in range(form.count))
    if FORM in form.errors:
        controls.append(ft.Text(form.errors[FORM], color=ft.Colors.ERROR, size=15))
    controls.append(
        ft.Text(
            "Dieses Handy schreibt für" if form.is_team else "Listenführer (schreibt das Blatt)",
            size=16,
            weight=ft.FontWeight.W_600,
        )
    )
    writers = [(str(i), form.names[i].strip() or form.participant_label(i)) for i in range(form.count)]
    controls.append(choices(str(form.writer), writers, lambda v: form.set_writer(int(v)), row=True))
    controls.append(ft.Text("Turnier, Runde und Tisch (wenn es eins gibt)", size=16, weight=ft.FontWeight.W_600))
    in_tournament = form.joined is not None and form.for_tournament
    if form.joined is not None:
        _, name, table = form.joined
        controls.append(
            ft.Switch(
                label=f"Für das Turnier {name}, Tisch {table} (geht an den Veranstalter)",
                value=form.for_tournament,
                on_change=lambda e: form.set_for_tournament(switched(e)),
            )
        )
    if not in_tournament:
        controls.append(_field(form, "Turnier", "tournament", form.tournament, lambda v: form.set_context("tournament", v)))
    controls.append(
        ft.Row(
            spacing=8,
            controls=[
                _field(
                    form,
                    form.round_label if form.round_label != "Spielabend" else "Runde",
                    "round",
                    form.round,
                    lambda v: form.set_context("round", v),
                    number=True,
                    expand=True,
                ),
                *(
                    []
                    if in_tournament
                    else [
                        _field(
                            form, "Tisch", "table", form.table, lambda v: form.set_context("table", v), number=True, expand=True
                        )
                    ]
                ),
            ],
        )
    )
    controls.append(
        ft.ExpansionTile(
            title=ft.Text("Hausregeln", size=16, weight=ft.FontWeight.W_600),
            subtitle=ft.Text(form.house_rules_note, size=13),
            expanded=rules_open or any(key.startswith("option.") for key in form.errors),
            on_change=lambda e: set_rules_open(switched(e)),
            controls=[
                ft.Container(
                    padding=ft.Padding.only(bottom=8),
                    content=ft.Column(spacing=8, controls=[_option(form, spec) for spec in form.option_fields()]),
                )
            ],
        )
    )
    controls.append(
        ft.Button(
            "Blatt anlegen",
            icon=ft.Icons.CHECK,
            height=56,
            style=ft.ButtonStyle(text_style=ft.TextStyle(size=18, weight=ft.FontWeight.BOLD)),
            on_click=create,
        )
    )
    if form.errors:
        controls.append(ft.Text("Bitte die markierten Felder prüfen.", color=ft.Colors.ERROR, size=15))
    return ft.View(
        route="/neu",
        appbar=ft.AppBar(title=ft.Text("Neues Blatt")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
