"""The host's per-sheet fast paths (issue 24): the group commit's batch statements and the compact
tally the comparison keeps, checked for doing what the one-by-one and full versions did."""

from __future__ import annotations

import gc
import hashlib
import random
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from scoring import find_ruleset
from scoring.compare import compare_scored, compare_tallies, tally
from sync.host.records import NewRevision, StoredRevision
from sync.host.scored import ScoredSheets
from sync.host.store import HostStore

from .sync_helpers import watten_sheet

TOURNAMENT = "kathrein-2026"


def _revision(sheet_id: uuid.UUID, number: int, body: bytes) -> NewRevision:
    return NewRevision(
        sheet_id=sheet_id,
        revision=number,
        body=body,
        body_sha256=hashlib.sha256(body).hexdigest(),
        tournament_id=TOURNAMENT,
        round_label="Durchgang",
        round=1,
        table=4,
        written_by="A",
        closed=False,
        games=number,
        device_id=None,
    )


def test_a_batch_stores_new_revisions_and_treats_known_ones_as_one_by_one(tmp_path: Path) -> None:
    store = HostStore(f"sqlite:///{tmp_path / 'host.sqlite3'}")
    try:
        store.create_tournament(TOURNAMENT, "Kathreinwatten Söll 2026", "K7P4Q2")
        known, new_a, new_b, twice = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        assert store.store_revision(_revision(known, 1, b'{"a": 1}')).status == "stored"
        batch = [
            _revision(new_a, 1, b'{"n": 1}'),
            _revision(known, 1, b'{"a": 1}'),
            _revision(known, 1, b'{"a": 2}'),
            _revision(new_b, 1, b'{"n": 2}'),
        ]
        with store._write() as conn:
            results = store._store_batch(conn, batch)
        assert [r.status for r in results] == ["stored", "already_stored", "conflict", "stored"]
        assert results[0].stored.body == '{"n": 1}' and results[0].stored.sheet_id == new_a
        with store._write() as conn:  # the same revision twice in one batch: the first wins
            again = store._store_batch(conn, [_revision(twice, 1, b"[1]"), _revision(twice, 1, b"[1]")])
        assert [r.status for r in again] == ["stored", "already_stored"]
        stored = {(r.sheet_id, r.revision): r.body for r in store.all_revisions()}
        assert stored == {(known, 1): '{"a": 1}', (new_a, 1): '{"n": 1}', (new_b, 1): '{"n": 2}', (twice, 1): "[1]"}
        assert [c.body for c in store.conflicts()] == ['{"a": 2}']
    finally:
        store.close()


def test_the_host_keeps_a_tally_the_collector_need_not_trace_and_compares_as_before() -> None:
    rng = random.Random(24)
    a = watten_sheet(rng, tournament=TOURNAMENT, table=4, written_by="A")
    b = watten_sheet(random.Random(25), tournament=TOURNAMENT, table=4, written_by="B")
    ruleset = find_ruleset(a.ruleset.id)
    score_a, score_b = ruleset.score(a), ruleset.score(b)
    scored = ScoredSheets()
    scored.put_tally("sha-a", tally(a, score_a))
    kept = scored._tallies.get("sha-a")
    assert kept == tally(a, score_a)
    assert scored._sheets.get("sha-a") is None  # the parsed sheet and score are not kept
    gc.collect()
    gc.collect()  # a tuple is untracked once the collector has seen that all it holds is untracked
    assert not any(gc.is_tracked(part) for part in (kept.games, *kept.games, kept.participants, kept.keys))
    assert compare_tallies(kept, tally(b, score_b)) == compare_scored(a, score_a, b, score_b)
    stored = replace(_stored_of(a.to_json(), "sha-a"), body="not json at all")  # found by hash, never parsed
    assert scored.tally(stored) is kept


def _stored_of(body: str, sha: str) -> StoredRevision:
    return StoredRevision(uuid.uuid4(), 1, body, sha, TOURNAMENT, "Durchgang", 1, 4, "A", True, 1, None, datetime.now(UTC))
