"""Killing the host (SIGKILL) while phones submit loses no acknowledged revision and stores none twice."""

from __future__ import annotations

import hashlib
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from scoring import Sheet
from sync.host.store import HostStore

from .host_helpers import start_host, watten_sheet

TOURNAMENT = "kathreinwatten-soell-2026"
KILLS = 3


def test_acknowledged_revisions_survive_sigkill_and_restarts(tmp_path: Path) -> None:
    host = start_host(tmp_path)
    tables = (1, 2, 3, 4)
    phones = {
        (table, team): host.join(table=table, team=team, name=f"Tisch {table} {team}")["device_token"]
        for table in tables
        for team in "AB"
    }
    sheets = {
        (table, team): watten_sheet(TOURNAMENT, table, written_by=team, correction=team == "A")
        for table in tables
        for team in "AB"
    }
    acknowledged: dict[tuple[str, int], str] = {}
    lock = threading.Lock()
    done = threading.Event()
    interrupted = [0]

    def submit_all(key: tuple[int, str]) -> None:
        full = sheets[key]
        session = host.session()
        for revision in range(1, len(full.entries) + 1):
            sheet = full.model_copy(update={"entries": full.entries[:revision]})
            while True:
                try:
                    reply = host.put(sheet, phones[key], session=session)
                except requests.RequestException:
                    with lock:
                        interrupted[0] += 1
                    time.sleep(0.05)  # the host is down or the reply was lost: send the same revision again
                    session = host.session()
                    continue
                assert reply.status_code in (200, 201), reply.text
                with lock:
                    acknowledged[(str(sheet.id), revision)] = _sha(sheet)
                break

    total = sum(len(s.entries) for s in sheets.values())

    def killer() -> None:
        """Kill at spread-out points of the run, whatever the machine's speed: after about a quarter,
        half and three quarters of the revisions are acknowledged (with some jitter)."""
        rng = random.Random(12)
        for k in range(1, KILLS + 1):
            mark = total * k // (KILLS + 1) + rng.randint(-5, 5)
            while len(acknowledged) < mark:
                if done.is_set():
                    return
                time.sleep(0.005)
            host.kill()
            host.start()

    try:
        murder = threading.Thread(target=killer)
        murder.start()
        with ThreadPoolExecutor(len(sheets)) as pool:
            list(pool.map(submit_all, sheets))
        done.set()
        murder.join()
    finally:
        host.stop()

    assert host.starts == KILLS + 1, "the submissions ended before every kill"
    assert interrupted[0] > 0, "no request was cut off by a kill"
    assert len(acknowledged) == total
    store = HostStore.open(tmp_path)
    try:
        stored = {(str(r.sheet_id), r.revision): r.body_sha256 for r in store.all_revisions()}
        assert stored == acknowledged  # every acknowledged revision is there, with its body, once
        assert store.conflicts() == []
    finally:
        store.close()


def _sha(sheet: Sheet) -> str:
    return hashlib.sha256(sheet.to_json().encode("utf-8")).hexdigest()
