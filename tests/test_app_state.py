"""The app's state methods on a real store, without a browser: the form, the sheet, the list."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import all_rulesets
from screens.app_state import AppState
from screens.families import find_family
from screens.form_state import FORM, NewSheetForm, option_fields
from screens.sheet_state import UNDO_REASON, SheetState
from screens.watten_draft import WattenDraft
from storage import SheetStore


@pytest.fixture
def store(tmp_path: Path) -> SheetStore:
    return SheetStore(tmp_path / "store", device="Testhandy")


def watten_sheet(store: SheetStore) -> str:
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    form.set_name(0, "Die Sautreiber")
    form.set_name(1, "Kartlbrüder")
    form.set_start_number(0, "7")
    form.set_start_number(1, "12")
    form.set_context("table", "4")
    form.set_context("round", "1")
    sheet_id = form.submit()
    assert sheet_id is not None, form.errors
    return sheet_id


def files(store: SheetStore) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(store.sheets_dir.glob("*.json"))}


# -- the form -------------------------------------------------------------------------------------
def test_a_bad_form_marks_each_field_and_creates_nothing(store: SheetStore) -> None:
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    form.set_name(0, "Die Sautreiber")
    form.set_start_number(0, "sieben")
    form.set_context("table", "0")
    form.set_member(1, 0, "Toni")
    assert form.submit() is None
    assert form.errors["name.1"] == "Name der Mannschaft fehlt."
    assert "ganze Zahl" in form.errors["start.0"] and "sieben" in form.errors["start.0"]
    assert form.errors["table"] == "Tisch: erlaubt sind 1 bis 999."
    assert form.errors["member.1.1"] == "Beide Spieler eintragen oder beide leer lassen."
    assert files(store) == {}


def test_what_the_ruleset_refuses_is_shown_at_the_teams_and_creates_nothing(store: SheetStore) -> None:
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    form.set_name(0, "A-Team")
    form.set_name(1, "B-Team")
    form.set_start_number(0, "5")
    form.set_start_number(1, "5")
    assert form.submit() is None
    assert form.errors == {FORM: "Beide Mannschaften haben die Startnummer 5"}
    assert files(store) == {}


def test_an_option_out_of_range_is_marked_at_the_option(store: SheetStore) -> None:
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    form.set_name(0, "A-Team")
    form.set_name(1, "B-Team")
    form.set_option("target", "500")
    form.set_option("bummerl_count", "drei")
    assert form.submit() is None
    assert "höchstens 50, nicht 500" in form.errors["option.target"]
    assert "ganze Zahl" in form.errors["option.bummerl_count"]
    assert files(store) == {}


def test_every_ruleset_has_a_form_and_an_entry_panel() -> None:
    for ruleset in all_rulesets():
        assert option_fields(ruleset.id), ruleset.id
        assert all(f.kind in ("bool", "int", "optional_int", "choices") for f in option_fields(ruleset.id)), ruleset.id
        find_family(ruleset.id)


def test_players_get_seats_in_form_order_and_the_listenfuehrer(store: SheetStore) -> None:
    form = NewSheetForm(store)
    form.choose("doppelkopf-turnier")
    form.resize(5)
    for i, name in enumerate(["Anna", "Bert", "Carla", "Dieter", "Emil"]):
        form.set_name(i, name)
    form.set_writer(4)
    sheet_id = form.submit()
    assert sheet_id is not None, form.errors
    sheet = store.open(sheet_id)
    assert [(p.id, p.seat) for p in sheet.participants] == [("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5)]
    assert sheet.context.written_by == "p5" and sheet.context.round_label == "Runde"


def test_names_used_before_are_offered_and_fill_the_next_empty_field(store: SheetStore) -> None:
    watten_sheet(store)
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    for team in range(2):
        for member in range(form.team_size):
            form.set_member(team, member, f"Spieler {team}{member}")
    assert form.suggestions[:2] == ["Die Sautreiber", "Kartlbrüder"]  # the members are in: teams' names
    form.fill_next("Kartlbrüder")
    assert form.names[0] == "Kartlbrüder" and "Kartlbrüder" not in form.suggestions


# -- the sheet ------------------------------------------------------------------------------------
def test_games_undo_correct_and_close_with_the_trail(store: SheetStore) -> None:
    state = SheetState(store, watten_sheet(store))
    state.load()
    assert isinstance(state.draft, WattenDraft)
    assert [c.label for c in state.draft.common][:3] == [
        "+2 für Die Sautreiber",
        "+3 für Die Sautreiber",
        "+4 für Die Sautreiber",
    ]
    assert state.submit("game", {"winner": "A", "value": 2})
    assert state.submit("game", {"winner": "B", "value": 3})
    assert state.submit("game", {"winner": "A", "value": 4})
    assert state.notice == "3. Spiel eingetragen"
    assert state.stand == [("Die Sautreiber", 6), ("Kartlbrüder", 3)]
    # under the headline, what it does not show; the close screen (no headline) keeps every line
    assert state.messages == ("Bummerl 1 von 3, Stand 6:3", "Es gibt: Die Sautreiber")
    assert state.status_messages == (*state.messages, "Bummerl gewonnen Die Sautreiber 0 : 0 Kartlbrüder")
    assert state.undo_last()
    assert state.stand == [("Die Sautreiber", 2), ("Kartlbrüder", 3)]
    voided = state.lines[-1]
    assert (
        voided.voided
        and voided.title == "Gestrichen: Spiel nach dem 2. Spiel"
        and voided.summary == "war: Die Sautreiber gewinnt das Spiel zu 4, 2x ausgeschafft (Die Sautreiber +4)"
    )
    assert state.trail(3)[0].reason == UNDO_REASON

    state.start_correction(2)
    assert state.correcting == 2 and state.draft.chosen is not None and state.draft.chosen.label == "+3 für Kartlbrüder"
    assert not state.submit("game", {"winner": "B", "value": 2})
    assert state.error == "Bitte einen Grund für die Korrektur angeben."
    state.set_reason("falsch aufgeschrieben")
    assert state.submit("game", {"winner": "B", "value": 2})
    assert state.correcting is None and state.stand == [("Die Sautreiber", 2), ("Kartlbrüder", 2)]
    (item,) = state.trail(2)
    assert item.action == "Korrigiert" and item.device == "Testhandy" and item.reason == "falsch aufgeschrieben"
    assert item.before == "Kartlbrüder gewinnt das Spiel zu 3, 1x ausgeschafft (Kartlbrüder +3)"
    assert item.after == "Kartlbrüder gewinnt das Spiel zu 2 (Kartlbrüder +2)"
    assert state.lines[1].title == "2. Spiel (korrigiert)"

    assert not state.close("Sepp")
    assert state.close_error is not None and "Durchgang ist nicht beendet" in state.close_error
    assert state.error is None  # the close screen's refusal is not the entry panel's
    assert state.close("Sepp", "Abbruch durch die Turnierleitung")
    assert state.closed and state.result_lines[0].startswith("Bummerl 1: 2:2")


def test_a_refused_entry_keeps_the_message_and_changes_nothing_on_disk(store: SheetStore) -> None:
    state = SheetState(store, watten_sheet(store))
    state.load()
    for value in (4, 4, 4, 2):
        assert state.submit("game", {"winner": "A", "value": value})
    assert state.score is not None and state.score.status.details["gspannt"] == ["A"]
    labels = [c.label for c in state.draft.common]
    assert "+3 für Kartlbrüder" in labels and "+2 für Kartlbrüder" not in labels and "+4 für Kartlbrüder" not in labels
    assert state.submit("gehen", {"team": "A"})
    before = files(store)
    state.start_correction(1)
    state.set_reason("Tippfehler")
    assert not state.submit("game", {"winner": "B", "value": 2})
    assert state.error is not None and "Regel 8" in state.error and "nicht gspannt" in state.error
    assert files(store) == before
    assert not state.submit("game", {"winner": "A", "value": 1})
    assert files(store) == before


def test_a_second_window_sees_the_first_ones_games(store: SheetStore) -> None:
    sheet_id = watten_sheet(store)
    one, two = SheetState(store, sheet_id), SheetState(store, sheet_id)
    one.load()
    two.load()
    assert one.submit("game", {"winner": "A", "value": 2})
    assert two.submit("game", {"winner": "B", "value": 2})
    assert [line.summary for line in two.lines] == ["Die Sautreiber gewinnt das Spiel zu 2", "Kartlbrüder gewinnt das Spiel zu 2"]


def test_the_list_shows_open_sheets_first_with_the_score_at_a_glance(store: SheetStore) -> None:
    first = watten_sheet(store)
    second = watten_sheet(store)
    store.close(first, "Sepp", override="Abbruch")
    store.add_game(second, {"winner": "A", "value": 3})
    app = AppState(store)
    app.refresh()
    assert [row.id for row in app.rows] == [second, first]
    assert app.rows[0].glance == "Bummerl 1 von 3, Stand 3:0 · Es gibt: Die Sautreiber" and not app.rows[0].closed
    assert app.rows[1].closed and app.rows[0].where == "Durchgang 1 · Tisch 4"
    assert "offen" in app.rows[0].label


def test_a_draft_for_every_ruleset_resets_on_an_empty_sheet(store: SheetStore) -> None:
    form = NewSheetForm(store)
    for ruleset in all_rulesets():
        form.choose(ruleset.id)
        for i in range(form.count):
            form.set_name(i, f"Name {i + 1}")
        sheet_id = form.submit()
        assert sheet_id is not None, form.errors
        state = SheetState(store, sheet_id)
        state.load()
        assert state.draft is not None and state.error is None, ruleset.id
        try:
            state.draft.entry()
        except ValueError as error:
            assert str(error), ruleset.id


# -- issue 22: games as players count them, refusals that go with their action ---------------------
def test_games_are_numbered_as_players_count_them_after_undo_correction_and_void(store: SheetStore) -> None:
    state = SheetState(store, watten_sheet(store))
    state.load()
    for value in (2, 3, 2):
        assert state.submit("game", {"winner": "A", "value": value})
    assert state.undo_last() and state.notice == "3. Spiel zurückgenommen"
    assert state.submit("game", {"winner": "B", "value": 3})
    assert state.notice == "3. Spiel eingetragen"  # the struck game is no game any more
    state.start_correction(1)
    state.set_reason("Tippfehler")
    assert state.submit("game", {"winner": "A", "value": 3}) and state.notice == "1. Spiel korrigiert"
    assert state.void(2, "doppelt eingetragen") and state.notice == "2. Spiel gestrichen"
    assert state.submit("game", {"winner": "B", "value": 2})
    assert [line.title for line in state.lines] == [
        "1. Spiel (korrigiert)",
        "Gestrichen: Spiel nach dem 1. Spiel",
        "Gestrichen: Spiel nach dem 1. Spiel",
        "2. Spiel",
        "3. Spiel",
    ]
    assert [line.correctable for line in state.lines] == [True, False, False, True, True]
    assert state.close("Sepp", "Abbruch durch die Turnierleitung")
    assert state.lines[-1].title == "Abschluss" and not state.lines[-1].correctable


def test_a_refusal_names_the_game_by_its_number_not_its_log_entry(store: SheetStore) -> None:
    state = SheetState(store, watten_sheet(store))
    state.load()
    for value in (2, 2):
        assert state.submit("game", {"winner": "A", "value": value})
    assert state.undo_last()  # log: 1, 2, void of 2
    for value in (4, 4, 4):
        assert state.submit("game", {"winner": "A", "value": value})  # A 14: gspannt
    assert state.submit("gehen", {"team": "A"})  # 5. Gehen, log entry 7
    assert state.lines[-1].title == "5. Gehen"
    state.start_correction(7)
    state.set_reason("war kein Gehen")
    state.start_correction(3)
    state.set_reason("Tippfehler")
    assert not state.submit("game", {"winner": "A", "value": 5})  # 4+... makes A reach 15 earlier: refused later on
    assert state.error is not None and state.error.startswith("5. Gehen: Regel 8"), state.error


def test_a_refusal_goes_with_its_action(store: SheetStore) -> None:
    """Issue 22: correct, refused (Regel 8), Abbrechen: the red box goes; signing starts clean."""
    state = SheetState(store, watten_sheet(store))
    state.load()
    for value in (4, 4, 4, 2):
        assert state.submit("game", {"winner": "A", "value": value})
    assert state.submit("gehen", {"team": "A"})
    state.start_correction(1)
    state.set_reason("Tippfehler")
    assert not state.submit("game", {"winner": "B", "value": 2})
    assert state.error is not None and state.error.startswith("5. Gehen: Regel 8"), state.error
    state.cancel_correction()
    assert state.error is None and state.notice is None
    assert not state.submit("gehen", {"team": "B"})
    assert state.error is not None and state.error.startswith("6. Gehen: Regel 8"), state.error
    state.leave_panel()
    assert state.error is None and state.close_error is None
    assert not state.close("")
    assert state.close_error == "Bitte mit Namen unterschreiben." and state.error is None
    assert state.submit("game", {"winner": "B", "value": 3})
    assert state.error is None and state.notice == "6. Spiel eingetragen"


def test_after_each_game_the_panel_asks_verdicts_only_and_the_lines_name_themselves(
    store: SheetStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last game of a sheet costs about what its first does (``python bench/app.py``): the panel
    asks the ruleset about every choice it offers, and naming a refusal ("25. Spiel: …") walks the
    whole log, as does numbering it; neither is needed to show a saved game. (Before, a finished
    Watten Durchgang's last game took 2.5 times its first: every choice refused, and each named.)"""
    state = SheetState(store, watten_sheet(store))
    state.load()

    def walks_the_log(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole log walked to show a saved game")

    monkeypatch.setattr("screens.drafts.refusal_text", walks_the_log)
    monkeypatch.setattr("screens.sheet_state.numbering", walks_the_log)
    while state.score is None or not state.score.status.finished:
        assert state.submit("game", {"winner": "A", "value": 3}), state.error
    assert state.lines[-1].title.endswith(". Spiel") and len(state.lines) == len(state.sheet.entries)  # type: ignore[union-attr]
    monkeypatch.undo()
    assert not state.submit("game", {"winner": "B", "value": 2})  # a refusal is still named
    assert state.error is not None and state.error.startswith(f"{len(state.lines) + 1}. Spiel: ")
