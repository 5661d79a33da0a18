"""A Doppelkopf Runde at a 5-player table kept in the real app in a real browser, form to signature.

``doppelkopf-turnier``: the 20 games of a Runde (the ruleset closes a Runde only after its 20 games
and every player's Pflichtsolo), five Pflichtsoli among them and a Strafe, entered through the panel
with the taps counted; one past game corrected, one taken back and entered again, a refused entry
(nothing changes on disk), closed and signed. ``doppelkopf-haus``: a short evening at a 4-player
table with Schmeißen, Armut and Schwein, closed early with the Turnierleitung's note. Then a new app
process on the same data directory finds both again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scoring import Entry, Participant, Sheet, find_ruleset
from storage import SheetStore

from .browser import (
    TEXT_POLL_MS,
    Taps,
    body_text,
    next_frame,
    open_page,
    patient,
    record_taps,
    running_app,
    screenshot,
    scroll_to,
    sheet_files,
    stand_still,
    turn_wheel,
    type_into,
    wait_for_control,
    wait_for_line,
    wait_for_text,
    wait_until,
)

pytestmark = pytest.mark.browser

NAMES = ("Anna", "Bert", "Carla", "Dieter", "Emil")


@dataclass(frozen=True)
class Game:
    """One game as the table calls it, and the data the panel must write for it."""

    re: tuple[str, ...]
    augen: int
    typ: str = "normal"
    ansagen: tuple[str, ...] = ()
    """Chips tapped under "Ansagen": "Re", "Kontra"."""
    sonder: tuple[str, ...] = ()
    """Sonderpunkte chips tapped, e.g. "Re: Fuchs"."""
    extra: tuple[str, ...] = ()
    """Other chips tapped (Farbe, Schwein), by accessible name."""
    data: dict[str, Any] = field(default_factory=dict)


def g(re_: str, augen: int, **kw: Any) -> Game:
    return Game(re=tuple(re_.split("+")), augen=augen, **kw)


# doppelkopf-turnier, 5 players: game n's dealer sits out (Anna, Bert, Carla, Dieter, Emil, Anna, ...).
TURNIER: list[Game] = [
    g("Bert+Carla", 139, ansagen=("Re",)),  # 1 Anna sits out; the typical game, taps counted
    g("Anna", 150, typ="damensolo"),  # 2 Pflichtsolo Anna
    g("Anna+Dieter", 100, ansagen=("Kontra",), sonder=("Kontra: Fuchs",)),  # 3 (corrected later)
    g("Carla", 130, typ="bubensolo", ansagen=("Re",)),  # 4 Pflichtsolo Carla
    g("Bert+Dieter", 160, ansagen=("Re",), sonder=("Re: Doppelkopf",)),  # 5
    g("Dieter", 125, typ="trumpfsolo"),  # 6 Pflichtsolo Dieter
    g("Anna+Carla", 121),  # 7
    g("Emil", 140, typ="fleischloser"),  # 8 Pflichtsolo Emil
    g("Bert", 135, typ="farbsolo", extra=("Trumpf Pik",)),  # 9 Pflichtsolo Bert
    g("Anna+Bert", 118),  # 10
    g("Carla+Emil", 131, ansagen=("Re",)),  # 11
    g("Dieter+Emil", 95),  # 12
    g("Anna+Emil", 127, sonder=("Re: Karlchen",)),  # 13
    g("Anna+Carla", 150, ansagen=("Re", "Kontra")),  # 14
    g("Anna+Carla", 122),  # 15
    g("Bert+Emil", 110),  # 16
    g("Anna+Dieter", 140, ansagen=("Re",)),  # 17
    g("Bert+Emil", 99),  # 18
    g("Carla+Emil", 133),  # 19
    g("Anna+Bert", 128),  # 20 (taken back and entered again as 20')
]
REDO = g("Anna+Bert", 136, ansagen=("Re",))
STRAFE_AFTER = 10
"""After game 10 Dieter gets a Strafe (falsch bedient, the game is repeated): no game, the dealer stays."""
CORRECTED = 3
"""Game 3: the Augen were 110, not 100."""


def pid(name: str) -> str:
    return f"p{NAMES.index(name) + 1}"


def game_data(game: Game) -> dict[str, Any]:
    """The entry the panel writes for ``game`` (what the ruleset scores directly for the comparison)."""
    data: dict[str, Any] = {}
    if game.typ != "normal":
        data["typ"] = game.typ
    if "Trumpf Pik" in game.extra:
        data["farbe"] = "pik"
    data["re"] = [pid(n) for n in game.re]
    data["augen"] = game.augen
    ansagen = {s.lower(): {"ansage": True} for s in game.ansagen}
    if ansagen:
        data["ansagen"] = ansagen
    sonder: dict[str, dict[str, int]] = {}
    for chip in game.sonder:
        side, what = chip.split(": ")
        sonder.setdefault(side.lower(), {})[what.lower()] = 1
    if sonder:
        data["sonderpunkte"] = sonder
    return data


def expected_turnier() -> Sheet:
    """The same Runde written directly, as the ruleset scores it."""
    ruleset = find_ruleset("doppelkopf-turnier")
    sheet = ruleset.new_sheet([Participant(id=pid(n), name=n, seat=i) for i, n in enumerate(NAMES, start=1)])
    games = [*TURNIER[:-1], REDO]
    for number, game in enumerate(games, start=1):
        data = game_data(game)
        if number == CORRECTED:
            data = {**data, "augen": 110}
        sheet = sheet.with_entry(Entry(kind="game", data=data))
        if number == STRAFE_AFTER:
            sheet = sheet.with_entry(
                Entry(kind="strafe", data={"spieler": "p4", "grund": "falsch bedient", "spiel": "wiederholt"})
            )
    return sheet


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("doppelkopf-store")


def summary(page) -> str:  # type: ignore[no-untyped-def]
    """The panel's "Gewählt: ..." line: what the taps so far make."""
    return next((line for line in body_text(page).splitlines() if line.startswith("Gewählt: ")), "")


def settle(page, before: str | None, name: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the app has answered the tap: the "Gewählt" line changed (a lost tap fails the test)."""
    if before is None:
        next_frame(page)
        return
    wait_until(
        page,
        lambda: summary(page) != before,
        f"the panel showing the tap on {name!r} (it showed {before!r})",
        poll_ms=TEXT_POLL_MS,
    )


def tap(taps: Taps, role: str, name: str, *, changes: bool = True) -> None:
    """A counted tap; waits for the panel to show its effect."""
    before = summary(taps.page) if changes else None
    taps.tap(role, name)
    settle(taps.page, before, name)


def type_in(taps: Taps, label: str, text: str) -> None:
    """One value typed (counted once); waits for the panel to show what it makes."""
    before = summary(taps.page)
    taps.type(label, text)
    settle(taps.page, before, label)


def to_top(page) -> None:  # type: ignore[no-untyped-def]
    """Scroll the sheet back to the panel's first row, as a player does before the next game."""
    page.mouse.move(200, 600)
    turn_wheel(page, -4000)
    next_frame(page)


def click(page, name: str, *, changes: bool = False) -> None:  # type: ignore[no-untyped-def]
    """A tap that is not counted (the test's own moves: opening a line, signing)."""
    before = summary(page) if changes else None
    button = page.get_by_role("button", name=name, exact=True).first
    stand_still(page, button, name, patient())
    button.click()
    settle(page, before, name)


def fill(page, label: str, text: str, *, changes: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Type into a field, not counted (``type_into``); with ``changes``, wait for the panel to show it."""
    before = summary(page) if changes else None
    type_into(page, label, text)
    if before is not None:
        settle(page, before, label)


def enter(taps: Taps, game: Game) -> None:
    """Tap one game into the panel: type, Re players, Ansagen, Sonderpunkte, Augen, Eintragen."""
    to_top(taps.page)
    if game.typ not in ("normal", "hochzeit"):
        tap(taps, "button", "Solo, stille Hochzeit …", changes=False)
    if game.typ != "normal":
        tap(taps, "button", TYPE_CHIP[game.typ])
    for chip in game.extra:
        tap(taps, "button", chip)
    for name in game.re:
        tap(taps, "button", f"Re: {name}")
    for call in game.ansagen:
        tap(taps, "button", call)
    for chip in game.sonder:
        tap(taps, "button", chip)
    type_in(taps, "Augen Re", str(game.augen))
    tap(taps, "button", "Eintragen", changes=False)


TYPE_CHIP = {
    "damensolo": "Damensolo",
    "bubensolo": "Bubensolo",
    "trumpfsolo": "Trumpfsolo",
    "fleischloser": "Fleischloser",
    "farbsolo": "Farbsolo",
    "armut": "Armut",
    "hochzeit": "Hochzeit",
}


def new_sheet(taps: Taps, ruleset: str, players: tuple[str, ...], round_: str, table: str) -> None:
    taps.tap("button", "Neues Blatt")
    taps.tap("radio", ruleset)
    taps.tap("radio", f"{len(players)} Spieler")
    for i, name in enumerate(players, start=1):
        taps.type(f"Spieler {i} (Platz {i}): Name", name)
    taps.type("Runde", round_)
    taps.type("Tisch", table)
    taps.tap("button", "Blatt anlegen")


def test_a_doppelkopf_runde_at_a_five_player_table_and_a_house_rules_evening(browser, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir), "TISCHBLOCK_DEVICE": "Handy Tisch 2"}) as url:
        page = open_page(browser, url)
        taps = Taps(page)
        wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)
        new_sheet(taps, "Doppelkopf (Turnier)", NAMES, "1", "2")
        wait_for_text(page, "Spiel 1 von 20, noch 20 Spiele", 15_000)
        text = wait_for_text(page, "Anna gibt und sitzt aus")
        assert "Pflichtsolo offen: Anna, Bert, Carla, Dieter, Emil" in text
        assert page.get_by_role("button", name="Re: Anna").count() == 0  # the sitting player is not offered
        screenshot(page, "doppelkopf-turnier-panel.png")

        # An incomplete game says what is missing, in the panel, and saves nothing.
        before = sheet_files(data_dir)
        click(page, "Re: Bert", changes=True)
        click(page, "Eintragen")
        wait_for_text(page, "Wähle die zwei Re-Spieler.", 10_000)
        assert sheet_files(data_dir) == before
        click(page, "Re: Bert", changes=True)

        for number, game in enumerate(TURNIER, start=1):
            taps.reset()
            enter(taps, game)
            wait_for_line(page, f"{number}. Spiel eingetragen", 10_000)  # as players count games
            if number == 1:
                record_taps("doppelkopf-turnier", "Normalspiel mit Re-Ansage", taps.count, 6)
                assert taps.count <= 6
            if number == STRAFE_AFTER:
                click(page, "Strafe, Schmeißen, Geber …")
                click(page, "Eintrag: Strafe", changes=True)
                click(page, "Strafe: Dieter", changes=True)
                fill(page, "Grund der Strafe", "falsch bedient")
                click(page, "Spiel wiederholt", changes=True)
                screenshot(page, "doppelkopf-turnier-strafe.png")
                click(page, "Eintragen")
                wait_for_line(page, f"Strafe nach dem {number}. Spiel eingetragen", 10_000)  # no game (Regel 24)
            if number == 8:
                wait_for_text(page, "Pflichtsolo offen: Bert", 10_000)
            if number == 19:
                # A refused entry: the rule's message next to the panel, the file unchanged.
                before = sheet_files(data_dir)
                click(page, "Re: Anna", changes=True)
                click(page, "Re: Bert", changes=True)
                fill(page, "Augen Re", "241", changes=True)
                click(page, "Eintragen")
                wait_for_text(page, "Augen: höchstens 240, nicht 241", 10_000)
                screenshot(page, "doppelkopf-turnier-abgelehnt.png")
                assert sheet_files(data_dir) == before
                fill(page, "Augen Re", "", changes=True)
                click(page, "Re: Anna", changes=True)
                click(page, "Re: Bert", changes=True)
        wait_for_text(page, "Runde beendet: 20 Spiele", 10_000)
        assert "Alle Pflichtsoli gespielt" in body_text(page)

        # Take the last game back (a void, with the trail) and enter it again with the right Augen.
        click(page, "Letztes Spiel zurücknehmen")
        wait_for_line(page, "20. Spiel zurückgenommen", 10_000)
        wait_for_text(page, "Spiel 20 von 20, noch 1 Spiel")
        enter(taps, REDO)
        wait_for_text(page, "Runde beendet: 20 Spiele", 10_000)

        # Correct game 3: the Augen were 110; the panel loads it as it was, at its table (Carla sat out).
        scroll_to(page, "button", re.compile(rf"^{CORRECTED}\. Spiel ")).click()
        click(page, f"{CORRECTED}. Spiel korrigieren")
        wait_for_text(page, f"{CORRECTED}. Spiel korrigieren oder streichen", 10_000)
        wait_for_text(page, "Carla gibt und sitzt aus")
        fill(page, "Grund der Änderung", "Augen falsch gezählt")
        fill(page, "Augen Re", "110", changes=True)
        screenshot(page, "doppelkopf-turnier-korrektur.png")
        click(page, "Korrektur eintragen")
        wait_for_line(page, f"{CORRECTED}. Spiel korrigiert", 10_000)
        wait_for_text(page, re.compile(r"Korrigiert am .* auf Handy Tisch 2, Grund: Augen falsch gezählt"))

        (sheet_id,) = (name.removesuffix(".json") for name in sheet_files(data_dir))
        stored = SheetStore(data_dir).open(sheet_id)
        ruleset = find_ruleset("doppelkopf-turnier")
        expected = ruleset.score(expected_turnier())
        assert ruleset.score(stored).totals == expected.totals

        # Close and sign: the Runde's points as the ruleset computes them.
        click(page, "Abschließen")
        fill(page, "Unterschrift (Name)", "Anna Huber")
        click(page, "Abschließen und unterschreiben")
        wait_for_control(page, "button", "Ergebnis")
        stored = SheetStore(data_dir).open(sheet_id)
        assert stored.entries[-1].kind == "close" and stored.entries[-1].data["signed_by"] == "Anna Huber"
        result = ruleset.result_lines(stored, ruleset.score(stored))
        text = wait_for_text(page, result[1], 10_000)
        assert all(line in text for line in result), (result, text)
        screenshot(page, "doppelkopf-turnier-ergebnis.png")
        page.close()

        # The house rules at a 4-player table: Schmeißen, Armut with a Schwein, a Verwerfen; closed early.
        page = open_page(browser, url)
        taps = Taps(page)
        taps.tap("button", "Neues Blatt")
        haus_names = ("Franz", "Gitti", "Hans", "Ilse")
        new_sheet_haus = ("Doppelkopf (Hausregeln)", haus_names)
        taps.tap("radio", new_sheet_haus[0])
        for i, name in enumerate(haus_names, start=1):
            taps.type(f"Spieler {i} (Platz {i}): Name", name)
        taps.tap("button", "Blatt anlegen")
        wait_for_text(page, "Spiel 1 von 16", 15_000)
        wait_for_text(page, "Franz gibt")
        click(page, "Strafe, Schmeißen, Geber …")
        click(page, "Eintrag: Schmeißen", changes=True)
        click(page, "Schmeißt: Hans", changes=True)
        click(page, "Eintragen")
        wait_for_line(page, "Schmeißen vor dem 1. Spiel eingetragen", 10_000)
        tap(taps, "button", "Solo, stille Hochzeit …", changes=False)
        tap(taps, "button", "Armut")
        tap(taps, "button", "Schwein")
        for name in ("Gitti", "Ilse"):
            tap(taps, "button", f"Re: {name}")
        tap(taps, "button", "Kontra: Fuchs")
        type_in(taps, "Augen Re", "100")
        screenshot(page, "doppelkopf-haus-panel.png")
        tap(taps, "button", "Eintragen", changes=False)
        wait_for_line(page, "1. Spiel eingetragen", 10_000)  # the Schmeißen is no game
        haus_game = Game(re=("Franz", "Hans"), augen=135, ansagen=("Re",), sonder=("Re: Karlchen",))
        enter(taps, haus_game)
        wait_for_line(page, "2. Spiel eingetragen", 10_000)
        click(page, "Strafe, Schmeißen, Geber …")
        click(page, "Eintrag: Strafe", changes=True)
        click(page, "Strafe: Ilse", changes=True)
        click(page, "Eintragen")
        wait_for_text(page, "3. Strafe eingetragen", 10_000)  # Hausregel 2: it ends the game
        wait_for_text(page, "Spiel 4 von 16")  # Hausregel 2: the Verwerfen ends the game and counts as one
        click(page, "Abschließen")
        fill(page, "Vermerk der Turnierleitung", "Saal schließt, K. Meier")
        fill(page, "Unterschrift (Name)", "Franz Wagner")
        click(page, "Abschließen und unterschreiben")
        wait_for_control(page, "button", "Ergebnis")
        (haus_id,) = (name.removesuffix(".json") for name in sheet_files(data_dir) if name.removesuffix(".json") != sheet_id)
        haus_sheet = SheetStore(data_dir).open(haus_id)
        haus = find_ruleset("doppelkopf-haus")
        haus_result = haus.result_lines(haus_sheet, haus.score(haus_sheet))
        text = wait_for_text(page, haus_result[1], 10_000)
        assert all(line in text for line in haus_result), (haus_result, text)
        assert [e.kind for e in haus_sheet.entries] == ["schmeissen", "game", "game", "strafe", "close"]
        assert haus_sheet.entries[1].data == {
            "typ": "armut",
            "re": ["p2", "p4"],
            "augen": 100,
            "schwein": True,
            "sonderpunkte": {"kontra": {"fuchs": 1}},
        }
        page.close()

    # A new app process on the same store finds both sheets again, closed, with their results.
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data_dir)}) as url:
        page = open_page(browser, url)
        row = page.get_by_role("button", name=re.compile(r"^Doppelkopf \(Turnier\) · Runde 1 · Tisch 2 .* abgeschlossen$"))
        row.wait_for(timeout=patient())
        row.click()
        text = wait_for_text(page, result[1], 15_000)
        assert f"{CORRECTED}. Spiel (korrigiert)" in text
        assert all(line in text for line in result)
        page.close()
