"""The real host as a child process (``cli.py host``) on 127.0.0.1, for the sync tests and the bench.

``HostProcess`` starts ``tischblock host`` from this checkout on a free port (HTTPS with its own
certificate unless ``https=False``), reads the join line it prints, waits until it answers, and
can be killed with SIGKILL and started again on the same port and data directory.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import requests

from sync.client import HostClient, SyncError
from sync.outbox import SheetSyncState
from sync.protocol import JoinLine

from .conftest import ROOT, checkout_env, wait_for

if TYPE_CHECKING:
    from screens.tournament_state import TournamentState

PASSWORD = "veranstalter-geheim"
JOIN_CODE = "WATT2026"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class HostProcess:
    """``tischblock host`` in a child process; ``url``, ``join_line``, ``fingerprint`` once started."""

    def __init__(
        self,
        data_dir: Path,
        *,
        https: bool = True,
        tournament: str = "Kathreinwatten Söll 2026",
        port: int | None = None,
        database_url: str | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.data_dir = data_dir
        self.extra_args = extra_args
        """More options of ``tischblock host`` (``--check-processes 0``)."""
        self.database_url = database_url
        self.join_code = JOIN_CODE
        """The code it starts with; a restart on a later tournament of the host passes that one's."""
        self.https = https
        self.tournament = tournament
        self.port = port or free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.join_line: JoinLine | None = None
        self.output: list[str] = []
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"

    @property
    def fingerprint(self) -> str | None:
        assert self.join_line is not None
        return self.join_line.fingerprint

    @property
    def line(self) -> str:
        """The join line for 127.0.0.1 (the printed one names the first LAN address)."""
        assert self.join_line is not None
        return JoinLine(url=self.url, code=self.join_line.code, fingerprint=self.fingerprint).format()

    def command(self) -> list[str]:
        cmd = [sys.executable, str(ROOT / "cli.py"), "--data-dir", str(self.data_dir), "host", "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--organizer-password", PASSWORD, "--tournament", self.tournament]
        cmd += ["--join-code", self.join_code, "--no-qr", "--wrong-codes-per-minute", "1000"]
        cmd += ["--wrong-passwords-per-minute", "1000"]  # the tests try wrong passwords on purpose
        if not self.https:
            cmd.append("--insecure-http")
        if self.database_url:
            cmd += ["--database-url", self.database_url]
        return cmd + list(self.extra_args)

    def start(self, timeout: float = 60.0) -> HostProcess:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.proc = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env={**checkout_env(), "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        seen_line = threading.Event()
        proc = self.proc

        def read() -> None:
            assert proc.stdout is not None
            for text in proc.stdout:
                self.output.append(text.rstrip("\n"))
                match = re.search(r"Beitritts-Zeile: (\S+)", text)
                if match:
                    self.join_line = JoinLine.parse(match.group(1))
                    seen_line.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while not seen_line.is_set():
            if proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("host did not start:\n" + "\n".join(self.output))
            seen_line.wait(0.1)
        # Wait for the port before the first request: a request that urllib3 retries after "connection
        # refused" leaves its final connection open in this process, and the host's graceful shutdown
        # then waits its full 5 s for that connection at every stop.
        while not self._accepts():
            if proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("host does not listen:\n" + "\n".join(self.output))
            seen_line.wait(0.05)
        with HostClient(self.url, fingerprint=self.fingerprint, timeout=(1, 2)) as probe:
            while True:
                try:
                    probe.info()
                    return self
                except SyncError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        self.kill()
                        raise RuntimeError("host does not answer:\n" + "\n".join(self.output)) from None
                    time.sleep(0.1)

    def _accepts(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever the host acknowledged must survive this."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        if self._reader is not None:
            self._reader.join(5)

    def stop(self) -> None:
        from .host_helpers import close_sessions  # host_helpers' sessions are the tests' clients

        close_sessions()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._reader is not None:
            self._reader.join(5)

    # -- the organizer's view ------------------------------------------------------------------
    def organizer(self, path: str) -> requests.Response:
        """GET an organizer endpoint with the password (pinned certificate, as a phone would)."""
        with HostClient(self.url, fingerprint=self.fingerprint) as client:
            return client.session.get(self.url + path, auth=("organizer", PASSWORD), timeout=30)

    def secret(self, start_number: int) -> str:
        """The entrant's secret from its Startkarte (the organizer's roster shows it)."""
        reply = self.organizer("/api/v1/organizer/roster")
        assert reply.status_code == 200, reply.text
        return str(next(e["secret"] for e in reply.json() if e["entrant"]["start_number"] == start_number))

    def card_line(self, start_number: int, code: str | None = None) -> str:
        """The join line of the entrant's Startkarte: the hall's line with Startnummer and secret (``code``:
        the join code of a tournament the host started after it printed its line)."""
        assert self.join_line is not None
        return JoinLine(
            url=self.url,
            code=code or self.join_line.code,
            fingerprint=self.fingerprint,
            start_number=start_number,
            secret=self.secret(start_number),
        ).format()

    def stored_revisions(self) -> list[tuple[str, int, str]]:
        """Every stored (sheet_id, revision, body) straight from the host's SQLite file."""
        db = sqlite3.connect(f"file:{self.data_dir / 'host.sqlite3'}?mode=ro", uri=True, timeout=30)
        try:
            return [(str(s), int(r), str(b)) for s, r, b in db.execute("SELECT sheet_id, revision, body FROM revisions")]
        finally:
            db.close()

    def conflicts(self) -> int:
        db = sqlite3.connect(f"file:{self.data_dir / 'host.sqlite3'}?mode=ro", uri=True, timeout=30)
        try:
            return int(db.execute("SELECT count(*) FROM conflicts").fetchone()[0])
        finally:
            db.close()


@contextmanager
def running_host(data_dir: Path, **kwargs: object) -> Iterator[HostProcess]:
    host = HostProcess(data_dir, **kwargs)  # type: ignore[arg-type]
    host.start()
    try:
        yield host
    finally:
        host.stop()


def wait_until_at_organizer(state: TournamentState, sheet_id: str, timeout: float = 60.0) -> None:
    """Wait until the phone's sender reports ``sheet_id`` at the organizer (``SheetSyncState.AT_ORGANIZER``),
    pulling its reports into ``state`` as the start screen does; a sheet goes out on the sender's own
    thread after it is saved."""

    def there() -> bool:
        state.pull()
        sync = state.states.get(sheet_id)
        return sync is not None and sync.state == SheetSyncState.AT_ORGANIZER

    wait_for(
        f"the sheet {sheet_id} at the organizer",
        there,
        timeout,
        shows=lambda: f"the sender reports {state.states.get(sheet_id)}, its problem: {state.problem}",
    )


if os.name == "nt":  # pragma: no cover
    raise ImportError("the host tests use SIGKILL")
