"""A whole Watten Durchgang kept in the real app in a real browser, from the form to the signature.

The model for every ruleset's end-to-end test: start the app on a fresh data directory, create the
sheet through the form (a bad form first: it creates nothing), enter the games through the entry
panel counting the taps, correct one past game, take one back, get one refusal (nothing changes on
disk), close and sign, read totals, status and result from the page; then restart the app process
on the same data directory and find it all again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring import Entry, Participant, find_ruleset
from storage import SheetStore

from .browser import (
    Taps,
    body_text,
    enable_semantics,
    open_page,
    patient,
    record_taps,
    running_app,
    screenshot,
    scroll_to,
    sheet_files,
    wait_for_control,
    wait_for_line,
    wait_for_text,
    wait_until,
)

pytestmark = pytest.mark.browser

A, B = "Die Sautreiber", "Kartlbrüder Wörgl"
# A Durchgang as a table plays it: (team, value) per game; "gehen" where a gspannt team goes.
GAMES: list[tuple[str, str | int]] = [
    ("A", 2),
    ("B", 3),
    ("A", 4),
    ("A", 3),
    ("B", 2),
    ("A", 2),  # A 11 : B 5
    ("A", 2),  # A 13: gspannt
    ("B", 3),  # against gspannt A only +3 is offered
    ("A", "gehen"),  # A goes: B gets 2 -> 13:10
    ("A", 2),  # A 15: Bummerl 1 to A
    ("B", 4),
    ("B", 4),
    ("A", 2),
    ("B", 4),
    ("B", 3),  # B 15: Bummerl 2 to B
    ("A", 4),
    ("A", 4),
    ("B", 2),
    ("A", 4),
    ("A", 3),  # A 15: Bummerl 3 to A
]


def label(team: str, value: str | int) -> str:
    name = A if team == "A" else B
    return f"{name} geht" if value == "gehen" else f"+{value} für {name}"


def expected_score():  # type: ignore[no-untyped-def]
    """The same Durchgang scored by the ruleset directly, for what the page must show."""
    ruleset = find_ruleset("watten-turnier")
    sheet = ruleset.new_sheet([Participant(id="A", name=A, start_number=7), Participant(id="B", name=B, start_number=12)])
    for team, value in GAMES:
        entry = (
            Entry(kind="gehen", data={"team": team})
            if value == "gehen"
            else Entry(kind="game", data={"winner": team, "value": value})
        )
        sheet = sheet.with_entry(entry)
    return ruleset.score(sheet)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("watten-store")








def test_a_whole_durchgang_from_the_form_to_the_signature(browser, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir), "TISCHBLOCK_DEVICE": "Handy Tisch 4"}) as url:
        page = open_page(browser, url)
        taps = Taps(page)
        wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)
        screenshot(page, "start-leer.png")

        # The form: a bad one is marked next to its fields and creates nothing.
        taps.tap("button", "Neues Blatt")
        taps.tap("radio", "Watten (Turnier)")
        taps.type("Mannschaft 1: Name", A)
        taps.type("Mannschaft 1: Startnr.", "sieben")
        taps.tap("button", "Blatt anlegen")
        wait_for_text(page, "Name der Mannschaft fehlt.", 10_000)
        assert "Startnummer: bitte eine ganze Zahl eingeben, nicht „sieben“." in body_text(page)
        screenshot(page, "neues-blatt-fehler.png")
        assert sheet_files(data_dir) == {}
        taps.type("Mannschaft 1: Startnr.", "7")
        taps.type("Mannschaft 2: Name", B)
        taps.type("Mannschaft 2: Startnr.", "12")
        taps.type("Durchgang", "1")
        taps.type("Tisch", "4")
        taps.tap("button", "Blatt anlegen")
        wait_for_text(page, "Bummerl 1 von 3, Stand 0:0", 15_000)
        assert len(sheet_files(data_dir)) == 1
        assert "Es gibt: Kartlbrüder Wörgl" in body_text(page)  # Regel 3: the higher Startnummer deals first

        # Every game is one tap; against a gspannt team only +3 is offered (Regel 8).
        per_game = []
        for number, (team, value) in enumerate(GAMES, start=1):
            taps.reset()
            if value == "gehen":
                taps.tap("button", "Gehen, Vergeben, Bscheißn, Zeitlimit …")
            taps.tap("button", label(team, value))
            wait_for_text(page, re.compile(rf"^{number}\. (Spiel|Gehen) eingetragen$", re.MULTILINE), 10_000)
            per_game.append(taps.reset())
            if number == 7:
                text = body_text(page)
                assert "Die Sautreiber ist gspannt" in text
                assert f"+3 für {B}" in text and f"+2 für {B}" not in text and f"+4 für {B}" not in text
                screenshot(page, "watten-gspannt.png")
            if number == 8:
                page.get_by_role("button", name="Gehen, Vergeben, Bscheißn, Zeitlimit …").click()
                page.get_by_role("button", name=f"{A} geht").wait_for(timeout=patient())
                screenshot(page, "watten-seltene-ereignisse.png")
                page.get_by_role("button", name="Weniger").click()
        assert per_game.count(1) == len(GAMES) - 1 and per_game[GAMES.index(("A", "gehen"))] == 2
        record_taps("watten-turnier", "Spiel (gewonnen, +2 bis +4)", 1, 1)
        wait_for_text(page, "Durchgang beendet", 10_000)
        expected = expected_score()
        text = body_text(page)
        assert "Bummerl gewonnen: Die Sautreiber 2 · Kartlbrüder Wörgl 1" in text
        wertung = {t: r.points for t, r in expected.result.teams.items()}  # type: ignore[attr-defined]
        # the big numbers: the Wertung that ranks (Regel 12), named; not the points written
        assert f"Wertung (Punkte)\n{wertung['A']}\n{wertung['B']}\n{A}\n{B}\n" in text, text

        # Correct a past game (game 2 was +2, not +3), with a reason; the trail shows on the line.
        scroll_to(page, "button", re.compile(r"^2\. Spiel ")).click()
        taps.reset()
        taps.tap("button", "2. Spiel korrigieren")
        taps.type("Grund der Änderung", "falsch aufgeschrieben")
        taps.tap("button", f"+2 für {B}")
        wait_for_line(page, "2. Spiel korrigiert", 10_000)
        # The corrected line stays open and shows its trail.
        wait_for_text(
            page, re.compile(r"Korrigiert am .* auf Handy Tisch 4, Grund: falsch aufgeschrieben"), 10_000
        )
        screenshot(page, "watten-korrektur.png")

        # A correction the later games do not allow is refused with the rule's message; nothing changes.
        scroll_to(page, "button", re.compile(r"^7\. Spiel ")).click()
        page.get_by_role("button", name="7. Spiel korrigieren").click()
        taps.type("Grund der Änderung", "Test")
        before = sheet_files(data_dir)
        page.get_by_role("button", name=f"+2 für {B}").click()
        wait_for_text(page, re.compile(r"Regel 8 \(gspannt\): Gehen darf nur eine gspannte Mannschaft"), 10_000)
        screenshot(page, "watten-abgelehnt.png")
        assert sheet_files(data_dir) == before
        page.get_by_role("button", name="Abbrechen").click()
        wait_until(page, lambda: "Regel 8 (gspannt)" not in body_text(page), "the refusal goes with Abbrechen")

        # Sign: the result as the ruleset computes it; no refusal of the panel follows the player here.
        page.get_by_role("button", name="Abschließen").click()
        taps.type("Unterschrift (Name)", "Sepp Huber")
        assert "Regel 8" not in body_text(page)
        screenshot(page, "watten-abschluss.png")
        page.get_by_role("button", name="Abschließen und unterschreiben").click()
        wait_for_control(page, "button", "Ergebnis")
        wait_for_text(page, "Blatt abgeschlossen", 10_000)
        (sheet_id,) = (name.removesuffix(".json") for name in sheet_files(data_dir))
        stored = SheetStore(data_dir).open(sheet_id)
        assert stored.entries[-1].kind == "close" and stored.entries[-1].data["signed_by"] == "Sepp Huber"
        result = find_ruleset("watten-turnier").result_lines(stored, find_ruleset("watten-turnier").score(stored))
        text = body_text(page)
        assert all(line in text for line in result), (result, text)
        assert f"Summe: {A} 2 Bummerl" in text
        screenshot(page, "watten-ergebnis.png")
        page.close()

    # A new app process on the same store finds it all again.
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        row = page.get_by_role("button", name=re.compile(r"^Watten \(Turnier\) · Durchgang 1 · Tisch 4 .* abgeschlossen$"))
        row.wait_for(timeout=patient())
        screenshot(page, "start.png")
        row.click()
        wait_for_control(page, "button", "Ergebnis")
        wait_for_text(page, "Bummerl gewonnen: Die Sautreiber 2 · Kartlbrüder Wörgl 1", 15_000)
        text = body_text(page)
        assert "2. Spiel (korrigiert)" in text and "Ergebnis" in text
        assert all(line in text for line in result)
        page.close()


def test_two_windows_and_a_reload_lose_nothing(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Two windows on one store write one sheet in turn; the stale one adds to what the other wrote,
    and reloading the page comes back to the same sheet with both games.

    Window one is away (reloading) while window two writes: Flet does not draw for a window that is
    away, so the game written meanwhile must be drawn when it comes back (``Session.reconnected``)."""
    store = SheetStore(tmp_path)
    sheet = store.new_sheet("watten-turnier", [Participant(id="A", name=A), Participant(id="B", name=B)])
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        one = open_page(browser, f"{url}blatt/{sheet.id}")
        two = open_page(browser, f"{url}blatt/{sheet.id}")
        for page in (one, two):
            wait_for_text(page, "Bummerl 1 von 3, Stand 0:0", 30_000)
        one.bring_to_front()  # a background tab gets no animation frames: Flutter would not see the tap
        one.get_by_role("button", name=f"+2 für {A}").click()
        wait_for_text(one, "Stand 2:0")
        wait_for_text(two, "Stand 2:0")  # the other window's game shows up here by itself
        one.goto("about:blank")  # window one is away; its session waits for it
        two.bring_to_front()
        two.get_by_role("button", name=f"+3 für {B}").click()
        wait_for_text(two, "Stand 2:3")
        wait_until(two, lambda: len(SheetStore(tmp_path).open(sheet.id).entries) == 2, "the second game stored")
        one.bring_to_front()
        one.goto(f"{url}blatt/{sheet.id}")
        enable_semantics(one)
        wait_for_text(one, "Bummerl 1 von 3", 30_000)
        one.reload()
        enable_semantics(one)
        text = wait_for_text(one, "Stand 2:3", 30_000)
        assert "1. Spiel" in text and "2. Spiel" in text
        assert [e.data for e in SheetStore(tmp_path).open(sheet.id).entries] == [
            {"winner": "A", "value": 2},
            {"winner": "B", "value": 3},
        ]
        one.close()
        two.close()
