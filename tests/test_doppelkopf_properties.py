"""Doppelkopf property tests (hypothesis): whole Runden of random but legal games.

Every game sums to 0 (solos included), the sitting player never gets points, the running
totals are the sum of the lines, scoring is deterministic and survives a JSON round trip,
and the two counting orders agree wherever the documents count alike.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, Sheet, find_ruleset

SOLI = ["fleischloser", "bubensolo", "damensolo", "trumpfsolo", "farbsolo"]
ABSAGEN = [None, "keine 90", "keine 60", "keine 30", "schwarz"]
#: Augen of Re without Neunen (Regel 2): each side has 0 or at least 8 (a trick is worth 8 at least).
AUGEN = st.integers(0, 240).filter(lambda a: a in (0, 240) or 8 <= a <= 232)


@st.composite
def ansagen(draw: st.DrawFn) -> dict[str, Any]:
    """Legal announcements: an Absage needs Re/Kontra; "zurück" answers the other side."""
    re_says = draw(st.booleans())
    kontra_says = draw(st.booleans())
    out: dict[str, Any] = {"re": {}, "kontra": {}}
    if re_says:
        out["re"] = {"ansage": True, "absage": draw(st.sampled_from(ABSAGEN))}
    if kontra_says:
        out["kontra"] = {"ansage": True, "absage": draw(st.sampled_from(ABSAGEN))}
    if re_says and not kontra_says and draw(st.booleans()):
        out["kontra"] = {"zurueck": True, "absage": draw(st.sampled_from(ABSAGEN))}
    elif kontra_says and not re_says and draw(st.booleans()):
        out["re"] = {"zurueck": True, "absage": draw(st.sampled_from(ABSAGEN))}
    return out


@st.composite
def sonderpunkte(draw: st.DrawFn, augen: int, house: bool, schwein: bool) -> dict[str, Any]:
    """Legal special points for the given Augen of Re."""
    sides = {"re": augen, "kontra": 240 - augen}
    out: dict[str, dict[str, int]] = {"re": {}, "kontra": {}}
    fuechse_left = 1 if schwein else 2
    karl_side = draw(st.sampled_from(["re", "kontra", None]))
    for side, own in sides.items():
        if own == 0:
            continue  # schwarz: no trick, no special points
        dk = draw(st.integers(0, min(2, own // 40)))
        fuchs = draw(st.integers(0, min(fuechse_left, 2 if own >= 26 else 1 if own >= 17 else 0)))
        fuechse_left -= fuchs
        karl = draw(st.integers(0, 2 if house else 1)) if karl_side == side else 0
        herz = 0 if house else draw(st.integers(0, 1))
        if herz and side == "kontra" and out["re"].get("herzstich"):
            herz = 0
        out[side] = {"doppelkopf": dk, "fuchs": fuchs, "karlchen": karl, "herzstich": herz}
    return out


@st.composite
def runde(draw: st.DrawFn, ruleset: str) -> Sheet:
    """A sheet of 1..20 legal games (and penalties) at a 4- or 5-player table."""
    house = ruleset == "doppelkopf-haus"
    players = draw(st.sampled_from([4, 5]))
    ids = [f"p{i}" for i in range(1, players + 1)]
    sheet = find_ruleset(ruleset).new_sheet([Participant(id=p, name=f"Spieler {p}", seat=i) for i, p in enumerate(ids, start=1)])
    dealer = 0
    games = draw(st.integers(1, 4 * players))
    entries = []
    strafen = 0
    while games:
        sitting = ids[dealer] if players == 5 else None
        active = [p for p in ids if p != sitting]
        if strafen < 3 and draw(st.integers(0, 9)) == 9:
            strafen += 1
            entries.append(Entry(kind="strafe", data={"spieler": draw(st.sampled_from(active))}))
            if house:
                dealer = (dealer + 1) % players
                games -= 1
            continue
        typ = draw(
            st.sampled_from(["normal", "normal", "hochzeit", "stille_hochzeit", *SOLI] + (["armut", "koehler"] if house else []))
        )
        if typ in ("normal", "armut") or (typ == "hochzeit" and draw(st.booleans())):
            re = draw(st.permutations(active))[:2]
        else:
            re = [draw(st.sampled_from(active))]
        solo = typ in SOLI or typ == "koehler" or (typ == "hochzeit" and len(re) == 1)
        augen = draw(st.one_of(AUGEN, st.sampled_from([0, 8, 90, 119, 120, 121, 150, 151, 232, 240])))
        schwein = house and typ in ("normal", "hochzeit", "stille_hochzeit", "armut", "trumpfsolo") and draw(st.booleans())
        data: dict[str, Any] = {"typ": typ, "re": list(re), "augen": augen, "ansagen": draw(ansagen()), "schwein": schwein}
        if not solo:
            data["sonderpunkte"] = draw(sonderpunkte(augen, house, schwein))
        entries.append(Entry(kind="game", data=data))
        dealer = (dealer + 1) % players
        games -= 1
    return sheet.model_copy(update={"entries": tuple(entries)})


RULESETS = st.sampled_from(["doppelkopf-turnier", "doppelkopf-haus"])


@settings(max_examples=150, deadline=None)
@given(data=st.data(), ruleset=RULESETS)
def test_jedes_spiel_summiert_zu_null_und_der_sitzende_bekommt_nichts(data: st.DataObject, ruleset: str) -> None:
    sheet = data.draw(runde(ruleset))
    score = find_ruleset(ruleset).score(sheet)
    ids = sheet.participant_ids
    dealer = 0
    for line in score.lines:
        assert sum(line.points.values()) == 0, line
        if len(ids) == 5:
            assert line.points[ids[dealer]] == 0, f"der sitzende {ids[dealer]} bekam Punkte: {line}"
        counts = line.kind == "game" or ruleset == "doppelkopf-haus"
        if counts:
            dealer = (dealer + 1) % len(ids)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), ruleset=RULESETS)
def test_summen_sind_die_summe_der_zeilen_und_werten_ist_deterministisch(data: st.DataObject, ruleset: str) -> None:
    sheet = data.draw(runde(ruleset))
    rs = find_ruleset(ruleset)
    score = rs.score(sheet)
    running = {p: 0 for p in sheet.participant_ids}
    for line in score.lines:
        running = {p: running[p] + line.points[p] for p in running}
        assert line.totals == running
    assert score.totals == running
    assert {p: r.punkte for p, r in score.result.spieler.items()} == running  # type: ignore[attr-defined]
    assert rs.score(sheet) == score
    assert rs.score(Sheet.from_json(sheet.to_json())).json_dict() == score.json_dict()


@settings(max_examples=100, deadline=None)
@given(data=st.data(), ruleset=RULESETS)
def test_einzelspieler_bekommt_das_dreifache_jedes_gegenspielers(data: st.DataObject, ruleset: str) -> None:
    sheet = data.draw(runde(ruleset))
    score = find_ruleset(ruleset).score(sheet)
    ids = sheet.participant_ids
    dealer = 0
    singles = 0
    for entry, line in zip(sheet.entries, score.lines, strict=True):
        sitting = ids[dealer] if len(ids) == 5 else None
        if entry.kind == "game" and len(entry.data["re"]) == 1:
            singles += 1
            soloist = entry.data["re"][0]
            opponents = [line.points[p] for p in ids if p not in (soloist, sitting)]
            assert len(opponents) == 3
            assert len(set(opponents)) == 1, line
            assert line.points[soloist] == -3 * opponents[0], line
        if entry.kind == "game" or ruleset == "doppelkopf-haus":
            dealer = (dealer + 1) % len(ids)


@settings(max_examples=150, deadline=None)
@given(
    augen=AUGEN,
    ann=ansagen(),
    typ=st.sampled_from(["normal", "stille_hochzeit"]),
)
def test_ohne_sonderpunkte_zaehlen_turnier_und_hausregeln_ein_normalspiel_gleich(
    augen: int, ann: dict[str, Any], typ: str
) -> None:
    """The counting orders differ only in when Sonderpunkte come and in solos."""
    re = ["p1", "p2"] if typ == "normal" else ["p1"]
    points = []
    for ruleset in ("doppelkopf-turnier", "doppelkopf-haus"):
        rs = find_ruleset(ruleset)
        sheet = rs.new_sheet([Participant(id=f"p{i}", name=f"S{i}") for i in range(1, 5)])
        sheet = sheet.with_entry(Entry(kind="game", data={"typ": typ, "re": re, "augen": augen, "ansagen": ann}))
        points.append(rs.score(sheet).lines[0].points)
    assert points[0] == points[1]


@settings(max_examples=150, deadline=None)
@given(augen=AUGEN, ann=ansagen())
def test_ohne_sonderpunkte_bekommt_der_gewinner_plus(augen: int, ann: dict[str, Any]) -> None:
    """Regel 23: plus for the winners. Who wins is read from the first explanation."""
    rs = find_ruleset("doppelkopf-turnier")
    sheet = rs.new_sheet([Participant(id=f"p{i}", name=f"S{i}") for i in range(1, 5)])
    sheet = sheet.with_entry(Entry(kind="game", data={"re": ["p1", "p2"], "augen": augen, "ansagen": ann}))
    line = rs.score(sheet).lines[0]
    verdict = line.explanation[1].text
    if verdict.startswith("Re gewinnt"):
        assert line.points["p1"] > 0
    elif verdict.startswith("Kontra gewinnt"):
        assert line.points["p3"] > 0
    else:
        assert "keine gewinnt" in verdict
