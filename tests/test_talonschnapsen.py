"""Talonschnapsen (``bauernschnapsen.txt``, section "Talonschnapsen (3 Spieler)")."""

from __future__ import annotations

import pytest

from scoring import Entry, Participant, RuleViolation, find_ruleset
from scoring.schnapsen import CATALOGUE

from .conftest import game_helpers

RS = find_ruleset("talonschnapsen")
TALON_GAMES = [k for k, s in CATALOGUE.items() if k != "normal" and not s.teams_only]

# Seats clockwise: Franz (F), Gerti (G), Hans (H); Franz is the first Rufer.
PLAYERS = (
    Participant(id="F", name="Franz", seat=1),
    Participant(id="G", name="Gerti", seat=2),
    Participant(id="H", name="Hans", seat=3),
)


sheet, score, refused = game_helpers(RS, PLAYERS)


def test_three_players_only() -> None:
    """Talonschnapsen: "es gibt nur drei Spieler"."""
    with pytest.raises(RuleViolation) as info:
        RS.new_sheet(PLAYERS[:2])
    assert "3 Spieler" in info.value.message


def test_gewonnenes_spiel_schreibt_der_ansager_allein() -> None:
    """Punkte: "Wenn der Spieler sein angesagtes Spiel schafft, bekommt er die Punkte allein gutgeschrieben"."""
    s = score({"game": "gang", "announcer": "G", "won": True})
    assert s.totals == {"F": 0, "G": 9, "H": 0}
    assert "9 für Gerti allein" in s.lines[0].explanation[-1].text


def test_verlorenes_spiel_schreibt_jeder_der_beiden_anderen() -> None:
    """Punkte: "bei Nicht-Erfolg bekommt jeder der beiden anderen die Punkte gutgeschrieben"."""
    s = score({"game": "gang", "announcer": "G", "won": False})
    assert s.totals == {"F": 9, "G": 0, "H": 9}
    assert s.lines[0].explanation[-1].rule == "Talonschnapsen (Punkte)"


@pytest.mark.parametrize(("augen", "points"), [("ab33", 1), ("unter33", 2), ("kein_stich", 3)])
def test_normales_spiel_des_rufers(augen: str, points: int) -> None:
    """Normales Spiel: "muss der Rufer auf mindestens 66 Punkte kommen"; 1, 2 or 3 by the losers' Augen."""
    assert score({"game": "normal", "won": True, "augen": augen}).totals == {"F": points, "G": 0, "H": 0}
    assert score({"game": "normal", "won": False, "augen": augen}).totals == {"F": 0, "G": points, "H": points}


def test_normales_spiel_spielt_nur_der_rufer() -> None:
    error = refused({"game": "normal", "announcer": "G", "won": True, "augen": "ab33"})
    assert error.rule == "Normales Spiel" and "der Rufer" in error.message


def test_normales_spiel_braucht_die_augen() -> None:
    error = refused({"game": "normal", "won": True})
    assert error.rule == "Normales Spiel (1, 2 oder 3 Punkte)"


def test_schnapser_mit_vier_stichen_zaehlt_sechs() -> None:
    """"Der Schnapser beim Talonschnapsen besteht aus 4 Stichen"; points as in Bauernschnapsen: 6."""
    s = score({"game": "schnapser", "won": True})
    assert s.totals == {"F": 6, "G": 0, "H": 0}
    assert "vier Stiche" in s.lines[0].explanation[0].text


def test_schnapser_nur_der_rufer() -> None:
    """Schnapser: only the Rufer (the Atout-Rufer; the Talon example: "Rufer (Spieler A) sagt einen Schnapser an")."""
    error = refused({"game": "schnapser", "announcer": "H", "won": True})
    assert "nur der Rufer" in error.message


def test_farbenring_mit_allen_sechs_stichen() -> None:
    """"Beim Farbenring hat der Spieler alle 5 Karten einer bestimmten Farbe und muss alle 6 Stiche machen"."""
    s = score({"game": "farbenringerl", "announcer": "H", "won": True})
    assert s.totals["H"] == 18
    assert "alle sechs Stiche" in s.lines[0].explanation[0].text


def test_kontraspiele_sagt_ein_anderer_als_der_atout_rufer() -> None:
    """"Bei Kontra-Spielen bekommt den Talon der Figur-Rufende, der Atout-Rufende spielt aus und spielt
    mit dem dritten Mitspieler gegen die Figur"."""
    s = score({"game": "kontraschnapser", "announcer": "G", "won": False})
    assert s.totals == {"F": 12, "G": 0, "H": 12}
    error = refused({"game": "kontraschnapser", "announcer": "F", "won": True})
    assert "Gegenspieler des Rufers" in error.message


def test_schnapser_zusammen_gibt_es_ohne_partner_nicht() -> None:
    """"Schnapser zusammen" needs the Rufer's partner: Talonschnapsen has none."""
    error = refused({"game": "schnapser-zusammen", "announcer": "G", "won": True})
    assert error.rule == "Punkteübersicht"
    with pytest.raises(RuleViolation) as info:
        RS.options({"games": ["schnapser-zusammen"]})
    assert "Bauernschnapsen" in info.value.message


def test_rufer_geht_reihum_nach_den_plaetzen() -> None:
    """Vorhand (left of the dealer) calls Atout; the Rufer deals next, so the Rufer moves on by seat."""
    players = (
        Participant(id="H", name="Hans", seat=3),
        Participant(id="F", name="Franz", seat=1),
        Participant(id="G", name="Gerti", seat=2),
    )
    s = RS.new_sheet(players)
    rufer, dealer = [], []
    for _ in range(4):
        status = RS.score(s).status
        rufer.append(status.details["rufer"])
        dealer.append(status.dealer)
        s = s.with_entry(Entry(kind="game", data={"game": "normal", "won": True, "augen": "ab33"}))
    assert rufer == ["F", "G", "H", "F"]
    assert dealer == ["H", "F", "G", "H"]  # status.dealer is who deals: the player right of the Rufer
    assert "Rufer: Gerti; es gibt Franz" in RS.score(s.model_copy(update={"entries": s.entries[:1]})).status.messages


@pytest.mark.parametrize(("level", "points"), [(1, 12), (2, 24), (3, 48)])
def test_flecken_auch_beim_talonschnapsen(level: int, points: int) -> None:
    """"Flecken ist auch beim Talonschnapsen möglich": x2, x4, x8."""
    s = score({"game": "schnapser", "won": False, "spritze": level}, target=99)
    assert s.totals == {"F": 0, "G": points, "H": points}


def test_spritze_x16_refused() -> None:
    error = refused({"game": "schnapser", "won": False, "spritze": 4})
    assert error.rule == "Spritzen (×2, ×4, ×8)"


# -- Bummerl -----------------------------------------------------------------------------------


def test_bummerl_hat_wer_die_wenigsten_punkte_hat() -> None:
    """"Es hat immer derjenige ein Bummerl ..., der die wenigsten Punkte von den dreien hat"."""
    s = score(
        {"game": "normal", "won": True, "augen": "ab33"},  # F 1
        {"game": "gang", "announcer": "G", "won": True},  # G 9
        {"game": "kontrabauernschnapser", "announcer": "G", "won": True},  # Rufer H; G 33
    )
    (b,) = s.result.history  # type: ignore[attr-defined]
    assert b.stand == {"F": 1, "G": 33, "H": 0}
    assert b.winners == ("G",)
    assert [(v.participant, v.art, v.bummerl) for v in b.losers] == [("H", "Schneider", 2)]
    assert s.result.bummerl == {"F": 0, "G": 0, "H": 2}  # type: ignore[attr-defined]


def test_bummerl_bei_gleichstand_haben_beide() -> None:
    """"sollten zwei Spieler dieselbe Punktezahl haben, so haben beide ein Bummerl"."""
    s = score(
        {"game": "gang", "announcer": "G", "won": False},  # F 9, H 9
        {"game": "bauernschnapser", "announcer": "G", "won": True},  # G 12
        {"game": "bauernschnapser", "announcer": "G", "won": True},  # G 24
    )
    assert s.result.bummerl == {"F": 1, "G": 0, "H": 1}  # type: ignore[attr-defined]


def test_schneider_mit_null_punkten() -> None:
    """"ein Bummerl oder Schneider": Schneider (two Bummerl) for a loser with 0 points."""
    s = score({"game": "kontrabauernschnapser", "announcer": "H", "won": True})
    assert s.result.bummerl == {"F": 2, "G": 2, "H": 0}  # type: ignore[attr-defined]


def test_zwei_erreichen_gleichzeitig_24() -> None:
    """A failed 24-point game makes both others reach the target; the declarer gets the Bummerl."""
    s = score({"game": "normal", "won": True, "augen": "ab33"}, {"game": "kontrabauernschnapser", "announcer": "F", "won": False})
    (b,) = s.result.history  # type: ignore[attr-defined]
    assert b.winners == ("G", "H")
    assert [(v.participant, v.art) for v in b.losers] == [("F", "Bummerl")]


def test_regionale_variante_jeder_unter_24_hat_ein_bummerl() -> None:
    """"Regionale Variante: Jeder Spieler, der nicht die 24 Punkte erreicht, hat ein Bummerl"."""
    games = (
        {"game": "normal", "won": True, "augen": "unter33"},  # F 2
        {"game": "gang", "announcer": "G", "won": True},  # G 9
        {"game": "kontrabauernschnapser", "announcer": "G", "won": True},  # G 33
    )
    assert score(*games).result.bummerl == {"F": 0, "G": 0, "H": 2}  # type: ignore[attr-defined]
    assert score(*games, bummerl_below_target=True).result.bummerl == {"F": 1, "G": 0, "H": 2}  # type: ignore[attr-defined]


def test_retourschneider_ist_beim_talonschnapsen_eine_option() -> None:
    """The Talon text names only "Bummerl" or "Schneider"; the Retourschneider (led 23:0, lost) is an option."""
    games = [
        {"game": "bauernschnapser", "won": True},  # Rufer F: F 12
        {"game": "gang", "announcer": "F", "won": True},  # F 21
        {"game": "normal", "won": True, "augen": "unter33", "rufer": "F"},  # F 23:0:0
        {"game": "kontrabauernschnapser", "announcer": "F", "won": False},  # Rufer G; F fails: G 24, H 24
    ]
    s = score(*games)
    assert s.lines[2].stand == {"F": 23, "G": 0, "H": 0}
    assert s.result.bummerl == {"F": 1, "G": 0, "H": 0}  # type: ignore[attr-defined]
    s = score(*games, retourschneider=True)
    assert s.result.bummerl == {"F": 4, "G": 0, "H": 0}  # type: ignore[attr-defined]
    assert s.result.history[0].losers[0].art == "Retourschneider"  # type: ignore[attr-defined]


def test_countdown_beim_talonschnapsen() -> None:
    s = score({"game": "gang", "announcer": "G", "won": False}, countdown=True)
    assert s.lines[0].stand == {"F": 15, "G": 24, "H": 15}


def test_example_file_gives_the_bummerl_tally_checked_by_hand() -> None:
    """``tischblock score docs/examples/talonschnapsen.json``: Bummerl to Gerti (8:4:30), to Hans (25:21:13),
    a Schneider to Hans (24:24:0): Franz 0, Gerti 1, Hans 3; 57:49:43 written."""
    import json
    import subprocess
    import sys

    from .conftest import ROOT

    out = subprocess.run(
        [sys.executable, "cli.py", "score", "docs/examples/talonschnapsen.json"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    score = json.loads(out.stdout)
    assert score["result"]["bummerl"] == {"F": 0, "G": 1, "H": 3}
    assert score["totals"] == {"F": 57, "G": 49, "H": 43}
    assert score["status"]["details"]["rufer"] == "H"


@pytest.mark.parametrize("game", TALON_GAMES)
def test_punkteuebersicht_jedes_spiel_beim_talonschnapsen(game: str) -> None:
    """"Die gerufenen Spiele unterscheiden sich ... nicht von denen des 4er- oder Bauernschnapsens":
    each row's points, alone when made, to each of the two others when failed (Kontra-Herrenbauer: at
    most the 24 the Bummerl needs)."""
    who = CATALOGUE[game].who
    announcer = "F" if who == "rufer" else "G" if who == "gegner" else "H"
    points = min(CATALOGUE[game].points, 24)
    won = score({"game": game, "announcer": announcer, "won": True}, games=TALON_GAMES)
    assert won.totals == {p: (points if p == announcer else 0) for p in "FGH"}
    lost = score({"game": game, "announcer": announcer, "won": False}, games=TALON_GAMES)
    assert lost.totals == {p: (0 if p == announcer else points) for p in "FGH"}


def test_retourschneider_zeile_nennt_den_stand_der_drei() -> None:
    """Option retourschneider: the line says the lead as the three-column sheet shows it (23:0:0),
    and counting down (Allgemeine Regeln, regionale Variante) as 1:24:24."""
    games = [
        {"game": "bauernschnapser", "won": True},
        {"game": "gang", "announcer": "F", "won": True},
        {"game": "normal", "won": True, "augen": "unter33", "rufer": "F"},
        {"game": "kontrabauernschnapser", "announcer": "F", "won": False},
    ]
    text = score(*games, retourschneider=True).lines[-1].explanation[-1].text
    assert "Franz führte 23:0:0 und verliert: Retourschneider" in text
    text = score(*games, retourschneider=True, countdown=True).lines[-1].explanation[-1].text
    assert "Franz führte 1:24:24 und verliert: Retourschneider" in text
    assert "(heruntergezählt), auf null: Gerti und Hans" in text
