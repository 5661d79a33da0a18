"""Made for the table, in the real app in a real browser: the settings (dark theme, very large text,
the own name), every control labelled on every screen, names offered as you type, the screen kept on
while a sheet is open, and the user guide under "Hilfe". Screenshots at 412x915, light and dark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import Entry, Participant
from storage import SheetStore

from .browser import (
    PHONE,
    Taps,
    body_text,
    go_in_app,
    next_frame,
    open_page,
    patient,
    running_app,
    screenshot,
    turn_wheel,
    wait_for_text,
    wait_until,
    with_editing_probe,
)

pytestmark = pytest.mark.browser

A, B = "Die Sautreiber", "Kartlbrüder Wörgl"
SCHAFKOPF = ["Toni", "Sepp", "Vroni", "Resi"]

WAKE_LOCK_PROBE = """
window.__wake = {requests: 0, granted: 0, released: 0};
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    window.__wake.requests += 1;
    const sentinel = await request(type);
    window.__wake.granted += 1;
    sentinel.addEventListener('release', () => { window.__wake.released += 1; });
    return sentinel;
  };
}
"""
"""Counts the page's Screen Wake Lock requests, grants and releases (the real API does the work)."""

UNLABELLED = """() => {
  const roles = ['button', 'textbox', 'checkbox', 'radio', 'switch', 'slider', 'link', 'tab', 'menuitem'];
  const found = [];
  let named = 0;
  for (const el of document.querySelectorAll('flt-semantics, input, textarea')) {
    const role = el.getAttribute('role') || (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? 'textbox' : '');
    if (!roles.includes(role)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = (el.getAttribute('aria-label') || el.textContent || '').trim();
    if (name) named += 1;
    else found.push(role + ' at ' + Math.round(r.x) + ',' + Math.round(r.y) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return {named, found};
}"""
"""Every button, text field, checkbox, radio or switch on screen that a screen reader could not name."""

CLIPPED = """(width) => {
  const found = [];
  for (const el of document.querySelectorAll('flt-semantics[role], input, textarea')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -1 || r.right > width + 1) {
      found.push((el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 60) + ': ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  return found;
}"""
"""Controls that stick out of the phone's width (cut off on screen)."""


def watten_sheet(store: SheetStore) -> str:
    sheet = store.new_sheet(
        "watten-turnier", [Participant(id="A", name=A, start_number=7), Participant(id="B", name=B, start_number=12)]
    )
    for winner, value in (("A", 2), ("B", 3), ("A", 4), ("A", 2), ("A", 3), ("A", 2)):
        store.append(sheet.id, Entry(kind="game", data={"winner": winner, "value": value}))
    return str(sheet.id)


def schafkopf_sheet(store: SheetStore) -> str:
    people = [Participant(id=f"p{i + 1}", name=name, seat=i + 1) for i, name in enumerate(SCHAFKOPF)]
    return str(store.new_sheet("schafkopf-turnier", people).id)


def visit(page: Any, url: str) -> None:
    """Go to ``url`` in the running app (``go_in_app``: the screen, not a new start of the page)."""
    go_in_app(page, url)


def saved_settings(data_dir: Path, **expected: str) -> dict[str, Any] | None:
    """The settings the app saved, once they hold ``expected`` (the app saves a choice at once, a
    moment after the tap reaches it); else None."""
    try:
        saved = json.loads((data_dir / "einstellungen.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return saved if all(saved.get(key) == value for key, value in expected.items()) else None


def walk(page: Any, problems: dict[str, list[str]], screen: str) -> None:
    """Scroll the screen from top to bottom and note every unlabelled or cut-off control."""
    page.mouse.move(200, 600)
    named = 0
    for _ in range(12):
        next_frame(page)
        seen = page.evaluate(UNLABELLED)
        named = max(named, seen["named"])
        for problem in seen["found"]:
            problems.setdefault(screen, []).append(f"unbeschriftet: {problem}")
        for problem in page.evaluate(CLIPPED, PHONE["width"]):
            problems.setdefault(screen, []).append(f"abgeschnitten: {problem}")
        before = page.evaluate("document.body.innerText.length + document.querySelectorAll('flt-semantics').length")
        turn_wheel(page, 500)
        next_frame(page)
        next_frame(page)
        after = page.evaluate("document.body.innerText.length + document.querySelectorAll('flt-semantics').length")
        if before == after and _ > 2:
            break
    for _ in range(12):
        turn_wheel(page, -800)
    assert named >= 2, f"{screen}: the walk found no controls at all; is the semantics tree on?"


def test_settings_dark_theme_very_large_text_and_every_screen_labelled(browser: Any, tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    watten = watten_sheet(store)
    schafkopf = schafkopf_sheet(store)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        page = open_page(browser, url)
        taps = Taps(page)
        wait_for_text(page, "Blätter auf diesem Handy", 30_000)

        # Einstellungen from the start screen; each choice saved at once with the app.
        taps.tap("button", "Einstellungen")
        wait_for_text(page, "Textgröße")
        taps.type("Eigener Name", A)
        screenshot(page, "einstellungen.png")
        taps.tap("radio", "Dunkel")
        saved = wait_until(page, lambda: saved_settings(tmp_path, theme="dunkel"), "the dark theme saved")
        assert saved["own_name"] == A
        screenshot(page, "einstellungen-dunkel.png")
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background is not None

        # Every screen in dark: readable, and every control labelled.
        problems: dict[str, list[str]] = {}
        page.go_back()
        wait_for_text(page, "Blätter auf diesem Handy")
        screenshot(page, "start-dunkel.png")
        walk(page, problems, "Start")
        taps.tap("button", "Neues Blatt")
        wait_for_text(page, "Regelwerk")
        screenshot(page, "neues-blatt-dunkel.png")
        walk(page, problems, "Neues Blatt")
        for sheet_id, name in ((watten, "Watten"), (schafkopf, "Schafkopf")):
            visit(page, f"{url}blatt/{sheet_id}")
            wait_for_text(page, "Abschließen", 30_000)
            if name == "Watten":
                screenshot(page, "blatt-dunkel.png")
            walk(page, problems, f"Blatt {name}")
        taps.tap("button", "Abschließen")
        wait_for_text(page, "Unterschrift (Name)")
        walk(page, problems, "Abschließen")
        for route, text, shot in (
            ("beitreten", "Beitrittszeile", None),
            ("hilfe", "Anleitung", "hilfe-dunkel.png"),
            ("einstellungen", "Textgröße", None),
        ):
            visit(page, f"{url}{route}")
            wait_for_text(page, text, 30_000)
            if shot:
                screenshot(page, shot)
            walk(page, problems, route)
        assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)

        # Very large text still fits the phone: nothing cut off at the sides.
        taps.tap("radio", "Sehr groß", answered=True)  # the whole screen redrawn larger before the next tap
        taps.tap("radio", "Hell")
        wait_until(page, lambda: saved_settings(tmp_path, theme="hell", text_size="sehr-gross"), "very large text saved")
        screenshot(page, "einstellungen-sehr-gross.png")
        large: dict[str, list[str]] = {}
        walk(page, large, "Einstellungen")
        visit(page, url)
        wait_for_text(page, "Blätter auf diesem Handy", 30_000)
        screenshot(page, "start-sehr-gross.png")
        walk(page, large, "Start")
        visit(page, f"{url}blatt/{watten}")
        wait_for_text(page, "Abschließen", 30_000)
        screenshot(page, "blatt-sehr-gross.png")
        walk(page, large, "Blatt Watten")
        visit(page, f"{url}neu")
        wait_for_text(page, "Regelwerk", 30_000)
        screenshot(page, "neues-blatt-sehr-gross.png")
        walk(page, large, "Neues Blatt")
        assert not large, json.dumps(large, indent=1, ensure_ascii=False)
        page.close()


def test_names_offered_as_you_type_the_own_name_writes_and_signs(browser: Any, tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    watten_sheet(store)
    (tmp_path / "einstellungen.json").write_text(json.dumps({"own_name": A}), encoding="utf-8")
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        page = open_page(browser, f"{url}neu")
        taps = Taps(page)
        wait_for_text(page, "Regelwerk", 30_000)
        taps.tap("radio", "Watten (Turnier)")
        taps.type("Mannschaft 1: Name", "kartl")
        taps.tap("button", f"Vorschlag {B}")
        wait_for_text(page, B)  # the field shows it (Flutter leaves the hidden input of an unfocused field as it was)
        taps.type("Mannschaft 2: Name", "sau")
        page.get_by_role("button", name=f"Vorschlag {A}").wait_for(timeout=patient())
        screenshot(page, "neues-blatt-vorschlag.png")
        taps.tap("button", f"Vorschlag {A}")
        taps.tap("button", "Blatt anlegen")
        wait_for_text(page, "Bummerl 1 von 3, Stand 0:0", 15_000)
        newest = max(store.list_sheets(), key=lambda info: info.created_at)
        assert newest.participants == (B, A)
        assert store.open(newest.id).context.written_by == "B"  # the own team writes the sheet
        taps.tap("button", "Abschließen")
        wait_for_text(page, "Vermerk der Turnierleitung")
        taps.type("Vermerk der Turnierleitung", "Probeblatt")
        screenshot(page, "abschliessen-eigener-name.png")
        taps.tap("button", "Abschließen und unterschreiben")  # the own name is there already
        wait_for_text(page, "abgeschlossen", 15_000)
        closing = store.open(newest.id).entries[-1]
        assert closing.kind == "close" and A in json.dumps(closing.data, ensure_ascii=False)

        # Joining a tournament: the team's name is offered as typed (the own name names the phone: see
        # the picture; Flutter leaves an unfocused field's hidden input empty, so it is not read here).
        visit(page, f"{url}beitreten")
        wait_for_text(page, "Beitrittszeile", 30_000)
        taps.type("Mannschaft oder Platz", "wö")
        page.get_by_role("button", name=f"Vorschlag {B}").wait_for(timeout=patient())
        screenshot(page, "beitreten-vorschlag.png")
        taps.tap("button", f"Vorschlag {B}")
        # Taken: the field holds the whole name now, so nothing is left to offer.
        page.get_by_role("button", name=f"Vorschlag {B}").wait_for(state="detached", timeout=patient())
        page.close()


def test_the_screen_stays_on_while_a_sheet_is_open_and_the_guide_is_in_the_app(browser: Any, tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    sheet = watten_sheet(store)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        page = with_editing_probe(browser.new_page(viewport=PHONE))
        page.add_init_script(WAKE_LOCK_PROBE)
        page.goto(url)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=patient())
        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        taps = Taps(page)
        wait_for_text(page, "Blätter auf diesem Handy", 30_000)
        assert page.evaluate("window.__wake.requests") == 0
        page.get_by_role("button", name=A, exact=False).first.click()
        wait_for_text(page, "Abschließen", 15_000)
        page.wait_for_function("window.__wake.requests >= 1", timeout=patient())
        assert page.evaluate("window.__wake") == {"requests": 1, "granted": 1, "released": 0}
        page.go_back()  # leaving the sheet lets the screen sleep again
        wait_for_text(page, "Blätter auf diesem Handy")
        page.wait_for_function("window.__wake.released === 1", timeout=patient())

        # Hilfe: the guide's chapters; the pictures named in text (the app works offline).
        taps.tap("button", "Hilfe")
        wait_for_text(page, "Anleitung", 15_000)
        screenshot(page, "hilfe.png")
        text = body_text(page)
        for chapter in ("Watten", "Schafkopf", "Schnapsen", "Doppelkopf"):
            assert chapter in text
        page.get_by_role("button", name="Ein Abend Watten", exact=False).first.click()
        wait_for_text(page, "Bild:", 10_000)
        page.close()
    assert sheet
