"""Issue 22: a player's name longer than half a row takes the Schnapsen panel's whole row.

The panel's buttons have their own names ("Angesagt von …"), so their text is not in the semantics
tree and the layout check cannot see it cut off; half a row showed "Maximiliane Oberhuber-Kiermaier
von Sankt Johann" as "Maximilia…". A Talonschnapsen sheet with that name and two short ones, at 360 px
"Sehr groß" and 412 px normal: after "Bettler (4)", the long name's button spans the row, at "Sehr groß"
tall enough for its two lines, and the short names stay two to a row. The sheet's header shows the
three players side by side at normal text and one line each at "Sehr groß", where "Maximiliane" did
not fit a third of the row and broke in the middle of the word. One app process; each text size is the settings file the next window reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import Participant
from storage import SheetStore

from .browser import (
    Taps,
    enable_semantics,
    patient,
    running_app,
    screenshot,
    stand_still,
    still_frame,
    wait_for_control,
    with_editing_probe,
)
from .layout_checks import problems_down_the_screen

pytestmark = pytest.mark.browser

LONG = "Maximiliane Oberhuber-Kiermaier von Sankt Johann"
NAMES = (LONG, "Anna", "Bert")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = tmp_path_factory.mktemp("long-names")
    store = SheetStore(data, device="Handy Lange Namen")
    sheet = store.new_sheet("talonschnapsen", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(NAMES)])
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        yield data, f"{url}blatt/{sheet.id}"


def box(page: Any, name: str) -> dict[str, float]:
    found = page.get_by_role("button", name=name, exact=True).first.bounding_box()
    assert found is not None, f"{name!r} is not on the page"
    return found


@pytest.mark.parametrize(("width", "size"), [(360, "sehr-gross"), (412, "normal")])
def test_a_long_name_takes_the_row_of_the_schnapsen_panel(app: Any, browser: Any, width: int, size: str) -> None:
    data, url = app
    (Path(data) / "einstellungen.json").write_text(json.dumps({"text_size": size}), encoding="utf-8")
    page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
    page.goto(url)
    enable_semantics(page)
    Taps(page).tap("button", "Bettler (4)", timeout=30_000)
    wait_for_control(page, "button", f"Angesagt von {LONG}")
    named = page.get_by_role("button", name=f"Angesagt von {LONG}", exact=True).first
    stand_still(page, named, "the long name", patient())  # wheeled into sight, as a finger scrolls
    still_frame(page)
    long, short = box(page, f"Angesagt von {LONG}"), box(page, "Angesagt von Anna")
    headed = page.get_by_text(LONG, exact=True).first.bounding_box()  # the header's line for that player
    if width == 360:
        screenshot(page, "talonschnapsen-langer-name-360-sehr-gross.png")
    wrong = problems_down_the_screen(page)
    page.close()
    assert long["width"] >= width - 2 * 16, (long, width)  # the whole row, less the screen's padding
    assert short["width"] <= width / 2, short  # the short names stay two to a row
    if size == "sehr-gross":  # its two lines whole: the button grows with the text (50 px held 1.5 lines)
        assert long["height"] >= 1.3 * short["height"], (long, short)
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)
    assert headed is not None, "the long name is not in the sheet's header"
    if size == "sehr-gross":  # one line per player: "Maximiliane" broke as "Maximilian|e" in a third of the row
        assert headed["width"] >= width / 2, headed
    else:  # at normal text a third of the row holds each word: the three stay side by side
        assert headed["width"] <= width / 3, headed
