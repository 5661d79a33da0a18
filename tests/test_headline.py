"""Issue 22: the numbers on top of the sheet (``Ruleset.headline``) and games numbered as players
count them (``scoring.numbering``), pure functions over real sheets, without a browser."""

from __future__ import annotations

import json

from scoring import Entry, Replacement, Sheet, all_rulesets, find_ruleset
from scoring.compare import tally
from scoring.engine import RuleViolation
from scoring.model import CLOSE
from scoring.numbering import line_names, next_label, numbering, refusal_text

from .conftest import DATA, ROOT
from .test_watten import WATTEN, game, new_sheet, play, to_13

EXAMPLES = ROOT / "docs" / "examples"


def labels(figures: tuple) -> list[str]:  # type: ignore[type-arg]
    return [f.label for f in figures]


def test_watten_during_play_the_open_bummerl_is_on_top_labelled() -> None:
    sheet = play(new_sheet(), game("A", 3), game("B", 2))
    headline = WATTEN.headline(sheet, WATTEN.score(sheet))
    assert labels(headline.figures) == ["Stand im Bummerl 1"]
    assert headline.main.values == (("Sautreiber", "3"), ("Kartlbrüder", "2"))
    sheet = play(sheet, *to_13("A"))  # A ends Bummerl 1 at 16:2
    headline = WATTEN.headline(sheet, WATTEN.score(sheet))
    assert labels(headline.figures) == ["Stand im Bummerl 2", "Wertung bisher (Punkte)", "Bummerl gewonnen"]
    assert headline.main.values == (("Sautreiber", "0"), ("Kartlbrüder", "0"))
    assert headline.figures[2].values == (("Sautreiber", "1"), ("Kartlbrüder", "0"))


def test_watten_at_the_end_the_wertung_counts_not_the_points_written() -> None:
    """The issue's "34 : 40" with no label: the sum of the stands. On top now: the Wertung (Regel 12)."""
    sheet = new_sheet()
    for winner in ("A", "B", "B"):
        loser = "B" if winner == "A" else "A"
        sheet = play(sheet, game(loser, 3), game(loser, 2), *to_13(winner), game(winner, 2))
    score = WATTEN.score(sheet)
    assert score.status.finished
    headline = WATTEN.headline(sheet, score)
    assert labels(headline.figures) == ["Wertung (Punkte)", "Bummerl gewonnen"]
    result = score.result
    points = {p.name: str(result.teams[p.id].points) for p in sheet.participants}  # type: ignore[attr-defined]
    assert dict(headline.main.values) == points
    assert dict(headline.figures[1].values) == {"Sautreiber": "1", "Kartlbrüder": "2"}
    written = {str(t.written) for t in result.teams.values()}  # type: ignore[attr-defined]
    assert not written & set(dict(headline.main.values).values()) - set(points.values())


def test_every_ruleset_names_its_headline_on_every_data_sheet() -> None:
    """Every figure is labelled and has one value per participant, in seat order, for every ruleset's sheets."""
    seen = set()
    for path in sorted(DATA.glob("*/*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if "expect_error" in case:
            continue
        sheet = Sheet.model_validate(case["sheet"])
        ruleset = find_ruleset(sheet.ruleset.id)
        headline = ruleset.headline(sheet, ruleset.score(sheet))
        seen.add(ruleset.id)
        for figure in headline.figures:
            assert figure.label and [name for name, _ in figure.values] == [p.name for p in sheet.participants]
    assert seen == {r.id for r in all_rulesets()}


def test_schafkopf_ends_on_the_ergebnis_and_schnapsen_on_the_bummerl_lost() -> None:
    case = json.loads((DATA / "schafkopf-turnier" / "tischpunkte-1-und-2-gleich.json").read_text(encoding="utf-8"))
    sheet = Sheet.model_validate(case["sheet"])
    ruleset = find_ruleset("schafkopf-turnier")
    headline = ruleset.headline(sheet, ruleset.score(sheet))
    assert labels(headline.figures) == ["Ergebnis", "Spielpunkte"]
    assert [v for _, v in headline.main.values] == ["41", "41", "18", "0"]
    assert [v for _, v in headline.figures[1].values] == ["+6", "+6", "-2", "-10"]
    open_ = sheet.model_copy(update={"entries": sheet.entries[:1]})
    assert labels(ruleset.headline(open_, ruleset.score(open_)).figures) == ["Spielpunkte"]

    talon = find_ruleset("talonschnapsen")
    case = json.loads((DATA / "talonschnapsen" / "bummerl-wenigste-punkte-schneider.json").read_text(encoding="utf-8"))
    sheet = Sheet.model_validate(case["sheet"])
    score = talon.score(sheet)
    figures = talon.headline(sheet, score).figures
    if score.status.finished:
        assert labels(figures) == ["Bummerl verloren", "Bummerl gewonnen"]
    else:
        assert labels(figures)[0].startswith("Stand im Bummerl") and labels(figures)[1] == "Bummerl verloren"


def entry(kind: str, data: dict | None = None, **fields: object) -> Entry:  # type: ignore[type-arg]
    return Entry(kind=kind, data=data or {}, **fields)  # type: ignore[arg-type]


def test_numbering_counts_games_as_players_do() -> None:
    """25 games with one undone: the last is "25. Spiel", not "26."; the close is "Abschluss"."""
    entries = [entry("game") for _ in range(14)]
    entries.append(entry("void", target=14, reason="Letztes Spiel zurückgenommen"))
    entries += [entry("game") for _ in range(12)]
    entries.append(entry("correction", target=3, reason="Tippfehler", replacement=Replacement(kind="gehen", data={})))
    entries.append(entry("zeitlimit"))
    entries.append(entry("close", {"signed_by": "Sepp"}))
    named = numbering(entries, WATTEN.game_kinds)
    shown = [named[n].label for n in sorted(named)]
    assert shown[2] == "3. Gehen"  # counts with its latest kind
    assert shown[13] == "Gestrichen: Spiel nach dem 13. Spiel"
    assert shown[14] == "14. Spiel" and shown[25] == "25. Spiel"
    assert shown[-2:] == ["Zeitlimit nach dem 25. Spiel", "Abschluss"]
    assert [n.game for n in named.values() if n.game is not None] == list(range(1, 26))
    assert next_label(entries[:-2], WATTEN.game_kinds, "game") == "26. Spiel"
    violation = RuleViolation("Regel 8", "nicht gspannt", entry=16)
    assert refusal_text(violation, entries, WATTEN.game_kinds) == "14. Spiel: Regel 8: nicht gspannt"
    new = RuleViolation("Regel 1", "beendet", entry=len(entries))
    assert refusal_text(new, entries[:-1], WATTEN.game_kinds, "game") == "26. Spiel: Regel 1: beendet"


def test_the_status_under_the_headline_does_not_say_again_what_it_shows() -> None:
    """The Bauernschnapsen status read "Bummerl: A 1, B 2" under "Bummerl verloren", the Schafkopf status
    ranked the Spielpunkte under the Spielpunkte: the sheet shows each count once, named
    (``Ruleset.status_beside_headline``); what the headline does not show stays, and the printout, the
    CLI and the organizer's table keep every status message."""
    repeated = {
        "schafkopf-turnier": "Spielpunkte: ",
        "bauernschnapsen": "Bummerl: ",
        "talonschnapsen": "Bummerl: ",
        "watten-turnier": "Bummerl gewonnen ",
    }
    for ruleset_id, start in repeated.items():
        sheet = Sheet.model_validate_json((EXAMPLES / f"{ruleset_id}.json").read_bytes())
        ruleset = find_ruleset(ruleset_id)
        for cut in range(1, len(sheet.entries) + 1):
            part = sheet.model_copy(update={"entries": sheet.entries[:cut]})
            score = ruleset.score(part)
            shown = ruleset.status_beside_headline(part, score)
            assert any(m.startswith(start) for m in score.status.messages), (ruleset_id, cut)
            assert not any(m.startswith(start) for m in shown), (ruleset_id, cut, shown)
            assert set(shown) <= set(score.status.messages) and shown, (ruleset_id, cut)
    watten = Sheet.model_validate_json((EXAMPLES / "watten-turnier.json").read_bytes())
    midway = watten.model_copy(update={"entries": watten.entries[:13]})
    assert WATTEN.status_beside_headline(midway, WATTEN.score(midway))[0] == "Bummerl 2 von 3, Stand 2:9"
    doppelkopf = find_ruleset("doppelkopf-turnier")
    sheet = Sheet.model_validate_json((EXAMPLES / "doppelkopf-turnier.json").read_bytes())
    score = doppelkopf.score(sheet)
    assert doppelkopf.status_beside_headline(sheet, score) == score.status.messages


def test_line_names_are_what_numbering_calls_each_line_at_every_prefix_of_every_sheet() -> None:
    """``line_names`` (the comparison's way: from a score's lines) names every line as ``numbering``
    (from the log: corrections, Streichungen, events, the close) does, on every data sheet and
    example cut after every entry, the game numbers too; and so does the comparison's ``Tally``."""
    paths = sorted(DATA.glob("*/*.json")) + [p for p in sorted(EXAMPLES.glob("*.json")) if not p.name.endswith(".score.json")]
    named_lines = 0
    corrected = 0
    for path in paths:
        case = json.loads(path.read_text(encoding="utf-8"))
        sheet = Sheet.model_validate(case.get("sheet", case))
        ruleset = find_ruleset(sheet.ruleset.id)
        for cut in range(1, len(sheet.entries) + 1):
            prefix = sheet.model_copy(update={"entries": sheet.entries[:cut]})
            try:
                score = ruleset.score(prefix)
            except RuleViolation:
                continue
            kinds = ruleset.counted_kinds(prefix)
            called = numbering(prefix.entries, kinds)
            assert line_names(score.lines, kinds) == [called[line.entry] for line in score.lines], (path.name, cut)
            counted = tally(prefix, score)  # the comparison names a line only where sheets differ
            lines = [called[line.entry] for line in score.lines if line.kind != CLOSE]
            assert [counted.label(i) for i in range(len(counted.games))] == [n.label for n in lines], (path.name, cut)
            assert list(counted.numbers) == [n.game for n in lines], (path.name, cut)
            named_lines += len(score.lines)
            corrected += any(line.corrected_by for line in score.lines)
    assert named_lines > 1000 and corrected > 10, (named_lines, corrected)
