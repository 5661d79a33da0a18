"""The Watten entry panel's state: one tap per common game, the rare events one level down.

The buttons are the entries the ruleset accepts now (``drafts.allowed``): against a gspannt team
its opponents' win is offered as +3 only (Regel 8), "gehen" and the unerlaubte "ausschaffen"
only for a gspannt team, "Vergeben" names the team the ruleset says deals (Regel 6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scoring import Score, Sheet

from .drafts import DraftIncomplete, allowed, assign

COMMON_VALUES = (2, 3, 4)
RARE_VALUES = (5, 6)


@dataclass(frozen=True)
class Choice:
    """One button of the panel: the entry it writes and its German label."""

    label: str
    """Unique on the screen: what the player reads and a screen reader says."""
    short: str
    """What the button shows big ("+2"); the team's name stands above its column."""
    kind: str
    data: dict[str, Any]
    team: str | None = None


@ft.observable
@dataclass
class WattenDraft:
    """What the Watten panel offers for the sheet as it stands."""

    sheet: Sheet | None = None
    common: list[Choice] = field(default_factory=list)
    rare: list[Choice] = field(default_factory=list)
    chosen: Choice | None = None
    """The entry being corrected (highlighted), or the last tapped choice."""
    show_rare: bool = False

    def reset(self, sheet: Sheet, score: Score) -> None:
        assign(self, sheet=sheet)
        self.chosen, self.show_rare = None, False
        self._offer(sheet, score)

    def load(self, sheet: Sheet, score: Score, kind: str, data: Mapping[str, Any]) -> None:
        assign(self, sheet=sheet)
        self._offer(sheet, score)
        wanted = (kind, dict(data))
        every = [*self.common, *self.rare]
        self.chosen = next((c for c in every if (c.kind, c.data) == wanted), None)
        if self.chosen is None and kind == "game" and data.get("value") is None:
            # "value" left empty counts 2, or 3 against a gspannt team: the one choice offered then.
            mine = [c for c in self.common if c.data.get("winner") == data.get("winner")]
            self.chosen = mine[0] if len(mine) == 1 else next((c for c in mine if c.data["value"] == 2), None)
        if self.chosen is None:
            # An entry the rules would not take here any more is still shown, to be replaced.
            self.chosen = Choice(label=f"bisher: {kind} {dict(data)}", short=kind, kind=kind, data=dict(data))
        self.show_rare = self.chosen in self.rare

    def choose(self, choice: Choice) -> None:
        self.chosen = choice

    def toggle_rare(self) -> None:
        self.show_rare = not self.show_rare

    def entry(self) -> tuple[str, dict[str, Any]]:
        if self.chosen is None:
            raise DraftIncomplete("Bitte antippen, wer das Spiel gewonnen hat und zu wie viel.")
        return self.chosen.kind, dict(self.chosen.data)

    def team_choices(self, team: str) -> list[Choice]:
        return [c for c in self.common if c.team == team]

    def _offer(self, sheet: Sheet, score: Score) -> None:
        names = {p.id: p.name for p in sheet.participants}
        common: list[Choice] = []
        rare: list[Choice] = []
        for pid, name in names.items():
            for value in COMMON_VALUES:
                data = {"winner": pid, "value": value}
                if allowed(sheet, "game", data):
                    common.append(Choice(f"+{value} für {name}", f"+{value}", "game", data, pid))
        for pid, name in names.items():
            for value in RARE_VALUES:
                data = {"winner": pid, "value": value}
                if allowed(sheet, "game", data):
                    rare.append(Choice(f"+{value} für {name}", f"+{value}", "game", data, pid))
            for kind, text in (("gehen", "geht"), ("ausschaffen", "schafft unerlaubt aus")):
                data = {"team": pid}
                if allowed(sheet, kind, data):
                    rare.append(Choice(f"{name} {text}", text, kind, data, pid))
        dealer = score.status.dealer
        if dealer is not None and allowed(sheet, "vergeben", {}):
            rare.append(Choice(f"Vergeben: {names[dealer]} hat vergeben", "Vergeben", "vergeben", {}))
        for pid, name in names.items():
            data = {"cheater": pid}
            if allowed(sheet, "betrug", data):
                rare.append(Choice(f"Bscheißn: {name} erwischt", "Bscheißn", "betrug", data, pid))
        if allowed(sheet, "zeitlimit", {}):
            rare.append(Choice("Zeitlimit: Durchgang beenden", "Zeitlimit", "zeitlimit", {}))
        self.common, self.rare = common, rare
