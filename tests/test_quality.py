"""Type hints everywhere and a clean lint, checked like any other test."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

TYPED = ["scoring", "storage", "sync", "screens", "cli.py", "main.py"]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


def test_mypy_finds_no_type_errors() -> None:
    done = run("mypy", *TYPED)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_scoring_imports_no_shell_library() -> None:
    """Functional core: scoring/ never imports flet, tinydb or requests."""
    offenders = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in (ROOT / "scoring").rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.lstrip().startswith(("import ", "from ")) and any(lib in line.split() for lib in ("flet", "tinydb", "requests"))
    ]
    assert not offenders, offenders
