"""The Schafkopf draft without a browser: what it offers, what it implies, what it writes, on real sheets."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, Sheet, find_ruleset
from screens.drafts import DraftIncomplete, refusal
from screens.families import draft_for, find_family
from screens.schafkopf_draft import SchafkopfDraft

from .conftest import DATA, ROOT

RULESET = find_ruleset("schafkopf-turnier")
NAMES = ("Anna Brandl", "Bernd Kiermaier", "Carla Huber", "Dieter Obermeier")


def new_sheet(*games: dict[str, Any], spiele: int = 8) -> Sheet:
    sheet = RULESET.new_sheet(
        [Participant(id=f"p{i + 1}", name=name, seat=i + 1, start_number=10 + i) for i, name in enumerate(NAMES)],
        options={"spiele": spiele},
    )
    for data in games:
        sheet = sheet.with_entry(Entry(kind="game", data=data))
    return sheet


def draft_on(sheet: Sheet) -> SchafkopfDraft:
    draft = SchafkopfDraft()
    draft.reset(sheet, RULESET.score(sheet))
    return draft


def accepted(sheet: Sheet, draft: SchafkopfDraft) -> dict[str, Any]:
    kind, data = draft.entry()
    assert kind == "game"
    assert refusal(sheet, kind, data) is None, refusal(sheet, kind, data)
    return data


def test_the_family_is_registered_for_the_ruleset() -> None:
    assert isinstance(draft_for("schafkopf-turnier"), SchafkopfDraft)
    assert find_family("schafkopf-turnier").panel.__name__ == "SchafkopfPanel"


def test_a_rufspiel_won_is_three_choices_and_the_ruleset_accepts_it() -> None:
    sheet = new_sheet({"spiel": "wenz", "spieler": "p2", "gewonnen": True})
    draft = draft_on(sheet)
    assert draft.spiel == "rufspiel" and draft.dealer == "p2"  # seat 2 deals the second game
    assert draft.spiel_choices() == ["rufspiel", "solo", "wenz", "farbwenz"]
    draft.choose_spieler("p1")
    assert draft.partner_choices() == ["p2", "p3", "p4"]  # not himself
    draft.choose_partner("p3")
    draft.choose_gewonnen(True)
    assert accepted(sheet, draft) == {"spiel": "rufspiel", "spieler": "p1", "partner": "p3", "gewonnen": True}
    assert draft.summary() == "Rufspiel von Anna Brandl mit Carla Huber gewonnen"
    assert draft.preview() == "Anna Brandl +1 · Bernd Kiermaier -1 · Carla Huber +1 · Dieter Obermeier -1"


def test_what_is_missing_is_said_in_german() -> None:
    draft = draft_on(new_sheet())
    with pytest.raises(DraftIncomplete, match="Wer spielt"):
        draft.entry()
    draft.choose_spieler("p1")
    with pytest.raises(DraftIncomplete, match="Mit wem"):
        draft.entry()
    draft.choose_partner("p2")
    with pytest.raises(DraftIncomplete, match="Gewonnen oder verloren"):
        draft.entry()
    draft.choose_spiel("solo")
    assert draft.partner is None  # a Solo has no partner
    with pytest.raises(DraftIncomplete, match="Welche Farbe"):
        draft.entry()
    draft.set_augen("viel")
    assert draft.error is not None and "Augen der Spielpartei: bitte eine ganze Zahl von 0 bis 120" in draft.error
    draft.choose_farbe("eichel")
    with pytest.raises(DraftIncomplete, match="Augen der Spielpartei"):
        draft.entry()
    draft.set_augen("78")
    data = accepted(new_sheet(), draft)
    assert data == {"spiel": "solo", "spieler": "p1", "farbe": "eichel", "augen": 78}
    assert draft.gewonnen_shown is True  # 78 Augen win: the ruleset says so, the draft does not write it


def test_only_the_rules_choices_are_offered() -> None:
    draft = draft_on(new_sheet())
    assert draft.farbe_choices() == ["eichel", "gras", "schellen"]  # the Herz-Sau is trump, not called
    assert not draft.farbe_required and not draft.tout_allowed  # no Tout in a Rufspiel
    assert draft.spritze_choices() == []  # not before the declaring party is known
    draft.choose_spieler("p1")
    draft.choose_partner("p3")
    assert draft.spritze_choices() == ["p2", "p4"]  # only the party against the declarer (no Re)
    draft.choose_spritze("p2")
    draft.choose_partner("p2")  # the partner is now the one who gave the Spritze: it goes
    assert draft.spritze_von is None
    draft.choose_spiel("farbwenz")
    assert draft.farbe_choices() == ["eichel", "gras", "herz", "schellen"] and draft.farbe_required
    assert draft.tout_allowed
    draft.choose_spiel("wenz")
    assert draft.farbe_choices() == []  # a Wenz has no suit


def test_a_tout_has_no_level_to_choose() -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    draft.choose_spiel("solo")
    draft.choose_spieler("p4")
    draft.choose_farbe("gras")
    draft.choose_stufe("schneider")
    draft.toggle_tout()
    assert draft.stufe is None
    draft.choose_gewonnen(True)
    assert draft.stufe_choices() == []  # won only schwarz, lost always -18/+6
    assert accepted(sheet, draft) == {"spiel": "solo", "spieler": "p4", "farbe": "gras", "tout": True, "gewonnen": True}
    assert draft.summary() == "Gras-Solo Tout von Dieter Obermeier gewonnen"
    assert draft.preview() == "Anna Brandl -6 · Bernd Kiermaier -6 · Carla Huber -6 · Dieter Obermeier +18"


def test_unberechtigt_is_asked_only_where_the_tricks_do_not_tell() -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    draft.choose_spieler("p1")
    draft.choose_partner("p2")
    draft.choose_gewonnen(True)
    draft.choose_spritze("p3")
    assert not draft.unberechtigt_offered  # a simple game: the Spritze party is schneiderfrei
    draft.choose_stufe("schneider")
    assert draft.unberechtigt_offered  # one trick or more: only the table knows
    draft.toggle_unberechtigt()
    assert accepted(sheet, draft)["spritze"] == {"von": "p3", "unberechtigt": True}
    assert draft.preview() == "Anna Brandl +4 · Bernd Kiermaier +4 · Carla Huber -6 · Dieter Obermeier -2"
    # "Verloren" and "Einfach" stay offered: a tap on one drops the unberechtigt it does not fit.
    assert draft.gewonnen_choices() == [True, False] and draft.stufe_choices() == ["einfach", "schneider", "schwarz"]
    draft.choose_stufe("einfach")
    assert draft.unberechtigt is None and draft.spritze_von == "p3"
    draft.choose_stufe("schneider")
    draft.toggle_unberechtigt()
    draft.choose_stufe("schwarz")  # no trick: unberechtigt by the tricks, not asked
    assert not draft.unberechtigt_offered and draft.unberechtigt is None
    assert accepted(sheet, draft)["spritze"] == {"von": "p3"}
    assert draft.summary().endswith("gewonnen (Durch), Spritze von Carla Huber (unberechtigt)")
    draft.choose_gewonnen(False)  # the Spritze party won: it cannot be unberechtigt
    assert not draft.unberechtigt_offered
    assert draft.summary() == "Rufspiel von Anna Brandl mit Bernd Kiermaier verloren (Schwarz), Spritze von Carla Huber"


def test_a_misplay_not_continued_implies_who_won() -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    draft.choose_spiel("solo")
    draft.choose_spieler("p2")
    draft.choose_farbe("herz")
    draft.choose_gewonnen(False)
    draft.choose_stufe("schneider")
    draft.choose_fehler_von("p1")
    with pytest.raises(DraftIncomplete, match="wie es weiterging"):
        draft.entry()
    draft.choose_fehler_fall("nicht_fortgesetzt")
    assert draft.gewonnen is None and draft.gewonnen_shown is True  # the offender's opponents won
    assert draft.gewonnen_choices() == [True] and draft.stufe_choices() == []
    assert accepted(sheet, draft) == {
        "spiel": "solo",
        "spieler": "p2",
        "farbe": "herz",
        "fehler": {"von": "p1", "fall": "nicht_fortgesetzt"},
    }
    assert draft.preview() == "Anna Brandl -10 · Bernd Kiermaier +6 · Carla Huber +2 · Dieter Obermeier +2"
    draft.choose_fehler_art("bedienen")
    assert accepted(sheet, draft)["fehler"] == {"von": "p1", "fall": "nicht_fortgesetzt", "art": "bedienen"}


def test_typed_augen_against_the_outcome_are_the_rulesets_to_refuse() -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    draft.choose_spieler("p1")
    draft.choose_partner("p2")
    draft.choose_gewonnen(True)
    draft.set_augen("40")
    kind, data = draft.entry()
    message = refusal(sheet, kind, data)
    assert message is not None and "Mit 40 Augen hat die Spielpartei verloren" in message
    assert draft.gewonnen is True  # the player's choice stays; nothing is silently changed


def test_a_full_serie_offers_no_new_game() -> None:
    games = [{"spiel": "rufspiel", "spieler": "p1", "partner": "p2", "gewonnen": True}] * 2
    draft = draft_on(new_sheet(*games, spiele=2))
    assert draft.finished and draft.dealer is None


def _game_entries() -> list[tuple[str, dict[str, Any]]]:
    """Every game entry (and correction's replacement) of the example and the test sheets."""
    found = []
    paths = [ROOT / "docs" / "examples" / "schafkopf-turnier.json", *sorted((DATA / "schafkopf-turnier").glob("*.json"))]
    for path in paths:
        raw = json.loads(path.read_text(encoding="utf-8"))
        sheet = raw.get("sheet", raw)
        for number, entry in enumerate(sheet["entries"], start=1):
            if entry["kind"] == "game":
                found.append((f"{path.name}:{number}", entry["data"]))
            if entry["kind"] == "correction" and entry["replacement"]["kind"] == "game":
                found.append((f"{path.name}:{number}", entry["replacement"]["data"]))
    return found


GAME_ENTRIES = _game_entries()


@pytest.mark.parametrize(("where", "data"), GAME_ENTRIES, ids=[w for w, _ in GAME_ENTRIES])
def test_a_loaded_game_unchanged_gives_back_the_same_data(where: str, data: dict[str, Any]) -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    draft.load(sheet, RULESET.score(sheet), "game", data)
    assert draft.entry() == ("game", data)


def test_there_are_enough_loaded_games_to_mean_something() -> None:
    assert len(GAME_ENTRIES) >= 60
    assert any("fehler" in d for _, d in GAME_ENTRIES) and any("tout" in d for _, d in GAME_ENTRIES)


PLAYERS = ("p1", "p2", "p3", "p4")
TAP = st.one_of(
    st.tuples(st.just("spiel"), st.sampled_from(("rufspiel", "solo", "wenz", "farbwenz"))),
    st.tuples(st.sampled_from(("spieler", "partner", "spritze", "fehler_von")), st.sampled_from(PLAYERS)),
    st.tuples(st.just("farbe"), st.sampled_from(("eichel", "gras", "herz", "schellen"))),
    st.tuples(st.just("gewonnen"), st.booleans()),
    st.tuples(st.just("stufe"), st.sampled_from(("einfach", "schneider", "schwarz"))),
    st.tuples(st.just("fall"), st.sampled_from(("bereits_gewonnen", "nicht_fortgesetzt", "fortgesetzt"))),
    st.tuples(st.sampled_from(("tout", "unberechtigt")), st.just(None)),
    st.tuples(st.just("art"), st.sampled_from(("ausspiel", "bedienen"))),
)


def tap(draft: SchafkopfDraft, what: str, value: Any) -> None:
    """A tap on what the panel shows: only the choices the draft offers now."""
    offered: dict[str, tuple[Callable[[], list[Any]], Callable[[Any], None]]] = {
        "spiel": (draft.spiel_choices, draft.choose_spiel),
        "spieler": (draft.spieler_choices, draft.choose_spieler),
        "partner": (draft.partner_choices, draft.choose_partner),
        "spritze": (draft.spritze_choices, draft.choose_spritze),
        "fehler_von": (lambda: list(draft.players), draft.choose_fehler_von),
        "farbe": (draft.farbe_choices, draft.choose_farbe),
        "gewonnen": (draft.gewonnen_choices, draft.choose_gewonnen),
        "stufe": (draft.stufe_choices, draft.choose_stufe),
        "fall": (draft.fehler_fall_choices, draft.choose_fehler_fall),
        "art": (lambda: ["ausspiel", "bedienen"] if draft.fehler_von else [], draft.choose_fehler_art),
    }
    if what == "tout":
        if draft.tout_allowed or draft.tout:
            draft.toggle_tout()
    elif what == "unberechtigt":
        if draft.unberechtigt_offered:
            draft.toggle_unberechtigt()
    else:
        choices, choose = offered[what]
        if value in choices():
            choose(value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(taps=st.lists(TAP, max_size=14))
def test_any_taps_on_what_is_offered_make_an_accepted_game_or_say_what_is_missing(taps: list[tuple[str, Any]]) -> None:
    sheet = new_sheet({"spiel": "rufspiel", "spieler": "p1", "partner": "p2", "gewonnen": True})
    draft = draft_on(sheet)
    for what, value in taps:
        tap(draft, what, value)
    try:
        kind, data = draft.entry()
    except DraftIncomplete as missing:
        assert str(missing) and str(missing)[0].isupper()
        return
    assert refusal(sheet, kind, data) is None, (data, refusal(sheet, kind, data))
    again = SchafkopfDraft()
    again.load(sheet, RULESET.score(sheet), kind, data)
    assert again.entry() == (kind, data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(taps=st.lists(TAP, max_size=10), augen=st.integers(0, 120), stiche=st.one_of(st.none(), st.integers(0, 8)))
def test_typed_augen_and_stiche_are_accepted_or_refused_in_german(
    taps: list[tuple[str, Any]], augen: int, stiche: int | None
) -> None:
    sheet = new_sheet()
    draft = draft_on(sheet)
    for what, value in taps:
        tap(draft, what, value)
    draft.set_augen(str(augen))
    draft.set_stiche("" if stiche is None else str(stiche))
    try:
        kind, data = draft.entry()
    except DraftIncomplete:
        return
    message = refusal(sheet, kind, data)
    assert message is None or (message.startswith("1. Spiel: ") and len(message) > 20), message


def test_asking_the_empty_table_gives_the_verdict_of_the_sheet_itself() -> None:
    """The draft asks its candidates on the table's empty sheet: for a Serie with games left, the
    ruleset's verdict on every example game is the same as on the sheet as it stands."""
    from screens.drafts import allowed
    from screens.schafkopf_draft import _accepted

    example = Sheet.from_json((ROOT / "docs" / "examples" / "schafkopf-turnier.json").read_bytes())
    midway = example.model_copy(update={"entries": example.entries[:17]})
    draft = draft_on(midway)
    assert not draft.finished
    verdicts = []
    for _, data in GAME_ENTRIES:
        mine = _accepted(draft._table, json.dumps(data, sort_keys=True))
        assert mine == allowed(midway, "game", data), data
        verdicts.append(mine)
    assert True in verdicts and False in verdicts  # refused games are among them too
    full = draft_on(example.model_copy(update={"entries": example.entries[:-1]}))  # all 32 games, not yet closed
    assert full.finished  # the Serie is full: no new game, only corrections
