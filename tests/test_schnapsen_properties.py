"""Properties of Bauern- and Talonschnapsen over random legal sheets (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, Score, Sheet, find_ruleset
from scoring.schnapsen import AUGEN_POINTS, CATALOGUE

BAUERN = find_ruleset("bauernschnapsen")
TALON = find_ruleset("talonschnapsen")
ALL = [k for k in CATALOGUE if k != "normal"]
TALON_ALL = [k for k, s in CATALOGUE.items() if k != "normal" and not s.teams_only]
TEAMS = (
    Participant(id="A", name="Sautreiber", members=("Anna", "Bert")),
    Participant(id="B", name="Kartler", members=("Cilli", "Done")),
)
SEATS = ("A1", "B1", "A2", "B2")
PLAYERS = (Participant(id="F", name="Franz"), Participant(id="G", name="Gerti"), Participant(id="H", name="Hans"))

game_choice = st.tuples(
    st.sampled_from(["normal", *ALL]),
    st.integers(0, 3),  # which eligible announcer
    st.booleans(),  # won
    st.sampled_from(sorted(AUGEN_POINTS)),
    st.integers(0, 3),  # spritze
    st.booleans(),  # herzrunde
)


def _announcer(who: str, seats: tuple[str, ...], rufer: int, pick: int) -> str:
    n = len(seats)
    if who == "rufer":
        return seats[rufer]
    if who == "partner":
        return seats[(rufer + 2) % n]
    if who == "rufer_seite":
        return seats[rufer] if n == 3 else seats[(rufer + 2 * (pick % 2)) % n]
    if who == "gegner":
        others = [seats[(rufer + k) % n] for k in range(1, n) if n == 3 or k % 2 == 1]
        return others[pick % len(others)]
    return seats[pick % n]


def _build(ruleset: Any, participants: tuple[Participant, ...], seats: tuple[str, ...], choices: list[Any], options: dict[str, Any]) -> Sheet:
    sheet = ruleset.new_sheet(participants, options=options)
    for index, (game, pick, won, augen, spritze, herz) in enumerate(choices):
        if ruleset is TALON and CATALOGUE[game].teams_only:
            game = "gang"
        data: dict[str, Any] = {
            "game": game,
            "announcer": _announcer(CATALOGUE[game].who, seats, index % len(seats), pick),
            "won": won,
            "spritze": spritze,
            "herzrunde": herz,
        }
        if game == "normal":
            data["augen"] = augen
        sheet = sheet.with_entry(Entry(kind="game", data=data))
    return sheet


options_strategy = st.fixed_dictionaries(
    {"target": st.sampled_from([7, 24, 41]), "countdown": st.booleans(), "herzrunde": st.just(True)}
)


def _check_totals(score: Score) -> None:
    running: dict[str, int] = {pid: 0 for pid in score.totals}
    for line in score.lines:
        running = {pid: running[pid] + line.points[pid] for pid in running}
        assert line.totals == running
    assert score.totals == running


@settings(max_examples=80, deadline=None)
@given(st.lists(game_choice, max_size=25), options_strategy)
def test_bauernschnapsen_points_move_to_one_team_and_totals_add_up(choices: list[Any], options: dict[str, Any]) -> None:
    sheet = _build(BAUERN, TEAMS, SEATS, choices, {**options, "games": ALL})
    score = BAUERN.score(sheet)
    team = {seat: seat[0] for seat in SEATS}
    for line, entry in zip(score.lines, sheet.entries, strict=True):
        receiving = [pid for pid, p in line.points.items() if p]
        assert len(receiving) == 1, line.points
        assert all(p >= 0 for p in line.points.values())
        # A game won goes to the announcer's team, a game lost to the other team.
        announcers_team = team[entry.data["announcer"]]
        assert (receiving[0] == announcers_team) == entry.data["won"], (entry.data, line.points)
    _check_totals(score)
    result = score.result
    assert sum(result.bummerl.values()) == sum(v.bummerl for b in result.history for v in b.losers)  # type: ignore[attr-defined]
    for b in result.history:  # type: ignore[attr-defined]
        assert len(b.winners) == 1 and len(b.losers) == 1 and b.losers[0].bummerl in (1, 2, 4)
    assert BAUERN.score(Sheet.from_json(sheet.to_json())) == score
    assert BAUERN.score(sheet) == score


@settings(max_examples=80, deadline=None)
@given(st.lists(game_choice, max_size=25), options_strategy, st.booleans(), st.booleans())
def test_talonschnapsen_points_go_to_the_declarer_or_the_two_others(
    choices: list[Any], options: dict[str, Any], below: bool, retour: bool
) -> None:
    opts = {**options, "games": TALON_ALL, "bummerl_below_target": below, "retourschneider": retour}
    sheet = _build(TALON, PLAYERS, ("F", "G", "H"), choices, opts)
    score = TALON.score(sheet)
    for line, entry in zip(score.lines, sheet.entries, strict=True):
        receiving = [p for p in line.points.values() if p]
        assert len(receiving) in (1, 2), line.points
        if len(receiving) == 2 and line.explanation[0].text.find("Kontra-Herrenbauer") < 0:
            assert receiving[0] == receiving[1]
        # Talonschnapsen (Punkte): made, the declarer alone; failed, each of the two others.
        declarer = entry.data["announcer"]
        expected = {declarer} if entry.data["won"] else {"F", "G", "H"} - {declarer}
        assert {pid for pid, p in line.points.items() if p} == expected, (entry.data, line.points)
    _check_totals(score)
    result = score.result
    assert sum(result.bummerl.values()) == sum(v.bummerl for b in result.history for v in b.losers)  # type: ignore[attr-defined]
    # Counting down, the stand shows what is missing (floored at 0): the target is reached at 0.
    reached = (lambda v: v == 0) if opts["countdown"] else (lambda v: v >= opts["target"])
    closed = [line for line in score.lines if any(reached(v) for v in line.stand.values())]  # type: ignore[union-attr]
    assert len(closed) == len(result.history)  # type: ignore[attr-defined]
    for b in result.history:  # type: ignore[attr-defined]
        assert b.winners and b.losers
        assert not set(b.winners) & {v.participant for v in b.losers}
        # The Bummerl goes to the fewest (all tied at the fewest), or to everyone below the target.
        counted = {s: (opts["target"] - v if opts["countdown"] else v) for s, v in b.stand.items()}
        if below:
            assert {v.participant for v in b.losers} == {s for s, v in counted.items() if v < opts["target"]}
        else:
            fewest = min(counted.values())
            assert {v.participant for v in b.losers} == {s for s, v in counted.items() if v == fewest}
    assert TALON.score(Sheet.from_json(sheet.to_json())) == score


@settings(max_examples=40, deadline=None)
@given(st.lists(game_choice, min_size=1, max_size=25))
def test_a_bummerl_closes_exactly_when_a_side_reaches_the_target(choices: list[Any]) -> None:
    sheet = _build(BAUERN, TEAMS, SEATS, choices, {"games": ALL, "herzrunde": True})
    score = BAUERN.score(sheet)
    closed = [i for i, line in enumerate(score.lines) if max(line.stand.values()) >= 24]  # type: ignore[union-attr]
    assert len(closed) == len(score.result.history)  # type: ignore[attr-defined]
