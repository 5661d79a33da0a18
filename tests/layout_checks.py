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
  texts are left out: the semantics element does not wrap as Flutter does;
- what Flutter draws is measured too, not only what the semantics tree names: the app the tests start
  says of every text what it draws, at which size, on how many lines at most
  (``screens/looks.py``, ``MARK_DRAWN``). The check measures that text in the Roboto Flutter draws
  with (the app's own ``assets/fonts/roboto.woff2``, on a canvas) against the box Flutter gave it, or
  the room its button leaves it: a word wider than that is broken inside ("Talonschnapse|n"), a text
  needing more lines than it may have ends in "…" ("Bauernschnapser 12" in half a 360 px row), a text
  reaching out of its button is cut by it. A button named apart from its label ("Bauernschnapser
  (12)" drawing "Bauernschnapser 12", "Gespritzt ×2" drawing "×2") was out of the first check's reach.
  Not measured this way (left to the name check above): the titles of list and expansion tiles (a node
  of their own took the tile's name), labels Flutter draws from a string in its own widget (radios,
  switches, fields), chips under a node named apart, and two texts side by side under such a node.
"""

from __future__ import annotations

import json
from typing import Any

from .browser import PHONE, drew_no_frame, next_frame, over_the_list, patient, turn_wheel, wait_until

MIN_TARGET = 48
ONE_LINE = 34
"""Height below which a text node is one line (18 px text at "Sehr groß" x 1.4 is 25 px high, two lines of
the smallest text 12 x 1.4 are 40)."""

_READ = """async ([EDGE, TOP, LIST, SLACK]) => {
  const drawnNodes = document.querySelector('flt-semantics[flt-semantics-identifier^="drawn"]');
  if (drawnNodes && !window.__tischblockMeasure) {  // Flutter's own Roboto, from the app's assets
    const font = new FontFace('TischblockDrawn', `url(${new URL('assets/fonts/roboto.woff2', document.baseURI)})`);
    await font.load();
    document.fonts.add(font);
    window.__tischblockMeasure = document.createElement('canvas').getContext('2d');
  }
  const ctx = window.__tischblockMeasure;
  const w = window.innerWidth, h = window.innerHeight;
  const out = [];
  for (const e of document.querySelectorAll('flt-semantics')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const role = e.getAttribute('role') || (e.querySelector(':scope > input, :scope > textarea') ? 'textbox' : '');
    const leaf = !e.querySelector('flt-semantics');
    const id = e.getAttribute('flt-semantics-identifier') || '';
    let drawn = null;
    // what Flutter draws here (screens/looks.py, MARK_DRAWN): a text laid out in this node's box
    // ("drawn|"), or the texts under a node that excludes its children, each in its room there ("drawn-in|")
    if (id.startsWith('drawn|') || id.startsWith('drawn-in|')) {
      const tappable = e.parentElement.closest(
        'flt-semantics:is([role=button],[role=checkbox],[role=radio],[role=switch],[role=tab],[role=link])');
      const b = id.startsWith('drawn|') && tappable ? tappable.getBoundingClientRect() : null;
      drawn = {box: b && {x: b.x, y: b.y, w: b.width, h: b.height}, texts: []};
      for (const spec of id.slice(id.indexOf('|') + 1).split('\\x1e').filter(Boolean)) {
        const [less, size, maxLines, noWrap, ...rest] = spec.split('|');
        const text = rest.join('|');
        ctx.font = `${size}px TischblockDrawn`;
        const width = s => ctx.measureText(s).width;
        const room = r.width - +less + SLACK;
        let lines = 0, word = '', wordWidth = 0, longest = 0;
        for (const paragraph of text.split('\\n')) {
          longest = Math.max(longest, width(paragraph));
          let line = '';
          lines += 1;
          for (const piece of paragraph.split(/ +|(?<=-)/).filter(Boolean)) {  // where Flutter may break a line
            const pieceWidth = width(piece);
            if (pieceWidth > wordWidth) [word, wordWidth] = [piece, pieceWidth];
            const longer = line ? `${line} ${piece}` : piece;
            if (line && width(longer) > room) [lines, line] = [lines + 1, piece];
            else line = longer;
          }
        }
        drawn.texts.push({
          room: r.width - +less, size: +size, maxLines: +maxLines, noWrap: noWrap === '1', text, lines, word,
          wordWidth, longest,
        });
      }
    }
    out.push({
      role, leaf, text: (e.innerText || '').trim(), label: e.getAttribute('aria-label') || '', drawn,
      x: r.x, y: r.y, w: r.width, h: r.height, sw: e.scrollWidth, cw: e.clientWidth,
      inside: r.x >= -0.5 && r.y >= TOP - 0.5 && r.right <= w + 0.5 && r.bottom <= h - EDGE
        && LIST.every(t => Math.abs(r.y - t) >= 1.5),  // not starting at a list's top: maybe cut there
    });
  }
  return JSON.stringify(out);  // one string: Playwright hands each value of an object over one by one
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
    if ((y === 'scroll' || y === 'hidden' || y === 'auto') && r.height > 100 && e.querySelector('flt-semantics') !== null)
      out.push([r.top, r.height]);
  }
  return out;
}"""
"""Where the screen's scrolling lists begin, and how tall they are (top, height): the sheet's list, under
its fixed header, and any box in it that scrolls; only those that hold a node (a screen just left may
leave its list's empty box in the tree a while)."""


SLACK = 1.15
"""The semantics element sets its text in the browser's font, up to 15 per cent wider than Flutter's Roboto
("Stand im Bummerl 1": 134 px for Flutter's 131; a field's message "Startnummer: bitte eine ganze Zahl
eingeben, nicht „vier“." drawn whole in 327 px takes 375); only an overflow beyond that counts as cut off."""

DRAWN_SLACK = 1.0
"""How much wider than its box a text measured in Roboto may be and still be drawn whole (px): sub-pixel
layout. Flutter's letter spacing (0.1 px a character in a button's label, 0.25 in body text) is not
measured, so a text measured here is a little narrower than Flutter draws it: what this check calls cut is
cut."""

TAPPABLE = {"button", "checkbox", "radio", "switch", "textbox", "slider", "tab"}


def problems(page: Any, top: float = 0) -> list[str]:
    """Every cut-off text, overlap and small target on the screen as it is now, in words; nodes reaching
    above ``top`` are left out, and so are those starting at a scrolling list's top: once the list is
    scrolled, what the fixed header cuts there shows only its visible part (``_LISTS``)."""
    found, sizes, _ = _look(page, top, tuple(float(t) for t, _ in page.evaluate(_LISTS)))
    return [_too_small(name, size) for name, size in sizes.items() if _is_small(size)] + found


Size = tuple[float, float, float]
"""A tappable control's width, height and top (px) as its semantics box shows it."""


def _is_small(size: Size) -> bool:
    return size[0] < MIN_TARGET - 0.5 or size[1] < MIN_TARGET - 0.5


def _too_small(name: str, size: Size) -> str:
    return f"zu klein ({size[0]:.0f} x {size[1]:.0f} px bei y={size[2]:.0f}): {name!r}"


def _look(
    page: Any, top: float, list_tops: tuple[float, ...] = (), edge: float = EDGE
) -> tuple[list[str], dict[str, Size], float | None]:
    """The cut-off texts and overlaps on the screen as it is now, in words, and the size of each
    tappable control on it, by name; nodes reaching above ``top`` are left out, and those starting at
    one of ``list_tops`` and reaching into the list (a node the scrolling list cuts there shows only its visible part).
    Nodes ending within ``edge`` of the screen's foot are left out too (maybe cut by the list's edge).
    Third: the top of the highest node this check reads that reaches below that (not seen whole yet) and
    starts below ``top``; None if there is none."""
    nodes = json.loads(page.evaluate(_READ, [edge, top, list(list_tops), DRAWN_SLACK]))
    foot = (page.viewport_size or PHONE)["height"] - edge
    ahead = [
        n["y"]
        for n in nodes
        if n["y"] + n["h"] > foot + 0.5
        and n["y"] > top + LANDING + 0.5
        and (n["role"] in TAPPABLE or n["drawn"] is not None or (n["leaf"] and n["text"]))
    ]
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
        if n["drawn"] is not None and n["inside"]:
            found += _drawn_problems(n)
            continue
        if not n["leaf"] or not n["text"] or n["label"] or "\n" in n["text"] or not n["inside"]:
            continue
        if n["role"] not in ("", "button", "heading"):
            continue
        one_line = n["h"] <= ONE_LINE or (n["role"] == "button" and n["w"] > MIN_TARGET)
        if one_line and n["sw"] > n["cw"] * SLACK + 2:
            found.append(f"abgeschnitten ({n['sw']} px Text in {n['cw']} x {n['h']:.0f} px bei y={n['y']:.0f}): {n['text']!r}")
    return found, sizes, min(ahead, default=None)


def _drawn_problems(n: dict[str, Any]) -> list[str]:
    """What is wrong with the texts as Flutter draws them in their boxes: measured in Roboto at its size, a
    word wider than its room is broken inside (``Talonschnapse|n``); a text needing more lines than it may
    have (or a second line where it may not wrap) ends in "…"; a text reaching out of its button is cut by it."""
    d, found = n["drawn"], []
    for t in d["texts"]:
        room = t["room"] + DRAWN_SLACK
        where = f"{t['size']:g} px in {t['room']:.0f} px von {n['w']:.0f} x {n['h']:.0f} px bei y={n['y']:.0f}"
        if t["noWrap"] and t["longest"] > room:
            found.append(f"abgeschnitten ({t['longest']:.0f} px Text auf einer Zeile, {where}): {t['text']!r}")
        elif t["wordWidth"] > room:
            found.append(f"im Wort gebrochen ({t['word']!r} ist {t['wordWidth']:.0f} px breit, {where}): {t['text']!r}")
        elif t["maxLines"] and t["lines"] > t["maxLines"]:
            found.append(f"abgeschnitten ({t['lines']} Zeilen statt {t['maxLines']}, {where}): {t['text']!r}")
    box = d["box"]
    if box is not None and (
        n["x"] < box["x"] - DRAWN_SLACK
        or n["x"] + n["w"] > box["x"] + box["w"] + DRAWN_SLACK
        or n["y"] < box["y"] - DRAWN_SLACK
        or n["y"] + n["h"] > box["y"] + box["h"] + DRAWN_SLACK
    ):
        found.append(f"ragt aus seinem Knopf ({box['w']:.0f} x {box['h']:.0f} px bei y={n['y']:.0f}): {n['text']!r}")
    return found


_WHERE = """() => Array.from(document.querySelectorAll('flt-semantics'), e => {
  const r = e.getBoundingClientRect();
  return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)].join(',');
}).join(';')"""

STEP = 320
"""How far the screen is scrolled between two looks: less than what the list shows between the sheet's
header (which stays put while the list scrolls under it: 420 px of 915 at "Sehr groß" with five players)
and the foot ``EDGE``, less a control's height, so every control is seen whole at least once. Only where the
next node not seen whole is taller than the screen shows (``problems_down_the_screen``)."""


LANDING = 2
"""How far under the list's top (``below``) the next look's highest new node is scrolled: a node starting
at a list's top is left out as maybe cut there (``_READ``)."""

STEP_LEAST = 100
"""A scroll to the next node not seen whole shorter than this is a node taller than the screen shows: then
``STEP`` instead."""


def settled(page: Any) -> str:
    """Wait until the semantics tree stands still from one frame to the next (a scroll or a re-render
    has ended); return where its nodes are. Read in the page frame by frame (``_SETTLED``): one call to
    the page, not three a frame."""
    while True:
        seen = page.evaluate(_SETTLED, [SETTLE_FRAMES, patient(15_000)])
        if seen["how"] == "still":
            return str(seen["where"])
        if seen["how"] != "moving":
            raise drew_no_frame(page, seen["how"])


_SETTLED = (
    """([frames, limit]) => new Promise(done => {
    const where = WHERE;
    if (document.visibilityState !== "visible") return done({how: "hidden"});
    let seen = 0, before = where(), ended = false;
    const end = result => { if (!ended) { ended = true; clearTimeout(timer); done(result); } };
    const timer = setTimeout(() => end({how: document.visibilityState !== "visible" ? "hidden" : seen ? "moving" : "stalled"}), limit);
    const look = () => requestAnimationFrame(() => requestAnimationFrame(() => {
        seen++;
        const now = where();
        if (now === before) return end({how: "still", where: now});
        if (seen >= frames) return end({how: "moving"});
        before = now;
        look();
    }));
    look();
})"""
).replace("WHERE", _WHERE)
"""``settled`` in the page: where the semantics nodes are (``_WHERE``), then again after each frame (two
animation frames: the next one complete) until two reads agree, or ``frames`` frames have passed."""

SETTLE_FRAMES = 60
"""How many frames one call of ``_SETTLED`` waits for the tree to stand still before it is called again."""


def problems_down_the_screen(page: Any, limit: int = 40, *, scrolls: bool = False) -> list[str]:
    """``problems`` of the whole screen: from its top, looked at, scrolled down with the mouse wheel as a
    finger scrolls until the highest node not seen whole yet stands just under the list's top (by ``STEP``
    where that node is taller than the screen shows), looked at again, until the list moves no more; at
    the list's end looked at once more down to the list's own edge (the last controls come no higher, and
    ``EDGE`` left them out); then scrolled back to the top. Scrolled by ``STEP`` every time, the
    32-game Schafkopf walk looked 237 times at its 23 screens; so, 163 times.

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
    turn_wheel(page, -STEP * limit)  # from the top, wherever the last tap left the list
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

    def under(lists: list[list[float]]) -> tuple[tuple[float, ...], float]:
        """The lists' tops, and where the tallest (the sheet's list) begins: what a look measures below."""
        return tuple(float(t) for t, _ in lists), max(BAR, max(lists, key=lambda t: t[1])[0] + 1 if lists else 0)

    list_tops, below = under(lists)

    def take(seen: list[str], measured: dict[str, Size]) -> None:
        found.extend(p for p in seen if p not in found)
        for name, size in measured.items():  # a control the sheet's header cuts shows only its visible part:
            if name not in sizes or size[0] * size[1] > sizes[name][0] * sizes[name][1]:  # its largest look counts
                sizes[name] = size

    height = (page.viewport_size or PHONE)["height"]
    for look in range(limit):
        if look:
            # read again at every look: a screen just left can leave its list in the tree at the first read
            # (the whole suite under load, 28 Nov: the close form's list at 68 px for the sheet's at 256 px,
            # so the lines the sheet's header cuts were taken for small ones)
            now_lists = page.evaluate(_LISTS)
            if now_lists and now_lists != lists:
                print(f"scrolling lists (top, height): {now_lists}")
                lists = now_lists
                list_tops, below = under(lists)
        seen, measured, ahead = _look(page, top=below if look else 0, list_tops=list_tops)
        take(seen, measured)
        # the highest node not seen whole yet up to just under the list's top: the next look sees it whole
        # unless it is taller than the screen shows (then STEP, as far as every node is seen whole anyway)
        step = ahead - below - LANDING if ahead is not None else STEP
        turn_wheel(page, step if step >= STEP_LEAST else STEP)
        now = settled(page)
        if now == where:
            # at the list's end nothing is cut at the screen's foot any more but by the list's own edge:
            # what ends above it is seen whole (the last controls never come further up than this)
            foot = max(t + h for t, h in lists) if lists else height
            seen, measured, _ = _look(page, top=below if look else 0, list_tops=list_tops, edge=height - foot + 1)
            take(seen, measured)
            break
        where = now
    turn_wheel(page, -STEP * limit)
    settled(page)
    return [_too_small(name, size) for name, size in sizes.items() if _is_small(size)] + found
