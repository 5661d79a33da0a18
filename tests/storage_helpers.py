"""Shared helpers of the storage tests (not a test module)."""

from __future__ import annotations

from pathlib import Path

from scoring import Participant, Sheet, SheetContext
from storage import SheetStore

TEAMS = (
    Participant(id="A", name="Sautreiber", start_number=2),
    Participant(id="B", name="Kartlbrüder", start_number=9),
)


def new_store(tmp_path: Path, name: str = "store", device: str = "test-phone", **kwargs: float) -> SheetStore:
    return SheetStore(tmp_path / name, device=device, **kwargs)


def watten(store: SheetStore, table: int = 1, games: str = "", bummerl_count: int = 3) -> Sheet:
    """A stored Watten sheet with one game per letter of ``games`` (the winner)."""
    sheet = store.new_sheet("watten-turnier", TEAMS, SheetContext(round_label="Durchgang", round=1, table=table), {"bummerl_count": bummerl_count})
    for winner in games:
        sheet = store.add_game(sheet.id, {"winner": winner})
    return sheet


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (except the lock) with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}
