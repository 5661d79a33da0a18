"""The docs keep up with the code: a command or ruleset nobody documented fails here."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from cli import build_parser
from scoring import all_rulesets

from .conftest import ROOT, checkout_env

README = (ROOT / "README.md").read_text(encoding="utf-8")


def cli_commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")  # argparse keeps subparsers here
    commands = []
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        commands.append(name)
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        commands.extend(f"{name} {inner}" for a in nested for inner in a.choices)
    return sorted(commands)


@pytest.mark.parametrize("command", cli_commands())
def test_every_cli_command_has_a_readme_section(command: str) -> None:
    headings = [line for line in README.splitlines() if line.startswith("### ")]
    assert any(f"`tischblock {command}" in heading for heading in headings), f"README.md documents no `tischblock {command}`"


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_every_ruleset_is_in_the_readme_and_has_its_page(ruleset: str) -> None:
    assert re.search(rf"^\| `{re.escape(ruleset)}` \|", README, re.M), f"README.md's ruleset table lacks {ruleset}"
    page = ROOT / "docs" / "rulesets" / f"{ruleset}.md"
    assert page.exists(), f"{page} is missing"
    assert f"`{ruleset}`" in page.read_text(encoding="utf-8")


def test_readme_output_is_real() -> None:
    """The README's command output is what the commands print now (regenerate: cog -r README.md)."""
    done = subprocess.run(
        [sys.executable, "-m", "cogapp", "--check", "README.md"], cwd=ROOT, env=checkout_env(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"README.md is stale; run `.venv/bin/cog -r README.md`:\n{done.stdout}{done.stderr}"


def test_changelog_is_dated() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"^## \d{4}-\d{2}-\d{2}", changelog, re.M), "CHANGELOG.md needs dated sections (## YYYY-MM-DD)"


def test_the_user_guide_shows_only_screenshots_that_exist_and_the_readme_links_it() -> None:
    guide = ROOT / "docs" / "anleitung.md"
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", guide.read_text(encoding="utf-8"))
    assert images, "docs/anleitung.md shows no screenshot"
    missing = [image for image in images if not (guide.parent / image).is_file()]
    assert not missing, f"docs/anleitung.md shows screenshots that do not exist: {missing}"
    assert "(docs/anleitung.md)" in README, "README.md does not link the user guide docs/anleitung.md"


RUN_BY_ANOTHER_BENCH = {"host_phases": "host", "host_steps": "host", "instructions": "app"}
"""Bench modules that are no command of their own: ``bench/host.py`` runs the first two, and
``instructions.py`` counts for ``app.py`` and ``host.py``."""


def bench_commands() -> list[str]:
    return sorted(
        path.stem
        for path in (ROOT / "bench").glob("*.py")
        if path.stem not in RUN_BY_ANOTHER_BENCH and '__name__ == "__main__"' in path.read_text(encoding="utf-8")
    )


@pytest.mark.parametrize("bench", bench_commands())
def test_every_bench_is_a_command_in_the_readme_with_a_smoke_test(bench: str) -> None:
    """A figure is produced by a command named next to it (issue 24): every bench is run in the README
    by its command line, and a test runs it on a tiny size, so the command still works."""
    assert re.search(rf"`(CI=true )?python bench/{bench}\.py[^`]*`", README), (
        f"README.md names no `python bench/{bench}.py` command"
    )
    smoke = ROOT / "tests" / f"test_bench_{bench}.py"
    runs = [
        path.name
        for path in (ROOT / "tests").glob("test_bench_*.py")
        if any(f"{call}{bench}.py" in path.read_text(encoding="utf-8") for call in ("bench/", 'run_bench("'))
    ]
    assert smoke.exists() or runs, f"no tests/test_bench_*.py runs bench/{bench}.py"
