"""A real PostgreSQL server for the host store's tests, started from the system's ``pg_ctl``.

Debian's ``postgresql`` package (``./dev test`` installs it) puts the binaries under
``/usr/lib/postgresql/<version>/bin``. PostgreSQL refuses to run as root, so as root the server
runs as the ``postgres`` user (``runuser``), in a temporary directory, on a free port of
127.0.0.1, with its socket in that directory; it is stopped when the test session ends.
Without PostgreSQL the tests that need it are skipped, except on CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

USER = "tischblock"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


@dataclass(frozen=True)
class PostgresServer:
    port: int
    root: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database on the server; its SQLAlchemy URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session", name="postgres_server")
def postgres_server_fixture(postgres_cluster: PostgresServer) -> PostgresServer:
    """The session's one server (``postgres_cluster`` in tests/conftest.py): a module that imports this
    fixture gets its own copy of it, but they all hand out the same server, started once."""
    return postgres_cluster


@pytest.fixture(params=["sqlite", "postgresql"], name="store_url")
def store_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database for the host's store: a SQLite file, then a fresh database on the real server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'host.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@contextmanager
def started_postgres() -> Iterator[PostgresServer]:
    """Start a server in a temporary directory, yield it, stop it and remove the directory."""
    binaries = pg_bin()
    if binaries is None:
        message = "PostgreSQL ist nicht installiert (Debian: apt-get install -y postgresql)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    root = Path(tempfile.mkdtemp(prefix="tischblock-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data = root / "data"
    port = free_port()
    subprocess.run(
        _as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"]),
        check=True,
        capture_output=True,
    )
    subprocess.run(
        _as_server_user(
            [
                str(binaries / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "server.log"),
                "-o",
                f"-h 127.0.0.1 -p {port} -k {root}",
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield PostgresServer(port, root)
    finally:
        subprocess.run(
            _as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
