"""The season (Jahreswertung) over tournaments' final standings (issue 23): worked examples where
each tie-break level decides, the scheme's options, and hypothesis for invariants and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from scoring.season import (
    DEFAULT_SCHEME,
    SEASONS_NOT_IN_RULES,
    Placing,
    SeasonError,
    SeasonScheme,
    SeasonTournament,
    parse_place_points,
    placings_from_standings,
    season_standings,
)
from scoring.standings import tournament_standings

from .tournament_data import watten_tournament

SCHEME = SeasonScheme(name="Test 10-6-4-2", place_points=(10, 6, 4, 2))


def tournament(tid: str, *ranked: str | tuple[str, int]) -> SeasonTournament:
    """A tournament from its order of finish; ("A", 1) gives a shared rank explicitly."""
    placings = []
    for i, item in enumerate(ranked, start=1):
        pid, rank = item if isinstance(item, tuple) else (item, i)
        placings.append(Placing(player_id=pid, name=pid.upper(), rank=rank, points=100 - rank))
    return SeasonTournament(id=tid, name=f"Turnier {tid}", placings=tuple(placings))


def summary(standings: object) -> list[tuple[int | None, str, int, str]]:
    return [(r.rank, r.player_id, r.total, r.decided_by) for r in standings.rows]  # type: ignore[attr-defined]


def test_points_decide_and_the_rule_documents_are_said_to_be_silent() -> None:
    s = season_standings([tournament("1", "a", "b", "c"), tournament("2", "a", "c", "b")], SCHEME)
    assert summary(s) == [(1, "a", 20, "Punkte"), (2, "b", 10, "geteilter Platz"), (2, "c", 10, "geteilter Platz")]
    assert SEASONS_NOT_IN_RULES in s.notes
    assert "sagen nichts" in SEASONS_NOT_IN_RULES


def test_more_tournament_wins_decide_a_tie_in_points() -> None:
    # b: 10 (one tournament, won); c: 6 + 4 = 10 without a win; a (10, won) shares b's place.
    s = season_standings([tournament("1", "b", "c", "z", "y"), tournament("2", "a", "y", "c", "z")], SCHEME)
    assert summary(s) == [
        (1, "a", 10, "geteilter Platz"),
        (1, "b", 10, "geteilter Platz"),
        (3, "c", 10, "mehr Turniersiege"),
        (4, "y", 8, "Punkte"),
        (5, "z", 6, "Punkte"),
    ]


def test_the_best_single_result_decides_equal_points_and_wins() -> None:
    # Three tournaments; d: 6+6+0 = 12 (best 6), e: 4+4+4 = 12 (best 4); neither won.
    s = season_standings(
        [
            tournament("1", "w", "d", "e", "q"),
            tournament("2", "w", "d", "e", "q"),
            tournament("3", "w", "q", "e", "x", "d"),
        ],
        SCHEME,
    )
    rows = {r.player_id: r for r in s.rows}
    assert (rows["d"].total, rows["e"].total, rows["d"].wins, rows["e"].wins) == (12, 12, 0, 0)
    assert (rows["d"].best, rows["e"].best) == (6, 4)
    assert rows["d"].rank == 2 and rows["e"].rank == 3
    assert rows["e"].decided_by == "bestes Einzelergebnis"


def test_equal_in_everything_shares_the_place() -> None:
    s = season_standings([tournament("1", "a", "b"), tournament("2", "b", "a")], SCHEME)
    assert summary(s) == [(1, "a", 16, "geteilter Platz"), (1, "b", 16, "geteilter Platz")]


def test_best_n_of_m_strikes_the_weakest_and_says_which() -> None:
    scheme = SCHEME.model_copy(update={"best_of": 2})
    s = season_standings(
        [tournament("1", "a", "b"), tournament("2", "b", "a"), tournament("3", "a", "b"), tournament("4", "c", "d", "e", "a")],
        scheme,
    )
    a = next(r for r in s.rows if r.player_id == "a")
    assert a.participations == 4 and a.total == 20
    assert [x.tournament_id for x in a.counted] == ["1", "3"]
    assert [(x.tournament_id, x.why) for x in a.not_counted] == [
        ("2", "Streichergebnis (nur die besten 2 zählen)"),
        ("4", "Streichergebnis (nur die besten 2 zählen)"),
    ]


def test_too_few_participations_are_listed_but_not_ranked() -> None:
    scheme = SCHEME.model_copy(update={"min_participations": 2})
    s = season_standings([tournament("1", "a", "b"), tournament("2", "c", "a")], scheme)
    assert [(r.rank, r.player_id) for r in s.rows] == [(1, "a"), (None, "c"), (None, "b")]
    assert s.rows[1].decided_by == "nicht gewertet: 1 von mindestens 2 Teilnahmen"


def test_own_points_add_the_tournaments_main_figure() -> None:
    scheme = SeasonScheme(name="Eigene Punkte", points="own")
    s = season_standings([tournament("1", "a", "b"), tournament("2", "b", "a")], scheme)
    assert [r.total for r in s.rows] == [99 + 98, 99 + 98]


def test_a_shared_tournament_place_gives_each_that_places_points() -> None:
    s = season_standings([tournament("1", ("a", 1), ("b", 1), ("c", 3))], SCHEME)
    assert [(r.player_id, r.total, r.wins) for r in s.rows] == [("a", 10, 1), ("b", 10, 1), ("c", 4, 0)]


def test_merged_records_count_as_one_player() -> None:
    s = season_standings(
        [tournament("1", "a", "b"), tournament("2", "b2", "a")], SCHEME, aliases={"b2": "b"}, names={"b": "Berta"}
    )
    assert [(r.player_id, r.name, r.total, r.participations) for r in s.rows] == [("a", "A", 16, 2), ("b", "Berta", 16, 2)]


def test_from_a_real_tournaments_standings() -> None:
    t = watten_tournament()
    standings = tournament_standings(t.plan, t.roster, t.sheets)
    ids = {e.start_number: f"P{e.start_number}" for e in t.roster.entrants}
    placings = placings_from_standings(standings, ids)
    assert [(p.player_id, p.rank, p.points) for p in placings] == [
        (ids[r.start_number], r.rank, r.values[0]) for r in standings.rows if r.start_number is not None
    ]
    s = season_standings([SeasonTournament(id="w1", name="Watten 1", placings=placings)])
    assert s.rows[0].total == DEFAULT_SCHEME.place_points[0]


def test_the_default_is_a_common_scheme_named_as_such() -> None:
    assert "Vorgabe" in DEFAULT_SCHEME.name and "Übliche" in DEFAULT_SCHEME.name
    assert DEFAULT_SCHEME.describe().startswith(DEFAULT_SCHEME.name)


@pytest.mark.parametrize(
    ("text", "expected"), [("25, 20, 16", (25, 20, 16)), ("25-20-16-13", (25, 20, 16, 13)), ("10\n5\n0", (10, 5, 0))]
)
def test_place_points_as_typed(text: str, expected: tuple[int, ...]) -> None:
    assert parse_place_points(text) == expected


@pytest.mark.parametrize(
    "text", ["", "  ", "zehn", "1.5", "9" * 40, "99999999", "-", "-1", "10, -5", "10--5", "10-", ",".join(["1"] * 1001)]
)
def test_bad_place_points_are_refused_in_german(text: str) -> None:
    with pytest.raises(SeasonError, match="Punktetabelle"):
        parse_place_points(text)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"place_points": (1, 2)},
        {"place_points": ()},
        {"place_points": (-1,)},
        {"place_points": (10**9,)},
        {"place_points": (5,), "best_of": 0},
        {"place_points": (5,), "min_participations": 0},
        {"place_points": (5,), "best_of": 10**12},
        {"place_points": (5,), "points": "gefühlt"},
    ],
)
def test_bad_schemes_are_value_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValidationError) as caught:
        SeasonScheme(name="x", **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)


def test_a_tournament_twice_or_a_player_twice_in_one_is_refused() -> None:
    with pytest.raises(SeasonError, match="zweimal in der Saison"):
        season_standings([tournament("1", "a"), tournament("1", "b")])
    with pytest.raises(SeasonError, match="zweimal in der Wertung"):
        season_standings([tournament("1", "a", "b")], aliases={"b": "a"})
    with pytest.raises(SeasonError, match="Kreis"):
        season_standings([tournament("1", "a")], aliases={"a": "b", "b": "a"})


# -- invariants --------------------------------------------------------------------------------

players = st.sampled_from([f"p{i}" for i in range(8)])
finishes = st.lists(st.lists(players, min_size=1, max_size=8, unique=True), min_size=1, max_size=6)
schemes = st.builds(
    SeasonScheme,
    name=st.just("S"),
    points=st.sampled_from(["places", "own"]),
    place_points=st.lists(st.integers(0, 50), min_size=1, max_size=10).map(lambda xs: tuple(sorted(xs, reverse=True))),
    best_of=st.none() | st.integers(1, 6),
    min_participations=st.integers(1, 4),
)


@settings(max_examples=150, deadline=None)
@given(finishes, schemes)
def test_season_invariants(orders: list[list[str]], scheme: SeasonScheme) -> None:
    ts = [tournament(str(i), *order) for i, order in enumerate(orders)]
    s = season_standings(ts, scheme)
    assert sum(r.participations for r in s.rows) == sum(len(o) for o in orders)
    ranked = [r for r in s.rows if r.rank is not None]
    assert all(r.participations >= scheme.min_participations for r in ranked)
    assert all(r.participations < scheme.min_participations for r in s.rows if r.rank is None)
    assert s.rows[: len(ranked)] == tuple(ranked)
    keys = [(-r.total, -r.wins, -r.best) for r in ranked]
    assert keys == sorted(keys)
    for i, r in enumerate(ranked):
        assert r.rank == 1 + sum(1 for k in keys if k < keys[i])
    for r in s.rows:
        counted = r.counted
        assert r.total == sum(x.season_points for x in counted)
        assert len(counted) == (r.participations if scheme.best_of is None else min(scheme.best_of, r.participations))
        if r.not_counted:
            assert min(x.season_points for x in counted) >= max(x.season_points for x in r.not_counted)
        assert r.wins == sum(1 for x in r.results if x.rank == 1)


@settings(max_examples=100, deadline=None)
@given(finishes, schemes, st.randoms(use_true_random=False))
def test_the_order_of_placings_within_a_tournament_changes_nothing(orders: list[list[str]], scheme: SeasonScheme, rnd) -> None:  # type: ignore[no-untyped-def]
    ts = [tournament(str(i), *order) for i, order in enumerate(orders)]
    shuffled = []
    for t in ts:
        placings = list(t.placings)
        rnd.shuffle(placings)
        shuffled.append(t.model_copy(update={"placings": tuple(placings)}))
    assert season_standings(ts, scheme) == season_standings(shuffled, scheme)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_typed_table_is_read_or_refused_with_a_season_error(text: str) -> None:
    try:
        points = parse_place_points(text)
    except SeasonError as error:
        assert "Punktetabelle" in str(error)
    else:
        assert points and all(0 <= p <= 100_000 for p in points)
