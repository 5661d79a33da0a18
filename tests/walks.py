"""What the walks of a whole sheet share (issue 22): the app process of a module, a page at a width and
text size, what the layout check found at each state a walk passes, and the numbers on top with their names."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from scoring import Sheet, find_ruleset
from storage import SheetStore

from .browser import (
    Taps,
    body_text,
    enable_semantics,
    patient,
    running_app,
    stand_still,
    wait_for_control,
    wait_for_locator,
    wait_until,
    with_editing_probe,
)
from .layout_checks import problems_down_the_screen

EVERY_SIZE = [(360, "normal"), (360, "sehr-gross"), (412, "normal"), (412, "sehr-gross")]
"""Each phone width at the smallest and the largest text size: where a walk can trip (issue 22)."""


def walk_sizes(suite: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The (width, text size) pairs a walk of a whole sheet runs at: ``suite`` in the test suite (each walk
    takes one to two minutes a size), every pair of ``EVERY_SIZE`` with ``TISCHBLOCK_WALK_SIZES=all``
    (the walk of issue 22's "Done when", README)."""
    return EVERY_SIZE if os.environ.get("TISCHBLOCK_WALK_SIZES") == "all" else suite


class App:
    """The app process of a module on one data directory; ``restart`` stops it and starts a new one."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.env = {"TISCHBLOCK_DATA_DIR": str(data_dir), **(env or {})}
        self.stack = ExitStack()
        self.url = ""

    def start(self) -> None:
        self.url = self.stack.enter_context(running_app(env=self.env))

    def restart(self) -> None:
        self.stack.close()
        self.stack = ExitStack()
        self.start()

    def stop(self) -> None:
        self.stack.close()


@contextmanager
def page_at(browser: Any, app: App, width: int, text_size: str) -> Iterator[Any]:
    """A page of ``app`` ``width`` px wide (915 high, as the phone) at the text size ``text_size`` (the
    settings file the page's window reads when it opens); the settings file goes again at the end."""
    settings = app.data_dir / "einstellungen.json"
    settings.write_text(json.dumps({"text_size": text_size}), encoding="utf-8")
    page = with_editing_probe(browser.new_page(viewport={"width": width, "height": 915}))
    try:
        page.goto(app.url)
        enable_semantics(page)
        yield page
    finally:
        settings.unlink(missing_ok=True)
        page.close()


@contextmanager
def new_sheet_at(browser: Any, app: App, width: int, text_size: str, ruleset: str) -> Iterator[tuple[Any, Looks, Taps]]:
    """A page as ``page_at``, on the new-sheet form of ``ruleset`` (its title, as the form's choice
    says it); with the layout looks of the walk and its taps. What the looks found fails the walk at its end."""
    with page_at(browser, app, width, text_size) as page:
        look, taps = Looks(page), Taps(page)
        taps.tap("button", "Neues Blatt", timeout=30_000)
        taps.tap("radio", ruleset)
        yield page, look, taps
    look.assert_none()


class Looks:
    """What the layout check (``problems_down_the_screen``) found at each state a walk passed, by state."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.found: dict[str, list[str]] = {}

    def __call__(self, state: str, *, scrolls: bool = False) -> None:
        """Look at the screen in ``state``; ``scrolls``: its list is known to be longer than the screen."""
        wrong = problems_down_the_screen(self.page, scrolls=scrolls)
        if wrong:
            self.found[state] = wrong

    def assert_none(self) -> None:
        if self.found:
            raise LayoutProblems(json.dumps(self.found, ensure_ascii=False, indent=1))


class LayoutProblems(AssertionError):
    """What the layout check found on a walk, by state (a failure of its own, told apart from a wait's)."""


def sheet_of(data_dir: Path, names: tuple[str, ...] | list[str]) -> Sheet:
    """The newest stored sheet whose participants are ``names``, in seat order (a walk made at two text
    sizes in one module's app leaves two such sheets)."""
    store = SheetStore(data_dir)
    for info in store.list_sheets():  # newest first
        if list(info.participants) == list(names):
            return store.open(info.id)
    raise AssertionError(f"no sheet of {names} in {data_dir}")


def numbers_on_top(page: Any, sheet: Sheet) -> tuple[str, ...]:
    """Wait until the page shows the numbers on top the ruleset gives for ``sheet`` as stored
    (``Ruleset.headline``): each figure's name, and after it its participants' numbers and names, each
    in seat order (the semantics tree reads a row of numbers above a row of names as the numbers, then
    the names; a scoreboard as name, number, name, number); return the figures' names."""
    ruleset = find_ruleset(sheet.ruleset.id)
    headline = ruleset.headline(sheet, ruleset.score(sheet))

    def shown() -> bool:
        text = body_text(page)
        return all(
            (start := text.find(f.label)) >= 0
            and _in_order(text, start, [value for _, value in f.values])
            and _in_order(text, start, [name for name, _ in f.values])
            for f in headline.figures
        )

    wait_until(page, shown, f"the numbers on top {headline.figures}")
    return tuple(f.label for f in headline.figures)


def _in_order(text: str, start: int, items: list[str]) -> bool:
    """Whether ``items`` stand in ``text`` one after the other from ``start`` on."""
    at = start
    for item in items:
        at = text.find(item, at)
        if at < 0:
            return False
        at += len(item)
    return True


def house_rules(page: Any, control: Any) -> Any:
    """Open the form's "Hausregeln" (unless open) until ``control`` is there; return it.

    The section's header says whether it is open (its description "Collapsed" or "Expanded"): it is
    tapped only while shut, and then the test waits for it to open. Tapping again after a fixed pause
    shut it again on a busy machine, where the first tap had not been drawn yet."""
    header = page.get_by_role("button", name=re.compile("^Hausregeln")).first
    wait_for_control(page, "button", re.compile("^Hausregeln"))
    if not control.count() and header.get_attribute("aria-description") != "Expanded":
        # scrolled to as a finger scrolls: Playwright's own scrolling of the header into view moved the
        # form under Flutter, which followed a frame later, and under load the click waited 90 s for it
        # to stand still (the CI run of 26 Nov, Talonschnapsen at 360 px)
        stand_still(page, header, "the Hausregeln", patient())
        header.click()
        wait_until(page, lambda: header.get_attribute("aria-description") == "Expanded", "the Hausregeln opened")
    return wait_for_locator(page, control, "the house rule's control")


def switch_on(page: Any, name: Any) -> None:
    """Turn the form's house-rule switch ``name`` on (opening "Hausregeln"), unless it is on already:
    the form offers the last sheet's house rules again, so a tap could turn it off."""
    switch = house_rules(page, page.get_by_role("switch", name=name))
    if switch.get_attribute("aria-checked") != "true":
        stand_still(page, switch, f"the switch {name!r}", patient())  # scrolled to as a finger scrolls
        switch.click()
        wait_for_locator(page, page.get_by_role("switch", name=name, checked=True), f"the switch {name!r} on")
