"""Arriving sheets checked in worker processes (``sync/host/checking.py``, issue 24): the same
answer as checking in the host's own process, for good sheets, sheets the ruleset refuses and
bodies that are no sheet; a dead worker costs no answer; a killed host leaves no worker behind."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.exceptions import RequestValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import RuleViolation, Sheet, score_sheet
from scoring.compare import tally
from sync.host import checking
from sync.host.checking import Checked, Head, SheetChecker, check_sheet
from sync.host.http import json_body

from .conftest import checkout_env, wait_for
from .host_helpers import free_port, start_host, watten_sheet

ROOT = Path(__file__).resolve().parent
SHEETS = sorted(p for p in (ROOT / "data").glob("*/*.json") if p.parent.name != "tournament")
JSON = "application/json"


def _body(path: Path) -> bytes:
    """A real scoresheet's sheet as a phone sends it (the data file holds it under ``sheet``)."""
    sheet = json.loads(path.read_text(encoding="utf-8"))["sheet"]
    sheet.setdefault("id", str(uuid.uuid5(uuid.NAMESPACE_URL, path.name)))  # a phone's sheet always has its id
    return json.dumps(sheet, ensure_ascii=False).encode("utf-8")


@pytest.fixture(scope="module", name="checker")
def checker_fixture() -> Iterator[SheetChecker]:
    running = SheetChecker(2)
    try:
        wait_for("die Prüf-Prozesse laufen", lambda: running.in_workers)
        yield running
    finally:
        running.close()


def _expected(body: bytes) -> Checked:
    """What checking ``body`` in this process makes of it."""
    return check_sheet(body, JSON)


def test_every_real_sheet_gets_the_same_answer_from_a_worker_as_in_the_host(
    checker: SheetChecker, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(SHEETS) >= 20
    files = [_body(path) for path in SHEETS]
    # each sheet in plain JSON, and as a phone sends it (its canonical JSON: a worker sends those back
    # without the body, ``AS_SENT``, and the host puts the body it has in its place)
    canonical = [Sheet.model_validate_json(body).to_json().encode("utf-8") for body in files]
    assert not set(files) & set(canonical)  # ``_body`` writes no canonical JSON: both ways are taken
    bodies = [*files, *canonical]
    names = [*SHEETS, *(path.with_suffix(".canonical") for path in SHEETS)]
    expected = [_expected(body) for body in bodies]
    assert any(e.refusal for e in expected) and any(e.closed for e in expected)  # both kinds are among them
    for body, made in zip(bodies, expected, strict=True):  # what the host stored and kept before the workers
        sheet = Sheet.model_validate_json(body)
        assert made.head == Head.of(sheet) and made.entries == len(sheet.entries)
        assert (made.head.id, made.head.table, made.head.written_by) == (sheet.id, sheet.context.table, sheet.context.written_by)
        if made.refusal is not None:
            with pytest.raises(RuleViolation) as refused:
                score_sheet(sheet)
            assert str(refused.value) == made.refusal
            continue
        assert made.canonical == sheet.to_json().encode("utf-8")
        assert made.sha256 == hashlib.sha256(made.canonical).hexdigest()
        assert made.tally == tally(sheet, score_sheet(sheet))

    def not_here(body: bytes, content_type: str | None) -> Checked:
        raise AssertionError("checked in the test's process, not in a worker")

    monkeypatch.setattr(checking, "check_sheet", not_here)  # the workers' own module is not patched
    for path, body, wanted in zip(names, bodies, expected, strict=True):
        assert checker.check(body, JSON) == wanted, path.name


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=200), st.just(b""), st.just(b'{"id": 1}'), st.just(b"[" * 5000)))
def test_a_body_that_is_no_sheet_gets_the_refusal_fastapi_would_give(checker: SheetChecker, body: bytes) -> None:
    with pytest.raises(Exception) as local:
        json_body(Sheet, body, JSON)
    with pytest.raises(type(local.value)) as through_checker:
        checker.check(body, JSON)
    if isinstance(local.value, RequestValidationError):
        assert isinstance(through_checker.value, RequestValidationError)
        assert through_checker.value.errors() == local.value.errors()


def test_sheets_that_arrive_together_go_to_a_worker_together() -> None:
    """While a worker checks one sheet, those that arrive meanwhile wait together and go to it as one
    task (``BATCH``), each with its own answer."""
    bodies = [_body(path) for path in SHEETS[:12]]
    running = SheetChecker(1)
    tasks: list[int] = []
    holding, go = threading.Event(), threading.Event()
    try:
        wait_for("der Prüf-Prozess läuft", lambda: running.in_workers)
        pool = running._pool
        assert pool is not None
        submit = pool.submit

        def counted(fn: Any, batch: list[Any]) -> Any:
            tasks.append(len(batch))
            if len(tasks) == 1:  # the first task waits until the others have queued behind it
                holding.set()
                go.wait(60)
            return submit(fn, batch)

        pool.submit = counted  # type: ignore[method-assign]
        with ThreadPoolExecutor(len(bodies)) as phones:
            first = phones.submit(running.check, bodies[0], JSON)
            wait_for("die erste Prüfung ist unterwegs", holding.is_set)
            rest = [phones.submit(running.check, body, JSON) for body in bodies[1:]]
            wait_for("die anderen warten", lambda: running._waiting.qsize() == len(bodies) - 1)
            go.set()
            answers = [first.result(60), *(future.result(60) for future in rest)]
        assert answers == [_expected(body) for body in bodies]
        assert tasks == [1, len(bodies) - 1]
    finally:
        go.set()
        running.close()


def test_a_dead_worker_costs_no_answer_and_the_workers_start_again() -> None:
    body = _body(SHEETS[0])
    running = SheetChecker(2)
    try:
        wait_for("die Prüf-Prozesse laufen", lambda: running.in_workers and len(running.workers()) == 2)
        first = running.workers()
        os.kill(first[0], signal.SIGKILL)
        wait_for("der Prozess ist beendet", lambda: _zombie(first[0]))

        def answered_and_restarted() -> bool:
            # Every check is answered: by the other worker until the pool sees the death, then
            # (the pool broken) in this process while a new pool starts, then by the new workers.
            assert running.check(body, JSON) == _expected(body)
            return running.in_workers and len(running.workers()) == 2 and not set(running.workers()) & set(first)

        wait_for("neue Prüf-Prozesse laufen", answered_and_restarted)
        assert running.check(body, JSON) == _expected(body)
    finally:
        running.close()
    assert running.workers() == [] and not running.in_workers
    assert running.check(body, JSON) == _expected(body)  # after the end: in the caller's thread


def test_ctrl_c_at_the_terminal_ends_the_host_not_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker must not die of it (a traceback
    per worker on the organizer's screen, the pool broken while the host shuts down gracefully)."""
    body = _body(SHEETS[0])
    expected = _expected(body)
    running = SheetChecker(1)
    try:
        wait_for("der Prüf-Prozess läuft", lambda: running.in_workers and len(running.workers()) == 1)
        worker = running.workers()[0]
        os.kill(worker, signal.SIGINT)

        def not_here(body: bytes, content_type: str | None) -> Checked:
            raise AssertionError("the worker died of SIGINT: checked in the test's process")

        monkeypatch.setattr(checking, "check_sheet", not_here)
        assert running.check(body, JSON) == expected
        assert running.workers() == [worker] and not _zombie(worker)
    finally:
        running.close()


def test_workers_that_cannot_start_leave_the_checks_to_the_host(caplog: pytest.LogCaptureFixture) -> None:
    body = _body(SHEETS[0])
    running = SheetChecker(0)
    running.processes, running._cores = 1, frozenset({1_000_000})  # no such core: each worker dies at its start
    running._start()
    try:
        wait_for("der Host gibt die Prüf-Prozesse auf", lambda: "Prüf-Prozesse starten nicht" in caplog.text)
        assert not running.in_workers and running.workers() == []
        assert running.check(body, JSON) == _expected(body)
    finally:
        running.close()


def test_without_workers_the_host_checks_in_its_own_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    running = SheetChecker(0)
    assert not running.in_workers and running.workers() == []
    body = _body(SHEETS[0])
    assert running.check(body, JSON) == check_sheet(body, JSON) == _expected(body)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _children(pid: int) -> set[int]:
    """The living processes ``pid`` started (its check processes and multiprocessing's resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def _workers(pid: int) -> set[int]:
    """``pid``'s check processes: the children multiprocessing spawned to run tasks."""
    found = set()
    for child in _children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


def test_the_host_checks_in_workers_and_a_killed_host_leaves_none_behind(tmp_path: Path) -> None:
    host = start_host(tmp_path, "--check-processes", "2")
    try:
        assert host.process is not None
        pid = host.process.pid
        wait_for("der Host hat zwei Prüf-Prozesse", lambda: len(_workers(pid)) == 2)
        started = _children(pid)
        wait_for("der Host meldet sie", lambda: "Ankommende Blätter prüfen 2 Prüf-Prozesse" in host.terminal())
        token = host.join(table=3, team="A")["device_token"]
        sheet = watten_sheet(host.join(table=3, team="B")["tournament_id"], 3)
        reply = host.put(sheet, token)  # checked in a worker: the host reported them ready before
        assert reply.status_code == 201, reply.text
        assert reply.json()["closed"] is True
        assert host.put(sheet, token).json()["status"] == "already_stored"
        after_close = sheet.model_copy(update={"entries": (*sheet.entries, sheet.entries[0])})
        refused = host.put(after_close, token)  # the ruleset's refusal, made in a worker
        assert refused.status_code == 422 and "abgeschlossen" in refused.text, refused.text
        host.kill()
        wait_for(
            "die Prüf-Prozesse enden mit dem Host",
            lambda: all(_zombie(child) for child in started),
        )
    finally:
        host.stop()


WITH_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN if sys.argv[1] else signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
)
"""Starts the rest of its arguments as a program with Ctrl-C ignored (first argument not empty) or at its
default; ``exec`` keeps an ignored signal ignored and the process id the same."""


def _host_in_a_terminal(tmp_path: Path, sigint: Any = signal.SIG_DFL) -> tuple[subprocess.Popen[bytes], Path]:
    """``tischblock host`` with two check processes in a session of its own, as in a terminal, started
    with Ctrl-C at ``sigint`` (as the test's own launcher left it, it depended on how pytest was
    started); its output goes to the returned log file."""
    ignored = "1" if sigint == signal.SIG_IGN else ""
    command = [
        sys.executable,
        "-c",
        WITH_SIGINT,
        ignored,
        "-m",
        "cli",
        "host",
        "--data-dir",
        str(tmp_path),
        "--host",
        "127.0.0.1",
    ]
    command += ["--port", str(free_port()), "--organizer-password", "geheim-123", "--tournament", "Strg-C-Turnier"]
    command += ["--no-qr", "--insecure-http", "--check-processes", "2"]
    log = tmp_path / "terminal.log"
    with log.open("wb") as out:
        host = subprocess.Popen(
            command,
            cwd=ROOT.parent,
            env=checkout_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return host, log


def test_ctrl_c_while_the_check_processes_start_leaves_no_traceback(tmp_path: Path) -> None:
    """Strg-C right after the start, while the check processes still import their modules (about half a
    second on this machine): each of them printed a KeyboardInterrupt traceback before it came to ignore
    Ctrl-C. They now start with Ctrl-C blocked (``SheetChecker._warm``)."""
    host, log = _host_in_a_terminal(tmp_path)
    try:
        wait_for("die Prüf-Prozesse laufen an", lambda: len(_workers(host.pid)) == 2)
        os.killpg(host.pid, signal.SIGINT)
        code = host.wait(30)
        text = log.read_text(encoding="utf-8")
        assert code == 0, f"exit {code}; the host printed:\n{text}"
        assert "Host beendet." in text and "Traceback" not in text and "KeyboardInterrupt" not in text, text
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait(10)


@pytest.mark.parametrize("sigint", [signal.SIG_DFL, signal.SIG_IGN], ids=["terminal", "started-with-ctrl-c-ignored"])
def test_ctrl_c_ends_the_host_with_its_workers_and_no_traceback(tmp_path: Path, sigint: Any) -> None:
    """The organizer ends the host with Strg-C, as its banner says: the terminal's whole process group
    gets SIGINT; the host shuts down, says so, and neither it nor a worker prints a traceback. Also when
    it was started with Ctrl-C ignored (a background job of a script): uvicorn ended it, silently."""
    host, log = _host_in_a_terminal(tmp_path, sigint)
    try:
        wait_for("der Host meldet seine Prüf-Prozesse", lambda: "Ankommende Blätter prüfen 2" in log.read_text(encoding="utf-8"))
        workers = _workers(host.pid)
        assert len(workers) == 2
        os.killpg(host.pid, signal.SIGINT)
        assert host.wait(30) == 0
        text = log.read_text(encoding="utf-8")
        assert "Host beendet." in text and "Traceback" not in text, text
        wait_for("die Prüf-Prozesse sind beendet", lambda: all(_zombie(pid) for pid in workers))
    finally:
        if host.poll() is None:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait(10)
