"""Issue 22: the main screens at 360 and 412 px, at "Normal" and "Sehr groß": nothing cut off, no two
tappable controls on top of each other, no control under 48 x 48 px (``layout_checks``).

One app process; each text size is the settings file the next window reads. The sheets are made
through the store (what is checked is the layout, not the entering, which the family tests walk)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import Participant
from storage import SheetStore

from .browser import enable_semantics, running_app, screenshot, still_frame, wait_for_text, with_editing_probe
from .layout_checks import problems

LONG = ["Dieter Schwarzenberger", "Annemarie Huber", "Bartholomäus Lechner", "Carla Obermaier"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = tmp_path_factory.mktemp("layout")
    store = SheetStore(data, device="Handy Layout")
    doko = store.new_sheet("doppelkopf-turnier", [Participant(id=f"p{i + 1}", name=n) for i, n in enumerate(LONG)])
    watten = store.new_sheet(
        "watten-turnier", [Participant(id="A", name="Die Sautreiber vom Unterland"), Participant(id="B", name="Kartlbrüder Wörgl")]
    )
    for winner, value in (("A", 2), ("B", 3), ("A", 2)):
        store.add_game(watten.id, {"winner": winner, "value": value})
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        yield data, url, {"doppelkopf": doko.id, "watten": watten.id}


SCREENS = [
    ("start", "", "Neues Blatt"),
    ("doppelkopf", "blatt/{doppelkopf}", "Spiel 1 von 16"),
    ("watten", "blatt/{watten}", "Stand im Bummerl 1"),
]


@pytest.mark.parametrize("size", ["normal", "sehr-gross"])
@pytest.mark.parametrize("width", [360, 412])
def test_nothing_cut_off_overlapping_or_too_small(app: Any, browser: Any, width: int, size: str) -> None:
    data, url, ids = app
    (Path(data) / "einstellungen.json").write_text(json.dumps({"text_size": size}), encoding="utf-8")
    found = {}
    for name, path, shown in SCREENS:
        page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
        page.goto(url + path.format(**ids))
        enable_semantics(page)
        wait_for_text(page, shown, 30_000)
        still_frame(page)  # laid out and drawn: nothing moves any more
        wrong = problems(page)
        if wrong:
            found[name] = wrong
        if width == 360 and size == "sehr-gross":
            screenshot(page, f"layout-{name}-360-sehr-gross.png")
        page.close()
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)
