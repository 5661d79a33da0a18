"""How a tournament is played: the ruleset and its options, teams or players, the rounds and the
table sizes, as each document prescribes them (``plan_for``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from .engine import Ruleset
from .model import Frozen
from .registry import find_ruleset
from .roster import Unit

RoundLabel = Literal["Durchgang", "Serie", "Runde", "Spielabend"]


class TournamentPlan(Frozen):
    """How a tournament is played: ruleset and options, teams or players, rounds and table sizes."""

    ruleset_id: str
    options: dict[str, Any] = Field(default_factory=dict)
    """Every option of the ruleset, filled in (what each round's sheets snapshot)."""
    unit: Unit
    rounds: int = Field(ge=1, le=50)
    round_label: RoundLabel
    table_sizes: tuple[int, ...]
    """Entrants per table: Watten (2,) teams; Bauernschnapsen (2,) teams of two; Talonschnapsen (3,);
    Schafkopf (4,); Doppelkopf (4, 5)."""
    time_limit_minutes: int | None = Field(default=None, ge=1, le=24 * 60)
    """Watten Regel 11: 70 minutes per Durchgang."""
    games_per_round: int | None = None
    """Where the document fixes it: Watten 3 Bummerl, Doppelkopf 16 games per player, Schafkopf the Serie's games."""
    sheets_per_table: int = Field(default=1, ge=1, le=2)
    """Watten Regel 5: each team keeps its own Tischliste (2); elsewhere one Listenführer (1)."""
    byes: bool = False
    """May entrants sit out a round (Freilos) when the count does not fill the tables? No document
    provides for it; the organizer may allow it."""
    game: str = ""
    """The game's German name for messages ("Watten", "Doppelkopf", ...)."""

    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        return find_ruleset(self.ruleset_id)


_GAME_NAMES = {
    "watten-turnier": "Watten",
    "schafkopf-turnier": "Schafkopf",
    "doppelkopf-turnier": "Doppelkopf",
    "doppelkopf-haus": "Doppelkopf",
    "bauernschnapsen": "Bauernschnapsen",
    "talonschnapsen": "Talonschnapsen",
}


def plan_for(
    ruleset_id: str, options: Mapping[str, Any] | None = None, rounds: int | None = None, *, byes: bool = False
) -> TournamentPlan:
    """The plan each document prescribes, with the organizer's options and number of rounds.

    - Watten (Regel 1, 2, 5, 11): 3 Durchgänge of ``bummerl_count`` (3) Bummerl, two teams a
      table, each team writes its own list, 70 minutes per Durchgang.
    - Schafkopf (Turnierordnung): Serien as the organizer sets them (default 3), four players a
      table, drawn anew each Serie ("Jede Serie wird neu ausgelost"), ``spiele`` games each.
    - Doppelkopf (Regel 1): 3 Runden at 4- and 5-player tables, 16 games for every player.
    - Bauernschnapsen, Talonschnapsen: rounds as the organizer sets them (default 3), two teams
      resp. three players a table, ``bummerl_count`` Bummerl a round if set.

    Unknown rulesets and invalid options are refused (``ValueError``)."""
    ruleset = find_ruleset(ruleset_id)
    opts = ruleset.options(options).model_dump(mode="json")
    if rounds is not None and not 1 <= rounds <= 50:
        raise ValueError(f"Zahl der Runden muss zwischen 1 und 50 liegen, nicht {rounds}")
    label: RoundLabel = ruleset.round_label if ruleset.round_label != "Spielabend" else "Durchgang"
    common: dict[str, Any] = {
        "ruleset_id": ruleset_id,
        "options": opts,
        "unit": ruleset.participant_kind,
        "round_label": label,
        "rounds": rounds or 3,
        "table_sizes": tuple(ruleset.participant_counts),
        "byes": byes,
        "game": _GAME_NAMES.get(ruleset_id, ruleset.title),
    }
    if ruleset_id == "watten-turnier":
        return TournamentPlan(**common, time_limit_minutes=70, games_per_round=opts["bummerl_count"], sheets_per_table=2)
    if ruleset_id == "schafkopf-turnier":
        return TournamentPlan(**common, games_per_round=opts["spiele"])
    if ruleset_id.startswith("doppelkopf"):
        return TournamentPlan(**common, games_per_round=16)
    return TournamentPlan(**common, games_per_round=opts.get("bummerl_count") or None)
