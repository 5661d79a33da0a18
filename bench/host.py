"""The end of a round at a 2000-player tournament: 500 tables submit their closed sheet at the same moment.

    python bench/host.py [--tables 500] [--processes 2] [--rounds 2] [--insecure-http]

Against the real host process (``tischblock host``: HTTPS with its own certificate, SQLite with
WAL and ``synchronous=FULL``, every sheet checked by its ruleset and compared with the other
sheet of its table) and, in the same run with the same clients, a bare FastAPI endpoint that only
writes each body durably (temp file, fsync, rename, directory fsync) and answers like the host.
Every table is one phone: its own connection (TLS handshake, pinned certificate), one PUT of a
closed Watten Durchgang. The clients are ``--processes`` processes with one thread per table,
all released at one instant. Prints p50 and p99 latency, throughput, and the host's throughput
as a share of the bare endpoint's (target: at least 0.5). Rounds alternate the order.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# -- the bare endpoint ----------------------------------------------------------------------------
def bare_app(folder: Path) -> Any:
    """A FastAPI app that only stores each PUT body durably and answers as the host would."""
    from storage.atomic import atomic_write_bytes

    app = FastAPI()

    @app.get("/api/v1/info")
    def info() -> dict[str, Any]:
        return {"api_version": 1, "tournament_id": "bare", "tournament_name": "bare"}

    @app.put("/api/v1/sheets/{sheet_id}/revisions/{revision}", status_code=201)
    async def put(sheet_id: uuid.UUID, revision: int, request: Request, response: Response) -> dict[str, Any]:
        body = await request.body()
        await run_in_threadpool(atomic_write_bytes, folder / f"{sheet_id}.{revision}.json", body)
        return {"status": "stored", "sheet_id": str(sheet_id), "revision": revision, "closed": True}

    return app


def serve_bare(port: int, folder: Path, cert: str | None, key: str | None) -> None:
    import uvicorn

    uvicorn.run(
        bare_app(folder), host="127.0.0.1", port=port, ssl_certfile=cert, ssl_keyfile=key, log_level="warning", access_log=False
    )


class BareProcess:
    def __init__(self, folder: Path, cert: str | None, key: str | None, fingerprint: str | None) -> None:
        from tests.hostproc import free_port

        self.folder = folder
        self.port = free_port()
        self.fingerprint = fingerprint
        self.url = f"{'https' if cert else 'http'}://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, __file__, "--serve-bare", str(self.port), str(folder)]
        if cert and key:
            cmd += ["--cert", cert, "--key", key]
        self.proc = subprocess.Popen(cmd, cwd=ROOT)
        self._wait()

    def _wait(self) -> None:
        from sync.client import HostClient, SyncError

        deadline = time.monotonic() + 60
        with HostClient(self.url, fingerprint=self.fingerprint, timeout=(1, 2)) as probe:
            while True:
                try:
                    probe.info()
                    return
                except SyncError:
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("bare endpoint did not start") from None
                    time.sleep(0.1)

    def stored(self) -> int:
        return sum(1 for p in self.folder.iterdir() if p.suffix == ".json")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


# -- the phones -----------------------------------------------------------------------------------
Job = tuple[str, str | None, str, str]  # url, fingerprint, token, sheet JSON


def _one_phone(url: str, fingerprint: str | None, token: str, sheet: Any, start_at: float) -> tuple[int, float, float, str]:
    from urllib3.util.retry import Retry

    from sync.client import HostClient, SyncError

    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    began = time.time()
    try:
        with HostClient(
            url, fingerprint=fingerprint, token=token, timeout=(30, 120), retry=Retry(total=3, backoff_factor=0.2)
        ) as client:
            answer = client.submit(sheet)
        return (201 if answer.status == "stored" else 200), began, time.time(), ""
    except SyncError as error:
        return 0, began, time.time(), str(error)


def _phone_process(jobs: list[Job], start_at: float) -> list[tuple[int, float, float, str]]:
    """One client process: everything imported and parsed first, then one thread per phone."""
    from scoring import Sheet
    from sync import client  # noqa: F401  (imported before the start, not inside the measured requests)

    parsed = [(url, fingerprint, token, Sheet.from_json(body)) for url, fingerprint, token, body in jobs]
    if time.time() > start_at:
        print(f"warning: a client process was ready {time.time() - start_at:.1f} s after the start", file=sys.stderr)
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(_one_phone, *job, start_at) for job in parsed]
        return [f.result() for f in futures]


def burst(jobs: list[Job], processes: int) -> list[tuple[int, float, float, str]]:
    """All jobs at one instant, from ``processes`` processes with a thread per job."""
    context = multiprocessing.get_context("spawn")
    shares = [jobs[i::processes] for i in range(processes)]
    with context.Pool(processes) as pool:
        start_at = time.time() + 8.0 + 0.01 * len(jobs)  # every process and thread is ready by then
        results = pool.starmap(_phone_process, [(share, start_at) for share in shares])
    return [r for share in results for r in share]


def summarize(results: list[tuple[int, float, float, str]]) -> dict[str, float]:
    ok = [r for r in results if r[0] in (200, 201)]
    latencies = sorted((end - began) * 1000 for _, began, end, _ in ok) or [float("nan")]
    span = max(r[2] for r in results) - min(r[1] for r in results)
    return {
        "ok": len(ok),
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "throughput": len(ok) / span if span > 0 else float("nan"),
    }


# -- the run --------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of one burst each; the order alternates")
    parser.add_argument("--insecure-http", action="store_true", help="both over plain HTTP instead of pinned HTTPS")
    parser.add_argument("--serve-bare", nargs=2, metavar=("PORT", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--cert", help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_bare:
        serve_bare(int(args.serve_bare[0]), Path(args.serve_bare[1]), args.cert, args.key)
        return 0

    from sync.client import join
    from tests.hostproc import HostProcess
    from tests.sync_helpers import watten_sheet, watten_teams

    work = Path(tempfile.mkdtemp(prefix="tischblock-bench-host-"))
    host = HostProcess(work / "host", https=not args.insecure_http).start()
    bare: BareProcess | None = None
    rows: dict[str, list[dict[str, float]]] = {"bare": [], "host": []}
    try:
        with ThreadPoolExecutor(8) as pool:
            tokens = list(
                pool.map(
                    lambda t: join(host.line, t, "A", f"Bench Tisch {t}").device_token.get_secret_value(),
                    range(1, args.tables + 1),
                )
            )
        assert host.join_line is not None
        tournament = join(host.line, 1, "A", "Bench").tournament_id
        rng = random.Random(2026)
        templates = [watten_sheet(rng, tournament=tournament, table=1) for _ in range(6)]
        tls = work / "host" / "tls"
        cert = str(tls / "host-cert.pem") if host.https else None
        key = str(tls / "host-key.pem") if host.https else None
        bare = BareProcess(work / "bare", cert, key, host.fingerprint)
        protocol = "plain HTTP" if args.insecure_http else "HTTPS, pinned certificate"
        print(f"{args.tables} tables, one closed Watten Durchgang each, {args.processes} client processes, {protocol}")
        for round_no in range(1, args.rounds + 1):
            sheets = []
            for table in range(1, args.tables + 1):
                template = templates[table % len(templates)]
                context = template.context.model_copy(update={"table": table, "round": round_no})
                sheets.append(
                    template.model_copy(update={"id": uuid.uuid4(), "context": context, "participants": watten_teams(table)})
                )
            order = ["bare", "host"] if round_no % 2 else ["host", "bare"]
            for target in order:
                url = host.url if target == "host" else bare.url
                jobs = [(url, host.fingerprint, tokens[s.context.table - 1], s.to_json()) for s in sheets]  # type: ignore[index,operator]
                before = len(host.stored_revisions()) if target == "host" else bare.stored()
                results = burst(jobs, args.processes)
                after = len(host.stored_revisions()) if target == "host" else bare.stored()
                summary = summarize(results)
                summary["stored"] = after - before
                rows[target].append(summary)
                errors = {r[3] for r in results if r[0] == 0}
                print(
                    f"  round {round_no} {target:>4}: p50 {summary['p50']:7.1f} ms  p99 {summary['p99']:7.1f} ms  "
                    f"{summary['throughput']:6.1f} sheets/s  answered {summary['ok']}/{len(jobs)}  stored {after - before}/{len(jobs)}"
                    + (f"  errors: {sorted(errors)[:2]}" if errors else "")
                )
    finally:
        if bare is not None:
            bare.stop()
        host.stop()

    def mean(target: str, key: str) -> float:
        return statistics.fmean(r[key] for r in rows[target])

    print(f"{'':>28} {'p50 ms':>9} {'p99 ms':>9} {'sheets/s':>9}")
    print(f"{'bare FastAPI + fsync':>28} {mean('bare', 'p50'):9.1f} {mean('bare', 'p99'):9.1f} {mean('bare', 'throughput'):9.1f}")
    print(f"{'Tischblock host':>28} {mean('host', 'p50'):9.1f} {mean('host', 'p99'):9.1f} {mean('host', 'throughput'):9.1f}")
    bare_throughput = mean("bare", "throughput")
    ratio = mean("host", "throughput") / bare_throughput if bare_throughput > 0 else float("nan")
    print(f"host throughput / bare throughput: {ratio:.2f} (target: at least 0.50)")
    complete = all(r["stored"] == args.tables and r["ok"] == args.tables for rs in rows.values() for r in rs)
    print("all stored" if complete else "NOT all stored")
    return 0 if complete else 1


if __name__ == "__main__":
    sys.exit(main())
