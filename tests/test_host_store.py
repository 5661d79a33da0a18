"""The host's store, on SQLite and on a real PostgreSQL server (never a mock)."""

from __future__ import annotations

import hashlib
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

import sync.host.store as store_module
from sync.host.records import DecisionRecord, NewRevision
from sync.host.schema import MIGRATIONS
from sync.host.store import HostStore

from .pg_server import PostgresServer, postgres_server_fixture, store_url_fixture  # noqa: F401  (fixtures)


@pytest.fixture
def store(store_url: str) -> Iterator[HostStore]:
    opened = HostStore(store_url)
    opened.create_tournament("kathrein-2026", "Kathreinwatten Söll 2026", "K7P4Q2")
    yield opened
    opened.close()


def revision(sheet_id: uuid.UUID, number: int, body: bytes = b"{}", *, table: int = 4, written_by: str = "A") -> NewRevision:
    return NewRevision(
        sheet_id=sheet_id,
        revision=number,
        body=body,
        body_sha256=hashlib.sha256(body).hexdigest(),
        tournament_id="kathrein-2026",
        round_label="Durchgang",
        round=1,
        table=table,
        written_by=written_by,
        closed=False,
        games=number,
        device_id=None,
    )


def test_migrations_run_once_and_in_order(store_url: str) -> None:
    first = HostStore(store_url)
    assert first.applied == tuple(m.name for m in MIGRATIONS)
    first.close()
    again = HostStore(store_url)
    assert again.applied == ()
    assert again.migrations_applied() == [m.name for m in MIGRATIONS]
    again.close()


def test_a_revision_is_stored_once_and_a_different_body_kept_aside(store: HostStore) -> None:
    sheet = uuid.uuid4()
    first = store.store_revision(revision(sheet, 3, b'{"n": 1}'))
    assert first.status == "stored"
    assert store.store_revision(revision(sheet, 3, b'{"n": 1}')).status == "already_stored"
    other = store.store_revision(revision(sheet, 3, b'{"n": 2}'))
    assert other.status == "conflict"
    assert other.stored.body == '{"n": 1}'
    store.store_revision(revision(sheet, 3, b'{"n": 2}'))  # the same conflicting body again: kept once
    stored = store.revision(sheet, 3)
    assert stored is not None and stored.body == '{"n": 1}'
    [conflict] = store.conflicts("kathrein-2026")
    assert (conflict.sheet_id, conflict.revision, conflict.body) == (sheet, 3, '{"n": 2}')
    assert conflict.stored_sha256 == hashlib.sha256(b'{"n": 1}').hexdigest()
    assert len(store.all_revisions()) == 1


def test_older_revisions_are_kept_beside_newer_ones(store: HostStore) -> None:
    sheet = uuid.uuid4()
    for number in (5, 2, 7):
        assert store.store_revision(revision(sheet, number, f'{{"r": {number}}}'.encode())).status == "stored"
    latest = store.latest(sheet)
    assert latest is not None and latest.revision == 7
    assert [r.revision for r in store.all_revisions()] == [2, 5, 7]
    assert store.revision(sheet, 4) is None


def test_the_database_itself_refuses_to_change_or_remove_a_revision(store: HostStore) -> None:
    sheet = uuid.uuid4()
    store.store_revision(revision(sheet, 1, b'{"a": 1}'))
    for statement in ("UPDATE revisions SET body = 'x'", "DELETE FROM revisions"):
        with pytest.raises(DBAPIError, match="nie geändert oder gelöscht"), store.engine.begin() as conn:
            conn.execute(text(statement))
    stored = store.revision(sheet, 1)
    assert stored is not None and stored.body == '{"a": 1}'


def test_latest_per_sheet_of_one_table(store: HostStore) -> None:
    a, b, elsewhere = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    store.store_revision(revision(a, 1))
    store.store_revision(revision(a, 2, b"[2]"))
    store.store_revision(revision(b, 1, written_by="B"))
    store.store_revision(revision(elsewhere, 1, table=5))
    table = store.latest_per_sheet("kathrein-2026", round_label="Durchgang", round=1, table=4)
    assert {(r.sheet_id, r.revision) for r in table} == {(a, 2), (b, 1)}
    assert len(store.latest_per_sheet("kathrein-2026")) == 3


def test_what_every_sheet_asks_of_its_table_comes_from_memory_as_the_database_says_it(store: HostStore, store_url: str) -> None:
    """Issue 24: for a tournament it writes, the host answers a table's latest sheets and whether the
    Turnierleitung decided on it from memory (``_OwnTables``). A second store on the same database,
    which does not know it owns the tournament, asks the database: both must always agree, whether a
    revision came before the first question (the load) or after it (each commit adds it)."""
    reference = HostStore(store_url)
    try:
        assert not reference.owns_known("kathrein-2026") and store.owns_known("kathrein-2026")
        a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()

        def agree() -> None:
            for table in (4, 5, 6):
                for label in ("Durchgang", "Runde"):
                    key = {"round_label": label, "round": 1, "table": table}
                    mine = store.latest_per_sheet("kathrein-2026", **key)  # type: ignore[arg-type]
                    assert mine == reference.latest_per_sheet("kathrein-2026", **key)  # type: ignore[arg-type]
                assert store.has_decision("kathrein-2026", 1, table) == reference.has_decision("kathrein-2026", 1, table)

        store.store_revision(revision(a, 1))  # before the first question: found by the load
        agree()
        with ThreadPoolExecutor(4) as pool:  # after it: added by the group commit's batches
            list(
                pool.map(store.store_revision, [revision(a, 3, b"[3]"), revision(b, 1, written_by="B"), revision(c, 2, table=5)])
            )
        store.store_revision(revision(a, 2, b"[2]"))  # an older revision arriving late leaves the latest
        store.store_revision(revision(b, 1, b"[other]", written_by="B"))  # a conflict is not a revision
        agree()
        assert {
            (r.sheet_id, r.revision) for r in store.latest_per_sheet("kathrein-2026", round_label="Durchgang", round=1, table=4)
        } == {
            (a, 3),
            (b, 1),
        }
        decision = DecisionRecord(0, "kathrein-2026", 1, 5, "entscheidung", c, 2, "Turnierleitung", "Test", "", datetime.now(UTC))
        store.add_decision(decision)
        agree()
        assert store.has_decision("kathrein-2026", 1, 5) and not store.has_decision("kathrein-2026", 1, 4)
    finally:
        reference.close()


def test_concurrent_submissions_of_one_revision_store_it_once(store: HostStore) -> None:
    sheet = uuid.uuid4()
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: store.store_revision(revision(sheet, 1, b'{"same": true}')).status, range(16)))
    assert results.count("stored") == 1
    assert results.count("already_stored") == 15
    assert len(store.all_revisions()) == 1


def test_devices_are_found_by_their_token_hash_only(store: HostStore) -> None:
    device = store.add_device("kathrein-2026", 3, "A", "Handy Sepp", "ab" * 32)
    assert store.device_by_token("ab" * 32) == device
    assert store.device_by_token("cd" * 32) is None


def test_the_first_organizer_password_stays(store: HostStore) -> None:
    assert store.set_setting_once("organizer_password", "hash-1") == "hash-1"
    assert store.set_setting_once("organizer_password", "hash-2") == "hash-1"
    current = store.current_tournament()
    assert current is not None and current.join_code == "K7P4Q2"


def test_hosts_starting_at_once_agree_on_the_first_password(store_url: str) -> None:
    """Hosts of a league start at the same moment on one empty database: each sets the organizer's
    password once; none dies on a duplicate key, and all see the same one (the first one set)."""
    HostStore(store_url).close()  # the schema, as the first host's migrations leave it
    stores = [HostStore(store_url) for _ in range(6)]
    go = threading.Barrier(len(stores))

    def first_password(store: HostStore, number: int) -> str:
        go.wait()
        return store.set_setting_once("organizer_password", f"hash-{number}")

    with ThreadPoolExecutor(len(stores)) as pool:
        seen = list(pool.map(first_password, stores, range(len(stores))))
    for store in stores:
        store.close()
    assert len(set(seen)) == 1 and seen[0].startswith("hash-"), seen


def test_sqlite_commits_durably(tmp_path: Path) -> None:
    store = HostStore.open(tmp_path)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    assert (tmp_path / "host.sqlite3").exists()
    store.close()


def test_a_bad_revision_among_concurrent_ones_fails_alone(store: HostStore) -> None:
    """SQLite commits waiting revisions together (group commit); one that breaks a constraint
    (here: an unknown tournament) must not take the others down with it."""
    good = [revision(uuid.uuid4(), 1, f'{{"n": {n}}}'.encode(), table=n) for n in range(1, 31)]
    bad = replace(revision(uuid.uuid4(), 1, b'{"bad": 1}'), tournament_id="gibt-es-nicht")

    def attempt(new: NewRevision) -> str:
        try:
            return store.store_revision(new).status
        except (RuntimeError, DBAPIError):
            return "refused"

    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(attempt, [*good[:15], bad, *good[15:]]))
    assert results.count("stored") == 30
    assert results[15] == "refused"
    assert len(store.all_revisions()) == 30


# The statements an arriving sheet runs, with the columns of an index SQLite must search them by: a
# search by fewer columns reads every row of the tournament's earlier rounds for every sheet, so the
# host slowed down round after round (the claims, issue 24). Checked with SQLite's own plan.
ARRIVING_STATEMENTS: dict[str, tuple[dict[str, object], str]] = {
    "_SHEETS_THERE": ({"ids": ["a", "b"]}, "sheet_id=?"),
    "_CLAIMS_AT": (
        {"ts": ["kathrein-2026"], "ls": ["Durchgang"], "rs": [1], "ns": [3, 4]},
        "tournament_id=? AND round_label=? AND round=? AND table_no=?",
    ),
    "_TABLE_LATEST": (
        {"t": "kathrein-2026", "l": "Durchgang", "r": 1, "n": 4},
        "tournament_id=? AND round_label=? AND round=? AND table_no=?",
    ),
    "_HAS_DECISION": ({"t": "kathrein-2026", "r": 1, "n": 4}, "tournament_id=? AND round=? AND table_no=?"),
}


@pytest.mark.parametrize("name", sorted(ARRIVING_STATEMENTS))
def test_what_an_arriving_sheet_reads_is_searched_by_the_whole_key(tmp_path: Path, name: str) -> None:
    params, searched_by = ARRIVING_STATEMENTS[name]
    opened = HostStore(f"sqlite:///{tmp_path / 'host.sqlite3'}")
    try:
        statement = getattr(store_module, name)
        sql = str(statement.params(**params).compile(opened.engine, compile_kwargs={"literal_binds": True}))
        with opened.engine.connect() as conn:
            plan = [row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]
    finally:
        opened.close()
    scans = [line for line in plan if line.startswith("SCAN") and not line.startswith("SCAN anon_")]  # anon_: its subquery
    assert not scans, plan
    assert any(f"({searched_by})" in line or f"({searched_by} " in line for line in plan), plan
