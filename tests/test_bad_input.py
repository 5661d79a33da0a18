"""Issue 14: bad input never crashes, hangs or confuses. The defects seen on main, one test each.

Every test runs the real thing: ``cli.main`` in-process on real files, a real ``SheetStore`` in
a temporary directory. A refusal must exit 1 with one German line naming where, and change no
stored file.
"""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

import cli
from scoring import Participant, Sheet, find_ruleset
from storage import SheetStore, export_backup
from storage.backup import _checksum

from .conftest import ROOT
from .storage_helpers import snapshot

EXAMPLES = ROOT / "docs" / "examples"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tischblock ARGS`` in-process: exit status, stdout, stderr; never more than a second."""
    started = time.monotonic()
    code = cli.main(list(args))
    elapsed = time.monotonic() - started
    out, err = capsys.readouterr()
    assert elapsed < 1.0, f"tischblock {' '.join(args)} took {elapsed:.2f} s"
    assert "Traceback" not in out + err
    return code, out, err


def example(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def write(path: Path, content: bytes | str | dict[str, Any]) -> Path:
    if isinstance(content, dict):
        content = json.dumps(content, ensure_ascii=False)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


@pytest.fixture
def backup(tmp_path: Path) -> dict[str, Any]:
    """A real backup of a store holding the Watten example."""
    store = SheetStore(tmp_path / "quelle", device="test")
    store.create(Sheet.from_json((EXAMPLES / "watten-turnier.json").read_bytes()))
    export_backup(store, tmp_path / "sicherung.json")
    loaded: dict[str, Any] = json.loads((tmp_path / "sicherung.json").read_text(encoding="utf-8"))
    return loaded


def import_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: dict[str, Any] | bytes) -> str:
    """Import ``doc`` into a store with one sheet; it must be refused and change nothing."""
    store = SheetStore(tmp_path / "ziel", device="test")
    store.create(Sheet.from_json((EXAMPLES / "schafkopf-turnier.json").read_bytes()))
    store.list_sheets()
    before = snapshot(store.root)
    mtimes = {p: p.stat().st_mtime_ns for p in store.root.rglob("*") if p.is_file() and p.name != ".lock"}
    path = tmp_path / "kaputt.json"
    if isinstance(doc, dict):
        path.write_text(json.dumps(doc), encoding="utf-8")  # ASCII escapes: "\ud800" stays a JSON escape
    else:
        path.write_bytes(doc)
    code, out, err = run_cli(capsys, "--data-dir", str(store.root), "import", str(path))
    assert code == 1, (out, err)
    assert snapshot(store.root) == before
    assert {p: p.stat().st_mtime_ns for p in mtimes} == mtimes
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Fehler: "), err
    return lines[0]


# -- tischblock import ---------------------------------------------------------------------------


def test_import_refuses_a_lone_surrogate_in_a_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backup: dict[str, Any]
) -> None:
    """Was: UnicodeEncodeError while the checksum was computed."""
    backup["sheets"][0]["sheet"]["participants"][0]["name"] = "Die \ud800 Sautreiber"
    message = import_refused(capsys, tmp_path, backup)
    assert "Blatt 1" in message and "Teilnehmer 1, Name" in message and "UTF-8" in message, message


def test_import_refuses_a_lone_surrogate_in_an_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backup: dict[str, Any]
) -> None:
    backup["sheets"][0]["sheet"]["entries"][2]["reason"] = "\udfff"
    message = import_refused(capsys, tmp_path, backup)
    assert "Blatt 1" in message and "Eintrag 3, Grund" in message and "UTF-8" in message, message


def test_import_refuses_deeply_nested_data_of_a_voided_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backup: dict[str, Any]
) -> None:
    """Was: pydantic's "Maximum serialization depth exceeded" as a traceback."""
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(300):
        inner["x"] = {}
        inner = inner["x"]
    entries = backup["sheets"][0]["sheet"]["entries"]
    entries.append({"kind": "game", "data": deep})
    entries.append({"kind": "void", "target": len(entries)})
    backup["sha256"] = _checksum(backup["sheets"])
    message = import_refused(capsys, tmp_path, backup)
    assert "Blatt 1" in message and f"Eintrag {len(entries) - 1}" in message and "verschachtelt" in message, message


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"", "leere Datei"),
        (b"\xff\xfe{}", "keine UTF-8-Datei"),
        (b'{"format": "tischblock-backup",', "Zeile 1, Spalte 32"),
        (b"[]", "eine Liste statt einer Sicherung"),
    ],
)
def test_import_names_what_is_wrong_with_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, expected: str
) -> None:
    message = import_refused(capsys, tmp_path, content)
    assert expected in message and "kaputt.json" in message, message


# -- tischblock score --------------------------------------------------------------------------------


def test_a_huge_spritze_is_refused_at_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Was: a hang, the refusal computed 2 ** spritze."""
    sheet = example("bauernschnapsen")
    sheet["entries"][1]["data"]["spritze"] = 10**41
    code, out, err = run_cli(capsys, "score", str(write(tmp_path / "blatt.json", sheet)))
    assert code == 1 and out == ""
    assert "2. Spiel" in err and "Spritze" in err and "höchstens 3" in err and "0 bis 3" in err, err


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"", "leere Datei"),
        (b"   \n", "leere Datei"),
        (b"\xff\xfe{}", "keine UTF-8-Datei"),
        (b'{"ruleset": {"id": "watten-turnier",\n  "version": 1,,}}', "Zeile 2, Spalte 16"),
        (b"[1, 2]", "eine Liste statt eines Blatts"),
        (b'"Blatt"', "ein Text statt eines Blatts"),
        (b"NaN", "kein gültiges JSON"),
    ],
)
def test_score_says_what_is_wrong_with_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, expected: str
) -> None:
    """Was: "Feld 'Eingabe' ist ungültig" for all of them."""
    code, out, err = run_cli(capsys, "score", str(write(tmp_path / "blatt.json", content)))
    assert code == 1 and out == ""
    assert expected in err and "blatt.json" in err, err
    assert "Eingabe" not in err


def test_a_wrong_participant_names_it_from_one_and_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Was: "Feld 'participants.0' ist ungültig" with no reason."""
    sheet = example("watten-turnier")
    sheet["participants"][0] = "Die Sautreiber"
    code, _, err = run_cli(capsys, "score", str(write(tmp_path / "blatt.json", sheet)))
    assert code == 1
    assert "Teilnehmer 1" in err and "participants" not in err and "ein Objekt" in err, err


def test_a_wrong_kind_names_the_entry_from_one_and_the_kinds_that_exist(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Was: "Feld 'entries.6.kind' ist ungültig": counted from 0, no kinds named."""
    sheet = example("watten-turnier")
    sheet["entries"][6]["kind"] = "Spiel!"
    code, _, err = run_cli(capsys, "score", str(write(tmp_path / "blatt.json", sheet)))
    assert code == 1
    assert "Eintrag 7, Art" in err and "entries" not in err, err
    assert "game, gehen, vergeben" in err or "ausschaffen, betrug, close, correction, game" in err, err


def test_a_correction_of_a_game_that_does_not_exist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = example("watten-turnier")
    sheet["entries"].append({"kind": "void", "target": 999})
    code, _, err = run_cli(capsys, "score", str(write(tmp_path / "blatt.json", sheet)))
    assert code == 1
    assert f"Eintrag {len(sheet['entries'])}" in err and "999" in err, err


def test_a_lone_surrogate_in_a_sheet_is_refused_at_parsing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = example("watten-turnier")
    sheet["entries"][0]["data"]["winner"] = "\ud800"
    path = tmp_path / "blatt.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    code, _, err = run_cli(capsys, "score", str(path))
    assert code == 1 and "Eintrag 1" in err and "UTF-8" in err, err


# -- Bauernschnapsen: a name is just a name ---------------------------------------------------------------


def test_members_named_like_the_seats_are_just_names() -> None:
    """Was: "Die Spielernamen müssen eindeutig sein: ['A1', 'A2', 'B1', 'B2']" although they are."""
    ruleset = find_ruleset("bauernschnapsen")
    teams = [Participant(id="A", name="Team A", members=("A1", "A2")), Participant(id="B", name="Team B", members=("B1", "B2"))]
    sheet = ruleset.new_sheet(teams)
    score = ruleset.score(sheet.with_entry(_game("gang", "B1", won=True)))
    assert score.totals == {"A": 0, "B": 9}


def test_a_name_that_is_another_players_seat_key_is_never_silently_misread() -> None:
    """Team A's members are called B1 and B2: the sheet is fine, and "B1" in an entry, which could
    be that member or team B's first seat, is refused naming both; "A1" and "Cilli" are clear."""
    ruleset = find_ruleset("bauernschnapsen")
    teams = [
        Participant(id="A", name="Team A", members=("B1", "B2")),
        Participant(id="B", name="Team B", members=("Cilli", "Done")),
    ]
    sheet = ruleset.new_sheet(teams)
    assert ruleset.score(sheet.with_entry(_game("gang", "A1", won=True))).totals == {"A": 9, "B": 0}
    assert ruleset.score(sheet.with_entry(_game("gang", "Cilli", won=True))).totals == {"A": 0, "B": 9}
    with pytest.raises(ValueError) as info:
        ruleset.score(sheet.with_entry(_game("gang", "B1", won=True)))
    message = str(info.value)
    assert "mehrdeutig" in message and "'A1' oder 'Cilli'" in message and "Eintrag 1" in message, message


def test_duplicate_member_names_are_still_refused_and_named() -> None:
    ruleset = find_ruleset("bauernschnapsen")
    teams = [
        Participant(id="A", name="Team A", members=("Sepp", "Anna")),
        Participant(id="B", name="Team B", members=("Sepp", "Done")),
    ]
    with pytest.raises(ValueError, match="'Sepp'"):
        ruleset.new_sheet(teams)


def _game(game: str, announcer: str, *, won: bool) -> Any:
    from scoring import Entry

    return Entry(kind="game", data={"game": game, "announcer": announcer, "won": won})


def test_stored_sheets_keep_their_meaning() -> None:
    """Every example and test sheet scores exactly as before the change of name resolution."""
    for path in sorted(EXAMPLES.glob("*.json")):
        if path.name.endswith(".score.json"):
            continue
        expected = json.loads(path.with_suffix(".score.json").read_text(encoding="utf-8"))
        sheet = Sheet.from_json(path.read_bytes())
        assert find_ruleset(sheet.ruleset.id).score(sheet).json_dict() == expected, path.name


def test_a_backup_is_still_imported_whole(capsys: pytest.CaptureFixture[str], tmp_path: Path, backup: dict[str, Any]) -> None:
    path = tmp_path / "gut.json"
    path.write_text(json.dumps(copy.deepcopy(backup)), encoding="utf-8")
    code, out, err = run_cli(capsys, "--data-dir", str(tmp_path / "neu"), "import", str(path))
    assert code == 0 and "1 neu" in out, err


# -- a few real processes, as a user runs the command --------------------------------------------------------


def test_real_processes_refuse_in_one_line_and_in_time(tmp_path: Path, backup: dict[str, Any]) -> None:
    """The worst inputs of the issue through the installed ``tischblock`` script, each its own process."""
    from .test_cli import tischblock

    spritze = example("bauernschnapsen")
    spritze["entries"][1]["data"]["spritze"] = 10**41
    write(tmp_path / "spritze.json", spritze)
    (tmp_path / "kaputt.json").write_bytes(b"\xff\xfe\x00")
    backup["sheets"][0]["sheet"]["participants"][0]["name"] = "\ud800"
    (tmp_path / "sicherung.json").write_text(json.dumps(backup), encoding="utf-8")
    runs = [
        (("score", "spritze.json"), "2. Spiel"),
        (("score", "kaputt.json"), "keine UTF-8-Datei"),
        (("--data-dir", "daten", "import", "sicherung.json"), "Teilnehmer 1, Name"),
    ]
    for args, expected in runs:
        started = time.monotonic()
        done = tischblock(*args, cwd=tmp_path)
        assert time.monotonic() - started < 10, args  # a process start included; the hang was endless
        assert done.returncode == 1 and done.stdout == "", (args, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Fehler: ") and expected in lines[0], done.stderr
    assert not (tmp_path / "daten" / "sheets").exists() or not any((tmp_path / "daten" / "sheets").iterdir())


# -- the table of messages -------------------------------------------------------------------------------------


def test_the_table_of_messages_is_current_and_readable() -> None:
    """``docs/fehlermeldungen.md`` is what the command prints now (regenerate: ``cog -r``), and each
    message there is one readable German line naming the file, without the file's field names."""
    import subprocess
    import sys

    from .conftest import checkout_env

    done = subprocess.run(
        [sys.executable, "-m", "cogapp", "--check", "docs/fehlermeldungen.md"],
        cwd=ROOT,
        env=checkout_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (
        f"docs/fehlermeldungen.md is stale; run `.venv/bin/cog -r docs/fehlermeldungen.md`:\n{done.stdout}{done.stderr}"
    )
    table = (ROOT / "docs" / "fehlermeldungen.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`Fehler: " in line]
    assert len(rows) >= 12
    for row in rows:
        message = row.split("`")[1]
        assert message.startswith("Fehler: blatt.json") and len(message) < 300, message
        assert not re.search(r"entries|participants|\bdata\b|Input should|Field required|\.\d+\.", message), message


# -- the plain API the host will use ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "loc, label",
    [
        (("participants", 1), "Teilnehmer 2"),
        (("participants", 1, "name"), "Teilnehmer 2, Name"),
        (("entries", 6, "data", "spritze"), "Eintrag 7, Spritze"),
        (("entries", 6, "kind"), "Eintrag 7, Art"),
        (("entries", 3, "replacement", "data", "sonderpunkte", "re", "fuchs"), "Eintrag 4, Ersatz, Sonderpunkte, Re, Füchse"),
        (("sheets", 0, "sheet", "entries", 2, "reason"), "Blatt 1, Eintrag 3, Grund"),
        (("ruleset", "options", "target"), "Regelwerk, Option 'target'"),
        (("id",), "Blatt-ID"),
    ],
)
def test_fields_are_named_as_a_player_calls_them(loc: tuple[str | int, ...], label: str) -> None:
    from scoring.messages import field_label

    assert field_label(loc) == label


def test_parse_sheet_and_explain_are_the_plain_api() -> None:
    from pydantic import ValidationError

    from scoring import RuleViolation, UnknownRuleset
    from scoring.messages import SheetInputError, explain
    from scoring.sheetfile import parse_sheet

    for path in sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".score.json")):
        assert isinstance(parse_sheet(path.read_bytes(), source=path.name), Sheet)
    with pytest.raises(SheetInputError) as info:
        parse_sheet(b"[]", source="Handy 3")
    assert (
        isinstance(info.value, ValueError) and str(info.value) == "Handy 3 ist kein gültiges Blatt: eine Liste statt eines Blatts"
    )
    assert explain(info.value) == str(info.value)
    with pytest.raises(ValidationError) as invalid:
        Participant(id="A", name="")
    assert explain(invalid.value, source="Eingabe") == "Eingabe: Name ist leer"
    assert explain(RuleViolation("Regel 8", "gspannt", entry=3), source="b.json") == "b.json: Eintrag 3: Regel 8: gspannt"
    assert explain(UnknownRuleset("Unbekanntes Regelwerk 'skat'")) == "Unbekanntes Regelwerk 'skat'"
    assert explain(json.JSONDecodeError("Expecting ',' delimiter", '{"a": 1 "b"}', 8)) == (
        "kein gültiges JSON: hier fehlt ein Komma (Zeile 1, Spalte 9)"
    )
    assert "keine UTF-8-Datei" in explain(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"))
    assert explain(FileNotFoundError(2, "No such file or directory"), source="a.json") == (
        "a.json: kann nicht gelesen werden: No such file or directory"
    )


def test_the_engine_keeps_german_validation_message_for_other_branches() -> None:
    from pydantic import ValidationError

    from scoring.engine import german_validation_message

    with pytest.raises(ValidationError) as info:
        Sheet.model_validate({"ruleset": {"id": "watten-turnier", "version": 1}, "participants": ["A"]})
    assert german_validation_message(info.value).startswith("Teilnehmer 1 muss ein Objekt {...} sein, nicht ein Text")


def test_a_sheet_never_grows_beyond_its_limit(tmp_path: Path) -> None:
    from scoring import Entry
    from scoring.limits import MAX_ENTRIES

    ruleset = find_ruleset("talonschnapsen")
    sheet = ruleset.new_sheet([Participant(id=p, name=p) for p in "FGH"])
    game = Entry(kind="game", data={"game": "normal", "won": True, "augen": "ab33"})
    full = sheet.model_copy(update={"entries": (game,) * (MAX_ENTRIES + 1)})
    with pytest.raises(ValueError, match=f"höchstens {MAX_ENTRIES} Einträge"):
        ruleset.score(full)
    store = SheetStore(tmp_path / "s", device="test")
    store.create(sheet.model_copy(update={"entries": (game,) * MAX_ENTRIES}))
    before = snapshot(store.root)
    with pytest.raises(ValueError, match="Eintrag 2001"):
        store.add_game(sheet.id, {"game": "normal", "won": True, "augen": "ab33"})
    assert snapshot(store.root) == before


def test_talonschnapsen_refuses_a_name_that_is_another_players_key() -> None:
    """Talonschnapsen keys are the participant ids: a player called "G" while another's id is G."""
    ruleset = find_ruleset("talonschnapsen")
    sheet = ruleset.new_sheet(
        [Participant(id="F", name="G"), Participant(id="G", name="Gerti"), Participant(id="H", name="Hans")]
    )
    assert ruleset.score(sheet.with_entry(_game("gang", "Gerti", won=True))).totals == {"F": 0, "G": 9, "H": 0}
    with pytest.raises(ValueError, match=r"mehrdeutig.*'F' oder 'Gerti'"):
        ruleset.score(sheet.with_entry(_game("gang", "G", won=True)))
