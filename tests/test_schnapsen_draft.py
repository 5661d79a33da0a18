"""The Schnapsen entry panel's draft without a browser, on real sheets built with the rulesets."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Entry, Participant, RuleViolation, Sheet, find_ruleset
from screens.drafts import DraftIncomplete, refusal
from screens.families import draft_for, find_family
from screens.schnapsen_draft import NORMAL, SchnapsenDraft
from screens.schnapsen_panel import SchnapsenPanel

from .conftest import DATA, ROOT

BAUERN = find_ruleset("bauernschnapsen")
TALON = find_ruleset("talonschnapsen")
TEAMS = [
    Participant(id="A", name="Die Hausruckviertler", members=("Resi", "Poldl")),
    Participant(id="B", name="Kartlrunde Ried", members=("Hansi", "Gusti")),
]
THREE = [Participant(id="F", name="Franz"), Participant(id="G", name="Gerti"), Participant(id="H", name="Hans")]
ALL_GAMES = list(BAUERN.option_choices()["games"])


def bauern(*games: dict[str, Any], **options: Any) -> Sheet:
    sheet = BAUERN.new_sheet(TEAMS, options=options)
    for data in games:
        sheet = sheet.with_entry(Entry(kind="game", data=data))
    return sheet


def talon(*games: dict[str, Any], **options: Any) -> Sheet:
    sheet = TALON.new_sheet(THREE, options=options)
    for data in games:
        sheet = sheet.with_entry(Entry(kind="game", data=data))
    return sheet


def fresh(sheet: Sheet) -> SchnapsenDraft:
    draft = draft_for(sheet.ruleset.id)
    assert isinstance(draft, SchnapsenDraft)
    draft.reset(sheet, find_ruleset(sheet.ruleset.id).score(sheet))
    return draft


def test_both_rulesets_use_this_panel() -> None:
    families = [find_family(ruleset) for ruleset in ("bauernschnapsen", "talonschnapsen")]
    assert all(f.draft is SchnapsenDraft and f.panel is SchnapsenPanel for f in families)


def test_a_normal_game_is_three_taps_and_the_ruleset_takes_it() -> None:
    sheet = bauern()
    draft = fresh(sheet)
    assert draft.game == NORMAL and draft.rufer == "A1" and draft.won is None
    assert draft.won_question == "Normales Spiel: hat Die Hausruckviertler (Rufer Resi) gewonnen?"
    draft.set_won(False)
    draft.choose_augen("unter33")
    submitted: list[tuple[str, dict[str, Any]]] = []
    draft.submit(lambda kind, data: submitted.append((kind, data)))
    assert submitted == [("game", {"game": "normal", "won": False, "augen": "unter33"})]
    assert refusal(sheet, *submitted[0]) is None
    score = BAUERN.check(sheet, Entry(kind="game", data=submitted[0][1]))
    assert score.totals == {"A": 0, "B": 2}


def test_what_is_missing_is_said_in_german_and_nothing_is_submitted() -> None:
    draft = fresh(bauern())
    submitted: list[Any] = []
    draft.submit(lambda *entry: submitted.append(entry))
    assert submitted == []
    assert draft.problem == "Bitte noch antippen: gewonnen oder verloren, die Augen der Verlierer (ab 33, unter 33, ohne Stich)."
    draft.choose_game("gang")
    assert draft.problem is None and draft.announcer is None
    with pytest.raises(DraftIncomplete, match="wer das Spiel angesagt hat, gewonnen oder verloren"):
        draft.entry()


def test_the_catalogue_is_the_house_rules() -> None:
    assert fresh(bauern()).games == (
        "normal",
        "bettler",
        "schnapser",
        "gang",
        "bauernschnapser",
        "kontraschnapser",
        "farbenringerl",
        "kontrabauernschnapser",
        "trumpfringerl",
    )
    assert fresh(bauern(games=["schnapser", "bauernloch"])).games == ("normal", "schnapser", "bauernloch")
    labels = [o.label for o in fresh(bauern(games=ALL_GAMES)).game_options()]
    assert labels[0] == "Normales Spiel (1–3)" and "Kontra-Herrenbauer (48)" in labels and "Schnapser zusammen (6)" in labels
    assert len(set(labels)) == len(labels)


def test_herzrunde_is_offered_only_where_the_house_rules_play_it() -> None:
    assert fresh(bauern()).herzrunde_option() is None
    draft = fresh(bauern(herzrunde=True))
    option = draft.herzrunde_option()
    assert option is not None and option.label == "Herzrunde ×2"
    draft.set_won(True)
    draft.choose_augen("ab33")
    draft.toggle_spritze(2)
    draft.toggle_herzrunde()
    assert draft.entry()[1] == {"game": "normal", "won": True, "augen": "ab33", "spritze": 2, "herzrunde": True}
    draft.toggle_spritze(2)
    draft.toggle_herzrunde()
    assert draft.entry()[1] == {"game": "normal", "won": True, "augen": "ab33"}
    assert [o.label for o in draft.spritze_options()] == ["Gespritzt ×2", "Zurückgespritzt ×4", "Nochmal zurückgespritzt ×8"]


@pytest.mark.parametrize(
    ("game", "who"),
    [
        ("schnapser", ("A1",)),  # only the Rufer
        ("kontraschnapser", ("B1", "B2")),  # only his opponents
        ("schnapser-zusammen", ("A2",)),  # only his partner
        ("gang", ("A1", "B1", "A2", "B2")),  # everyone
    ],
)
def test_who_may_announce_is_asked_of_the_ruleset(game: str, who: tuple[str, ...]) -> None:
    draft = fresh(bauern(games=ALL_GAMES))
    draft.choose_game(game)
    assert draft.announcers() == who
    assert draft.announcer == (who[0] if len(who) == 1 else None)
    assert [o.label for o in draft.announcer_options()] == [f"Angesagt von {draft.player(r).name}" for r in who]  # type: ignore[union-attr]


def test_the_rufer_moves_and_can_be_named_otherwise() -> None:
    sheet = bauern({"game": "normal", "won": True, "augen": "ab33"})
    draft = fresh(sheet)
    assert draft.rufer == "B1"
    draft.choose_game("schnapser")
    assert draft.announcer == "B1"
    draft.toggle_more()
    assert [o.label for o in draft.rufer_options()] == ["Rufer war Resi", "Rufer war Hansi", "Rufer war Poldl", "Rufer war Gusti"]
    draft.choose_rufer("A2")
    assert draft.announcer == "A2" and draft.announcers() == ("A2",)
    draft.set_won(True)
    kind, data = draft.entry()
    assert data == {"game": "schnapser", "announcer": "A2", "won": True, "rufer": "A2"}
    assert refusal(sheet, kind, data) is None


def test_talonschnapsen_opponents_are_the_two_others() -> None:
    draft = fresh(talon())
    assert draft.won_question == "Normales Spiel: hat Franz gewonnen?"
    assert "schnapser-zusammen" not in draft.games
    draft.choose_game("kontraschnapser")
    assert draft.announcers() == ("G", "H")
    draft.choose_announcer("H")
    draft.set_won(False)
    kind, data = draft.entry()
    assert data == {"game": "kontraschnapser", "announcer": "H", "won": False}
    assert TALON.check(talon(), Entry(kind=kind, data=data)).totals == {"F": 12, "G": 12, "H": 0}


def test_no_special_game_is_offered_where_nobody_may_announce_it() -> None:
    finished = talon({"game": "kontrabauernschnapser", "announcer": "G", "won": True}, bummerl_count=1)
    assert TALON.score(finished).status.finished
    assert fresh(finished).games == ("normal",)


def _example_sheets() -> list[tuple[str, Sheet]]:
    found = []
    for ruleset in ("bauernschnapsen", "talonschnapsen"):
        found.append(
            (f"docs/examples/{ruleset}.json", Sheet.from_json((ROOT / "docs" / "examples" / f"{ruleset}.json").read_text()))
        )
        for path in sorted((DATA / ruleset).glob("*.json")):
            case = json.loads(path.read_text(encoding="utf-8"))
            if "expect_error" not in case:
                found.append((str(path.relative_to(ROOT)), Sheet.model_validate(case["sheet"])))
    return found


EXAMPLES = _example_sheets()


def _games_with_the_sheet_before(sheet: Sheet) -> list[tuple[int, Sheet, str, dict[str, Any]]]:
    """Every game of the log, and every correction's replacement, with the sheet as it stood before it."""
    games = []
    for number, entry in enumerate(sheet.entries, start=1):
        if entry.kind == "game":
            target, kind, data = number, entry.kind, entry.data
        elif entry.kind == "correction" and entry.replacement is not None and entry.target is not None:
            target, kind, data = entry.target, entry.replacement.kind, entry.replacement.data
        else:
            continue
        games.append((target, sheet.model_copy(update={"entries": sheet.entries[: target - 1]}), kind, dict(data)))
    return games


@pytest.mark.parametrize(("name", "sheet"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_a_loaded_entry_comes_back_unchanged(name: str, sheet: Sheet) -> None:
    ruleset = find_ruleset(sheet.ruleset.id)
    draft = draft_for(sheet.ruleset.id)
    assert isinstance(draft, SchnapsenDraft)
    checked = 0
    for number, before, kind, data in _games_with_the_sheet_before(sheet):
        try:
            score = ruleset.score(before)
        except RuleViolation:
            continue
        draft.load(before, score, kind, data)
        assert draft.entry() == (kind, data), (name, number)
        # Tapping what is already chosen changes nothing either.
        if draft.won is not None:
            draft.set_won(draft.won)
        assert draft.entry() == (kind, data), (name, number)
        checked += 1
    assert checked


def test_a_loaded_game_changed_is_written_anew() -> None:
    sheet = Sheet.from_json((ROOT / "docs" / "examples" / "bauernschnapsen.json").read_text())
    before = sheet.model_copy(update={"entries": sheet.entries[:1]})
    draft = fresh(before)
    draft.load(before, BAUERN.score(before), "game", {"game": "schnapser", "announcer": "Hansi Wimmer", "won": True})
    assert draft.game == "schnapser" and draft.announcer == "B1" and draft.won is True
    draft.set_won(False)
    assert draft.entry() == ("game", {"game": "schnapser", "announcer": "B1", "won": False})
    assert refusal(before, *draft.entry()) is None


def test_another_rufer_for_a_loaded_game_offers_only_whom_the_rules_allow_then() -> None:
    before = bauern({"game": "normal", "won": True, "augen": "ab33"}, {"game": "normal", "won": True, "augen": "ab33"})
    draft = fresh(before)
    draft.load(before, BAUERN.score(before), "game", {"game": "schnapser", "announcer": "A2", "won": True})
    assert draft.rufer == "A2" and draft.announcers() == ("A2",)
    draft.choose_rufer("A1")
    assert draft.announcers() == ("A1",) and draft.announcer == "A1"
    assert draft.entry() == ("game", {"game": "schnapser", "announcer": "A1", "won": True, "rufer": "A1"})
    assert refusal(before, *draft.entry()) is None


def test_a_loaded_game_the_rules_no_longer_allow_is_still_shown() -> None:
    before = bauern()
    draft = fresh(before)
    draft.load(before, BAUERN.score(before), "game", {"game": "schnapser", "announcer": "B1", "won": True})
    assert draft.announcers() == ("A1", "B1") and draft.announcer == "B1"
    assert draft.entry() == ("game", {"game": "schnapser", "announcer": "B1", "won": True})


def test_an_entry_this_panel_cannot_show_is_given_back_as_stored() -> None:
    sheet = bauern()
    draft = fresh(sheet)
    draft.load(sheet, BAUERN.score(sheet), "game", {"game": "zehnerloch", "won": True})
    assert draft.entry() == ("game", {"game": "zehnerloch", "won": True})
    draft.set_won(True)
    draft.choose_augen("ab33")
    assert draft.entry() == ("game", {"game": "normal", "won": True, "augen": "ab33"})


# -- any taps: an entry the ruleset takes, or a German word on what is missing --------------------

GAMES = [
    {"game": "normal", "won": True, "augen": "ab33"},
    {"game": "normal", "won": False, "augen": "kein_stich", "spritze": 1},
    {"game": "schnapser", "won": True},
    {"game": "gang", "announcer": "B1", "won": True, "herzrunde": True},
    {"game": "kontra-herrenbauer", "announcer": "B2", "won": True},
    {"game": "normal", "won": True, "augen": "unter33"},
]

TAPS = st.lists(
    st.tuples(
        st.sampled_from(["game", "announcer", "won", "augen", "spritze", "herz", "rufer"]),
        st.integers(min_value=0, max_value=20),
    ),
    max_size=12,
)


def _tap(draft: SchnapsenDraft, what: str, index: int) -> None:
    actions: dict[str, tuple[list[Any], Callable[[Any], None]]] = {
        "game": ([o.value for o in draft.game_options()], draft.choose_game),
        "announcer": ([o.value for o in draft.announcer_options()], draft.choose_announcer),
        "won": ([o.value for o in draft.won_options()], draft.set_won),
        "augen": ([o.value for o in draft.augen_options()], draft.choose_augen),
        "spritze": ([o.value for o in draft.spritze_options()], draft.toggle_spritze),
        "herz": ([True] if draft.herzrunde_option() else [], lambda _: draft.toggle_herzrunde()),
        "rufer": ([o.value for o in draft.rufer_options()], draft.choose_rufer),
    }
    values, act = actions[what]
    if values:
        act(values[index % len(values)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played=st.integers(min_value=0, max_value=len(GAMES)), taps=TAPS, three=st.booleans())
def test_any_taps_make_an_entry_the_ruleset_takes_or_say_what_is_missing(
    played: int, taps: list[tuple[str, int]], three: bool
) -> None:
    if three:
        games = [{**g, "announcer": "H"} if "announcer" in g else g for g in GAMES[:played]]
        sheet = talon(*games, games=[k for k in ALL_GAMES if k != "schnapser-zusammen"], herzrunde=True)
    else:
        sheet = bauern(*GAMES[:played], games=ALL_GAMES, herzrunde=True)
    ruleset = find_ruleset(sheet.ruleset.id)
    ruleset.score(sheet)
    draft = fresh(sheet)
    for what, index in taps:
        _tap(draft, what, index)
    try:
        kind, data = draft.entry()
    except DraftIncomplete as missing:
        assert str(missing).startswith("Bitte noch antippen: ")
        return
    assert refusal(sheet, kind, data) is None, (data, refusal(sheet, kind, data))
