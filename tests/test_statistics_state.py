"""The statistics screen's state on a real store, without a browser: loading, the filters, bad input."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from scoring import Sheet
from screens.statistics_state import StatisticsState
from storage import SheetStore
from storage.repository import StoredSheet

from .conftest import ROOT

EXAMPLES = ROOT / "docs" / "examples"


def put(store: SheetStore, name: str, when: datetime) -> Sheet:
    """An example sheet stored as if started at ``when`` (the day the statistics filter by)."""
    sheet = Sheet.from_json((EXAMPLES / f"{name}.json").read_bytes())
    store.put(StoredSheet(sheet=sheet, created_at=when, updated_at=when, device="Test"))
    return sheet


def store_with_two_evenings(tmp_path: Path) -> SheetStore:
    store = SheetStore(tmp_path / "store", device="Test")
    put(store, "doppelkopf-turnier", datetime(2026, 11, 21, 12, tzinfo=UTC))
    put(store, "doppelkopf-haus", datetime(2026, 11, 22, 12, tzinfo=UTC))
    put(store, "watten-turnier", datetime(2026, 11, 22, 13, tzinfo=UTC))
    return store


def test_loads_every_sheet_and_filters_by_ruleset_and_date(tmp_path: Path) -> None:
    state = StatisticsState(store_with_two_evenings(tmp_path))
    state.load()
    assert state.result is not None and state.result.sheets == 3
    assert [rid for rid, _ in state.rulesets] == ["doppelkopf-haus", "doppelkopf-turnier", "watten-turnier"]
    anna = state.result.row("Anna Huber").figures
    assert (anna.sheets, anna.points) == (2, 35 - 21)
    state.choose_ruleset("watten-turnier")
    assert state.result.sheets == 1 and [r.name for r in state.result.rows] == ["Die Sautreiber", "Kartlbrüder Wörgl"]
    state.choose_ruleset(None)
    state.set_since("22.11.2026")
    assert state.result.sheets == 2
    state.set_until("22.11.2026")
    assert state.result.row("Anna Huber").figures.points == -21


def test_bad_date_is_named_and_changes_nothing(tmp_path: Path) -> None:
    state = StatisticsState(store_with_two_evenings(tmp_path))
    state.load()
    before = state.result
    state.set_since("32.11.2026")
    assert state.errors == {"von": "„von“: bitte als TT.MM.JJJJ, z. B. 21.11.2026"}
    assert state.result is before
    state.set_since("22.11.2026")
    state.set_until("21.11.2026")
    assert state.errors == {"bis": "„bis“ liegt vor „von“: bitte ein späteres Datum eingeben"}
    state.set_until("")
    assert state.errors == {} and state.result is not None and state.result.sheets == 2


def test_a_new_game_counts_when_the_statistics_open_again(tmp_path: Path) -> None:
    """The figures kept per revision: a game added since is read and counted, nothing else rescored."""
    store = SheetStore(tmp_path / "store", device="Test")
    raw = (ROOT / "tests" / "data" / "watten-turnier" / "regel-12-beispiel.json").read_text(encoding="utf-8")
    import json

    sheet = Sheet.model_validate(json.loads(raw)["sheet"])
    store.create(sheet)
    state = StatisticsState(store)
    state.load()
    assert state.result is not None and state.result.row("Kartlbrüder").figures.games == 6
    store.add_game(sheet.id, {"winner": "B", "value": 2})
    state.load()
    b = state.result.row("Kartlbrüder").figures
    assert (b.games, b.won, b.points) == (7, 3, 10)
