"""`tischblock host` as the organizer starts it: first start, later starts, clear errors, PostgreSQL."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from cli import main
from sync.client import PinnedAdapter
from sync.host.store import HostStore
from sync.protocol import JoinLine

from .conftest import checkout_env
from .host_helpers import PASSWORD, RunningHost, watten_sheet
from .pg_server import PostgresServer, free_port, postgres_server_fixture  # noqa: F401  (fixture)


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def host_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    """Run ``tischblock host ARGS`` in this process (stdin is no terminal here, as under CI)."""

    def run(*args: str) -> Done:
        code = main(["host", *args])
        out = capsys.readouterr()
        return Done(code, out.out, out.err)

    return run


def test_a_first_start_without_a_terminal_needs_the_password(host_cli: Callable[..., Done], tmp_path: Path) -> None:
    done = host_cli("--data-dir", str(tmp_path), "--tournament", "Kathrein", "--print-join")
    assert done.returncode == 1
    assert done.stderr.startswith("Fehler: Beim ersten Start braucht der Host ein Veranstalter-Passwort: --organizer-password")


def test_a_first_start_needs_the_tournaments_name(host_cli: Callable[..., Done], tmp_path: Path) -> None:
    done = host_cli("--data-dir", str(tmp_path), "--organizer-password", PASSWORD, "--print-join")
    assert done.returncode == 1
    assert "--tournament NAME" in done.stderr


def test_later_starts_keep_tournament_code_and_certificate_and_check_the_password(
    host_cli: Callable[..., Done], tmp_path: Path
) -> None:
    first = host_cli("--data-dir", str(tmp_path), "--tournament", "Kathrein", "--organizer-password", PASSWORD, "--print-join")
    assert first.returncode == 0, first.stderr
    again = host_cli("--data-dir", str(tmp_path), "--print-join", "--no-qr")
    assert again.returncode == 0, again.stderr
    line = [line for line in first.stdout.splitlines() if line.startswith("Beitritts-Zeile: ")]
    assert line and line[0] in again.stdout.splitlines()
    assert "Zertifikat erstellt" in first.stdout and "Zertifikat erstellt" not in again.stdout
    assert "\u2588" in first.stdout and "\u2588" not in again.stdout  # the QR code, unless --no-qr
    wrong = host_cli("--data-dir", str(tmp_path), "--organizer-password", "etwas-anderes", "--print-join")
    assert wrong.returncode == 1
    assert "stimmt nicht mit dem gespeicherten Veranstalter-Passwort überein" in wrong.stderr
    parsed = JoinLine.parse(line[0].removeprefix("Beitritts-Zeile: "))
    assert parsed.url.startswith("https://") and parsed.fingerprint is not None


def test_insecure_http_says_loudly_what_it_gives_up(host_cli: Callable[..., Done], tmp_path: Path) -> None:
    done = host_cli(
        "--data-dir",
        str(tmp_path),
        "--tournament",
        "Test",
        "--organizer-password",
        PASSWORD,
        "--insecure-http",
        "--print-join",
        "--no-qr",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("!!! ACHTUNG: --insecure-http: KEINE Verschlüsselung, KEIN Zertifikat.")
    assert "Beitritts-Zeile: tischblock://join?url=http://" in done.stdout
    assert "fp=" not in done.stdout
    assert not (tmp_path / "tls").exists()


def test_sigterm_stops_the_host_without_a_traceback(tmp_path: Path) -> None:
    running = RunningHost(tmp_path, free_port())
    running.start()
    running.stop()
    # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status tells how it ended
    assert running.process is not None and running.process.returncode in (0, -signal.SIGTERM)
    assert "Traceback" not in running.terminal()


class _Terminal:
    """A stdin that is a terminal, for the password question."""

    def isatty(self) -> bool:
        return True


def test_ctrl_c_at_the_password_question_says_so_without_a_traceback(
    host_cli: Callable[..., Done], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def ctrl_c(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr("getpass.getpass", ctrl_c)
    # the port first (sync/listen.py): a free one of its own, not 8443, which a test does not own
    done = host_cli("--data-dir", str(tmp_path), "--tournament", "Kathrein", "--host", "127.0.0.1", "--port", str(free_port()))
    assert (done.returncode, done.stderr) == (130, "Abgebrochen (Strg-C).\n")
    assert "Der Host läuft" not in done.stdout


CTRL_C_IN_MADE_CODE = """
import sys

import cli
import sync.host.run as run

made = run.create_app


def create_app(*args, **kwargs):
    # Ctrl-C arrives while the start runs code Python made from a string, as it makes a dataclass's methods
    exec("import os, signal\\nos.kill(os.getpid(), signal.SIGINT)\\nfor _ in range(1000):\\n    pass")
    return made(*args, **kwargs)


run.create_app = create_app
sys.exit(cli.main(sys.argv[1:]))
"""
"""``tischblock host`` with a Ctrl-C at the worst moment of its start, run as ``python -m`` as the
``tischblock`` script and ``./dev host`` run it."""


def test_ctrl_c_in_code_made_from_a_string_during_the_start_ends_the_host_with_0(tmp_path: Path) -> None:
    """A ``KeyboardInterrupt`` that leaves code run by ``exec`` marks a ``python -m`` process as ended by
    Ctrl-C: it killed itself with SIGINT at its exit although the host had caught it and said "Host
    beendet." (-2 instead of 0, about one start in 20 with both cores busy). The host's start now notes
    Ctrl-C instead of raising it (``sync.host.run.CtrlC``), and ends without serving."""
    (tmp_path / "ctrl_c_start.py").write_text(CTRL_C_IN_MADE_CODE, encoding="utf-8")
    command = [sys.executable, "-m", "ctrl_c_start", "host", "--data-dir", str(tmp_path / "host")]
    command += ["--host", "127.0.0.1", "--port", str(free_port()), "--organizer-password", PASSWORD]
    command += ["--tournament", "Strg-C-Turnier", "--no-qr", "--insecure-http", "--check-processes", "0"]
    env = checkout_env()
    env["PYTHONPATH"] = f"{tmp_path}:{env['PYTHONPATH']}"
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "Host beendet."), (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stdout + done.stderr
    assert "Uvicorn running" not in done.stderr and "Started server" not in done.stderr  # it never served


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_a_phones_idle_connection_does_not_hold_the_hosts_stop(tmp_path: Path, stop: signal.Signals) -> None:
    """A phone keeps its TLS connection open between two sheets. At the host's stop uvicorn closed it and
    waited for the phone's close_notify, which never came: each stop with a phone connected waited out
    the graceful timeout and printed "ERROR: Cancel 0 running task(s), timeout graceful shutdown
    exceeded" (``sync.host.run.PromptClose``)."""
    running = RunningHost(tmp_path, free_port())
    running.start()
    assert running.fingerprint is not None
    phone = requests.Session()
    phone.mount("https://", PinnedAdapter(running.fingerprint))
    try:
        assert phone.get(f"{running.url}/api/v1/info", timeout=10).status_code == 200  # the connection stays open, idle
        assert running.process is not None
        running.process.send_signal(stop)
        running.process.wait(30)
        terminal = running.terminal()
        assert "graceful shutdown exceeded" not in terminal and "ERROR" not in terminal, terminal
        assert "Traceback" not in terminal
    finally:
        phone.close()
        running.stop()


def test_the_host_serves_from_postgresql(postgres_server: PostgresServer, tmp_path: Path) -> None:
    url = postgres_server.new_database()
    running = RunningHost(tmp_path, free_port(), ("--database-url", url))
    running.start()
    try:
        assert "Daten: PostgreSQL postgresql+psycopg://tischblock@127.0.0.1" in running.terminal()
        token = running.join(table=6)["device_token"]
        sheet = watten_sheet("kathreinwatten-soell-2026", 6, 12)
        assert running.put(sheet, token).status_code == 201
        assert running.put(sheet, token).status_code == 200
    finally:
        running.stop()
    store = HostStore(url)
    try:
        [stored] = store.all_revisions()
        assert (stored.sheet_id, stored.revision, stored.table) == (sheet.id, 12, 6)
        assert not (tmp_path / "host.sqlite3").exists()
    finally:
        store.close()


@pytest.mark.parametrize("code", ["ab", "MIT LEER", "X" * 17])
def test_a_chosen_join_code_must_be_typeable(host_cli: Callable[..., Done], tmp_path: Path, code: str) -> None:
    done = host_cli(
        "--data-dir", str(tmp_path), "--tournament", "T", "--organizer-password", PASSWORD, "--join-code", code, "--print-join"
    )
    assert done.returncode == 1
    assert "Beitrittscode braucht 4 bis 16 Buchstaben oder Ziffern" in done.stderr
