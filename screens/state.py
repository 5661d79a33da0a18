"""App state: observable dataclasses whose methods the screens call.

Pydantic values (``Sheet``, ``Score``) are held as plain field values; the observable is the
dataclass around them, never the pydantic model itself (that would skip its validation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import flet as ft

from scoring import RuleViolation, Score, Sheet, UnknownRuleset, all_rulesets, find_ruleset
from scoring.messages import SheetInputError, explain, parse_sheet

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "docs" / "examples"


@dataclass(frozen=True)
class RulesetInfo:
    """What the ruleset list shows of one ruleset."""

    id: str
    title: str
    source: str
    participants: str
    options: tuple[str, ...]
    has_example: bool


def option_value(value: Any) -> str:
    """An option's value as a player reads it: ja/nein, lists comma-separated, nothing as a dash."""
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if value is None:
        return "–"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(option_value(v) for v in value) or "keine"
    return str(value)


def ruleset_infos(examples_dir: Path = EXAMPLES_DIR) -> list[RulesetInfo]:
    """Every registered ruleset, as the list screen shows it."""
    infos = []
    for ruleset in all_rulesets():
        described: dict[str, Any] = ruleset.describe()
        counts = " oder ".join(str(n) for n in described["participants"]["counts"])
        who = "Mannschaften" if described["participants"]["kind"] == "team" else "Spieler"
        options = tuple(f"{o['description'] or o['name']}: {option_value(o['default'])}" for o in described["options"])
        infos.append(
            RulesetInfo(
                id=ruleset.id,
                title=ruleset.title,
                source=ruleset.source,
                participants=f"{counts} {who}",
                options=options,
                has_example=(examples_dir / f"{ruleset.id}.json").exists(),
            )
        )
    return infos


@ft.observable
@dataclass
class ExampleState:
    """The example sheet that is open, its score, or why it could not be opened."""

    examples_dir: Path = EXAMPLES_DIR
    sheet: Sheet | None = None
    score: Score | None = None
    error: str | None = None
    expanded: set[int] = field(default_factory=set)

    def open(self, ruleset_id: str) -> None:
        """Load ``docs/examples/<ruleset_id>.json`` and score it; on failure keep a German message."""
        self.sheet, self.score, self.error, self.expanded = None, None, None, set()
        try:
            ruleset = find_ruleset(ruleset_id)
            sheet = parse_sheet((self.examples_dir / f"{ruleset_id}.json").read_bytes(), source=f"{ruleset_id}.json")
            self.score = ruleset.score(sheet)
            self.sheet = sheet
        except UnknownRuleset as error:
            self.error = str(error)
        except FileNotFoundError:
            self.error = f"Für '{ruleset_id}' gibt es kein Beispielblatt."
        except SheetInputError as error:
            self.error = f"Das Beispielblatt ist beschädigt: {explain(error)}"
        except RuleViolation as error:
            self.error = f"Das Beispielblatt verletzt eine Regel: {error}"

    def toggle(self, entry: int) -> None:
        """Show or hide the explanation of one line."""
        self.expanded = self.expanded ^ {entry}

    def name(self, participant_id: str) -> str:
        assert self.sheet is not None
        return self.sheet.participant(participant_id).name
