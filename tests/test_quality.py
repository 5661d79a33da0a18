"""Type hints everywhere and a clean lint, checked like any other test."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

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


LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("scoring", "storage", "sync", "screens")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(root / "pyproject.toml")],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_the_layers_hold() -> None:
    """import-linter's contracts (pyproject.toml): scoring imports no I/O, storage no screens or sync,
    the phone app nothing of the organizer's host, the host no screens; no package has an import circle."""
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def test_the_contracts_catch_a_circle_a_forbidden_import_and_the_phone_importing_the_host(tmp_path: Path) -> None:
    """The contracts can fail: a copy of the tree with one of each breach is refused, each named."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "scoring" / "planted_db.py").write_text("import sqlalchemy\n", encoding="utf-8")
    (tmp_path / "screens" / "planted_host.py").write_text("from sync.host import desk\n", encoding="utf-8")
    (tmp_path / "storage" / "planted_a.py").write_text("def f() -> None:\n    from . import planted_b\n", encoding="utf-8")
    (tmp_path / "storage" / "planted_b.py").write_text("from . import planted_a\n", encoding="utf-8")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert "scoring.planted_db -> sqlalchemy" in done.stdout, done.stdout
    assert "screens.planted_host -> sync.host" in done.stdout, done.stdout
    assert "No cycles are allowed in storage" in done.stdout, done.stdout


def places(path: Path, root: Path, nodes: Iterable[ast.AST]) -> list[str]:
    """``path:line`` of each node, once, in line order."""
    return [f"{path.relative_to(root)}:{line}" for line in sorted({node.lineno for node in nodes})]


LATE = {"scoring.printout", "scoring.startkarten"}
"""The modules the app and the host import only where a PDF is made: they load fpdf2 and fontTools, a
quarter of a second of every start of the host (0.86 to 0.60 s of CPU to import ``sync.host.app``) and of
the app (0.67 to 0.51 s for ``main``), for a printout made now and then (29 Nov, five runs each)."""


def function_local_imports(path: Path, root: Path = ROOT, late: set[str] = LATE) -> list[str]:
    """``path:line`` of every import inside a function or class body (module level and
    ``if TYPE_CHECKING:`` blocks are fine), but of a module in ``late``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))
    return places(
        path,
        root,
        (
            inner
            for body in bodies
            for inner in ast.walk(body)
            if isinstance(inner, ast.Import | ast.ImportFrom)
            and not (isinstance(inner, ast.ImportFrom) and inner.level == 0 and inner.module in late)
        ),
    )


def test_no_function_local_imports_that_could_hide_a_circle() -> None:
    """Every module imports at its top, so import-linter sees each dependency and no module dodges a
    circle by importing late. (cli.py loads each subcommand's parts lazily on purpose: ``tischblock
    score`` needs no tinydb, the host no flet; and the printouts, ``LATE``, are imported where a PDF is
    made.)"""
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")] + [ROOT / "main.py"]
    offenders = [place for path in files for place in function_local_imports(path)]
    assert not offenders, offenders


def test_neither_the_app_nor_the_host_loads_the_pdf_library_to_start() -> None:
    """``LATE``: the app's and the host's modules load no fpdf2 until a PDF is made; making one does."""
    check = (
        "import sys, main, cli, sync.host.app; assert 'fpdf' not in sys.modules, 'started with fpdf'; "
        "from screens.export_state import sheet_export; from tests.sync_helpers import watten_sheet; import random; "
        "assert sheet_export(watten_sheet(random.Random(1), tournament='t', table=1), 'pdf').data.startswith(b'%PDF'); assert 'fpdf' in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_local_import_check_sees_imports_in_functions_and_methods(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\n\ndef f():\n    import re\n\nclass C:\n    def g(self):\n        from x import y\n")
    assert function_local_imports(module, tmp_path) == ["m.py:4", "m.py:8"]
    module.write_text("def f():\n    from scoring.printout import sheet_pdf\n    from scoring import printout\n")
    assert function_local_imports(module, tmp_path) == ["m.py:3"]  # only the named module itself is late


def control_state_reads(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line`` of every read of an event's control's ``value`` or ``selected`` (``e.control.value``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return places(
        path,
        root,
        (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr in ("value", "selected")
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "control"
        ),
    )


def test_change_handlers_take_what_the_event_carries() -> None:
    """A handler reading ``e.control.value`` stores what the control held after the last redraw, not what
    was typed: a redraw between the value and its change event sets it back (``screens.looks.entered``;
    ``tests/test_app_typing_e2e.py`` shows the loss in a browser)."""
    files = [*(ROOT / "screens").rglob("*.py"), ROOT / "main.py"]
    offenders = [place for path in files for place in control_state_reads(path)]
    assert not offenders, offenders


def test_the_control_read_check_sees_value_and_selected(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("f = lambda e: e.control.value\n\ng = lambda e: e.data\nh = lambda event: event.control.selected\n")
    assert control_state_reads(module, tmp_path) == ["m.py:1", "m.py:4"]


def raw_wheel_turns(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line`` of every ``<page>.mouse.wheel(...)`` call outside ``tests/browser.py``'s ``turn_wheel``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "turn_wheel":
            allowed.update(id(inner) for inner in ast.walk(node))
    return places(
        path,
        root,
        (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wheel"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "mouse"
            and id(node) not in allowed
        ),
    )


def test_every_wheel_turn_of_the_tests_goes_through_turn_wheel() -> None:
    """At the tests' page scale a raw ``page.mouse.wheel`` scrolls Flutter's list 16 times as far
    (``tests.browser.turn_wheel``): a test that turned it so scrolled a control under the app bar."""
    files = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    offenders = [place for path in files for place in raw_wheel_turns(path)]
    assert not offenders, offenders


def test_the_wheel_check_sees_a_raw_turn_and_lets_turn_wheel_be(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def turn_wheel(page, delta):\n    page.mouse.wheel(0, delta)\n\n"
        "def scroll(page):\n    page.mouse.move(1, 2)\n    page.mouse.wheel(0, 300)\n"
    )
    assert raw_wheel_turns(module, tmp_path) == ["m.py:6"]


def test_the_tests_run_in_one_worker_more_than_the_cores_unless_told() -> None:
    """``./dev test`` and ``tests/stress_browser.sh`` take their xdist workers from ``./dev test-workers``:
    the cores and one more (three on two: the cores stood idle a tenth of a run with one per core,
    README "Where the suite stands"), at most 8; ``TISCHBLOCK_TEST_WORKERS`` wins."""

    def workers(**env: str) -> str:
        environment = {k: v for k, v in os.environ.items() if k != "TISCHBLOCK_TEST_WORKERS"} | env
        done = subprocess.run(
            [str(ROOT / "dev"), "test-workers"], check=False, capture_output=True, text=True, env=environment, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert workers() == str(min(len(os.sched_getaffinity(0)) + 1, 8))
    assert workers(TISCHBLOCK_TEST_WORKERS="5") == "5"
    assert 'WORKERS="$(./dev test-workers)"' in (ROOT / "tests" / "stress_browser.sh").read_text()
