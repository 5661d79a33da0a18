"""A phone joins a drawn tournament with its Startnummer and opens the sheet the draw prepared for it:
the app's state against the real host, and the same in the browser (the issue's "a phone that joins
gets its table, team and seat from the draw, so the sheet it opens is already set up")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from screens.sheet_state import SheetState
from screens.tournament_state import TournamentState, _stop_service
from storage import SheetStore

from .browser import PHONE, Taps, enable_semantics, running_app, screenshot, wait_for_text, with_editing_probe
from .hostproc import PASSWORD, HostProcess, running_host, wait_until_at_organizer

ROSTER = "Startnummer;Mannschaft;Spieler 1;Spieler 2\n" + "".join(
    f"{n};{name};{a};{b}\n"
    for n, name, a, b in [
        (1, "Die Sautreiber", "Sepp", "Toni"),
        (2, "Kartlbrüder Wörgl", "Vroni", "Hias"),
        (3, "Stanglwirt-Buam", "Loisl", "Much"),
        (4, "Hopfgartner Asse", "Resi", "Wastl"),
    ]
)


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as process:
        yield process


def organizer(host: HostProcess, method: str, path: str, json: Any = None) -> Any:
    from sync.client import HostClient

    with HostClient(host.url, fingerprint=host.fingerprint) as client:
        answer = client.session.request(
            method, f"{host.url}/api/v1/organizer{path}", json=json, auth=("organizer", PASSWORD), timeout=30
        )
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


@pytest.fixture(scope="module")
def drawn(host: HostProcess) -> dict[str, Any]:
    """The host's tournament as a Watten tournament with four teams; Durchgang 1 not drawn yet."""
    organizer(host, "PUT", "/plan", {"ruleset_id": "watten-turnier", "date": "2026-11-23"})
    organizer(host, "POST", "/roster/csv", {"csv": ROSTER})
    return dict(organizer(host, "GET", "/tournament"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SheetStore]:
    store = SheetStore(tmp_path / "handy", device="Handy Sautreiber")
    yield store
    _stop_service(store)


def test_the_startnummer_gives_the_phone_its_table_and_a_prepared_sheet(
    host: HostProcess, drawn: dict[str, Any], store: SheetStore
) -> None:
    state = TournamentState(store)
    state.set_field("target", host.card_line(1))  # the Startkarte's line: Startnummer 1 and its secret
    state.set_field("start_number", "99")
    assert not state.join()
    assert "Startnummer 99 steht nicht auf der Startliste" in state.errors["code"]
    state.set_field("start_number", "1")
    assert state.join(), state.errors
    assert state.by_draw and state.summary == "Kathreinwatten Söll 2026 · Startnummer 1 · Die Sautreiber"
    assert state.open_assigned() is None
    assert "noch nicht ausgelost" in state.errors["assignment"]

    draw = organizer(host, "POST", "/rounds/1/draw", {"seed": 2026})
    (mine,) = [t for t in draw["tables"] if 1 in [s["start_number"] for s in t["seats"]]]
    sheet_id = state.open_assigned()
    assert sheet_id is not None, state.errors
    assert state.open_assigned() == sheet_id  # asking again opens the same sheet
    sheet = store.open(sheet_id)
    assert (sheet.context.tournament, sheet.context.round, sheet.context.table) == (drawn["id"], 1, mine["table"])
    assert sheet.ruleset.id == "watten-turnier"
    assert {p.start_number for p in sheet.participants} == {s["start_number"] for s in mine["seats"]}
    me = next(p for p in sheet.participants if p.start_number == 1)
    assert sheet.context.written_by == me.id and me.members == ("Sepp", "Toni")
    assert state.assigned == f"Durchgang 1 · Tisch {mine['table']} · Platz {me.seat}"

    # The phone keeps the sheet, signs it early with the Turnierleitung's note, and it reaches the host.
    assert state.belongs(sheet.context.tournament, sheet.context.table)
    sheet_state = SheetState(store, sheet_id, on_saved=state.saved)
    sheet_state.load()
    for winner in "ABA":
        assert sheet_state.submit("game", {"winner": winner})
    assert sheet_state.close(me.name, "Turnierleitung: Zeit abgelaufen")
    wait_until_at_organizer(state, sheet_id)
    tables = organizer(host, "GET", "/rounds/1/tables")
    (table,) = [t for t in tables if t["draw"]["table"] == mine["table"]]
    assert [h["sheet"]["id"] for h in table["sheets"]] == [sheet_id]


@pytest.mark.browser
def test_a_phone_joined_by_startnummer_opens_the_drawn_sheet(
    browser: Any, host: HostProcess, drawn: dict[str, Any], tmp_path: Path
) -> None:
    draws = organizer(host, "GET", "/tournament")["rounds_drawn"]
    if not draws:
        organizer(host, "POST", "/rounds/1/draw", {"seed": 2026})
    draw = organizer(host, "GET", "/rounds/1/draw")
    (mine,) = [t for t in draw["tables"] if 2 in [s["start_number"] for s in t["seats"]]]
    names = {1: "Die Sautreiber", 2: "Kartlbrüder Wörgl", 3: "Stanglwirt-Buam", 4: "Hopfgartner Asse"}
    opponent = next(names[s["start_number"]] for s in mine["seats"] if s["start_number"] != 2)
    data = tmp_path / "handy-kartlbrueder"
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data), "TISCHBLOCK_DEVICE": "Handy Kartlbrüder"}) as url:
        page = with_editing_probe(browser.new_page(viewport=PHONE))
        page.goto(url)
        enable_semantics(page)
        wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)
        taps = Taps(page)
        taps.tap("button", "Turnier beitreten")
        taps.type("Beitrittszeile oder Adresse", host.card_line(2))
        taps.type("Startnummer", "2")
        screenshot(page, "turnier-beitreten-startnummer.png")
        taps.tap("button", "Beitreten")
        # Joining opens the drawn sheet at once: both teams, the round and the table are set up.
        wait_for_text(page, "Bummerl 1 von 3, Stand 0:0", 30_000)
        text = wait_for_text(page, opponent)
        assert "Kartlbrüder Wörgl" in text
        screenshot(page, "turnier-ausgelostes-blatt.png")
        sheets = SheetStore(data).list_sheets()
        assert len(sheets) == 1
        sheet = SheetStore(data).open(sheets[0].id)
        assert (sheet.context.round, sheet.context.table) == (1, mine["table"])
        assert {p.start_number for p in sheet.participants} == {s["start_number"] for s in mine["seats"]}
        page.close()
