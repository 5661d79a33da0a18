"""The host's files on the organizer's laptop: readable by its owner only.

Everything the host writes into its data directory (the SQLite database with its ``-wal``/``-shm``
files, the certificate's private key, the settings inside the database) holds what the laptop must
protect: device token hashes, entrant secrets, the password hash, every sheet. The host creates them
with umask 077 (files 0600, directories 0700), and at each start checks the data directory and what
is in it: whatever another user of the laptop could read is tightened, with a German warning in the
banner. The certificate itself (``host-cert.pem``) is public (every phone sees it) and stays 0644.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PUBLIC = {"host-cert.pem"}
"""Files meant to be read by anyone: the certificate the phones pin anyway."""


def private_umask() -> None:
    """From now on this process creates files 0600 and directories 0700."""
    os.umask(0o077)


def secure_data_dir(data_dir: Path) -> list[str]:
    """Tighten the data directory (0700) and every file and folder in it (0600 / 0700) that others
    could read or write; one German warning per item that was not private."""
    warnings: list[str] = []
    root = Path(data_dir)
    if not root.exists():
        return warnings
    items = [root, *sorted(root.rglob("*"))]
    for path in items:
        if path.is_symlink() or path.name in PUBLIC:
            continue
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except OSError:
            continue
        wanted = 0o700 if path.is_dir() else 0o600
        if mode & 0o077:
            try:
                path.chmod(mode & ~0o077 | (wanted & 0o700))
                done = f"jetzt {wanted:04o}"
            except OSError as error:
                done = f"nicht änderbar ({error.strerror}); bitte selbst: chmod {wanted:o} {path}"
            what = "Datenverzeichnis" if path == root else ("Ordner" if path.is_dir() else "Datei")
            warnings.append(f"WARNUNG: {what} {path} war für andere Benutzer lesbar (Modus {mode:04o}); {done}")
    return warnings
