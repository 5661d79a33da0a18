"""The ``tischblock`` command, run as a real process like a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import all_rulesets

from .conftest import ROOT, checkout_env


def tischblock(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run the installed ``tischblock`` script on this checkout's code (``PYTHONPATH`` beats an
    editable install of another worktree)."""
    script = Path(sys.executable).parent / "tischblock"
    command = [str(script)] if script.exists() else [sys.executable, str(ROOT / "cli.py")]
    env = checkout_env()
    return subprocess.run([*command, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_score_prints_lines_totals_status_result_as_json() -> None:
    done = tischblock("score", "docs/examples/watten-turnier.json")
    assert done.returncode == 0, done.stderr
    score = json.loads(done.stdout)
    assert set(score) == {"lines", "totals", "status", "result"}
    assert score["totals"] == {"A": 35, "B": 34}
    assert [b["score"] for b in score["result"]["bummerl"]] == [{"A": 19, "B": 11}, {"A": 4, "B": 26}, {"A": 22, "B": 8}]
    assert score["status"]["finished"] and score["status"]["closed"]


def test_score_text_shows_every_reason() -> None:
    done = tischblock("score", "docs/examples/watten-turnier.json", "--text")
    assert done.returncode == 0, done.stderr
    assert "Regel 8 (gspannt): Die Sautreiber ist gspannt und geht: Kartlbrüder Wörgl erhält 2" in done.stdout
    assert "Regel 12 (Wertung): Bummerl 1 gewinnt Die Sautreiber 15:11" in done.stdout


def test_invalid_sheet_exits_non_zero_and_names_entry_and_rule(tmp_path: Path) -> None:
    sheet = json.loads((ROOT / "docs/examples/watten-turnier.json").read_text(encoding="utf-8"))
    sheet["entries"] = [*sheet["entries"][:7], {"kind": "game", "data": {"winner": "B", "value": 4}}]
    path = tmp_path / "falsch.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    done = tischblock("score", str(path))
    assert done.returncode == 1 and done.stdout == ""
    assert "8. Spiel: Regel 8 (gspannt): Die Sautreiber ist gspannt und kann nicht mehr auf 4 ausgeschafft werden" in done.stderr


@pytest.mark.parametrize(
    "content, message",
    [("{", "kein gültiges Blatt"), ('{"ruleset": {"id": "skat", "version": 1}, "participants": [{"id": "A", "name": "x"}]}', "Unbekanntes Regelwerk")],
)
def test_broken_files_get_a_clear_message(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "kaputt.json"
    path.write_text(content, encoding="utf-8")
    done = tischblock("score", str(path))
    assert done.returncode == 1 and message in done.stderr


def test_missing_file() -> None:
    done = tischblock("score", "gibtsnicht.json")
    assert done.returncode == 2 and "kann nicht gelesen werden" in done.stderr


def test_rulesets_lists_every_ruleset_with_its_options() -> None:
    done = tischblock("rulesets", "--json")
    assert done.returncode == 0, done.stderr
    listed = {r["id"]: r for r in json.loads(done.stdout)}
    assert set(listed) == {r.id for r in all_rulesets()}
    assert {o["name"]: o["default"] for o in listed["watten-turnier"]["options"]} == {"target": 15, "bummerl_count": 3}


def test_standings_ranks_a_tournament_with_the_tie_breaks() -> None:
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs/examples/turnier").glob("*.json"))
    done = tischblock("standings", "--json", *files)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(r["rank"], r["key"], r["bummerl_won"], r["points"], r["points_against"]) for r in rows] == [
        (1, "#1", 4, 124, 56),
        (2, "#3", 3, 88, 92),
        (3, "#2", 3, 80, 100),
        (4, "#4", 2, 68, 112),
    ]
    assert rows[1]["decided_by"] == "Punkteverhältnis"


def test_standings_refuses_sheets_of_different_rulesets(tmp_path: Path) -> None:
    sheet = json.loads((ROOT / "docs/examples/watten-turnier.json").read_text(encoding="utf-8"))
    sheet["ruleset"]["id"] = "skat"
    other = tmp_path / "skat.json"
    other.write_text(json.dumps(sheet), encoding="utf-8")
    done = tischblock("standings", "docs/examples/watten-turnier.json", str(other))
    assert done.returncode == 1 and "verschiedenen Regelwerken" in done.stderr
