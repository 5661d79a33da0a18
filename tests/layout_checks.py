"""What a phone screen must never do, read from Flutter's semantics tree in the browser (issue 22):
a text cut off, two tappable controls on top of each other, a control smaller than a thumb.

Flutter draws on a canvas; its semantics tree mirrors every control as a positioned
``flt-semantics`` element of the control's size, with its text. So:

- a tappable control (button, checkbox, radio, switch, text field) must be at least 48 x 48 px, as
  its semantics box (the area a tap reaches) says: in a desktop browser Flutter does not pad a small
  control to 48 px as it does on a phone, so what passes here is 48 px on every platform;
- two tappable controls fully on the screen must not overlap;
- a one-line text (a node no taller than one line of the largest text size, or a button's label)
  whose text is wider than its box is cut off: the element wraps at spaces, so a name or word wider
  than the box ("Dieter Schwarzenberger" in a 94 px chip, "Ansage" in 60 px) overflows it. Taller
  texts are left out: the semantics element does not wrap as Flutter does.
"""

from __future__ import annotations

from typing import Any

from .browser import next_frame, over_the_list, wait_until

MIN_TARGET = 48
ONE_LINE = 34
"""Height below which a text node is one line (18 px text at "Sehr groß" x 1.4 is 25 px high, two lines of
the smallest text 12 x 1.4 are 40)."""

_READ = """([EDGE, TOP, LIST]) => {
  const w = window.innerWidth, h = window.innerHeight;
  const out = [];
  for (const e of document.querySelectorAll('flt-semantics')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const role = e.getAttribute('role') || (e.querySelector(':scope > input, :scope > textarea') ? 'textbox' : '');
    const leaf = !e.querySelector('flt-semantics');
    out.push({
      role, leaf, text: (e.innerText || '').trim(), label: e.getAttribute('aria-label') || '',
      x: r.x, y: r.y, w: r.width, h: r.height, sw: e.scrollWidth, cw: e.clientWidth,
      inside: r.x >= -0.5 && r.y >= TOP - 0.5 && r.right <= w + 0.5 && r.bottom <= h - EDGE
        && LIST.every(t => Math.abs(r.y - t) >= 1.5),  // not starting at a list's top: maybe cut there
    });
  }
  return out;
}"""

EDGE = 80
"""A node this close to the screen's foot may be cut by the scrolling list's edge (its semantics box is
what is visible of it): it is measured when scrolled up, not here."""

BAR = 71
"""Once a screen is scrolled, a node reaching above this is partly scrolled out of sight: the list is
clipped at the app bar's foot and its padding (56 + 12 px; the sheet's 64 + 6), and the semantics box of
a node cut there is what is left of it. It was measured whole further up, before the scroll. Where the
list begins lower (the sheet's fixed header stays put over it), its own top counts (``_LISTS``)."""

_LISTS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('flt-semantics')) {
    const r = e.getBoundingClientRect(), y = e.style.overflowY;
    if ((y === 'scroll' || y === 'hidden' || y === 'auto') && r.height > 100) out.push([r.top, r.height]);
  }
  return out;
}"""
"""Where the screen's scrolling lists begin, and how tall they are (top, height): the sheet's list, under
its fixed header, and any box in it that scrolls."""


SLACK = 1.15
"""The semantics element sets its text in the browser's font, up to 15 per cent wider than Flutter's Roboto
("Stand im Bummerl 1": 134 px for Flutter's 131; a field's message "Startnummer: bitte eine ganze Zahl
eingeben, nicht „vier“." drawn whole in 327 px takes 375); only an overflow beyond that counts as cut off."""

NAMED_LONGER = {"Gespritzt ×2", "Zurückgespritzt ×4", "Nochmal zurückgespritzt ×8", "Herzrunde ×2"}
"""Buttons whose name says more than they draw: the Schnapsen toggles draw "×4" over "zurück" (a
quarter of the row holds that at 360 px, not their name): their text is not checked against their box."""

TAPPABLE = {"button", "checkbox", "radio", "switch", "textbox", "slider", "tab"}


def problems(page: Any, top: float = 0) -> list[str]:
    """Every cut-off text, overlap and small target on the screen as it is now, in words; nodes reaching
    above ``top`` are left out, and so are those starting at a scrolling list's top: once the list is
    scrolled, what the fixed header cuts there shows only its visible part (``_LISTS``)."""
    found, sizes = _look(page, top, tuple(float(t) for t, _ in page.evaluate(_LISTS)))
    return [_too_small(name, size) for name, size in sizes.items() if _is_small(size)] + found


Size = tuple[float, float, float]
"""A tappable control's width, height and top (px) as its semantics box shows it."""


def _is_small(size: Size) -> bool:
    return size[0] < MIN_TARGET - 0.5 or size[1] < MIN_TARGET - 0.5


def _too_small(name: str, size: Size) -> str:
    return f"zu klein ({size[0]:.0f} x {size[1]:.0f} px bei y={size[2]:.0f}): {name!r}"


def _look(page: Any, top: float, list_tops: tuple[float, ...] = ()) -> tuple[list[str], dict[str, Size]]:
    """The cut-off texts and overlaps on the screen as it is now, in words, and the size of each
    tappable control on it, by name; nodes reaching above ``top`` are left out, and those starting at
    one of ``list_tops`` and reaching into the list (a node the scrolling list cuts there shows only its visible part)."""
    nodes = page.evaluate(_READ, [EDGE, top, list(list_tops)])
    found: list[str] = []
    targets = [n for n in nodes if n["role"] in TAPPABLE and n["inside"]]
    sizes: dict[str, Size] = {}
    for n in targets:
        name = n["label"] or n["text"] or n["role"]
        seen = sizes.get(name)
        if seen is None or n["w"] * n["h"] > seen[0] * seen[1]:
            sizes[name] = (n["w"], n["h"], n["y"])
    for i, a in enumerate(targets):
        for b in targets[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                found.append(f"überlappen: {a['label'] or a['text']!r} und {b['label'] or b['text']!r}")
    for n in nodes:
        if not n["leaf"] or not n["text"] or n["label"] or "\n" in n["text"] or not n["inside"]:
            continue
        if n["role"] not in ("", "button", "heading") or n["text"] in NAMED_LONGER:
            continue
        one_line = n["h"] <= ONE_LINE or (n["role"] == "button" and n["w"] > MIN_TARGET)
        if one_line and n["sw"] > n["cw"] * SLACK + 2:
            found.append(f"abgeschnitten ({n['sw']} px Text in {n['cw']} x {n['h']:.0f} px bei y={n['y']:.0f}): {n['text']!r}")
    return found, sizes


_WHERE = """() => Array.from(document.querySelectorAll('flt-semantics'), e => {
  const r = e.getBoundingClientRect();
  return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)].join(',');
}).join(';')"""

STEP = 320
"""How far the screen is scrolled between two looks: less than what the list shows between the sheet's
header (which stays put while the list scrolls under it: 420 px of 915 at "Sehr groß" with five players)
and the foot ``EDGE``, less a control's height, so every control is seen whole at least once."""


def settled(page: Any) -> str:
    """Wait until the semantics tree stands still from one frame to the next (a scroll or a re-render
    has ended); return where its nodes are."""
    before = page.evaluate(_WHERE)
    while True:
        next_frame(page)
        now = page.evaluate(_WHERE)
        if now == before:
            return str(now)
        before = now


def problems_down_the_screen(page: Any, limit: int = 40, *, scrolls: bool = False) -> list[str]:
    """``problems`` of the whole screen: from its top, looked at, scrolled down by ``STEP`` with the mouse wheel as a
    finger scrolls, looked at again, until the list moves no more; then scrolled back to the top.

    ``scrolls``: the caller knows the screen's list is longer than the screen (a sheet of many games):
    first wait until Flutter has marked it scrollable. A sheet shown again after its close has its
    list's nodes back in the semantics tree some frames after it is drawn (0.7 s on a quiet machine):
    until then the wheel does not move the list to its top and a line its header cuts is not known as
    cut there. The caller also waits until the screen it left is gone (``wait_gone``): in a stress
    round of 27 Nov the close form's list was still in the tree, so the wait for a marked list passed
    on it while the sheet's own list was not marked yet, and a line the sheet's header cut read as a
    control 21 px high."""
    page.mouse.move(*over_the_list(page.viewport_size))  # not over the sheet's fixed header
    if scrolls:
        wait_until(page, lambda: bool(page.evaluate(_LISTS)), "the screen's list marked scrollable")
    found: list[str] = []
    page.mouse.wheel(0, -STEP * limit)  # from the top, wherever the last tap left the list
    where = settled(page)
    sizes: dict[str, Size] = {}
    # once scrolled, a node reaching up to the list's top may be cut there (its box is what is left of it)
    lists = page.evaluate(_LISTS)
    for _ in range(10):  # a sheet just shown again (after the close) marks its list scrollable a few frames later
        if lists:
            break
        next_frame(page)
        lists = page.evaluate(_LISTS)
    print(f"scrolling lists (top, height): {lists}")  # shown when the check fails
    list_tops = tuple(float(t) for t, _ in lists)
    below = max(BAR, max(lists, key=lambda t: t[1])[0] + 1 if lists else 0)  # the tallest: the sheet's list
    for look in range(limit):
        seen, measured = _look(page, top=below if look else 0, list_tops=list_tops)
        found += [p for p in seen if p not in found]
        for name, size in measured.items():  # a control the sheet's header cuts shows only its visible part:
            if name not in sizes or size[0] * size[1] > sizes[name][0] * sizes[name][1]:  # its largest look counts
                sizes[name] = size
        page.mouse.wheel(0, STEP)
        now = settled(page)
        if now == where:
            break
        where = now
    page.mouse.wheel(0, -STEP * limit)
    settled(page)
    return [_too_small(name, size) for name, size in sizes.items() if _is_small(size)] + found
