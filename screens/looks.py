"""How the app looks: light and dark themes, the colours, and the text size the player chose.

Colours: the theme grows from Okabe-Ito blue, so the primary colour (offen, chosen) and the error
colour (red) differ for red-green colour blindness too; wherever two states are told apart a text or
symbol says which, the colour only helps. ``WON`` and ``LOST`` are Okabe-Ito blue and vermillion.

Text size: Flet 1.0.5 has no app-wide text scale (Flutter's ``MediaQuery.textScaler`` is not
exposed), and the screens give every text its size. So each screen's controls are scaled after they
are built: ``scaling`` wraps a screen (or panel) component, reads the player's setting from the
``LOOKS`` context and multiplies every text size and the height of every button by it. The app bar
keeps its size (its title is big already and would be cut off).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ParamSpec, TypeVar, cast

import flet as ft

SEED = "#0072B2"
"""Okabe-Ito blue."""
WON = "#0072B2"
LOST = "#D55E00"
"""Okabe-Ito vermillion: against blue, told apart with every kind of colour vision (and labelled)."""


def _theme() -> ft.Theme:
    """Sizes as on a phone on every platform: Flutter makes controls denser on a desktop (and in a
    desktop browser: radio rows 32 px, icon buttons 40 px); a thumb needs 48 x 48 px. An icon button
    is 24 px of icon and 12 px around it."""
    return ft.Theme(
        color_scheme_seed=SEED,
        visual_density=ft.VisualDensity.STANDARD,
        icon_button_theme=ft.IconButtonTheme(style=ft.ButtonStyle(padding=12)),
    )


def light_theme() -> ft.Theme:
    return _theme()


def dark_theme() -> ft.Theme:
    return _theme()


LOOKS: ft.ContextProvider[Any] = ft.create_context(None)
"""The window's ``SettingsState`` (observable: a change re-renders every screen that reads it)."""

THUMB = 48
"""The smallest tap target, in px (Material's minimum interactive size)."""
_THUMB = "_tischblock_thumb"
"""Marks a ``thumb`` box whose height grows with the text size."""

_DEFAULT_TEXT = 14.0
_DEFAULT_FIELD = 16.0
_DEFAULT_ERROR = 12.0
_BASE = "_tischblock_base"
"""Where a scaled control keeps its unscaled sizes, so scaling a control again never compounds."""


def _base(control: Any, name: str, default: float | None) -> float | None:
    bases: dict[str, float | None] = control.__dict__.setdefault(_BASE, {})
    if name not in bases:
        bases[name] = getattr(control, name) if getattr(control, name) is not None else default
    return bases[name]


def _text_style(style: ft.TextStyle | None, base: float, factor: float) -> ft.TextStyle:
    size = style.size if style is not None and style.size is not None else base
    return dataclasses.replace(style, size=size * factor) if style is not None else ft.TextStyle(size=size * factor)


_HOLDS_CONTROLS = re.compile(r"(?<![A-Za-z_])(Base)?Control(?![A-Za-z_])")
_KNOWN = ("content", "controls", "title", "subtitle", "leading", "trailing", "label", "actions")
_SKIP = ("parent", "page", "data", "key", "ref", "appbar")
"""The app bar keeps its size: its title is big already and would be cut off."""


_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a control class that can hold controls (looked up once per class: getattr on
    all ~80 fields of every control made scaling a long sheet take a quarter of a second)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(
            item.name
            for item in dataclasses.fields(cls)
            if not item.name.startswith("_")
            and item.name not in _SKIP
            and (item.name in _KNOWN or _HOLDS_CONTROLS.search(str(item.type)) is not None)
        )
    return _FIELDS[cls]


def _children(control: Any) -> list[Any]:
    found: list[Any] = []
    for name in _child_fields(type(control)):
        value = getattr(control, name, None)
        if isinstance(value, ft.BaseControl):
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, ft.BaseControl))
    return found


def scale(control: Any, factor: float) -> Any:
    """Multiply the sizes of the texts in ``control`` (and its children) and its buttons' heights by ``factor``."""
    if factor == 1.0 or not isinstance(control, ft.BaseControl):
        return control
    if isinstance(control, ft.Text):
        control.size = cast(float, _base(control, "size", _DEFAULT_TEXT)) * factor
    elif isinstance(control, ft.TextField):
        control.text_size = cast(float, _base(control, "text_size", _DEFAULT_FIELD)) * factor
        style = control.__dict__.setdefault("_tischblock_label", control.label_style)
        control.label_style = _text_style(style, _DEFAULT_FIELD, factor)
        error = control.__dict__.setdefault("_tischblock_error", control.error_style)
        control.error_style = _text_style(error, _DEFAULT_ERROR, factor)
    elif isinstance(control, (ft.Radio, ft.Checkbox)):
        style = control.__dict__.setdefault("_tischblock_label", control.label_style)
        control.label_style = _text_style(style, _DEFAULT_TEXT, factor)
    elif isinstance(control, ft.Switch):
        style = control.__dict__.setdefault("_tischblock_label", control.label_text_style)
        control.label_text_style = _text_style(style, _DEFAULT_TEXT, factor)
    if isinstance(control, (ft.Button, ft.OutlinedButton, ft.TextButton, ft.FilledButton, ft.FilledTonalButton)):
        height = _base(control, "height", None)
        if height is not None:
            control.height = height * factor
        if isinstance(control.content, str):
            button = control.__dict__.setdefault("_tischblock_style", control.style)
            text = button.text_style if button is not None else None
            scaled_text = _text_style(text, _DEFAULT_TEXT, factor)
            control.style = (
                dataclasses.replace(button, text_style=scaled_text)
                if button is not None
                else ft.ButtonStyle(text_style=scaled_text)
            )
    elif isinstance(control, ft.ListTile):
        height = _base(control, "min_height", None)
        if height is not None:
            control.min_height = height * factor
    elif isinstance(control, ft.Container) and control.__dict__.get(_THUMB):
        control.height = cast(float, _base(control, "height", THUMB)) * factor
    for child in _children(control):
        scale(child, factor)
    return control


def text_scale(settings: Any) -> float:
    """The factor of the window's settings (1.0 where there are none, e.g. in a test without the app)."""
    return float(settings.text_scale) if settings is not None else 1.0


P = ParamSpec("P")
R = TypeVar("R")


def scaling(screen: Callable[P, R]) -> Callable[P, R]:
    """A screen or panel component whose controls follow the player's text size."""
    impl = getattr(screen, "__component_impl__", screen)

    @ft.component
    @functools.wraps(impl)
    def scaled(*args: P.args, **kwargs: P.kwargs) -> R:
        factor = text_scale(ft.use_context(LOOKS))
        built = scale(impl(*args, **kwargs), factor)
        return cast(R, mark_drawn(built) if MARK_DRAWN else built)

    return scaled


MARK_DRAWN = os.environ.get("TISCHBLOCK_TEST_DRAWN") == "1"
"""Tests only (``tests/browser.py`` sets it for the app it starts): every text is wrapped in a semantics
node whose identifier says what Flutter draws there (``drawn|0|size|max lines|no wrap|text``), so the layout
check measures the drawn text in Roboto at its size against the box Flutter gave it (issue 22): a
button's accessible name can differ from its label ("Gespritzt ×2" draws "×2"), and the browser's own
font is not Flutter's. Off in the app: a separate node for a button's label would have a screen reader
read the label apart from its button."""

_MARKED = "_tischblock_drawn"
_TILE_TEXTS = ("title", "subtitle", "leading", "trailing")
_TITLE = 22.0
"""An app bar's title without a size of its own: Material 3's titleLarge."""
_FLEX = ("expand", "expand_loose", "col")
"""How a text sits in its row or column: moved to its wrapper, which takes its place there."""


def _drawn(text: ft.Text, default: float) -> ft.Control:
    """``text`` in a semantics node that says what it draws (``MARK_DRAWN``); a text without a plain value
    (spans only) as it is."""
    spec = _spec(text, default)
    if spec is None:
        return text
    wrapper = ft.Semantics(
        identifier=f"drawn|{spec}",
        visible=text.visible,
        content=text,
    )
    wrapper.__dict__[_MARKED] = True
    # kept on the text the first time: a text wrapped again (built once, shown twice) keeps its place
    flex = text.__dict__.setdefault("_tischblock_flex", {name: getattr(text, name) for name in _FLEX})
    for name, value in flex.items():
        setattr(wrapper, name, value)
        setattr(text, name, None)
    return wrapper


def _spec(text: ft.Text | str, default: float, less: float = 0, *, one_line: bool = False) -> str | None:
    """What ``text`` draws, for the layout check: ``less|size|max lines|no wrap|text`` (``less``: px of its
    box's width that are not its own)."""
    if isinstance(text, str):
        return f"{less:g}|{default:g}|0|0|{text}" if text else None
    if not isinstance(text.value, str) or not text.value or text.visible is False:
        return None
    style_size = text.style.size if text.style is not None else None
    size = text.size or style_size or default
    return f"{less:g}|{size:g}|{text.max_lines or 0}|{int(bool(text.no_wrap) or one_line)}|{text.value}"


def _across(padding: Any) -> float | None:
    """A padding's left and right together (px); ``None`` where it is not a plain number or ``Padding``."""
    if padding is None:
        return 0.0
    if isinstance(padding, (int, float)):
        return 2.0 * padding
    if isinstance(padding, ft.Padding):
        return float(padding.left + padding.right)
    return None


_BUTTONS = (ft.Button, ft.OutlinedButton, ft.FilledButton, ft.FilledTonalButton)
_BUTTON_PADDING = 48.0
"""Material 3's padding of a button with a label, left and right together (a text button's is 24)."""


def _fixed(control: Any) -> float | None:
    """The width of a control beside a text in a row, where it has one of its own (an icon, an icon button)."""
    if control.visible is False:
        return 0.0
    if isinstance(control, ft.Icon):
        return float(control.size or 24)
    if isinstance(control, ft.IconButton):
        return float(control.width or THUMB)
    return None


def _texts_inside(control: Any, less: float, default: float) -> Iterator[str]:
    """What each text under a node that excludes its children's semantics draws, and the room its box
    gives it: the node's width less the paddings and fixed neighbours on the way down. A text whose room
    this cannot tell (beside another text in a row, in a chip, a stack) is left out."""
    if control is None or control.visible is False:
        return
    if isinstance(control, (ft.Text, str)):
        spec = _spec(control, default, less)
        if spec is not None:
            yield spec
    elif isinstance(control, ft.Semantics):
        yield from _texts_inside(control.content, less, default)
    elif isinstance(control, ft.Container):
        padding = _across(control.padding)
        if padding is not None and _across(control.margin) is not None:
            yield from _texts_inside(control.content, less + padding + (_across(control.margin) or 0), default)
    elif isinstance(control, (*_BUTTONS, ft.TextButton)):
        style = control.style
        padding = _across(style.padding) if style is not None and style.padding is not None else None
        if padding is None:
            padding = _BUTTON_PADDING / 2 if isinstance(control, ft.TextButton) else _BUTTON_PADDING
        if control.icon is None:
            yield from _texts_inside(control.content, less + padding, default)
    elif isinstance(control, ft.Column):
        for child in control.controls:
            yield from _texts_inside(child, less, default)
    elif isinstance(control, ft.Row) and not control.wrap:
        shown = [c for c in control.controls if c.visible is not False]
        texts = [c for c in shown if isinstance(c, ft.Text)]
        others = [_fixed(c) for c in shown if not isinstance(c, ft.Text)]
        if len(texts) == 1 and None not in others:
            spacing = (10 if control.spacing is None else control.spacing) * (len(shown) - 1)
            text = texts[0]
            room = less + sum(o for o in others if o is not None) + spacing
            # a text that does not expand in a row is laid out on one line however long (and cut at the row's end)
            spec = _spec(text, default, room, one_line=not (text.expand or text.expand_loose))
            if spec is not None:
                yield spec


def _draws_text(control: Any) -> bool:
    """Whether ``control`` or a control under it shows a text (a button's label given as a string too)."""
    if isinstance(control, (ft.Text, str)):
        return True
    if not isinstance(control, ft.BaseControl):
        return False
    for name in _child_fields(type(control)):
        value = getattr(control, name, None)
        if any(_draws_text(v) for v in (value if isinstance(value, list) else [value])):
            return True
    return False


def mark_drawn(control: Any, default: float = _DEFAULT_TEXT) -> Any:
    """Wrap every text in ``control`` (and its app bar's title) for the layout check (``MARK_DRAWN``).
    A node that excludes its children's semantics (a button named apart from its label) says itself
    what the texts under it draw (``drawn-in|``, separated by ``\\x1e``), each with the room it has there."""
    if not isinstance(control, ft.BaseControl) or control.__dict__.get(_MARKED):
        return control
    if isinstance(control, ft.Semantics) and control.exclude_semantics:
        control.__dict__[_MARKED] = True
        inside = list(_texts_inside(control.content, 0.0, default))
        # an icon button draws no text: said so, its name is not measured as if drawn
        if control.identifier is None and (inside or not _draws_text(control.content)):
            control.identifier = "drawn-in|" + "\x1e".join(inside)
        return control
    if isinstance(control, ft.View) and control.appbar is not None:
        mark_drawn(control.appbar)
    # a tile's title is its button's name: a node of its own would leave the tile's node without one
    tile = isinstance(control, (ft.ListTile, ft.ExpansionTile))
    for name in _child_fields(type(control)):
        value = getattr(control, name, None)
        size = _TITLE if isinstance(control, ft.AppBar) and name == "title" else default
        if isinstance(value, ft.Text) and not (tile and name in _TILE_TEXTS):
            setattr(control, name, _drawn(value, size))
        elif isinstance(value, ft.BaseControl):
            mark_drawn(value, size)
        elif isinstance(value, list):
            value[:] = [_drawn(v, size) if isinstance(v, ft.Text) else mark_drawn(v, size) for v in value]
    return control


FIELD_ERROR = ft.TextStyle(size=14)
"""A field's message: larger than Flutter's 12 px, read at arm's length; it wraps (``error_max_lines``)."""


def thumb(control: ft.Control, *, grows: bool = True) -> ft.Control:
    """``control`` in a box ``THUMB`` px high, so a tap anywhere on its row reaches it: a radio's row
    (Flutter draws it 40 px high, 32 in a desktop browser) or a chip (32-38 px). ``grows``: the box grows
    with the text size (a radio's label may wrap to two lines), else it stays ``THUMB`` (a chip)."""
    box = ft.Container(height=THUMB, content=control)
    return growing(box) if grows else box


def growing(box: ft.Container) -> ft.Container:
    """``box`` with its height grown with the text size, as a ``thumb`` box: for a box whose text may
    take two lines (at "Sehr groß" two lines of 16 px text are 63 px high, more than a 50 px button)."""
    box.__dict__[_THUMB] = True
    return box


def entered(event: ft.Event[Any]) -> str:
    """What the player typed or chose, as the change event itself carries it (a text field's text, a
    radio group's value).

    Never the control's ``value`` at the time the handler runs: the browser sends the new value first
    and the change event after it, and a redraw in between (the sync state read every second, the
    sheet re-read from disk) sets the control back to the value drawn before. The handler then stored
    the old text and the next redraw wiped what was typed (Flet 1.0.5; shown by
    ``tests/test_app_typing_e2e.py``)."""
    return "" if event.data is None else str(event.data)


def switched(event: ft.Event[Any]) -> bool:
    """A switch's or a checkbox's new state, as its change event carries it (see ``entered``)."""
    return event.data in (True, "true")


def choices(
    value: str | None, options: Sequence[tuple[str, str]], on_change: Callable[[str], None], *, row: bool = False
) -> ft.Control:
    """One of ``options`` (value, label) as radio buttons, each row ``THUMB`` px high; one under the
    other, or side by side (wrapping) with ``row``."""
    radios = [thumb(ft.Radio(value=key, label=label)) for key, label in options]
    return ft.RadioGroup(
        value=value,
        on_change=lambda e: on_change(entered(e)),
        content=ft.Row(wrap=True, spacing=12, controls=radios) if row else ft.Column(spacing=0, controls=radios),
    )


def error_box(text: str) -> ft.Control:
    """A refusal or failure as the screens show it: the German message on the theme's error colours."""
    return ft.Container(
        padding=8,
        border_radius=8,
        bgcolor=ft.Colors.ERROR_CONTAINER,
        content=ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER, size=15),
    )


def offer_chips(names: Sequence[str], take: Callable[[str], None]) -> ft.Control:
    """Names used on this phone before, offered as chips; a tap takes one (``take``)."""
    return ft.Row(
        wrap=True,
        spacing=6,
        controls=[
            ft.Semantics(
                label=f"Vorschlag {name}",
                button=True,
                exclude_semantics=True,
                content=thumb(
                    ft.Chip(
                        label=ft.Text(name),
                        leading=ft.Icon(ft.Icons.HISTORY, size=18),
                        on_click=lambda _, n=name: take(n),
                    ),
                    grows=False,
                ),
            )
            for name in names
        ],
    )


ROW_CHARS = 32
"""Characters of a choice's 18 px bold label one row holds on the narrowest phone (360 px) at "Normal":
half a row (158 px inside) holds "✓ Schnapser 6" and "Farbenringerl 18" without its tick, not
"Bauernschnapser 12" (issue 22, screenshots at 360 px). Wider phones have more room; the layout is
the narrow phone's, so it holds on every phone."""
TICK = 2
"""The tick a chosen choice shows before its label, in characters of the label's text."""
SMALL = 18 / 16
"""How much more a line holds in the two-line label's 16 px than in the one-line label's 18 px."""


def lines_of(text: str, room: float) -> int:
    """How many lines ``text`` takes at ``room`` characters a line, broken at spaces as Flutter breaks
    it; a word longer than the room would be broken inside (``Talonschnapse|n``): counted as too many."""
    lines, used = 1, 0
    for word in text.split():
        if len(word) > room:
            return 99
        if used and used + 1 + len(word) > room:
            lines, used = lines + 1, len(word)
        else:
            used = used + 1 + len(word) if used else len(word)
    return lines


EDGE = 1.6
"""The room between two choices side by side, in characters of ``ROW_CHARS``: a button's 4 px padding on
each side and the 8 px gap to the next. ``ROW_CHARS`` is twice what half a row holds (158 px inside at
360 px), so a quarter holds less than half of half (71 px: "Farbw…" at 16 px), the whole row more than
twice (332 px)."""


def room_of(share: int, scale: float, *, size: int = 18, tick: bool = True) -> float:
    """Characters of ``size`` px one line of a choice holds in ``share`` twelfths of the narrowest phone's
    row at the text size ``scale``, less the tick's (``tick``)."""
    return ((ROW_CHARS + 2 * EDGE) * share / 12 - EDGE) * 18 / size / scale - (TICK if tick else 0)


Fit = tuple[int, bool]
"""Where a choice goes (``choice_fit``): its share of a phone's row in twelfths, and whether its label
takes two lines of the smaller font."""


def rows_alike(fits: Sequence[Fit]) -> list[Fit]:
    """``fits`` as they fill rows of twelve twelfths, one after the other, with every choice of a row on
    two lines when one of them needs two: a row of one tall and one short button looked broken
    ("Schnapser 6" beside "Gang 9" at "Sehr groß")."""
    rows: list[list[Fit]] = [[]]
    for fit in fits:
        if sum(share for share, _ in rows[-1]) + fit[0] > 12:
            rows.append([])
        rows[-1].append(fit)
    return [(share, any(tall for _, tall in row)) for row in rows for share, _ in row]


def choice_fit(
    texts: Sequence[str], scale: float, shares: Sequence[int] = (6, 12), *, size: int = 18, tick: bool = True
) -> tuple[int, bool]:
    """The narrowest share of a row (in twelfths, from ``shares``) in which each of ``texts`` is drawn
    whole on the narrowest phone at the text size ``scale``, in ``size`` px: on one line, or else on two
    lines of the smaller font (``True``), never broken inside a word nor cut. ``tick``: a chosen choice
    shows a tick beside its label (else its fill alone says it). The last share if none holds them (its
    label then ends in "…", which no label of the app does at 360 px: ``tests/test_looks.py``)."""
    for share in shares:
        room = room_of(share, scale, size=size, tick=tick)
        if all(len(t) <= room for t in texts):
            return share, False
        if all(lines_of(t, room * SMALL) <= 2 for t in texts):
            return share, True
    return shares[-1], True
