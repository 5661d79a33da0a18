"""Doppelkopf (``doppelkopf-turnier`` and ``doppelkopf-haus``): one test per rule.

The worked examples of both documents are data files under ``tests/data/doppelkopf-*/``;
here each rule is checked on its own, with real numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import Entry, Participant, RuleViolation, Score, Sheet, find_ruleset

T = "doppelkopf-turnier"
H = "doppelkopf-haus"
NAMES = ("Anna", "Bert", "Carla", "Dieter", "Emil", "Frieda")


def new_sheet(ruleset: str, players: int = 4, options: dict[str, Any] | None = None) -> Sheet:
    people = [Participant(id=f"p{i}", name=NAMES[i - 1], seat=i) for i in range(1, players + 1)]
    return find_ruleset(ruleset).new_sheet(people, options=options)


def add(sheet: Sheet, kind: str, **data: Any) -> Sheet:
    return sheet.with_entry(Entry(kind=kind, data=data))


def score(sheet: Sheet) -> Score:
    return find_ruleset(sheet.ruleset.id).score(sheet)


def play(ruleset: str, players: int = 4, options: dict[str, Any] | None = None, **game: Any) -> dict[str, int]:
    """The points of a single game on a fresh sheet."""
    return dict(score(add(new_sheet(ruleset, players, options), "game", **game)).lines[-1].points)


def refused(sheet: Sheet, rule: str, contains: str = "") -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        score(sheet)
    assert rule in info.value.rule, str(info.value)
    assert contains in str(info.value), str(info.value)
    return info.value


NORMAL = {"re": ["p1", "p2"], "augen": 130}


def normal_for(dealer_index: int, players: int) -> dict[str, Any]:
    """A plain game (Re wins with 130: 1 point) among the players of game ``dealer_index``."""
    ids = [f"p{i}" for i in range(1, players + 1)]
    sitting = ids[dealer_index % players] if players == 5 else None
    active = [p for p in ids if p != sitting]
    return {"re": active[:2], "augen": 130}


# -- Regel 1: tables and games ------------------------------------------------------------------
def test_regel_1_vierertisch_16_spiele_dann_ist_die_runde_beendet() -> None:
    sheet = new_sheet(T)
    for i in range(16):
        sheet = add(sheet, "game", **normal_for(i, 4))
    result = score(sheet)
    assert result.status.finished is True
    assert result.status.details["spiele"] == 16
    assert result.totals == {"p1": 16, "p2": 16, "p3": -16, "p4": -16}
    refused(add(sheet, "game", **NORMAL), "Regel 1", "16 Spielen beendet")


def test_regel_1_fuenfertisch_20_spiele_und_der_geber_sitzt_aus() -> None:
    sheet = new_sheet(T, 5)
    status = score(sheet).status
    assert status.dealer == "p1"
    assert status.details["sitzt_aus"] == "p1"
    assert "Anna gibt und sitzt aus" in status.messages and not any(m.startswith("Es gibt") for m in status.messages)
    refused(add(sheet, "game", re=["p1", "p2"], augen=130), "Regel 25 (sitzender Spieler)", "Anna gibt und sitzt aus")
    for i in range(20):
        sheet = add(sheet, "game", **normal_for(i, 5))
    result = score(sheet)
    assert result.status.finished is True
    assert result.status.details["spiele_gesamt"] == 20
    for i, line in enumerate(result.lines):
        assert line.points[f"p{i % 5 + 1}"] == 0, "der sitzende Geber bekommt nichts"
    assert {p: r.spiele for p, r in result.result.spieler.items()} == {f"p{i}": 16 for i in range(1, 6)}  # type: ignore[attr-defined]


def test_regel_1_status_zeigt_gespielte_und_offene_spiele_und_den_geber() -> None:
    sheet = add(new_sheet(T), "game", **NORMAL)
    status = score(sheet).status
    assert status.dealer == "p2"
    assert status.details["spiele"] == 1
    assert status.details["spiele_offen"] == 15
    assert "Spiel 2 von 16, noch 15 Spiele" in status.messages
    assert "Es gibt: Bert" in status.messages


def test_regel_1_ein_sechster_spieler_wird_abgewiesen() -> None:
    people = [Participant(id=f"p{i}", name=NAMES[i - 1]) for i in range(1, 7)]
    with pytest.raises(RuleViolation, match="Regel 1"):
        find_ruleset(T).new_sheet(people)


def test_geber_ausser_der_reihe_wird_vermerkt_und_die_reihe_geht_von_ihm_weiter() -> None:
    sheet = add(new_sheet(T, 5), "game", re=["p1", "p2"], augen=130, geber="p3")
    result = score(sheet)
    assert result.lines[0].points == {"p1": 1, "p2": 1, "p3": 0, "p4": -1, "p5": -1}
    assert result.lines[0].explanation[0].text == "Geber war Carla statt Anna"
    assert result.status.dealer == "p4"


# -- Regel 17 / 18 / Hausregel 3: who wins -----------------------------------------------------
@pytest.mark.parametrize("ruleset", [T, H])
def test_regel_17_re_braucht_121_augen(ruleset: str) -> None:
    assert play(ruleset, re=["p1", "p2"], augen=121)["p1"] == 1
    assert play(ruleset, re=["p1", "p2"], augen=120)["p1"] == -2  # keine 120, gegen die Alten


@pytest.mark.parametrize("ruleset", [T, H])
def test_regel_17_nur_kontra_gesagt_re_gewinnt_mit_120(ruleset: str) -> None:
    assert play(ruleset, re=["p1", "p2"], augen=120, ansagen={"kontra": {"ansage": True}})["p1"] == 2
    assert play(ruleset, re=["p1", "p2"], augen=119, ansagen={"kontra": {"ansage": True}})["p1"] == -4


def test_regel_17_einen_zurueck_von_re_zaehlt_als_re_ansage_also_braucht_re_wieder_121() -> None:
    points = play(T, re=["p1", "p2"], augen=120, ansagen={"kontra": {"ansage": True}, "re": {"zurueck": True}})
    assert points["p1"] == -8  # (keine 120, gegen die Alten) x2 x2


def test_regel_18_keine_90_braucht_151_augen() -> None:
    announced = {"re": {"ansage": True, "absage": "keine 90"}}
    assert play(T, re=["p1", "p2"], augen=151, ansagen=announced)["p1"] == 6  # (1 + 2) x2
    # with 150 Re fails: keine 120, gegen die Alten, keine 90, keine 90 = 4, x2
    assert play(T, re=["p1", "p2"], augen=150, ansagen=announced)["p1"] == -8


def test_regel_18_absage_schwarz_braucht_alle_stiche() -> None:
    announced = {"re": {"ansage": True, "absage": "schwarz"}}
    assert play(T, re=["p1", "p2"], augen=240, ansagen=announced)["p1"] == 18  # 1 + 4 x 2 = 9, x2
    # one trick lost (8 Augen): all four levels announced and failed: 1 + 1 + 8 = 10, x2
    assert play(T, re=["p1", "p2"], augen=232, ansagen=announced)["p1"] == -20


def test_beide_absagen_verfehlt_keiner_gewinnt_und_die_absagen_heben_sich_auf() -> None:
    both = {"re": {"ansage": True, "absage": "keine 90"}, "kontra": {"ansage": True, "absage": "keine 90"}}
    sheet = add(new_sheet(T), "game", re=["p1", "p2"], augen=120, ansagen=both)
    line = score(sheet).lines[0]
    assert line.points == {"p1": 0, "p2": 0, "p3": 0, "p4": 0}
    assert "keine gewinnt" in line.explanation[1].text
    # Re's failed keine 60 against Kontra's failed keine 90: 4 - 2 = 2 for Re, x2 x2
    both = {"re": {"ansage": True, "absage": "keine 60"}, "kontra": {"ansage": True, "absage": "keine 90"}}
    assert play(T, re=["p1", "p2"], augen=120, ansagen=both)["p1"] == -8


# -- Regel 19 / 25: the count ------------------------------------------------------------------
def test_regel_19_erreichte_stufen_ohne_ansage_zaehlen_einfach() -> None:
    # Re 215 Augen: keine 120, keine 90, keine 60, keine 30 = 4; no doubling
    assert play(T, re=["p1", "p2"], augen=215)["p1"] == 4


def test_regel_19_absage_gibt_einen_zusatzpunkt() -> None:
    # keine 120, keine 90, keine 90 = 3, "Re" x2 = 6
    assert play(T, re=["p1", "p2"], augen=160, ansagen={"re": {"ansage": True, "absage": "keine 90"}})["p1"] == 6


def test_regel_25_gegen_die_alten_nur_wenn_kontra_gewinnt() -> None:
    assert play(T, re=["p1", "p2"], augen=100)["p3"] == 2
    assert play(T, re=["p1", "p2"], augen=140)["p1"] == 1


def test_regel_25_null_augen_ohne_neunen_heisst_schwarz() -> None:
    # keine 120, keine 90, keine 60, keine 30, schwarz = 5
    assert play(T, re=["p1", "p2"], augen=240)["p1"] == 5
    # with Neunen a side can take a trick worth 0 Augen: schwarz only if entered
    assert play(T, options={"mit_neunen": True}, re=["p1", "p2"], augen=240)["p1"] == 4
    assert play(T, options={"mit_neunen": True}, re=["p1", "p2"], augen=240, schwarz="kontra")["p1"] == 5


def test_regel_22_negativer_wert_die_gewinner_zahlen() -> None:
    # Kontra wins with 121 (2 Punkte), Re has 2 Doppelköpfe and a Fuchs: 2 - 3 = -1, "Re" x2 = -2
    points = play(
        T, re=["p1", "p2"], augen=119, ansagen={"re": {"ansage": True}}, sonderpunkte={"re": {"doppelkopf": 2, "fuchs": 1}}
    )
    assert points == {"p1": 2, "p2": 2, "p3": -2, "p4": -2}


def test_regel_22_turnier_sonderpunkte_vor_der_verdopplung_haus_danach() -> None:
    game = {
        "re": ["p1", "p2"],
        "augen": 130,
        "ansagen": {"re": {"ansage": True}, "kontra": {"ansage": True}},
        "sonderpunkte": {"re": {"doppelkopf": 1}},
    }
    assert play(T, **game)["p1"] == 8  # (1 + 1) x2 x2
    assert play(H, **game)["p1"] == 5  # 1 x2 x2 + 1


def test_eine_engine_die_turnierzaehlung_mit_der_hausoption_ergibt_die_hauszaehlung() -> None:
    game = {"re": ["p1", "p2"], "augen": 130, "ansagen": {"re": {"ansage": True}}, "sonderpunkte": {"kontra": {"fuchs": 1}}}
    assert play(T, **game)["p1"] == 0  # (1 - 1) x2
    assert play(T, options={"sonderpunkte_nach_verdopplung": True}, **game)["p1"] == 1  # 1 x2 - 1
    assert play(H, **game)["p1"] == 1


# -- Regel 23: single players x3 ---------------------------------------------------------------
def test_regel_23_stille_hochzeit_x3_mit_sonderpunkten() -> None:
    # keine 120, keine 90, Doppelkopf = 3 per opponent, x3 for the Hochzeiter
    points = play(T, typ="stille_hochzeit", re=["p2"], augen=160, sonderpunkte={"re": {"doppelkopf": 1}})
    assert points == {"p1": -3, "p2": 9, "p3": -3, "p4": -3}


# -- Regel 6 / 11 / 12: Pflichtsolo ---------------------------------------------------------------
def test_regel_6_erstes_solo_ist_pflichtsolo_weitere_sind_lustsoli() -> None:
    sheet = new_sheet(T)
    sheet = add(sheet, "game", typ="damensolo", re=["p2"], augen=130)
    sheet = add(sheet, "game", typ="fleischloser", re=["p2"], augen=100)
    result = score(sheet)
    assert "Pflichtsolo von Bert" in result.lines[0].explanation[0].text
    assert "Lustsolo von Bert" in result.lines[1].explanation[0].text
    assert result.result.spieler["p2"].pflichtsolo == 1  # type: ignore[attr-defined]
    assert result.result.spieler["p2"].lustsoli == 1  # type: ignore[attr-defined]
    assert result.status.details["pflichtsolo_offen"] == ["p1", "p3", "p4"]
    assert "Pflichtsolo offen: Anna, Carla, Dieter" in result.status.messages


def test_regel_11_hochzeit_ohne_partner_ist_trumpfsolo_aber_kein_pflichtsolo() -> None:
    sheet = add(new_sheet(T), "game", typ="hochzeit", re=["p1"], augen=160)
    result = score(sheet)
    assert result.lines[0].points == {"p1": 6, "p2": -2, "p3": -2, "p4": -2}  # keine 120, keine 90 = 2, x3
    assert "kein Pflichtsolo" in result.lines[0].explanation[0].text
    assert "p1" in result.status.details["pflichtsolo_offen"]
    refused(add(new_sheet(T), "game", typ="hochzeit", re=["p1"], augen=150, sonderpunkte={"re": {"fuchs": 1}}), "Regel 21")


def test_regel_12_stille_hochzeit_ist_kein_pflichtsolo() -> None:
    result = score(add(new_sheet(T), "game", typ="stille_hochzeit", re=["p3"], augen=150))
    assert result.status.details["pflichtsolo_offen"] == ["p1", "p2", "p3", "p4"]


def test_regel_6_abschluss_mit_offenem_pflichtsolo_nur_mit_vermerk_der_turnierleitung() -> None:
    sheet = add(new_sheet(T), "game", **NORMAL)
    refused(add(sheet, "close", signed_by="Anna"), "Regel 6", "Pflichtsolo noch offen: Anna, Bert, Carla, Dieter")
    result = score(add(sheet, "close", signed_by="Anna", override="Zeitlimit, Turnierleitung Huber"))
    assert result.status.closed is True
    assert "Turnierleitung: Zeitlimit, Turnierleitung Huber" in result.lines[-1].explanation[0].text


def test_regel_6_abschluss_wenn_alle_pflichtsoli_gespielt_sind() -> None:
    sheet = new_sheet(T)
    for p in ("p1", "p2", "p3", "p4"):
        sheet = add(sheet, "game", typ="bubensolo", re=[p], augen=130)
    for i in range(4, 16):
        sheet = add(sheet, "game", **normal_for(i, 4))
    result = score(add(sheet, "close", signed_by="Anna"))
    assert result.status.closed is True
    assert "Alle Pflichtsoli gespielt" in result.status.messages


def test_korrektur_eines_solos_oeffnet_das_pflichtsolo_wieder() -> None:
    sheet = add(new_sheet(T), "game", typ="bubensolo", re=["p1"], augen=130)
    sheet = sheet.with_entry(Entry(kind="correction", target=1, replacement={"kind": "game", "data": NORMAL}))  # type: ignore[arg-type]
    result = score(sheet)
    assert result.status.details["pflichtsolo_offen"] == ["p1", "p2", "p3", "p4"]
    assert result.totals == {"p1": 1, "p2": 1, "p3": -1, "p4": -1}


def test_hausregeln_kennen_kein_pflichtsolo() -> None:
    sheet = new_sheet(H)
    for i in range(16):
        sheet = add(sheet, "game", **normal_for(i, 4))
    result = score(add(sheet, "close", signed_by="Anna"))
    assert result.status.closed is True
    assert result.status.details["pflichtsolo_offen"] == []


# -- Regel 24 / Hausregel 2: penalties ------------------------------------------------------------
def test_regel_24_regelverstoss_minus_15_plus_5_zaehlt_nicht_als_spiel() -> None:
    sheet = add(new_sheet(T), "strafe", spieler="p3", grund="falsch bedient", spiel="wiederholt")
    result = score(sheet)
    assert result.lines[0].points == {"p1": 5, "p2": 5, "p3": -15, "p4": 5}
    assert result.status.details["spiele"] == 0
    assert result.status.dealer == "p1"
    assert "wiederholt" in result.lines[0].explanation[1].text


def test_regel_24_fuenfertisch_der_sitzende_bekommt_nichts() -> None:
    sheet = add(new_sheet(T, 5), "strafe", spieler="p3")
    assert score(sheet).lines[0].points == {"p1": 0, "p2": 5, "p3": -15, "p4": 5, "p5": 5}
    refused(add(new_sheet(T, 5), "strafe", spieler="p1"), "Regel 25 (sitzender Spieler)")


def test_hausregel_2_falsch_bedient_minus_9_plus_3_und_das_spiel_ist_zu_ende() -> None:
    result = score(add(new_sheet(H), "strafe", spieler="p2"))
    assert result.lines[0].points == {"p1": 3, "p2": -9, "p3": 3, "p4": 3}
    assert result.status.details["spiele"] == 1
    assert result.status.dealer == "p2"


# -- Hausregeln: Schmeißen, Armut, Köhler, Schwein --------------------------------------------------
def test_hausregel_ia_schmeissen_nichts_gewertet_derselbe_geber_gibt_neu() -> None:
    result = score(add(new_sheet(H), "schmeissen", spieler="p3"))
    assert result.lines[0].points == {"p1": 0, "p2": 0, "p3": 0, "p4": 0}
    assert result.status.details["spiele"] == 0
    assert result.status.dealer == "p1"


def test_regel_3_turnier_kein_schmeissen_keine_armut_kein_koehler_kein_schwein() -> None:
    refused(add(new_sheet(T), "schmeissen", spieler="p3"), "Regel 3", "nicht geschmissen")
    refused(add(new_sheet(T), "game", typ="armut", re=["p1", "p2"], augen=130), "Regel 3", "Trumpfabgabe")
    refused(add(new_sheet(T), "game", typ="koehler", re=["p1"], augen=130), "Regel 10", "Köhler")
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=130, schwein=True), "Schwein")


def test_hausregel_armut_und_koehler_werden_gezaehlt() -> None:
    assert play(H, typ="armut", re=["p1", "p4"], augen=130)["p4"] == 1
    assert play(H, typ="koehler", re=["p1"], augen=130) == {"p1": 3, "p2": -1, "p3": -1, "p4": -1}


def test_hausregel_ii_schwein_nur_wo_karo_trumpf_ist() -> None:
    assert play(H, typ="trumpfsolo", re=["p1"], augen=130, schwein=True)["p1"] == 3
    refused(add(new_sheet(H), "game", typ="damensolo", re=["p1"], augen=130, schwein=True), "II. Schwein", "kein Trumpf")
    refused(add(new_sheet(H), "game", typ="farbsolo", farbe="pik", re=["p1"], augen=130, schwein=True), "II. Schwein")


def test_hausregel_4_karlchen_gefangen_zwei_punkte_fuer_eine_partei() -> None:
    # Re wins the last trick with a Kreuz-Bube and catches the other: 1 + 2 = 3
    assert play(H, re=["p1", "p2"], augen=130, sonderpunkte={"re": {"karlchen": 2}})["p1"] == 3
    both = {"re": {"karlchen": 1}, "kontra": {"karlchen": 1}}
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=130, sonderpunkte=both), "4. Sonderpunkte", "letzten Stich")
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=130, sonderpunkte={"re": {"karlchen": 2}}),
        "Regel 20/22",
        "höchstens einmal",
    )


def test_hausregel_1_2_solo_ohne_ansage_ist_nur_die_augenwertung_x3() -> None:
    assert play(H, typ="damensolo", re=["p2"], augen=100) == {"p1": 2, "p2": -6, "p3": 2, "p4": 2}


def test_hausregel_1_2_einen_zurueck_im_solo_zaehlt_2_punkte() -> None:
    # Kontra says Kontra, the soloist replies "Einen zurück" and wins with 125: 1 + 2 + 2 = 5
    points = play(H, typ="bubensolo", re=["p2"], augen=125, ansagen={"kontra": {"ansage": True}, "re": {"zurueck": True}})
    assert points["p2"] == 15


# -- refusals -----------------------------------------------------------------------------------
def test_augen_ueber_240_oder_negativ_abgewiesen() -> None:
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=241), "Regel 2", "nicht 241")
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=-1), "Augen (240 im Spiel)")


def test_spieler_auf_beiden_seiten_oder_doppelt_abgewiesen() -> None:
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], kontra=["p1", "p3", "p4"], augen=130), "Parteien", "Anna kann nicht zugleich"
    )
    refused(add(new_sheet(T), "game", re=["p1", "p1"], augen=130), "Parteien", "doppelt")
    refused(add(new_sheet(T), "game", re=["p1", "p2"], kontra=["p3"], augen=130), "Parteien", "übrigen Spieler")
    refused(add(new_sheet(T), "game", re=["p1", "p9"], augen=130), "Regel 1", "sitzt nicht an diesem Tisch")


def test_spieltyp_und_zahl_der_re_spieler_muessen_passen() -> None:
    refused(add(new_sheet(T), "game", re=["p1"], augen=130), "Parteien", "zwei Spieler")
    refused(add(new_sheet(T), "game", typ="bubensolo", re=["p1", "p2"], augen=130), "Parteien", "einzelner Spieler")


def test_ansagen_absage_braucht_re_oder_kontra() -> None:
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=160, ansagen={"re": {"absage": "keine 90"}}), "Regel 14-16", 'setzt "Re"'
    )


def test_ansagen_einen_zurueck_braucht_eine_gegenansage_und_nicht_zugleich_re() -> None:
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=160, ansagen={"re": {"zurueck": True}}), "Regel 14-16", "Gegenpartei"
    )
    both = {"re": {"ansage": True, "zurueck": True}, "kontra": {"ansage": True}}
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=160, ansagen=both), "Regel 14-16", "Erwiderung")


def test_schwarz_nur_mit_null_augen_und_ohne_sonderpunkte() -> None:
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=230, schwarz="kontra"), "Regel 2", "nicht 10")
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=240, sonderpunkte={"kontra": {"fuchs": 1}}),
        "Regel 20/22",
        "keinen Stich",
    )


def test_doppelkopf_braucht_40_augen_je_doppelkopf() -> None:
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=210, sonderpunkte={"kontra": {"doppelkopf": 1}}),
        "Regel 20/22",
        "40 Augen",
    )


def test_hoechstens_zwei_fuechse_und_mit_schwein_einer() -> None:
    refused(
        add(new_sheet(T), "game", re=["p1", "p2"], augen=130, sonderpunkte={"re": {"fuchs": 2}, "kontra": {"fuchs": 1}}),
        "Regel 20/22",
        "zwei Füchse",
    )
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=130, schwein=True, sonderpunkte={"re": {"fuchs": 2}}), "II. Schwein")


def test_sonderpunkte_im_solo_abgewiesen_in_beiden_regelwerken() -> None:
    refused(
        add(new_sheet(T), "game", typ="farbsolo", farbe="herz", re=["p1"], augen=130, sonderpunkte={"kontra": {"fuchs": 1}}),
        "Regel 21",
    )
    refused(add(new_sheet(H), "game", typ="bubensolo", re=["p1"], augen=130, sonderpunkte={"re": {"doppelkopf": 1}}), "1.2")


def test_regel_23_strafoptionen_muessen_nullsumme_ergeben() -> None:
    with pytest.raises(RuleViolation, match="3 x strafe_plus"):
        new_sheet(T, options={"strafe_minus": 15, "strafe_plus": 4})
    assert (
        score(add(new_sheet(T, options={"strafe_minus": 12, "strafe_plus": 4}), "strafe", spieler="p1")).lines[0].points["p1"]
        == -12
    )


def test_regel_6_status_warnt_wenn_weniger_spiele_als_offene_pflichtsoli_bleiben() -> None:
    sheet = new_sheet(T)
    for i in range(13):
        sheet = add(sheet, "game", **normal_for(i, 4))
    status = score(sheet).status
    assert status.details["spiele_offen"] == 3
    assert "Achtung: 4 Pflichtsoli offen, aber nur noch 3 Spiele" in status.messages


def test_sonderpunkte_grenzen_nennen_die_regel() -> None:
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=130, sonderpunkte={"re": {"fuchs": 3}}), "Regel 20/22", "zwei Füchse")
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=130, sonderpunkte={"re": {"karlchen": 3}}), "4. Sonderpunkte", "zwei Kreuz-Buben")
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=130, sonderpunkte={"re": {"herzstich": 2}}), "Regel 20/22", "höchstens einmal")
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=240, sonderpunkte={"re": {"doppelkopf": 7}}), "Regel 20/22", "40 Augen")


# -- Regel 1: a Runde has 16 (20) games; closing it early needs a note --------------------------------
@pytest.mark.parametrize("ruleset", [T, H])
def test_regel_1_runde_vorzeitig_abschliessen_nur_mit_vermerk(ruleset: str) -> None:
    """Regel 1: 16 Spiele pro Runde (20 am 5er-Tisch). Closing after 4 games without a note
    would silently drop 12 games; like the other rulesets, an early close needs ``override``."""
    sheet = new_sheet(ruleset)
    for p in ("p1", "p2", "p3", "p4"):
        sheet = add(sheet, "game", typ="bubensolo", re=[p], augen=130)
    refused(add(sheet, "close", signed_by="Anna"), "16 bzw. 20 Spiele", "gespielt sind 4: noch 12 offen")
    result = score(add(sheet, "close", signed_by="Anna", override="Zeit abgelaufen"))
    assert result.status.closed is True
    assert [e.text for e in result.lines[-1].explanation] == [
        "Abgeschlossen und unterschrieben von Anna",
        "Vorzeitig abgeschlossen nach 4 von 16 Spielen: Zeit abgelaufen",
    ]


# -- Regel 2: 40 cards, every trick has at least 8 Augen -------------------------------------------
@pytest.mark.parametrize("augen", [1, 7, 233, 239])
def test_regel_2_ohne_neunen_hat_eine_partei_0_oder_mindestens_8_augen(augen: int) -> None:
    """Regel 2: without Neunen the lowest card is a Bube (2 Augen), so every trick is worth at
    least 8 and a side has 0 Augen or at least 8: 1-7 (Re 233-239) is a typo, not a game."""
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=augen), "Regel 2", "mindestens 8 Augen")
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=augen), "Augen", "mindestens 8 Augen")
    assert play(T, options={"mit_neunen": True}, re=["p1", "p2"], augen=augen)


@pytest.mark.parametrize("augen", [0, 8, 232, 240])
def test_regel_2_grenzen_der_augen_ohne_neunen_gehen(augen: int) -> None:
    assert play(T, re=["p1", "p2"], augen=augen)


def test_regel_6_fuenfertisch_warnt_wenn_der_letzte_geber_sein_pflichtsolo_nicht_mehr_spielen_kann() -> None:
    """Regel 6 and 25: at a 5-player table the dealer sits out. Before the last game, a
    player who owes his Pflichtsolo and deals that game can no longer play it: the status
    must say so (one open Pflichtsolo and one game left looked fine before)."""
    sheet = new_sheet(T, 5)
    for p in ("p2", "p3", "p4", "p1"):  # the dealers of games 1-4 are p1-p4
        sheet = add(sheet, "game", typ="bubensolo", re=[p], augen=130)
    for i in range(4, 19):
        sheet = add(sheet, "game", **normal_for(i, 5))
    status = score(sheet).status
    assert status.details["spiele_offen"] == 1
    assert status.details["sitzt_aus"] == "p5"
    assert status.details["pflichtsolo_offen"] == ["p5"]
    assert "Spiel 20 von 20, noch 1 Spiel" in status.messages
    assert "Achtung: Emil gibt das letzte Spiel und sitzt aus, kann das Pflichtsolo also nicht mehr spielen" in status.messages


@pytest.mark.parametrize("spiel", ["fortgefuehrt", "wiederholt"])
def test_hausregel_2_das_spiel_ist_zu_ende_fortfuehren_oder_wiederholen_gibt_es_nicht(spiel: str) -> None:
    """Hausregel 2: "Hat ein Spieler nicht richtig bedient, dann ist das Spiel zu Ende." A strafe
    marked "fortgeführt"/"wiederholt" (Regel 24 of the tournament) contradicts that: the line
    said the game ended while the table would enter the same deal again, counting it twice."""
    refused(add(new_sheet(H), "strafe", spieler="p2", spiel=spiel), "2. Verwerfen", "zu Ende")


def test_regel_12_die_zeile_sagt_dass_die_stille_hochzeit_kein_pflichtsolo_ist() -> None:
    """Regel 12: a stille Hochzeit is played alone (x3) but is no Pflichtsolo. The line says so
    and cites the rule, as it does for a Hochzeit without partner (Regel 11)."""
    first = score(add(new_sheet(T), "game", typ="stille_hochzeit", re=["p3"], augen=150)).lines[0].explanation[0]
    assert first.rule == "Regel 11/12 (Hochzeit ist kein Pflichtsolo)"
    assert first.text.startswith("stille Hochzeit, kein Pflichtsolo: Re Carla")
    house = score(add(new_sheet(H), "game", typ="stille_hochzeit", re=["p3"], augen=150)).lines[0].explanation[0]
    assert "Pflichtsolo" not in house.text


def test_hausregel_1_2_beide_absagen_verfehlt_im_solo_die_ansagen_zaehlen_fuer_die_bessere_seite() -> None:
    """Hausregel 1.2 counts each Re/Kontra announcement 2 points instead of doubling. When both
    sides fail their Absagen nobody wins and the net decides: the 2 points must enlarge that
    net like a doubling does, not always go to the soloist (who got +6 for a net of -2)."""
    # Re's failed keine 60 gives Kontra 4, Kontra's failed keine 90 gives Re 2: net 2 for Kontra;
    # "Re" and "Kontra" add 2 each for Kontra: 6 per opponent, -18 for the soloist
    both = {"re": {"ansage": True, "absage": "keine 60"}, "kontra": {"ansage": True, "absage": "keine 90"}}
    line = score(add(new_sheet(H), "game", typ="bubensolo", re=["p1"], augen=120, ansagen=both)).lines[0]
    assert line.points == {"p1": -18, "p2": 6, "p3": 6, "p4": 6}
    assert line.explanation[3].text == '+ 2 Punkte für "Re" = 4 Punkte für Kontra'
    # tournament counting of the same game: -2 x2 x2 = -8, x3
    assert play(T, typ="bubensolo", re=["p1"], augen=120, ansagen=both) == {"p1": -24, "p2": 8, "p3": 8, "p4": 8}
    # equal failed Absagen: 0, and announcements do not make a winner (0 x2 x2 = 0 in the tournament)
    even = {"re": {"ansage": True, "absage": "keine 90"}, "kontra": {"ansage": True, "absage": "keine 90"}}
    assert play(H, typ="bubensolo", re=["p1"], augen=120, ansagen=even) == {"p1": 0, "p2": 0, "p3": 0, "p4": 0}


def test_regel_25_meldung_fuer_den_sitzenden_passt_fuer_jeden_spieler() -> None:
    """Regel 25: the message naming the sitting dealer read "Anna gibt und sitzt aus; er spielt
    nicht mit"; it must not assume the player's gender."""
    error = refused(add(new_sheet(T, 5), "game", re=["p1", "p2"], augen=130), "Regel 25", "Anna gibt und sitzt aus")
    assert " er " not in error.message


def test_regel_16_einen_zurueck_auf_beiden_seiten_ohne_ansage_abgewiesen() -> None:
    """Regel 16: "Einen zurück" is the reply to the other side's announcement. Two replies with
    no "Re" or "Kontra" to reply to were accepted (each counting the other's reply) and doubled
    the game twice."""
    both = {"re": {"zurueck": True}, "kontra": {"zurueck": True}}
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=160, ansagen=both), "Regel 14-16", "Gegenpartei")
    both = {"re": {"zurueck": True, "absage": "keine 90"}, "kontra": {"zurueck": True}}
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=160, ansagen=both), "Ansagen", "Gegenpartei")


def test_regel_20_ein_gefangener_fuchs_liegt_in_den_stichen_der_partei() -> None:
    """Regel 20: a caught Fuchs (Karo-Ass, 11 Augen) lies in a trick of the catching side; with
    40 cards that trick has at least 11 + 3 x 2 = 17 Augen, two Füchse at least 11 + 11 + 2 + 2 = 26.
    Kontra with 9 Augen "catching" a Fuchs is the box ticked on the wrong side."""
    refused(add(new_sheet(T), "game", re=["p1", "p2"], augen=231, sonderpunkte={"kontra": {"fuchs": 1}}), "Regel 20/22", "Fuchs")
    refused(add(new_sheet(H), "game", re=["p1", "p2"], augen=25, sonderpunkte={"re": {"fuchs": 2}}), "4. Sonderpunkte", "Füchse")
    # keine 120, keine 90, keine 60, keine 30 = 4, - 1 for Kontra's Fuchs = 3 for Re
    assert play(T, re=["p1", "p2"], augen=223, sonderpunkte={"kontra": {"fuchs": 1}})["p3"] == -3
    # keine 120, gegen (die Alten), keine 90, keine 60, keine 30 = 5, - 2 for Re's Füchse = 3 for Kontra
    assert play(H, re=["p1", "p2"], augen=26, sonderpunkte={"re": {"fuchs": 2}})["p3"] == 3


# -- what the entry panel asks the rules (scoring/doppelkopf*.py's small pure helpers) -----------
def test_tischlage_vor_einem_eintrag_zeigt_geber_aussitzenden_und_offene_pflichtsoli() -> None:
    from scoring.doppelkopf import DoppelkopfTurnier

    sheet = new_sheet(T, 5)
    sheet = add(sheet, "game", re=["p2", "p3"], augen=130)  # 1: Anna deals and sits out
    sheet = add(sheet, "game", typ="damensolo", re=["p1"], augen=150)  # 2: Bert sits out
    sheet = add(sheet, "strafe", spieler="p4")  # 3: no game, Carla still deals
    lage = DoppelkopfTurnier().tischlage(sheet, vor=2)
    assert (lage.dealer, lage.sitting, lage.active) == ("p2", "p2", ("p1", "p3", "p4", "p5"))
    assert lage.pflichtsolo_offen == ("p1", "p2", "p3", "p4", "p5")
    now = DoppelkopfTurnier().tischlage(sheet)
    assert (now.dealer, now.sitting) == ("p3", "p3")
    assert now.pflichtsolo_offen == ("p2", "p3", "p4", "p5")
    assert now.dealer == score(sheet).status.dealer
    assert now.mit_geber("p5").active == ("p1", "p2", "p3", "p4")
    four = DoppelkopfTurnier().tischlage(new_sheet(T, 4))
    assert (four.sitting, four.active) == (None, ("p1", "p2", "p3", "p4"))


def test_spieltypen_folgen_den_optionen_und_sonderpunkte_grenzen_dem_dokument() -> None:
    from scoring.doppelkopf import DoppelkopfHaus, DoppelkopfTurnier
    from scoring.doppelkopf_input import sonderpunkte_grenzen, spieltypen

    turnier, haus = DoppelkopfTurnier().options(), DoppelkopfHaus().options()
    assert "armut" not in spieltypen(turnier) and "koehler" not in spieltypen(turnier)
    assert {"armut", "koehler"} <= set(spieltypen(haus))
    assert sonderpunkte_grenzen(turnier) == {"fuchs": 2, "doppelkopf": 6, "karlchen": 1, "herzstich": 1}
    assert sonderpunkte_grenzen(haus, schwein=True) == {"fuchs": 1, "doppelkopf": 6, "karlchen": 2, "herzstich": 0}


def test_ansage_helfer_sagen_was_die_pruefung_erlaubt() -> None:
    from scoring.doppelkopf_games import ist_solo, karo_trumpf, re_anzahl
    from scoring.doppelkopf_input import Ansagen, kann_absagen, kann_zurueck

    nur_re = Ansagen.model_validate({"re": {"ansage": True}})
    assert kann_zurueck(nur_re, "kontra") and not kann_zurueck(nur_re, "re")
    assert kann_absagen(nur_re, "re") and not kann_absagen(nur_re, "kontra")
    assert not kann_zurueck(Ansagen(), "re")
    assert re_anzahl("normal") == (2,) and re_anzahl("damensolo") == (1,) and set(re_anzahl("hochzeit")) == {1, 2}
    assert ist_solo("hochzeit", 1) and not ist_solo("hochzeit", 2) and not ist_solo("stille_hochzeit", 1)
    assert karo_trumpf("trumpfsolo", None) and not karo_trumpf("farbsolo", "pik") and not karo_trumpf("damensolo", None)


def test_sitzordnung_folgt_den_plaetzen_ohne_platz_zuletzt() -> None:
    from scoring.doppelkopf_table import sitzordnung

    people = [
        Participant(id="a", name="A"),
        Participant(id="b", name="B", seat=3),
        Participant(id="c", name="C", seat=1),
        Participant(id="d", name="D"),
    ]
    sheet = find_ruleset(T).new_sheet(people)
    assert sitzordnung(sheet) == ("c", "b", "a", "d")
    assert score(sheet).status.dealer == "c"
