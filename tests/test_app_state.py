"""The app's state methods, without a browser."""

from __future__ import annotations

from pathlib import Path

from screens.state import ExampleState, option_value, ruleset_infos


def test_ruleset_infos_lists_every_ruleset_with_its_example() -> None:
    infos = {info.id: info for info in ruleset_infos()}
    watten = infos["watten-turnier"]
    assert watten.has_example and watten.participants == "2 Mannschaften"
    assert "Bummerl pro Durchgang (Regel 1): 3" in watten.options


def test_open_example_scores_it() -> None:
    state = ExampleState()
    state.open("watten-turnier")
    assert state.error is None and state.score is not None
    assert state.score.status.details["bummerl_won"] == {"A": 2, "B": 1}
    state.toggle(9)
    assert state.expanded == {9}
    state.toggle(9)
    assert state.expanded == set()


def test_open_unknown_or_missing_or_broken_example_says_why(tmp_path: Path) -> None:
    state = ExampleState(examples_dir=tmp_path)
    state.open("skat")
    assert state.error is not None and "Unbekanntes Regelwerk" in state.error
    state.open("watten-turnier")
    assert state.error == "Für 'watten-turnier' gibt es kein Beispielblatt."
    (tmp_path / "watten-turnier.json").write_text('{"ruleset": {"id": "watten-turnier", "version": 1}}', encoding="utf-8")
    state.open("watten-turnier")
    assert state.error is not None and state.error.startswith("Das Beispielblatt ist beschädigt")
    assert state.sheet is None and state.score is None


def test_every_rulesets_example_opens_scored() -> None:
    for info in ruleset_infos():
        state = ExampleState()
        state.open(info.id)
        assert state.error is None, f"{info.id}: {state.error}"
        assert state.score is not None and state.score.lines, info.id


def test_option_values_read_like_german_not_python() -> None:
    assert option_value(True) == "ja" and option_value(False) == "nein" and option_value(None) == "–"
    assert option_value(("bettler", "gang")) == "bettler, gang" and option_value([]) == "keine"
    assert not any("True" in o or "False" in o or "(" in o.split(": ")[-1] for info in ruleset_infos() for o in info.options)
