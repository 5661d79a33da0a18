"""``scoring.adoption.adopt``: a sheet begun before joining as the drawn table's sheet (issue 21), pure."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from scoring import Participant, SheetContext, find_ruleset
from scoring.adoption import AdoptionRefused, adopt
from storage import SheetStore, StorageError
from storage.errors import SheetExists

WATTEN = find_ruleset("watten-turnier")
DRAWN = (
    Participant(id="A", name="Die Sautreiber", seat=1, start_number=1, members=("Sepp", "Toni")),
    Participant(id="B", name="Kartlbrüder Wörgl", seat=2, start_number=2, members=("Vroni", "Hias")),
)
PREPARED = WATTEN.new_sheet(DRAWN, SheetContext(tournament="t1", round_label="Durchgang", round=2, table=5, written_by="B"))


def test_teams_are_matched_by_name_or_members_and_keep_their_ids_and_games() -> None:
    sheet = WATTEN.new_sheet(
        (Participant(id="x", name="Hias und Vroni", members=("hias", "VRONI")), Participant(id="y", name=" die  SAUTREIBER "))
    )
    adopted = adopt(sheet, PREPARED)
    assert adopted.id == PREPARED.id and adopted.context == PREPARED.context.model_copy(update={"written_by": "x"})
    assert [(p.id, p.name, p.start_number, p.seat) for p in adopted.participants] == [
        ("y", "Die Sautreiber", 1, 1),
        ("x", "Kartlbrüder Wörgl", 2, 2),
    ]
    assert adopted.entries == sheet.entries and adopted.ruleset == PREPARED.ruleset


def test_the_seats_the_table_dealt_in_stay() -> None:
    sheet = WATTEN.new_sheet(
        (Participant(id="x", name="Kartlbrüder Wörgl", seat=1), Participant(id="y", name="Die Sautreiber", seat=2))
    )
    assert {p.name: p.seat for p in adopt(sheet, PREPARED).participants} == {"Kartlbrüder Wörgl": 1, "Die Sautreiber": 2}


@pytest.mark.parametrize(
    ("sheet", "reason"),
    [
        (
            WATTEN.new_sheet((Participant(id="x", name="Die Sautreiber"), Participant(id="y", name="Stanglwirt-Buam"))),
            "Andere Mannschaften: in Durchgang 2 an Tisch 5 spielen Die Sautreiber und Kartlbrüder Wörgl",
        ),
        (
            find_ruleset("bauernschnapsen").new_sheet(
                (Participant(id="x", name="Die Sautreiber"), Participant(id="y", name="Kartlbrüder Wörgl"))
            ),
            "Anderes Regelwerk",
        ),
        (WATTEN.new_sheet(DRAWN, SheetContext(tournament="anderes")), "schon zu einem Turnier"),
        (WATTEN.new_sheet(DRAWN, None, {"target": 13}), r"Andere Hausregeln als im Turnier \(target\)"),
    ],
)
def test_another_table_or_ruleset_is_refused_with_the_reason(sheet, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AdoptionRefused, match=reason):
        adopt(sheet, PREPARED)


def test_the_store_puts_the_drawn_sheet_in_place_and_refuses_to_overwrite_games(tmp_path: Path) -> None:
    store = SheetStore(tmp_path)
    sheet = store.new_sheet(
        "watten-turnier", (Participant(id="x", name="Die Sautreiber"), Participant(id="y", name="Kartlbrüder Wörgl"))
    )
    store.add_game(sheet.id, {"winner": "x", "value": 2})
    begun = store.open(sheet.id)
    played = store.create(PREPARED)  # the drawn sheet, already with a game on this phone
    store.add_game(played.id, {"winner": "A", "value": 3})
    files = {p.name: p.read_bytes() for p in (tmp_path / "sheets").glob("*.json")}
    with pytest.raises(SheetExists):
        store.hand_over(sheet.id, adopt(begun, PREPARED))
    with pytest.raises(StorageError, match="inzwischen geändert"):
        store.hand_over(sheet.id, adopt(begun.model_copy(update={"entries": ()}), PREPARED))
    assert {p.name: p.read_bytes() for p in (tmp_path / "sheets").glob("*.json")} == files

    elsewhere = PREPARED.model_copy(update={"id": uuid.uuid4()})
    adopted = store.hand_over(sheet.id, adopt(begun, elsewhere))
    assert store.open(adopted.id) == adopted and adopted.entries == begun.entries
    assert str(sheet.id) not in {str(info.id) for info in store.list_sheets()}
    assert (tmp_path / "uebergeben" / f"{sheet.id}.json").exists()
