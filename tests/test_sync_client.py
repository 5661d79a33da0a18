"""The phone's side of sync against the real host process on 127.0.0.1: joining, pinning, the outbox, the service."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from urllib3.util.retry import Retry

from scoring import Entry, Sheet
from storage import SheetStore, StorageError, SyncMark, SyncState
from sync.client import (
    CertificateMismatch,
    Credentials,
    HostClient,
    HostUnreachable,
    JoinRefused,
    NotAuthorized,
    SheetRefused,
    credentials_path,
    forget_credentials,
    join,
    load_credentials,
    save_credentials,
)
from sync.outbox import Outbox, SheetSync, SheetSyncState, SyncService
from sync.protocol import InvalidJoinLine, JoinLine

from .conftest import wait_for
from .faultproxy import CLEAN, Fault, FaultProxy, FaultSchedule
from .hostproc import JOIN_CODE, HostProcess, running_host
from .sync_helpers import watten_sheet

OVERRIDE = "Turnierleitung: Zeit abgelaufen"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as process:
        yield process


def phone(
    tmp_path: Path, host: HostProcess, table: int, team: str | None = "A", name: str = "handy"
) -> tuple[SheetStore, Credentials]:
    store = SheetStore(tmp_path / f"{name}-{table}-{team}", device=name)
    credentials = join(host.line, table, team, f"{name} Tisch {table}")
    save_credentials(store.root, credentials)
    return store, credentials


def stored_sheet(
    store: SheetStore, credentials: Credentials, *, close: bool = True, games: int | None = None, seed: int = 1
) -> Sheet:
    sheet = watten_sheet(
        random.Random(seed),
        tournament=credentials.tournament_id,
        table=credentials.table,
        written_by=credentials.team,
        close=close,
        games=games,
    )
    return store.create(sheet)


# -- joining ------------------------------------------------------------------------------------
def test_join_with_the_join_line_keeps_the_token_0600_and_never_shows_it(tmp_path: Path, host: HostProcess) -> None:
    store, credentials = phone(tmp_path, host, table=3)
    token = credentials.device_token.get_secret_value()
    assert len(token) >= 40
    assert credentials.tournament_name == host.tournament and credentials.table == 3 and credentials.team == "A"
    assert credentials.fingerprint == host.fingerprint
    path = credentials_path(store.root)
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_credentials(store.root) == credentials
    client = HostClient.for_credentials(credentials)
    for shown in (repr(credentials), str(credentials), repr(client), credentials.model_dump_json()):
        assert token not in shown
    assert not any(token in line for line in host.output), "the host never logs a token"
    client.close()


def test_damaged_credentials_say_so_and_leaving_the_tournament_keeps_the_sheets(tmp_path: Path, host: HostProcess) -> None:
    store, credentials = phone(tmp_path, host, table=3, name="kaputt")
    sheet = stored_sheet(store, credentials)
    credentials_path(store.root).write_text('{"url": "https://x"', encoding="utf-8")
    with pytest.raises(StorageError, match=r"Anmeldung beim Turnier .* kann nicht gelesen werden.*neu beitreten"):
        load_credentials(store.root)
    forget_credentials(store.root)
    assert load_credentials(store.root) is None
    assert store.open(sheet.id) == sheet


def test_join_with_url_and_code(tmp_path: Path, host: HostProcess) -> None:
    credentials = join(host.url, 5, None, "Handy ohne Zeile", code=JOIN_CODE.lower(), fingerprint=host.fingerprint)
    assert credentials.table == 5 and credentials.team is None


def test_a_wrong_join_code_is_refused_in_german(host: HostProcess) -> None:
    line = JoinLine(url=host.url, code="FALSCH99", fingerprint=host.fingerprint).format()
    with pytest.raises(JoinRefused, match="Beitrittscode stimmt nicht"):
        join(line, 3, "A", "Handy")


def test_invalid_join_details_are_refused_in_german_before_anything_is_sent() -> None:
    with HostClient("http://127.0.0.1:9") as client, pytest.raises(JoinRefused, match="ungültig") as error:
        client.join("WATT2026", 0, "A", "Handy")
    assert "Tisch: mindestens 1, nicht 0" in str(error.value) and "Field" not in str(error.value)


def test_a_broken_join_line_and_a_missing_code_say_what_is_wrong(host: HostProcess) -> None:
    with pytest.raises(InvalidJoinLine, match="Fingerabdruck"):
        join(f"tischblock://join?url={host.url}&code=X", 3, "A", "Handy")
    with pytest.raises(InvalidJoinLine, match="Beitrittscode"):
        join(host.url, 3, "A", "Handy", fingerprint=host.fingerprint)


def test_an_unreachable_host_is_named_in_german() -> None:
    with (
        HostClient("http://127.0.0.1:9", retry=Retry(total=1, backoff_factor=0)) as client,
        pytest.raises(HostUnreachable) as error,
    ):
        client.info()
    assert "nicht erreichbar" in str(error.value)


# -- pinning ------------------------------------------------------------------------------------
def test_a_phone_pinned_to_one_certificate_refuses_a_host_with_another(tmp_path: Path) -> None:
    """A look-alike host at the very same address (another certificate) gets nothing, not even the token."""
    first = HostProcess(tmp_path / "echt").start()
    try:
        store, credentials = phone(tmp_path, first, table=2)
        stored_sheet(store, credentials)
    finally:
        first.stop()
    impostor = HostProcess(tmp_path / "falsch", port=first.port).start()
    try:
        assert impostor.fingerprint != first.fingerprint
        with HostClient.for_credentials(credentials) as client:
            with pytest.raises(CertificateMismatch, match="anderes Zertifikat"):
                client.info()
            outbox = Outbox(store, client, credentials)
            for info in store.list_sheets():
                outbox.queue(info.id)
            report = outbox.send_pending()
        assert report.problem is not None and "anderes Zertifikat" in report.problem
        assert report.acknowledged == ()
        assert impostor.stored_revisions() == []
        token = credentials.device_token.get_secret_value()
        assert not any(token in line for line in impostor.output)
        assert [s.state for s in outbox.statuses()] == [SheetSyncState.WAITING]
    finally:
        impostor.stop()


# -- the outbox ---------------------------------------------------------------------------------
def test_closing_queues_and_only_the_hosts_answer_marks_a_revision_acknowledged(tmp_path: Path, host: HostProcess) -> None:
    store, credentials = phone(tmp_path, host, table=7)
    home_game = store.create(watten_sheet(random.Random(9), tournament=None or "privat", table=1, close=False, games=2))
    sheet = stored_sheet(store, credentials, close=False, games=6)
    with HostClient.for_credentials(credentials) as client:
        outbox = Outbox(store, client, credentials)
        assert outbox.pending() == [], "nothing is sent before it is queued"
        assert outbox.status(sheet.id).state is SheetSyncState.NOT_SENT
        closed = outbox.close_and_queue(sheet.id, "Sepp", OVERRIDE)
        assert outbox.status(sheet.id).state is SheetSyncState.WAITING
        report = outbox.send_pending()
        assert report.complete and report.acknowledged == ((sheet.id, len(closed.entries)),)
        state = outbox.status(sheet.id)
        assert state.state is SheetSyncState.AT_ORGANIZER and state.acknowledged_revision == 7
        assert state.label == "beim Veranstalter"
        assert store.stored(sheet.id).sync.state is SyncState.ACKNOWLEDGED
        assert outbox.send_pending().acknowledged == (), "an acknowledged revision is not sent again"
        # a correction after the close is a new revision: pending again, sent, stored beside the first
        store.correct(sheet.id, 1, "game", {"winner": "A" if closed.entries[0].data["winner"] == "B" else "B"}, "falsch notiert")
        assert outbox.status(sheet.id).state is SheetSyncState.WAITING
        assert outbox.send_pending().acknowledged == ((sheet.id, 8),)
    assert outbox.status(home_game.id).state is SheetSyncState.NOT_SENT
    on_host = {(sid, rev) for sid, rev, _ in host.stored_revisions() if sid == str(sheet.id)}
    assert on_host == {(str(sheet.id), 7), (str(sheet.id), 8)}
    body = next(b for sid, rev, b in host.stored_revisions() if sid == str(sheet.id) and rev == 8)
    assert Sheet.from_json(body) == store.open(sheet.id)


def test_a_status_that_says_at_the_organizer_has_the_hosts_comparison_with_it(
    tmp_path: Path, host: HostProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a screen reads while the sender is busy: the moment the revision counts as "beim Veranstalter"
    the host's comparison is there too (in the whole suite, a phone read the state between the two and
    found it at the organizer without the comparison the host had answered)."""
    store_a, credentials_a = phone(tmp_path, host, table=8, team="A", name="handy-a")
    store_b, credentials_b = phone(tmp_path, host, table=8, team="B", name="handy-b")
    sheet_a = stored_sheet(store_a, credentials_a, seed=5)
    sheet_b = stored_sheet(store_b, credentials_b, seed=5)
    with HostClient.for_credentials(credentials_a) as client:
        assert Outbox(store_a, client, credentials_a).send(sheet_a.id) is not None
    seen: list[SheetSync] = []
    with HostClient.for_credentials(credentials_b) as client:
        outbox = Outbox(store_b, client, credentials_b)
        acknowledge = store_b.mark_acknowledged

        def acknowledge_and_look(sheet_id: uuid.UUID | str, revision: int) -> SyncMark:
            mark = acknowledge(sheet_id, revision)
            seen.append(outbox.status(sheet_b.id))
            return mark

        monkeypatch.setattr(store_b, "mark_acknowledged", acknowledge_and_look)
        answer = outbox.send(sheet_b.id)
    assert answer is not None and answer.comparison is not None and answer.comparison.agree
    assert [(s.state, s.comparison) for s in seen] == [(SheetSyncState.AT_ORGANIZER, answer.comparison.message)]


def test_a_sheet_of_another_table_is_refused_here_and_by_the_host(tmp_path: Path, host: HostProcess) -> None:
    store, credentials = phone(tmp_path, host, table=3)
    other = Credentials.model_validate({**credentials.model_dump(), "table": 4, "device_token": credentials.device_token})
    sheet = stored_sheet(store, other)
    with HostClient.for_credentials(credentials) as client:
        with pytest.raises(NotAuthorized, match="nur Blätter von Tisch 3"):
            client.submit(sheet)
        outbox = Outbox(store, client, credentials)
        outbox.queue(sheet.id)
        report = outbox.send_pending()
    assert report.complete and report.acknowledged == ()
    [(sid, message)] = report.refused
    assert sid == sheet.id and "Tisch 4" in message and "Tisch 3" in message
    state = outbox.status(sheet.id)
    assert state.state is SheetSyncState.REFUSED and state.message == message
    assert outbox.pending() == [], "a refused revision is not retried blindly"


def test_a_sheet_the_rules_refuse_gets_the_rules_message(tmp_path: Path, host: HostProcess) -> None:
    _, credentials = phone(tmp_path, host, table=8)
    sheet = watten_sheet(random.Random(2), tournament=credentials.tournament_id, table=8, close=False, games=3)
    broken = sheet.with_entry(Entry(kind="game", data={"winner": "A", "value": 1}))
    with HostClient.for_credentials(credentials) as client, pytest.raises(SheetRefused) as error:
        client.submit(broken)
    assert "nimmt das Blatt nicht an" in str(error.value) and "4. Spiel" in str(error.value)


def test_a_conflict_is_recorded_and_not_retried_until_asked(tmp_path: Path, host: HostProcess) -> None:
    # The same phone twice (its store restored from an older backup beside the one that went on): a
    # conflict is kept only for the sheet's own writer; another phone for the side is refused (issue 20).
    store_a, creds_a = phone(tmp_path, host, table=9, name="erstes")
    store_b, _ = phone(tmp_path, host, table=9, name="zweites")
    creds_b = creds_a
    sheet = stored_sheet(store_a, creds_a, close=False, games=3)
    store_b.create(sheet)
    store_a.add_game(sheet.id, {"winner": "A"})
    store_b.add_game(sheet.id, {"winner": "B"})  # the same revision 4, other content
    with HostClient.for_credentials(creds_a) as client_a, HostClient.for_credentials(creds_b) as client_b:
        first, second = Outbox(store_a, client_a, creds_a), Outbox(store_b, client_b, creds_b)
        first.queue(sheet.id)
        second.queue(sheet.id)
        assert first.send_pending().acknowledged == ((sheet.id, 4),)
        report = second.send_pending()
        [(_, message)] = report.refused
        assert "schon mit anderem Inhalt" in message
        assert second.status(sheet.id).state is SheetSyncState.REFUSED
        assert host.conflicts() >= 1, "the other body is kept aside for the organizer"

        def conflicts_logged() -> int:
            return sum("KONFLIKT" in line for line in host.output)

        def barrier(name: str) -> int:
            """The conflicts logged before a join made now: the host logs in order, so once the join is
            in its log, every conflict sent before it is there too (a barrier, not a pause)."""
            phone(tmp_path, host, table=9, name=name)
            wait_for(
                "the host's log line of the join",
                lambda: any(f"Gerät '{name} Tisch 9' beigetreten" in line for line in host.output),
            )
            return conflicts_logged()

        seen = barrier("zeuge-1")
        assert second.send_pending().refused == (), "not sent again by itself"
        assert barrier("zeuge-2") == seen
        second.retry(sheet.id)
        assert second.send_pending().refused != ()
        assert barrier("zeuge-3") == seen + 1
    stored = [Sheet.from_json(b) for sid, rev, b in host.stored_revisions() if sid == str(sheet.id)]
    assert stored == [store_a.open(sheet.id)], "the host kept the first revision 4"


def test_after_a_lost_reply_the_outbox_asks_before_sending_again(tmp_path: Path) -> None:
    with running_host(tmp_path / "host", https=False) as host:
        store, credentials = phone(tmp_path, host, table=11)
        sheet = stored_sheet(store, credentials)
        with FaultProxy(host.port, FaultSchedule(lose_reply=1.0)) as proxy:
            via_proxy = credentials.model_copy(update={"url": proxy.url})
            with HostClient.for_credentials(via_proxy, retry=Retry(total=0)) as client:
                outbox = Outbox(store, client, via_proxy)
                outbox.queue(sheet.id)
                report = outbox.send_pending()
                assert report.problem is not None and "nicht erreichbar" in report.problem
                assert outbox.status(sheet.id).state is SheetSyncState.WAITING, "no answer: not acknowledged"
                assert [(s, r) for s, r, _ in host.stored_revisions()] == [(str(sheet.id), len(sheet.entries))]
                proxy.schedule = CLEAN
                assert outbox.send_pending().acknowledged == ((sheet.id, len(sheet.entries)),)
        assert not any("bereits gespeichert" in line for line in host.output), "asked with GET, not sent twice"
        assert outbox.status(sheet.id).state is SheetSyncState.AT_ORGANIZER


def test_the_retry_of_urllib3_resends_after_a_lost_reply_and_the_host_stores_once(tmp_path: Path) -> None:
    with running_host(tmp_path / "host", https=False) as host:
        store, credentials = phone(tmp_path, host, table=12)
        sheet = stored_sheet(store, credentials)
        with FaultProxy(host.port, plan=[Fault.LOSE_REPLY]) as proxy:
            via_proxy = credentials.model_copy(update={"url": proxy.url})
            # the first PUT loses its reply; urllib3 resends it on a new connection: "already stored"
            with HostClient.for_credentials(
                via_proxy, retry=Retry(total=5, backoff_factor=0.2, allowed_methods={"PUT"})
            ) as client:
                answer = client.submit(sheet)
            assert proxy.stats["replies_lost"] == 1
        assert answer.status == "already_stored" and answer.revision == len(sheet.entries)
        assert [(s, r) for s, r, _ in host.stored_revisions()] == [(str(sheet.id), len(sheet.entries))]


# -- the background service ---------------------------------------------------------------------
def test_the_service_sends_in_the_background_waits_out_a_host_restart_and_reports_each_change(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "host").start()
    try:
        store, credentials = phone(tmp_path, host, table=6)
        first = stored_sheet(store, credentials, close=False, games=5, seed=3)
        second = stored_sheet(store, credentials, close=False, games=4, seed=4)
        seen: list[tuple[dict[str, SheetSyncState], str | None]] = []

        def on_change(states: list[SheetSync], problem: str | None) -> None:
            seen.append(({str(s.sheet_id): s.state for s in states}, problem))

        service = SyncService(store, credentials, on_change=on_change, backoff_min=0.2, backoff_max=1.0, poll=30.0)
        service.start()
        try:
            service.close_and_queue(first.id, "Sepp", OVERRIDE)
            wait_for("the first sheet at the organizer", lambda: service.status(first.id).state is SheetSyncState.AT_ORGANIZER)
            host.kill()
            service.close_and_queue(second.id, "Sepp", OVERRIDE)
            wait_for("a problem shown", lambda: service.problem is not None)
            assert "nicht erreichbar" in (service.problem or "")
            assert service.status(second.id).state is SheetSyncState.WAITING
            host.start()
            wait_for("the second sheet at the organizer", lambda: service.status(second.id).state is SheetSyncState.AT_ORGANIZER)
            wait_for("the problem gone", lambda: service.problem is None)
        finally:
            service.stop()
        assert not service.running
        states = [s for s, _ in seen]
        assert {str(first.id): SheetSyncState.AT_ORGANIZER, str(second.id): SheetSyncState.NOT_SENT} in states
        assert any(problem and "nicht erreichbar" in problem for _, problem in seen)
        assert seen[-1] == ({str(first.id): SheetSyncState.AT_ORGANIZER, str(second.id): SheetSyncState.AT_ORGANIZER}, None)
        assert {(s, r) for s, r, _ in host.stored_revisions()} == {(str(first.id), 6), (str(second.id), 5)}
    finally:
        host.stop()


def test_a_failing_listener_does_not_stop_the_sender_and_stop_is_prompt(tmp_path: Path, host: HostProcess) -> None:
    store, credentials = phone(tmp_path, host, table=13)
    sheet = stored_sheet(store, credentials, close=False, games=4)
    calls: list[int] = []

    def broken_screen(states: list[SheetSync], problem: str | None) -> None:
        calls.append(len(states))
        raise RuntimeError("the screen is gone")

    service = SyncService(store, credentials, on_change=broken_screen, poll=300.0).start()
    try:
        service.close_and_queue(sheet.id, "Sepp", OVERRIDE)
        wait_for("the sheet at the organizer", lambda: service.status(sheet.id).state is SheetSyncState.AT_ORGANIZER)
        # The sender tells the listener after it has stored the state, on its own thread: wait for the call
        # (checked at once, it was not made yet in one run of the suite, 29 Nov 08:38).
        wait_for("a call to the host", lambda: bool(calls))
        assert service.running
    finally:
        began = time.monotonic()
        service.stop()
    assert time.monotonic() - began < 5, "stop does not wait for the next poll"
    assert not service.running
