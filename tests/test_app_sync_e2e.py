"""Issue "Sync", done when: a host and two phones (browser windows on two app processes) carry a
Watten table's two signed sheets to the organizer through a flaky link, and the host says whether
they agree; a correction on one phone after signing makes the host name the game that differs.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from storage import SheetStore
from sync.protocol import JoinLine

from .browser import (
    PHONE,
    Taps,
    enable_semantics,
    running_app,
    screenshot,
    scroll_to,
    wait_for_control,
    wait_for_line,
    wait_for_text,
    with_editing_probe,
)
from .faultproxy import CLEAN, FaultProxy, FaultSchedule
from .hostproc import HostProcess, running_host

pytestmark = pytest.mark.browser

A, B = "Die Sautreiber", "Kartlbrüder Wörgl"
GAMES = [("A", 2), ("B", 3), ("A", 4), ("A", 2), ("B", 2)]
FLAKY = FaultSchedule(drop=0.1, lose_reply=0.1, delay=0.15, duplicate=0.05, max_delay=0.4)


def join(page: Any, line: str, team: str) -> None:
    """Join through the form (the organizer's join line pasted, the table, the team)."""
    page.bring_to_front()  # a background tab gets no animation frames: Flutter would not see the taps
    taps = Taps(page)
    taps.tap("button", "Turnier beitreten")
    taps.type("Beitrittszeile oder Adresse", line)
    taps.type("Tisch", "4")
    taps.type("Mannschaft oder Platz", team)
    taps.tap("button", "Beitreten")
    wait_for_text(page, "Turnier: Kathreinwatten Söll 2026 · Tisch 4", 30_000)


def keep_sheet(page: Any, writer: str, games: list[tuple[str, int]], data_dir: Path) -> None:
    """Create the table's sheet (for the tournament, by default), enter the games, sign early with the note."""
    page.bring_to_front()  # a background tab gets no animation frames: Flutter would not see the taps
    taps = Taps(page)
    taps.tap("button", "Neues Blatt")
    wait_for_text(page, "Für das Turnier Kathreinwatten Söll 2026, Tisch 4")
    taps.tap("radio", "Watten (Turnier)")
    taps.type("Mannschaft 1: Name", A)
    taps.type("Mannschaft 1: Startnr.", "7")
    taps.type("Mannschaft 2: Name", B)
    taps.type("Mannschaft 2: Startnr.", "12")
    taps.type("Durchgang", "1")
    taps.tap("radio", writer)
    taps.tap("button", "Blatt anlegen")
    wait_for_text(page, "Bummerl 1 von 3, Stand 0:0")
    (info,) = SheetStore(data_dir).list_sheets()
    sheet = SheetStore(data_dir).open(info.id)
    assert [(p.name, p.start_number) for p in sheet.participants] == [(A, 7), (B, 12)], sheet.participants
    for number, (team, value) in enumerate(games, start=1):
        taps.tap("button", f"+{value} für {A if team == 'A' else B}")
        wait_for_line(page, f"{number}. Spiel eingetragen")
    taps.tap("button", "Abschließen")
    taps.type("Vermerk der Turnierleitung", "Zeitlimit, Durchgang abgebrochen")
    taps.type("Unterschrift (Name)", "Sepp Huber" if writer == A else "Toni Egger")
    taps.tap("button", "Abschließen und unterschreiben")
    wait_for_control(page, "button", "Ergebnis")


def table_state(host: HostProcess) -> dict[str, Any]:
    response = host.organizer("/api/v1/tables")
    assert response.status_code == 200, response.text
    (table,) = [t for t in response.json() if t["table"] == 4]
    return dict(table)


def test_two_phones_carry_a_tables_two_sheets_to_the_organizer(browser: Any, tmp_path: Path) -> None:
    with running_host(tmp_path / "host") as host, FaultProxy(host.port, FLAKY, seed=7) as proxy:
        assert host.join_line is not None
        line = JoinLine(url=f"https://127.0.0.1:{proxy.port}", code=host.join_line.code, fingerprint=host.fingerprint).format()
        # Joining is one request a player repeats by hand if it fails; the sheets go through the faults.
        proxy.schedule = CLEAN
        with (
            running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path / "handy-a"), "TISCHBLOCK_DEVICE": "Handy Sautreiber"}) as url_a,
            running_app(
                env={"TISCHBLOCK_DATA_DIR": str(tmp_path / "handy-b"), "TISCHBLOCK_DEVICE": "Handy Kartlbrüder"}
            ) as url_b,
        ):
            pages = {}
            for team, url in (("A", url_a), ("B", url_b)):
                page = with_editing_probe(browser.new_page(viewport=PHONE))
                page.goto(url)
                enable_semantics(page)
                wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)
                join(page, line, team)
                pages[team] = page
            screenshot(pages["A"], "turnier-angemeldet.png")
            proxy.schedule = FLAKY
            keep_sheet(pages["A"], A, GAMES, tmp_path / "handy-a")
            keep_sheet(pages["B"], B, GAMES, tmp_path / "handy-b")
            for page in pages.values():
                wait_for_text(page, re.compile(r"Veranstalter: beim Veranstalter"), 60_000)
            wait_for_text(pages["B"], "Die Blätter stimmen überein", 60_000)
            screenshot(pages["B"], "blatt-beim-veranstalter.png")
            table = table_state(host)
            assert table["comparison"]["agree"] is True, table

            # Phone B corrects game 3 after signing: the new revision goes out, the host names the game.
            page = pages["B"]
            page.bring_to_front()
            taps = Taps(page)
            scroll_to(page, "button", re.compile(r"^3\. Spiel ")).click()  # scroll_to waits until it stands still
            taps.tap("button", "3. Spiel korrigieren")
            taps.type("Grund der Änderung", "Spiel 3 war +3")
            taps.tap("button", f"+3 für {A}")
            wait_for_line(page, "3. Spiel korrigiert")  # a sheet that went out before goes out again by itself
            deadline = time.monotonic() + 60
            while not (table := table_state(host))["comparison"] or table["comparison"]["agree"]:
                assert time.monotonic() < deadline, table
                time.sleep(0.5)
            assert table["comparison"]["first_difference"] == 3, table
            assert "beim 3. Spiel" in table["comparison"]["message"], table  # as the players count it

            # Every revision the phones saw acknowledged is on the host exactly once.
            stored = host.stored_revisions()
            assert len({(s, r) for s, r, _ in stored}) == len(stored)
            for team in "AB":
                store = SheetStore(tmp_path / f"handy-{team.lower()}")
                (info,) = store.list_sheets()
                assert (str(info.id), info.sync.revision) in {(s, r) for s, r, _ in stored}
            assert sum(proxy.stats.values()) > 0
            for page in pages.values():
                page.close()
