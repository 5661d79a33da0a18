"""The organizer's tournament core: roster, plan, standings, table status, exports (issue 13)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import draw_round, sheet_for
from scoring.tournament import Entrant, Roster, RosterError, Unit, plan_for, tournament_standings

from .conftest import DATA


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
            ("Zeile 1: unbekannte Spalte 'Handicap' (erlaubt: Startnummer, Name, Spieler 1, Spieler 2, Verein)",),
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
