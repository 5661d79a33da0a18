"""The app's tournament state against the real host process: joining, and a signed sheet reaching the organizer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from screens.form_state import NewSheetForm
from screens.sheet_state import SheetState
from screens.tournament_state import TournamentState, _stop_service
from storage import SheetStore
from sync.client import credentials_path

from .hostproc import HostProcess, running_host, wait_until_at_organizer


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as process:
        yield process


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SheetStore]:
    store = SheetStore(tmp_path / "handy", device="Handy Tisch 4")
    yield store
    _stop_service(store)


def test_a_wrong_code_or_a_bad_table_is_marked_at_its_field_and_joins_nothing(host: HostProcess, store: SheetStore) -> None:
    state = TournamentState(store)
    state.set_field("target", host.url)
    state.set_field("table", "vier")
    assert not state.join()
    assert set(state.errors) == {"code", "table"} and "Beitrittscode" in state.errors["code"]
    state.set_field("code", "FALSCH")
    state.set_field("table", "4")
    state.set_field("fingerprint", (host.fingerprint or "").replace(":", "")[:8])
    assert not state.join()
    assert "code" in state.errors and not state.joined
    assert not credentials_path(store.root).exists()


def test_a_typed_address_needs_the_fingerprint_the_organizer_shows(host: HostProcess, store: SheetStore) -> None:
    state = TournamentState(store)
    state.set_field("target", host.url)
    state.set_field("code", host.join_line.code if host.join_line else "")
    state.set_field("table", "4")
    state.set_field("fingerprint", "00000000")
    assert not state.join()
    assert "passt nicht" in state.errors["fingerprint"]
    state.set_field("fingerprint", (host.fingerprint or "").replace(":", "")[:8].lower())
    assert state.join(), state.errors
    assert state.credentials is not None and state.credentials.fingerprint == host.fingerprint


def test_a_signed_sheet_of_the_tournament_goes_to_the_organizer(host: HostProcess, store: SheetStore) -> None:
    tournament = TournamentState(store)
    tournament.set_field("target", host.line)
    tournament.set_field("table", "4")
    tournament.set_field("team", "A")
    assert tournament.join(), tournament.errors
    assert credentials_path(store.root).exists()
    creds = tournament.credentials
    assert creds is not None

    form = NewSheetForm(store, joined=(creds.tournament_id, creds.tournament_name, creds.table))
    form.choose("watten-turnier")
    form.set_name(0, "Die Sautreiber")
    form.set_name(1, "Kartlbrüder")
    form.set_context("round", "1")
    sheet_id = form.submit()
    assert sheet_id is not None, form.errors
    sheet = store.open(sheet_id)
    assert (sheet.context.tournament, sheet.context.table) == (creds.tournament_id, 4)
    assert tournament.belongs(sheet.context.tournament, sheet.context.table)

    state = SheetState(store, sheet_id, on_saved=tournament.saved)
    state.load()
    for winner in "ABAAB":
        assert state.submit("game", {"winner": winner, "value": 2})
    assert state.close("Sepp Huber", "Turnierleitung: Zeit abgelaufen")
    wait_until_at_organizer(tournament, sheet_id)
    assert tournament.label(sheet_id) is not None and tournament.label(sheet_id).startswith("beim Veranstalter")
    assert (sheet_id, len(store.open(sheet_id).entries)) in {(s, r) for s, r, _ in host.stored_revisions()}

    tournament.leave()
    assert not tournament.joined and not credentials_path(store.root).exists()
    assert store.open(sheet_id).entries  # leaving keeps the sheets


def test_the_tournament_box_names_the_team_as_its_sheet_does_not_the_letter_typed(tmp_path: Path) -> None:
    """Joined by table with the side typed as "a": the box said "Tisch 4 · A"; now the team's name and
    Startnummer from the table's sheet, and what was typed where no sheet of the table names it."""
    from scoring import Participant, SheetContext
    from sync.client import Credentials

    local = SheetStore(tmp_path / "handy")
    state = TournamentState(local)
    state.credentials = Credentials(
        url="http://127.0.0.1:1", device_token="t" * 32, device_id="d1", tournament_id="kathrein",
        tournament_name="Kathreinwatten", table=4, team="a", device_name="Handy",
    )  # fmt: skip
    assert state.summary == "Kathreinwatten · Tisch 4 · a"
    teams = [Participant(id="A", name="Die Sautreiber", start_number=7), Participant(id="B", name="Kartlbrüder")]
    local.new_sheet("watten-turnier", teams, context=SheetContext(tournament="kathrein", table=3))
    assert state.summary == "Kathreinwatten · Tisch 4 · a"  # another table's sheet says nothing of this one
    local.new_sheet("watten-turnier", teams, context=SheetContext(tournament="kathrein", table=4))
    assert state.summary == "Kathreinwatten · Tisch 4 · Die Sautreiber, Nr. 7"
