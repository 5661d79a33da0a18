"""The organizer's tournament core: roster, plan, standings, table status, exports (issue 13)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import find_ruleset
from scoring.csv_export import GAMES_COLUMNS, games_csv, standings_csv
from scoring.draw import Seat, TableDraw, draw_round, sheet_for
from scoring.plan import TournamentPlan, plan_for
from scoring.roster import Entrant, Roster, RosterError, Unit
from scoring.standings import tournament_standings
from scoring.table_status import table_status

from .conftest import DATA
from .tournament_data import SCHAFKOPF_HUNDERT, make_sheet, schafkopf_tournament, watten_entries, watten_roster, watten_tournament


def test_plan_for_each_document() -> None:
    watten = plan_for("watten-turnier")
    assert (watten.rounds, watten.round_label, watten.table_sizes, watten.time_limit_minutes) == (3, "Durchgang", (2,), 70)
    assert watten.games_per_round == 3 and watten.sheets_per_table == 2
    doko = plan_for("doppelkopf-turnier")
    assert (doko.rounds, doko.round_label, doko.table_sizes, doko.games_per_round) == (3, "Runde", (4, 5), 16)
    schafkopf = plan_for("schafkopf-turnier", rounds=4)
    assert (schafkopf.rounds, schafkopf.round_label, schafkopf.table_sizes) == (4, "Serie", (4,))
    assert plan_for("talonschnapsen").table_sizes == (3,)


def test_a_bad_row_imports_nothing() -> None:
    text = "Startnummer;Name\n1;Anna\nzwei;Bert\n3;\n"
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(text, "player")
    assert caught.value.problems == (
        "Zeile 3: Startnummer 'zwei' ist keine ganze Zahl",
        "Zeile 4: der Name fehlt",
    )


def test_empty_drawn_sheet_is_listed_as_waiting() -> None:
    plan = plan_for("schafkopf-turnier")
    roster = Roster.parse_csv("Nr.;Name\n" + "\n".join(f"{i};Spieler {i}" for i in range(1, 9)), "player")
    draw = draw_round(plan, roster.active(), [], 1, 7)
    sheet = sheet_for(plan, roster, draw, 1, tournament="Test", written_by="p1")
    assert {p.start_number for p in sheet.participants} == set(draw.table(1).start_numbers)
    standings = tournament_standings(plan, roster, [sheet])
    assert [r.decided_by for r in standings.rows] == ["noch kein gewertetes Blatt"] * 8
    assert standings.notes == ("Serie 1, Tisch 1: nicht unterschrieben, noch nicht gewertet",)


# -- the roster ------------------------------------------------------------------------------------

ROSTERS = DATA / "tournament"


def read(name: str) -> str:
    return (ROSTERS / name).read_text(encoding="utf-8")


def test_a_team_roster_as_a_german_spreadsheet_writes_it() -> None:
    """BOM, ``;``, CRLF, a quoted name holding ``;``, an empty line, a team named by its players."""
    roster = Roster.parse_csv(read("watten-mannschaften.csv"), "team")
    assert [(e.start_number, e.name, e.members, e.club) for e in roster.entrants] == [
        (1, "Die Sautreiber", ("Anna Huber", "Bert Moser"), "WSV Kirchbichl"),
        (2, "Kreuzbuben", ("Cilli Gruber", "Done Egger"), None),
        (3, "Weli; der Schlaue", ("Franz Haas", "Gerti Pichler"), "SC Wörgl"),
        (4, "Hias Brunner / Isi Kofler", ("Hias Brunner", "Isi Kofler"), None),
        (5, "Gspannt & Gwunna", ("Jakob Steiner", "Kathi Wimmer"), "WSV Kirchbichl"),
        (6, "Rechter Haube", ("Lois Unterberger", "Maria Plattner"), None),
    ]
    assert roster.by_number(3).name == "Weli; der Schlaue"
    assert roster.active() == (1, 2, 3, 4, 5, 6)
    assert roster.next_number() == 7


def test_a_player_roster_with_english_headers_and_commas() -> None:
    roster = Roster.parse_csv(read("schafkopf-spieler.csv"), "player")
    assert [e.start_number for e in roster.entrants] == list(range(10, 18))
    assert roster.by_number(12).name == "Huber, Sepp"
    assert roster.by_number(13).club == "FC Ergolding"


def test_without_start_numbers_the_rows_are_numbered_tab_separated() -> None:
    roster = Roster.parse_csv(read("doppelkopf-ohne-startnummer.csv"), "player")
    assert [(e.start_number, e.name) for e in roster.entrants] == [
        (1, "Lena Schulz"),
        (2, "Tim Becker"),
        (3, "Jana Hoffmann"),
        (4, "Paul Wolf"),
        (5, "Mia Neumann"),
    ]


@pytest.mark.parametrize(
    ("name", "unit", "problems"),
    [
        (
            "fehler-mannschaften.csv",
            "team",
            (
                "Zeile 3: eine Mannschaft hat 2 Spieler, hier stehen 1",
                "Zeile 4: zweimal derselbe Spieler 'Done'",
                "Zeile 5: Startnummer 'vier' ist keine ganze Zahl",
                "Zeile 6: Startnummer 1 steht schon in Zeile 2",
                "Zeile 7: die Mannschaft 'Sautreiber' steht schon in Zeile 2",
                "Zeile 8: der Name fehlt",
                "Zeile 9: Startnummer 0 gibt es nicht, sie beginnen bei 1",
            ),
        ),
        (
            "fehler-unbekannte-spalte.csv",
            "player",
            ("Zeile 1: unbekannte Spalte 'Handicap' (erlaubt: Startnummer, Name, Spieler 1, Spieler 2, Verein, Spielerpass)",),
        ),
        (
            "fehler-anfuehrungszeichen.csv",
            "player",
            ("Zeile 3: ein Anführungszeichen ist nicht geschlossen oder steht mitten im Feld",),
        ),
        (
            "fehler-spieler-bei-einzelspielern.csv",
            "player",
            (
                "Zeile 1: Spalte 'Spieler 1' gibt es nur bei Mannschaften, hier melden sich Spieler",
                "Zeile 1: Spalte 'Spieler 2' gibt es nur bei Mannschaften, hier melden sich Spieler",
            ),
        ),
        ("fehler-zu-viele-felder.csv", "player", ("Zeile 2: 3 Felder, die Kopfzeile hat nur 2",)),
    ],
)
def test_bad_rosters_name_every_bad_line_and_why(name: str, unit: Unit, problems: tuple[str, ...]) -> None:
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(read(name), unit)
    assert caught.value.problems == problems
    assert str(caught.value) == "; ".join(problems)


def test_line_numbers_count_empty_lines_and_the_bom() -> None:
    text = "\ufeffNr.;Name\r\n\r\n1;Anna\r\n\r\n\r\n1;Bert\r\n"
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(text, "player")
    assert caught.value.problems == ("Zeile 6: Startnummer 1 steht schon in Zeile 3",)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "Die Datei ist leer"),
        ("\n\n", "Die Datei ist leer"),
        ("Startnummer;Name\n", "Zeile 1: nur die Kopfzeile, keine Meldung"),
        ("Startnummer;Verein\n1;SV\n", "Zeile 1: die Spalte 'Name' fehlt"),
        ("Name;Name\nAnna;Bert\n", "Zeile 1: Spalte 'Name' doppelt"),
        ("Nr;Name\n99999999999999999999999;Anna\n", "Zeile 2: Startnummer 99999999999999999999 ist zu groß"),
        ("Nr;Name\n²;Anna\n", "Zeile 2: Startnummer '²' ist keine ganze Zahl"),
        ("Nr;Name\n1;" + "x" * 81 + "\n", "ist länger als 80 Zeichen"),
        ("Nr;Name\n1;An\x07na\n", "enthält Steuerzeichen"),
    ],
)
def test_bad_input_gets_a_german_reason(text: str, problem: str) -> None:
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(text, "player")
    assert problem in str(caught.value)


def test_late_registration_and_withdrawal() -> None:
    roster = Roster.parse_csv(read("watten-mannschaften.csv"), "team")
    late = roster.with_entrant(Entrant(start_number=7, name=" Spätzünder ", members=("Otto", "Pia")))
    assert late.by_number(7).name == "Spätzünder" and late.active()[-1] == 7
    with pytest.raises(RosterError, match="Startnummer 3 ist schon vergeben \\(an Weli; der Schlaue\\)"):
        roster.with_entrant(Entrant(start_number=3, name="Neu", members=("Otto", "Pia")))
    with pytest.raises(RosterError, match="der Name fehlt"):
        roster.with_entrant(Entrant(start_number=8, name="  ", members=("Otto", "Pia")))
    with pytest.raises(RosterError, match="'Kreuzbuben' ist schon gemeldet"):
        roster.with_entrant(Entrant(start_number=8, name="kreuzbuben", members=("Otto", "Pia")))
    gone = late.withdraw(2)
    assert gone.withdrawn == (2,) and 2 not in gone.active() and gone.by_number(2).name == "Kreuzbuben"
    with pytest.raises(RosterError, match="schon zurückgezogen"):
        gone.withdraw(2)
    with pytest.raises(RosterError, match="Startnummer 99 ist nicht gemeldet"):
        gone.withdraw(99)


# -- hypothesis: any text is a roster or a RosterError, a bad row imports nothing -------------------

names = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1, max_size=30).filter(
    lambda s: s.strip() == s and s != ""
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["team", "player"]))
def test_any_text_is_a_roster_or_a_roster_error(text: str, unit: Unit) -> None:
    try:
        roster = Roster.parse_csv(text, unit)
    except RosterError as error:
        assert error.problems and all(p.startswith(("Zeile ", "Die Datei")) for p in error.problems)
    else:
        assert roster.entrants
        assert len({e.start_number for e in roster.entrants}) == len(roster.entrants)


@settings(max_examples=150, deadline=None)
@given(
    players=st.lists(names, min_size=1, max_size=25, unique_by=str.casefold),
    delimiter=st.sampled_from([";", ",", "\t"]),
    bad=st.sampled_from(["abc", "-3", "0", "", "1.5"]),
    where=st.integers(min_value=0, max_value=25),
)
def test_written_by_a_spreadsheet_read_back_and_one_bad_row_refuses_all(
    players: list[str], delimiter: str, bad: str, where: int
) -> None:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(["Startnummer", "Name", "Verein"])
    rows = [[str(n), name, "SV" if n % 2 else ""] for n, name in enumerate(players, start=1)]
    for row in rows:
        writer.writerow(row)
    roster = Roster.parse_csv(out.getvalue(), "player")
    assert [(e.start_number, e.name, e.club) for e in roster.entrants] == [(int(n), name, club or None) for n, name, club in rows]
    where = min(where, len(rows))
    rows.insert(where, [bad, "Eingeschmuggelt", ""])
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(["Startnummer", "Name", "Verein"])
    for row in rows:
        writer.writerow(row)
    with pytest.raises(RosterError) as caught:
        Roster.parse_csv(out.getvalue(), "player")
    line = where + 2  # the header is line 1
    assert [p for p in caught.value.problems if p.startswith(f"Zeile {line}: ") and "Startnummer" in p], caught.value.problems


# -- table status ----------------------------------------------------------------------------------

START = datetime(2026, 11, 23, 19, 0, tzinfo=UTC)


def watten_table() -> tuple[TournamentPlan, Roster, TableDraw]:
    plan = plan_for("watten-turnier")
    roster = watten_roster()
    return plan, roster, TableDraw(table=5, seats=(Seat(start_number=7, seat=1), Seat(start_number=10, seat=2)))


def test_a_table_without_sheets_has_not_begun_and_the_clock_runs() -> None:
    plan, _, table = watten_table()
    status = table_status(plan, table, [], START + timedelta(minutes=25), START)
    assert (status.state, status.games, status.minutes_left, status.time_up) == ("nicht begonnen", 0, 45, False)
    assert status.stand == "noch kein Blatt"


def test_a_watten_table_playing_shows_the_stand_and_the_minutes_left() -> None:
    plan, roster, table = watten_table()
    entries = watten_entries("W0 W2")[:2]  # Bummerl 1 won 15:0, then Laab-Sau 2
    a = make_sheet(plan, roster, 1, 5, (7, 10), entries, written_by="A")
    b = make_sheet(plan, roster, 1, 5, (7, 10), entries[:1], written_by="B")  # one game behind
    status = table_status(plan, table, [a, b], START + timedelta(minutes=69, seconds=1), START)
    assert status.state == "läuft"
    assert status.games == 2 and status.sheets == 2
    assert status.stand.startswith("Bummerl 2 von 3, Stand 0:2")
    assert status.minutes_left == 1 and not status.time_up
    assert status.comparison is not None and status.comparison.first_difference == 2
    late = table_status(plan, table, [a, b], START + timedelta(minutes=71), START)
    assert (late.minutes_left, late.time_up) == (0, True)


def test_signed_missing_and_disagreeing_tables() -> None:
    plan, roster, table = watten_table()
    done = [*watten_entries("W0 W0 L0"), ("close", {"signed_by": "Schellen-Sieben"})]
    a = make_sheet(plan, roster, 1, 5, (7, 10), done, written_by="A")
    b = make_sheet(plan, roster, 1, 5, (7, 10), done, written_by="B")
    signed = table_status(plan, table, [a, b], START + timedelta(minutes=80), START)
    assert signed.state == "unterschrieben" and signed.minutes_left is None and not signed.time_up
    assert signed.comparison is not None and signed.comparison.agree
    assert table_status(plan, table, [a]).state == "fehlt"
    # The Turnierleitung decided which sheet stands: its one sheet is the table's state.
    assert table_status(plan, table, [a], decided=True).state == "entschieden"
    other = make_sheet(plan, roster, 1, 5, (7, 10), [*watten_entries("W0 W2 L0"), done[-1]], written_by="B")
    disputed = table_status(plan, table, [a, other])
    assert disputed.state == "uneinig"
    assert disputed.comparison is not None and disputed.comparison.first_difference == 2
    # Disagreeing at a game both have written is a dispute already while the table still plays.
    playing = make_sheet(plan, roster, 1, 5, (7, 10), watten_entries("W0 W2")[:3], written_by="B")
    assert table_status(plan, table, [a, playing]).state == "uneinig"


def test_schafkopf_table_shows_the_reuegeld_owed_at_the_kasse() -> None:
    tournament = schafkopf_tournament()
    draw_table = TableDraw(table=1, seats=tuple(Seat(start_number=n, seat=i) for i, n in enumerate((1, 2, 3, 4), start=1)))
    first = tournament.sheets[0]
    status = table_status(tournament.plan, draw_table, [first])
    assert (status.state, status.reuegeld_cents, status.games, status.minutes_left) == ("unterschrieben", 150, 4, None)
    playing = first.model_copy(update={"entries": first.entries[:3]})
    status = table_status(tournament.plan, draw_table, [playing])
    assert (status.state, status.reuegeld_cents) == ("läuft", 50)
    assert "Reuegeld: Spieler 4 0,50 €" in status.stand
    assert table_status(tournament.plan, draw_table, [first.model_copy(update={"entries": ()})]).state == "nicht begonnen"


def test_a_sheet_of_another_table_is_not_counted_at_this_one() -> None:
    tournament = schafkopf_tournament()
    draw_table = TableDraw(table=1, seats=tuple(Seat(start_number=n, seat=i) for i, n in enumerate((1, 2, 3, 4), start=1)))
    stray = tournament.sheets[1]
    status = table_status(tournament.plan, draw_table, [stray])
    assert status.state == "nicht begonnen"
    assert status.notes == (f"Blatt {stray.id} gehört nicht an Tisch 1 (andere Startnummern)",)


# -- exports ---------------------------------------------------------------------------------------


def test_standings_csv_opens_in_a_spreadsheet() -> None:
    tournament = schafkopf_tournament()
    standings = tournament_standings(tournament.plan, tournament.roster, tournament.sheets)
    text = standings_csv(standings)
    table = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert table[0] == ["Platz", "Nr.", "Spieler", "Ergebnis", "Tischpunkte", "Spielpunkte", "Serien", "Reuegeld", "Entscheidung"]
    assert table[1] == ["1", "1", "Spieler 1", "76", "70", "6", "2", "0,00 €", "Ergebnis"]
    assert table[9] == []
    assert table[10] == ["Hinweis", SCHAFKOPF_HUNDERT[0]]
    assert text.endswith("\r\n")


def test_games_csv_has_one_row_per_game_and_participant() -> None:
    tournament = watten_tournament(both_teams_write=False)
    first = tournament.sheets[0]
    named = first.model_copy(
        update={"participants": (first.participants[0].model_copy(update={"name": 'Die "Sau"; treiber'}), first.participants[1])}
    )
    text = games_csv([named, *tournament.sheets[1:]])
    table = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    assert tuple(table[0]) == GAMES_COLUMNS
    sheet_rows = [r for r in table if r["sheet_id"] == str(first.id)]
    # "W0 W0 L0": three games of 15 and the close, for both teams.
    assert [(r["entry"], r["kind"], r["start_number"], r["points"], r["total"]) for r in sheet_rows] == [
        ("1", "game", "6", "15", "15"),
        ("1", "game", "7", "0", "0"),
        ("2", "game", "6", "15", "30"),
        ("2", "game", "7", "0", "0"),
        ("3", "game", "6", "0", "30"),
        ("3", "game", "7", "15", "15"),
        ("4", "close", "6", "0", "30"),
        ("4", "close", "7", "0", "15"),
    ]
    assert sheet_rows[0]["name"] == 'Die "Sau"; treiber'
    assert sheet_rows[0]["round"] == "1" and sheet_rows[0]["table"] == "1" and sheet_rows[0]["round_label"] == "Durchgang"
    assert "Regel 12" in sheet_rows[0]["explanation"] or "Spielwert" in sheet_rows[0]["explanation"]
    # Points per team over all games equal the sheets' totals: nothing is scored twice or dropped.
    totals: dict[str, int] = {}
    for r in table:
        totals[r["start_number"]] = totals.get(r["start_number"], 0) + int(r["points"])
    assert sum(totals.values()) == sum(sum(find_ruleset(s.ruleset.id).score(s).totals.values()) for s in tournament.sheets)


def test_games_csv_never_hands_a_spreadsheet_a_formula() -> None:
    """A name like "=HYPERLINK(...)" is text in the cell, not a formula (CSV injection)."""
    tournament = watten_tournament(both_teams_write=False)
    first = tournament.sheets[0]
    named = first.model_copy(
        update={"participants": (first.participants[0].model_copy(update={"name": "=HYPERLINK(\"x\")"}), first.participants[1])}
    )
    table = list(csv.DictReader(io.StringIO(games_csv([named])), delimiter=";"))
    assert {r["name"] for r in table if r["participant_id"] == first.participants[0].id} == {"'=HYPERLINK(\"x\")"}
