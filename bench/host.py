"""The end of a round: every table's two teams hand in their signed sheets; the host against a fair bare endpoint.

    python bench/host.py [--tables 1000] [--connections 48] [--transport both|http|https] [--rounds 2]

Compares like with like, in one run, per transport (plain HTTP, then HTTPS with the host's
certificate; keep-alive connections, so a TLS handshake happens once per connection, not per
sheet, and what is measured is the work per request):

- **The Tischblock host**: the real ``tischblock host`` process (uvicorn, SQLite in WAL with
  ``synchronous=FULL``): each sheet parsed, checked against the device's table, scored by its
  ruleset, stored with the host's group commit (``sync/host/store.py``, ``_GroupCommit``) and
  compared with the other sheet of its table, whose answer carries that comparison.
- **The bare endpoint**: a FastAPI app on the same uvicorn with the same TLS certificate that reads
  each body and stores it in SQLite in WAL with ``synchronous=FULL`` through the same kind of group
  commit (one writer thread, one transaction and so one fsync for every body that waits together;
  each request answered only after the commit holding its body). Same durability on both sides:
  nothing is acknowledged before it is on disk, and one fsync may acknowledge many requests.

Each table has two devices (team A, team B) and two distinct signed sheets (a closed Watten
Durchgang each, the same games, each signed by its own team), so the second sheet of every
table is compared with the first. The clients are one separate process (a small asyncio HTTP/1.1
client, ``Connection``: ``httpx``'s async pool cost more CPU per request than either server) with
a bounded pool of ``--connections`` keep-alive connections, opened before the clock starts; the
sheets are serialized before. Every round sends new sheets (new ids, the next round number) to
both targets; the order alternates. Prints throughput and p50/p99 latency for both, and the
host's share of the bare endpoint's throughput (target: at least 0.5, p99 under 4x). All data
lives in one temporary directory that is removed at the end; ports come from the operating system.
``--per-sheet`` times only the host's pure steps per sheet in this process (``bench/host_steps.py``;
with ``--instructions`` also counted in instructions under valgrind's callgrind).

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import random
import socket
import sqlite3
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import host_steps  # noqa: E402  (bench/, beside this script)
from host_steps import sheet_pairs  # noqa: E402

API = "/api/v1"
TOKEN_HEADER = "X-Tischblock-Token"


# -- the bare endpoint ----------------------------------------------------------------------------
class GroupCommitLog:
    """Bodies into SQLite (WAL, ``synchronous=FULL``) with group commit: one writer thread commits
    every body waiting at that moment in one transaction; ``store`` returns after that commit."""

    MAX_BATCH = 64  # as the host's _GroupCommit

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS bodies (id TEXT, revision INTEGER, body TEXT, PRIMARY KEY (id, revision))")
        with self.db:  # the first write (the WAL file's start) before the clock, as the host's migrations did
            self.db.execute("INSERT OR IGNORE INTO bodies VALUES ('warm-up', 0, '')")
        self.queue: queue.Queue[tuple[str, int, bytes, Future[None]]] = queue.Queue()
        threading.Thread(target=self._run, daemon=True).start()

    def store(self, sheet_id: str, revision: int, body: bytes) -> None:
        done: Future[None] = Future()
        self.queue.put((sheet_id, revision, body, done))
        done.result()

    def _run(self) -> None:
        while True:
            batch = [self.queue.get()]
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.executemany(
                    "INSERT OR IGNORE INTO bodies VALUES (?, ?, ?)", [(s, r, b.decode("utf-8")) for s, r, b, _ in batch]
                )
                self.db.execute("COMMIT")
            except Exception as error:  # an answer for every waiting request, never a hang
                for *_, done in batch:
                    done.set_exception(error)
                continue
            for *_, done in batch:
                done.set_result(None)


def bare_app(folder: Path) -> FastAPI:
    """A FastAPI app that only stores each PUT body durably (group commit) and answers as the host would."""
    log = GroupCommitLog(folder / "bare.sqlite3")
    # FastAPI's native telemetry off, as in the host's app (NO_TELEMETRY, sync/host/http.py); not
    # imported from there, so that this process loads nothing of the host
    app = FastAPI(telemetry={"tracing": False, "metrics": False, "logs": False})

    @app.get(f"{API}/info")
    def info() -> dict[str, Any]:
        return {"api_version": 1, "tournament_id": "bare", "tournament_name": "bare"}

    @app.put(f"{API}/sheets/{{sheet_id}}/revisions/{{revision}}", status_code=201)
    async def put(sheet_id: uuid.UUID, revision: int, request: Request, response: Response) -> dict[str, Any]:
        body = await request.body()
        await run_in_threadpool(log.store, str(sheet_id), revision, body)
        return {"status": "stored", "sheet_id": str(sheet_id), "revision": revision, "closed": True, "comparison": None}

    return app


def serve_bare(sock_fd: int, folder: Path, cert: str | None, key: str | None) -> None:
    import uvicorn  # only in the bare endpoint's own process

    if os.environ.get("BENCH_PIN_BARE"):  # --pin-bare: on one core, as the host keeps itself
        from sync.host.run import one_core

        one_core()
    # The socket as what it is (TCP): uvicorn's ``fd=`` takes any descriptor for a Unix socket
    # (``socket.fromfd(fd, AF_UNIX, ...)``), and asyncio then leaves Nagle's algorithm on for every
    # connection it accepts. A response goes out as two writes (head, body); with Nagle the body waited
    # for the client's delayed ACK of the head, 40 ms a request: the bare endpoint's p50 of 44 to 53 ms.
    sock = socket.socket(fileno=sock_fd)
    config = uvicorn.Config(
        bare_app(folder),
        ssl_certfile=cert,
        ssl_keyfile=key,
        log_level="warning",
        access_log=False,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])


class BareProcess:
    """The bare endpoint in its own process, on a listening socket whose port the OS chose."""

    def __init__(self, folder: Path, cert: str | None, key: str | None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1024)
        self.port = self.sock.getsockname()[1]
        self.url = f"{'https' if cert else 'http'}://127.0.0.1:{self.port}"
        cmd = [sys.executable, __file__, "--serve-bare", str(self.sock.fileno()), str(folder)]
        if cert and key:
            cmd += ["--cert", cert, "--key", key]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, pass_fds=(self.sock.fileno(),))
        self._wait(cert)

    def _wait(self, cafile: str | None) -> None:
        deadline = time.monotonic() + 60
        with httpx.Client(verify=_ssl_context(cafile), timeout=2) as probe:
            while True:
                try:
                    if probe.get(f"{self.url}{API}/info").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the bare endpoint did not start")
                time.sleep(0.1)

    def stored(self) -> int:
        db = sqlite3.connect(self.folder / "bare.sqlite3", timeout=30)
        try:
            return int(db.execute("SELECT count(*) FROM bodies WHERE id != 'warm-up'").fetchone()[0])
        finally:
            db.close()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)
        self.sock.close()


# -- the phones -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    path: str
    token: str
    body: bytes


Result = tuple[int, float, float, bool]
"""Status, began, ended (perf_counter seconds), and whether the answer carried an agreeing comparison."""


def _ssl_context(cafile: str | None) -> ssl.SSLContext | bool:
    if cafile is None:
        return False
    context = ssl.create_default_context(cafile=cafile)  # the host's own certificate is the one trusted
    return context


class Connection:
    """One keep-alive HTTP/1.1 connection on asyncio streams: the least client CPU per request, so
    what the run measures is the servers (``httpx``'s async pool cost 5 ms of CPU a request here)."""

    def __init__(self, url: str, cafile: str | None) -> None:
        parts = httpx.URL(url)
        self.host, self.port = parts.host, parts.port
        self.ssl = _ssl_context(cafile) or None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, ssl=self.ssl)

    async def request(self, method: str, path: str, body: bytes = b"", token: str | None = None) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Length: {len(body)}\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"{TOKEN_HEADER}: {token}\r\n"
        self.writer.write(head.encode("latin-1") + b"\r\n" + body)
        header = await self.reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:"))
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _send_all(url: str, cafile: str | None, jobs: list[Job], connections: int) -> list[Result]:
    pool = [Connection(url, cafile) for _ in range(connections)]
    # open every connection (and its TLS session) before the clock starts
    await asyncio.gather(*(c.open() for c in pool))
    warm = await asyncio.gather(*(c.request("GET", f"{API}/info") for c in pool))
    assert all(status == 200 for status, _ in warm), warm
    todo = iter(jobs)
    results: list[Result] = []

    async def worker(connection: Connection) -> None:
        for job in todo:
            began = time.perf_counter()
            try:
                status, answer = await connection.request("PUT", job.path, job.body, job.token)
            except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration):
                status, answer = 0, b""
                await connection.close()
                await connection.open()
            results.append((status, began, time.perf_counter(), b'"agree":true' in answer))

    await asyncio.gather(*(worker(c) for c in pool))
    await asyncio.gather(*(c.close() for c in pool))
    return results


def _client_process(url: str, cafile: str | None, jobs: list[Job], connections: int) -> list[Result]:
    return asyncio.run(_send_all(url, cafile, jobs, connections))


def send(url: str, cafile: str | None, jobs: list[Job], connections: int) -> list[Result]:
    """Every job from a separate client process, ``connections`` at a time."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_client_process, (url, cafile, jobs, connections))


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far, all its threads and the processes it started
    (the host's sheet-checking workers) (Linux ``/proc``)."""
    return cpu_seconds_of(Path(f"/proc/{pid}/stat")) + children_cpu_seconds(pid)


def children_cpu_seconds(pid: int) -> float:
    """CPU seconds so far of the running processes ``pid`` started."""
    return sum(cpu_seconds_of(Path(f"/proc/{child}/stat")) for child in children(pid))


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, ValueError):  # ended meanwhile
                pass
    return found


def event_loop_cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process's first thread, the one uvicorn's event loop runs on."""
    return cpu_seconds_of(Path(f"/proc/{pid}/task/{pid}/stat"))


def cpu_seconds_of(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summarize(results: list[Result]) -> dict[str, float]:
    ok = [r for r in results if r[0] in (200, 201)]
    latencies = sorted((end - began) * 1000 for _, began, end, _ in ok) or [float("nan")]
    span = max(r[2] for r in results) - min(r[1] for r in results)
    return {
        "ok": len(ok),
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "throughput": len(ok) / span if span > 0 else float("nan"),
    }


# -- the sheets -----------------------------------------------------------------------------------
def jobs_for(pairs: list[tuple[Any, Any]], tokens: dict[tuple[int, str], str]) -> list[Job]:
    """Every table's first sheet, then every table's second (so each second sheet finds its first)."""
    return [
        Job(
            f"{API}/sheets/{sheet.id}/revisions/{len(sheet.entries)}",
            tokens[(sheet.context.table, sheet.context.written_by)],
            sheet.to_json().encode(),
        )
        for i in (0, 1)
        for sheet in (pair[i] for pair in pairs)
    ]


def join_all(url: str, cafile: str | None, code: str, tables: int) -> tuple[dict[tuple[int, str], str], str]:
    """Two devices per table (team A, team B); their tokens and the tournament's id."""
    tokens: dict[tuple[int, str], str] = {}
    tournament = ""
    limits = httpx.Limits(max_connections=4)
    with httpx.Client(base_url=url, verify=_ssl_context(cafile), limits=limits, timeout=60) as client:

        def one(key: tuple[int, str]) -> tuple[tuple[int, str], dict[str, Any]]:
            table, team = key
            body = {"join_code": code, "table": table, "team": team, "device_name": f"Bench {table}{team}"}
            answer = client.post(f"{API}/join", json=body)
            answer.raise_for_status()
            return key, answer.json()

        with ThreadPoolExecutor(4) as pool:
            for key, joined in pool.map(one, [(t, team) for t in range(1, tables + 1) for team in "AB"]):
                tokens[key] = joined["device_token"]
                tournament = joined["tournament_id"]
    return tokens, tournament


# -- where the host's time goes -------------------------------------------------------------------
def phased_host() -> type:
    """``HostProcess`` running ``tischblock host`` through ``bench/host_phases.py``: the same host,
    checking in its own process, with a clock on each phase; it prints them when it stops."""
    from tests.hostproc import HostProcess

    class PhasedHost(HostProcess):
        def command(self) -> list[str]:
            cmd = super().command()
            return [cmd[0], str(ROOT / "bench" / "host_phases.py"), *cmd[2:]]

    return PhasedHost


# -- the run --------------------------------------------------------------------------------------
def run_transport(https: bool, args: argparse.Namespace, work: Path) -> dict[str, list[dict[str, float]]]:
    from tests.hostproc import JOIN_CODE, HostProcess

    # tests/conftest.py (imported with tests.hostproc) sets it to 0 for the suite's hosts: the bench
    # measures the host as it starts by default.
    os.environ.pop("TISCHBLOCK_CHECK_PROCESSES", None)
    rows: dict[str, list[dict[str, float]]] = {"bare": [], "host": []}
    compared = 0
    extra = () if args.check_processes is None else ("--check-processes", str(args.check_processes))
    host = (phased_host() if args.phases else HostProcess)(work / "host", https=https, extra_args=extra).start()
    bare: BareProcess | None = None
    try:
        cafile = str(work / "host" / "tls" / "host-cert.pem") if https else None
        key = str(work / "host" / "tls" / "host-key.pem") if https else None
        bare = BareProcess(work / "bare", cafile, key)
        tokens, tournament = join_all(host.url, cafile, JOIN_CODE, args.tables)
        rng = random.Random(2026)
        name = "HTTPS (the host's certificate, keep-alive)" if https else "plain HTTP (keep-alive)"
        print(f"{name}: {args.tables} tables, {2 * args.tables} signed sheets a round, {args.connections} connections")
        for round_no in range(1, args.rounds + 1):
            jobs = jobs_for(sheet_pairs(tournament, args.tables, round_no, rng), tokens)
            order = ["bare", "host"] if round_no % 2 else ["host", "bare"]
            for target in order:
                url = host.url if target == "host" else bare.url
                before = len(host.stored_revisions()) if target == "host" else bare.stored()
                assert host.proc is not None
                server = host.proc.pid if target == "host" else bare.proc.pid
                cpu_before, loop_before = cpu_seconds(server), event_loop_cpu_seconds(server)
                workers_before = children_cpu_seconds(server)
                results = send(url, cafile, jobs, args.connections)
                cpu = (cpu_seconds(server) - cpu_before) / len(jobs) * 1000
                loop = (event_loop_cpu_seconds(server) - loop_before) / len(jobs) * 1000
                workers = (children_cpu_seconds(server) - workers_before) / len(jobs) * 1000
                after = len(host.stored_revisions()) if target == "host" else bare.stored()
                summary = summarize(results)
                summary["stored"] = after - before
                summary["cpu"] = cpu
                rows[target].append(summary)
                if target == "host":
                    compared += sum(1 for result in results if result[3])
                print(
                    f"  round {round_no} {target:>4}: p50 {summary['p50']:7.1f} ms  p99 {summary['p99']:7.1f} ms  "
                    f"{summary['throughput']:7.1f} sheets/s  CPU {cpu:4.2f} ms/sheet  answered {summary['ok']}/{len(jobs)}  stored {after - before}/{len(jobs)}"
                )
                print(
                    f"             of its CPU: event loop {loop:4.2f} ms/sheet, the other threads {cpu - loop - workers:4.2f} ms/sheet, "
                    f"its check processes {workers:4.2f} ms/sheet"
                )
        if args.rounds:  # counted in the answers: the log lines may still be on their way
            print(f"  the host answered {compared} sheets with the comparison of their table's two sheets (all agreeing)")
    finally:
        if bare is not None:
            bare.stop()
        host.stop()
    if args.phases:
        print(
            "  where the host's CPU went, over all its rounds (bench/host_phases.py; sheets checked in the host's own process):"
        )
        for line in host.output:
            if line.startswith("PHASES "):
                print("   " + line.removeprefix("PHASES"))
    return rows


def report(name: str, rows: dict[str, list[dict[str, float]]]) -> float:
    def mean(target: str, key: str) -> float:
        return statistics.fmean(r[key] for r in rows[target])

    ratio = mean("host", "throughput") / mean("bare", "throughput")
    p99_ratio = mean("host", "p99") / mean("bare", "p99")
    print(
        f"{name:<6} bare: {mean('bare', 'throughput'):7.1f} sheets/s  p50 {mean('bare', 'p50'):6.1f} ms  p99 {mean('bare', 'p99'):6.1f} ms"
        f"  CPU {mean('bare', 'cpu'):4.2f} ms/sheet"
    )
    print(
        f"{name:<6} host: {mean('host', 'throughput'):7.1f} sheets/s  p50 {mean('host', 'p50'):6.1f} ms  p99 {mean('host', 'p99'):6.1f} ms"
        f"  CPU {mean('host', 'cpu'):4.2f} ms/sheet"
    )
    print(
        f"{name:<6} host throughput / bare throughput: {ratio:.2f} (target: at least 0.50); host p99 / bare p99: {p99_ratio:.2f} (target: under 4)"
    )
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables, two signed sheets each per round")
    parser.add_argument("--connections", type=int, default=48, help="keep-alive connections of the client process")
    parser.add_argument("--transport", choices=("both", "http", "https"), default="both")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of new sheets; the order of the targets alternates")
    parser.add_argument(
        "--phases",
        action="store_true",
        help="clock each phase of taking a sheet in the host (bench/host_phases.py; the host checks sheets itself)",
    )
    parser.add_argument(
        "--check-processes",
        type=int,
        metavar="N",
        help="the host's --check-processes (default: the host's own, one per core; 0: it checks sheets in its own process)",
    )
    parser.add_argument(
        "--pin-bare",
        action="store_true",
        help="keep the bare endpoint on one core too, as the host keeps itself (one_core): the fairness check",
    )
    parser.add_argument(
        "--per-sheet",
        action="store_true",
        help="only time, in this process, what the host does with each of the bench's sheets in pure Python: parse, score",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="with --per-sheet: count each step in instructions too (valgrind's callgrind: the same on every run)",
    )
    parser.add_argument("--serve-bare", nargs=2, metavar=("FD", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--cert", help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pin_bare:
        os.environ["BENCH_PIN_BARE"] = "1"  # read by the bare endpoint's own process
    if args.serve_bare:
        serve_bare(int(args.serve_bare[0]), Path(args.serve_bare[1]), args.cert, args.key)
        return 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if args.per_sheet:
        host_steps.per_sheet(args.tables)
        if args.instructions:
            host_steps.per_sheet_instructions(args.tables)
        return 0
    transports = {"both": [False, True], "http": [False], "https": [True]}[args.transport]
    complete = True
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-host-", ignore_cleanup_errors=True) as folder:
        print(f"data in {folder} (removed at the end)")
        results = {}
        for https in transports:
            rows = run_transport(https, args, Path(folder) / ("https" if https else "http"))
            results["HTTPS" if https else "HTTP"] = rows
            complete = complete and all(
                r["stored"] == 2 * args.tables and r["ok"] == 2 * args.tables for rs in rows.values() for r in rs
            )
    for name, rows in results.items():
        report(name, rows)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("all stored" if complete else "NOT all stored")
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
