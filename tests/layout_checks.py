"""What a phone screen must never do, read from Flutter's semantics tree in the browser (issue 22):
a text cut off, two tappable controls on top of each other, a control smaller than a thumb.

Flutter draws on a canvas; its semantics tree mirrors every control as a positioned
``flt-semantics`` element of the control's size, with its text. So:

- a tappable control (button, checkbox, radio, switch, text field) must be at least 48 x 48 px;
  Material's icon buttons are drawn 40 x 40 and padded to a 48 px tap target
  (``MaterialTapTargetSize.padded``), so a 40 x 40 button counts as 48;
- two tappable controls fully on the screen must not overlap;
- a one-line text (a node no taller than one line of the largest text size, or a button's label)
  whose text is wider than its box is cut off: the element wraps at spaces, so a name or word wider
  than the box ("Dieter Schwarzenberger" in a 94 px chip, "Ansage" in 60 px) overflows it. Taller
  texts are left out: the semantics element does not wrap as Flutter does.
"""

from __future__ import annotations

from typing import Any

MIN_TARGET = 48
PADDED_ICON = 40
ONE_LINE = 34
"""Height below which a text node is one line (18 px text at "Sehr groß" x 1.4 is 25 px high, two lines of
the smallest text 12 x 1.4 are 40)."""

_READ = """(EDGE) => {
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
      inside: r.x >= -0.5 && r.y >= -0.5 && r.right <= w + 0.5 && r.bottom <= h - EDGE,
    });
  }
  return out;
}"""

EDGE = 80
"""A node this close to the screen's foot may be cut by the scrolling list's edge (its semantics box is
what is visible of it): it is measured when scrolled up, not here."""

SLACK = 1.1
"""The semantics element sets its text in the browser's font, a few per cent wider than Flutter's Roboto
("Stand im Bummerl 1": 134 px for Flutter's 131); only an overflow beyond that counts as cut off."""

TAPPABLE = {"button", "checkbox", "radio", "switch", "textbox", "slider", "tab"}


def problems(page: Any) -> list[str]:
    """Every cut-off text, overlap and small target on the screen as it is now, in words."""
    nodes = page.evaluate(_READ, EDGE)
    found: list[str] = []
    targets = [n for n in nodes if n["role"] in TAPPABLE and n["inside"]]
    for n in targets:
        name = n["label"] or n["text"] or n["role"]
        padded = round(n["w"]) == PADDED_ICON and round(n["h"]) == PADDED_ICON
        if not padded and (n["w"] < MIN_TARGET - 0.5 or n["h"] < MIN_TARGET - 0.5):
            found.append(f"zu klein ({n['w']:.0f} x {n['h']:.0f} px): {name!r}")
    for i, a in enumerate(targets):
        for b in targets[i + 1 :]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 1 and dy > 1:
                found.append(f"überlappen: {a['label'] or a['text']!r} und {b['label'] or b['text']!r}")
    for n in nodes:
        if not n["leaf"] or not n["text"] or n["label"] or "\n" in n["text"] or not n["inside"]:
            continue
        if n["role"] not in ("", "button", "heading"):
            continue
        one_line = n["h"] <= ONE_LINE or (n["role"] == "button" and n["w"] > MIN_TARGET)
        if one_line and n["sw"] > n["cw"] * SLACK + 2:
            found.append(f"abgeschnitten ({n['sw']} px Text in {n['cw']} px): {n['text']!r}")
    return found
