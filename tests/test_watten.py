"""Watten tournament rules (``watten-turnier.txt``), one test per rule, citing it."""

from __future__ import annotations

import pytest

from scoring import Entry, Participant, RuleViolation, Sheet, SheetContext, find_ruleset
from scoring.watten import WattenResult

WATTEN = find_ruleset("watten-turnier")


def new_sheet(start_a: int = 2, start_b: int = 9, **options: int) -> Sheet:
    teams = [Participant(id="A", name="Sautreiber", start_number=start_a), Participant(id="B", name="Kartlbrüder", start_number=start_b)]
    return WATTEN.new_sheet(teams, SheetContext(round_label="Durchgang", round=1, table=1), options)


def play(sheet: Sheet, *entries: tuple[str, dict]) -> Sheet:
    for kind, data in entries:
        entry = Entry(kind=kind, data=data)
        WATTEN.check(sheet, entry)
        sheet = sheet.with_entry(entry)
    return sheet


def game(winner: str, value: int | None = None) -> tuple[str, dict]:
    return ("game", {"winner": winner} | ({"value": value} if value is not None else {}))


def to_13(team: str) -> list[tuple[str, dict]]:
    """Four games that take ``team`` from 0 to 13 without ending the Bummerl."""
    return [game(team, 4), game(team, 4), game(team, 3), game(team, 2)]


def result(sheet: Sheet) -> WattenResult:
    res = WATTEN.score(sheet).result
    assert isinstance(res, WattenResult)
    return res


def refused(sheet: Sheet, kind: str, data: dict) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        WATTEN.check(sheet, Entry(kind=kind, data=data))
    return info.value


# Regel 1 ---------------------------------------------------------------------------------------
def test_regel_1_drei_bummerl_bis_15_dann_ist_der_durchgang_aus() -> None:
    sheet = new_sheet()
    for _ in range(3):
        sheet = play(sheet, game("A", 5), game("A", 5), game("A", 3), game("A", 2))
    status = WATTEN.score(sheet).status
    assert status.finished and status.details["bummerl_won"] == {"A": 3, "B": 0}
    error = refused(sheet, "game", {"winner": "B"})
    assert error.rule.startswith("Regel 1") and "beendet" in error.message and error.entry == 13


def test_regel_1_ziel_und_anzahl_sind_optionen() -> None:
    sheet = new_sheet(target=11, bummerl_count=1)
    sheet = play(sheet, game("B", 5), game("B", 4), game("B", 2))
    res = result(sheet)
    assert res.finished and res.bummerl[0].score == {"A": 0, "B": 22}


def test_regel_1_unbekannte_option_wird_abgelehnt() -> None:
    with pytest.raises(RuleViolation, match="Optionen"):
        new_sheet(ziel=15)


# Regel 3 ---------------------------------------------------------------------------------------
def test_regel_3_hoehere_startnummer_gibt_das_erste_spiel() -> None:
    assert WATTEN.score(new_sheet(start_a=2, start_b=9)).status.dealer == "B"
    assert WATTEN.score(new_sheet(start_a=11, start_b=9)).status.dealer == "A"


def test_regel_3_geber_wechselt_mit_jedem_spiel() -> None:
    sheet = play(new_sheet(), game("A"))
    assert WATTEN.score(sheet).status.dealer == "A"
    sheet = play(sheet, ("vergeben", {}))
    assert WATTEN.score(sheet).status.dealer == "B"


def test_regel_3_sieger_des_letzten_bummerl_gibt_das_erste_spiel() -> None:
    sheet = play(new_sheet(start_a=20, start_b=1), game("B", 5), game("B", 5), game("B", 3))  # A, B, A dealt
    assert WATTEN.score(sheet).status.dealer == "B"
    sheet = play(sheet, game("B", 2))  # B dealt; B 15 wins the Bummerl and deals again
    assert WATTEN.score(sheet).status.dealer == "B"


# Regel 6 ---------------------------------------------------------------------------------------
def test_regel_6_vergeben_gibt_den_gegnern_des_gebers_2() -> None:
    sheet = play(new_sheet(start_a=2, start_b=9), ("vergeben", {}))  # B deals first
    line = WATTEN.score(sheet).lines[-1]
    assert line.points == {"A": 2, "B": 0}
    assert line.explanation[0].rule.startswith("Regel 6")


def test_regel_6_vergeben_durch_einen_anderen_geber() -> None:
    sheet = play(new_sheet(start_a=2, start_b=9), ("vergeben", {"dealer": "A"}))
    score = WATTEN.score(sheet)
    assert score.lines[-1].points == {"A": 0, "B": 2}
    assert score.status.dealer == "B"


# Regel 8 ---------------------------------------------------------------------------------------
def test_regel_8_gspannt_bei_13_und_14_im_status() -> None:
    sheet = play(new_sheet(), *to_13("A"))
    status = WATTEN.score(sheet).status
    assert status.details["gspannt"] == ["A"] and "Sautreiber ist gspannt" in status.messages
    sheet = play(sheet, ("gehen", {"team": "A"}))
    sheet = play(sheet, game("B", 3))
    assert WATTEN.score(sheet).status.details["stand"] == {"A": 13, "B": 5}
    sheet = play(new_sheet(), game("A", 5), game("A", 5), game("A", 4))
    assert WATTEN.score(sheet).status.details["gspannt"] == ["A"]


def test_regel_8_gspannte_mannschaft_geht_gegner_erhalten_2() -> None:
    sheet = play(new_sheet(), *to_13("A"), ("gehen", {"team": "A"}))
    line = WATTEN.score(sheet).lines[-1]
    assert line.points == {"A": 0, "B": 2} and line.explanation[0].rule.startswith("Regel 8")


def test_regel_8_gehen_nur_wenn_gspannt() -> None:
    error = refused(play(new_sheet(), game("A", 4)), "gehen", {"team": "A"})
    assert error.rule.startswith("Regel 8")


def test_regel_8_weitergespielt_gegner_gewinnen_3() -> None:
    sheet = play(new_sheet(), *to_13("A"), game("B"))
    assert WATTEN.score(sheet).lines[-1].points == {"A": 0, "B": 3}


def test_regel_8_gegen_gspannte_keine_4() -> None:
    sheet = play(new_sheet(), *to_13("A"))
    error = refused(sheet, "game", {"winner": "B", "value": 4})
    assert error.rule.startswith("Regel 8") and "nicht mehr auf 4" in error.message
    assert refused(sheet, "game", {"winner": "B", "value": 2}).rule.startswith("Regel 8")


def test_regel_8_gspannte_mannschaft_schafft_selbst_aus_gegner_schreiben_2() -> None:
    sheet = play(new_sheet(), *to_13("A"), ("ausschaffen", {"team": "A"}))
    assert WATTEN.score(sheet).lines[-1].points == {"A": 0, "B": 2}
    assert refused(sheet, "ausschaffen", {"team": "B"}).rule.startswith("Regel 8")


def test_regel_8_gspannte_gewinnt_zu_2_und_das_bummerl() -> None:
    sheet = play(new_sheet(), *to_13("A"), game("A"))
    res = result(sheet)
    assert res.bummerl[0].winner == "A" and res.bummerl[0].stand == {"A": 15, "B": 0}
    assert refused(play(new_sheet(), *to_13("A")), "game", {"winner": "A", "value": 4}).rule.startswith("Regel 8")


def test_regel_8_beide_gspannt() -> None:
    sheet = play(new_sheet(), game("A", 4), game("A", 4), game("A", 3), game("B", 4), game("B", 4), game("B", 3))
    sheet = play(sheet, game("A", 2), game("B"))  # A 13 gspannt; B wins 3 against it: B 14
    status = WATTEN.score(sheet).status
    assert status.details["gspannt"] == ["A", "B"] and status.details["stand"] == {"A": 13, "B": 14}
    won = play(sheet, game("A"))
    assert WATTEN.score(won).lines[-1].points == {"A": 3, "B": 0}
    assert result(won).bummerl[0].score == {"A": 16, "B": 14}
    gone = play(sheet, ("gehen", {"team": "B"}))
    assert result(gone).bummerl[0].winner == "A"


# Regel 10 --------------------------------------------------------------------------------------
def test_regel_10_bscheissn_bummerl_30_zu_0_gegen_den_betrueger() -> None:
    sheet = play(new_sheet(), game("A", 4), game("A", 5), game("B", 2), ("betrug", {"cheater": "A"}))
    res = result(sheet)
    assert res.bummerl[0].score == {"A": 0, "B": 30} and res.bummerl[0].winner == "B"
    assert res.bummerl[0].ended_by == "betrug"
    assert WATTEN.score(sheet).status.dealer == "B"


# Regel 11 --------------------------------------------------------------------------------------
def test_regel_11_zeitlimit_offenes_bummerl_ohne_sieger() -> None:
    sheet = play(new_sheet(), game("A", 5), game("A", 5), game("A", 5), game("B", 4), game("A", 2), ("zeitlimit", {}))
    res = result(sheet)
    assert res.finished
    assert res.bummerl[-1].winner is None and res.bummerl[-1].score == {"A": 2, "B": 4}
    assert res.teams["A"].bummerl_won == 1
    assert refused(sheet, "game", {"winner": "A"}).rule.startswith("Regel 11")


# Regel 12 --------------------------------------------------------------------------------------
def test_regel_12_beispiel_15_zu_8_ergibt_22_und_8() -> None:
    sheet = play(new_sheet(), game("A", 4), game("B", 3), game("A", 5), game("B", 5), game("A", 4), game("A", 2))
    res = result(sheet)
    assert res.bummerl[0].stand == {"A": 15, "B": 8}
    assert res.bummerl[0].score == {"A": 22, "B": 8}


# values ----------------------------------------------------------------------------------------
def test_spielwert_1_wird_abgelehnt_und_aendert_nichts() -> None:
    sheet = play(new_sheet(), game("A"))
    before = WATTEN.score(sheet)
    error = refused(sheet, "game", {"winner": "B", "value": 1})
    assert "mindestens 2" in error.message and error.entry == 2
    assert WATTEN.score(sheet) == before


def test_unbekannte_mannschaft_wird_abgelehnt() -> None:
    error = refused(new_sheet(), "game", {"winner": "C"})
    assert "sitzt nicht an diesem Tisch" in error.message


def test_regel_3_und_13_eine_startnummer_zweimal_am_tisch_wird_abgelehnt() -> None:
    """The Startnummer decides who deals first (Regel 3) and is the team across Durchgänge
    (Regel 13): two teams with one number used to be accepted and merged into one ranking row."""
    with pytest.raises(RuleViolation) as info:
        new_sheet(start_a=4, start_b=4)
    assert info.value.rule == "Teilnehmer" and "Startnummer 4" in info.value.message
    teams = [Participant(id="A", name="Sautreiber"), Participant(id="B", name=" sautreiber")]
    with pytest.raises(RuleViolation, match="gleicher Name"):
        WATTEN.new_sheet(teams)


def test_drei_mannschaften_sind_kein_watten() -> None:
    teams = [Participant(id=x, name=x) for x in "ABC"]
    with pytest.raises(RuleViolation, match="2 Mannschaften"):
        WATTEN.new_sheet(teams)


# Regel 13 --------------------------------------------------------------------------------------
def durchgang(key_a: int, key_b: int, *entries: tuple[str, dict], round: int = 1) -> Sheet:
    teams = [Participant(id="A", name=f"Team {key_a}", start_number=key_a), Participant(id="B", name=f"Team {key_b}", start_number=key_b)]
    return play(WATTEN.new_sheet(teams, SheetContext(round_label="Durchgang", round=round)), *entries)


WIN_A_15_0 = [game("A", 5), game("A", 5), game("A", 5)]
WIN_B_15_0 = [game("B", 5), game("B", 5), game("B", 5)]


def test_regel_13_meiste_bummerl_gewinnen() -> None:
    s1 = durchgang(1, 2, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    s2 = durchgang(3, 4, *WIN_A_15_0, *WIN_B_15_0, *WIN_B_15_0)
    table = WATTEN.standings([s1, s2])
    assert [r.bummerl_won for r in table] == [2, 2, 1, 1]
    assert {r.key for r in table[:2]} == {"#1", "#4"} and {r.key for r in table[2:]} == {"#2", "#3"}
    assert table[2].rank == 3


def test_regel_13_punkteverhaeltnis_entscheidet_bei_gleichen_bummerl() -> None:
    # Team 1 wins 2 Bummerl 30:0 and loses one 0:30 -> 60:30 (2.0)
    s1 = durchgang(1, 2, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    # Team 3 wins 2 Bummerl 15:12 (18:12 each) and loses one 12:15 -> 48:42 (1.14)
    close_a = [game("B", 4), game("B", 4), game("B", 4), game("A", 5), game("A", 5), game("A", 5)]
    close_b = [game("A", 4), game("A", 4), game("A", 4), game("B", 5), game("B", 5), game("B", 5)]
    s2 = durchgang(3, 4, *close_a, *close_a, *close_b)
    table = WATTEN.standings([s1, s2])
    assert [r.key for r in table][:2] == ["#1", "#3"]
    assert table[0].decided_by == "Punkteverhältnis"
    assert (table[0].points, table[0].points_against) == (60, 30)
    assert (table[1].points, table[1].points_against) == (48, 42)


def test_regel_13_meiste_punkte_bei_gleichem_verhaeltnis() -> None:
    # Team 1: 2 Bummerl, 60:30; team 3: 2 Bummerl (15:10 twice, then the time limit), 40:20: both 2.0
    s1 = durchgang(1, 2, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    win_15_10 = [game("B", 5), game("B", 5), game("A", 5), game("A", 5), game("A", 5)]
    s2 = durchgang(3, 4, *win_15_10, *win_15_10, ("zeitlimit", {}))
    table = WATTEN.standings([s1, s2])
    assert [(r.key, r.points, r.points_against) for r in table[:2]] == [("#1", 60, 30), ("#3", 40, 20)]
    assert table[0].decided_by == "Punkte" and table[1].rank == 2


def test_regel_13_direkter_vergleich_dann_entscheidungsbummerl() -> None:
    # round 1: 1 beats 2 2:1 (equal points overall after round 2), round 2: 1 and 2 both win vs others
    r1 = durchgang(1, 2, *WIN_A_15_0, *WIN_B_15_0, *WIN_A_15_0)
    r2a = durchgang(1, 3, *WIN_B_15_0, *WIN_A_15_0, *WIN_B_15_0)
    r2b = durchgang(2, 4, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    table = WATTEN.standings([r1, r2a, r2b])
    one, two = (next(r for r in table if r.key == k) for k in ("#1", "#2"))
    assert (one.bummerl_won, one.points, one.points_against) == (two.bummerl_won, two.points, two.points_against) == (3, 90, 90)
    assert one.rank < two.rank and one.decided_by.startswith("direkter Vergleich")


def test_regel_13_ohne_direkten_vergleich_entscheidungsbummerl() -> None:
    s1 = durchgang(1, 2, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    s2 = durchgang(3, 4, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    table = WATTEN.standings([s1, s2])
    top = [r for r in table if r.rank == 1]
    assert {r.key for r in top} == {"#1", "#3"}
    assert all(r.decided_by.startswith("Entscheidungsbummerl nötig") for r in top)


# Abschluss (Regel 1 and 11) --------------------------------------------------------------------
def test_regel_1_und_11_abschluss_vor_dem_ende_des_durchgangs_nur_mit_vermerk() -> None:
    """Regel 1: a Durchgang is 3 Bummerl; Regel 11: only the Turnierleitung ends it early, and then
    the open Bummerl ends with the written points. A plain signature mid-Durchgang used to be
    accepted and silently dropped the open Bummerl (10:0 here) from the result."""
    sheet = play(new_sheet(), game("A", 5), game("A", 5))
    error = refused(sheet, "close", {"signed_by": "Sepp"})
    assert error.rule.startswith("Regel 11") and "nicht beendet" in error.message and error.entry == 3
    early = play(sheet, ("close", {"signed_by": "Sepp", "override": "Turnierleitung bricht ab"}))
    score = WATTEN.score(early)
    assert score.status.closed and score.status.finished and score.status.dealer is None
    res = result(early)
    assert res.finished and res.bummerl[-1].winner is None and res.bummerl[-1].score == {"A": 10, "B": 0}
    assert res.teams["A"].points == 10
    assert "Turnierleitung bricht ab" in score.lines[-1].explanation[1].text


def test_regel_1_abschluss_nach_dem_durchgang_braucht_keinen_vermerk() -> None:
    sheet = new_sheet(bummerl_count=1)
    sheet = play(sheet, game("A", 5), game("A", 5), game("A", 5), ("close", {"signed_by": "Sepp"}))
    score = WATTEN.score(sheet)
    assert score.status.closed and result(sheet).bummerl[0].score == {"A": 30, "B": 0}
    timed = play(new_sheet(), game("A", 5), ("zeitlimit", {}), ("close", {"signed_by": "Sepp"}))
    assert WATTEN.score(timed).status.closed


def test_regel_12_erklaerung_nennt_den_spielausgang_wie_das_beispiel_sieger_zuerst() -> None:
    """Regel 12 writes the Spielausgang winner first ("15:8"); a B win read "gewinnt Kartlbrüder 8:15"."""
    sheet = play(new_sheet(), game("B", 4), game("A", 3), game("B", 5), game("A", 5), game("B", 4), game("B", 2))
    text = WATTEN.score(sheet).lines[-1].explanation[-1].text
    assert text.startswith("Bummerl 1 gewinnt Kartlbrüder 15:8: 30-8 = 22 für Kartlbrüder, 8 für Sautreiber")


def test_regel_13_rangliste_nur_ueber_beendete_durchgaenge() -> None:
    """Regel 13 ranks whole Durchgänge (Regel 1: 3 Bummerl, or Regel 11: ended by time). A sheet still
    being played used to be ranked without its open Bummerl, a ranking that looks final but is not."""
    done = durchgang(1, 2, *WIN_A_15_0, *WIN_A_15_0, *WIN_B_15_0)
    playing = durchgang(3, 4, *WIN_A_15_0, game("B", 5), round=2)
    with pytest.raises(RuleViolation) as info:
        WATTEN.standings([done, playing])
    assert info.value.rule.startswith("Regel 13") and "nicht beendet" in info.value.message
    assert "Team 3" in info.value.message and "Durchgang 2" in info.value.message
    timed = playing.with_entry(Entry(kind="zeitlimit"))
    assert [r.key for r in WATTEN.standings([done, timed])][:1] == ["#1"]


def test_regel_8_zwei_gegen_gspannte_verweist_auf_gehen() -> None:
    """Regel 8: against a gspannt team the 2 only comes from its going; a table that types the 2
    as a game must be told which entry gives it, not just that a game is worth 3."""
    error = refused(play(new_sheet(), *to_13("A")), "game", {"winner": "B", "value": 2})
    assert error.rule.startswith("Regel 8") and "'gehen'" in error.message and "Sautreiber" in error.message


def test_regel_8_gehen_ohne_gspannt_sagt_wie_man_es_eintraegt() -> None:
    """Regel 8's 'gehen' is the gspannt team's; an ordinary team that goes after an Ausschaffen
    concedes the game at its value before the raise, and the refusal must say so."""
    error = refused(play(new_sheet(), game("A", 4)), "gehen", {"team": "B"})
    assert error.rule.startswith("Regel 8") and "als Spiel" in error.message
