"""Issue 22: every screen at 360 and 412 px, at "Normal" and "Sehr groß", and at 360 px at "Groß": nothing
cut off, no two tappable controls on top of each other, no control under 48 x 48 px (``layout_checks``),
each screen looked at from its top to its foot.

One app process and one browser for the module; each width and text size is one page that walks every
screen as a player does (tapping there and "Back"), the text size being the settings file the page's
window reads. The sheets are made through the store (what is checked is the layout, not the entering,
which the family tests walk)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import flet_web as ft_web
import pytest

from scoring import Participant
from screens.statistics_state import DATE_HINT
from storage import SheetStore

from .browser import Taps, body_text, enable_semantics, running_app, screenshot, wait_for_text, wait_until, with_editing_probe
from .layout_checks import problems, problems_down_the_screen, settled
from .walks import Looks

LONG = ["Dieter Schwarzenberger", "Annemarie Huber", "Bartholomäus Lechner", "Carla Obermaier"]
WATTEN = ["Die Sautreiber vom Unterland", "Kartlbrüder Wörgl"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = tmp_path_factory.mktemp("layout")
    store = SheetStore(data, device="Handy Layout")
    store.new_sheet("doppelkopf-turnier", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(LONG)])
    watten = store.new_sheet(
        "watten-turnier",
        [Participant(id=k, name=n, start_number=i + 3) for i, (k, n) in enumerate(zip("AB", WATTEN, strict=True))],
    )
    for winner, value in (("A", 2), ("B", 3), ("A", 2)):
        store.add_game(watten.id, {"winner": winner, "value": value})
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        yield data, url


SHOT_WIDTH = 412
"""The screens are photographed at phone size (412 x 915), at "Normal" and "Sehr groß"."""

SIZES = [(360, "normal"), (412, "normal"), (360, "gross"), (360, "sehr-gross"), (412, "sehr-gross")]
"""Each width at the smallest and the largest text; "Groß" (x 1.2, between the two) once, where it is
tightest: on the narrow phone, every screen."""


class Walk:
    """One page walking the screens; what each screen shows wrong, by screen."""

    def __init__(self, page: Any, width: int, size: str) -> None:
        self.page, self.width, self.size = page, width, size
        self.taps = Taps(page)
        self.looks = Looks(page)

    def look(self, name: str, shown: str | re.Pattern[str], *, shot: bool = True) -> None:
        wait_for_text(self.page, shown, 30_000)
        self.looks(name)
        if shot and self.width == SHOT_WIDTH:
            screenshot(self.page, f"layout-{name}-{self.size}.png")

    def visit(self, button: str, name: str, shown: str | re.Pattern[str], *, exact: bool = True) -> None:
        """Tap ``button``, look at the screen it opens, go back."""
        self.taps.tap("button", button, exact=exact)
        self.look(name, shown)
        self.taps.tap("button", "Back")


@pytest.mark.parametrize(("width", "size"), SIZES)
def test_nothing_cut_off_overlapping_or_too_small(app: Any, browser: Any, width: int, size: str) -> None:
    data, url = app
    (Path(data) / "einstellungen.json").write_text(
        json.dumps({"text_size": size, "device_name": "Handy Layout"}), encoding="utf-8"
    )
    page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
    page.goto(url)
    enable_semantics(page)
    walk = Walk(page, width, size)
    walk.look("start", "Blätter auf diesem Handy")
    walk.visit("Statistik", "statistik", "Alle Regelwerke")
    walk.taps.tap("button", "Statistik")  # again, with a day that is none: the field says so beneath it
    walk.taps.type(f"von ({DATE_HINT})", "31.02.2026")
    walk.look("statistik-datumsfehler", f"„von“: bitte als {DATE_HINT}, z. B.")
    walk.taps.tap("button", "Back")
    walk.visit("Sicherung", "sicherung", "Auf diesem Handy:")
    walk.visit("Hilfe", "hilfe", "Tischliste fürs Handy")
    walk.visit("Einstellungen", "einstellungen", "Textgröße")
    walk.visit("Turnier beitreten", "beitreten", "Startkarte scannen")

    walk.taps.tap("button", "Neues Blatt")
    walk.taps.tap("radio", "Watten (Turnier)")
    walk.taps.type("Mannschaft 1: Startnr.", "vier")
    walk.taps.tap("button", "Blatt anlegen")
    walk.look("neues-blatt-fehler", "Startnummer: bitte eine ganze Zahl eingeben")
    walk.taps.tap("button", "Back")

    walk.taps.tap("button", re.compile("Doppelkopf"), exact=False)  # type: ignore[arg-type]
    walk.look("doppelkopf", "Spiel 1 von 16")
    walk.taps.tap("button", "Back")
    walk.taps.tap("button", re.compile("Sautreiber"), exact=False)  # type: ignore[arg-type]
    walk.look("watten", "Stand im Bummerl 1")
    walk.visit("Teilen / Exportieren", "teilen", "CSV")
    walk.visit("Abschließen", "abschliessen", "Unterschrift (Name)")
    page.close()
    walk.looks.assert_none()


def test_the_first_start_asks_the_phones_name_once(app: Any, browser: Any) -> None:
    """Issue 22: no name for this phone in the settings: the start screen asks once, the own name filled
    in; the answer is this phone's name from then on (Einstellungen shows it) and is not asked again."""
    data, url = app
    (Path(data) / "einstellungen.json").write_text(
        json.dumps({"own_name": "Sepp Huber", "text_size": "sehr-gross"}), encoding="utf-8"
    )
    page = with_editing_probe(browser.new_page(viewport={"width": 360, "height": 915}))
    page.goto(url)
    enable_semantics(page)
    walk = Walk(page, 360, "erster-start")  # 360 px: no layout-* screenshots, only the one below
    walk.look("start", "Wie heißt dieses Handy?")
    screenshot(page, "erster-start-handy-name.png")  # "Sepp Huber" filled in (the state's test asserts it)
    walk.taps.type("Handy-Name", "  ")
    walk.taps.tap("button", "Name übernehmen")
    wait_for_text(page, "Name dieses Handys: bitte einen Namen eingeben.")
    walk.taps.type("Handy-Name", "Handy Tisch 4")
    walk.taps.tap("button", "Name übernehmen")
    wait_until(page, lambda: "Wie heißt dieses Handy?" not in body_text(page), "the question went away")
    saved = json.loads((Path(data) / "einstellungen.json").read_text(encoding="utf-8"))
    assert saved["device_name"] == "Handy Tisch 4" and saved["device_asked"] is True
    walk.visit("Einstellungen", "einstellungen", "jetzt: „Handy Tisch 4“")
    page.goto(url)  # the next start asks nothing
    enable_semantics(page)
    wait_for_text(page, "Blätter auf diesem Handy")
    assert "Wie heißt dieses Handy?" not in body_text(page)
    page.close()
    walk.looks.assert_none()


FIVE = [*LONG, "Xaver Pfisterer"]
SCHAFKOPF = ["Maximilian Oberhuber", "Bernadette Kiermaier", "Carla Huberbauer", "Dieter Obermeier"]
SCHNAPSEN = {
    "Die Innviertler Kartenrunde": ("Resi Gruber", "Poldl Gruber"),
    "Schnapsbrüder vom Hausruck": ("Hansi Wimmer", "Gusti Wimmer"),
}
THIRD = 915 / 3
"""The sheet's fixed header (app bar and the numbers that count) must leave two thirds of the screen
to the list under it, where the entry panel is."""

HEADERS = [  # (ruleset, participants, a name to open it by, the figure on top, the list's first line)
    ("doppelkopf-turnier", FIVE, "Xaver Pfisterer", "Punkte", "Spiel 1 von"),
    ("watten-turnier", WATTEN, "Sautreiber", "Stand im Bummerl 1", "Bummerl 1 von 3"),
    ("schafkopf-turnier", SCHAFKOPF, "Bernadette Kiermaier", "Spielpunkte", "Spiel 1 von"),
    ("bauernschnapsen", list(SCHNAPSEN), "Innviertler", "Stand im Bummerl 1", "Bummerl verloren"),
]

_TOP_OF = """(start) => {
  const tops = [];
  for (const e of document.querySelectorAll('flt-semantics')) {
    if (e.querySelector('flt-semantics')) continue;
    const text = (e.innerText || '').trim(), r = e.getBoundingClientRect();
    if (r.height > 0 && text.startsWith(start)) tops.push(r.top);
  }
  return tops.length ? Math.min(...tops) : null;
}"""


def top_of(page: Any, start: str) -> float:
    """Where the text starting with ``start`` begins on the screen (px from the top), once it is laid out
    (its text can be in the page a frame before its box is)."""
    return float(wait_until(page, lambda: page.evaluate(_TOP_OF, start), f"a text starting with {start!r} on the screen"))


@pytest.mark.parametrize("width", [360, 412])
def test_the_sheets_header_keeps_to_the_top_third_at_sehr_gross(app: Any, browser: Any, width: int) -> None:
    """Issue 22: at "Sehr groß" a five-player Doppelkopf sheet's fixed header (title, actions, the points
    with every player's name) took 420 of 915 px. The numbers that count, named, stay on top in less
    than a third of the screen; the status lines ("Spiel 1 von …", "Es gibt: …") lead the list under it
    and scroll with it. The same for a Watten, a four-player Schafkopf and a Bauernschnapsen sheet; and
    the layout check finds nothing on any of them."""
    data, url = app
    store = SheetStore(data, device="Handy Layout")
    made = {tuple(info.participants) for info in store.list_sheets()}
    for ruleset, names, *_ in HEADERS:
        if tuple(names) not in made:
            members = [SCHNAPSEN.get(n, ()) for n in names]
            people = [Participant(id=f"p{i + 1}", name=n, members=m) for i, (n, m) in enumerate(zip(names, members, strict=True))]
            store.new_sheet(ruleset, people)
    (Path(data) / "einstellungen.json").write_text(
        json.dumps({"text_size": "sehr-gross", "device_name": "Handy Layout"}), encoding="utf-8"
    )
    page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
    page.goto(url)
    enable_semantics(page)
    taps, look = Taps(page), Looks(page)
    wait_for_text(page, "Blätter auf diesem Handy")
    for ruleset, names, button, figure, status in HEADERS:
        taps.tap("button", re.compile(button), exact=False)  # type: ignore[arg-type]
        wait_for_text(page, status)
        settled(page)
        if width == SHOT_WIDTH:
            screenshot(page, f"kopf-{ruleset.split('-')[0]}-sehr-gross.png")
        below = top_of(page, status)  # the list's first line: the header ends above it
        assert below < THIRD, f"{ruleset}: the header reaches {below:.0f} px of 915 at {width} px"
        assert top_of(page, figure) < below and all(top_of(page, name) < below for name in names), body_text(page)
        look(f"{ruleset} at {width} px")
        taps.tap("button", "Back")
        wait_for_text(page, "Blätter auf diesem Handy")
    page.close()
    look.assert_none()


CHECKED = """<body style="margin:0">
<flt-semantics role="button" aria-label="Klein" style="position:absolute;left:10px;top:100px;width:120px;height:30px"></flt-semantics>
<flt-semantics role="button" aria-label="Groß" style="position:absolute;left:10px;top:200px;width:120px;height:52px"></flt-semantics>
<flt-semantics role="button" aria-label="Drüber" style="position:absolute;left:60px;top:220px;width:120px;height:52px"></flt-semantics>
<flt-semantics style="position:absolute;left:10px;top:400px;width:60px;height:20px;white-space:nowrap;overflow:hidden"
>Dieter Schwarzenberger</flt-semantics>
<flt-semantics role="button" style="position:absolute;left:10px;top:500px;width:166px;height:52px">
 <flt-semantics flt-semantics-identifier="drawn|0|18|1|0|Bauernschnapser 12"
  style="position:absolute;left:4px;top:10px;width:158px;height:24px">Bauernschnapser</flt-semantics></flt-semantics>
<flt-semantics role="button" style="position:absolute;left:200px;top:500px;width:166px;height:52px">
 <flt-semantics flt-semantics-identifier="drawn|0|18|1|0|Schnapser 6"
  style="position:absolute;left:4px;top:10px;width:158px;height:24px">Schnapser</flt-semantics></flt-semantics>
<flt-semantics flt-semantics-identifier="drawn|0|18|2|0|Talonschnapsen gewonnen"
  style="position:absolute;left:10px;top:600px;width:100px;height:48px">Talonschnapsen</flt-semantics>
<flt-semantics role="button" style="position:absolute;left:10px;top:700px;width:166px;height:52px">
 <flt-semantics flt-semantics-identifier="drawn|0|16|0|0|Normales Spiel 1–3"
  style="position:absolute;left:30px;top:10px;width:214px;height:24px">Normales</flt-semantics></flt-semantics>
<flt-semantics role="button" aria-label="Kontrabauernschnapser (24)" style="position:absolute;left:200px;top:700px;width:166px;height:60px"
 flt-semantics-identifier="drawn-in|8|16|2|0|Kontrabauernschnapser 24&#x1e;30|18|1|0|Gang 9"></flt-semantics>
</body>"""
FONT = Path(ft_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"
"""The Roboto Flutter draws with, which the check measures texts in."""


def _checked_page(route: Any) -> None:
    """The page of wrong boxes at a made-up address, with Flutter's font beside it, as the app serves it."""
    if route.request.url.endswith("roboto.woff2"):
        route.fulfill(body=FONT.read_bytes(), content_type="font/woff2")
    else:
        route.fulfill(body=CHECKED, content_type="text/html; charset=utf-8")


@pytest.mark.browser
def test_the_check_finds_a_small_target_an_overlap_and_a_cut_off_name(browser: Any) -> None:
    """The check itself can fail: on a page of semantics boxes made to be wrong it names each fault."""
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.route("http://layout.check/**", _checked_page)
    page.goto("http://layout.check/")
    found = problems(page)
    page.close()
    assert any(f.startswith("zu klein (120 x 30 px") and "'Klein'" in f for f in found), found
    assert not any("'Groß'" in f and f.startswith("zu klein") for f in found), found
    assert any(f.startswith("überlappen") and "Groß" in f and "Drüber" in f for f in found), found
    assert any(f.startswith("abgeschnitten") and "Dieter Schwarzenberger" in f for f in found), found
    # what Flutter draws, measured in its Roboto: 165 px of "Bauernschnapser 12" on one line of 158 px
    assert any(f.startswith("abgeschnitten (2 Zeilen statt 1") and "'Bauernschnapser 12'" in f for f in found), found
    assert not any("Schnapser 6" in f for f in found), found  # 93 px: whole
    assert any(f.startswith("im Wort gebrochen ('Talonschnapsen'") for f in found), found
    assert any(f.startswith("ragt aus seinem Knopf (166 x 52 px") and "Normales" in f for f in found), found
    # under a node named apart from its label: "Kontrabauernschnapser" (191 px) in 158 px, "Gang 9" whole in 136
    assert any(f.startswith("im Wort gebrochen ('Kontrabauernschnapser'") and "in 158 px" in f for f in found), found
    assert not any("Gang 9" in f for f in found), found


def _long_list(small: set[int]) -> str:
    """A screen like the sheet at "Sehr groß": a header that stays put (256 px) over a list that scrolls
    (to 909 px), 70 controls in it, those numbered in ``small`` 30 px high, the others 56 or 84."""
    rows, y = [], 12
    for number in range(1, 71):
        height = 30 if number in small else (84 if number % 3 == 0 else 56)
        rows.append(
            f'<flt-semantics role="button" aria-label="Knopf {number}" '
            f'style="position:absolute;left:10px;top:{y}px;width:300px;height:{height}px"></flt-semantics>'
        )
        y += height + 8
    return (
        '<body style="margin:0"><flt-semantics aria-label="Kopf" style="position:absolute;left:0;top:0;width:412px;'
        'height:256px"></flt-semantics><flt-semantics style="position:absolute;left:0;top:256px;width:412px;'
        f'height:653px;overflow-y:scroll"><div style="position:relative;height:{y + 12}px">{"".join(rows)}</div>'
        "</flt-semantics></body>"
    )


@pytest.mark.browser
def test_the_check_down_a_long_list_sees_every_control_whole(browser: Any) -> None:
    """The check scrolled down a list of five screens names every small control in it, wherever the list
    puts it (at the top, in the middle, at the foot, straddling where one look ends), and no other."""
    small = {1, 9, 17, 18, 26, 33, 41, 47, 52, 60, 66, 70}
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.route("http://layout.check/**", lambda route: route.fulfill(body=_long_list(small), content_type="text/html"))
    page.goto("http://layout.check/")
    found = problems_down_the_screen(page)
    page.close()
    named = {int(m.group(1)) for f in found if (m := re.search(r"zu klein \(300 x 30 px.*'Knopf (\d+)'", f))}
    assert named == small, found
    assert len(found) == len(small), found
