"""Settings, names offered as you type, the usual house rules and the screen kept on: the app's
state on a real store, without a browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from main import Session
from screens.form_state import NewSheetForm
from screens.habits import names_used, suggest, usual_options
from screens.help_screen import GUIDE, offline, sections
from screens.looks import scale
from screens.settings_state import PHONE_NAME, SETTINGS_FILE, Settings, SettingsState, load_settings
from storage import SheetStore, StorageError


@pytest.fixture
def store(tmp_path: Path) -> SheetStore:
    return SheetStore(tmp_path / "store", device="Testhandy")


def new_sheet(store: SheetStore, ruleset: str, names: list[str], **options: object) -> str:
    form = NewSheetForm(store)
    form.choose(ruleset)
    form.resize(len(names))
    for i, name in enumerate(names):
        form.set_name(i, name)
    for key, value in options.items():
        form.set_option(key, value)
    sheet_id = form.submit()
    assert sheet_id is not None, form.errors
    return sheet_id


# -- settings ------------------------------------------------------------------------------------
def test_settings_are_saved_at_once_beside_the_sheets_and_read_by_the_next_window(store: SheetStore) -> None:
    state = SettingsState(store)
    assert state.settings == Settings() and state.text_scale == 1.0
    state.set_theme("dunkel")
    state.set_text_size("sehr-gross")
    state.set_house_rules("regelwerk")
    state.set_own_name("  Toni   Huber ")
    saved = json.loads((store.root / SETTINGS_FILE).read_text(encoding="utf-8"))
    assert saved == {
        "theme": "dunkel",
        "text_size": "sehr-gross",
        "house_rules": "regelwerk",
        "own_name": "Toni Huber",
        "device_name": "",
        "device_asked": False,
        "last_host": "",
    }
    again = SettingsState(store)
    assert again.settings.own_name == "Toni Huber" and again.text_scale == 1.4
    assert again.theme_mode.value == "dark"


def test_a_bad_setting_changes_nothing_and_a_damaged_file_keeps_the_defaults(store: SheetStore) -> None:
    state = SettingsState(store)
    state.set_theme("lila")
    state.set_text_size("riesig")
    assert not (store.root / SETTINGS_FILE).exists()
    state.set_own_name("x" * 81)
    assert state.error == "Eigener Name: höchstens 80 Zeichen." and not (store.root / SETTINGS_FILE).exists()
    (store.root / SETTINGS_FILE).write_text("{kaputt", encoding="utf-8")
    with pytest.raises(StorageError, match="Einstellungen"):
        load_settings(store.root)
    damaged = SettingsState(store)
    assert damaged.settings == Settings() and damaged.error is not None and "Voreinstellungen" in damaged.error
    damaged.set_theme("hell")
    assert load_settings(store.root).theme == "hell"


def test_the_own_name_and_the_host_last_joined_prefill_the_forms(store: SheetStore) -> None:
    settings = SettingsState(store)
    settings.set_own_name("Die Sautreiber")
    settings.remember_host("tischblock://join?url=https%3A%2F%2F192.168.1.20%3A8765&code=ABCD&fp=12")
    session = Session(store)
    assert session.tournament.device_name == "Die Sautreiber"
    assert session.tournament.target.startswith("tischblock://join?url=")
    form = session.form()
    form.choose("watten-turnier")
    form.set_name(0, "Kartlbrüder")
    form.set_name(1, "die  sautreiber")
    assert form.writer == 1  # the player's own team writes the sheet


def test_the_join_screen_offers_the_names_used_on_this_phone(store: SheetStore) -> None:
    new_sheet(store, "watten-turnier", ["Die Sautreiber", "Kartlbrüder"])
    new_sheet(store, "watten-turnier", ["Die Sautreiber", "Stammtisch Söll"])
    assert Session(store).names() == ["Die Sautreiber", "Stammtisch Söll", "Kartlbrüder"]


def test_the_screen_stays_on_while_a_sheet_is_open(store: SheetStore) -> None:
    session = Session(store)
    assert session.awake is None
    release = session.keep_awake("blatt-1")
    assert session.awake == "blatt-1"
    release_second = session.keep_awake("blatt-2")  # from one sheet straight to another
    release()
    assert session.awake == "blatt-2"
    release_second()
    assert session.awake is None


# -- names and house rules -------------------------------------------------------------------------
def test_names_used_most_come_first_and_case_and_spaces_count_as_one() -> None:
    used = names_used([["Die Sautreiber", "Kartlbrüder"], ["Toni", "die  sautreiber"], ["Sepp", "Kartlbrüder", "Die Sautreiber"]])
    assert used == ["Die Sautreiber", "Kartlbrüder", "Toni", "Sepp"]


def test_names_are_offered_by_any_word_as_typed_and_never_twice() -> None:
    names = ["Die Sautreiber", "Kartlbrüder Wörgl", "Toni", "Sepp Sauer"]
    assert suggest(names, "sau") == ["Die Sautreiber", "Sepp Sauer"]
    assert suggest(names, "Wö") == ["Kartlbrüder Wörgl"]
    assert suggest(names, "sau", taken=["Sepp Sauer"]) == ["Die Sautreiber"]
    assert suggest(names, "") == names
    assert suggest(names, "Toni") == []  # typed in full: nothing left to offer
    assert suggest(names, "x") == []


def test_a_watten_team_is_not_offered_as_a_doppelkopf_player(store: SheetStore) -> None:
    """Issue 22: the teams' names went to every name field; teams and players are offered apart."""
    new_sheet(store, "watten-turnier", ["Die Sautreiber", "Kartlbrüder"])
    new_sheet(store, "doppelkopf-turnier", ["Anna", "Bert", "Cilli", "Dora"])
    form = NewSheetForm(store)
    form.choose("doppelkopf-turnier")
    assert form.suggestions == ["Anna", "Bert", "Cilli", "Dora"]
    form.set_name(0, "")
    assert form.offers("name.0") == ["Anna", "Bert", "Cilli", "Dora"]
    form.choose("watten-turnier")
    assert form.offers("name.0") == ["Die Sautreiber", "Kartlbrüder"]
    assert form.offers("member.0.0") == ["Anna", "Bert", "Cilli", "Dora"]  # a team's members are players
    assert form.suggestions == ["Die Sautreiber", "Kartlbrüder"]  # the chips offer teams


def test_a_doppelkopf_player_is_not_offered_as_a_watten_team(store: SheetStore) -> None:
    """Issue 22, the reverse way: the "Zuletzt:" chips under "Mannschaften" offered Doppelkopf players'
    names while a team's member field was empty, and a tap put one there; they offer teams only."""
    new_sheet(store, "doppelkopf-turnier", ["Dieter Schwarzenberger", "Bert", "Cilli", "Dora"])
    new_sheet(store, "watten-turnier", ["Die Sautreiber", "Kartlbrüder"])
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    assert form.suggestions == ["Die Sautreiber", "Kartlbrüder"]
    form.fill_next("Kartlbrüder")
    assert form.names == ["Kartlbrüder", ""] and form.members == [["", ""], ["", ""]]
    assert form.suggestions == ["Die Sautreiber"]
    form.fill_next("Die Sautreiber")
    assert form.names == ["Kartlbrüder", "Die Sautreiber"] and form.suggestions == []
    assert "Dieter Schwarzenberger" not in form.offers("name.0")
    assert "Dieter Schwarzenberger" in form.offers("member.0.0")  # he may play Watten in a team
    form.choose("doppelkopf-turnier")
    assert "Die Sautreiber" not in form.suggestions and "Dieter Schwarzenberger" in form.suggestions


def test_the_form_offers_names_under_the_field_being_typed_in(store: SheetStore) -> None:
    new_sheet(store, "watten-turnier", ["Die Sautreiber", "Kartlbrüder"])
    new_sheet(store, "schafkopf-turnier", ["Toni", "Sepp", "Vroni", "Die Sautreiber"])
    form = NewSheetForm(store)
    form.choose("watten-turnier")
    form.set_name(0, "sa")
    assert form.offers("name.0") == ["Die Sautreiber"]
    form.take_offer("name.0", "Die Sautreiber")
    assert form.names[0] == "Die Sautreiber"
    form.set_member(1, 0, "")
    assert form.typing == "member.1.0" and "Die Sautreiber" not in form.offers("member.1.0")
    form.take_offer("member.1.0", "Toni")
    assert form.members[1][0] == "Toni"


def test_new_sheets_get_the_house_rules_played_most_on_this_phone(store: SheetStore) -> None:
    assert usual_options([], "bauernschnapsen") is None
    new_sheet(store, "bauernschnapsen", ["Stammtisch", "Gäste"], herzrunde=True, target="21")
    new_sheet(store, "bauernschnapsen", ["Stammtisch", "Gäste"], herzrunde=True, target="21")
    new_sheet(store, "bauernschnapsen", ["Stammtisch", "Gäste"])
    usual = NewSheetForm(store, usual_house_rules=True)
    usual.choose("bauernschnapsen")
    assert usual.options["herzrunde"] is True and usual.options["target"] == "21"
    assert usual.house_rules_note == "Wie meist gespielt (2 von 3 Blättern)"
    plain = NewSheetForm(store)
    plain.choose("bauernschnapsen")
    assert (
        plain.options["herzrunde"] is False
        and plain.options["target"] == "24"
        and plain.house_rules_note == "Voreingestellt wie im Regelwerk"
    )


# -- looks and help --------------------------------------------------------------------------------
def test_text_size_scales_texts_fields_and_buttons_once() -> None:
    import flet as ft

    text = ft.Text("Bummerl", size=20)
    field = ft.TextField(label="Name", text_size=17)
    button = ft.Button("Neues Blatt", height=56)
    column = ft.Column(controls=[ft.Row(controls=[text, field]), button, ft.Text("ohne Größe")])
    scale(column, 1.4)
    scale(column, 1.4)  # a control scaled again keeps its factor, it does not compound
    assert text.size == pytest.approx(28) and field.text_size == pytest.approx(23.8)
    assert button.height == pytest.approx(78.4) and button.style is not None and button.style.text_style is not None
    assert column.controls[2].size == pytest.approx(14 * 1.4)
    deep = ft.Text("Stand", size=15)
    chip = ft.Text("Die Sautreiber")
    tile = ft.ExpansionTile(
        title=ft.Text("Hausregeln", size=16), controls=[ft.Card(content=ft.Semantics(content=ft.Container(content=deep)))]
    )
    view = ft.View(
        appbar=ft.AppBar(title=ft.Text("Tischblock")), controls=[tile, ft.Chip(label=chip), ft.Radio(value="1", label="Groß")]
    )
    scale(view, 1.2)
    assert deep.size == pytest.approx(18) and chip.size == pytest.approx(14 * 1.2)
    assert view.controls[2].label_style.size == pytest.approx(14 * 1.2)
    assert view.appbar.title.size is None  # the app bar keeps the theme's size


def test_the_guide_shows_offline_in_chapters() -> None:
    intro, chapters = sections(GUIDE.read_text(encoding="utf-8"))
    titles = [title for title, _ in chapters]
    assert intro.startswith("# ") and len(chapters) >= 6
    for ruleset in ("Watten", "Schafkopf", "Schnapsen", "Doppelkopf"):
        assert any(ruleset in title for title in titles), f"no chapter for {ruleset}: {titles}"
    assert offline("Vorher ![Der Start](screenshots/start.png) und [README](../README.md).") == (
        "Vorher *(Bild: Der Start)* und README."
    )


def test_the_trail_names_the_phone_from_the_settings_not_the_computer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: without ``TISCHBLOCK_DEVICE`` the trail said the host name ("vm"); now the own name,
    or the phone's name where one is set, and a new window of the app finds it again."""
    monkeypatch.delenv("TISCHBLOCK_DEVICE", raising=False)
    store = SheetStore(tmp_path / "store")
    state = SettingsState(store)
    assert store.device == PHONE_NAME  # nothing set yet: a phone's name, never the computer's
    state.set_own_name("Sepp Huber")
    assert store.device == "Sepp Huber"
    state.set_device_name("  Handy   Tisch 4 ")
    assert store.device == "Handy Tisch 4"
    sheet_id = new_sheet(store, "watten-turnier", ["Sautreiber", "Kartlbrüder"])
    store.add_game(sheet_id, {"winner": "A", "value": 2})
    again = SheetStore(tmp_path / "store")
    SettingsState(again)
    assert again.device == "Handy Tisch 4"
    assert again.open(sheet_id).entries[-1].device == "Handy Tisch 4"
    state.set_device_name("x" * 81)
    assert state.error is not None and store.device == "Handy Tisch 4"
    state.set_device_name("")
    assert store.device == "Sepp Huber"
    monkeypatch.setenv("TISCHBLOCK_DEVICE", "Kiosk")
    kiosk = SheetStore(tmp_path / "store")
    SettingsState(kiosk)
    assert kiosk.device == "Kiosk"


def test_the_first_start_asks_the_phones_name_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: with no name for this phone in the settings the start screen asks once, the own name
    (or a neutral phone name) filled in; the answer is kept and the question never comes again."""
    monkeypatch.delenv("TISCHBLOCK_DEVICE", raising=False)
    store = SheetStore(tmp_path / "store")
    state = SettingsState(store)
    assert state.asks_device_name and state.proposed_device_name == PHONE_NAME
    state.set_own_name("Sepp Huber")
    assert state.asks_device_name and state.proposed_device_name == "Sepp Huber"
    before = load_settings(store.root)
    assert not state.confirm_device_name("   ")
    assert state.error == "Name dieses Handys: bitte einen Namen eingeben."
    assert not state.confirm_device_name("x" * 81)
    assert load_settings(store.root) == before and state.asks_device_name
    assert state.confirm_device_name(" Handy  Tisch 4 ")
    assert store.device == "Handy Tisch 4" and not state.asks_device_name and state.error is None
    again = SettingsState(SheetStore(tmp_path / "store"))
    assert not again.asks_device_name and again.store.device == "Handy Tisch 4"
    again.set_device_name("")  # emptied in Einstellungen later: the own name, and still not asked again
    assert not again.asks_device_name and again.store.device == "Sepp Huber"
    monkeypatch.setenv("TISCHBLOCK_DEVICE", "Kiosk")
    assert not SettingsState(SheetStore(tmp_path / "kiosk")).asks_device_name
