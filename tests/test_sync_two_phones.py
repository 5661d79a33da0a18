"""Two phones, one Watten table: each team keeps its own sheet (Regel 5) and the host compares them.

Each phone is its own process with its own store, joined for table 4 as team A or team B; it
writes the games, closes and signs, and its ``SyncService`` delivers the sheet in the background.
The host's comparison comes back to the phones and shows in the organizer's table view.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from storage import SheetStore
from sync.client import join
from sync.outbox import SheetSync, SheetSyncState, SyncService

from .conftest import wait_for
from .hostproc import HostProcess, running_host
from .sync_helpers import watten_teams

TABLE = 4
GAMES = "ABBABAABBAAB"


def _phone_main(join_line: str, team: str, round: int, winners: str, work: str, result: str) -> None:
    """One phone: join, write the Durchgang game by game, close and sign; the service sends it."""
    store = SheetStore(Path(work) / f"handy-{team}-{round}", device=f"handy-{team}")
    credentials = join(join_line, TABLE, team, f"Handy Team {team}")
    changes: list[SheetSync] = []

    def on_change(states: list[SheetSync], problem: str | None) -> None:
        changes.extend(states)

    service = SyncService(store, credentials, on_change=on_change, backoff_min=0.2, backoff_max=1.0).start()
    try:
        sheet = store.new_sheet("watten-turnier", watten_teams(TABLE), credentials.sheet_context(round=round, written_by=team))
        for winner in winners:
            store.add_game(sheet.id, {"winner": winner})
        signer = watten_teams(TABLE)[0 if team == "A" else 1].members[0]
        service.close_and_queue(sheet.id, signer, "Turnierleitung: Zeit abgelaufen")
        wait_for(
            "the sheet at the organizer",
            lambda: service.status(sheet.id).state is SheetSyncState.AT_ORGANIZER,
            shows=lambda: f"the sender reports {service.status(sheet.id)}, its problem: {service.problem}",
        )
        state = service.status(sheet.id)
    finally:
        service.stop()
    Path(result).write_text(
        json.dumps({"sheet_id": str(sheet.id), "comparison": state.comparison, "seen": [c.state.value for c in changes]}),
        encoding="utf-8",
    )


def _play(host: HostProcess, tmp_path: Path, round: int, winners_a: str, winners_b: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both phones at once, in their own processes; their results."""
    context = multiprocessing.get_context("spawn")
    out = {team: tmp_path / f"{team}-{round}.json" for team in "AB"}
    phones = [
        # daemon: ended with this worker, also when the run is stopped (conftest's SIGTERM)
        context.Process(target=_phone_main, args=(host.line, team, round, winners, str(tmp_path), str(out[team])), daemon=True)
        for team, winners in (("A", winners_a), ("B", winners_b))
    ]
    for p in phones:
        p.start()
    for p in phones:
        p.join(120)
    assert [p.exitcode for p in phones] == [0, 0]
    return json.loads(out["A"].read_text()), json.loads(out["B"].read_text())


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as process:
        yield process


def _table(host: HostProcess, round: int) -> dict[str, Any]:
    reply = host.organizer("/api/v1/tables")
    assert reply.status_code == 200, reply.text
    [table] = [t for t in reply.json() if t["table"] == TABLE and t["round"] == round]
    return dict(table)


def test_two_phones_carry_one_tables_two_sheets_and_the_host_says_they_agree(host: HostProcess, tmp_path: Path) -> None:
    a, b = _play(host, tmp_path, 1, GAMES, GAMES)
    table = _table(host, 1)
    assert {s["written_by"] for s in table["sheets"]} == {"A", "B"}
    assert all(s["closed"] for s in table["sheets"])
    comparison = table["comparison"]
    assert comparison == {
        "agree": True,
        "games_compared": len(GAMES),
        "first_difference": None,
        "message": f"Die Blätter stimmen überein ({len(GAMES)} Spiele)",
    }
    # the phone whose sheet arrived second got the verdict in the host's answer
    assert comparison["message"] in (a["comparison"], b["comparison"])
    assert "at_organizer" in a["seen"] and "at_organizer" in b["seen"]
    assert any("stimmen überein" in line for line in host.output), "the host's terminal says so too"


def test_one_game_changed_on_one_phone_is_named_by_the_host(host: HostProcess, tmp_path: Path) -> None:
    changed = GAMES[:6] + ("A" if GAMES[6] == "B" else "B") + GAMES[7:]
    a, b = _play(host, tmp_path, 2, GAMES, changed)
    comparison = _table(host, 2)["comparison"]
    assert isinstance(comparison, dict)
    assert comparison["agree"] is False and comparison["first_difference"] == 7
    assert comparison["message"].startswith("Unterschied beim 7. Spiel")
    assert "Blatt von Tisch 4 Team A" in comparison["message"] and "Blatt von Tisch 4 Team B" in comparison["message"]
    assert comparison["message"] in (a["comparison"], b["comparison"])
    assert any("7. Spiel" in line for line in host.output)
