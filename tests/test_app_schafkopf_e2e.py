"""A whole Schafkopf Serie kept in the real app in a real browser, from the form to the Listenführer's signature.

Start the app on a fresh data directory, create the sheet through the form (a Serie of 8 games, the
option ``spiele``, so the test stays short; the flow is the real one), enter the games through the
Schafkopf panel (a Rufspiel won in 4 taps, counted), a Spritze, an unberechtigte Spritze, a Tout and
a misplay not continued among them; correct one past game, take one back, get refusals that change
nothing on disk, close and sign as the Listenführer, read Tischpunkte and Reuegeld from the page; then
restart the app process on the same data directory and find it all again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring import Entry, Participant, find_ruleset
from screens.schafkopf_draft import SchafkopfDraft
from screens.schafkopf_panel import WEITERE
from storage import SheetStore

from .browser import (
    Taps,
    body_text,
    open_page,
    patient,
    record_taps,
    require_chromium,
    screenshot,
    scroll_to,
    sheet_files,
    stand_still,
    turn_wheel,
    wait_for_line,
    wait_for_text,
    wait_gone,
)
from .walks import App, house_rules, new_sheet_at, numbers_on_top, sheet_of, walk_sizes

pytestmark = pytest.mark.browser

SERIE_FIELD = "Spiele pro Serie (ein Tisch, vier Spieler)"

PLAYERS = [("Anna Brandl", 17), ("Bernd Kiermaier", 4), ("Carla Huber", 23), ("Dieter Obermeier", 9)]
NAME = {f"p{i + 1}": name for i, (name, _) in enumerate(PLAYERS)}
KEEPER = "Carla Huber"
SPIELE = 8

B = "button"


def player(role: str, pid: str) -> tuple[str, str]:
    return (B, f"{role} {NAME[pid]}")


# The Serie as the table plays it: the taps on the panel, and the entry they must write.
GAMES: list[tuple[list[tuple[str, str]], dict[str, Any]]] = [
    (  # 1: the common game, in 4 taps
        [player("Spieler", "p1"), player("Partner", "p3"), (B, "Gewonnen")],
        {"spiel": "rufspiel", "spieler": "p1", "partner": "p3", "gewonnen": True},
    ),
    (  # 2: written wrong (lost), corrected below to won
        [player("Spieler", "p2"), player("Partner", "p4"), (B, "Verloren")],
        {"spiel": "rufspiel", "spieler": "p2", "partner": "p4", "gewonnen": False},
    ),
    (  # 3: a Herz-Solo won Schneider
        [(B, "Solo"), player("Spieler", "p3"), (B, "Herz"), (B, "Gewonnen"), (B, "Schneider")],
        {"spiel": "solo", "spieler": "p3", "farbe": "herz", "gewonnen": True, "stufe": "schneider"},
    ),
    (  # 4: a Wenz lost, the Spritze doubles it
        [(B, "Wenz"), player("Spieler", "p4"), (B, "Verloren"), player("Spritze von", "p1")],
        {"spiel": "wenz", "spieler": "p4", "gewonnen": False, "spritze": {"von": "p1"}},
    ),
    (  # 5: Schneider against a Spritze the opponents made one trick to: unberechtigt, the player says so
        [
            player("Spieler", "p1"),
            player("Partner", "p2"),
            (B, "Gewonnen"),
            (B, "Schneider"),
            player("Spritze von", "p3"),
            ("switch", "Spritze unberechtigt (Gegenpartei nur 1 Stich)"),
        ],
        {
            "spiel": "rufspiel",
            "spieler": "p1",
            "partner": "p2",
            "gewonnen": True,
            "stufe": "schneider",
            "spritze": {"von": "p3", "unberechtigt": True},
        },
    ),
    (  # 6: a Gras-Solo Tout won
        [(B, "Solo"), player("Spieler", "p2"), (B, "Gras"), ("switch", "Tout (alle Stiche angesagt)"), (B, "Gewonnen")],
        {"spiel": "solo", "spieler": "p2", "farbe": "gras", "tout": True, "gewonnen": True},
    ),
    (  # 7: Rufspiel Durch against a Spritze: schwarz, so the Spritze is unberechtigt by the tricks
        [
            player("Spieler", "p4"),
            player("Partner", "p3"),
            (B, "Gewonnen"),
            (B, "Durch"),
            player("Spritze von", "p2"),
        ],
        {"spiel": "rufspiel", "spieler": "p4", "partner": "p3", "gewonnen": True, "stufe": "schwarz", "spritze": {"von": "p2"}},
    ),
    (  # 8: a Schellen-Farbwenz; Anna plays out wrongly and the declarer does not go on: he has won simply
        [
            (B, "Farbwenz"),
            player("Spieler", "p2"),
            (B, "Schellen"),
            (B, "Weitere Angaben: Augen, Stiche, Fehler …"),
            player("Fehler von", "p1"),
            (B, "Nicht fortgesetzt"),
        ],
        {
            "spiel": "farbwenz",
            "spieler": "p2",
            "farbe": "schellen",
            "fehler": {"von": "p1", "fall": "nicht_fortgesetzt"},
        },
    ),
]
CORRECTED = (2, {"spiel": "rufspiel", "spieler": "p2", "partner": "p4", "gewonnen": True})


def expected():  # type: ignore[no-untyped-def]
    """The same Serie entered with the ruleset directly: the sheet and its score, for what the page must show."""
    ruleset = find_ruleset("schafkopf-turnier")
    sheet = ruleset.new_sheet(
        [Participant(id=pid, name=NAME[pid], seat=i + 1, start_number=PLAYERS[i][1]) for i, pid in enumerate(NAME)],
        options={"spiele": SPIELE},
    )
    games = [data for _, data in GAMES]
    games[CORRECTED[0] - 1] = CORRECTED[1]
    for data in games:
        sheet = sheet.with_entry(Entry(kind="game", data=data))
    sheet = sheet.with_entry(Entry(kind="close", data={"signed_by": KEEPER}))
    return sheet, ruleset.score(sheet)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """One app process for the module (the Serie's test restarts it once)."""
    require_chromium()
    running = App(tmp_path_factory.mktemp("schafkopf-store"), env={"TISCHBLOCK_DEVICE": "Handy Tisch 7"})
    running.start()
    yield running
    running.stop()


def stored(data_dir: Path):  # type: ignore[no-untyped-def]
    (sheet_id,) = (name.removesuffix(".json") for name in sheet_files(data_dir))
    return SheetStore(data_dir).open(sheet_id)


def settle(locator) -> None:  # type: ignore[no-untyped-def]
    """Wait until the control is there and stays where it is (``stand_still``): Flutter hit-tests the tap
    on what it drew, so a tap at a place a redraw or a scroll is still moving lands on the control beside it."""
    locator.wait_for(timeout=patient())
    stand_still(locator.page, locator, "the control", patient())


def tap(taps: Taps, role: str, name: str) -> None:
    """One counted tap, on a control that has stopped moving (``Taps.tap`` waits for that)."""
    taps.tap(role, name)


def play(taps: Taps, steps: list[tuple[str, str]]) -> None:
    """Tap the steps, each after the panel has redrawn from the previous one (rows come and go with the game type)."""
    for role, name in steps:
        tap(taps, role, name)


def typed(taps: Taps, label: str, text: str) -> None:
    """Type a value as a player does (``Taps.type``: tap the field once it stands still, type once Flutter edits it).
    The panel answers its "Augen" (the summary line, the refusal): the next tap waits for that answer."""
    taps.type(label, text, answered=label == "Augen")


def test_a_whole_serie_from_the_form_to_the_signature(browser, app: App) -> None:  # type: ignore[no-untyped-def]
    sheet, score = expected()
    data_dir = app.data_dir
    page = open_page(browser, app.url)
    taps = Taps(page)
    wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)

    # The form: four players on their drawn seats, the Listenführer, a Serie of 8 games.
    tap(taps, B, "Neues Blatt")
    tap(taps, "radio", "Schafkopf (Turnier)")
    for i, (name, number) in enumerate(PLAYERS, start=1):
        typed(taps, f"Spieler {i} (Platz {i}): Name", name)
        typed(taps, f"Spieler {i} (Platz {i}): Startnr.", str(number))
    wait_for_text(page, KEEPER + "\n", 10_000)  # the Listenführer's choice is named once his name is typed
    tap(taps, "radio", KEEPER)
    typed(taps, "Serie", "2")
    typed(taps, "Tisch", "7")
    settle(page.get_by_role(B, name=re.compile("^Hausregeln")).first)
    taps.tap(B, re.compile("^Hausregeln"), exact=False, answered=False)  # type: ignore[arg-type]
    settle(page.get_by_role("textbox", name=SERIE_FIELD, exact=True).first)
    typed(taps, SERIE_FIELD, str(SPIELE))
    # The form redraws with every value typed; the house rules stay open (they snapped shut, and a
    # redraw still under way from "Tisch" shut them under the player's finger).
    typed(taps, "Tisch", "7")
    field = page.get_by_role("textbox", name=SERIE_FIELD, exact=True).first
    field.wait_for(timeout=patient())
    assert page.get_by_role(B, name=re.compile("^Hausregeln")).first.get_attribute("aria-description") == "Expanded"
    tap(taps, B, "Blatt anlegen")
    wait_for_text(page, f"Spiel 1 von {SPIELE}, noch {SPIELE} offen", 15_000)
    assert "Es gibt: Anna Brandl" in body_text(page)  # seat 1 deals the first game (erster_geber)
    screenshot(page, "schafkopf-turnier-panel.png")

    # An incomplete game says what is missing, in the panel, and writes nothing.
    before = sheet_files(data_dir)
    tap(taps, B, "Spieler Anna Brandl")
    tap(taps, B, "Eintragen")
    wait_for_text(page, "Mit wem? Bitte den gerufenen Partner wählen", 10_000)
    assert sheet_files(data_dir) == before

    # The Serie, game by game; a Rufspiel won is 4 taps.
    for number, (steps, data) in enumerate(GAMES, start=1):
        taps.reset()
        play(taps, steps)
        if number == 5:
            text = wait_for_text(page, "Spritze von Carla Huber (unberechtigt)", 10_000)
            assert "Anna Brandl +4 · Bernd Kiermaier +4 · Carla Huber -6 · Dieter Obermeier -2" in text
            screenshot(page, "schafkopf-turnier-spritze.png")
        if number == 8:
            wait_for_text(
                page, "Schellen-Farbwenz von Bernd Kiermaier gewonnen", 10_000
            )  # the rules say who won: Anna's opponents
            screenshot(page, "schafkopf-turnier-fehler.png")
        shown = SchafkopfDraft()
        shown.load(sheet, score, "game", data)
        wait_for_text(page, shown.summary(), 10_000)  # the panel says the game as it will be entered
        if number == 7:
            # A typed Augen count that contradicts "Gewonnen" is refused with the rule's message; nothing is written.
            tap(taps, B, "Weitere Angaben: Augen, Stiche, Fehler …")
            typed(taps, "Augen", "40")
            wait_for_text(page, "(Durch), 40 Augen", 10_000)
            before = sheet_files(data_dir)
            tap(taps, B, "Eintragen")
            wait_for_text(page, "Mit 40 Augen hat die Spielpartei verloren", 10_000)
            page.mouse.move(200, 700)
            turn_wheel(page, 250)  # the message stands under the panel
            screenshot(page, "schafkopf-turnier-abgelehnt.png")
            assert sheet_files(data_dir) == before
            typed(taps, "Augen", "")
            wait_for_text(page, "Anna Brandl -3 · Bernd Kiermaier -9 · Carla Huber +6 · Dieter Obermeier +6", 10_000)
            tap(taps, B, "Weniger")
        tap(taps, B, "Eintragen")
        wait_for_line(page, f"{number}. Spiel eingetragen", 10_000)  # as the players count the games
        if number == 1:
            assert taps.count == 4, taps.count
            record_taps("schafkopf-turnier", "Rufspiel gewonnen", taps.count, 4)
        assert stored(data_dir).entries[-1].data == data
        if number == 6:
            # Taken back in one tap (a void with the trail), and entered again.
            tap(taps, B, "Letztes Spiel zurücknehmen")
            wait_for_line(page, f"{number}. Spiel zurückgenommen", 10_000)
            assert stored(data_dir).entries[-1].kind == "void"
            wait_for_text(page, f"Spiel 6 von {SPIELE}", 10_000)
            play(taps, steps)
            tap(taps, B, "Eintragen")
            wait_for_line(page, f"{number}. Spiel eingetragen", 10_000)  # the struck one is no game
            assert stored(data_dir).entries[-1].data == data

    text = wait_for_text(page, "Alle Spiele gespielt", 10_000)

    # Correct game 2: it was won, not lost; the reason and the trail go with it.
    scroll_to(page, B, re.compile(r"^2\. Spiel ")).click()
    tap(taps, B, "2. Spiel korrigieren")
    wait_for_text(page, "2. Spiel korrigieren: richtig ist", 10_000)
    assert "Rufspiel von Bernd Kiermaier mit Dieter Obermeier verloren" in body_text(page)
    typed(taps, "Grund der Änderung", "falsch aufgeschrieben")
    tap(taps, B, "Gewonnen")
    screenshot(page, "schafkopf-turnier-korrektur.png")
    tap(taps, B, "Korrektur eintragen")
    wait_for_line(page, "2. Spiel korrigiert", 10_000)
    wait_for_text(page, re.compile(r"Korrigiert am .* auf Handy Tisch 7, Grund: falsch aufgeschrieben"), 10_000)
    assert stored(data_dir).entries[-1].replacement.data == CORRECTED[1]

    # Close: only the Listenführer signs; someone else is refused and nothing is written.
    tap(taps, B, "Abschließen")
    typed(taps, "Unterschrift (Name)", "Anna Brandl")
    before = sheet_files(data_dir)
    tap(taps, B, "Abschließen und unterschreiben")
    wait_for_text(page, "Das Ergebnis bestätigt der Listenführer Carla Huber mit seiner Unterschrift", 10_000)
    assert sheet_files(data_dir) == before
    typed(taps, "Unterschrift (Name)", KEEPER)
    tap(taps, B, "Abschließen und unterschreiben")
    wait_for_text(page, "Blatt abgeschlossen", 10_000)
    on_disk = stored(data_dir)
    assert on_disk.entries[-1].kind == "close" and on_disk.entries[-1].data["signed_by"] == KEEPER
    ruleset = find_ruleset("schafkopf-turnier")
    assert ruleset.score(on_disk).totals == score.totals
    result = ruleset.result_lines(sheet, score)
    text = body_text(page)
    assert all(line in text for line in result), (result, text)
    assert "Reuegeld am Tisch: " + score.result.reuegeld_tisch in text
    assert f"Serie abgeschlossen, unterschrieben von {KEEPER}" in text
    page.mouse.move(200, 600)
    turn_wheel(page, -5000)  # up to the result, above the lines
    screenshot(page, "schafkopf-turnier-ergebnis.png")
    page.close()

    # A new app process on the same store finds it all again.
    app.restart()
    page = open_page(browser, app.url)
    row = page.get_by_role(B, name=re.compile(r"^Schafkopf \(Turnier\) · Serie 2 · Tisch 7 .* abgeschlossen$"))
    row.wait_for(timeout=patient())
    row.click()
    text = wait_for_text(page, result[0], 15_000)
    assert all(line in text for line in result)
    assert f"Serie abgeschlossen, unterschrieben von {KEEPER}" in text
    scroll_to(page, B, re.compile(r"^2\. Spiel \(korrigiert\)"))
    page.close()


WIDE = {"Anna Brandl": "Maximilian Oberhuber", "Bernd Kiermaier": "Bernadette Kiermaier", "Carla Huber": "Carla Huberbauer"}
"""The walk at 360 px and "Sehr groß" has players with longer names (Dieter Obermeier stays)."""
WIDE_PLAYERS = tuple(WIDE.get(name, name) for name, _ in PLAYERS)
LOOK_AFTER = {(1, "Gewonnen"), (3, "Solo"), (4, "Spritze von"), (5, "Spritze unberechtigt"), (6, "Tout"), (8, "Fehler von")}
"""The panel states the walk at 360 px looks at on the way (game, first words of the tap), besides each game's last tap."""


def widened(steps: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(role, re.sub("|".join(WIDE), lambda m: WIDE[m.group(0)], name)) for role, name in steps]


@pytest.mark.parametrize(("width", "size"), walk_sizes([(360, "sehr-gross")]))
def test_a_serie_of_32_games(browser, app: App, width: int, size: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: a whole Serie of 32 games as a new user walks it on a narrow phone at the largest text
    size (in the suite; at every width and size with ``TISCHBLOCK_WALK_SIZES=all``). Every panel state it passes (each game type, the Farbe, Tout, the Spritze and "unberechtigt",
    the rare details with a misplay, a refusal, the Streichung, the correction, the close) has nothing
    cut off, overlapping or under 48 px; during play and at the end the numbers on top are the ones
    that count, with their names. Games 9 to 32 are Rufspiele around the table, four taps each."""
    keeper = WIDE["Carla Huber"]
    with new_sheet_at(browser, app, width, size, "Schafkopf (Turnier)") as (page, look, taps):
        for i, name in enumerate(WIDE_PLAYERS, start=1):
            typed(taps, f"Spieler {i} (Platz {i}): Name", name)
            typed(taps, f"Spieler {i} (Platz {i}): Startnr.", str(40 + i))
        wait_for_text(page, keeper + "\n", 10_000)
        tap(taps, "radio", keeper)
        # The form offers the last sheet's house rules again (another test's 8 games): 32, said here.
        house_rules(page, page.get_by_role("textbox", name=SERIE_FIELD, exact=True))
        typed(taps, SERIE_FIELD, "32")
        look("neues Blatt")
        tap(taps, B, "Blatt anlegen")
        wait_for_text(page, "Spiel 1 von 32, noch 32 offen", 15_000)
        look("leeres Blatt")
        tap(taps, B, f"Spieler {WIDE_PLAYERS[0]}")
        tap(taps, B, "Eintragen")
        wait_for_text(page, "Mit wem? Bitte den gerufenen Partner wählen", 10_000)
        look("unvollständig")

        for number, (steps, data) in enumerate(GAMES, start=1):
            for role, name in widened(steps):
                tap(taps, role, name)
                if any(number == n and name.startswith(words) for n, words in LOOK_AFTER):
                    look(f"{number}. Spiel: {name}")
            if number == 7:  # Augen that contradict "Gewonnen": refused in the panel
                tap(taps, B, WEITERE)
                typed(taps, "Augen", "40")
                wait_for_text(page, "(Durch), 40 Augen", 10_000)
                tap(taps, B, "Eintragen")
                wait_for_text(page, "Mit 40 Augen hat die Spielpartei verloren", 10_000)
                look("7. Spiel: abgelehnt")
                typed(taps, "Augen", "")
                tap(taps, B, "Weniger")
            look(f"{number}. Spiel: fertig")
            if number == 4:  # the panel open mid-game: a Solo with its Spritze
                screenshot(page, f"schafkopf-spritze-{width}-{size}.png")
            tap(taps, B, "Eintragen")
            wait_for_line(page, f"{number}. Spiel eingetragen", 10_000)
            assert sheet_of(app.data_dir, WIDE_PLAYERS).entries[-1].data == data
            if number == 6:
                tap(taps, B, "Letztes Spiel zurücknehmen")
                wait_for_line(page, "6. Spiel zurückgenommen", 10_000)
                look("Streichung")
                play(taps, widened(steps))
                tap(taps, B, "Eintragen")
                wait_for_line(page, "6. Spiel eingetragen", 10_000)
        assert numbers_on_top(page, sheet_of(app.data_dir, WIDE_PLAYERS)) == ("Spielpunkte",)

        for number in range(len(GAMES) + 1, 33):  # the rest of the Serie: Rufspiele around the table
            spieler, partner = WIDE_PLAYERS[number % 4], WIDE_PLAYERS[(number + 1 + number // 4) % 4]
            if partner == spieler:
                partner = WIDE_PLAYERS[(number + 2) % 4]
            play(taps, [(B, f"Spieler {spieler}"), (B, f"Partner {partner}"), (B, "Gewonnen" if number % 3 else "Verloren")])
            tap(taps, B, "Eintragen")
            wait_for_line(page, f"{number}. Spiel eingetragen", 10_000)
        wait_for_text(page, "Alle Spiele gespielt", 10_000)
        labels = numbers_on_top(page, sheet_of(app.data_dir, WIDE_PLAYERS))
        assert labels == ("Ergebnis (vorläufig)", "Spielpunkte"), labels
        look("alle Spiele gespielt")

        scroll_to(page, B, re.compile(r"^2\. Spiel ")).click()
        tap(taps, B, "2. Spiel korrigieren")
        wait_for_text(page, "2. Spiel korrigieren: richtig ist", 10_000)
        typed(taps, "Grund der Änderung", "falsch aufgeschrieben")
        tap(taps, B, "Gewonnen")
        look("Korrektur")
        tap(taps, B, "Korrektur eintragen")
        wait_for_line(page, "2. Spiel korrigiert", 10_000)

        tap(taps, B, "Abschließen")
        typed(taps, "Unterschrift (Name)", keeper)
        look("abschließen")
        tap(taps, B, "Abschließen und unterschreiben")
        wait_for_text(page, f"Serie abgeschlossen, unterschrieben von {keeper}", 10_000)
        wait_gone(page, "textbox", "Unterschrift (Name)")  # not a look at the close form and the sheet at once
        wait_gone(page, "button", "Abschließen und unterschreiben")
        look("Ergebnis", scrolls=True)  # the whole sheet under the result: longer than the screen
        screenshot(page, f"schafkopf-ergebnis-{width}-{size}.png")
        sheet = sheet_of(app.data_dir, WIDE_PLAYERS)
        assert sheet.entries[-1].kind == "close" and sheet.entries[-1].data["signed_by"] == keeper
        assert len([e for e in sheet.entries if e.kind == "game"]) == 33  # 32 and the one taken back
        assert numbers_on_top(page, sheet) == ("Ergebnis", "Spielpunkte")
