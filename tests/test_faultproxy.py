"""The fault proxy does what the sync tests rely on: each fault, seeded, bounded, against a real server."""

from __future__ import annotations

import http.server
import ssl
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from urllib3.util.retry import Retry

from sync.client import HostClient
from sync.host.tls import ensure_certificate

from .conftest import wait_for
from .faultproxy import CLEAN, Fault, FaultProxy, FaultSchedule


class _Counting(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like the real host
    seen: Counter[str]
    lock: threading.Lock

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with self.lock:
            self.seen[self.path] += 1
        reply = b"stored " + body
        self.send_response(201)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    """The counting server, quiet about the connections the proxy cuts on purpose (a reply written to a
    client the proxy dropped); any other error of a request is still printed, as socketserver does."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionError, ssl.SSLError)):
            super().handle_error(request, client_address)


@pytest.fixture
def server() -> Iterator[tuple[int, Counter[str]]]:
    seen: Counter[str] = Counter()
    handler = type("Handler", (_Counting,), {"seen": seen, "lock": threading.Lock()})
    httpd = _Server(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], seen
    httpd.shutdown()
    httpd.server_close()


def test_clean_proxy_forwards_every_request_on_a_kept_alive_connection(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port) as proxy, requests.Session() as session:
        for n in range(20):
            reply = session.put(f"{proxy.url}/r/{n}", data=b"x" * n, timeout=5)
            assert reply.status_code == 201 and reply.content == b"stored " + b"x" * n
    assert sum(seen.values()) == 20 and set(seen.values()) == {1}
    assert proxy.stats["connections"] == 1, "one kept-alive connection"
    assert proxy.decisions == [Fault.PASS] * 20, "one turn per request"


def test_drop_never_reaches_the_host(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port, FaultSchedule(drop=1.0)) as proxy:
        for n in range(3):
            with pytest.raises(requests.ConnectionError):
                requests.put(f"{proxy.url}/r/{n}", data=b"sheet", timeout=5)
    assert sum(seen.values()) == 0
    assert proxy.stats["drop"] == 3


def test_lost_reply_reaches_the_host_but_not_the_client(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port, FaultSchedule(lose_reply=1.0)) as proxy:
        for n in range(3):
            with pytest.raises(requests.ConnectionError):
                requests.put(f"{proxy.url}/r/{n}", data=b"sheet", timeout=5)
    assert seen == Counter({"/r/0": 1, "/r/1": 1, "/r/2": 1})
    assert proxy.stats["replies_lost"] == 3


def test_duplicate_sends_the_request_twice_and_the_client_hears_one_answer(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port, FaultSchedule(duplicate=1.0)) as proxy, requests.Session() as session:
        for n in range(3):
            reply = session.put(f"{proxy.url}/r/{n}", data=b"sheet", timeout=5)
            assert reply.status_code == 201 and reply.content == b"stored sheet"
        wait_for("six requests at the server", lambda: sum(seen.values()) == 6)
    assert seen == Counter({"/r/0": 2, "/r/1": 2, "/r/2": 2})


def test_delay_holds_requests_back_but_delivers_them(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port, FaultSchedule(delay=1.0, max_delay=0.2), seed=3) as proxy, requests.Session() as session:
        started = time.monotonic()
        for n in range(5):
            assert session.put(f"{proxy.url}/r/{n}", data=b"s", timeout=5).status_code == 201
        elapsed = time.monotonic() - started
    assert sum(seen.values()) == 5
    assert elapsed > 0.1, "five random delays of up to 0.2 s add up"


def _decisions(port: int, seed: int) -> list[Fault]:
    schedule = FaultSchedule(drop=0.2, lose_reply=0.2, delay=0.1, duplicate=0.2, max_delay=0.01)
    with FaultProxy(port, schedule, seed=seed) as proxy:
        for n in range(30):
            try:
                requests.put(f"{proxy.url}/r/{n}", data=b"s", timeout=5)
            except requests.ConnectionError:
                pass
        return list(proxy.decisions)


def test_the_same_seed_gives_the_same_schedule(server: tuple[int, Counter[str]]) -> None:
    port, _ = server
    first = _decisions(port, seed=42)
    assert first == _decisions(port, seed=42)
    assert first != _decisions(port, seed=43)
    assert set(first) == set(Fault), "every fault occurs in 30 turns"


def test_host_down_closes_the_client_connection(server: tuple[int, Counter[str]]) -> None:
    port, _ = server
    with FaultProxy(port) as upstream_gone:
        pass
    with FaultProxy(upstream_gone.port) as proxy:  # nothing listens on the old proxy's port now
        with pytest.raises(requests.ConnectionError):
            requests.put(f"{proxy.url}/r/0", data=b"s", timeout=5)
    assert proxy.stats["upstream_down"] == 1


def test_connections_are_bounded(server: tuple[int, Counter[str]]) -> None:
    port, seen = server
    with FaultProxy(port, CLEAN, max_connections=2) as proxy:
        sessions = [requests.Session() for _ in range(3)]
        try:
            for session in sessions[:2]:
                assert session.put(f"{proxy.url}/r/held", data=b"s", timeout=5).status_code == 201
            with pytest.raises(requests.ConnectionError):
                sessions[2].put(f"{proxy.url}/r/third", data=b"s", timeout=5)
        finally:
            for session in sessions:
                session.close()
    assert proxy.stats["refused"] == 1
    assert seen["/r/third"] == 0


def test_bad_schedule_is_refused() -> None:
    with pytest.raises(ValueError):
        FaultSchedule(drop=0.7, lose_reply=0.7)


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[int, Counter[str], str]]:
    """The counting server behind TLS, with a certificate made like the host's; yields its pin too."""
    certificate = ensure_certificate(tmp_path)
    seen: Counter[str] = Counter()
    handler = type("Handler", (_Counting,), {"seen": seen, "lock": threading.Lock()})
    httpd = _Server(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate.cert_path, certificate.key_path)
    context.maximum_version = ssl.TLSVersion.TLSv1_2  # a handshake of exactly two turns, so a test can aim past it
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], seen, certificate.fingerprint
    httpd.shutdown()
    httpd.server_close()


def test_https_passes_through_untouched_and_a_lost_reply_still_reaches_the_host(
    tls_server: tuple[int, Counter[str], str],
) -> None:
    """The proxy only moves TCP bytes: TLS (with the pinned certificate) works through it, and a
    reply lost under TLS is a request the host got and the client never heard of."""
    port, seen, fingerprint = tls_server
    with FaultProxy(port) as proxy, HostClient(f"https://127.0.0.1:{proxy.port}", fingerprint=fingerprint) as client:
        reply = client.session.put(f"https://127.0.0.1:{proxy.port}/r/clean", data=b"sheet", timeout=5)
        assert reply.status_code == 201 and reply.content == b"stored sheet"
    # The handshake has two turns of its own (TLS 1.2); the request is the third: its reply is lost.
    with FaultProxy(port, plan=[Fault.PASS, Fault.PASS], schedule=FaultSchedule(lose_reply=1.0)) as proxy:
        with HostClient(f"https://127.0.0.1:{proxy.port}", fingerprint=fingerprint, retry=Retry(total=0)) as client:
            with pytest.raises(requests.ConnectionError):
                client.session.put(f"https://127.0.0.1:{proxy.port}/r/lost", data=b"sheet", timeout=5)
    wait_for("the lost request at the server", lambda: seen["/r/lost"] == 1)
    assert proxy.stats["replies_lost"] >= 1
