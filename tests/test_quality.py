"""Type hints everywhere and a clean lint, checked like any other test."""

from __future__ import annotations

import ast
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


SHELL_LIBRARIES = {
    "flet",
    "tinydb",
    "requests",
    "sqlalchemy",
    "fastapi",
    "starlette",
    "uvicorn",
    "psycopg",
    "cryptography",
    "segno",
}


def imported_roots(source: str) -> set[str]:
    """The top-level packages a module imports (``from sqlalchemy.engine import x`` -> ``sqlalchemy``)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_scoring_imports_no_shell_library() -> None:
    """Functional core: scoring/ never imports flet, tinydb, requests, the database or the web server."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(found)
        for path in (ROOT / "scoring").rglob("*.py")
        if (found := imported_roots(path.read_text(encoding="utf-8")) & SHELL_LIBRARIES)
    }
    assert not offenders, offenders


def test_the_import_check_sees_dotted_and_from_imports() -> None:
    assert imported_roots("import flet.core\nfrom sqlalchemy.engine import Engine\nfrom .model import Sheet\n") == {
        "flet",
        "sqlalchemy",
    }
