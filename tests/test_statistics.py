"""Statistics across sheets (``scoring/statistics.py``) against numbers worked out by hand from the example sheets."""

from __future__ import annotations

from datetime import date

import pytest

from scoring import Entry, Sheet
from scoring.statistics import DatedSheet, Filter, TypeCount, statistics
from screens.statistics_screen import row_lines

from .test_course import DATA, EXAMPLES, sheet_of


def dated(path, day: date = date(2026, 11, 21)) -> DatedSheet:  # type: ignore[no-untyped-def]
    return DatedSheet(sheet_of(path), day)


def test_watten_regel_12_example_by_hand() -> None:
    """A 4, B 3, A 5, B 5, A 4, A 2: A wins 4 games (15 points) and the Bummerl, B 2 games (8)."""
    stats = statistics([dated(DATA / "watten-turnier" / "regel-12-beispiel.json")])
    assert stats.sheets == 1
    a, b = stats.row("Sautreiber").figures, stats.row("Kartlbrüder").figures
    assert (a.games, a.won, a.points, a.bummerl_won, a.bummerl_lost) == (6, 4, 15, 1, 0)
    assert (b.games, b.won, b.points, b.bummerl_won, b.bummerl_lost) == (6, 2, 8, 0, 1)
    assert a.best is not None and (a.best.points, a.best.entry) == (5, 3)
    assert a.worst is not None and (a.worst.points, a.worst.entry) == (0, 2)
    assert b.best is not None and (b.best.points, b.best.entry, b.best.text) == (
        5,
        4,
        "Kartlbrüder gewinnt das Spiel zu 5, 3x ausgeschafft",
    )
    assert a.schneider == b.schneider == 0 and a.types == {} and a.solos == TypeCount()


def test_talonschnapsen_bummerl_and_schneider() -> None:
    """Bummerl 1 to Hans (Gerti loses), 2 to Franz (Hans loses), 3 ends 24:24:0 (Hans Schneider)."""
    stats = statistics([dated(EXAMPLES / "talonschnapsen.json")])
    f, g, h = (stats.row(n).figures for n in ("Franz Huemer", "Gerti Stadler", "Hans Pichler"))
    assert [(x.bummerl_won, x.bummerl_lost, x.schneider) for x in (f, g, h)] == [(2, 0, 0), (1, 1, 0), (1, 2, 1)]
    assert [x.games for x in (f, g, h)] == [11, 11, 11]


def test_schafkopf_games_by_type_with_the_share_won() -> None:
    """Anna Brandl (p1) declares Rufspiele in entries 1, 10, 13, 18 (lost), 22 (70 Augen), 26: 6, 5 won;
    the Wenz of entry 5 (corrected by 6, still won); the Eichel-Solo of entry 30, won."""
    stats = statistics([dated(EXAMPLES / "schafkopf-turnier.json")])
    anna = stats.row("Anna Brandl").figures
    assert anna.types == {
        "Rufspiel": TypeCount(played=6, won=5),
        "Solo": TypeCount(played=1, won=1),
        "Wenz": TypeCount(played=1, won=1),
    }
    assert anna.types["Rufspiel"].share == pytest.approx(5 / 6)
    assert (anna.games, anna.points) == (32, -3)
    assert stats.row("Dieter Obermeier").figures.types["Wenz Tout"] == TypeCount(played=1, won=1)


def test_doppelkopf_solos() -> None:
    """Solos: Carla Bubensolo (3) and another (15), Anna Damensolo (7), Dieter Trumpfsolo (10), Bert
    Fleischloser (12) corrected to 119 Augen, lost; the stille Hochzeit (9) is no solo."""
    stats = statistics([dated(EXAMPLES / "doppelkopf-turnier.json")])
    solos = {r.name: r.figures.solos for r in stats.rows}
    assert solos["Carla Nowak"].played == 2
    assert solos["Anna Huber"] == TypeCount(played=1, won=1)
    assert solos["Bert Krause"] == TypeCount(played=1, won=0)
    assert solos["Dieter Schulz"].played == 1
    assert [r.figures.points for r in stats.rows] == [35, 25, -29, -31]


def test_five_player_doppelkopf_counts_the_games_a_player_took_part_in() -> None:
    """20 games at a five-player table: each player sits out 4 and plays 16 (the ruleset's count)."""
    stats = statistics([dated(EXAMPLES / "doppelkopf-haus.json")])
    assert [r.figures.games for r in stats.rows] == [16] * 5
    assert all(r.figures.worst is None or r.figures.worst.points != 0 for r in stats.rows)


def test_same_name_on_two_sheets_adds_up_and_filters_choose_sheets() -> None:
    """Anna Huber plays the tournament (+35, 16 games) on the 21st and at home (-21, 16) on the 22nd."""
    items = [
        dated(EXAMPLES / "doppelkopf-turnier.json", date(2026, 11, 21)),
        dated(EXAMPLES / "doppelkopf-haus.json", date(2026, 11, 22)),
    ]
    both = statistics(items).row("Anna Huber").figures
    assert (both.sheets, both.games, both.points) == (2, 32, 35 - 21)
    assert both.best is not None and both.best.points == 20
    assert both.solos.played == 1 + 2
    only_21 = statistics(items, Filter(until=date(2026, 11, 21))).row("Anna Huber").figures
    assert (only_21.sheets, only_21.points) == (1, 35)
    only_home = statistics(items, Filter(rulesets=frozenset({"doppelkopf-haus"}))).row("Anna Huber").figures
    assert (only_home.sheets, only_home.points) == (1, -21)
    assert statistics(items, Filter(since=date(2026, 11, 23))).rows == ()


def test_a_refused_sheet_is_named_and_counted_nowhere() -> None:
    sheet: Sheet = sheet_of(DATA / "watten-turnier" / "regel-12-beispiel.json")
    broken = sheet.with_entry(Entry(kind="game", data={"winner": "Z"}))
    stats = statistics([DatedSheet(broken, date(2026, 11, 21))])
    assert stats.sheets == 0 and stats.rows == ()
    assert len(stats.refused) == 1 and "7. Spiel" in stats.refused[0]


def test_the_startnummer_shown_is_the_newest_sheets_in_any_order() -> None:
    """Issue 22: a team's Startnummer came from its oldest sheet; the newest one counts."""

    def numbered(day: date, number: int) -> DatedSheet:
        item = dated(EXAMPLES / "doppelkopf-turnier.json", day)
        people = tuple(
            p.model_copy(update={"start_number": number}) if p.name == "Anna Huber" else p for p in item.sheet.participants
        )
        return DatedSheet(item.sheet.model_copy(update={"participants": people}), day)

    old, new = numbered(date(2026, 11, 21), 7), numbered(date(2026, 11, 25), 12)
    for order in ([old, new], [new, old]):
        assert statistics(order).row("Anna Huber").start_number == 12


def test_best_and_worst_game_are_named_as_the_players_count_them() -> None:
    """A game struck before the Regel 12 example ("Letztes Spiel zurücknehmen") shifts every log entry
    by two: A's best game (+5) is log entry 5 but the sheet's "3. Spiel", and the statistics line says so."""
    sheet: Sheet = sheet_of(DATA / "watten-turnier" / "regel-12-beispiel.json")
    struck = (Entry(kind="game", data={"winner": "B", "value": 2}), Entry(kind="void", target=1))
    shifted = sheet.model_copy(update={"entries": (*struck, *sheet.entries)})
    stats = statistics([DatedSheet(shifted, date(2026, 11, 21))])
    a, b = stats.row("Sautreiber").figures, stats.row("Kartlbrüder").figures
    assert a.best is not None and (a.best.points, a.best.entry, a.best.label) == (5, 5, "3. Spiel")
    assert a.worst is not None and (a.worst.entry, a.worst.label) == (4, "2. Spiel")
    assert b.best is not None and (b.best.entry, b.best.label) == (6, "4. Spiel")
    lines = row_lines(a)
    assert "Bestes Spiel: +5 (3. Spiel, Watten (Turnier), 21.11.2026: " in lines[-2]
    assert "Schlechtestes Spiel: 0 (2. Spiel, " in lines[-1]
    assert not any("Eintrag" in line for line in lines)
