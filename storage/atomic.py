"""Crash-safe file writes and the TinyDB storage built on them.

TinyDB's default ``JSONStorage`` overwrites its file in place and truncates afterwards; a
process killed in the middle leaves a file that no longer parses ("Trailing data", NUL
bytes, an emptied database). ``AtomicJSONStorage`` never writes into the live file:

1. the new content goes to ``<name>.tmp`` in the same directory, which is fsynced;
2. ``os.replace`` puts it over the old file in one step (atomic on POSIX and Windows);
3. the directory is fsynced so the rename itself survives a power cut.

At every moment the live file is either the old or the new version, complete. A write is
*acknowledged* when ``write`` returns, after step 3.

On ``read`` a leftover ``.tmp`` (a write that was killed before step 2) is cleaned up: it
is promoted only when the live file is missing or unreadable and the temp file is complete
JSON; otherwise it was never acknowledged and is discarded. A live file that cannot be read
is moved into the ``damaged/`` folder and ``DamagedFile`` is raised: the storage never
silently starts empty over a file it could not read.

Reads that clean up and all writes must run under the store's lock (``repository.py``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from .errors import DamagedFile, StorageError, StorageFull

TMP_SUFFIX = ".tmp"
DAMAGED_DIR = "damaged"
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (a no-op where directories cannot be opened, e.g. Windows)."""
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def ensure_dir(directory: Path) -> None:
    """``mkdir -p`` whose new folders survive a power cut: the parent of each created folder is fsynced."""
    missing = []
    current = directory
    while not current.exists():
        missing.append(current)
        current = current.parent
    directory.mkdir(parents=True, exist_ok=True)
    for created in reversed(missing):
        # A parent this process may enter but not open is not ours: nothing more to make durable.
        with contextlib.suppress(PermissionError):
            fsync_dir(created.parent)


def tmp_path(path: Path) -> Path:
    return path.with_name(path.name + TMP_SUFFIX)


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically and durably; on any error the old file is intact.

    ``mode`` is the new file's permission from its first byte on (``0o600`` for a secret such
    as the device token: never readable by others, not even while it is being written).
    Raises ``StorageFull`` when the disk is full, ``StorageError`` for other I/O errors.
    """
    tmp = tmp_path(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), mode)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # a leftover temp file keeps its old mode through O_CREAT; the umask may narrow it
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as error:
        _discard(tmp)
        if error.errno in _FULL:
            raise StorageFull(path, error.strerror or str(error)) from error
        raise StorageError(f"{path} konnte nicht geschrieben werden: {error.strerror or error}") from error
    fsync_dir(path.parent)


def _discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def keep_aside(path: Path, damaged_dir: Path) -> Path:
    """Move an unreadable file into ``damaged_dir`` under a unique, dated name; return where it went."""
    ensure_dir(damaged_dir)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = damaged_dir / f"{path.name}.{stamp}"
    counter = 1
    while target.exists():
        counter += 1
        target = damaged_dir / f"{path.name}.{stamp}-{counter}"
    os.replace(path, target)
    fsync_dir(damaged_dir)
    fsync_dir(path.parent)
    return target


def parse_json_object(data: bytes) -> dict[str, Any]:
    """Parse a stored file; ``ValueError`` with a German reason when it is not a JSON object."""
    if not data:
        raise ValueError("die Datei ist leer")
    if data.strip(b"\x00") == b"":
        raise ValueError("die Datei enthält nur Nullbytes")
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ValueError(f"kein UTF-8-Text ab Byte {error.start}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"kein gültiges JSON: {error.msg}, Zeile {error.lineno}, Spalte {error.colno}") from None
    except RecursionError:  # a crafted file: objects nested deeper than Python's parser goes
        raise ValueError("kein gültiges JSON: zu tief verschachtelt") from None
    if not isinstance(value, dict):
        raise ValueError("kein JSON-Objekt")
    return value


def dump_json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode("utf-8")


class AtomicJSONStorage(Storage):
    """A TinyDB storage that writes by temp file, fsync, ``os.replace`` and directory fsync.

    ``damaged_dir`` is where unreadable files are kept (default: ``damaged/`` beside the
    file's folder). ``validate`` may check the parsed content and raise ``ValueError`` with a
    German reason, which makes the file count as damaged.
    """

    def __init__(self, path: str | os.PathLike[str], damaged_dir: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.damaged_dir = Path(damaged_dir) if damaged_dir is not None else self.path.parent.parent / DAMAGED_DIR

    # -- reading ---------------------------------------------------------------------------
    def read(self) -> dict[str, Any] | None:
        self._recover_tmp()
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StorageError(f"{self.path} kann nicht gelesen werden: {error.strerror or error}") from error
        try:
            value = parse_json_object(data)
            self.validate(value)
        except ValueError as error:
            try:
                kept = keep_aside(self.path, self.damaged_dir)
            except OSError as move_error:  # e.g. a full disk: the file stays where it is, untouched
                reason = (
                    f"{error}; sie bleibt unverändert an ihrem Platz, weil sie nicht nach {self.damaged_dir} "
                    f"gelegt werden konnte: {move_error.strerror or move_error}"
                )
                raise DamagedFile(self.path, reason) from None
            raise DamagedFile(self.path, str(error), kept) from None
        return value

    def validate(self, value: dict[str, Any]) -> None:
        """Hook for subclasses: raise ``ValueError`` if ``value`` is not a file of this kind."""

    def _recover_tmp(self) -> None:
        tmp = tmp_path(self.path)
        if not tmp.exists():
            return
        live_ok = False
        if self.path.exists():
            try:
                self.validate(parse_json_object(self.path.read_bytes()))
                live_ok = True
            except (ValueError, OSError):
                live_ok = False
        if live_ok:
            _discard(tmp)  # a write killed before os.replace: never acknowledged
            return
        try:
            self.validate(parse_json_object(tmp.read_bytes()))
        except (ValueError, OSError):
            _discard(tmp)  # incomplete as well: the live file decides (and is kept aside if damaged)
            return
        if self.path.exists():
            try:
                keep_aside(self.path, self.damaged_dir)
            except OSError:
                return  # both stay; ``read`` reports the damaged live file
        os.replace(tmp, self.path)
        fsync_dir(self.path.parent)

    # -- writing ---------------------------------------------------------------------------
    def write(self, data: dict[str, Any]) -> None:
        ensure_dir(self.path.parent)
        atomic_write_bytes(self.path, dump_json(data))

    def close(self) -> None:
        pass


__all__ = [
    "AtomicJSONStorage",
    "atomic_write_bytes",
    "dump_json",
    "ensure_dir",
    "fsync_dir",
    "keep_aside",
    "parse_json_object",
]
