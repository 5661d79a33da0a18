"""Starting the host: the store, the organizer's password, the tournament, the certificate, the banner.

``tischblock host`` (cli.py) calls ``prepare`` (everything that is decided at a start, with
German errors for what the organizer must fix), prints ``banner`` (URLs, join code, fingerprint,
the join line and its QR code) and calls ``serve`` (uvicorn, HTTPS with the host's certificate,
until Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import gc
import io
import logging
import os
import re
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import segno
import uvicorn

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _UvicornHTTP
except ImportError:  # without httptools uvicorn speaks HTTP with h11
    from uvicorn.protocols.http.h11_impl import H11Protocol as _UvicornHTTP  # type: ignore[assignment]

from ..protocol import JoinLine
from .app import create_app
from .checking import SheetChecker, default_check_processes
from .credentials import PASSWORD_SETTING, hash_password, verify_password
from .desk import start_tournament
from .files import secure_data_dir
from .league import host_id
from .log import LineWriter
from .records import Tournament
from .store import HostStore
from .tls import HostCertificate, ensure_certificate, lan_addresses


class HostSetupError(ValueError):
    """Something the organizer must fix before the host can start (German message)."""


@dataclass(frozen=True)
class HostSetup:
    store: HostStore
    tournament: Tournament
    certificate: HostCertificate | None
    """``None`` with ``--insecure-http``."""
    host: str
    port: int
    urls: tuple[str, ...]
    join_line: JoinLine
    notes: tuple[str, ...]
    """What happened at this start (first start, new tournament, ...), for the banner."""


_CODE = re.compile(r"^[A-Z0-9]{4,16}$")


def prepare(
    data_dir: Path,
    *,
    database_url: str | None = None,
    host: str = "0.0.0.0",
    port: int = 8443,
    organizer_password: str | None = None,
    tournament: str | None = None,
    join_code: str | None = None,
    insecure_http: bool = False,
    ask_password: Callable[[], str | None] | None = None,
) -> HostSetup:
    """Open the store and settle what the host needs; ``HostSetupError`` says what is missing."""
    notes: list[str] = []
    notes.extend(secure_data_dir(data_dir))  # what an earlier start (or someone else) left readable
    # On a league's shared database each host writes only its own tournaments (league.host_id).
    league_database = database_url is not None and not database_url.startswith("sqlite")
    store = HostStore.open(data_dir, database_url, host_id(data_dir) if league_database else None)
    if store.applied:
        notes.append(f"Datenbank eingerichtet: {', '.join(store.applied)}")
    stored_hash = store.setting(PASSWORD_SETTING)
    if stored_hash is None:
        password = organizer_password if organizer_password is not None else (ask_password() if ask_password else None)
        if password is None:
            raise HostSetupError(
                "Beim ersten Start braucht der Host ein Veranstalter-Passwort: --organizer-password PASSWORT "
                "(oder den Host im Terminal starten, dann wird es abgefragt)"
            )
        if len(password) < 6:
            raise HostSetupError("Das Veranstalter-Passwort braucht mindestens 6 Zeichen")
        in_force = store.set_setting_once(PASSWORD_SETTING, hash_password(password))
        if not verify_password(password, in_force):  # another host on the league's database set it first
            raise HostSetupError("--organizer-password stimmt nicht mit dem gespeicherten Veranstalter-Passwort überein")
        notes.append("Veranstalter-Passwort gespeichert (nur als scrypt-Hash)")
    elif organizer_password is not None and not verify_password(organizer_password, stored_hash):
        raise HostSetupError("--organizer-password stimmt nicht mit dem gespeicherten Veranstalter-Passwort überein")
    current = store.current_tournament()
    if join_code is not None:
        join_code = join_code.strip().upper()
        if not _CODE.match(join_code):
            raise HostSetupError("Der Beitrittscode braucht 4 bis 16 Buchstaben oder Ziffern")
    if current is None or (tournament is not None and tournament.strip() != current.name):
        if tournament is None or not tournament.strip():
            raise HostSetupError("Beim ersten Start braucht der Host den Namen des Turniers: --tournament NAME")
        current = start_tournament(store, tournament.strip(), join_code)
        notes.append(f"Neues Turnier angelegt: {current.name} ({current.id})")
    elif join_code is not None and join_code != current.join_code:
        raise HostSetupError(f"Das Turnier '{current.name}' hat schon den Beitrittscode {current.join_code}")
    certificate = None if insecure_http else ensure_certificate(data_dir)
    if certificate is not None and certificate.created:
        notes.append(f"Zertifikat erstellt: {certificate.cert_path}")
    secure_data_dir(data_dir)  # what this start created (SQLite gives its -wal and -shm the database's mode)
    scheme = "http" if insecure_http else "https"
    if host in ("0.0.0.0", "::", ""):
        addresses = [*lan_addresses(), "127.0.0.1"]
    else:
        addresses = [host]
    urls = tuple(f"{scheme}://{address}:{port}" for address in addresses)
    line = JoinLine(url=urls[0], code=current.join_code, fingerprint=certificate.fingerprint if certificate else None)
    return HostSetup(store, current, certificate, host, port, urls, line, tuple(notes))


GC_THRESHOLDS = (20_000, 50, 100)
"""The cyclic garbage collector's thresholds while serving, instead of Python's (700, 10, 10): a
request allocates a few thousand objects that reference counting frees, and with the default
the collector ran every few hundred allocations and traced the cached tallies and in-flight
requests over and over (a third of the host's CPU, issue 24). Nothing the host keeps forms
cycles that only the collector could free; a collection now runs every 20 000 allocations."""

SWITCH_INTERVAL_S = 0.001
"""How long a thread of the host may hold the interpreter lock while another waits for it, instead
of Python's 5 ms. The event loop takes the sheets of tables-only phones itself (``KnownDeviceSubmit``)
and, once a batch's checks or commit are answered, runs through all of them without a system call;
the group commit's writer and the check lanes, woken meanwhile, waited up to 5 ms for the lock
before the next fsync or batch could start. ``python bench/host.py``, 2026-11-29 01:05 to 01:10:
over plain HTTP 0.46 of the bare endpoint with 5 ms, 0.56 with 1 ms (0.51 with 2 ms); the code
before the loop's way gains nothing from it (0.50 and 0.51; issue 24)."""


def one_core() -> int | None:
    """Keep every thread of the host on one of the cores it may use (Linux), and return that core.

    The host's Python runs one thread at a time (the interpreter lock): its sheets' worker threads,
    the group commit's writer and the event loop hand the lock to each other thousands of times a
    second, and when the next thread waits on the other core each handover wakes a core and moves
    the data between their caches. On one core the same work cost 1.8-2.4 ms of CPU per sheet
    against 2.9 ms spread over two (``bench/host.py``, issue 24). Threads started later inherit it.
    ``None`` where the OS cannot pin, or there is only one core to use anyway."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None
    core = allowed[os.getpid() % len(allowed)]  # two hosts on one machine (a league's halls in a test) on two cores
    for task in Path("/proc/self/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), {core})
        except (OSError, ValueError):  # a thread that just ended
            pass
    return core


INSECURE_WARNING = (
    "!!! ACHTUNG: --insecure-http: KEINE Verschlüsselung, KEIN Zertifikat. Jeder im selben WLAN kann die\n"
    "!!! Geräte-Tokens und alle Blätter mitlesen und damit Ergebnisse fälschen. Nur für Tests, nie im Turnier."
)


def banner(setup: HostSetup, qr: bool = True) -> str:
    """What the host prints at its start: where it is, how to join, and how to check it."""
    out = io.StringIO()
    if setup.certificate is None:
        print(INSECURE_WARNING, file=out)
    print(f"Tischblock-Host für {setup.tournament.name} (Turnier-ID {setup.tournament.id})", file=out)
    for note in setup.notes:
        print(f"  {note}", file=out)
    print(f"Daten: {setup.store.describe()}", file=out)
    for url in setup.urls:
        print(f"Adresse: {url}", file=out)
    print(f"Beitrittscode: {setup.tournament.join_code}", file=out)
    print(f"Veranstalter-Seiten: {setup.urls[-1]}/veranstalter/ (Benutzer organizer, Veranstalter-Passwort)", file=out)
    if setup.certificate is not None:
        print(f"Zertifikat (SHA-256): {setup.certificate.fingerprint}", file=out)
    print(f"Beitritts-Zeile: {setup.join_line.format()}", file=out)
    if qr:
        print("Zum Beitreten am Handy scannen:", file=out)
        segno.make(setup.join_line.format(), error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


LISTEN_BACKLOG = 2048
"""uvicorn's own backlog: connections the kernel queues before the host accepts them."""


def serve(
    setup: HostSetup,
    listener: socket.socket | None = None,
    *,
    wrong_codes_per_minute: int = 5,
    wrong_passwords_per_minute: int = 10,
    check_processes: int | None = None,
) -> None:
    """Serve the host until Ctrl-C or SIGTERM; each arriving sheet logs one German line.

    Arriving sheets are checked in ``check_processes`` worker processes (``checking.py``; default:
    one per core the host may use, none on one core).

    Ctrl-C never raises ``KeyboardInterrupt`` here (``CtrlC``): while the host starts it is noted, and the
    host shuts down instead of serving; while uvicorn serves, uvicorn handles it and shuts down gracefully.
    Returns normally after either (SIGTERM: uvicorn ends the process with it once it has shut down).

    ``listener``: the socket bound to ``setup.host``:``setup.port`` (``sync.listen.listen_socket``), closed
    when the host ends; without it uvicorn binds them itself."""
    ctrl_c = CtrlC()
    previous = signal.signal(signal.SIGINT, ctrl_c)
    lines = LineWriter(sys.stdout)
    try:
        lines.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
        logging.basicConfig(level=logging.INFO, handlers=[lines], force=True)
        # A line per sheet needs its time and message only: no thread, process or calling frame looked up for
        # each record (the logging HOWTO, "Optimization").
        logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
        logging._srcfile = None  # type: ignore[assignment]
        checker = SheetChecker(
            default_check_processes() if check_processes is None else check_processes, gc_thresholds=GC_THRESHOLDS
        )
        try:
            app = create_app(
                setup.store,
                wrong_codes_per_minute=wrong_codes_per_minute,
                wrong_passwords_per_minute=wrong_passwords_per_minute,
                address=(setup.join_line.url, setup.join_line.fingerprint),
                checker=checker,
            )
            gc.collect()
            gc.freeze()  # what the start made (modules, routes, models' validators) lives as long as the host
            gc.set_threshold(*GC_THRESHOLDS)
            sys.setswitchinterval(SWITCH_INTERVAL_S)
            one_core()
            certificate = setup.certificate
            config = uvicorn.Config(
                app,
                host=setup.host,
                port=setup.port,
                ssl_certfile=str(certificate.cert_path) if certificate else None,
                ssl_keyfile=str(certificate.key_path) if certificate else None,
                access_log=False,  # the German line per sheet is the log; no request line, no header ever printed
                log_level="warning",
                timeout_graceful_shutdown=5,
                server_header=False,
                http=PromptClose,
                backlog=LISTEN_BACKLOG,
            )
            server = uvicorn.Server(config)
            ctrl_c.server = server
            if not ctrl_c.pressed:
                # uvicorn takes Ctrl-C over while it runs, and hands the one that ended it back to ``ctrl_c``
                server.run(sockets=None if listener is None else [listener])
        finally:
            if listener is not None:
                listener.close()
            checker.close()
            setup.store.close()
    finally:
        lines.stop()  # every line written before the interpreter ends (also on Ctrl-C during the start)
        signal.signal(signal.SIGINT, previous)


class PromptClose(_UvicornHTTP):
    """uvicorn's HTTP protocol (httptools or h11, as uvicorn picks it), but a connection that waits for
    its next request is dropped at once when the host shuts down.

    uvicorn closes such a connection, and closing a TLS connection waits for the client's answer to its
    close_notify. A phone idling on a keep-alive connection never sends it, so every Strg-C or SIGTERM
    with a phone connected took uvicorn's whole graceful timeout (5 s) and printed "ERROR: Cancel 0
    running task(s), timeout graceful shutdown exceeded" in the organizer's terminal. The phone loses
    nothing: its next request connects again (to the next host start). A request still running is
    finished first, as before."""

    def shutdown(self) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self.transport.abort()
        else:
            super().shutdown()


class CtrlC:
    """The host's handler of Ctrl-C (SIGINT) outside uvicorn's: it notes the press and asks a server
    already made to shut down, and raises nothing.

    Python's own handler raises ``KeyboardInterrupt`` wherever the main thread is. During the start that
    may be code Python runs from a string (``exec``, ``eval``: the methods of a dataclass or a named
    tuple being made), and CPython marks a process whose ``KeyboardInterrupt`` left such code as ended by
    Ctrl-C for good: run as ``python -m``, it kills itself with SIGINT at its exit even where the
    exception was caught. The host printed "Host beendet." and still ended by SIGINT (exit -2; about 1
    start in 20 with both cores busy, ``test_ctrl_c_while_the_check_processes_start_leaves_no_traceback``)."""

    def __init__(self) -> None:
        self.pressed = False
        self.server: uvicorn.Server | None = None

    def __call__(self, signum: int, frame: object) -> None:
        self.pressed = True
        if self.server is not None:  # pressed before uvicorn took the signal over: it ends at its next tick
            self.server.should_exit = True
