"""The port a server of Tischblock listens on: bound before anything says it runs.

``tischblock host`` and ``tischblock app`` print that they run and where. A port another program
holds (a host started twice, a second app, any other server) used to be found by uvicorn only
after that line, with a traceback and exit code 3: the organizer saw the banner, the QR code and
"Der Host läuft" for a host that never ran. ``listen_socket`` binds first and says in one German
line what is wrong with the address and what to do; the CLI prints it as ``Fehler: ...``.
"""

from __future__ import annotations

import errno
import socket


class ListenError(ValueError):
    """The address or port cannot be listened on (German message naming the option to change)."""


def listen_socket(host: str, port: int, *, what: str = "der Host") -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (``SO_REUSEADDR``, as uvicorn binds), not yet listening.

    ``what`` names the server in the message ("der Host", "die App"). Raises ``ListenError``."""
    if not 1 <= port <= 65535:
        raise ListenError(f"Port {port} gibt es nicht: --port braucht eine Zahl von 1 bis 65535.")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise ListenError(_why(error, host, port, what)) from None
    return sock


def _why(error: OSError, host: str, port: int, what: str) -> str:
    if isinstance(error, socket.gaierror):
        return f"Die Adresse {host!r} gibt es nicht: --host braucht eine Adresse dieses Rechners (z. B. 0.0.0.0 für alle)."
    if error.errno == errno.EADDRINUSE:
        return (
            f"Port {port} ist schon belegt (läuft {what} schon, oder ein anderes Programm?): "
            f"mit --port einen anderen Port wählen."
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return f"Die Adresse {host} gehört nicht zu diesem Rechner: mit --host eine seiner Adressen wählen (0.0.0.0 für alle)."
    if error.errno == errno.EACCES:
        return f"Port {port} darf nur der Administrator öffnen: mit --port einen Port ab 1024 wählen."
    return f"An {host}:{port} kann {what} nicht lauschen ({error.strerror or error}): --host oder --port ändern."
