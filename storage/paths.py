"""Where the store lives.

In order, the first that is set wins:

1. an explicit directory (the CLI's ``--data-dir``, or ``SheetStore(root=...)``);
2. the environment variable ``TISCHBLOCK_DATA_DIR``;
3. ``FLET_APP_STORAGE_DATA``: the app's private data directory, set by Flet in a packaged
   app (Android, iOS, desktop bundles); the store is the ``tischblock`` folder inside it;
4. on a desktop, platformdirs' user data directory (``~/.local/share/tischblock`` on Linux,
   ``%LOCALAPPDATA%\\tischblock`` on Windows, ``~/Library/Application Support/tischblock`` on macOS).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "tischblock"
ENV_DATA_DIR = "TISCHBLOCK_DATA_DIR"
ENV_FLET_DATA = "FLET_APP_STORAGE_DATA"


def data_dir(explicit: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The store's directory (not created here)."""
    env = os.environ if environ is None else environ
    if explicit:
        return Path(explicit).expanduser()
    if env.get(ENV_DATA_DIR):
        return Path(env[ENV_DATA_DIR]).expanduser()
    if env.get(ENV_FLET_DATA):
        return Path(env[ENV_FLET_DATA]) / APP_NAME
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
