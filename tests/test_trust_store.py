"""Migration 0006 on a database an older host left (issue 20): every entrant gets a secret, a round
drawn before sheet ids were kept gets random ones once, and the migration runs once."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from sync.host.desk import Desk, start_tournament
from sync.host.store import HostStore

STEP = "0006-blatt-besitz-schluessel-geraete"


def test_0006_upgrades_an_older_hosts_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'host.sqlite3'}"
    store = HostStore(url)
    start_tournament(store, "Kathreinwatten Söll 2026", "K7P4Q2")
    desk = Desk(store)
    desk.configure("watten-turnier")
    for name in ["Die Sautreiber", "Kartlbrüder Wörgl", "Stanglwirt-Buam", "Hopfgartner Asse"]:
        desk.register(name, [f"{name} 1", f"{name} 2"])
    desk.draw(1, 2026)
    store.close()
    # Back to what the host before issue 20 left: no secrets, no sheet ids, no revocation, 0006 not applied.
    db = sqlite3.connect(tmp_path / "host.sqlite3")
    with db:
        db.execute("DELETE FROM schema_migrations WHERE name = ?", (STEP,))
        db.execute("DROP TABLE drawn_sheets")
        db.execute("DROP TABLE table_claims")
        db.execute("ALTER TABLE entrants DROP COLUMN secret")
        db.execute("ALTER TABLE devices DROP COLUMN revoked_at")
    db.close()

    upgraded = HostStore(url)
    try:
        assert upgraded.applied == (STEP,)
        desk = Desk(upgraded)
        secrets = [e.secret or "" for e in desk.roster_entries()]
        assert all(re.fullmatch(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", s) for s in secrets) and len(set(secrets)) == 4
        first = desk.drawn_sheet(1, 1)
        assert first is not None and first.sheet_id.version == 4
        assert desk.drawn_sheet(1, 1) == first  # made once, then kept
        assert desk.assignment(1, 1).sheet.id == first.sheet_id
        assert len({desk.drawn_sheet(n, 1).sheet_id for n in (1, 2, 3, 4)}) == 4  # type: ignore[union-attr]
    finally:
        upgraded.close()
    again = HostStore(url)
    assert again.applied == ()
    again.close()
