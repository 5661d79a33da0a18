"""The seeded draw of a tournament round (issue 13): reproducible, repeat-free where the numbers
allow, the tables each document wants, and a clear refusal before the round where none fit."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import find_ruleset
from scoring.draw import DrawError, RoundDraw, draw_round, draw_table, meetings, sheet_for
from scoring.plan import TournamentPlan, plan_for
from scoring.roster import Entrant, Roster

#: Ruleset -> the smallest count from which three rounds are drawn with no pair meeting twice.
#: Below it no such draw exists: a second round needs as many tables as a table has seats (a
#: table of four drawn from three earlier tables seats two who met), e.g. Schafkopf 12 players.
REPEAT_FREE_FROM = {
    "watten-turnier": 4,
    "bauernschnapsen": 4,
    "talonschnapsen": 9,
    "schafkopf-turnier": 16,
    "doppelkopf-turnier": 20,
}


def valid_count(ruleset_id: str, n: int) -> int:
    """The nearest count from ``n`` upwards that the ruleset's tables take without byes."""
    plan = plan_for(ruleset_id)
    while True:
        try:
            draw_round(plan, range(1, n + 1), [], 1, 0)
            return n
        except DrawError:
            n += 1


def draw_all(plan: TournamentPlan, numbers: range | list[int], seed: int, rounds: int = 3) -> list[RoundDraw]:
    draws: list[RoundDraw] = []
    for r in range(1, rounds + 1):
        draws.append(draw_round(plan, numbers, draws, r, seed + r))
    return draws


def check_tables(plan: TournamentPlan, draw: RoundDraw, numbers: set[int]) -> None:
    """Everyone drawn sits at exactly one table, tables are of the plan's sizes, seats 1..k."""
    seated = [n for t in draw.tables for n in t.start_numbers]
    assert sorted(seated + list(draw.bye)) == sorted(numbers)
    assert len(set(seated)) == len(seated)
    assert [t.table for t in draw.tables] == list(range(1, len(draw.tables) + 1))
    for table in draw.tables:
        assert len(table.seats) in plan.table_sizes
        assert [s.seat for s in table.seats] == list(range(1, len(table.seats) + 1))


@settings(max_examples=120, deadline=None)
@given(
    ruleset_id=st.sampled_from(sorted(REPEAT_FREE_FROM)),
    extra=st.integers(min_value=0, max_value=60),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_no_pair_meets_twice_where_the_numbers_allow(ruleset_id: str, extra: int, seed: int) -> None:
    plan = plan_for(ruleset_id)
    n = valid_count(ruleset_id, REPEAT_FREE_FROM[ruleset_id] + extra)
    draws = draw_all(plan, range(1, n + 1), seed)
    for draw in draws:
        check_tables(plan, draw, set(range(1, n + 1)))
    met = meetings(draws)
    assert max(met.values()) == 1, {pair: c for pair, c in met.items() if c > 1}


@settings(max_examples=60, deadline=None)
@given(
    ruleset_id=st.sampled_from(sorted(REPEAT_FREE_FROM)),
    n=st.integers(min_value=2, max_value=70),
    seed=st.integers(min_value=0, max_value=2**32),
    rounds=st.integers(min_value=1, max_value=4),
)
def test_the_same_seed_gives_the_same_draw(ruleset_id: str, n: int, seed: int, rounds: int) -> None:
    plan = plan_for(ruleset_id)
    n = valid_count(ruleset_id, n)
    numbers = list(range(1, n + 1))
    first = draw_all(plan, numbers, seed, rounds)
    again = draw_all(plan, list(reversed(numbers)), seed, rounds)
    assert first == again
    for draw in first:
        check_tables(plan, draw, set(numbers))


def test_the_draw_depends_on_the_seed_and_the_round() -> None:
    plan = plan_for("schafkopf-turnier")
    one = draw_round(plan, range(1, 65), [], 1, 4711)
    other = draw_round(plan, range(1, 65), [], 1, 4712)
    assert one.tables != other.tables
    assert one.seed == 4711 and one.round == 1


@settings(max_examples=40, deadline=None)
@given(
    ruleset_id=st.sampled_from(sorted(REPEAT_FREE_FROM)),
    n=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_short_of_a_repeat_free_draw_it_still_seats_everyone(ruleset_id: str, n: int, seed: int) -> None:
    """Four rounds, or too few entrants: repeats happen, but everyone sits once per round."""
    plan = plan_for(ruleset_id)
    n = valid_count(ruleset_id, n)
    draws = draw_all(plan, range(1, n + 1), seed, rounds=4)
    for draw in draws:
        check_tables(plan, draw, set(range(1, n + 1)))


def test_66_doppelkopf_players_sit_at_14_tables_of_4_and_2_of_5() -> None:
    plan = plan_for("doppelkopf-turnier")
    draws = draw_all(plan, range(1, 67), 2026)
    for draw in draws:
        assert [len(t.seats) for t in draw.tables] == [4] * 14 + [5, 5]
    # 10 seats at 5-player tables a Runde, 30 over three: nobody sits out twice (Regel 25).
    fives = Counter(n for d in draws for t in d.tables if len(t.seats) == 5 for n in t.start_numbers)
    assert len(fives) == 30 and max(fives.values()) == 1
    assert max(meetings(draws).values()) == 1


@pytest.mark.parametrize(
    ("ruleset_id", "count", "message"),
    [
        (
            "watten-turnier",
            31,
            "Watten braucht eine gerade Zahl von Mannschaften: 31 angemeldet, eine fehlt oder eine muss zurückziehen",
        ),
        ("watten-turnier", 1, "Watten braucht mindestens 2 Mannschaften: 1 angemeldet"),
        (
            "schafkopf-turnier",
            66,
            "Schafkopf braucht eine durch 4 teilbare Zahl von Spielern: 66 angemeldet, 2 fehlen oder 2 müssen zurückziehen",
        ),
        (
            "schafkopf-turnier",
            65,
            "Schafkopf braucht eine durch 4 teilbare Zahl von Spielern: 65 angemeldet, 3 fehlen oder 1 muss zurückziehen",
        ),
        ("doppelkopf-turnier", 3, "Doppelkopf braucht mindestens 4 Spieler: 3 angemeldet"),
        ("doppelkopf-turnier", 7, "Doppelkopf kann 7 Spieler nicht an 4- und 5er-Tische setzen: mit 8 Spielern geht es"),
        ("doppelkopf-turnier", 11, "Doppelkopf kann 11 Spieler nicht an 4- und 5er-Tische setzen: mit 12 Spielern geht es"),
        (
            "talonschnapsen",
            10,
            "Talonschnapsen braucht eine durch 3 teilbare Zahl von Spielern: 10 angemeldet, 2 fehlen oder 1 muss zurückziehen",
        ),
    ],
)
def test_a_count_the_tables_cannot_take_is_refused_before_the_round(ruleset_id: str, count: int, message: str) -> None:
    with pytest.raises(DrawError) as caught:
        draw_round(plan_for(ruleset_id), range(1, count + 1), [], 1, 1)
    assert str(caught.value) == message


def test_doppelkopf_takes_every_count_from_12() -> None:
    plan = plan_for("doppelkopf-turnier")
    for n in range(12, 120):
        draw = draw_round(plan, range(1, n + 1), [], 1, n)
        sizes = [len(t.seats) for t in draw.tables]
        assert sum(sizes) == n and sizes.count(5) == n % 4


def test_bad_start_numbers_are_refused() -> None:
    plan = plan_for("watten-turnier")
    with pytest.raises(DrawError, match="Startnummer 3 mehrfach"):
        draw_round(plan, [1, 2, 3, 3], [], 1, 1)
    with pytest.raises(DrawError, match="Runde muss mindestens 1"):
        draw_round(plan, [1, 2], [], 0, 1)


def test_withdrawn_entrants_are_not_drawn_late_ones_are() -> None:
    plan = plan_for("schafkopf-turnier")
    roster = Roster(entrants=tuple(Entrant(start_number=n, name=f"Spieler {n}") for n in range(1, 21)))
    first = draw_round(plan, roster.active(), [], 1, 99)
    roster = roster.withdraw(7).withdraw(12).withdraw(13).withdraw(19).withdraw(20)
    roster = roster.with_entrant(Entrant(start_number=21, name="Nachzügler"))
    assert roster.active() == (*[n for n in range(1, 19) if n not in (7, 12, 13)], 21)
    second = draw_round(plan, roster.active(), [first], 2, 100)
    seated = {n for t in second.tables for n in t.start_numbers}
    assert 21 in seated and not seated & {7, 12, 13, 19, 20}
    assert len(second.tables) == 4


def test_byes_only_where_the_plan_allows_them_and_they_rotate() -> None:
    with pytest.raises(DrawError):
        draw_round(plan_for("schafkopf-turnier"), range(1, 19), [], 1, 5)
    plan = plan_for("schafkopf-turnier", byes=True)
    draws = draw_all(plan, range(1, 19), 5, rounds=3)
    for draw in draws:
        assert len(draw.bye) == 2
        check_tables(plan, draw, set(range(1, 19)))
    byes = [n for d in draws for n in d.bye]
    assert len(set(byes)) == 6, "nobody sits out twice while others have not sat out"


def test_schafkopf_seats_are_the_los() -> None:
    """The Los: each table's seats 1-4 in a random order, not the order of the start numbers."""
    plan = plan_for("schafkopf-turnier")
    draw = draw_round(plan, range(1, 65), [], 1, 31)
    in_order = sum(1 for t in draw.tables if list(t.start_numbers) == sorted(t.start_numbers))
    assert in_order < 8  # 1 in 24 tables by chance; all 16 if the seats were not drawn


def test_meetings_counts_everyone_at_a_table() -> None:
    plan = plan_for("doppelkopf-turnier")
    draw = draw_round(plan, range(1, 6), [], 1, 3)
    met = meetings([draw, draw])
    assert len(met) == 10 and set(met.values()) == {2}


def test_sheet_for_opens_the_drawn_table() -> None:
    plan = plan_for("watten-turnier")
    roster = Roster.parse_csv(
        "Startnummer;Name;Spieler 1;Spieler 2\n1;Die Sautreiber;Anna;Bert\n2;Kreuzbuben;Cilli;Done\n", "team"
    )
    draw = draw_round(plan, roster.active(), [], 2, 8)
    sheet = sheet_for(plan, roster, draw, 1, tournament="Herbstturnier", written_by="A")
    assert sheet.context.model_dump() == {
        "tournament": "Herbstturnier",
        "round_label": "Durchgang",
        "round": 2,
        "table": 1,
        "written_by": "A",
    }
    assert sheet.ruleset.id == "watten-turnier" and sheet.ruleset.options == plan.options
    by_number = {p.start_number: p for p in sheet.participants}
    assert by_number[1].name == "Die Sautreiber" and by_number[1].members == ("Anna", "Bert")
    assert {p.id for p in sheet.participants} == {"A", "B"}
    assert [p.seat for p in sheet.participants] == [1, 2]
    assert sheet.entries == ()
    find_ruleset("watten-turnier").score(sheet)
    # The same table asked twice is the same sheet; the other team's sheet is another.
    assert sheet_for(plan, roster, draw, 1, tournament="Herbstturnier", written_by="A").id == sheet.id
    assert sheet_for(plan, roster, draw, 1, tournament="Herbstturnier", written_by="B").id != sheet.id
    with pytest.raises(DrawError, match="Tisch 2 gibt es"):
        sheet_for(plan, roster, draw, 2, tournament="Herbstturnier", written_by="A")


def test_sheet_for_doppelkopf_five_player_table() -> None:
    plan = plan_for("doppelkopf-turnier")
    roster = Roster(entrants=tuple(Entrant(start_number=n, name=f"Spieler {n}") for n in range(1, 10)))
    draw = draw_round(plan, roster.active(), [], 1, 1)
    five = next(t for t in draw.tables if len(t.seats) == 5)
    sheet = sheet_for(plan, roster, draw, five.table, tournament="Doko", written_by="p1")
    assert [p.id for p in sheet.participants] == ["p1", "p2", "p3", "p4", "p5"]
    assert [p.start_number for p in sheet.participants] == list(five.start_numbers)
    status = find_ruleset("doppelkopf-turnier").score(sheet).status
    assert status.details["spiele_gesamt"] == 20


def test_the_draw_for_the_notice_board() -> None:
    plan = plan_for("schafkopf-turnier", byes=True)
    roster = Roster(
        entrants=tuple(Entrant(start_number=n, name=f"Spieler {n}", club="SC" if n == 3 else None) for n in range(1, 10))
    )
    draw = draw_round(plan, roster.active(), [], 1, 12)
    header, rows = draw_table(plan, roster, draw)
    assert header == ("Tisch", "Platz", "Nr.", "Spieler", "Verein")
    assert len(rows) == 9 and [r[0] for r in rows].count("spielfrei") == 1
    assert [r[:3] for r in rows[:4]] == [(1, s.seat, s.start_number) for s in draw.tables[0].seats]
    assert next(r for r in rows if r[2] == 3)[4] == "SC"
