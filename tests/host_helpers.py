"""The real host process for the tests: ``tischblock host`` on 127.0.0.1, started, killed, restarted.

The host runs as its own process (``python -m cli host``), exactly as an organizer starts it;
the tests talk to it with ``requests``, pinned to its certificate like a phone.
"""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from scoring import Entry, Sheet
from sync.client import PinnedAdapter
from sync.protocol import TOKEN_HEADER, revision_path

from .conftest import ROOT, checkout_env, wait_for
from .pg_server import free_port

PASSWORD = "geheim-123"
EXAMPLE = Sheet.from_json((ROOT / "docs" / "examples" / "watten-turnier.json").read_bytes())


_SESSIONS: weakref.WeakSet[requests.Session] = weakref.WeakSet()


def pinned_session(fingerprint: str | None) -> requests.Session:
    session = requests.Session()
    if fingerprint is not None:
        session.mount("https://", PinnedAdapter(fingerprint))
    _SESSIONS.add(session)
    return session


def close_sessions() -> None:
    """Close the connections of every session ``pinned_session`` handed out (each stays usable and
    connects again when used). Called before a host is stopped, as a phone's app closes its client
    (the host drops an idle connection at its stop anyway: ``sync.host.run.PromptClose``)."""
    for session in list(_SESSIONS):
        session.close()


@dataclass
class RunningHost:
    """One ``tischblock host`` process and what it printed."""

    data_dir: Path
    port: int
    extra: tuple[str, ...] = ()
    insecure: bool = False
    process: subprocess.Popen[bytes] | None = None
    join_code: str = ""
    fingerprint: str | None = None
    starts: int = 0
    password: str = PASSWORD
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.data_dir / "host-terminal.log"

    @property
    def url(self) -> str:
        return f"{'http' if self.insecure else 'https'}://127.0.0.1:{self.port}"

    def start(self, tournament: str = "Kathreinwatten Söll 2026") -> None:
        self.starts += 1
        command = [
            sys.executable,
            "-m",
            "cli",
            "host",
            "--data-dir",
            str(self.data_dir),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--organizer-password",
            self.password,
            "--tournament",
            tournament,
            "--no-qr",
            *(["--insecure-http"] if self.insecure else []),
            *self.extra,
        ]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}\n".encode())
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=checkout_env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"host exited with {self.process.returncode}:\n{self.terminal()}")
            text = self.terminal().split(f"--- start {self.starts}\n")[-1]
            if "Der Host läuft" in text:
                self.join_code = re.search(r"Beitrittscode: (\S+)", text).group(1)  # type: ignore[union-attr]
                found = re.search(r"Zertifikat \(SHA-256\): (\S+)", text)
                self.fingerprint = found.group(1) if found else None
                if self._answers():
                    return
            time.sleep(0.1)
        raise AssertionError(f"host did not come up:\n{self.terminal()}")

    def _answers(self) -> bool:
        try:
            return self.session().get(f"{self.url}/api/v1/info", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def session(self) -> requests.Session:
        return pinned_session(None if self.insecure else self.fingerprint)

    def terminal(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed must survive."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        close_sessions()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    # -- the protocol, as a phone speaks it ----------------------------------------------------------
    def join(self, table: int, team: str | None = "A", name: str = "Handy") -> dict[str, Any]:
        reply = self.session().post(
            f"{self.url}/api/v1/join",
            json={"join_code": self.join_code, "table": table, "team": team, "device_name": name},
            timeout=10,
        )
        assert reply.status_code == 201, reply.text
        return dict(reply.json())

    def put(
        self,
        sheet: Sheet,
        token: str | None,
        *,
        revision: int | None = None,
        body: bytes | None = None,
        session: requests.Session | None = None,
    ) -> requests.Response:
        number = len(sheet.entries) if revision is None else revision
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers[TOKEN_HEADER] = token
        data = sheet.to_json().encode("utf-8") if body is None else body
        client = session or self.session()
        return client.put(f"{self.url}{revision_path(sheet.id, number)}", data=data, headers=headers, timeout=30)

    def organizer(self, path: str, password: str = PASSWORD) -> requests.Response:
        return self.session().get(f"{self.url}/api/v1{path}", auth=("organizer", password), timeout=10)


def start_host(tmp: Path, *extra: str, insecure: bool = False, password: str = PASSWORD) -> RunningHost:
    host = RunningHost(tmp, free_port(), tuple(extra), insecure, password=password)
    host.start()
    return host


@pytest.fixture(scope="module", name="host")
def host_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    """One real host (HTTPS) for a test module."""
    running = start_host(tmp_path_factory.mktemp("host"))
    try:
        yield running
    finally:
        running.stop()


def watten_sheet(
    tournament: str,
    table: int,
    entries: int = 27,
    *,
    written_by: str = "A",
    sheet_id: uuid.UUID | None = None,
    correction: bool = True,
) -> Sheet:
    """The example Durchgang for ``table``: team A's sheet (game 5 corrected at entry 26, closed at 27),
    or with ``correction=False`` team B's (game 5 written right at once, closed at 26), cut to ``entries``."""
    source = list(EXAMPLE.entries)
    if not correction:
        source = [e for e in source if e.kind != "correction"]
        source[4] = Entry(kind="game", data={"winner": "B", "value": 3})
    context = EXAMPLE.context.model_copy(update={"tournament": tournament, "table": table, "written_by": written_by})
    return EXAMPLE.model_copy(update={"id": sheet_id or uuid.uuid4(), "context": context, "entries": tuple(source[:entries])})


def with_game(sheet: Sheet, number: int, **data: Any) -> Sheet:
    entries = list(sheet.entries)
    entries[number - 1] = Entry(kind="game", data=data)
    return sheet.model_copy(update={"entries": tuple(entries)})


def wait_for_log(running: RunningHost, text: str, timeout: float = 60) -> str:
    """The host's terminal output once it contains ``text`` (the log line is written after the reply)."""
    wait_for(f"{text!r} in the host's terminal", lambda: text in running.terminal(), timeout, shows=running.terminal)
    return running.terminal()


def dump_store(data_dir: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the host's SQLite file (conflicts, claims and devices included),
    read-only and sorted: equal dumps mean the store is byte-for-byte the same."""
    db = sqlite3.connect(f"file:{data_dir / 'host.sqlite3'}?mode=ro", uri=True, timeout=30)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in names}
    finally:
        db.close()


def organizer_call(host: RunningHost, method: str, path: str, json: Any = None, password: str = PASSWORD) -> requests.Response:
    """An organizer endpoint under /api/v1/organizer with the password."""
    return host.session().request(
        method, f"{host.url}/api/v1/organizer{path}", json=json, auth=("organizer", password), timeout=30
    )
