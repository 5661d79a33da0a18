"""Schafkopf tournament order (``schafkopf-turnierordnung.txt``): every table row and rule sentence.

Players: Anna (p1, seat 1), Bernd (p2), Carla (p3), Dieter (p4). Points are listed p1..p4.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import Entry, Participant, RuleViolation, Score, Sheet, SheetContext, find_ruleset
from scoring.schafkopf import (
    SchafkopfResult,
    SchafkopfTurnier,
    gebotsrang,
    pruefe_hundert,
    tischpunkte,
)

from .conftest import RULES

RULESET = find_ruleset("schafkopf-turnier")
NAMES = ("Anna", "Bernd", "Carla", "Dieter")
P = ("p1", "p2", "p3", "p4")


def players(seats: tuple[int, ...] = (1, 2, 3, 4)) -> list[Participant]:
    return [Participant(id=pid, name=name, seat=seat, start_number=10 + i) for i, (pid, name, seat) in enumerate(zip(P, NAMES, seats, strict=True))]


def sheet(*games: dict[str, Any], spiele: int = 32, close: dict[str, Any] | None = None, **options: Any) -> Sheet:
    base = RULESET.new_sheet(players(), SheetContext(round_label="Serie", round=1, table=1, written_by="p1"), {"spiele": spiele, **options})
    entries = [Entry(kind="game", data=g) for g in games]
    if close is not None:
        entries.append(Entry(kind="close", data=close))
    return base.model_copy(update={"entries": tuple(entries)})


def score(*games: dict[str, Any], **kw: Any) -> Score:
    return RULESET.score(sheet(*games, **kw))


def points(game: dict[str, Any]) -> tuple[int, ...]:
    line = score(game).lines[0]
    return tuple(line.points[p] for p in P)


def refused(*games: dict[str, Any], **kw: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        score(*games, **kw)
    return info.value


def result(s: Score) -> SchafkopfResult:
    assert isinstance(s.result, SchafkopfResult)
    return s.result


def solo(**kw: Any) -> dict[str, Any]:
    return {"spiel": "solo", "farbe": "eichel", "spieler": "p1", **kw}


def ruf(**kw: Any) -> dict[str, Any]:
    return {"spiel": "rufspiel", "farbe": "gras", "spieler": "p1", "partner": "p2", **kw}


def test_the_rule_document_is_there() -> None:
    text = (RULES / "schafkopf-turnierordnung.txt").read_text(encoding="utf-8")
    assert "Tischsieger" in text and "unberechtigt" in text
    assert RULESET.source == "schafkopf-turnierordnung.txt"
    assert isinstance(RULESET, SchafkopfTurnier)


# -- Spielpunkte: the first table ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("stufe", "expected"),
    [("einfach", (1, 1, -1, -1)), ("schneider", (2, 2, -2, -2)), ("schwarz", (3, 3, -3, -3))],
)
def test_tabelle_rufspiel_gewonnen(stufe: str, expected: tuple[int, ...]) -> None:
    """Einfaches Rufspiel +1/-1, Rufspiel Schneider +2/-2, Rufspiel Durch +3/-3."""
    assert points(ruf(gewonnen=True, stufe=stufe)) == expected


def test_tabelle_rufspiel_verloren_zahlt_die_spielpartei() -> None:
    """Rufspiel Schneider verloren: Spieler und Partner je -2, die Gegenpartei je +2."""
    assert points(ruf(gewonnen=False, stufe="schneider")) == (-2, -2, 2, 2)


def test_tabelle_durch_ist_schwarz() -> None:
    """'Rufspiel Durch' heißt in der zweiten Tabelle 'Rufspiel Schwarz': beides zählt 3."""
    assert points(ruf(gewonnen=True, stufe="durch")) == points(ruf(gewonnen=True, stufe="schwarz")) == (3, 3, -3, -3)


@pytest.mark.parametrize("art", [{"spiel": "solo", "farbe": "herz"}, {"spiel": "wenz"}, {"spiel": "farbwenz", "farbe": "schellen"}])
@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ({"stufe": "einfach"}, (6, -2, -2, -2)),
        ({"stufe": "schneider"}, (9, -3, -3, -3)),
        ({"stufe": "schwarz"}, (12, -4, -4, -4)),
        ({"tout": True}, (18, -6, -6, -6)),
    ],
)
def test_tabelle_solo_wenz_farbwenz_gewonnen(art: dict[str, Any], level: dict[str, Any], expected: tuple[int, ...]) -> None:
    """Solo/Wenz/Farbwenz +6/-2, Schneider +9/-3, Durch +12/-4, Tout +18/-6."""
    assert points({"spieler": "p1", "gewonnen": True, **art, **level}) == expected


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ({"stufe": "einfach"}, (-6, 2, 2, 2)),
        ({"stufe": "schneider"}, (-9, 3, 3, 3)),
        ({"stufe": "schwarz"}, (-12, 4, 4, 4)),
        ({"tout": True}, (-18, 6, 6, 6)),
    ],
)
def test_tabelle_solo_verloren_zahlt_der_spieler_allen(level: dict[str, Any], expected: tuple[int, ...]) -> None:
    """A lost Solo: the declarer pays each opponent the loser's share (zero-sum)."""
    assert points(solo(gewonnen=False, **level)) == expected


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (ruf(gewonnen=True), (2, 2, -2, -2)),
        (ruf(gewonnen=False, stufe="schneider"), (-4, -4, 4, 4)),
        (solo(gewonnen=True), (12, -4, -4, -4)),
        (solo(gewonnen=False), (-12, 4, 4, 4)),
        (solo(gewonnen=False, stufe="schneider"), (-18, 6, 6, 6)),
        ({"spiel": "wenz", "spieler": "p1", "tout": True, "gewonnen": True}, (36, -12, -12, -12)),
        ({"spiel": "farbwenz", "farbe": "herz", "spieler": "p1", "tout": True, "gewonnen": False}, (-36, 12, 12, 12)),
    ],
)
def test_bei_spritze_verdoppeln_sich_die_spielpunkte(game: dict[str, Any], expected: tuple[int, ...]) -> None:
    """'Bei Spritze verdoppeln sich die Spielpunkte!' (a berechtigte Spritze)."""
    assert points({**game, "spritze": {"von": "p4"}}) == expected


# -- Spiel gewonnen mit 61 Augen, Schneider mit 30 -----------------------------------------------


@pytest.mark.parametrize(("augen", "expected"), [(61, (6, -2, -2, -2)), (60, (-6, 2, 2, 2))])
def test_das_spiel_ist_mit_61_punkten_gewonnen(augen: int, expected: tuple[int, ...]) -> None:
    """'Das Spiel ist für den Spieler mit 61 Punkten gewonnen': 60 verliert."""
    assert points(solo(augen=augen)) == expected


@pytest.mark.parametrize(
    ("augen", "expected"),
    [(30, (-9, 3, 3, 3)), (31, (-6, 2, 2, 2)), (90, (9, -3, -3, -3)), (89, (6, -2, -2, -2))],
)
def test_mit_30_punkten_ist_der_spieler_schneider(augen: int, expected: tuple[int, ...]) -> None:
    """'Mit 30 Punkten ist der Spieler Schneider': 30 is Schneider, 31 is schneiderfrei (both sides)."""
    assert points(solo(augen=augen)) == expected


def test_schwarz_heisst_ohne_stich() -> None:
    """Eight tricks: the declaring party wins Durch; no trick: it loses schwarz."""
    assert points(ruf(stiche=8)) == (3, 3, -3, -3)
    assert points(ruf(stiche=0)) == (-3, -3, 3, 3)


def test_spritze_spieler_bleibt_spieler() -> None:
    """'Spritze übernimmt hinsichtlich der Punkte das Spiel nicht': with Spritze the declarer still needs 61."""
    assert points(solo(augen=60, spritze={"von": "p2"})) == (-12, 4, 4, 4)
    assert points(solo(augen=61, spritze={"von": "p2"})) == (12, -4, -4, -4)


def test_augen_und_gewonnen_muessen_zusammenpassen() -> None:
    error = refused(solo(augen=60, gewonnen=True))
    assert "61" in error.rule and "verloren" in error.message


def test_augen_und_stufe_muessen_zusammenpassen() -> None:
    error = refused(solo(augen=95, stufe="einfach"))
    assert "Schneider mit 30" in error.rule and "ist das Spiel Schneider, nicht einfach" in error.message


def test_ohne_gewonnen_wird_abgelehnt() -> None:
    assert "gewonnen" in refused(solo()).message


# -- Tout ------------------------------------------------------------------------------------------


def test_tout_ist_nur_schwarz_gewonnen_schneider_wird_abgelehnt() -> None:
    """A Tout is won only schwarz: a Tout entered as won Schneider is refused naming the rule."""
    error = refused({"spiel": "wenz", "spieler": "p1", "tout": True, "gewonnen": True, "stufe": "schneider"})
    assert error.rule == "Spielpunkte: Tout"
    assert "nur schwarz gewonnen" in error.message


def test_tout_mit_sieben_stichen_ist_verloren() -> None:
    assert points(solo(tout=True, stiche=7)) == (-18, 6, 6, 6)
    assert "8 Stichen" in refused(solo(tout=True, stiche=7, gewonnen=True)).message


def test_verlorener_tout_hat_keine_schneiderstufe() -> None:
    assert "Tout" in refused(solo(tout=True, gewonnen=False, stufe="schneider")).rule


def test_rufspiel_gibt_es_nicht_als_tout() -> None:
    assert "Tout" in refused(ruf(gewonnen=True, tout=True)).rule


# -- unberechtigte Spritze: the second table ------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        # Rufspiel Schneider: +4/+4, -2, -6 (p3 gives the Spritze, p4 is the other loser)
        (ruf(gewonnen=True, stufe="schneider", spritze={"von": "p3", "unberechtigt": True}), (4, 4, -6, -2)),
        # Rufspiel Schwarz: +6/+6, -3, -9
        (ruf(gewonnen=True, stufe="schwarz", spritze={"von": "p3"}), (6, 6, -9, -3)),
        # Solo Schneider: +18, -3/-3, -12
        (solo(gewonnen=True, stufe="schneider", spritze={"von": "p3", "unberechtigt": True}), (18, -3, -12, -3)),
        # Solo Durch: +24, -4/-4, -16
        (solo(gewonnen=True, stufe="schwarz", spritze={"von": "p3"}), (24, -4, -16, -4)),
    ],
    ids=["rufspiel-schneider", "rufspiel-schwarz", "solo-schneider", "solo-durch"],
)
def test_tabelle_unberechtigte_spritze(game: dict[str, Any], expected: tuple[int, ...]) -> None:
    """Each row of the second table: Gewinner / Verlierer / Spieler der kontra gibt."""
    assert points(game) == expected


@pytest.mark.parametrize("art", [{"spiel": "wenz"}, {"spiel": "farbwenz", "farbe": "gras"}])
def test_unberechtigte_spritze_gilt_fuer_wenz_und_farbwenz(art: dict[str, Any]) -> None:
    assert points({"spieler": "p2", "stiche": 8, "spritze": {"von": "p4"}, **art}) == (-4, 24, -4, -16)


def test_unberechtigt_wenn_nicht_schneiderfrei_und_hoechstens_ein_stich() -> None:
    """Schneider and the giving party made one trick (declarer 7): unberechtigt, derived."""
    assert points(solo(augen=100, stiche=7, spritze={"von": "p2"})) == (18, -12, -3, -3)


def test_zwei_stiche_und_nicht_schneiderfrei_ist_berechtigt() -> None:
    """Schneider but two tricks for the giving party: a normal Spritze (doubled)."""
    assert points(solo(augen=100, stiche=6, spritze={"von": "p2"})) == (18, -6, -6, -6)
    assert "berechtigt" in refused(solo(augen=100, stiche=6, spritze={"von": "p2", "unberechtigt": True})).message


def test_schwarz_ist_immer_unberechtigt() -> None:
    error = refused(ruf(gewonnen=True, stufe="schwarz", spritze={"von": "p3", "unberechtigt": False}))
    assert error.rule == "Unberechtigte Spritze"


def test_unberechtigte_spritze_nur_bei_mindestens_schneider() -> None:
    """An unberechtigte Spritze on a game that is not at least Schneider is refused naming the rule."""
    error = refused(ruf(gewonnen=True, stufe="einfach", spritze={"von": "p3", "unberechtigt": True}))
    assert error.rule == "Unberechtigte Spritze"
    assert "schneiderfrei" in error.message


def test_unberechtigte_spritze_nicht_wenn_die_kontrapartei_gewinnt() -> None:
    error = refused(solo(gewonnen=False, stufe="schneider", spritze={"von": "p3", "unberechtigt": True}))
    assert error.rule == "Unberechtigte Spritze" and "gewonnen" in error.message


def test_unberechtigte_spritze_gilt_nicht_beim_tout() -> None:
    """'(gilt nicht beim Tout)': a won Tout is schwarz but the Spritze is simply doubled."""
    assert points(solo(tout=True, gewonnen=True, spritze={"von": "p2"})) == (36, -12, -12, -12)
    assert "Tout" in refused(solo(tout=True, gewonnen=True, spritze={"von": "p2", "unberechtigt": True})).message


@pytest.mark.parametrize(("von", "role"), [("p1", "Spieler"), ("p2", "Partner")])
def test_spritze_gibt_nur_die_gegenpartei_re_ist_nicht_erlaubt(von: str, role: str) -> None:
    """A Spritze by the declaring party (declarer or called partner) is refused: 'Re ist nicht erlaubt'."""
    error = refused(ruf(gewonnen=True, spritze={"von": von}))
    assert error.rule.startswith("Spritze")
    assert role in error.message and "Re ist nicht erlaubt" in error.message


# -- misplay ----------------------------------------------------------------------------------------


def test_fehler_bereits_gewonnenes_spiel_bleibt_gewonnen_beispiel() -> None:
    """The document's example: 'bei einem Solo + 6 ±0 ±0 -6 Punkte'."""
    game = solo(gewonnen=True, fehler={"von": "p4", "fall": "bereits_gewonnen"})
    assert points(game) == (6, 0, 0, -6)


def test_fehler_der_feststehende_verlierer_erhaelt_keine_pluspunkte() -> None:
    """The declarer who has already won misplays: the losers gain nothing, scored as won."""
    assert points(solo(gewonnen=True, fehler={"von": "p1", "fall": "bereits_gewonnen"})) == (6, -2, -2, -2)
    assert points(ruf(gewonnen=False, fehler={"von": "p3", "fall": "bereits_gewonnen"})) == (-1, -1, 1, 1)


def test_fehler_bereits_gewonnen_rufspiel_und_spritze() -> None:
    """The offender of the losing party alone pays its loss, doubled with Spritze."""
    game = ruf(gewonnen=True, spritze={"von": "p3"}, fehler={"von": "p4", "art": "bedienen", "fall": "bereits_gewonnen"})
    assert points(game) == (2, 2, 0, -4)


def test_fehler_bereits_gewonnener_tout_gibt_es_nicht() -> None:
    error = refused(solo(tout=True, gewonnen=True, fehler={"von": "p2", "fall": "bereits_gewonnen"}))
    assert "letzten Stich" in error.message


def test_fehler_nicht_fortgesetzt_solo_minus_10() -> None:
    """'bei einem Solo -10 (+6 +2 +2)': the declarer wins simply, the offender pays everyone."""
    assert points(solo(fehler={"von": "p3", "fall": "nicht_fortgesetzt"})) == (6, 2, -10, 2)


def test_fehler_nicht_fortgesetzt_rufspiel_minus_3() -> None:
    """'bei einem Rufspiel -3 (+1 +1 +1)'."""
    assert points(ruf(fehler={"von": "p4", "fall": "nicht_fortgesetzt"})) == (1, 1, 1, -3)
    assert points(ruf(fehler={"von": "p2", "fall": "nicht_fortgesetzt"})) == (1, -3, 1, 1)


def test_fehler_nicht_fortgesetzt_bei_spritze_doppelt() -> None:
    """'bzw. bei Spritze doppelt': Solo -20 (+12 +4 +4), Rufspiel -6 (+2 +2 +2)."""
    assert points(solo(spritze={"von": "p2"}, fehler={"von": "p3", "fall": "nicht_fortgesetzt"})) == (12, 4, -20, 4)
    assert points(ruf(spritze={"von": "p3"}, fehler={"von": "p4", "fall": "nicht_fortgesetzt"})) == (2, 2, 2, -6)


def test_fehler_nicht_fortgesetzt_durch_den_solospieler() -> None:
    """Reading: the declarer misplays; the opponents have won simply (+2 each), he pays -6."""
    assert points({"spiel": "wenz", "spieler": "p2", "fehler": {"von": "p2", "fall": "nicht_fortgesetzt"}}) == (2, -6, 2, 2)


def test_fehler_nicht_fortgesetzt_ist_einfach_gewonnen() -> None:
    """'hat die Gegenpartei das Spiel einfach gewonnen': no Schneider, and the winner is fixed."""
    assert "einfach" in refused(solo(stufe="schneider", fehler={"von": "p3", "fall": "nicht_fortgesetzt"})).message
    assert refused(solo(gewonnen=False, fehler={"von": "p3", "fall": "nicht_fortgesetzt"})).rule.startswith("Falsches")


def test_fehler_fortgesetzt_nach_tatsaechlichem_spielausgang() -> None:
    """'muss das Spiel zu Ende gespielt werden und es wird nach tatsächlichem Spielausgang gewertet'."""
    s = score(solo(gewonnen=False, stufe="schneider", fehler={"von": "p1", "fall": "fortgesetzt"}))
    assert tuple(s.lines[0].points[p] for p in P) == (-9, 3, 3, 3)
    assert "tatsächlichem Spielausgang" in s.lines[0].explanation[0].text


# -- Reuegeld ----------------------------------------------------------------------------------------


def reuegeld(*games: dict[str, Any], **options: Any) -> tuple[int, ...]:
    r = result(score(*games, **options))
    return tuple(r.spieler[p].reuegeld_cent for p in P)


def test_reuegeld_verlorenes_rufspiel_50_cent_zahlt_der_spieler() -> None:
    assert reuegeld(ruf(gewonnen=False)) == (50, 0, 0, 0)


def test_reuegeld_verlorene_spritze_auf_ein_rufspiel_50_cent() -> None:
    assert reuegeld(ruf(gewonnen=True, spritze={"von": "p4"})) == (0, 0, 0, 50)


def test_reuegeld_verlorenes_solo_wenz_farbwenz_1_euro() -> None:
    games = [solo(gewonnen=False), {"spiel": "wenz", "spieler": "p2", "gewonnen": False},
             {"spiel": "farbwenz", "farbe": "eichel", "spieler": "p3", "tout": True, "gewonnen": False}]
    assert reuegeld(*games) == (100, 100, 100, 0)


def test_reuegeld_verlorene_spritze_auf_ein_solo_1_euro() -> None:
    assert reuegeld(solo(gewonnen=True, spritze={"von": "p3"})) == (0, 0, 100, 0)


def test_reuegeld_gewonnenes_spiel_kostet_nichts() -> None:
    assert reuegeld(solo(gewonnen=True), ruf(gewonnen=True)) == (0, 0, 0, 0)
    assert reuegeld(solo(gewonnen=False, spritze={"von": "p2"})) == (100, 0, 0, 0)


def test_reuegeld_summe_der_serie_und_betraege_als_option() -> None:
    r = result(score(ruf(gewonnen=False), ruf(gewonnen=False), solo(gewonnen=False), reuegeld_rufspiel=20))
    assert r.spieler["p1"].reuegeld_cent == 140
    assert r.spieler["p1"].reuegeld == "1,40 €"
    assert r.reuegeld_tisch == "1,40 €"


# -- Tischpunkte and the result ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spielpunkte", "expected"),
    [
        ((9, 3, -4, -8), (40, 30, 20, 10)),  # Tischsieger 40, Zweiter 30, Dritter 20, Vierter 10
        ((5, 5, -2, -8), (35, 35, 20, 10)),  # 1.+2. punktgleich je 35
        ((9, 1, 1, -11), (40, 25, 25, 10)),  # 2.+3. punktgleich je 25
        ((9, 3, -6, -6), (40, 30, 15, 15)),  # 3.+4. punktgleich je 15
        ((4, 4, 4, -12), (30, 30, 30, 10)),  # 1.,2.+3. punktgleich je 30
        ((12, -4, -4, -4), (40, 20, 20, 20)),  # 2.,3.+4. punktgleich je 20
        ((0, 0, 0, 0), (25, 25, 25, 25)),  # sind alle punktgleich je 25
        ((6, 6, -6, -6), (35, 35, 15, 15)),  # 1.+2. and 3.+4. at once
    ],
)
def test_tischpunkte_mit_jeder_gleichstandsregel(spielpunkte: tuple[int, ...], expected: tuple[int, ...]) -> None:
    tisch, _ = tischpunkte(dict(zip(P, spielpunkte, strict=True)))
    assert tuple(tisch[p] for p in P) == expected
    assert sum(tisch.values()) == 100


def test_tischpunkte_order_does_not_matter() -> None:
    tisch, places = tischpunkte({"p1": -8, "p2": 5, "p3": -2, "p4": 5})
    assert tisch == {"p1": 10, "p2": 35, "p3": 20, "p4": 35}
    assert places == {"p1": 4, "p2": 1, "p3": 3, "p4": 1}


def test_ergebnis_ist_tischpunkte_plus_spielpunkte() -> None:
    """'Das Ergebnis setzt sich aus Tisch- und Spielpunkten zusammen' and adds up to 100."""
    s = score(solo(gewonnen=True), ruf(spieler="p3", partner="p4", gewonnen=True), spiele=2, close={"signed_by": "Anna"})
    r = result(s)
    assert {p: (r.spieler[p].tischpunkte, r.spieler[p].ergebnis) for p in P} == {
        "p1": (40, 45), "p2": (10, 7), "p3": (25, 24), "p4": (25, 24)
    }
    assert sum(x.ergebnis for x in r.spieler.values()) == 100
    assert r.abgeschlossen and r.unterschrieben_von == "Anna"
    close = s.lines[-1]
    assert close.kind == "close" and close.points == {p: 0 for p in P}
    assert "zusammen 100" in close.explanation[1].text


def test_ergebnis_muss_100_ergeben_sonst_abgelehnt_mit_den_zahlen() -> None:
    """'Tischpunkte + Spielpunkte müssen 100 Punkte ergeben': otherwise refused, numbers shown."""
    pruefe_hundert({"p1": 46, "p2": 7, "p3": 25, "p4": 22})
    with pytest.raises(RuleViolation) as info:
        pruefe_hundert({"p1": 46, "p2": 7, "p3": 25, "p4": 21}, dict(zip(P, NAMES, strict=True)))
    assert "100" in info.value.rule
    assert "Anna 46 + Bernd 7 + Carla 25 + Dieter 21 = 99, nicht 100" in info.value.message


def test_abschluss_erst_nach_allen_spielen() -> None:
    error = refused(solo(gewonnen=True), spiele=2, close={"signed_by": "Anna"})
    assert error.rule == "Serie" and "noch 1 offen" in error.message
    s = score(solo(gewonnen=True), spiele=2, close={"signed_by": "Aufsicht", "override": "Zeitlimit, Aufsicht Huber"})
    assert s.status.closed and "Vorzeitig nach 1 Spielen" in s.lines[-1].explanation[0].text


def test_abschluss_unterschreibt_der_listenfuehrer() -> None:
    """'durch seine Unterschrift zu bestätigen': the Listenführer (context.written_by) signs."""
    assert "Listenführer" in refused(solo(gewonnen=True), spiele=1, close={"signed_by": "Bernd"}).message
    assert score(solo(gewonnen=True), spiele=1, close={"signed_by": "p1"}).status.closed


def test_nach_dem_abschluss_kein_spiel_mehr() -> None:
    base = sheet(solo(gewonnen=True), spiele=1, close={"signed_by": "Anna"})
    with pytest.raises(RuleViolation):
        RULESET.check(base, Entry(kind="game", data=solo(gewonnen=True)))


def test_vorlaeufige_tischpunkte_vor_dem_abschluss() -> None:
    r = result(score(solo(gewonnen=True)))
    assert not r.abgeschlossen and r.spieler["p1"].tischpunkte == 40 and r.spieler["p2"].tischpunkte == 20


# -- the Serie: games, dealer -----------------------------------------------------------------------


def test_status_zeigt_gespielt_offen_und_geber() -> None:
    s = score(solo(gewonnen=True), ruf(gewonnen=False), spiele=8)
    assert s.status.details["gespielt"] == 2 and s.status.details["offen"] == 6
    assert s.status.dealer == "p3"
    assert s.status.messages[0] == "Spiel 3 von 8, noch 6 offen"
    assert "Es gibt: Carla" in s.status.messages


def test_geben_nach_platz_im_uhrzeigersinn() -> None:
    base = RULESET.new_sheet(players(seats=(3, 1, 4, 2)), options={"spiele": 8, "erster_geber": 2})
    dealers = []
    for _ in range(5):
        dealers.append(RULESET.score(base).status.dealer)
        base = base.with_entry(Entry(kind="game", data=solo(gewonnen=True)))
    # seat order: p2 (1), p4 (2), p1 (3), p3 (4); seat 2 deals first
    assert dealers == ["p4", "p1", "p3", "p2", "p4"]


def test_serie_hat_so_viele_spiele_wie_die_option() -> None:
    error = refused(solo(gewonnen=True), solo(gewonnen=True), spiele=1)
    assert error.entry == 2 and "1 Spiele" in error.message
    s = score(solo(gewonnen=True), spiele=1)
    assert s.status.finished and s.status.dealer is None


# -- impossible entries -------------------------------------------------------------------------------


def test_partner_ist_der_spieler_abgelehnt() -> None:
    error = refused(ruf(partner="p1", gewonnen=True))
    assert error.rule == "Spielarten" and "sich selbst" in error.message


def test_ein_spieler_zweimal_abgelehnt() -> None:
    """One player twice at the table: the same Startnummer, or the same name without Startnummer."""
    twice = [Participant(id=f"x{i}", name=n) for i, n in enumerate(["Anna", "Bernd", "Carla", "anna "])]
    with pytest.raises(RuleViolation) as info:
        RULESET.new_sheet(twice)
    assert "zweimal" in info.value.message
    numbers = [Participant(id=f"x{i}", name=n, start_number=7 if i < 2 else i) for i, n in enumerate(NAMES)]
    with pytest.raises(RuleViolation) as info:
        RULESET.new_sheet(numbers)
    assert "Startnummern [7, 7, 2, 3]" in info.value.message


def test_namensvettern_mit_startnummern_duerfen_am_tisch_sitzen() -> None:
    namesakes = [Participant(id=f"x{i}", name=n, start_number=i + 1) for i, n in enumerate(["Hans Huber", "Bernd", "Carla", "Hans Huber"])]
    assert len(RULESET.new_sheet(namesakes).participants) == 4


def test_vier_spieler_am_tisch() -> None:
    with pytest.raises(RuleViolation):
        RULESET.new_sheet(players()[:3])


def test_unbekannter_spieler_abgelehnt() -> None:
    assert "nicht an diesem Tisch" in refused(ruf(partner="p9", gewonnen=True)).message


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ({"spiel": "solo", "spieler": "p1", "gewonnen": True}, "Farbe"),
        ({"spiel": "farbwenz", "spieler": "p1", "gewonnen": True}, "Farbe"),
        ({"spiel": "wenz", "farbe": "herz", "spieler": "p1", "gewonnen": True}, "Farbwenz"),
        ({"spiel": "wenz", "spieler": "p1", "partner": "p2", "gewonnen": True}, "Partner"),
        ({"spiel": "rufspiel", "spieler": "p1", "gewonnen": True}, "Partner"),
        (ruf(farbe="herz", gewonnen=True), "Herz-Sau"),
    ],
)
def test_spielart_braucht_ihre_angaben(game: dict[str, Any], text: str) -> None:
    assert text in refused(game).message


def test_the_entry_number_is_named() -> None:
    error = refused(solo(gewonnen=True), ruf(partner="p1", gewonnen=True))
    assert error.entry == 2 and str(error).startswith("Eintrag 2: Spielarten")


# -- bidding, explanations, standing -------------------------------------------------------------------


def test_gebotsrang_solo_vor_wenz_vor_farbwenz_und_solo_tout_am_hoechsten() -> None:
    """'Das Solo geht vor dem Wenz, der Wenz geht dem Farbwenz vor'; Solo Tout > Farbwenz/Wenz Tout."""
    assert gebotsrang("solo") > gebotsrang("wenz") > gebotsrang("farbwenz") > gebotsrang("rufspiel")
    assert gebotsrang("solo", True) > gebotsrang("wenz", True) == gebotsrang("farbwenz", True) > gebotsrang("solo")
    with pytest.raises(RuleViolation):
        gebotsrang("rufspiel", True)


def test_explanations_name_the_table_row() -> None:
    line = score(solo(farbe="herz", gewonnen=True, stufe="schneider", spritze={"von": "p2"})).lines[0]
    rules = [e.rule for e in line.explanation]
    assert rules[0] == "Spielpunkte (Tabelle): Solo/Wenz/Farbwenz Schneider"
    assert line.explanation[0].points == {"p1": 9, "p2": -3, "p3": -3, "p4": -3}
    assert line.explanation[0].text == "Gibt Anna: Anna gewinnt Herz-Solo Schneider"
    assert rules[1].startswith("Spritze") and line.explanation[1].points["p1"] == 18
    assert rules[2] == "Reuegeld" and "Bernd zahlt 1,00 €" in line.explanation[2].text


def test_turnierstand_ist_die_summe_der_ergebnisse() -> None:
    one = sheet(solo(gewonnen=True), spiele=1, close={"signed_by": "Anna"})
    two = sheet(solo(spieler="p2", gewonnen=True), spiele=1, close={"signed_by": "Anna"})
    assert isinstance(RULESET, SchafkopfTurnier)
    standing = RULESET.standings([one, two])
    rows = {row.name: (row.rank, row.ergebnis, row.serien) for row in standing}
    # Serie 1: Anna 40+6, others 20-2 each; Serie 2: Bernd 46, others 18.
    assert rows == {"Anna": (1, 64, 2), "Bernd": (1, 64, 2), "Carla": (3, 36, 2), "Dieter": (3, 36, 2)}
    assert sum(row.ergebnis for row in standing) == 200
    assert {row.decided_by for row in standing} == {"punktgleich (die Turnierordnung nennt keine weitere Wertung)"}
    three = sheet(solo(spieler="p3", gewonnen=True, stufe="schneider"), spiele=1, close={"signed_by": "Anna"})
    # Serie 3: Carla 40 + 9 = 49, the others 20 - 3 = 17 each.
    tie = "punktgleich (die Turnierordnung nennt keine weitere Wertung)"
    assert [(row.name, row.rank, row.ergebnis, row.decided_by) for row in RULESET.standings([one, two, three])] == [
        ("Carla", 1, 85, "Ergebnis"),
        ("Anna", 2, 81, tie),
        ("Bernd", 2, 81, tie),
        ("Dieter", 4, 53, "Ergebnis"),
    ]


def test_turnierstand_zaehlt_nur_abgeschlossene_serien() -> None:
    """Tischpunkte gibt es "nach jeder Serie": eine Serie ohne Unterschrift ist vorläufig."""
    done = sheet(solo(gewonnen=True), spiele=1, close={"signed_by": "Anna"})
    running = sheet(solo(spieler="p2", gewonnen=True), spiele=2)
    with pytest.raises(RuleViolation, match="noch nicht abgeschlossen") as info:
        RULESET.standings([done, running])
    assert "Anna, Bernd, Carla, Dieter" in str(info.value)


def test_describe_lists_options_in_german() -> None:
    info = RULESET.describe()
    assert {o["name"] for o in info["options"]} == {"spiele", "erster_geber", "fehler_tout_einfach", "reuegeld_rufspiel", "reuegeld_solo"}
    assert all(o["description"] for o in info["options"])
    assert info["entry_kinds"] == ["close", "correction", "game", "papier", "void"]


def test_fehler_nicht_fortgesetzt_im_tout_zaehlt_der_tout() -> None:
    """Reading: a Tout's simple win is the Tout (18/6): -30 (+18 +6 +6); option: as a simple Solo, -10."""
    game = {"spiel": "wenz", "spieler": "p1", "tout": True, "fehler": {"von": "p2", "fall": "nicht_fortgesetzt"}}
    assert points(game) == (18, -30, 6, 6)
    line = score(game, fehler_tout_einfach=True).lines[0]
    assert tuple(line.points[p] for p in P) == (6, -10, 2, 2)
    declarer = {**game, "fehler": {"von": "p1", "fall": "nicht_fortgesetzt"}}
    assert points(declarer) == (-18, 6, 6, 6)


def test_the_example_serie_hand_checked() -> None:
    """docs/examples/schafkopf-turnier.json: 32 games tallied by hand: Dieter 40 + 23 = 63,
    Anna 30 - 3 = 27, Bernd 20 - 8 = 12, Carla 10 - 12 = -2; Reuegeld 8,00 €."""
    from .conftest import ROOT

    example = Sheet.from_json((ROOT / "docs" / "examples" / "schafkopf-turnier.json").read_bytes())
    r = result(RULESET.score(example))
    assert {p: (x.spielpunkte, x.tischpunkte, x.ergebnis) for p, x in r.spieler.items()} == {
        "p1": (-3, 30, 27), "p2": (-8, 20, 12), "p3": (-12, 10, -2), "p4": (23, 40, 63)
    }
    assert r.spiele == 32 and r.abgeschlossen and r.reuegeld_tisch == "8,00 €"


def test_tout_mit_weniger_als_120_augen_ist_verloren() -> None:
    """A Tout is won only with every trick: 100 Augen lose it, however many over 61."""
    assert points(solo(tout=True, augen=100)) == (-18, 6, 6, 6)
    error = refused(solo(tout=True, augen=100, gewonnen=True))
    assert error.rule == "Spielpunkte: Tout" and "alle Stiche" in error.message
    assert points(solo(tout=True, augen=120, stiche=8)) == (18, -6, -6, -6)


def test_fehler_fortgesetzt_hoeher_bewertet() -> None:
    """'Möchte die Gegenpartei das Spiel höher bewertet haben, muss das Spiel zu Ende gespielt werden':
    the declarer lets play on after Carla's misplay and wins Schneider: +9 -3 -3 -3, not Carla's -10."""
    game = solo(augen=96, fehler={"von": "p3", "art": "bedienen", "fall": "fortgesetzt"})
    line = score(game).lines[0]
    assert tuple(line.points[p] for p in P) == (9, -3, -3, -3)
    assert line.explanation[0].text.startswith("nicht korrigiertes falsches Bedienen von Carla")


def test_alle_8_karten_acht_stiche() -> None:
    """'Es werden 4x2 Karten ausgegeben ... Alle 8 Karten müssen bis zum Schluss gespielt werden': 0 to 8 tricks."""
    assert refused(solo(stiche=9)).rule == "Eingabe"
    assert refused(solo(augen=121)).rule == "Eingabe"


def test_kein_spiel_kein_eintrag_der_geber_bleibt() -> None:
    """'Kommt kein Spiel zustande, gibt der gleiche Spieler so lange noch mal': only a game passes
    the deal on; a voided game gives the deal back."""
    base = sheet(solo(gewonnen=True), ruf(gewonnen=True), spiele=8)
    assert RULESET.score(base).status.dealer == "p3"
    voided = base.with_entry(Entry(kind="void", target=2, reason="doppelt eingetragen"))
    s = RULESET.score(voided)
    assert s.status.dealer == "p2" and s.status.details["gespielt"] == 1


# -- review fixes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (solo(augen=120, stufe="schwarz"), (12, -4, -4, -4)),
        (solo(augen=0, stufe="durch"), (-12, 4, 4, 4)),
        (ruf(augen=120, stufe="durch"), (3, 3, -3, -3)),
        (ruf(augen=120, stufe="schwarz", spritze={"von": "p3"}), (6, 6, -9, -3)),
    ],
)
def test_schwarz_mit_120_oder_0_augen_ist_erlaubt(game: dict[str, Any], expected: tuple[int, ...]) -> None:
    """Tabelle 'Rufspiel Durch' / 'Solo/Wenz/Farbwenz Durch': a party that makes every trick has 120
    Augen, one without a trick 0. 120 (or 0) Augen show at least Schneider; whether the other party
    made a trick (worth 0 Augen) only the Listenführer knows, so 'schwarz' with them is a legal entry.
    With no trick the Spritze party is unberechtigt (second table, Rufspiel Schwarz +6/+6, -3, -9)."""
    assert points(game) == expected


def test_schwarz_mit_weniger_als_120_augen_bleibt_abgelehnt() -> None:
    """Schwarz heißt ohne Stich: with 100 Augen the other party made a trick; 120 Augen with 7 tricks too."""
    assert "nicht Schwarz" in refused(solo(augen=100, stufe="schwarz")).message
    assert "nicht Schwarz" in refused(solo(augen=120, stiche=7, stufe="schwarz")).message
    assert "nicht Schwarz" in refused(solo(augen=1, stufe="schwarz")).message


def test_reuegeld_nicht_fortgesetzt_zahlt_der_verursacher() -> None:
    """'Der Spieler der den Fehler begangen hat, erhält ... -3 (+1 +1 +1)' / '-10 (+6 +2 +2) ... bzw. bei
    Spritze doppelt': every other player is scored as a winner, the offender alone loses. So the
    Reuegeld of that game (Reuegeld: verlorenes Rufspiel / verlorene Spritze) is his too, not owed by
    a declarer or a Spritze giver the table just wrote plus points for."""
    partner = ruf(fehler={"von": "p2", "fall": "nicht_fortgesetzt"})
    assert points(partner) == (1, -3, 1, 1)
    assert reuegeld(partner) == (0, 50, 0, 0)
    spritze = solo(spritze={"von": "p2"}, fehler={"von": "p3", "fall": "nicht_fortgesetzt"})
    assert points(spritze) == (12, 4, -20, 4)
    assert reuegeld(spritze) == (0, 0, 100, 0)
    line = score(spritze).lines[0]
    assert line.explanation[-1].text.startswith("Carla zahlt 1,00 €")
    # unchanged where the offender is the one who lost anyway
    assert reuegeld(solo(fehler={"von": "p1", "fall": "nicht_fortgesetzt"})) == (100, 0, 0, 0)
    assert reuegeld(solo(spritze={"von": "p2"}, fehler={"von": "p2", "fall": "nicht_fortgesetzt"})) == (0, 100, 0, 0)
    assert reuegeld(solo(fehler={"von": "p3", "fall": "nicht_fortgesetzt"})) == (0, 0, 0, 0)


@pytest.mark.parametrize("written_by", ["Carla", "3", "Sepp Huber"])
def test_abschluss_unterschreibt_der_listenfuehrer_auch_mit_namen_oder_platz(written_by: str) -> None:
    """'ist vom Listenführer ... durch seine Unterschrift zu bestätigen': context.written_by may name the
    Listenführer by name or seat (docs/sheet-format.md), not only by id; the signature is still checked."""
    base = sheet(solo(gewonnen=True), spiele=1)
    keeper = base.model_copy(update={"context": base.context.model_copy(update={"written_by": written_by})})
    wrong = keeper.with_entry(Entry(kind="close", data={"signed_by": "Bernd"}))
    with pytest.raises(RuleViolation) as info:
        RULESET.score(wrong)
    assert "Listenführer" in info.value.message and "nicht Bernd" in info.value.message
    right = "Sepp Huber" if written_by == "Sepp Huber" else "Carla"
    assert RULESET.score(keeper.with_entry(Entry(kind="close", data={"signed_by": right}))).status.closed
    assert RULESET.score(keeper.with_entry(Entry(kind="close", data={"signed_by": "Bernd", "override": "Aufsicht"}))).status.closed
