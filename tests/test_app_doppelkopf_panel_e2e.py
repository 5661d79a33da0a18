"""Issue 22: the Doppelkopf panel keeps "Eintragen" on the first screen with both Ansagen made.

A 5-player table (the tallest header: five players, who deals and sits out, five open Pflichtsoli)
at 412 x 915 and normal text: "Re" and "Kontra" tapped, the button's box ends on the screen, and the
screen did not scroll to get there. Fuchs, Doko and Karlchen stay on it; the Absagen, "Einen
zurück" and Herzstich are one tap ("Absage …") down. With that fold open, at 360 and 412 px and both
text sizes, nothing is cut off, overlapping or too small (``layout_checks``). A name wider than the
phone wraps inside its chip. The Schmeißen's grid of names is whole at 360 and 412 px.

One app process; each text size is the settings file the next window reads."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring import Participant
from storage import SheetStore

from .browser import (
    Taps,
    enable_semantics,
    next_frame,
    running_app,
    screenshot,
    still_frame,
    turn_wheel,
    wait_for_control,
    with_editing_probe,
)
from .layout_checks import problems, problems_down_the_screen

pytestmark = pytest.mark.browser

NAMES = ("Anna Huber", "Bert Krause", "Carla Nowak", "Dieter Schulz", "Emil Wagner")
LONG = "Maximiliane Oberhuber-Kiermaier von Sankt Johann"
"""A name wider than a 360 px phone at "Sehr groß" (names may have up to 80 characters)."""
HAUS = ("Dieter Schwarzenberger", "Annemarie Huber", "Bartholomäus Lechner", "Carla Obermaier")
"""A house-rules evening (Schmeißen is house rules only), with names as long as the Strafe's survey."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = tmp_path_factory.mktemp("doppelkopf-panel")
    store = SheetStore(data, device="Handy Panel")
    sheet = store.new_sheet("doppelkopf-turnier", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(NAMES)])
    names = (NAMES[0], LONG, *NAMES[2:4])  # four players: nobody sits out, every name is a "Re" chip
    long = store.new_sheet("doppelkopf-turnier", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(names)])
    haus = store.new_sheet("doppelkopf-haus", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(HAUS)])
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        yield data, f"{url}blatt/{sheet.id}", f"{url}blatt/{long.id}", f"{url}blatt/{haus.id}"


def sheet_page(browser: Any, app: Any, width: int, size: str, *, long: bool = False, haus: bool = False) -> Any:
    data, url, long_url, haus_url = app
    url = long_url if long else haus_url if haus else url
    (Path(data) / "einstellungen.json").write_text(json.dumps({"text_size": size}), encoding="utf-8")
    page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
    page.goto(url)
    enable_semantics(page)
    wait_for_control(page, "button", "Eintragen", timeout=30_000)
    still_frame(page)
    return page


def nothing_wrong(page: Any, check: Callable[[Any], list[str]], shot: str | None) -> None:
    """What ``check`` finds on the screen once it stands still (photographed as ``shot``); the page closed
    either way, the test failing on each problem, in words."""
    still_frame(page)
    wrong = check(page)
    if shot is not None:
        screenshot(page, shot)
    page.close()
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)


def box(page: Any, name: str) -> dict[str, float]:
    found = page.get_by_role("button", name=name, exact=True).first.bounding_box()
    assert found is not None, f"{name!r} is not on the page"
    return found


def test_eintragen_stays_on_the_first_screen_with_both_ansagen(app: Any, browser: Any) -> None:
    page = sheet_page(browser, app, 412, "normal")
    back = box(page, "Back")
    taps = Taps(page)
    taps.tap("button", "Re")
    taps.tap("button", "Kontra")
    still_frame(page)
    assert box(page, "Back") == back, "the screen scrolled"
    height = page.viewport_size["height"]
    button = box(page, "Eintragen")
    assert button["y"] + button["height"] <= height, f"Eintragen ends at {button['y'] + button['height']} px of {height}"
    for side in ("Re", "Kontra"):
        for what in ("Fuchs", "Doppelkopf", "Karlchen"):  # the common Sonderpunkte stay
            chip = box(page, f"{side}: {what}")
            assert chip["y"] + chip["height"] <= button["y"], f"{side}: {what}"
    assert not page.get_by_role("button", name="Re: keine 90").count()  # rare: one tap down
    screenshot(page, "doppelkopf-ansagen.png")
    taps.tap("button", "Absagen …")
    wait_for_control(page, "button", "Re: keine 90")
    assert page.get_by_role("button", name="Kontra: Herzstich").count() == 1
    page.close()


@pytest.mark.parametrize("size", ["normal", "sehr-gross"])
@pytest.mark.parametrize("width", [360, 412])
def test_the_open_ansagen_are_not_cut_off_overlapping_or_too_small(app: Any, browser: Any, width: int, size: str) -> None:
    page = sheet_page(browser, app, width, size)
    # At "Sehr groß" the sheet's header (which stays put while the list scrolls) covers the middle of
    # the screen, where ``stand_still`` wheels from: the list is wheeled from under it first.
    viewport = page.viewport_size
    page.mouse.move(viewport["width"] / 2, viewport["height"] - 40)
    turn_wheel(page, max(0, box(page, "Re")["y"] - (viewport["height"] - 260)))
    next_frame(page)
    taps = Taps(page)
    for name in ("Re", "Kontra", "Absagen …"):
        taps.tap("button", name)
    wait_for_control(page, "button", "Kontra: schwarz")
    # A screen reader says which chips are chosen: Flutter's web client marks them aria-current.
    chosen = {n: page.get_by_role("button", name=n, exact=True).first.get_attribute("aria-current") for n in ("Re", "Kontra")}
    assert chosen == {"Re": "true", "Kontra": "true"}, chosen
    nothing_wrong(page, problems, "doppelkopf-absagen-360-sehr-gross.png" if (width, size) == (360, "sehr-gross") else None)


@pytest.mark.parametrize(("width", "size"), [(360, "sehr-gross"), (360, "normal"), (412, "sehr-gross")])
def test_the_schmeissen_names_every_player_whole(app: Any, browser: Any, width: int, size: str) -> None:
    """Issue 22: the Schmeißen (house rules), which no walk reached: its "Wer?" grid of names, measured as
    Flutter draws them, has no name cut or broken inside a word and nothing overlapping or too small."""
    page = sheet_page(browser, app, width, size, haus=True)
    taps = Taps(page)
    taps.tap("button", "Strafe, Schmeißen, Geber …")
    taps.tap("button", "Eintrag: Schmeißen")
    wait_for_control(page, "button", f"Schmeißt: {HAUS[0]}")
    shot = "doppelkopf-schmeissen-360-sehr-gross.png" if (width, size) == (360, "sehr-gross") else None
    nothing_wrong(page, problems_down_the_screen, shot)


def test_a_name_wider_than_the_phone_wraps_inside_its_chip(app: Any, browser: Any) -> None:
    """A name wider than the screen makes its chip taller, not run out of it: the chip has its own name
    ("Re: …"), and the layout check measures the text it draws (``layout_checks``)."""
    page = sheet_page(browser, app, 360, "sehr-gross", long=True)
    short, wide = box(page, f"Re: {NAMES[0]}"), box(page, f"Re: {LONG}")
    screenshot(page, "doppelkopf-langer-name-360-sehr-gross.png")
    assert wide["x"] >= 0 and wide["x"] + wide["width"] <= 360, wide
    assert short["height"] >= 52, short
    assert wide["height"] >= short["height"] + 30, (wide, short)  # a second line (34 px at "Sehr groß"), whole
    wrong = problems(page)
    page.close()
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)
