"""The Doppelkopf entry panel's draft, without a browser, on real sheets scored by the rulesets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, Sheet, effective_entries, find_ruleset
from screens.doppelkopf_draft import DoppelkopfDraft
from screens.drafts import DraftIncomplete, refusal
from screens.families import draft_for, find_family

from .conftest import DATA, ROOT

T, H = "doppelkopf-turnier", "doppelkopf-haus"
NAMES = ("Anna", "Bert", "Carla", "Dieter", "Emil")


def new_sheet(ruleset: str, players: int = 4, **options: Any) -> Sheet:
    people = [Participant(id=f"p{i}", name=NAMES[i - 1], seat=i) for i in range(1, players + 1)]
    return find_ruleset(ruleset).new_sheet(people, options=options)


def draft_on(sheet: Sheet) -> DoppelkopfDraft:
    draft = DoppelkopfDraft()
    draft.reset(sheet, find_ruleset(sheet.ruleset.id).score(sheet))
    return draft


def add(sheet: Sheet, draft: DoppelkopfDraft) -> Sheet:
    """Save what the draft makes, as the sheet screen does (the ruleset must accept it)."""
    kind, data = draft.entry()
    entry = Entry(kind=kind, data=data)
    find_ruleset(sheet.ruleset.id).check(sheet, entry)
    return sheet.with_entry(entry)


def test_the_family_registers_both_rulesets_with_this_draft() -> None:
    assert isinstance(draft_for(T), DoppelkopfDraft) and isinstance(draft_for(H), DoppelkopfDraft)
    assert find_family(T) is find_family(H)


def test_a_five_player_table_shows_who_deals_and_sits_out_and_offers_only_the_four_players() -> None:
    sheet = new_sheet(T, 5)
    draft = draft_on(sheet)
    assert draft.table_text == "Anna gibt und sitzt aus"
    assert draft.players == ("p2", "p3", "p4", "p5") and draft.sitting == "p1"
    draft.toggle_re("p1")  # the sitting player cannot be tapped onto Re
    assert draft.re == ()
    draft.toggle_re("p2")
    draft.toggle_re("p4")
    draft.set_augen("130")
    sheet = add(sheet, draft)
    draft = draft_on(sheet)
    assert draft.table_text == "Bert gibt und sitzt aus"
    assert draft.players == ("p1", "p3", "p4", "p5")
    four = draft_on(new_sheet(T, 4))
    assert four.sitting is None and four.table_text == "Anna gibt" and len(four.players) == 4


def test_a_normal_game_with_re_announced_is_four_taps_and_the_rules_accept_it() -> None:
    sheet = new_sheet(T, 4)
    draft = draft_on(sheet)
    draft.toggle_re("p1")
    draft.toggle_re("p3")
    draft.toggle_ansage("re")
    draft.set_augen("139")
    assert draft.entry() == ("game", {"re": ["p1", "p3"], "augen": 139, "ansagen": {"re": {"ansage": True}}})
    assert draft.preview() == (True, "Anna +2  Bert -2  Carla +2  Dieter -2")
    score = find_ruleset(T).score(add(sheet, draft))
    assert score.lines[-1].points == {"p1": 2, "p2": -2, "p3": 2, "p4": -2}


def test_the_summary_line_says_what_the_taps_make() -> None:
    draft = draft_on(new_sheet(T, 5))
    assert draft.summary == "Gewählt: Normalspiel"
    draft.toggle_re("p2")
    draft.toggle_re("p3")
    draft.toggle_ansage("kontra")
    draft.toggle_zurueck("re")
    draft.set_absage("kontra", "keine 90")
    draft.tap_sonder("re", "fuchs")
    draft.tap_sonder("re", "fuchs")
    draft.set_augen("95")
    assert draft.summary == (
        "Gewählt: Normalspiel, Re Bert und Carla, Re sagt Einen zurück, Kontra sagt Kontra, keine 90, Fuchs für Re ×2, 95 Augen"
    )
    draft.set_kind("strafe")
    draft.set_spieler("p4")
    assert draft.summary == "Gewählt: Strafe – Dieter"


def test_a_third_re_player_replaces_the_first_and_a_second_tap_takes_one_off() -> None:
    draft = draft_on(new_sheet(T, 4))
    for pid in ("p1", "p2", "p3"):
        draft.toggle_re(pid)
    assert draft.re == ("p2", "p3")
    draft.toggle_re("p2")
    assert draft.re == ("p3",)


def test_what_is_missing_is_said_in_german_and_nothing_is_made() -> None:
    draft = draft_on(new_sheet(T, 4))
    with pytest.raises(DraftIncomplete, match="Wähle die zwei Re-Spieler"):
        draft.entry()
    draft.toggle_re("p1")
    draft.toggle_re("p2")
    with pytest.raises(DraftIncomplete, match="Trage die Augen von Re ein"):
        draft.entry()
    draft.set_augen("12a")
    with pytest.raises(DraftIncomplete, match="ganze Zahl von 0 bis 240"):
        draft.entry()
    draft.set_typ("damensolo")
    assert draft.re == ("p2",)
    draft.toggle_re("p2")
    with pytest.raises(DraftIncomplete, match="Damensolo: Wähle, wer spielt"):
        draft.entry()


def test_augen_out_of_range_are_refused_by_the_rule_with_its_message() -> None:
    sheet = new_sheet(T, 4)
    draft = draft_on(sheet)
    draft.toggle_re("p1")
    draft.toggle_re("p2")
    draft.set_augen("241")
    kind, data = draft.entry()
    message = refusal(sheet, kind, data)
    assert message is not None and "Augen: höchstens 240, nicht 241" in message
    assert draft.preview() == (False, message)


def test_the_pflichtsolo_is_marked_until_played_then_a_solo_is_a_lustsolo() -> None:
    sheet = new_sheet(T, 4)
    draft = draft_on(sheet)
    assert draft.solo_note("p1") is None  # not a solo yet
    draft.set_typ("damensolo")
    assert draft.single and draft.re_prompt == "Wer spielt?"
    assert draft.solo_note("p1") == "Pflichtsolo"
    draft.toggle_re("p1")
    draft.set_augen("150")
    sheet = add(sheet, draft)
    draft = draft_on(sheet)
    draft.set_typ("bubensolo")
    assert draft.solo_note("p1") == "Lustsolo" and draft.solo_note("p2") == "Pflichtsolo"
    assert draft_on(new_sheet(H, 4)).solo_note("p1") is None  # the house rules have no Pflichtsolo


def test_game_types_and_events_follow_the_options() -> None:
    turnier, haus = draft_on(new_sheet(T, 4)), draft_on(new_sheet(H, 4))
    assert "armut" not in turnier.typen and "koehler" not in turnier.typen
    assert {"armut", "koehler"} <= set(haus.typen)
    assert turnier.kinds == ("game", "strafe") and haus.kinds == ("game", "strafe", "schmeissen")
    turnier.set_typ("armut")  # not offered, so a tap cannot choose it
    assert turnier.typ == "normal"
    assert turnier.strafe_spiel_choices == ("fortgefuehrt", "wiederholt") and haus.strafe_spiel_choices == ()
    assert "−15" in turnier.strafe_text and "−9" in haus.strafe_text


def test_the_first_row_has_normalspiel_and_hochzeit_the_other_types_one_tap_down() -> None:
    draft = draft_on(new_sheet(H, 4))
    assert draft.common_types == ("normal", "hochzeit") and not draft.show_other_types
    assert draft.other_types[:2] == ("stille_hochzeit", "armut")
    draft.toggle_types()
    draft.set_typ("koehler")
    draft.toggle_types()
    assert draft.show_other_types  # a chosen solo stays visible


def test_einen_zurueck_and_absagen_are_offered_only_where_the_rules_allow_them() -> None:
    draft = draft_on(new_sheet(T, 4))
    assert not draft.zurueck_possible("re") and not draft.absage_possible("re")
    draft.toggle_ansage("kontra")
    assert draft.zurueck_possible("re") and draft.absage_possible("kontra") and not draft.absage_possible("re")
    draft.toggle_zurueck("re")
    draft.set_absage("re", "keine 90")
    draft.set_absage("kontra", "keine 60")
    assert draft.absage == {"re": "keine 90", "kontra": "keine 60"}
    draft.set_absage("kontra", "keine 60")  # a second tap takes it back
    assert draft.absage["kontra"] is None
    draft.toggle_ansage("kontra")  # without Kontra's call, Re's "zurück" and its Absage go too
    assert draft.zurueck == {"re": False} and draft.absage["re"] is None
    draft.toggle_zurueck("kontra")  # nothing to reply to
    assert not draft.zurueck.get("kontra")


def test_sonderpunkte_count_up_to_the_most_a_side_can_make_and_vanish_in_a_solo() -> None:
    draft = draft_on(new_sheet(H, 4))
    assert draft.sonder_keys == ("fuchs", "doppelkopf", "karlchen")  # no Herzstich in the house rules
    for expected in (1, 2, 0):
        draft.tap_sonder("re", "fuchs")
        assert draft.sonder_count("re", "fuchs") == expected
    draft.toggle_schwein()
    draft.tap_sonder("kontra", "fuchs")
    draft.tap_sonder("kontra", "fuchs")  # with a Schwein one Fuchs at most (Hausregel II)
    assert draft.sonder_count("kontra", "fuchs") == 0
    draft.tap_sonder("re", "karlchen")
    draft.set_typ("damensolo")  # no Karo trump: no Schwein; a solo: no Sonderpunkte
    assert not draft.schwein and draft.sonder == {} and draft.sonder_keys == ()
    assert "herzstich" in draft_on(new_sheet(T, 4)).sonder_keys


def test_farbsolo_offers_the_suits_and_the_schwein_only_with_karo() -> None:
    draft = draft_on(new_sheet(H, 4))
    draft.set_typ("farbsolo")
    assert draft.farben == ("kreuz", "pik", "herz", "karo")
    draft.set_farbe("herz")
    assert not draft.schwein_possible
    draft.set_farbe("karo")
    assert draft.schwein_possible
    draft.toggle_schwein()
    draft.set_farbe("pik")
    assert not draft.schwein


def test_a_strafe_and_schmeissen_name_a_player_of_the_game() -> None:
    sheet = new_sheet(T, 5)
    draft = draft_on(sheet)
    draft.set_kind("strafe")
    with pytest.raises(DraftIncomplete, match="Wähle, wer die Strafe bekommt"):
        draft.entry()
    draft.set_spieler("p3")
    draft.set_grund(" falsch bedient ")
    draft.set_spiel("wiederholt")
    assert draft.entry() == ("strafe", {"spieler": "p3", "grund": "falsch bedient", "spiel": "wiederholt"})
    assert find_ruleset(T).score(add(sheet, draft)).lines[-1].points == {"p1": 0, "p2": 5, "p3": -15, "p4": 5, "p5": 5}
    haus = draft_on(new_sheet(H, 4))
    haus.set_kind("schmeissen")
    haus.set_spieler("p2")
    assert haus.entry() == ("schmeissen", {"spieler": "p2"})


def test_a_dealer_out_of_turn_changes_who_sits_out() -> None:
    draft = draft_on(new_sheet(T, 5))
    draft.toggle_re("p3")
    draft.set_geber("p3")
    assert draft.sitting == "p3" and draft.re == () and "p1" in draft.players
    assert draft.table_text == "Carla gibt und sitzt aus"


@pytest.mark.parametrize("ruleset", [T, H])
def test_the_table_a_reset_reads_from_the_status_is_the_rulesets_table(ruleset: str) -> None:
    """reset() reads dealer, who sits out and the open Pflichtsoli from Score.status (no replay)."""
    path = ROOT / "docs" / "examples" / f"{ruleset}.json"
    sheet = Sheet.model_validate(json.loads(path.read_text(encoding="utf-8")))
    rules = find_ruleset(ruleset)
    for n in range(len(sheet.entries)):
        prefix = sheet.model_copy(update={"entries": sheet.entries[:n]})
        draft = DoppelkopfDraft()
        draft.reset(prefix, rules.score(prefix))
        assert draft.lage == rules.tischlage(prefix), n


def test_a_correction_loads_the_table_as_it_was_before_the_entry() -> None:
    """The sheet screen loads a correction on the sheet up to the entry before it."""
    sheet = new_sheet(T, 5)
    sheet = sheet.with_entry(Entry(kind="game", data={"re": ["p2", "p3"], "augen": 130}))
    sheet = sheet.with_entry(Entry(kind="game", data={"typ": "damensolo", "re": ["p1"], "augen": 150}))
    before = sheet.model_copy(update={"entries": sheet.entries[:1]})
    draft = DoppelkopfDraft()
    draft.load(before, find_ruleset(T).score(before), "game", dict(sheet.entries[1].data))
    assert draft.sitting == "p2" and draft.typ == "damensolo" and draft.re == ("p1",)
    whole = DoppelkopfDraft()
    whole.load(sheet, find_ruleset(T).score(sheet), "game", dict(sheet.entries[1].data))
    assert whole.target == 2 and whole.sitting == "p2"


def _example_entries() -> list[tuple[str, Sheet, int]]:
    """Every game, Strafe and Schmeißen of the example sheets and the rule documents' examples."""
    files = [ROOT / "docs" / "examples" / f"{r}.json" for r in (T, H)]
    files += sorted((DATA / T).glob("*.json")) + sorted((DATA / H).glob("*.json"))
    found = []
    for path in files:
        raw = json.loads(path.read_text(encoding="utf-8"))
        sheet = Sheet.model_validate(raw.get("sheet", raw))
        for number, entry in enumerate(sheet.entries, start=1):
            if entry.kind in ("game", "strafe", "schmeissen"):
                found.append((f"{path.parent.name}/{path.name}#{number}", sheet, number))
    return found


@pytest.mark.parametrize(("where", "sheet", "number"), _example_entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_loaded_unchanged_entry_gives_back_the_same_data(where: str, sheet: Sheet, number: int) -> None:
    entry = sheet.entries[number - 1]
    before = sheet.model_copy(update={"entries": sheet.entries[: number - 1]})
    draft = DoppelkopfDraft()
    try:
        score = find_ruleset(sheet.ruleset.id).score(before)
    except ValueError:
        pytest.skip(f"{where}: the sheet before it is itself refused (an error example)")
    draft.load(before, score, entry.kind, entry.data)
    assert draft.entry() == (entry.kind, dict(entry.data)), where


TYPES = ["normal", "hochzeit", "stille_hochzeit", "armut", "damensolo", "bubensolo", "trumpfsolo", "farbsolo", "koehler"]


@st.composite
def taps(draw: st.DrawFn) -> list[tuple[str, tuple[Any, ...]]]:
    players = [f"p{i}" for i in range(1, 6)]
    seiten = ["re", "kontra"]
    tap = st.one_of(
        st.tuples(st.just("set_typ"), st.tuples(st.sampled_from(TYPES))),
        st.tuples(st.just("toggle_re"), st.tuples(st.sampled_from(players))),
        st.tuples(st.just("set_augen"), st.tuples(st.sampled_from(["", "0", "5", "100", "120", "121", "151", "240", "241"]))),
        st.tuples(st.just("toggle_ansage"), st.tuples(st.sampled_from(seiten))),
        st.tuples(st.just("toggle_zurueck"), st.tuples(st.sampled_from(seiten))),
        st.tuples(
            st.just("set_absage"),
            st.tuples(st.sampled_from(seiten), st.sampled_from(["keine 90", "keine 60", "keine 30", "schwarz"])),
        ),
        st.tuples(
            st.just("tap_sonder"),
            st.tuples(st.sampled_from(seiten), st.sampled_from(["fuchs", "doppelkopf", "karlchen", "herzstich"])),
        ),
        st.tuples(st.just("toggle_schwein"), st.just(())),
        st.tuples(st.just("set_farbe"), st.tuples(st.sampled_from(["kreuz", "karo"]))),
        st.tuples(st.just("set_kind"), st.tuples(st.sampled_from(["game", "game", "game", "strafe", "schmeissen"]))),
        st.tuples(st.just("set_spieler"), st.tuples(st.sampled_from(players))),
        st.tuples(st.just("set_geber"), st.tuples(st.sampled_from(players))),
    )
    return draw(st.lists(tap, max_size=25))


SHEETS = {(r, n): new_sheet(r, n) for r in (T, H) for n in (4, 5)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SHEETS)), taps())
def test_any_taps_make_an_entry_the_rules_accept_or_refuse_in_german(table: tuple[str, int], sequence: list[Any]) -> None:
    sheet = SHEETS[table]
    draft = draft_on(sheet)
    for method, args in sequence:
        getattr(draft, method)(*args)
    try:
        kind, data = draft.entry()
    except DraftIncomplete as missing:
        assert str(missing)
        return
    message = refusal(sheet, kind, data)
    if message is None:
        assert effective_entries(sheet.with_entry(Entry(kind=kind, data=data)).entries)
    else:
        assert ": " in message and "Field" not in message and "Input should" not in message, message


def test_a_sonderpunkt_counter_steps_down_as_easily_as_up() -> None:
    """Issue 22: a Doko tapped once too often is one tap back, not five more round the cycle."""
    draft = draft_on(new_sheet(T, 4))
    draft.toggle_re("p1")
    draft.toggle_re("p2")
    for _ in range(3):
        draft.tap_sonder("re", "doppelkopf")
    assert draft.sonder_count("re", "doppelkopf") == 3
    draft.untap_sonder("re", "doppelkopf")
    assert draft.sonder_count("re", "doppelkopf") == 2
    for _ in range(3):
        draft.untap_sonder("re", "doppelkopf")
    assert draft.sonder_count("re", "doppelkopf") == 0
    assert "Doppelkopf" not in draft.summary


def test_the_rare_calls_are_one_tap_down_and_never_hidden_while_they_count() -> None:
    """Issue 22: with both sides' Absagen and four Sonderpunkte per side open, "Eintragen" was below the
    first screen. Absagen, "Einen zurück" and Herzstich are one tap down; Fuchs, Doko, Karlchen stay."""
    sheet = new_sheet(T, 5)
    draft = draft_on(sheet)
    assert draft.rare_sonder_keys == ("herzstich",) and draft.has_rare_calls and not draft.show_rare_calls
    draft.toggle_ansage("re")
    draft.toggle_ansage("kontra")
    assert not draft.show_rare_calls  # the calls themselves are common: their Absagen are not
    draft.toggle_calls()
    assert draft.show_rare_calls
    draft.set_absage("re", "keine 90")
    draft.tap_sonder("kontra", "herzstich")
    draft.toggle_calls()  # folded again: what is chosen still shows, it counts
    assert draft.show_rare_calls
    draft.set_absage("re", "keine 90")
    draft.untap_sonder("kontra", "herzstich")
    assert not draft.show_rare_calls
    draft.set_absage("re", "keine 90")
    draft.toggle_re("p2")
    draft.toggle_re("p3")
    draft.set_augen("160")
    _, data = draft.entry()
    assert data["ansagen"]["re"] == {"ansage": True, "absage": "keine 90"}
    after = add(sheet, draft)
    draft.reset(after, find_ruleset(T).score(after))
    assert not draft.more_calls and not draft.show_rare_calls  # a new game starts folded
    assert not draft_on(new_sheet(H, 4)).rare_sonder_keys  # the house rules have no Herzstich
