"""Properties of the Schafkopf ruleset over random, valid Serien (hypothesis).

Every game sums to 0, the running totals are the sum of the lines, every closed Serie adds
up to 100, scoring is deterministic and survives a JSON round trip.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, RuleViolation, Sheet, SheetContext, find_ruleset
from scoring.schafkopf import SchafkopfResult, tischpunkte

RULESET = find_ruleset("schafkopf-turnier")
P = ("p1", "p2", "p3", "p4")
FARBEN = ("eichel", "gras", "herz", "schellen")


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A valid game entry of any kind, with or without Spritze and misplay."""
    spiel = draw(st.sampled_from(["rufspiel", "solo", "wenz", "farbwenz"]))
    spieler = draw(st.sampled_from(P))
    game: dict[str, Any] = {"spiel": spiel, "spieler": spieler}
    partei = {spieler}
    if spiel == "rufspiel":
        partner = draw(st.sampled_from([p for p in P if p != spieler]))
        game["partner"] = partner
        partei.add(partner)
        game["farbe"] = draw(st.sampled_from(["eichel", "gras", "schellen"]))
    elif spiel != "wenz":
        game["farbe"] = draw(st.sampled_from(FARBEN))
    tout = spiel != "rufspiel" and draw(st.booleans())
    gegner = [p for p in P if p not in partei]
    fall = draw(st.sampled_from([None, None, None, "bereits_gewonnen", "nicht_fortgesetzt", "fortgesetzt"]))
    if tout:
        game["tout"] = True
        if fall == "bereits_gewonnen":
            game["gewonnen"] = False
        elif fall != "nicht_fortgesetzt":
            game["gewonnen"] = draw(st.booleans())
    elif fall == "nicht_fortgesetzt":
        pass
    elif fall == "bereits_gewonnen":
        game["gewonnen"] = draw(st.booleans())
        game["stufe"] = draw(st.sampled_from(["einfach", "schneider"]))
    else:
        mode = draw(st.sampled_from(["flag", "augen", "stiche", "augen_stiche"]))
        if mode == "flag":
            game["gewonnen"] = draw(st.booleans())
            game["stufe"] = draw(st.sampled_from(["einfach", "schneider", "schwarz"]))
        elif mode == "augen":
            game["augen"] = draw(st.integers(0, 120))
        elif mode == "stiche":
            game["stiche"] = draw(st.sampled_from([0, 8]))
        else:  # both: 1 to 7 tricks, any Augen (a trick may be worth nothing)
            game["augen"] = draw(st.integers(0, 120))
            game["stiche"] = draw(st.integers(1, 7))
    if draw(st.booleans()):
        spritze: dict[str, Any] = {"von": draw(st.sampled_from(gegner))}
        if (
            not tout
            and fall in (None, "fortgesetzt")
            and game.get("gewonnen") is True
            and game.get("stufe") == "schneider"
        ):
            spritze["unberechtigt"] = draw(st.booleans())
        game["spritze"] = spritze
    if fall is not None:
        game["fehler"] = {"von": draw(st.sampled_from(P)), "fall": fall, "art": draw(st.sampled_from(["ausspiel", "bedienen"]))}
    return game


def serie(game_list: list[dict[str, Any]], close: bool) -> Sheet:
    people = [Participant(id=p, name=n, seat=i + 1) for i, (p, n) in enumerate(zip(P, ["Anna", "Bernd", "Carla", "Dieter"], strict=True))]
    sheet = RULESET.new_sheet(people, SheetContext(round_label="Serie", written_by="p2"), {"spiele": max(len(game_list), 1)})
    entries = [Entry(kind="game", data=g) for g in game_list]
    if close:
        entries.append(Entry(kind="close", data={"signed_by": "Bernd", "override": None if game_list else "leer"}))
    return sheet.model_copy(update={"entries": tuple(entries)})


@settings(max_examples=300, deadline=None)
@given(games())
def test_every_game_sums_to_zero(game: dict[str, Any]) -> None:
    line = RULESET.score(serie([game], close=False)).lines[0]
    assert sum(line.points.values()) == 0
    assert set(line.points) == set(P)


@settings(max_examples=100, deadline=None)
@given(st.lists(games(), min_size=1, max_size=40))
def test_every_closed_serie_adds_up_to_100(game_list: list[dict[str, Any]]) -> None:
    score = RULESET.score(serie(game_list, close=True))
    result = score.result
    assert isinstance(result, SchafkopfResult)
    assert result.abgeschlossen
    assert sum(r.ergebnis for r in result.spieler.values()) == 100
    assert sum(r.tischpunkte for r in result.spieler.values()) == 100
    assert {p: r.spielpunkte for p, r in result.spieler.items()} == score.totals
    # the better player never gets fewer Tischpunkte
    for a in P:
        for b in P:
            if score.totals[a] > score.totals[b]:
                assert result.spieler[a].tischpunkte > result.spieler[b].tischpunkte


@settings(max_examples=100, deadline=None)
@given(st.lists(games(), min_size=1, max_size=20))
def test_running_totals_are_the_sum_of_lines_and_scoring_is_deterministic(game_list: list[dict[str, Any]]) -> None:
    sheet = serie(game_list, close=False)
    score = RULESET.score(sheet)
    running = {p: 0 for p in P}
    for line in score.lines:
        running = {p: running[p] + line.points[p] for p in P}
        assert line.totals == running
    assert score.totals == running
    again = RULESET.score(Sheet.from_json(sheet.to_json()))
    assert again.json_dict() == score.json_dict()
    assert RULESET.score(sheet) == score


@given(st.lists(st.integers(-60, 60), min_size=3, max_size=3))
def test_tischpunkte_always_100_and_ordered(values: list[int]) -> None:
    spielpunkte = dict(zip(P, [*values, -sum(values)], strict=True))
    tisch, places = tischpunkte(spielpunkte)
    assert sum(tisch.values()) == 100
    assert set(tisch.values()) <= {10, 15, 20, 25, 30, 35, 40}
    for a in P:
        for b in P:
            if spielpunkte[a] == spielpunkte[b]:
                assert tisch[a] == tisch[b] and places[a] == places[b]


@settings(max_examples=200, deadline=None)
@given(games(), st.data())
def test_a_berechtigte_spritze_doubles_every_players_points(game: dict[str, Any], data: st.DataObject) -> None:
    """'Bei Spritze verdoppeln sich die Spielpunkte', whoever of the other party gives it."""
    plain = {k: v for k, v in game.items() if k != "spritze"}
    line = RULESET.score(serie([plain], close=False)).lines[0]
    partei = {plain["spieler"], plain.get("partner")}
    giver = data.draw(st.sampled_from([p for p in P if p not in partei]))
    spritzed = {**plain, "spritze": {"von": giver, "unberechtigt": False}}
    try:
        doubled = RULESET.score(serie([spritzed], close=False)).lines[0]
    except RuleViolation as error:  # a Spritze that must be unberechtigt (schwarz) is refused as berechtigt
        assert "unberechtigt" in str(error)
        return
    assert doubled.points == {p: 2 * v for p, v in line.points.items()}
