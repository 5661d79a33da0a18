"""Bauernschnapsen and Talonschnapsen (``../shared/rules/bauernschnapsen.txt``).

Two rulesets share this module:

- ``bauernschnapsen``: four players in two teams sitting opposite (two participants of kind
  "team", each with two ``members``);
- ``talonschnapsen``: three players, each for themselves (section "Talonschnapsen").

A sheet is a Spielabend (or a tournament Durchgang): Bummerl after Bummerl, each a race to
``target`` points (24, "Allgemeine Regeln"). Every entry is one ``game``:

- ``game``: which game of the catalogue ("Punkteübersicht"), who ``announcer`` announced it,
  whether the announcer's side ``won``; for the normal game the ``augen`` class of the losing
  side (``"ab33"``: 1 point, ``"unter33"``: 2, ``"kein_stich"``: 3); the Spritzen level
  ``spritze`` (1 gespritzt x2, 2 zurückgespritzt x4, 3 nochmal zurück x8) and ``herzrunde``
  (Herz is trump, x2 on top). ``rufer`` names who called trump, where the table's Rufer is
  not the one the sheet expects (the first game of an evening, a mistake at the table).

How this module reads the document where it is not explicit:

- Players. A Bauernschnapsen player is named by a member name of his team or by
  ``<team id>1`` / ``<team id>2``. A name is just a name, also "A1": only a text that is one
  player's name and another's key is refused as ambiguous. Seats go clockwise: first member of the first team, first
  member of the second team, second member of the first team, second of the second. The
  Rufer sits left of the dealer and deals the next game ("Am Ende jeden Spiels wird der Rufer
  zum Geber"), so the Rufer moves one seat clockwise with every game, Bummerl or not. The
  first Rufer is the first seat unless the first game names another ``rufer``.
- Who may announce what. Only the Rufer: Schnapser, Bauernloch ("kann nur von der Person
  gespielt werden, die ... die Trumpffarbe zu bestimmen"), Trumpfringerl/Herrenschnapser
  ("Wenn der Rufer alle Karten der Atout-Farbe hält"), Dokta and Blinder Bettler. Only an
  opponent of the Rufer: Kontraschnapser, Kontrabauernschnapser, Kontra-Herrenbauer. Only the
  Rufer's partner: "Schnapser zusammen". The normal game is the Rufer's team's (in
  Talonschnapsen: the Rufer's). Everyone: the rest. The table's "Rufer kündigt an, ein Ass zu
  haben" for the Ass-Bettler uses "Rufer" for the announcer, as its Bettler row does; the text
  says "Der Spieler, der den Ass-Bettler ansagt", so anyone may.
- A lost game gives its points to the other side; a lost normal game is scored by the
  Augen of the Rufer's side, which is then the losing side.
- The catalogue (option ``games``): the games of the Punkteübersicht above the regional
  part are allowed by default (Bettler, Schnapser, Gang, Bauernschnapser, Kontraschnapser,
  Farbenringerl, Kontrabauernschnapser, Trumpfringerl); the "Regionale Sonderspiele"
  (Assenbettler, Ass-Bettler, Blinder Bettler, Plauderer, Zehnergang, Bauernloch,
  Kontra-Herrenbauer, Dokta, Schnapser zusammen) and the Herzrunde are off by default and
  switched on by the house rules. "Zehnerloch" is a regional name of both the Assenbettler
  and the Zehnergang, so it is not accepted as a name; the keys are.
- Multipliers: gespritzt x2, zurück x4, nochmal zurück x8, a higher level does not exist.
  The Herzrunde doubles on top of any Spritze and applies to every game, also those without
  Atout (Herz was called all the same).
- Points are written in full, also beyond the target (the Bummerl ends either way), except
  the Kontra-Herrenbauer: "Es können jedoch nur 24 Punkte pro Bummel erreicht werden", so it
  counts at most what the receiving side still needs to reach the target.
- Bummerl: the losing team gets one Bummerl, a Schneider (2) with 0 points, a
  Retourschneider (4) when it led ``target - 1``:0 (23:0) at some point of the Bummerl.
  With ``countdown`` the table counts down from 24 to 0: the ``stand`` shown is what each
  side still needs; the game is the same, so are Schneider (still at 24) and Retourschneider
  (led 1:24).
- Talonschnapsen: the declarer who makes his game writes the points alone; one who fails
  gives them to each of the two others. A normal game is the Rufer's against the two others
  ("Bei einem normalen Spiel muss der Rufer auf mindestens 66 Punkte kommen"); its Augen
  class is the losing side's as in Bauernschnapsen. The Bummerl ends when someone reaches 24;
  it goes to the player with the fewest points, to both when two tie (option
  ``bummerl_below_target``: to everyone below 24), a Schneider to one with 0. The text names
  only Bummerl and Schneider there, so the Retourschneider is an option (off). The Schnapser
  is made with four tricks and the Farbenring with all six tricks (same points); "Schnapser
  zusammen" needs a partner and does not exist.
- The Dokta is an announced game like the others: a team that misses a trick gives the 5 to
  the opponents.
- Closing a sheet mid-Bummerl (the evening ends) scores the open Bummerl for nobody; with
  ``bummerl_count`` a sheet closes early only with an ``override`` note.
- The regional Gang/Zehnergang precedence and the Plauderer variants change how a game is
  played, not how it is scored.
- ``totals`` are all points written on the sheet; the Bummerl tally is in ``result``.
- ``status.dealer`` is the next Rufer's side (his team, or himself); ``details`` name the
  Rufer and the Geber.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from .engine import (
    ChartMarks,
    CloseData,
    Context,
    Explanation,
    Headline,
    Outcome,
    Ruleset,
    RuleViolation,
    Score,
    Status,
    figure,
)
from .model import Frozen, Participant, Sheet
from .registry import register

R_KATALOG = "Hausregel: Spielekatalog"
R_PUNKTE = "Punkteübersicht"
R_NORMAL = "Normales Spiel (1, 2 oder 3 Punkte)"
R_SPRITZEN = "Spritzen (×2, ×4, ×8)"
R_HERZ = "Herzrunde (×2)"
R_BUMMERL = "Allgemeine Regeln (Bummerl)"
R_RUFER = "Beginn und Ende (Rufer)"
R_KHB = "Kontra-Herrenbauer (höchstens 24 pro Bummerl)"
R_TALON = "Talonschnapsen (Punkte)"
R_TALON_BUMMERL = "Talonschnapsen (Bummerl)"
R_TEILNEHMER = "Allgemeine Regeln (Teams)"

_REPEATED = re.compile(r"Bummerl: |Bummerl \d+, Stand ")
"""Status messages the headline shows already (``status_beside_headline``)."""

Who = Literal["rufer_seite", "alle", "rufer", "gegner", "partner"]


@dataclass(frozen=True)
class Spiel:
    """One row of the game catalogue ("Punkteübersicht")."""

    key: str
    name: str
    points: int
    """Points of the game; the normal game has 0 here (1, 2 or 3 by the Augen)."""
    who: Who
    """Who may announce it: the Rufer's side, anyone, the Rufer, his opponents, his partner."""
    rule: str
    """The section of the document that gives the game."""
    regional: bool = False
    """Listed under "Regionale Sonderspiele": off unless the house rules allow it."""
    teams_only: bool = False
    """Needs a partner (only Bauernschnapsen)."""


CATALOGUE: dict[str, Spiel] = {
    s.key: s
    for s in (
        Spiel("normal", "Normales Spiel", 0, "rufer_seite", "Normales Spiel"),
        Spiel("bettler", "Bettler", 4, "alle", "Bettler (oder Fechter)"),
        Spiel("schnapser", "Schnapser", 6, "rufer", "Schnapser (nur der Rufer)"),
        Spiel("gang", "Gang", 9, "alle", "Gangl (kann jeder Spieler ansagen)"),
        Spiel("bauernschnapser", "Bauernschnapser", 12, "alle", "Bauernschnapser"),
        Spiel("kontraschnapser", "Kontraschnapser", 12, "gegner", "Kontraschnapser (ein Gegenspieler des Rufers)"),
        Spiel("farbenringerl", "Farbenringerl", 18, "alle", "Farbringerl"),
        Spiel("kontrabauernschnapser", "Kontrabauernschnapser", 24, "gegner", "Kontrabauernschnapser (Gegner der Vorhand)"),
        Spiel("trumpfringerl", "Trumpfringerl (Herrenschnapser)", 24, "rufer", "Herrenschnapser (der Rufer hält alle Atout)"),
        Spiel("assenbettler", "Assenbettler", 5, "alle", "Assenbettler", regional=True),
        Spiel("ass-bettler", "Ass-Bettler", 5, "alle", "Ass-Bettler", regional=True),
        Spiel("plauderer", "Plauderer", 7, "alle", "Plauderer", regional=True),
        Spiel("zehnergang", "Zehnergang", 10, "alle", "Zehnergang", regional=True),
        Spiel("bauernloch", "Bauernloch", 12, "rufer", "Bauernloch (nur der Rufer, der die Trumpffarbe bestimmt)", regional=True),
        Spiel("kontra-herrenbauer", "Kontra-Herrenbauer", 48, "gegner", "Kontra-Herrenbauer (der Gegenspieler)", regional=True),
        Spiel("dokta", "Dokta", 5, "rufer", "Dokta (der Rufer kündigt an)", regional=True),
        Spiel("blinder-bettler", "Blinder Bettler", 5, "rufer", "Blinder Bettler (nur der Rufer)", regional=True),
        Spiel(
            "schnapser-zusammen",
            "Schnapser zusammen",
            6,
            "partner",
            "Kontraschnapser: Schnapser zusammen (der Partner des Rufers)",
            regional=True,
            teams_only=True,
        ),
    )
}

#: Other names of the document for the same game (not "Zehnerloch": it names two games).
ALIASES: dict[str, str] = {
    "normales-spiel": "normal",
    "rufer": "normal",
    "fechter": "bettler",
    "drei-stich": "schnapser",
    "gangl": "gang",
    "bauer": "bauernschnapser",
    "kontra-drei-stich": "kontraschnapser",
    "farbringerl": "farbenringerl",
    "herrenringerl": "farbenringerl",
    "farbenjodler": "farbenringerl",
    "herrenschnapser": "trumpfringerl",
    "herrenjodler": "trumpfringerl",
    "trumpffarbenringerl": "trumpfringerl",
    "ass-fechter": "ass-bettler",
    "doktor": "dokta",
}

DEFAULT_GAMES: tuple[str, ...] = tuple(k for k, s in CATALOGUE.items() if k != "normal" and not s.regional)

AUGEN_POINTS: dict[str, int] = {"ab33": 1, "unter33": 2, "kein_stich": 3}
AUGEN_TEXT: dict[str, str] = {"ab33": "ab 33 Augen", "unter33": "unter 33 Augen", "kein_stich": "ohne Stich"}
SPRITZE_TEXT = ("", "gespritzt ×2", "zurückgespritzt ×4", "nochmal zurückgespritzt ×8")
MAX_SPRITZE = 3

BummerlArt = Literal["Bummerl", "Schneider", "Retourschneider"]
BUMMERL_COUNT: dict[str, int] = {"Bummerl": 1, "Schneider": 2, "Retourschneider": 4}


@lru_cache(maxsize=256)
def game_key(name: str) -> str | None:
    """The catalogue key of a game name or alias ("Herrenschnapser" -> "trumpfringerl"); the few
    names a table writes are worked out once, not once per game (issue 24)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-").replace('"', "")
    key = ALIASES.get(key, key)
    return key if key in CATALOGUE else None


# -- options ---------------------------------------------------------------------------------


class SchnapsenOptions(Frozen):
    target: int = Field(default=24, ge=3, le=99, description="Ein Bummerl geht bis zu diesen Punkten (Allgemeine Regeln: 24)")
    countdown: bool = Field(
        default=False,
        description="Regionale Variante: von 24 auf null herunterzählen (die Anzeige zeigt, was jedem noch fehlt)",
    )
    games: tuple[str, ...] = Field(
        default=DEFAULT_GAMES,
        description="Erlaubte Sonderspiele (Schlüssel der Punkteübersicht); das normale Spiel ist immer erlaubt",
    )
    herzrunde: bool = Field(default=False, description="Herzrunde: ist Herz Trumpf, zählt das Spiel doppelt (regional)")
    bummerl_count: int = Field(default=0, ge=0, le=99, description="Bummerl pro Blatt (Turnier); 0: ohne Ende")

    teams_only_games: ClassVar[bool] = True

    @field_validator("games")
    @classmethod
    def _known_games(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if "normal" in value:
            raise ValueError("das normale Spiel ist immer erlaubt; 'games' nennt nur die Sonderspiele")
        unknown = [g for g in value if g not in CATALOGUE]
        if unknown:
            known = ", ".join(k for k in CATALOGUE if k != "normal")
            raise ValueError(f"unbekannte Sonderspiele {unknown} (bekannt: {known})")
        if not cls.teams_only_games:
            team = [g for g in value if CATALOGUE[g].teams_only]
            if team:
                raise ValueError(f"{team} gibt es nur beim Bauernschnapsen (mit Partner)")
        if len(set(value)) != len(value):
            raise ValueError("jedes Spiel nur einmal nennen")
        return value


class BauernschnapsenOptions(SchnapsenOptions):
    pass


class TalonschnapsenOptions(SchnapsenOptions):
    bummerl_below_target: bool = Field(
        default=False, description="Regionale Variante: jeder, der die 24 nicht erreicht, hat ein Bummerl"
    )
    retourschneider: bool = Field(
        default=False, description="Retourschneider (4 Bummerl) wie beim Bauernschnapsen auch beim Talonschnapsen"
    )

    teams_only_games: ClassVar[bool] = False


# -- entries and results -------------------------------------------------------------------------


class GameData(Frozen):
    game: str = Field(description="Spiel der Punkteübersicht, z. B. 'normal', 'schnapser', 'gang'")
    announcer: str | None = Field(default=None, description="Wer das Spiel angesagt hat; leer: der Rufer")
    won: bool = Field(description="Hat die Seite des Ansagers gewonnen?")
    augen: Literal["ab33", "unter33", "kein_stich"] | None = Field(
        default=None, description="Nur normales Spiel: Augen der Verlierer (ab33: 1, unter33: 2, kein_stich: 3)"
    )
    spritze: int = Field(
        default=0, ge=0, le=MAX_SPRITZE, description="0; 1 gespritzt ×2; 2 zurückgespritzt ×4; 3 nochmal zurück ×8 (Spritzen)"
    )
    herzrunde: bool = Field(default=False, description="Herz ist Trumpf: ×2 zusätzlich")
    rufer: str | None = Field(default=None, description="Wer Trumpf gerufen hat, wenn nicht der erwartete Rufer")


class PapierData(Frozen):
    """A Bummerl as the paper sheet shows it at its end (``papier``): each side's stand as written
    (with ``countdown``: what each still needed), and the side that lost after leading 23:0."""

    stand: dict[str, int]
    retourschneider: str | None = None
    offen: bool = False
    """The sheet ended in this Bummerl before anyone reached the target: its points are written, it counts for nobody."""


class Verlust(Frozen):
    """Who lost a Bummerl and how badly."""

    participant: str
    art: BummerlArt
    bummerl: int
    """1 Bummerl, 2 for a Schneider, 4 for a Retourschneider."""


class BummerlResult(Frozen):
    number: int
    stand: dict[str, int]
    """Final stand as written (with ``countdown``: what each side still needed)."""
    winners: tuple[str, ...]
    losers: tuple[Verlust, ...]


class SchnapsenResult(Frozen):
    finished: bool
    bummerl: dict[str, int]
    """Bummerl per participant over the sheet (a Schneider counts 2, a Retourschneider 4)."""
    bummerl_won: dict[str, int]
    history: tuple[BummerlResult, ...]


@dataclass(frozen=True)
class Player:
    ref: str
    """Canonical reference: the participant id (Talonschnapsen) or ``<team id>1/2``."""
    name: str
    side: str
    """The participant the player scores for (his team, or himself)."""


@dataclass
class _State:
    sides: tuple[str, ...]
    players: tuple[Player, ...]
    rufer: int
    """Index into ``players`` (clockwise seat order) of the next Rufer."""
    points: dict[str, int]
    """Points of the open Bummerl, counted upwards."""
    led_to_zero: set[str] = field(default_factory=set)
    """Sides that led ``target - 1`` to 0 in the open Bummerl (Retourschneider)."""
    history: list[BummerlResult] = field(default_factory=list)
    games: int = 0
    open_games: int = 0
    """Games played in the open Bummerl."""
    closed: bool = False


# -- the shared ruleset ----------------------------------------------------------------------------


class _Schnapsen(Ruleset[_State, SchnapsenOptions]):
    """What Bauern- and Talonschnapsen share: catalogue, multipliers, Rufer, Bummerl."""

    zero_sum = False
    entry_models = {"game": GameData, "papier": PapierData}
    input_rules = {"spritze": R_SPRITZEN}

    # -- seats -----------------------------------------------------------------------------
    @abstractmethod
    def players(self, sheet: Sheet) -> tuple[Player, ...]:
        """The players in clockwise seat order (the order the Rufer goes round)."""

    def _ordered(self, sheet: Sheet) -> list[Participant]:
        """Participants clockwise: by ``seat`` when every one has a seat, else as listed."""
        parts = list(sheet.participants)
        if all(p.seat is not None for p in parts):
            parts.sort(key=lambda p: p.seat or 0)
        return parts

    def resolve(self, state: _State, ref: str, what: str) -> int:
        """Index of the player ``ref`` names: by his name or by his key (``A1``, the participant id).

        A name is just a name: players may be called "A1" or "B2". Only a text that is one
        player's name and another player's key is refused, naming both, never silently read
        as either of them.
        """
        by_name = [i for i, p in enumerate(state.players) if p.name == ref]
        by_key = [i for i, p in enumerate(state.players) if p.ref == ref]
        found = sorted(set(by_name) | set(by_key))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            named, keyed = state.players[by_name[0]], state.players[by_key[0]]
            raise RuleViolation(
                R_TEILNEHMER,
                f"'{ref}' ({what}) ist mehrdeutig: so heißt ein Spieler (Kennung {named.ref}), und so ist der Platz "
                f"von {keyed.name} bezeichnet; bitte '{named.ref}' oder '{keyed.name}' schreiben",
            )
        known = ", ".join(f"{p.ref} ({p.name})" for p in state.players)
        raise RuleViolation(R_TEILNEHMER, f"'{ref}' ({what}) sitzt nicht an diesem Tisch (Spieler: {known})")

    # -- state -----------------------------------------------------------------------------
    def start(self, ctx: Context[SchnapsenOptions]) -> _State:
        sides = tuple(p.id for p in self._ordered(ctx.sheet))
        return _State(sides=sides, players=self.players(ctx.sheet), rufer=0, points={s: 0 for s in sides})

    def _finished(self, state: _State, ctx: Context[SchnapsenOptions]) -> bool:
        count = ctx.options.bummerl_count
        return count > 0 and len(state.history) >= count

    def shown(self, state: _State, ctx: Context[SchnapsenOptions]) -> dict[str, int]:
        """The stand as the table writes it: points, or with ``countdown`` what is still missing."""
        target = ctx.options.target
        if ctx.options.countdown:
            return {s: max(0, target - state.points[s]) for s in state.sides}
        return dict(state.points)

    @staticmethod
    def stand_lines(options: SchnapsenOptions) -> tuple[int, int]:
        """Where the written stand ends a Bummerl and where a side is Schneider (Allgemeine Regeln):
        ``target`` and 0, or with ``countdown`` 0 and ``target`` (what a side still needs)."""
        return (0, options.target) if options.countdown else (options.target, 0)

    def chart_marks(self, options: SchnapsenOptions, result: BaseModel) -> ChartMarks:
        """The course chart: where the written stand ends a Bummerl and the Schneider line (``stand_lines``)."""
        goal, schneider = self.stand_lines(options)
        return ChartMarks(levels=((goal, f"Bummerl bei {goal}"), (schneider, f"Schneider bei {schneider}")))

    def stage(self, state: _State) -> int:
        """Bummerl closed so far."""
        return len(state.history)

    def stand_text(self, stand: dict[str, int], state: _State) -> str:
        return ":".join(str(stand[s]) for s in state.sides)

    # -- scoring a game ----------------------------------------------------------------------
    def on_game(self, state: _State, data: GameData, ctx: Context[SchnapsenOptions]) -> Outcome:
        opts = ctx.options
        if self._finished(state, ctx):
            raise RuleViolation(R_BUMMERL, f"Das Blatt ist mit {opts.bummerl_count} Bummerl beendet")
        reasons: list[Explanation] = []

        # Who called trump this game.
        if data.rufer is not None:
            rufer = self.resolve(state, data.rufer, "Rufer")
            if rufer != state.rufer:
                expected = state.players[state.rufer].name
                reasons.append(Explanation(rule=R_RUFER, text=f"Rufer war {state.players[rufer].name} statt {expected}"))
            state.rufer = rufer
        rufer = state.rufer

        key = game_key(data.game)
        if key is None:
            known = ", ".join(CATALOGUE)
            raise RuleViolation(R_PUNKTE, f"Das Spiel '{data.game}' gibt es nicht (bekannt: {known})")
        spiel = CATALOGUE[key]
        if spiel.teams_only and not self.teams:
            raise RuleViolation(R_PUNKTE, f"{spiel.name} gibt es nur beim Bauernschnapsen (mit Partner)")
        if key != "normal" and key not in opts.games:
            raise RuleViolation(R_KATALOG, f"{spiel.name} ist nach den Hausregeln dieses Blatts nicht erlaubt")

        announcer = rufer if data.announcer is None else self.resolve(state, data.announcer, "Ansager")
        try:
            self._check_announcer(state, spiel, announcer, rufer)
        except RuleViolation as error:
            if data.announcer is not None:
                raise
            # Nobody was entered: say so, the table did not name the Rufer.
            raise RuleViolation(error.rule, f"{error.message} (kein Ansager eingetragen: ohne Ansager gilt der Rufer)") from None

        if data.herzrunde and not opts.herzrunde:
            raise RuleViolation(R_KATALOG, "Die Herzrunde wird nach den Hausregeln dieses Blatts nicht gespielt")

        # The normal game is the Rufer's (his team's) even when his partner is entered as announcer.
        named = rufer if key == "normal" else announcer
        base, base_rule, base_text = self._base_value(key, spiel, data, state.players[named].name)
        points, factors = self._multiplied(base, data)
        reasons.append(Explanation(rule=base_rule, text=base_text))
        if data.spritze:
            reasons.append(Explanation(rule=R_SPRITZEN, text=SPRITZE_TEXT[data.spritze]))
        if data.herzrunde:
            reasons.append(Explanation(rule=R_HERZ, text="Herz ist Trumpf: ×2"))

        receivers = self.receivers(state, announcer, data.won)
        award: dict[str, int] = {}
        for side in receivers:
            written = points
            if key == "kontra-herrenbauer":
                needed = max(0, opts.target - state.points[side])
                if written > needed:
                    reasons.append(
                        Explanation(
                            rule=R_KHB,
                            text=f"{points} zählen nur die {needed} Punkte, die {ctx.name(side)} zum Bummerl fehlen",
                        )
                    )
                    written = needed
            award[side] = written
        rule = base_rule if self.teams else R_TALON
        factor_text = f" ({', '.join(factors)})" if factors else ""
        reasons.append(
            Explanation(
                rule=rule,
                text=self.award_text(ctx, state, announcer, data.won, award) + factor_text,
                points=award,
            )
        )

        for side, value in award.items():
            state.points[side] += value
        state.games += 1
        state.open_games += 1
        target = opts.target
        for side in state.sides:
            others = [state.points[o] for o in state.sides if o != side]
            if state.points[side] == target - 1 and all(o == 0 for o in others):
                state.led_to_zero.add(side)
        stand = self.shown(state, ctx)
        state.rufer = (rufer + 1) % len(state.players)
        if any(state.points[s] >= target for s in state.sides):
            reasons.append(self._close_bummerl(state, ctx, stand))
        return Outcome(award, reasons, stand)

    def _base_value(self, key: str, spiel: Spiel, data: GameData, who: str) -> tuple[int, str, str]:
        """The game's points before Spritzen and Herzrunde, with the rule and the text for them."""
        outcome = "gewonnen" if data.won else "verloren"
        if key == "normal":
            if data.augen is None:
                raise RuleViolation(
                    R_NORMAL,
                    "Beim normalen Spiel fehlen die Augen der Verlierer (ab33: 1 Punkt, unter33: 2, kein_stich: 3)",
                )
            base = AUGEN_POINTS[data.augen]
            return base, R_NORMAL, f"Normales Spiel, Rufer {who}: {outcome}; Verlierer {AUGEN_TEXT[data.augen]}: {base}"
        if data.augen is not None:
            raise RuleViolation(R_NORMAL, f"Augen der Verlierer gibt es nur beim normalen Spiel, nicht bei {spiel.name}")
        text = f"{spiel.name}{self.variant(key)}, angesagt von {who}: {outcome}; zählt {spiel.points}"
        return spiel.points, f"{R_PUNKTE} ({spiel.name} {spiel.points})", text

    def _multiplied(self, base: int, data: GameData) -> tuple[int, list[str]]:
        """Spritzen (×2, ×4, ×8) and Herzrunde (×2 on top): the points and the factors applied."""
        points = base * 2**data.spritze * (2 if data.herzrunde else 1)
        factors = [SPRITZE_TEXT[data.spritze]] if data.spritze else []
        if data.herzrunde:
            factors.append("Herzrunde ×2")
        return points, factors

    def _check_announcer(self, state: _State, spiel: Spiel, announcer: int, rufer: int) -> None:
        player = state.players[announcer]
        rufer_player = state.players[rufer]
        if spiel.who == "alle":
            return
        same_side = player.side == rufer_player.side
        if spiel.who == "rufer" and announcer != rufer:
            raise RuleViolation(spiel.rule, f"{spiel.name} kann nur der Rufer ansagen ({rufer_player.name}), nicht {player.name}")
        if spiel.who == "gegner" and same_side:
            raise RuleViolation(
                spiel.rule,
                f"{spiel.name} kann nur ein Gegenspieler des Rufers {rufer_player.name} ansagen, nicht {player.name}",
            )
        if spiel.who == "partner" and (announcer == rufer or not same_side):
            raise RuleViolation(
                spiel.rule, f"{spiel.name} kann nur der Partner des Rufers {rufer_player.name} ansagen, nicht {player.name}"
            )
        if spiel.who == "rufer_seite" and not same_side:
            whose = "das Team des Rufers" if self.teams else "der Rufer"
            raise RuleViolation(spiel.rule, f"Das normale Spiel spielt {whose} ({rufer_player.name}), nicht {player.name}")

    def variant(self, key: str) -> str:
        return ""

    # -- Bummerl ---------------------------------------------------------------------------
    def on_papier(self, state: _State, data: PapierData, ctx: Context[SchnapsenOptions]) -> Outcome:
        """A whole Bummerl typed from the paper sheet: its end stand (Allgemeine Regeln: "das Spiel endet,
        sobald ein Team 24 Punkte erreicht hat"; counting down: at null). So at least one side reached
        the target, and the losers get their Bummerl, a Schneider with 0 points, as after the games;
        a Retourschneider (led 23:0 and lost) is not in the stand and is named."""
        opts = ctx.options
        if self._finished(state, ctx):
            raise RuleViolation(R_BUMMERL, f"Das Blatt ist mit {opts.bummerl_count} Bummerl beendet")
        if state.open_games:
            raise RuleViolation(R_BUMMERL, "Ein Bummerl vom Papier beginnt ein neues Bummerl; das offene hat schon Spiele")
        if set(data.stand) != set(state.sides):
            names = ", ".join(ctx.name(s) for s in state.sides)
            raise RuleViolation(R_BUMMERL, f"Der Stand braucht genau {names}")
        number = len(state.history) + 1
        shown = {s: data.stand[s] for s in state.sides}
        text = self.stand_text(shown, state)
        target = opts.target
        if any(v < 0 for v in shown.values()) or (opts.countdown and any(v > target for v in shown.values())):
            raise RuleViolation(R_BUMMERL, f"Bummerl {number}: {text} ist kein Stand (0 bis {target} heruntergezählt)")
        points = {s: target - v for s, v in shown.items()} if opts.countdown else dict(shown)
        if data.offen:
            if any(v >= target for v in points.values()) or data.retourschneider is not None:
                raise RuleViolation(R_BUMMERL, f"Bummerl {number} beim Stand {text} ist zu Ende, nicht offen")
            state.points = points
            state.open_games = 1
            state.games += 1
            reason = f"Offenes Bummerl {number} vom Papier: {text} (zählt für niemanden)"
            return Outcome(points, [Explanation(rule=R_BUMMERL, text=reason, points=points)], shown)
        if not any(v >= target for v in points.values()):
            goal = "auf null gekommen" if opts.countdown else f"hat {target} erreicht"
            raise RuleViolation(R_BUMMERL, f"Bummerl {number} beim Stand {text}: niemand {goal}, so endet kein Bummerl")
        if data.retourschneider is not None:
            side = data.retourschneider
            if side not in state.sides or points[side] >= target or not self.retourschneider(ctx):
                raise RuleViolation(R_BUMMERL, f"Bummerl {number}: einen Retourschneider hat nur, wer 23:0 führte und verlor")
            state.led_to_zero = {side}
        state.points = points
        state.open_games = 1
        state.games += 1
        reasons = [Explanation(rule=R_BUMMERL, text=f"Bummerl {number} vom Papier: {text}", points=points)]
        reasons.append(self._close_bummerl(state, ctx, shown))
        return Outcome(points, reasons, shown)

    def headline(self, sheet: Sheet, score: Score) -> Headline:
        """During play the open Bummerl's stand as written (with ``countdown`` what each still needs),
        then the Bummerl lost so far; at the end the Bummerl lost, which decide the evening (the
        fewest wins), and the Bummerl won."""
        result = score.result
        assert isinstance(result, SchnapsenResult)
        lost = figure("Bummerl verloren", sheet, result.bummerl)
        if score.status.finished:
            return Headline(figures=(lost, figure("Bummerl gewonnen", sheet, result.bummerl_won)))
        number = score.status.details.get("bummerl", len(result.history) + 1)
        counting = " (fehlt noch)" if self.options(sheet.ruleset.options).countdown else ""
        stand = figure(f"Stand im Bummerl {number}{counting}", sheet, score.status.details["stand"])
        return Headline(figures=(stand, lost))

    def status_beside_headline(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Without "Bummerl: A 0, B 1" (the headline's "Bummerl verloren" is the same count, named) and
        without "Bummerl 2, Stand 0:9" (the headline's "Stand im Bummerl 2"); with a set number of
        Bummerl the line stays ("Bummerl 2 von 3, …" says how many)."""
        return tuple(m for m in score.status.messages if not _REPEATED.match(m))

    def paper_totals(self, sheet: Sheet, score: Score) -> tuple[tuple[str, dict[str, int]], ...]:
        """Each Bummerl's end stand as written, the open one's if the sheet ended in it, and the Bummerl
        lost (a Schneider 2, a Retourschneider 4)."""
        result = score.result
        assert isinstance(result, SchnapsenResult)
        options = self.options(sheet.ruleset.options)
        fresh = options.target if options.countdown else 0
        stand = dict(score.status.details.get("stand") or {})
        open_ = (("Offenes Bummerl", stand),) if any(v != fresh for v in stand.values()) else ()
        closed = tuple((f"Bummerl {b.number}", dict(b.stand)) for b in result.history)
        return (*closed, *open_, ("Bummerl verloren", dict(result.bummerl)))

    def _close_bummerl(self, state: _State, ctx: Context[SchnapsenOptions], stand: dict[str, int]) -> Explanation:
        number = len(state.history) + 1
        target = ctx.options.target
        winners = tuple(s for s in state.sides if state.points[s] >= target)
        losers = []
        for side in self.losers(state, ctx, winners):
            if state.points[side] == 0:
                art: BummerlArt = "Schneider"
            elif side in state.led_to_zero and self.retourschneider(ctx):
                art = "Retourschneider"
            else:
                art = "Bummerl"
            losers.append(Verlust(participant=side, art=art, bummerl=BUMMERL_COUNT[art]))
        state.history.append(BummerlResult(number=number, stand=stand, winners=winners, losers=tuple(losers)))
        state.points = {s: 0 for s in state.sides}
        state.led_to_zero = set()
        state.open_games = 0
        won = " und ".join(ctx.name(w) for w in winners)
        lost = "; ".join(self.loss_text(ctx, v, target) for v in losers)
        if ctx.options.countdown:
            # Counting down the stand reads what is still missing: the winners are at zero.
            text = f"Bummerl {number} beim Stand {self.stand_text(stand, state)} (heruntergezählt), auf null: {won}. {lost}"
        else:
            text = f"Bummerl {number} beim Stand {self.stand_text(stand, state)}, {target} erreicht: {won}. {lost}"
        return Explanation(rule=self.bummerl_rule, text=text)

    def loss_text(self, ctx: Context[SchnapsenOptions], v: Verlust, target: int) -> str:
        """The loser's part of the Bummerl line, in the numbers the sheet shows (also counting down)."""
        name = ctx.name(v.participant)
        countdown = ctx.options.countdown
        if v.art == "Schneider":
            if countdown:
                return f"{name} hat noch alle {target}: Schneider, zählt 2 Bummerl"
            return f"{name} hat 0 Punkte: Schneider, zählt 2 Bummerl"
        if v.art == "Retourschneider":
            lead, others = (1, target) if countdown else (target - 1, 0)
            led = ":".join([str(lead)] + [str(others)] * (len(ctx.sheet.participants) - 1))
            return f"{name} führte {led} und verliert: Retourschneider, zählt 4 Bummerl"
        return f"Ein Bummerl für {name}"

    bummerl_rule: ClassVar[str] = R_BUMMERL

    # -- hooks for the two rulesets ----------------------------------------------------------
    teams: ClassVar[bool] = True
    """Bauernschnapsen: sides are teams of two (partners exist)."""

    def retourschneider(self, ctx: Context[SchnapsenOptions]) -> bool:
        """Does a side that led ``target - 1`` to 0 and lost get a Retourschneider?"""
        return True

    @abstractmethod
    def receivers(self, state: _State, announcer: int, won: bool) -> list[str]:
        """The sides that write the game's points."""

    def award_text(self, ctx: Context[SchnapsenOptions], state: _State, announcer: int, won: bool, award: dict[str, int]) -> str:
        """The German line saying who writes what."""
        parts = ", ".join(f"{p} für {ctx.name(s)}" for s, p in award.items())
        return parts if won else f"verloren, die Punkte gehen an die Gegner: {parts}"

    @abstractmethod
    def losers(self, state: _State, ctx: Context[SchnapsenOptions], winners: tuple[str, ...]) -> list[str]:
        """The sides that get a Bummerl when ``winners`` reached the target."""

    def on_close(self, state: _State, data: CloseData, ctx: Context[SchnapsenOptions]) -> Outcome:
        """Close and sign. With ``bummerl_count`` a sheet closes early only with an ``override``
        note; an open Bummerl is not scored (nobody reached the target)."""
        opts = ctx.options
        reasons = list(super().on_close(state, data, ctx).explanation)
        if opts.bummerl_count and not self._finished(state, ctx):
            missing = opts.bummerl_count - len(state.history)
            if data.override is None:
                raise RuleViolation(
                    R_BUMMERL,
                    f"Es fehlen noch {missing} von {opts.bummerl_count} Bummerl; vorzeitig abschließen nur mit Vermerk (override)",
                )
            reasons.append(
                Explanation(rule=R_BUMMERL, text=f"Vorzeitig abgeschlossen, {missing} Bummerl fehlen: {data.override}")
            )
        if state.open_games:
            stand = self.stand_text(self.shown(state, ctx), state)
            reasons.append(
                Explanation(rule=R_BUMMERL, text=f"Das offene Bummerl (Stand {stand}) hat niemand gewonnen: es zählt nicht")
            )
        state.closed = True
        return Outcome({}, reasons)

    # -- reading -------------------------------------------------------------------------------
    def _tally(self, state: _State) -> tuple[dict[str, int], dict[str, int]]:
        lost = {s: 0 for s in state.sides}
        won = {s: 0 for s in state.sides}
        for b in state.history:
            for v in b.losers:
                lost[v.participant] += v.bummerl
            for w in b.winners:
                won[w] += 1
        return lost, won

    def status(self, state: _State, ctx: Context[SchnapsenOptions]) -> Status:
        opts = ctx.options
        finished = self._finished(state, ctx) or state.closed
        lost, _ = self._tally(state)
        stand = self.shown(state, ctx)
        rufer = state.players[state.rufer]
        geber = state.players[(state.rufer - 1) % len(state.players)]
        messages: list[str] = []
        if finished:
            how = "abgeschlossen" if state.closed else "beendet"
            messages.append(f"Blatt {how} nach {len(state.history)} Bummerl")
        else:
            number = len(state.history) + 1
            of = f" von {opts.bummerl_count}" if opts.bummerl_count else ""
            counting = " (heruntergezählt)" if opts.countdown else ""
            messages.append(f"Bummerl {number}{of}, Stand {self.stand_text(stand, state)}{counting}")
            messages.append(f"Rufer: {rufer.name}{self.side_suffix(ctx, rufer)}; es gibt {geber.name}")
        tally = ", ".join(f"{ctx.name(s)} {lost[s]}" for s in state.sides)
        messages.append(f"Bummerl: {tally}")
        return Status(
            finished=finished,
            dealer=None if finished else geber.side,
            messages=tuple(messages),
            details={
                "bummerl": len(state.history) + (0 if finished else 1),
                "stand": stand,
                "rufer": None if finished else rufer.ref,
                "geber": None if finished else geber.ref,
                "bummerl_tally": lost,
                "games": state.games,
            },
        )

    def side_suffix(self, ctx: Context[SchnapsenOptions], player: Player) -> str:
        return ""

    def result(self, state: _State, ctx: Context[SchnapsenOptions]) -> SchnapsenResult:
        lost, won = self._tally(state)
        return SchnapsenResult(
            finished=self._finished(state, ctx) or state.closed, bummerl=lost, bummerl_won=won, history=tuple(state.history)
        )

    def result_lines(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Each Bummerl with its end stand and who lost how (Bummerl, Schneider, Retourschneider),
        and the tally: the fewest Bummerl lost wins the evening."""
        result = score.result
        assert isinstance(result, SchnapsenResult)
        names = {p.id: p.name for p in sheet.participants}
        ids = [p.id for p in sheet.participants]
        lines = []
        for bummerl in result.history:
            stand = ":".join(str(bummerl.stand[i]) for i in ids)
            lost = ", ".join(f"{names[v.participant]} {v.art} ({v.bummerl})" for v in bummerl.losers) or "niemand"
            lines.append(f"Bummerl {bummerl.number}: {stand}; verloren: {lost}")
        lines.append("Bummerl verloren: " + ", ".join(f"{names[i]} {result.bummerl[i]}" for i in ids))
        return tuple(lines)

    def option_choices(self) -> dict[str, dict[str, str]]:
        """The ``games`` option: the catalogue's special games (the normal game is always allowed)."""
        return {
            "games": {
                key: spiel.name + (" (regional)" if spiel.regional else "") for key, spiel in CATALOGUE.items() if key != "normal"
            }
        }

    # -- tournament ----------------------------------------------------------------------------
    def standings(self, sheets: Sequence[Sheet], *, scores: Sequence[Score] | None = None) -> tuple[Standing, ...]:
        """The tournament standing (the organizer's Bummerl rounds): most Bummerl won, then most
        points written; the Bummerl lost (a Schneider 2, a Retourschneider 4) are shown.

        The document ranks a single evening by the Bummerl lost and names no tournament
        ranking; the issue's order (Bummerl won, then points) is taken here. Entrants equal in
        both share the rank. Only finished sheets count (``bummerl_count`` reached or closed).
        ``scores``, if given, are ``score(sheet)`` of each sheet."""
        rows: dict[str, Standing] = {}
        for index, sheet in enumerate(sheets):
            score = scores[index] if scores is not None else self.score(sheet)
            result = score.result
            assert isinstance(result, SchnapsenResult)
            if not result.finished:
                where = f"Runde {sheet.context.round}, Tisch {sheet.context.table}" if sheet.context.table else str(sheet.id)
                raise RuleViolation(R_BUMMERL, f"Das Blatt {where} ist nicht beendet: erst alle Bummerl spielen oder abschließen")
            for participant in sheet.participants:
                old = rows.get(participant.key)
                rows[participant.key] = Standing(
                    rank=0,
                    key=participant.key,
                    name=participant.name,
                    bummerl_won=(old.bummerl_won if old else 0) + result.bummerl_won[participant.id],
                    points=(old.points if old else 0) + score.totals[participant.id],
                    bummerl_lost=(old.bummerl_lost if old else 0) + result.bummerl[participant.id],
                    sheets=(old.sheets if old else 0) + 1,
                )
        ordered = sorted(rows.values(), key=lambda r: (r.bummerl_won, r.points), reverse=True)
        ranked: list[Standing] = []
        for index, row in enumerate(ordered):
            key = (row.bummerl_won, row.points)
            tied = ranked[-1].rank if ranked and (ranked[-1].bummerl_won, ranked[-1].points) == key else None
            neighbours = [ordered[i] for i in (index - 1, index + 1) if 0 <= i < len(ordered)]
            if any((n.bummerl_won, n.points) == key for n in neighbours):
                decided = "punktgleich (gleich viele Bummerl und Punkte)"
            elif any(n.bummerl_won == row.bummerl_won for n in neighbours):
                decided = "Punkte"
            else:
                decided = "Bummerl gewonnen"
            ranked.append(row.model_copy(update={"rank": tied or index + 1, "decided_by": decided}))
        return tuple(ranked)


class Standing(Frozen):
    """One row of the Schnapsen tournament standing."""

    rank: int
    key: str
    name: str
    bummerl_won: int
    points: int
    """Points written over all counted sheets."""
    bummerl_lost: int
    """Bummerl lost (a Schneider counts 2, a Retourschneider 4)."""
    sheets: int
    decided_by: str = ""


@register
class Bauernschnapsen(_Schnapsen):
    """Bauernschnapsen: four players, two teams sitting opposite."""

    id = "bauernschnapsen"
    version = 1
    title = "Bauernschnapsen"
    source = "bauernschnapsen.txt"
    participant_kind = "team"
    participant_counts = (2,)
    team_size = 2
    Options = BauernschnapsenOptions
    teams = True

    def check_participants(self, sheet: Sheet) -> None:
        super().check_participants(sheet)
        names: list[str] = []
        for team in sheet.participants:
            if team.members and len(team.members) != 2:
                raise RuleViolation(
                    R_TEILNEHMER, f"Ein Team hat zwei Spieler; {team.name} hat {len(team.members)}: {list(team.members)}"
                )
            names.extend(team.members)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            # Names may look like the seats' keys (A1, B2): a name is just a name (see ``resolve``).
            listed = ", ".join(f"'{n}'" for n in twice)
            raise RuleViolation(R_TEILNEHMER, f"Zwei Spieler heißen gleich ({listed}); bitte die Namen unterscheidbar schreiben")

    def players(self, sheet: Sheet) -> tuple[Player, ...]:
        first, second = self._ordered(sheet)

        def player(team: Participant, n: int) -> Player:
            name = team.members[n - 1] if team.members else f"{team.name} {n}"
            return Player(ref=f"{team.id}{n}", name=name, side=team.id)

        return (player(first, 1), player(second, 1), player(first, 2), player(second, 2))

    def receivers(self, state: _State, announcer: int, won: bool) -> list[str]:
        side = state.players[announcer].side
        return [side if won else next(s for s in state.sides if s != side)]

    def losers(self, state: _State, ctx: Context[SchnapsenOptions], winners: tuple[str, ...]) -> list[str]:
        return [s for s in state.sides if s not in winners]

    def side_suffix(self, ctx: Context[SchnapsenOptions], player: Player) -> str:
        return f" ({ctx.name(player.side)})"


@register
class Talonschnapsen(_Schnapsen):
    """Talonschnapsen (Dreierschnapsen): three players, each for themselves."""

    id = "talonschnapsen"
    version = 1
    title = "Talonschnapsen"
    source = "bauernschnapsen.txt"
    participant_kind = "player"
    participant_counts = (3,)
    Options = TalonschnapsenOptions
    teams = False
    bummerl_rule = R_TALON_BUMMERL

    def players(self, sheet: Sheet) -> tuple[Player, ...]:
        return tuple(Player(ref=p.id, name=p.name, side=p.id) for p in self._ordered(sheet))

    def variant(self, key: str) -> str:
        if key == "schnapser":
            return " (vier Stiche)"
        if key == "farbenringerl":
            return " (alle sechs Stiche)"
        return ""

    def receivers(self, state: _State, announcer: int, won: bool) -> list[str]:
        side = state.players[announcer].side
        return [side] if won else [s for s in state.sides if s != side]

    def award_text(self, ctx: Context[SchnapsenOptions], state: _State, announcer: int, won: bool, award: dict[str, int]) -> str:
        who = state.players[announcer].name
        if won:
            return f"{who} schafft das Spiel: {award[state.players[announcer].side]} für {who} allein"
        values = set(award.values())
        if len(values) == 1:
            names = " und ".join(ctx.name(s) for s in award)
            return f"{who} schafft es nicht: je {values.pop()} für {names}"
        each = ", ".join(f"{p} für {ctx.name(s)}" for s, p in award.items())
        return f"{who} schafft es nicht: {each}"

    def losers(self, state: _State, ctx: Context[SchnapsenOptions], winners: tuple[str, ...]) -> list[str]:
        opts = ctx.options
        assert isinstance(opts, TalonschnapsenOptions)
        if opts.bummerl_below_target:
            return [s for s in state.sides if state.points[s] < opts.target]
        fewest = min(state.points.values())
        return [s for s in state.sides if state.points[s] == fewest]

    def retourschneider(self, ctx: Context[SchnapsenOptions]) -> bool:
        opts = ctx.options
        assert isinstance(opts, TalonschnapsenOptions)
        return opts.retourschneider
