"""The host's own TLS certificate: made at the first start, kept in the data directory, pinned by the phones.

No CA and no internet: the host makes a self-signed certificate (``cryptography``) whose SANs
name 127.0.0.1, localhost and the machine's LAN addresses, keeps it and its key (mode 0600) in
``<data-dir>/tls/``, and prints the certificate's SHA-256 fingerprint in the join line. A phone
pins that fingerprint (urllib3's ``assert_fingerprint``), so a look-alike host on the same
Wi-Fi with another certificate is refused.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

TLS_DIR = "tls"
CERT_NAME = "host-cert.pem"
KEY_NAME = "host-key.pem"
VALID_DAYS = 5 * 365

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class HostCertificate:
    cert_path: Path
    key_path: Path
    fingerprint: str
    """SHA-256 of the DER certificate as colon hex, upper case ("AB:CD:..."), as urllib3 pins it."""
    addresses: tuple[str, ...]
    """The IP addresses the certificate names (its SANs)."""
    created: bool
    """Made just now (first start) rather than loaded."""


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback, found without sending anything.

    The addresses of the host name, and the address the kernel would route a LAN packet from
    (a UDP ``connect`` only picks a route; no packet leaves the machine).
    """
    found: list[str] = []
    candidates: list[str] = []
    try:
        candidates += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    for probe in ("192.168.255.255", "10.255.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                candidates.append(str(s.getsockname()[0]))
        except OSError:
            continue
    for candidate in candidates:
        address = ipaddress.ip_address(candidate)
        if address.is_loopback or address.is_link_local or address.is_unspecified or candidate in found:
            continue
        found.append(candidate)
    return found


def fingerprint_of(cert: x509.Certificate) -> str:
    return ":".join(f"{byte:02X}" for byte in cert.fingerprint(hashes.SHA256()))


def _write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner may read (mode 0600 from its creation on, never wider)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def make_certificate(addresses: list[str], now: datetime | None = None) -> tuple[bytes, bytes]:
    """A new self-signed certificate (PEM) and its EC P-256 key (PEM) for these IP addresses."""
    now = now or datetime.now(UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tischblock-Host")])
    ips: list[IPAddress] = [ipaddress.ip_address("127.0.0.1"), *(ipaddress.ip_address(a) for a in addresses)]
    sans: list[x509.GeneralName] = [x509.DNSName("localhost"), *(x509.IPAddress(ip) for ip in dict.fromkeys(ips))]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return cert.public_bytes(serialization.Encoding.PEM), key_pem


def ensure_certificate(data_dir: Path) -> HostCertificate:
    """The host's certificate: loaded from ``data_dir/tls``, or made and kept there at the first start."""
    folder = Path(data_dir) / TLS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / CERT_NAME, folder / KEY_NAME
    created = False
    if not (cert_path.exists() and key_path.exists()):
        cert_pem, key_pem = make_certificate(lan_addresses())
        _write_private(key_path, key_pem)
        _write_private(cert_path, cert_pem)
        cert_path.chmod(0o644)
        created = True
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    addresses = tuple(str(ip) for ip in sans.get_values_for_type(x509.IPAddress))
    return HostCertificate(cert_path, key_path, fingerprint_of(cert), addresses, created)
