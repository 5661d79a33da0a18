"""The host's self-signed certificate: made once, kept private, pinned by its fingerprint."""

from __future__ import annotations

import hashlib
import ssl
import stat
from pathlib import Path

import pytest
import requests
from cryptography import x509

from sync.host.tls import ensure_certificate, lan_addresses

from .host_helpers import RunningHost, host_fixture, pinned_session  # noqa: F401  (fixture)


def test_the_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path)
    again = ensure_certificate(tmp_path)
    assert first.created and not again.created
    assert again.fingerprint == first.fingerprint
    assert stat.S_IMODE(first.key_path.stat().st_mode) == 0o600
    der = ssl.PEM_cert_to_DER_cert(first.cert_path.read_text())
    assert first.fingerprint == ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def test_the_certificate_names_loopback_localhost_and_the_lan(tmp_path: Path) -> None:
    made = ensure_certificate(tmp_path)
    cert = x509.load_pem_x509_certificate(made.cert_path.read_bytes())
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "localhost" in sans.get_values_for_type(x509.DNSName)
    assert "127.0.0.1" in made.addresses
    for address in lan_addresses():
        assert address in made.addresses


def test_another_data_dir_gets_another_certificate(tmp_path: Path) -> None:
    assert ensure_certificate(tmp_path / "a").fingerprint != ensure_certificate(tmp_path / "b").fingerprint


def test_a_phone_pinned_to_the_hosts_certificate_connects(host: RunningHost) -> None:
    assert host.fingerprint is not None
    reply = pinned_session(host.fingerprint).get(f"{host.url}/api/v1/info", timeout=10)
    assert reply.status_code == 200


def test_a_phone_pinned_to_another_certificate_refuses_the_host(host: RunningHost, tmp_path: Path) -> None:
    look_alike = ensure_certificate(tmp_path / "other").fingerprint
    with pytest.raises(requests.exceptions.SSLError, match="Fingerprints did not match"):
        pinned_session(look_alike).get(f"{host.url}/api/v1/info", timeout=10)


def test_a_client_without_the_pin_refuses_the_self_signed_host(host: RunningHost) -> None:
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(f"{host.url}/api/v1/info", timeout=10)


def test_the_host_keeps_its_certificate_across_restarts(host: RunningHost) -> None:
    before = host.fingerprint
    host.stop()
    host.start()
    assert host.fingerprint == before
    assert "Zertifikat erstellt" not in host.terminal().split(f"--- start {host.starts}\n")[-1]
