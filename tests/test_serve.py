"""``tischblock app`` and ``tischblock host`` say they run only once they answer, and a port they cannot
listen on is one German line, before anything is printed or made (``sync/listen.py``)."""

from __future__ import annotations

import queue
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sync.listen import ListenError, listen_socket

from .conftest import ROOT, checkout_env
from .host_helpers import PASSWORD
from .pg_server import free_port

TAKEN = "Port {port} ist schon belegt (läuft {what} schon, oder ein anderes Programm?): mit --port einen anderen Port wählen."


@contextmanager
def started(*args: str, cwd: Path) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    """``tischblock ARGS`` as a user starts it; its output lines arrive in the queue as they are printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        cwd=cwd,
        env={**checkout_env(), "TISCHBLOCK_CHECK_PROCESSES": "0"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def line_with(lines: queue.Queue[str], words: str) -> str:
    """The first output line containing ``words`` (60 s guard: a process that never says it fails here)."""
    seen = []
    while True:
        try:
            line = lines.get(timeout=60)
        except queue.Empty:
            raise AssertionError(f"no line with {words!r} in 60 s; the output: {''.join(seen)}") from None
        seen.append(line)
        if words in line:
            return line


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``tischblock ARGS`` to its end, as a user runs it (stdin no terminal)."""
    command = [sys.executable, "-m", "cli", *args]
    env = checkout_env()
    return subprocess.run(
        command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False
    )


def answers(url: str) -> int:
    """One request, no retry: what a browser or phone gets right after the line."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return int(response.status)


def test_the_apps_url_answers_as_soon_as_it_is_printed(tmp_path: Path) -> None:
    """The line came about 0.3 s before Flet's server had bound its port: a browser opened on it, or
    a script reading it, found nobody there."""
    port = free_port()
    with started("app", "--port", str(port), "--data-dir", str(tmp_path / "app"), cwd=tmp_path) as (_, lines):
        line = line_with(lines, "Tischblock läuft")
        assert line.strip() == f"Tischblock läuft: http://127.0.0.1:{port}/"
        assert answers(f"http://127.0.0.1:{port}/") == 200


def test_der_host_laeuft_means_a_phone_gets_an_answer(tmp_path: Path) -> None:
    """ "Der Host läuft" came before uvicorn had bound the port (and before the host's app was made)."""
    port = free_port()
    args = ["host", "--data-dir", str(tmp_path / "host"), "--host", "127.0.0.1", "--port", str(port)]
    args += ["--organizer-password", PASSWORD, "--tournament", "Kathrein", "--no-qr", "--insecure-http"]
    with started(*args, cwd=tmp_path) as (process, lines):
        line_with(lines, "Der Host läuft")
        assert answers(f"http://127.0.0.1:{port}/api/v1/info") == 200
        process.send_signal(signal.SIGINT)
        assert line_with(lines, "Host beendet.") == "Host beendet.\n"
        assert process.wait(30) == 0


@pytest.mark.parametrize("command", ["app", "host"])
def test_a_port_another_program_holds_is_one_line_and_nothing_starts(tmp_path: Path, command: str) -> None:
    """uvicorn found the taken port only after "Tischblock läuft" or the host's banner, QR code and "Der Host
    läuft", and ended with a traceback and exit code 3; the host had made its store and tournament."""
    folder = tmp_path / command
    args = [command, "--data-dir", str(folder), "--host", "127.0.0.1"]
    if command == "host":
        args += ["--organizer-password", PASSWORD, "--tournament", "Kathrein", "--no-qr"]
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = run_cli(*args, "--port", str(port))
    what = "die App" if command == "app" else "der Host"
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"Fehler: {TAKEN.format(port=port, what=what)}\n")
    assert not folder.exists()  # no store, no tournament, no password saved


def test_the_port_is_checked_before_the_store_is_opened_but_not_for_print_join(tmp_path: Path) -> None:
    """``--print-join`` only prints the join line and never serves: a running host holds its own port."""
    with socket.socket() as host_running:
        host_running.bind(("127.0.0.1", 0))
        host_running.listen()
        port = host_running.getsockname()[1]
        common = ["host", "--data-dir", str(tmp_path / "host"), "--host", "127.0.0.1", "--port", str(port)]
        common += ["--organizer-password", PASSWORD, "--tournament", "Kathrein", "--no-qr", "--insecure-http"]
        done = run_cli(*common, "--print-join")
    assert done.returncode == 0, done.stderr
    assert f"Beitritts-Zeile: tischblock://join?url=http://127.0.0.1:{port}&code=" in done.stdout


@pytest.mark.parametrize(
    ("host", "port", "message"),
    [
        ("127.0.0.1", 0, "Port 0 gibt es nicht: --port braucht eine Zahl von 1 bis 65535."),
        ("127.0.0.1", 65536, "Port 65536 gibt es nicht: --port braucht eine Zahl von 1 bis 65535."),
        (
            "192.0.2.77",
            8443,
            "Die Adresse 192.0.2.77 gehört nicht zu diesem Rechner: mit --host eine seiner Adressen wählen (0.0.0.0 für alle).",
        ),
        (
            "nirgendwo.invalid",
            8443,
            "Die Adresse 'nirgendwo.invalid' gibt es nicht: --host braucht eine Adresse dieses Rechners (z. B. 0.0.0.0 für alle).",
        ),
    ],
    ids=["port-0", "port-too-high", "not-this-machine", "no-such-name"],
)
def test_an_address_that_cannot_be_listened_on_says_what_to_change(host: str, port: int, message: str) -> None:
    with pytest.raises(ListenError) as refused:
        listen_socket(host, port)
    assert str(refused.value) == message
    assert isinstance(refused.value, ValueError)  # the CLI prints it as one "Fehler: ..." line


def test_a_free_port_is_bound_and_given_back() -> None:
    sock = listen_socket("127.0.0.1", free_port())
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()
