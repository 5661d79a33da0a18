"""The Schnapsen entry panel's state (Bauern- and Talonschnapsen): one game of the Punkteübersicht.

A game is: which game of the catalogue, who announced it, won or lost, for the normal game the
Augen class of the losers, and Spritze and Herzrunde as toggles. The draft asks the ruleset for
everything it offers: the catalogue is the house rules' ``games`` (the normal game always), the
players are the ruleset's seat order, the Rufer is ``Score.status.details["rufer"]``, and who may
announce a game is whoever ``drafts.allowed`` accepts now. The normal game is preselected (the
Rufer's side plays it), so a normal game is three taps: won or lost, the Augen class, Eintragen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import flet as ft
from pydantic import ValidationError

from scoring import Score, Sheet, find_ruleset
from scoring.schnapsen import (
    AUGEN_POINTS,
    AUGEN_TEXT,
    CATALOGUE,
    MAX_SPRITZE,
    SPRITZE_TEXT,
    GameData,
    Player,
    SchnapsenOptions,
    game_key,
)

from .drafts import DraftIncomplete, Submit, allowed, assign

KIND = "game"
NORMAL = "normal"
SPRITZE_SHORT = {1: "gespritzt", 2: "zurück", 3: "nochmal"}
"""The Spritze levels under their factor on a button (``SPRITZE_TEXT`` says them in full)."""


@dataclass(frozen=True)
class Option:
    """One button of the panel: its value, what it shows big, and its name on the screen."""

    value: Any
    short: str
    """What the button shows."""
    label: str
    """Its accessible name: unique on the screen, what a screen reader says and a test taps."""
    note: str = ""
    """A small second line under ``short`` (the Spritze's name under its factor)."""


def _players(sheet: Sheet) -> tuple[Player, ...]:
    ruleset: Any = find_ruleset(sheet.ruleset.id)
    return tuple(ruleset.players(sheet))


def _options(sheet: Sheet) -> SchnapsenOptions:
    options = find_ruleset(sheet.ruleset.id).options(sheet.ruleset.options)
    assert isinstance(options, SchnapsenOptions)
    return options


@ft.observable
@dataclass
class SchnapsenDraft:
    """What the Schnapsen panel offers for the sheet as it stands, and the taps so far."""

    sheet: Sheet | None = None
    players: tuple[Player, ...] = ()
    games: tuple[str, ...] = ()
    """The catalogue keys offered: the normal game and the house rules' ``games``."""
    herzrunde_allowed: bool = False
    expected_rufer: str | None = None
    """The Rufer the ruleset expects for this game (``status.details["rufer"]``)."""

    game: str = NORMAL
    announcer: str | None = None
    """The announcing player's ref; for the normal game none (the Rufer's side plays it)."""
    won: bool | None = None
    augen: str | None = None
    spritze: int = 0
    herzrunde: bool = False
    rufer: str | None = None
    """Who called trump this game (preselected: the expected Rufer); "Weitere …" changes it."""
    show_more: bool = False
    problem: str | None = None
    """Why the last "Eintragen" made no entry (German), shown next to the panel."""

    loaded: tuple[str, dict[str, Any]] | None = None
    """The entry being corrected, as stored: given back unchanged when nothing was changed."""
    as_loaded: tuple[str, str | None] | None = None
    """The loaded game's key and Rufer: its announcer is offered with them, allowed or not."""
    as_loaded_announcer: str | None = None
    unreadable: bool = False
    """The loaded entry is no game this panel can show: it is given back as stored until a tap."""
    _announcers: dict[tuple[str, str | None], tuple[str, ...]] = field(default_factory=dict, repr=False)

    # -- starting ---------------------------------------------------------------------------
    def reset(self, sheet: Sheet, score: Score) -> None:
        """A new game: the normal game of the expected Rufer preselected, nothing else chosen."""
        self._start(sheet, score)

    def load(self, sheet: Sheet, score: Score, kind: str, data: Mapping[str, Any]) -> None:
        """Show a past game to correct it; ``sheet`` is the sheet as it stood before that game."""
        self._start(sheet, score)
        self.loaded = (kind, dict(data))
        try:
            game = GameData.model_validate(dict(data)) if kind == KIND else None
        except ValidationError:
            game = None
        key = game_key(game.game) if game is not None else None
        if game is None or key is None:
            self.unreadable = True
            return
        if key not in self.games:
            self.games = (*self.games, key)
        self.rufer = self._ref(game.rufer) or self.expected_rufer
        self.game = key
        self.announcer = self._ref(game.announcer)
        if self.announcer is None and key != NORMAL:
            self.announcer = self.rufer
        self.won, self.augen, self.spritze, self.herzrunde = game.won, game.augen, game.spritze, game.herzrunde
        if self.announcer is not None and key != NORMAL:
            self.as_loaded, self.as_loaded_announcer = (key, self.rufer), self.announcer
            self._announcers = {}
        self.show_more = self.rufer != self.expected_rufer

    def _start(self, sheet: Sheet, score: Score) -> None:
        options = _options(sheet)
        assign(self, sheet=sheet)  # no O(n) compare with the previous sheet
        self.players = _players(sheet)
        self.games = (NORMAL, *(key for key in CATALOGUE if key in options.games))
        self.herzrunde_allowed = options.herzrunde
        rufer = score.status.details.get("rufer")
        self.expected_rufer = rufer if isinstance(rufer, str) else None
        self.game, self.announcer, self.won, self.augen = NORMAL, None, None, None
        self.spritze, self.herzrunde, self.rufer = 0, False, self.expected_rufer
        self.show_more, self.problem, self.loaded, self.unreadable = False, None, None, False
        self.as_loaded, self.as_loaded_announcer = None, None
        self._announcers = {}
        # A special game nobody may announce now is not offered (the ruleset says who may).
        self.games = tuple(key for key in self.games if key == NORMAL or self.announcers(key))

    # -- taps -------------------------------------------------------------------------------
    def choose_game(self, key: str) -> None:
        """Tap on a game: an announcer is preselected when only one player may announce it."""
        self.game, self.problem, self.unreadable = key, None, False
        if key == NORMAL:
            self.announcer = None
            return
        may = self.announcers()
        if len(may) == 1:
            self.announcer = may[0]
        elif self.announcer not in may:
            self.announcer = None

    def choose_announcer(self, ref: str) -> None:
        self.announcer, self.problem, self.unreadable = ref, None, False

    def set_won(self, won: bool) -> None:
        self.won, self.problem, self.unreadable = won, None, False

    def choose_augen(self, augen: str) -> None:
        self.augen, self.problem, self.unreadable = augen, None, False

    def toggle_spritze(self, level: int) -> None:
        """Tap on a Spritze level: on, or off again when it was on."""
        self.spritze = 0 if self.spritze == level else level
        self.problem, self.unreadable = None, False

    def toggle_herzrunde(self) -> None:
        self.herzrunde, self.problem, self.unreadable = not self.herzrunde, None, False

    def toggle_more(self) -> None:
        self.show_more = not self.show_more

    def choose_rufer(self, ref: str) -> None:
        """Another player called trump than the ruleset expected (first game, a slip at the table)."""
        self.rufer, self.problem = ref, None
        self.choose_game(self.game)

    def submit(self, on_submit: Submit) -> None:
        """The "Eintragen" tap: hand the entry to ``on_submit``, or say what is missing."""
        try:
            kind, data = self.entry()
        except DraftIncomplete as missing:
            self.problem = str(missing)
            return
        self.problem = None
        on_submit(kind, data)

    # -- what the panel offers ---------------------------------------------------------------
    def announcers(self, key: str | None = None) -> tuple[str, ...]:
        """The players who may announce game ``key`` now (asked of the ruleset, one by one)."""
        key = self.game if key is None else key
        if self.sheet is None:
            return ()
        cached = self._announcers.get((key, self.rufer))
        if cached is not None:
            return cached
        may: list[str] = []
        for player in self.players:
            data = self._data(key, player.ref, won=True, augen="ab33", spritze=0, herzrunde=False)
            if allowed(self.sheet, KIND, data):
                may.append(player.ref)
        if self.as_loaded is not None and self.as_loaded == (key, self.rufer) and self.as_loaded_announcer not in may:
            # The game being corrected, with its Rufer, is shown even where the rules no longer allow it.
            may.append(str(self.as_loaded_announcer))
        self._announcers[(key, self.rufer)] = result = tuple(may)
        return result

    def player(self, ref: str | None) -> Player | None:
        return next((p for p in self.players if p.ref == ref), None)

    def side_name(self, player: Player) -> str:
        assert self.sheet is not None
        return self.sheet.participant(player.side).name

    def player_label(self, player: Player) -> str:
        """A player as the table names him: Bauernschnapsen with his team, Talonschnapsen alone."""
        side = self.side_name(player)
        return player.name if side == player.name else f"{player.name} ({side})"

    def game_options(self) -> list[Option]:
        options = []
        for key in self.games:
            spiel = CATALOGUE[key]
            points = "1–3" if key == NORMAL else str(spiel.points)
            short = spiel.name.split(" (")[0]
            # a word joiner after the dash: "1–3" stays whole when the label takes two lines (not "1–" | "3")
            shown = points.replace("–", "–\u2060")
            options.append(Option(key, f"{short} {shown}", f"{spiel.name} ({points})"))
        return options

    def announcer_options(self) -> list[Option]:
        """The players who may announce the chosen game; none for the normal game."""
        if self.game == NORMAL:
            return []
        return [
            Option(p.ref, p.name, f"Angesagt von {p.name}") for ref in self.announcers() if (p := self.player(ref)) is not None
        ]

    def won_options(self) -> list[Option]:
        return [Option(True, "Gewonnen", "Gewonnen"), Option(False, "Verloren", "Verloren")]

    def augen_options(self) -> list[Option]:
        """The normal game's classes by the losers' Augen (Normales Spiel: 1, 2 or 3 points)."""
        if self.game != NORMAL:
            return []
        return [
            Option(key, f"{text.replace(' Augen', '')}: {AUGEN_POINTS[key]}", f"Verlierer {text}: {AUGEN_POINTS[key]}")
            for key, text in AUGEN_TEXT.items()
        ]

    def spritze_options(self) -> list[Option]:
        return [
            Option(level, f"×{2**level}", SPRITZE_TEXT[level].capitalize(), note=SPRITZE_SHORT[level])
            for level in range(1, MAX_SPRITZE + 1)
        ]

    def rufer_options(self) -> list[Option]:
        return [Option(p.ref, p.name, f"Rufer war {p.name}") for p in self.players]

    def herzrunde_option(self) -> Option | None:
        """The Herzrunde toggle, where the house rules play it."""
        return Option(True, "Herz ×2", "Herzrunde ×2", note="Herzrunde") if self.herzrunde_allowed else None

    @property
    def won_question(self) -> str:
        """Who plays the chosen game, and whose win the "Gewonnen" button means."""
        if self.game == NORMAL:
            rufer = self.player(self.rufer)
            if rufer is None:
                return "Normales Spiel: gewonnen?"
            side = self.side_name(rufer)
            who = side if side == rufer.name else f"{side} (Rufer {rufer.name})"
            return f"Normales Spiel: hat {who} gewonnen?"
        name = CATALOGUE[self.game].name
        announcer = self.player(self.announcer)
        if announcer is None:
            return f"{name}: gewonnen?"
        return f"{name}: hat {self.player_label(announcer)} gewonnen?"

    # -- the entry ------------------------------------------------------------------------------
    def entry(self) -> tuple[str, dict[str, Any]]:
        """The game the taps make; the entry being corrected is given back as stored when unchanged."""
        if self.loaded is not None and self.unreadable:
            return self.loaded[0], dict(self.loaded[1])
        missing = []
        if self.game != NORMAL and self.announcer is None:
            missing.append("wer das Spiel angesagt hat")
        if self.won is None:
            missing.append("gewonnen oder verloren")
        if self.game == NORMAL and self.augen is None:
            missing.append("die Augen der Verlierer (ab 33, unter 33, ohne Stich)")
        if missing:
            raise DraftIncomplete("Bitte noch antippen: " + ", ".join(missing) + ".")
        assert self.won is not None
        data = self._data(self.game, self.announcer, self.won, self.augen, self.spritze, self.herzrunde)
        if self.loaded is not None and self._same(data, self.loaded[1]):
            return self.loaded[0], dict(self.loaded[1])
        return KIND, data

    def _data(
        self, key: str, announcer: str | None, won: bool, augen: str | None, spritze: int, herzrunde: bool
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"game": key}
        if announcer is not None:
            data["announcer"] = announcer
        data["won"] = won
        if key == NORMAL:
            data["augen"] = augen
        if spritze:
            data["spritze"] = spritze
        if herzrunde:
            data["herzrunde"] = True
        if self.rufer is not None and self.rufer != self.expected_rufer:
            data["rufer"] = self.rufer
        return data

    def _same(self, data: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
        """Whether two game entries mean the same game (names or refs, defaults written or not)."""
        return self._meaning(data) == self._meaning(other)

    def _meaning(self, data: Mapping[str, Any]) -> tuple[Any, ...] | None:
        try:
            game = GameData.model_validate(dict(data))
        except ValidationError:
            return None
        key = game_key(game.game)
        rufer = self._ref(game.rufer) or self.expected_rufer
        announcer = self._ref(game.announcer) or (None if key == NORMAL else rufer)
        return (key, announcer, game.won, game.augen, game.spritze, game.herzrunde, rufer)

    def _ref(self, name: str | None) -> str | None:
        """The ref of a player named by ref or by name (as the ruleset reads it)."""
        if name is None:
            return None
        player = next((p for p in self.players if name in (p.ref, p.name)), None)
        return player.ref if player is not None else name
