"""Bauernschnapsen (``bauernschnapsen.txt``): every catalogue row, multiplier and Bummerl rule."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import Entry, Participant, RuleViolation, find_ruleset
from scoring.schnapsen import CATALOGUE, DEFAULT_GAMES

from .conftest import game_helpers

RS = find_ruleset("bauernschnapsen")
ALL_GAMES = [k for k in CATALOGUE if k != "normal"]

# Seats clockwise: Anna (A1), Cilli (B1), Bert (A2), Done (B2). The first Rufer is Anna.
TEAMS = (
    Participant(id="A", name="Sautreiber", members=("Anna", "Bert")),
    Participant(id="B", name="Kartler", members=("Cilli", "Done")),
)


sheet, score, refused = game_helpers(RS, TEAMS)


def normal(won: bool = True, augen: str = "ab33", **more: Any) -> dict[str, Any]:
    return {"game": "normal", "won": won, "augen": augen, **more}


# -- Punkteübersicht ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("augen", "points"), [("ab33", 1), ("unter33", 2), ("kein_stich", 3)]
)
def test_normales_spiel_zaehlt_nach_den_augen_der_verlierer(augen: str, points: int) -> None:
    """Punkteübersicht, Normales Spiel: 1 (Gegner >= 33 Augen), 2 (< 33), 3 (keinen Stich)."""
    assert score(normal(True, augen)).totals == {"A": points, "B": 0}


def test_normales_spiel_verloren_gibt_die_punkte_dem_gegnerteam() -> None:
    """Normales Spiel: verliert das Team des Rufers, zählen seine Augen für die Punkte der Gegner."""
    assert score(normal(False, "unter33")).totals == {"A": 0, "B": 2}


EXPECTED_POINTS = {
    "bettler": 4,
    "schnapser": 6,
    "gang": 9,
    "bauernschnapser": 12,
    "kontraschnapser": 12,
    "farbenringerl": 18,
    "kontrabauernschnapser": 24,
    "trumpfringerl": 24,
    "assenbettler": 5,
    "ass-bettler": 5,
    "plauderer": 7,
    "zehnergang": 10,
    "bauernloch": 12,
    "kontra-herrenbauer": 24,  # 48, but at most what the Bummerl needs (see its own test)
    "dokta": 5,
    "blinder-bettler": 5,
    "schnapser-zusammen": 6,
}

# A legal announcer for each game when Anna (A1) is Rufer.
ANNOUNCER = {
    "schnapser": "Anna",
    "bauernloch": "Anna",
    "trumpfringerl": "Anna",
    "dokta": "Anna",
    "blinder-bettler": "Anna",
    "kontraschnapser": "Cilli",
    "kontrabauernschnapser": "Done",
    "kontra-herrenbauer": "Cilli",
    "schnapser-zusammen": "Bert",
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_punkteuebersicht_jedes_spiel_zaehlt_seine_punkte(game: str) -> None:
    """Punkteübersicht: each row's points go to the announcer's team when it wins."""
    announcer = ANNOUNCER.get(game, "Bert")
    team = "A" if announcer in ("Anna", "Bert") else "B"
    s = score({"game": game, "announcer": announcer, "won": True}, games=ALL_GAMES)
    assert s.totals[team] == EXPECTED_POINTS[game]
    assert sum(s.totals.values()) == EXPECTED_POINTS[game]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_verlorenes_angesagtes_spiel_gibt_die_punkte_der_anderen_seite(game: str) -> None:
    """A lost announced game gives its points to the other team (Punkteübersicht, Spritzen)."""
    announcer = ANNOUNCER.get(game, "Bert")
    team, other = ("A", "B") if announcer in ("Anna", "Bert") else ("B", "A")
    s = score({"game": game, "announcer": announcer, "won": False}, games=ALL_GAMES)
    assert s.totals[team] == 0
    assert s.totals[other] == EXPECTED_POINTS[game]


def test_catalogue_matches_the_document() -> None:
    """Punkteübersicht: the catalogue has exactly the rows of the document with their points."""
    assert {k: s.points for k, s in CATALOGUE.items() if k != "normal"} == {
        **EXPECTED_POINTS,
        "kontra-herrenbauer": 48,
    }


def test_aliases_of_the_document_name_the_same_game() -> None:
    """Trumpfringerl (regional Herrenschnapser), Bettler (regional Fechter), Gang (Gangl)."""
    s = score(
        {"game": "Herrenschnapser", "won": True},
        {"game": "Fechter", "won": True},
        {"game": "Gangl", "won": True, "announcer": "Done"},
    )
    assert [line.points for line in s.lines] == [{"A": 24, "B": 0}, {"A": 0, "B": 4}, {"A": 0, "B": 9}]


def test_zehnerloch_is_ambiguous_and_refused() -> None:
    """"Zehnerloch" names both the Assenbettler and the Zehnergang: not accepted as a name."""
    error = refused({"game": "Zehnerloch", "won": True}, games=ALL_GAMES)
    assert "Punkteübersicht" in error.rule


def test_unknown_game_is_refused() -> None:
    error = refused({"game": "Mulatschak", "won": True})
    assert error.rule == "Punkteübersicht" and "Mulatschak" in error.message


# -- Hausregeln: Spielekatalog ------------------------------------------------------------------


def test_default_catalogue_has_the_common_games_and_not_the_regional_ones() -> None:
    """Welche Sonderspiele zulässig sind, ist regional: the table rows on, "Regionale Sonderspiele" off."""
    assert set(DEFAULT_GAMES) == {
        "bettler",
        "schnapser",
        "gang",
        "bauernschnapser",
        "kontraschnapser",
        "farbenringerl",
        "kontrabauernschnapser",
        "trumpfringerl",
    }


@pytest.mark.parametrize("game", sorted(set(ALL_GAMES) - set(DEFAULT_GAMES)))
def test_regionales_sonderspiel_ist_ohne_hausregel_verweigert(game: str) -> None:
    """Hausregel: a regional game is refused unless the options allow it."""
    error = refused({"game": game, "announcer": ANNOUNCER.get(game, "Bert"), "won": True})
    assert error.rule == "Hausregel: Spielekatalog"
    assert error.entry == 1
    assert "nicht erlaubt" in error.message


def test_a_game_taken_out_of_the_catalogue_is_refused() -> None:
    """Hausregel: "viele Spielgemeinschaften verzichten" on the Farbenringerl: then it is refused."""
    games = [g for g in DEFAULT_GAMES if g != "farbenringerl"]
    error = refused({"game": "farbenringerl", "won": True}, games=games)
    assert error.rule == "Hausregel: Spielekatalog" and "Farbenringerl" in error.message


def test_the_normal_game_is_always_allowed() -> None:
    assert score(normal(), games=[]).totals == {"A": 1, "B": 0}


def test_unknown_game_in_options_is_refused() -> None:
    with pytest.raises(RuleViolation) as info:
        RS.options({"games": ["mulatschak"]})
    assert info.value.rule == "Optionen" and "mulatschak" in info.value.message
    with pytest.raises(RuleViolation) as info:
        RS.options({"games": ["normal"]})
    assert "immer erlaubt" in info.value.message


# -- who may announce ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["schnapser", "bauernloch", "trumpfringerl", "dokta", "blinder-bettler"])
def test_nur_der_rufer_darf_ansagen(game: str) -> None:
    """Schnapser: "Dieses Spiel kann nur der Rufer ansagen"; Bauernloch: nur wer die Trumpffarbe
    bestimmt; Herrenschnapser: "Wenn der Rufer alle Karten der Atout-Farbe hält"; Dokta and
    Blinder Bettler: "der Rufer"."""
    for announcer in ("Bert", "Cilli"):
        error = refused({"game": game, "announcer": announcer, "won": True}, games=ALL_GAMES)
        assert "Rufer" in error.rule and "nur der Rufer" in error.message and "Anna" in error.message


@pytest.mark.parametrize("game", ["kontraschnapser", "kontrabauernschnapser", "kontra-herrenbauer"])
def test_kontraspiele_nur_ein_gegenspieler_des_rufers(game: str) -> None:
    """Kontraschnapser: "kann von einem Gegenspieler des Rufers gespielt werden"."""
    for announcer in ("Anna", "Bert"):
        error = refused({"game": game, "announcer": announcer, "won": True}, games=ALL_GAMES)
        assert "Gegenspieler" in error.message or "Gegner" in error.rule


def test_schnapser_zusammen_nur_der_partner_des_rufers() -> None:
    """Kontraschnapser, regionale Variante: "kann der Spielpartner des Rufers einen Schnapser zusammen ansagen"."""
    for announcer in ("Anna", "Cilli", "Done"):
        error = refused({"game": "schnapser-zusammen", "announcer": announcer, "won": True}, games=ALL_GAMES)
        assert "Partner des Rufers" in error.message
    assert score({"game": "schnapser-zusammen", "announcer": "Bert", "won": True}, games=ALL_GAMES).totals == {"A": 6, "B": 0}


@pytest.mark.parametrize("announcer", ["Anna", "Bert", "Cilli", "Done", "A1", "B2"])
def test_gang_kann_jeder_ansagen(announcer: str) -> None:
    """Gangl: "Einen Gang ... kann jeder Spieler ansagen"; players by name or by team id + 1/2."""
    team = "A" if announcer in ("Anna", "Bert", "A1") else "B"
    assert score({"game": "gang", "announcer": announcer, "won": True}).totals[team] == 9


def test_normales_spiel_spielt_das_team_des_rufers() -> None:
    """Normales Spiel: the Rufer's team plays it; an opponent cannot be its announcer."""
    assert score(normal(True, "ab33", announcer="Bert")).totals == {"A": 1, "B": 0}
    error = refused(normal(True, "ab33", announcer="Cilli"))
    assert error.rule == "Normales Spiel" and "Team des Rufers" in error.message


def test_unknown_player_is_refused() -> None:
    error = refused({"game": "gang", "announcer": "Zenzi", "won": True})
    assert "Zenzi" in error.message and "sitzt nicht" in error.message


# -- Rufer and Geber ---------------------------------------------------------------------------


def test_rufer_wird_zum_geber_und_der_naechste_links_ruft() -> None:
    """Beginn und Ende: "Am Ende jeden Spiels wird der Rufer zum Geber": the Rufer moves clockwise
    Anna, Cilli, Bert, Done, Anna."""
    rufer = []
    geber = []
    games: list[dict[str, Any]] = []
    for _ in range(5):
        status = score(*games).status
        rufer.append(status.details["rufer"])
        geber.append(status.details["geber"])
        games.append(normal())
    assert rufer == ["A1", "B1", "A2", "B2", "A1"]
    assert geber == ["B2", "A1", "B1", "A2", "B2"]
    status = score(normal()).status
    assert status.dealer == "A"  # who deals next: Anna's team (sheet format: status.dealer)
    assert "Rufer: Cilli (Kartler); es gibt Anna" in status.messages


def test_schnapser_ist_das_spiel_des_jeweiligen_rufers() -> None:
    """Schnapser: in the second game Cilli is Rufer, so she may, and Anna may not."""
    assert score(normal(), {"game": "schnapser", "announcer": "Cilli", "won": True}).totals == {"A": 1, "B": 6}
    error = refused(normal(), {"game": "schnapser", "announcer": "Anna", "won": True})
    assert error.entry == 2 and "Cilli" in error.message


def test_a_named_rufer_resets_the_rotation() -> None:
    """The first game of an evening may name who called trump; the rotation goes on from there."""
    s = score(normal(rufer="Done"), {"game": "schnapser", "announcer": "Anna", "won": True})
    assert s.totals == {"A": 6, "B": 1}
    assert "Rufer war Done statt Anna" in s.lines[0].explanation[0].text
    assert s.status.details["rufer"] == "B1"


def test_teams_need_two_members_each() -> None:
    with pytest.raises(RuleViolation) as info:
        RS.new_sheet((Participant(id="A", name="X", members=("a", "b", "c")), TEAMS[1]))
    assert "zwei Spieler" in info.value.message


def test_teams_without_members_have_numbered_players() -> None:
    s = RS.score(
        RS.new_sheet((Participant(id="A", name="Nord"), Participant(id="B", name="Süd"))).with_entry(
            Entry(kind="game", data={"game": "schnapser", "won": True, "announcer": "A1"})
        )
    )
    assert s.totals == {"A": 6, "B": 0}
    assert s.status.details["rufer"] == "B1"
    assert "Rufer: Süd 1 (Süd); es gibt Nord 1" in s.status.messages


# -- Spritzen and Herzrunde ---------------------------------------------------------------------


@pytest.mark.parametrize(("level", "points"), [(0, 6), (1, 12), (2, 24), (3, 48)])
def test_spritzen_verdoppelt_je_stufe(level: int, points: int) -> None:
    """Spritzen: gespritzt x2, zurückgespritzt x4, nochmal zurückgespritzt x8."""
    s = score({"game": "schnapser", "won": True, "spritze": level}, target=99)
    assert s.totals == {"A": points, "B": 0}


def test_spritzen_gilt_auch_fuer_das_normale_spiel() -> None:
    """Flecken: "Gefleckt kann jedes Spiel werden, sowohl Normalspiele als auch Sonderspiele"."""
    assert score(normal(False, "kein_stich", spritze=1)).totals == {"A": 0, "B": 6}


def test_spritze_x16_gibt_es_nicht() -> None:
    """Spritzen: after "nochmal zurückgespritzt" (x8) there is no further level (refused where the entry is parsed)."""
    error = refused({"game": "gang", "won": True, "spritze": 4})
    assert error.rule == "Spritzen (×2, ×4, ×8)"
    assert "höchstens 3" in error.message and "nochmal zurückgespritzt ×8" in error.message


def test_herzrunde_verdoppelt_zusaetzlich() -> None:
    """Herzrunde: "Wie beim Spritzen werden dabei die Punkte verdoppelt", on top of a Spritze."""
    s = score(
        {"game": "bettler", "won": True, "herzrunde": True, "announcer": "Cilli"},
        {"game": "bettler", "won": True, "herzrunde": True, "spritze": 2, "announcer": "Cilli"},
        herzrunde=True,
        target=99,
    )
    assert [line.points["B"] for line in s.lines] == [8, 32]
    assert [e.rule for e in s.lines[1].explanation][1:3] == ["Spritzen (×2, ×4, ×8)", "Herzrunde (×2)"]


def test_herzrunde_ohne_hausregel_verweigert() -> None:
    """Herzrunde is listed under "Regionale Sonderspiele": refused unless the option is on."""
    error = refused({"game": "gang", "won": True, "herzrunde": True})
    assert error.rule == "Hausregel: Spielekatalog" and "Herzrunde" in error.message


def test_augen_nur_beim_normalen_spiel() -> None:
    """Normales Spiel: a normal game needs the losers' Augen class; other games have none."""
    error = refused({"game": "normal", "won": True})
    assert error.rule == "Normales Spiel (1, 2 oder 3 Punkte)" and "Augen der Verlierer" in error.message
    error = refused({"game": "gang", "won": True, "augen": "ab33"})
    assert error.rule == "Normales Spiel (1, 2 oder 3 Punkte)"


def test_augen_class_must_be_known() -> None:
    error = refused({"game": "normal", "won": True, "augen": "viel"})
    assert error.rule == "Eingabe" and "Augen" in error.message


# -- Bummerl -----------------------------------------------------------------------------------


def test_bummerl_endet_bei_24_und_der_verlierer_erhaelt_ein_bummerl() -> None:
    """Allgemeine Regeln: "das Spiel endet, sobald ein Team 24 Punkte erreicht hat. Das Verliererteam
    erhält ein Bummerl"."""
    games = [normal(False, "kein_stich")] + [{"game": "bauernschnapser", "won": True, "announcer": "Bert"}] * 2
    s = score(*games)
    assert s.lines[-1].stand == {"A": 24, "B": 3}
    assert s.result.bummerl == {"A": 0, "B": 1}  # type: ignore[attr-defined]
    (b,) = s.result.history  # type: ignore[attr-defined]
    assert b.winners == ("A",) and b.losers[0].art == "Bummerl" and b.losers[0].bummerl == 1
    assert s.status.details["stand"] == {"A": 0, "B": 0}
    assert s.status.details["bummerl"] == 2


def test_schneider_zaehlt_zwei_bummerl() -> None:
    """Allgemeine Regeln: "Hat das Verliererteam null Punkte, erhält es einen Schneider, der zwei Bummerl zählt"."""
    s = score({"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True})
    assert s.result.bummerl == {"A": 2, "B": 0}  # type: ignore[attr-defined]
    assert s.result.history[0].losers[0].art == "Schneider"  # type: ignore[attr-defined]
    assert s.lines[0].explanation[-1].rule == "Allgemeine Regeln (Bummerl)"
    assert "Die Hausruckviertler" not in s.lines[0].explanation[-1].text
    assert "Sautreiber hat 0 Punkte: Schneider, zählt 2 Bummerl" in s.lines[0].explanation[-1].text


def test_retourschneider_zaehlt_vier_bummerl() -> None:
    """Allgemeine Regeln: "Führt ein Team mit 23:0 und verliert, erhält es einen Retourschneider ...
    der vier Bummerl zählt"."""
    games = [
        {"game": "bauernschnapser", "won": True},  # A 12
        {"game": "gang", "won": True, "announcer": "Bert"},  # A 21
        normal(True, "unter33", announcer="Bert"),  # Bert is Rufer: A 23:0
        {"game": "kontrabauernschnapser", "announcer": "Anna", "won": False},  # Done is Rufer; lost: B 24
    ]
    s = score(*games)
    assert s.lines[2].stand == {"A": 23, "B": 0}
    assert s.result.bummerl == {"A": 4, "B": 0}  # type: ignore[attr-defined]
    assert s.result.history[0].losers[0].art == "Retourschneider"  # type: ignore[attr-defined]


def test_retourschneider_also_after_the_opponents_came_back_step_by_step() -> None:
    """Led 23:0 at some point and lost: Retourschneider, even if the opponents needed several games."""
    # A leads 23:0 with target 24: reach it as 12 + 9 + 2.
    games = [
        {"game": "bauernschnapser", "won": True},
        {"game": "gang", "won": True, "announcer": "Bert"},
        normal(True, "unter33", announcer="Bert"),
        {"game": "bauernschnapser", "won": True, "announcer": "Done"},
        {"game": "bauernschnapser", "won": True, "announcer": "Done"},
    ]
    s = score(*games)
    assert s.lines[-1].stand == {"A": 23, "B": 24}
    assert s.result.bummerl == {"A": 4, "B": 0}  # type: ignore[attr-defined]


def test_no_retourschneider_when_the_opponents_had_points() -> None:
    """23:3 is not 23:0: a lost Bummerl at 23 with opponents on points is a plain Bummerl."""
    games = [
        normal(False, "kein_stich"),  # Rufer Anna: B 3
        {"game": "bauernschnapser", "won": True, "announcer": "Bert"},  # A 12
        {"game": "gang", "won": True, "announcer": "Bert"},  # A 21
        normal(False, "unter33"),  # Rufer Done loses: A 23:3
        {"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True},  # Rufer Anna: B 27
    ]
    s = score(*games)
    assert s.result.bummerl == {"A": 1, "B": 0}  # type: ignore[attr-defined]


def test_kontra_herrenbauer_zaehlt_hoechstens_was_zum_bummerl_fehlt() -> None:
    """Kontra-Herrenbauer: "Rein theoretisch zählt der Kontra-Herrenbauer 48 Punkte. Es können jedoch
    nur 24 Punkte pro Bummel erreicht werden ... das Bummel ist vorüber"."""
    games = [
        {"game": "gang", "won": True, "announcer": "Cilli"},  # B 9
        {"game": "kontra-herrenbauer", "won": True, "announcer": "Anna"},  # Cilli is Rufer; Anna is Gegenspieler
    ]
    s = score(*games, games=ALL_GAMES)
    assert s.lines[1].points == {"A": 24, "B": 0}
    assert any("48 zählen nur die 24 Punkte" in e.text for e in s.lines[1].explanation)
    assert s.result.bummerl == {"A": 0, "B": 1}  # type: ignore[attr-defined]
    games = [{"game": "gang", "won": True}, {"game": "kontra-herrenbauer", "won": True, "announcer": "Bert"}]
    s = score(*games, games=ALL_GAMES)
    assert s.lines[1].points == {"A": 15, "B": 0}
    assert s.lines[1].stand == {"A": 24, "B": 0}
    games = [{"game": "gang", "won": True}, {"game": "kontra-herrenbauer", "won": False, "announcer": "Bert"}]
    s = score(*games, games=ALL_GAMES)
    assert s.lines[1].points == {"A": 0, "B": 24}


def test_other_games_are_written_in_full_beyond_the_target() -> None:
    """Only the Kontra-Herrenbauer is capped; a Kontrabauernschnapser at 20 writes its 24."""
    s = score({"game": "bauernschnapser", "won": True}, {"game": "gang", "won": True, "announcer": "Cilli"},
              {"game": "bauernschnapser", "won": True, "announcer": "Bert"})
    assert s.lines[-1].points == {"A": 12, "B": 0}
    assert s.lines[-1].stand == {"A": 24, "B": 9}


def test_das_blatt_geht_mit_dem_naechsten_bummerl_weiter_und_zaehlt_bummerl_je_team() -> None:
    """The sheet carries on with the next Bummerl and tallies the Bummerl per team."""
    kbs_b = {"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True}
    s = score(
        {"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True},  # B 24:0: A Schneider
        {"game": "bauernschnapser", "won": True, "announcer": "Anna"},  # rufer Cilli; A 12
        {"game": "bauernschnapser", "won": True, "announcer": "Anna"},  # A 24:0: B Schneider
        normal(False, "ab33"),  # Done's team? Rufer is Done (B2): B loses, A 1
        kbs_b | {"announcer": "Cilli", "won": False},  # Rufer Anna; Cilli's Kontra fails: A 25
    )
    assert s.result.bummerl == {"A": 2, "B": 4}  # type: ignore[attr-defined]
    assert s.result.bummerl_won == {"A": 2, "B": 1}  # type: ignore[attr-defined]
    assert [b.stand for b in s.result.history] == [  # type: ignore[attr-defined]
        {"A": 0, "B": 24},
        {"A": 24, "B": 0},
        {"A": 25, "B": 0},
    ]
    assert s.totals == {"A": 49, "B": 24}
    assert s.status.messages[-1] == "Bummerl: Sautreiber 2, Kartler 4"


def test_bummerl_count_ends_the_sheet() -> None:
    """Option bummerl_count: a tournament sheet ends after that many Bummerl; a further game is refused."""
    kbs = {"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True}
    s = score(kbs, bummerl_count=1)
    assert s.status.finished and s.result.finished  # type: ignore[attr-defined]
    error = refused(kbs, normal(), bummerl_count=1)
    assert error.entry == 2 and "beendet" in error.message


def test_target_is_an_option() -> None:
    """Ziel ist es, 24 Punkte zu erreichen; the target is a house-rule option."""
    s = score({"game": "gang", "won": True}, target=9)
    assert s.result.bummerl == {"A": 0, "B": 2}  # type: ignore[attr-defined]


def test_countdown_zaehlt_von_24_auf_null() -> None:
    """Regionale Variante: "wird von 24 auf null Punkten heruntergezählt und das Team, das als erstes
    null Punkte erreicht hat, gewinnt"."""
    s = score({"game": "gang", "won": True}, {"game": "bauernschnapser", "won": True, "announcer": "Cilli"}, countdown=True)
    assert s.lines[0].stand == {"A": 15, "B": 24}
    assert s.lines[1].stand == {"A": 15, "B": 12}
    s = score(
        {"game": "gang", "won": True},
        {"game": "bauernschnapser", "won": True, "announcer": "Anna"},
        {"game": "schnapser", "won": True, "announcer": "Bert"},
        countdown=True,
    )
    assert s.lines[-1].stand == {"A": 0, "B": 24}
    assert s.result.bummerl == {"A": 0, "B": 2}  # type: ignore[attr-defined]
    assert "heruntergezählt" in s.status.messages[0]


def test_corrections_and_voids_rescore() -> None:
    """The log is append-only: a correction replaces a game, a void cancels it."""
    s = sheet({"game": "gang", "won": True}, normal())
    s = s.with_entry(Entry(kind="correction", target=1, replacement={"kind": "game", "data": {"game": "gang", "won": False}}))
    assert RS.score(s).totals == {"A": 0, "B": 10}
    s = s.with_entry(Entry(kind="void", target=2))
    scored = RS.score(s)
    assert scored.totals == {"A": 0, "B": 9}
    assert scored.status.details["rufer"] == "B1"


def test_close_with_an_open_bummerl_does_not_score_it() -> None:
    """Closing an evening mid-Bummerl: nobody reached 24, so the open Bummerl gives nobody a Bummerl."""
    s = sheet(normal()).with_entry(Entry(kind="close", data={"signed_by": "Anna"}))
    scored = RS.score(s)
    assert scored.status.closed and scored.status.finished and scored.status.dealer is None
    assert scored.result.bummerl == {"A": 0, "B": 0}  # type: ignore[attr-defined]
    assert "Das offene Bummerl (Stand 1:0) hat niemand gewonnen" in scored.lines[-1].explanation[-1].text
    assert scored.status.messages[0] == "Blatt abgeschlossen nach 0 Bummerl"


def test_close_before_the_tournament_bummerl_count_needs_an_override() -> None:
    """Option bummerl_count: a tournament sheet closes early only with the organizer's note (override)."""
    s = sheet(normal(), bummerl_count=2).with_entry(Entry(kind="close", data={"signed_by": "Anna"}))
    with pytest.raises(RuleViolation) as info:
        RS.score(s)
    assert info.value.rule == "Allgemeine Regeln (Bummerl)" and "2 von 2 Bummerl" in info.value.message
    s = sheet(normal(), bummerl_count=2).with_entry(
        Entry(kind="close", data={"signed_by": "Anna", "override": "Sperrstunde, Turnierleitung"})
    )
    assert "Sperrstunde" in RS.score(s).lines[-1].explanation[1].text


def test_example_file_gives_the_bummerl_tally_checked_by_hand() -> None:
    """``tischblock score docs/examples/bauernschnapsen.json``: three Bummerl (25:16, 1:27, 48:1), one
    correction (entry 7) and one void (entry 12): Hausruckviertler 1 Bummerl, Kartlrunde Ried 2; 74:44 written."""
    import json
    import subprocess
    import sys

    from .conftest import ROOT

    out = subprocess.run(
        [sys.executable, "cli.py", "score", "docs/examples/bauernschnapsen.json"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    score = json.loads(out.stdout)
    assert score["result"]["bummerl"] == {"A": 1, "B": 2}
    assert [b["stand"] for b in score["result"]["history"]] == [{"A": 25, "B": 16}, {"A": 1, "B": 27}, {"A": 48, "B": 1}]
    assert score["totals"] == {"A": 74, "B": 44}
    assert score["status"]["closed"] is True


# -- review: explanation lines the table reads ----------------------------------------------------


def test_normales_spiel_nennt_den_rufer_auch_wenn_der_partner_eingetragen_ist() -> None:
    """Beginn und Ende: the Rufer is who calls trump (Anna in the first game). A normal game entered
    with the partner as ``announcer`` is still the Rufer's game: the line must not call Bert the Rufer."""
    s = score(normal(True, "ab33", announcer="Bert"))
    text = s.lines[0].explanation[0].text
    assert "Rufer Anna" in text and "Rufer Bert" not in text


def test_countdown_bummerl_zeile_spricht_von_null_nicht_von_24() -> None:
    """Allgemeine Regeln, regionale Variante: "wird von 24 auf null Punkten heruntergezählt und das
    Team, das als erstes null Punkte erreicht hat, gewinnt". With ``countdown`` the stand reads 0:24,
    so the Bummerl line must say the winners reached zero and the Schneider team still has all 24,
    not "24 erreicht" and "hat 0 Punkte" (which read as the opposite on that sheet)."""
    s = score({"game": "kontrabauernschnapser", "announcer": "Cilli", "won": True}, countdown=True)
    assert s.lines[0].stand == {"A": 24, "B": 0}
    text = s.lines[0].explanation[-1].text
    assert "24 erreicht" not in text and "hat 0 Punkte" not in text
    assert "auf null" in text
    assert "Sautreiber hat noch alle 24: Schneider, zählt 2 Bummerl" in text


def test_countdown_retourschneider_zeile_nennt_den_heruntergezaehlten_stand() -> None:
    """Allgemeine Regeln: "Führt ein Team mit 23:0 und verliert ... Retourschneider". Counting down,
    that lead is written 1:24; the line must say so."""
    games = [
        {"game": "bauernschnapser", "won": True},  # A needs 12
        {"game": "gang", "won": True, "announcer": "Bert"},  # A needs 3
        normal(True, "unter33", announcer="Bert"),  # A needs 1, B 24
        {"game": "kontrabauernschnapser", "announcer": "Anna", "won": False},  # B reaches 0
    ]
    s = score(*games, countdown=True)
    assert s.lines[2].stand == {"A": 1, "B": 24}
    text = s.lines[-1].explanation[-1].text
    assert "Sautreiber führte 1:24 und verliert: Retourschneider, zählt 4 Bummerl" in text
    assert s.result.bummerl == {"A": 4, "B": 0}  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["kontraschnapser", "kontrabauernschnapser", "schnapser-zusammen"])
def test_kontraspiel_ohne_ansager_sagt_dass_der_ansager_fehlt(game: str) -> None:
    """Kontraschnapser: "kann von einem Gegenspieler des Rufers gespielt werden"; Schnapser zusammen:
    "der Spielpartner des Rufers". An entry without ``announcer`` stands for the Rufer, so it is
    refused; the message must tell the table that the announcer is missing, not only "nicht Anna"
    (nobody entered Anna)."""
    error = refused({"game": game, "won": True}, games=ALL_GAMES)
    assert "Anna" in error.message
    assert "kein Ansager eingetragen" in error.message
