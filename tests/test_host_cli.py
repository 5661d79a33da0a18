"""`tischblock host` as the organizer starts it: first start, later starts, clear errors, PostgreSQL."""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from cli import main
from sync.host.store import HostStore
from sync.protocol import JoinLine

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
