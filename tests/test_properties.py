"""Invariants of the engine, checked with hypothesis on random Watten Durchgänge.

Scoring is deterministic, running totals are the sum of the lines, a sheet that round-trips
through JSON scores the same, a correction with the same data changes nothing, and voiding the
last entry restores the totals and status from before it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, Replacement, RuleViolation, Sheet, SheetContext, find_ruleset
from scoring.watten import WattenResult

WATTEN = find_ruleset("watten-turnier")

entries = st.one_of(
    st.builds(lambda w, v: Entry(kind="game", data={"winner": w, "value": v}), st.sampled_from("AB"), st.integers(2, 6)),
    st.builds(lambda w: Entry(kind="game", data={"winner": w}), st.sampled_from("AB")),
    st.builds(lambda t: Entry(kind="gehen", data={"team": t}), st.sampled_from("AB")),
    st.builds(lambda t: Entry(kind="ausschaffen", data={"team": t}), st.sampled_from("AB")),
    st.just(Entry(kind="vergeben")),
    st.builds(lambda t: Entry(kind="betrug", data={"cheater": t}), st.sampled_from("AB")),
    st.just(Entry(kind="zeitlimit")),
)


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    """A valid sheet: random entries, each kept only if the rules accept it (as the app does)."""
    start_a, start_b = draw(st.lists(st.integers(1, 50), min_size=2, max_size=2, unique=True))
    teams = (Participant(id="A", name="Sautreiber", start_number=start_a), Participant(id="B", name="Kartlbrüder", start_number=start_b))
    sheet = WATTEN.new_sheet(teams, SheetContext(round_label="Durchgang", round=1))
    for entry in draw(st.lists(entries, max_size=60)):
        try:
            WATTEN.check(sheet, entry)
        except RuleViolation:
            continue
        sheet = sheet.with_entry(entry)
    closing = draw(st.sampled_from([None, {}, {"override": "Abbruch durch die Turnierleitung"}]))
    if closing is not None:
        close = Entry(kind="close", data={"signed_by": "Sepp"} | closing)
        try:
            WATTEN.check(sheet, close)
        except RuleViolation:
            return sheet
        sheet = sheet.with_entry(close)
    return sheet


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_scoring_is_deterministic_and_totals_are_the_sum_of_lines(sheet: Sheet) -> None:
    first, second = WATTEN.score(sheet), WATTEN.score(sheet)
    assert first == second
    running = {"A": 0, "B": 0}
    for line in first.lines:
        running = {k: running[k] + line.points[k] for k in running}
        assert line.totals == running
    assert first.totals == running


@settings(max_examples=100, deadline=None)
@given(sheets())
def test_json_round_trip_scores_the_same(sheet: Sheet) -> None:
    again = Sheet.from_json(sheet.to_json())
    assert again == sheet
    assert WATTEN.score(again) == WATTEN.score(sheet)


@settings(max_examples=100, deadline=None)
@given(sheets(), st.data())
def test_correcting_an_entry_with_its_own_data_changes_no_totals(sheet: Sheet, data: st.DataObject) -> None:
    games = [(n, e) for n, e in enumerate(sheet.entries, start=1) if e.kind not in ("correction", "void", "close")]
    if not games:
        return
    number, entry = data.draw(st.sampled_from(games))
    corrected = sheet.with_entry(Entry(kind="correction", target=number, replacement=Replacement(kind=entry.kind, data=entry.data)))
    before, after = WATTEN.score(sheet), WATTEN.score(corrected)
    assert after.totals == before.totals and after.status == before.status and after.result == before.result
    line = next(line for line in after.lines if line.entry == number)
    assert line.corrected_by == (len(sheet.entries) + 1,)


@settings(max_examples=100, deadline=None)
@given(sheets(), entries)
def test_voiding_the_last_entry_restores_totals_and_status(sheet: Sheet, entry: Entry) -> None:
    try:
        WATTEN.check(sheet, entry)
    except RuleViolation:
        return
    grown = sheet.with_entry(entry)
    undone = grown.with_entry(Entry(kind="void", target=len(grown.entries)))
    before, after = WATTEN.score(sheet), WATTEN.score(undone)
    assert after.totals == before.totals
    assert after.status == before.status
    assert after.result == before.result


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_watten_bummerl_invariants(sheet: Sheet) -> None:
    """Regel 12: a won Bummerl scores 30 in all (30 minus the loser's points, plus those points);
    Regel 10: 30:0; Regel 11: a Bummerl without winner gives the written points, below 15.
    The written totals are the Bummerl stands plus the open one; a finished sheet names no dealer."""
    score = WATTEN.score(sheet)
    result = score.result
    assert isinstance(result, WattenResult)
    for bummerl in result.bummerl:
        if bummerl.ended_by == "zeitlimit":
            assert bummerl.winner is None and bummerl.score == bummerl.stand
            assert all(points < 15 for points in bummerl.stand.values())
        else:
            assert bummerl.winner is not None and sum(bummerl.score.values()) == 30
        if bummerl.ended_by == "ziel":
            assert bummerl.stand[bummerl.winner] >= 15 > min(bummerl.stand.values())
    for team in ("A", "B"):
        assert result.teams[team].written == score.totals[team]
        assert result.teams[team].points == sum(b.score[team] for b in result.bummerl)
    assert (score.status.dealer is None) == score.status.finished == result.finished
