"""The Schafkopf entry panel's state: one game of a Serie (``schafkopf-turnier``), tap by tap.

The draft holds the raw fields of a ``game`` entry (``scoring.schafkopf.GameData``) and asks the
ruleset what each choice allows. A candidate (a partner, a suit, a Spritze giver, a level, ...) is
offered when the ruleset accepts a game with it (the verdict of ``drafts.allowed`` =
``Ruleset.check``) for SOME completion of the fields not chosen yet, leaving out the choices that
depend on it (an unberechtigte Spritze on a level, say): a tap drops what no longer fits, most
dependent first.

In Schafkopf a game's validity depends on the sheet only through the number of games played, so
the candidates are asked on the table's empty sheet (same players, same options): cheap, and the
same for a new game and a correction. Whether the Serie takes another game at all is asked on the
sheet itself, on reset. What follows from the taps (who won after a misplay not continued, the
level of a Tout, "unberechtigt" where the tricks tell) is read from ``SchafkopfTurnier.spiel``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import flet as ft
from pydantic import ValidationError

from scoring import Entry, RuleViolation, Score, Sheet, find_ruleset
from scoring.engine import Context, EntryChecker
from scoring.schafkopf import FARBNAME, GameData, SchafkopfTurnier, Spiel, signed

from .drafts import DraftIncomplete, allowed, assign

SPIELE = ("rufspiel", "solo", "wenz", "farbwenz")
SPIEL_LABEL = {"rufspiel": "Rufspiel", "solo": "Solo", "wenz": "Wenz", "farbwenz": "Farbwenz"}
FARBEN = ("eichel", "gras", "herz", "schellen")
STUFEN = ("einfach", "schneider", "schwarz")
FEHLER_ARTEN = {"ausspiel": "Falsches Ausspiel", "bedienen": "Falsch bedient"}
FEHLER_FAELLE = {
    "bereits_gewonnen": "Spiel war schon entschieden",
    "nicht_fortgesetzt": "Nicht fortgesetzt",
    "fortgesetzt": "Fortgesetzt, wie gespielt",
}

AUGEN = "Augen der Spielpartei"
STICHE = "Stiche der Spielpartei"

_TABLES: dict[str, EntryChecker] = {}
"""The ruleset's checker of each table's empty sheet (its own, so the sheet screen's checker of the
real sheet, which saves replaying the log after every game, is left alone)."""


@lru_cache(maxsize=4096)
def _accepted(table: str, data: str) -> bool:
    """Whether the ruleset accepts the game ``data`` (JSON) on the empty sheet ``table``: the same
    verdict as ``drafts.allowed`` / ``Ruleset.check`` (cached)."""
    try:
        entry = Entry(kind="game", data=json.loads(data))
    except ValueError:
        return False
    return _TABLES[table].refusal(entry) is None


def stufe_label(stufe: str, gewonnen: bool | None) -> str:
    """A level as the Tischliste says it: a won game without a trick lost is "Durch"."""
    if stufe == "schwarz":
        return "Durch" if gewonnen else "Schwarz"
    return {"einfach": "Einfach", "schneider": "Schneider"}[stufe]


def _int_or_none(text: str, what: str, high: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise DraftIncomplete(f"{what}: bitte eine ganze Zahl von 0 bis {high} eingeben, nicht '{text}'") from None
    if not 0 <= value <= high:
        raise DraftIncomplete(f"{what}: {value} geht nicht, erlaubt sind 0 bis {high}")
    return value


@ft.observable
@dataclass
class SchafkopfDraft:
    """One Schafkopf game as it is being entered (or a past one being corrected)."""

    sheet: Sheet | None = None
    score: Score | None = None
    spiel: str = "rufspiel"
    spieler: str | None = None
    partner: str | None = None
    farbe: str | None = None
    tout: bool | None = None
    gewonnen: bool | None = None
    stufe: str | None = None
    augen: int | None = None
    stiche: int | None = None
    spritze_von: str | None = None
    unberechtigt: bool | None = None
    fehler_von: str | None = None
    fehler_art: str | None = None
    fehler_fall: str | None = None
    augen_text: str = ""
    """The Augen as typed (kept when it is not a number, so the field shows what was typed)."""
    stiche_text: str = ""
    weitere: bool = False
    """The rare events (Augen/Stiche, misplay) are shown."""
    error: str | None = None
    """What is missing, in German (a ``DraftIncomplete`` the panel shows)."""
    room: bool = True
    """The Serie takes another game (the ruleset says so on reset)."""
    _table: str = field(default="", repr=False)

    # -- the contract ------------------------------------------------------------------------
    def reset(self, sheet: Sheet, score: Score) -> None:
        """A new game: Rufspiel preselected (the common game), nothing else implied."""
        self._use(sheet, score)
        self._clear()
        self.weitere = False
        # Whether the Serie takes another game at all: the ruleset's verdict on a plain one. (This
        # also keeps the sheet's checker, so saving the next game replays only that game.)
        first, second = self.players[:2]
        self.room = allowed(sheet, "game", {"spiel": "rufspiel", "spieler": first, "partner": second, "gewonnen": True})

    def load(self, sheet: Sheet, score: Score, kind: str, data: Mapping[str, Any]) -> None:
        """Fill the panel with a past game, field by field as it was written."""
        if kind != "game":
            raise ValueError(f"Bei Schafkopf gibt es nur Spiele zu korrigieren, keinen Eintrag '{kind}'")
        game = GameData.model_validate(dict(data))
        self._use(sheet, score)
        self._clear()
        self.spiel, self.spieler, self.partner, self.farbe = game.spiel, game.spieler, game.partner, game.farbe
        self.tout = data.get("tout")
        self.gewonnen, self.stufe, self.augen, self.stiche = game.gewonnen, game.stufe, game.augen, game.stiche
        self.augen_text = "" if game.augen is None else str(game.augen)
        self.stiche_text = "" if game.stiche is None else str(game.stiche)
        if game.spritze is not None:
            self.spritze_von, self.unberechtigt = game.spritze.von, game.spritze.unberechtigt
        if game.fehler is not None:
            fehler = data["fehler"]
            self.fehler_von, self.fehler_fall = game.fehler.von, game.fehler.fall
            self.fehler_art = fehler.get("art")
        # Shown one level down: Augen, Stiche, a misplay, and a Rufspiel's called Sau.
        called = game.spiel == "rufspiel" and game.farbe is not None
        self.weitere = bool(game.fehler or game.augen is not None or game.stiche is not None or called)

    def entry(self) -> tuple[str, dict[str, Any]]:
        """The ``game`` entry the taps make; ``DraftIncomplete`` says what is still missing."""
        if self.spieler is None:
            raise DraftIncomplete("Wer spielt? Bitte den Spieler wählen")
        if self.spiel == "rufspiel" and self.partner is None:
            raise DraftIncomplete("Mit wem? Bitte den gerufenen Partner wählen")
        if self.spiel in ("solo", "farbwenz") and self.farbe is None:
            raise DraftIncomplete(f"Welche Farbe? Beim {SPIEL_LABEL[self.spiel]} bitte die Farbe wählen")
        _int_or_none(self.augen_text, AUGEN, 120)
        _int_or_none(self.stiche_text, STICHE, 8)
        if self.fehler_von is not None and self.fehler_fall is None:
            raise DraftIncomplete("Fehler: bitte wählen, wie es weiterging (entschieden, nicht fortgesetzt, fortgesetzt)")
        data = self._data()
        if self.derived(data) is None and self.gewonnen is None and self.augen is None and self.stiche is None:
            raise DraftIncomplete("Gewonnen oder verloren? Bitte wählen")
        return "game", data

    # -- what the rules offer now --------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """The four players in seating (dealing) order."""
        if self.sheet is None:
            return ()
        people = self.sheet.participants
        if all(p.seat is not None for p in people):
            people = tuple(sorted(people, key=lambda p: p.seat or 0))
        return tuple(p.id for p in people)

    def name(self, player: str) -> str:
        assert self.sheet is not None
        return self.sheet.participant(player).name

    @property
    def dealer(self) -> str | None:
        """Who deals this game (from ``Score.status``)."""
        return self.score.status.dealer if self.score is not None else None

    @property
    def finished(self) -> bool:
        """No further game fits in the Serie (all played, or closed): only corrections."""
        return not self.room

    def spiel_choices(self) -> list[str]:
        return [s for s in SPIELE if self._possible(spiel=s, partner=None, farbe=None, tout=None, stufe=None, spritze_von=None)]

    def spieler_choices(self) -> list[str]:
        return [p for p in self.players if self._possible(spieler=p, partner=None, spritze_von=None, fehler_von=None)]

    def partner_choices(self) -> list[str]:
        if self.spiel != "rufspiel":
            return []
        return [p for p in self.players if self._possible(partner=p, spritze_von=None, unberechtigt=None)]

    def farbe_choices(self) -> list[str]:
        if not self._possible(farbe="eichel") and not self._possible(farbe="herz"):
            return []
        return [f for f in FARBEN if self._possible(farbe=f)]

    @property
    def farbe_required(self) -> bool:
        """A Solo or Farbwenz needs its suit; a Rufspiel's called Sau is optional."""
        return bool(self.farbe_choices()) and not self._possible(farbe=None, keep={"farbe"})

    @property
    def tout_allowed(self) -> bool:
        return self._possible(tout=True, stufe=None, unberechtigt=None)

    def gewonnen_choices(self) -> list[bool]:
        return [g for g in (True, False) if self._possible(gewonnen=g, unberechtigt=None)]

    def stufe_choices(self) -> list[str]:
        """Levels the game can have; empty when there is nothing to choose (a Tout, a game not continued)."""
        levels = [s for s in STUFEN if self._possible(stufe=s, unberechtigt=None)]
        return levels if len(levels) > 1 else []

    def spritze_choices(self) -> list[str]:
        """Who can have given the Spritze: only the party against the declarer."""
        if self.spieler is None or (self.spiel == "rufspiel" and self.partner is None):
            return []
        return [p for p in self.players if self._possible(spritze_von=p, unberechtigt=None)]

    @property
    def unberechtigt_offered(self) -> bool:
        """The tricks do not tell (won Schneider, Stiche not given): the player says whether it was unberechtigt."""
        if self.spritze_von is None:
            return False
        return self._possible(unberechtigt=True) and self._possible(unberechtigt=False)

    def fehler_fall_choices(self) -> list[str]:
        if self.fehler_von is None:
            return []
        return [f for f in FEHLER_FAELLE if self._possible(fehler_fall=f, **self._implied_by(f))]

    # -- what the taps mean ------------------------------------------------------------------
    def derived(self, data: Mapping[str, Any] | None = None) -> Spiel | None:
        """The ruleset's reading of the game so far (who won, the level, an unberechtigte Spritze), if complete."""
        if self.sheet is None:
            return None
        data = self._data() if data is None else data
        ruleset = find_ruleset(self.sheet.ruleset.id)
        assert isinstance(ruleset, SchafkopfTurnier)
        try:
            game = GameData.model_validate(dict(data))
            return ruleset.spiel(game, Context(self.sheet, ruleset.options(self.sheet.ruleset.options)))
        except (RuleViolation, ValidationError):
            return None

    @property
    def gewonnen_shown(self) -> bool | None:
        """Won or lost as chosen, or as the rules imply it (Augen, Stiche, a misplay not continued)."""
        spiel = self.derived()
        return spiel.gewonnen if spiel is not None and self.spieler is not None else self.gewonnen

    @property
    def stufe_shown(self) -> str:
        spiel = self.derived()
        if spiel is not None:
            return spiel.stufe
        return "schwarz" if self.stufe == "durch" else self.stufe or "einfach"

    def preview(self) -> str:
        """The Spielpunkte this game gives, as the ruleset scores it ("" while incomplete or refused)."""
        if self.sheet is None or self.spieler is None:
            return ""
        try:
            kind, data = self.entry()
            table = self._empty()
            line = find_ruleset(table.ruleset.id).check(table, Entry(kind=kind, data=data)).lines[-1]
        except (DraftIncomplete, RuleViolation, ValueError):
            return ""
        return " · ".join(f"{self.name(p)} {signed(line.points[p])}" for p in self.players)

    def summary(self) -> str:
        """The game in words, as it will be entered."""
        if self.spieler is None:
            return f"{SPIEL_LABEL[self.spiel]}: wer spielt?"
        words = [self._title(), "von", self.name(self.spieler)]
        if self.partner is not None:
            words += ["mit", self.name(self.partner)]
        won = self.gewonnen_shown
        if won is not None:
            words.append("gewonnen" if won else "verloren")
        text = " ".join(words)
        if won is not None and not self.tout and self.stufe_shown != "einfach":
            text += f" ({stufe_label(self.stufe_shown, won)})"
        if self.augen is not None:
            text += f", {self.augen} Augen"
        if self.stiche is not None:
            text += f", {self.stiche} Stiche"
        if self.spritze_von is not None:
            spiel = self.derived()
            text += f", Spritze von {self.name(self.spritze_von)}"
            if spiel is not None and spiel.unberechtigt:
                text += " (unberechtigt)"
        if self.fehler_von is not None:
            text += f", Fehler von {self.name(self.fehler_von)}"
        return text

    def _title(self) -> str:
        title = SPIEL_LABEL[self.spiel]
        if self.spiel == "rufspiel":
            title += f" auf die {FARBNAME[self.farbe]}-Sau" if self.farbe else ""
        elif self.farbe:
            title = f"{FARBNAME[self.farbe]}-{title.lower() if self.spiel == 'farbwenz' else title}"
            title = title.replace("-farbwenz", "-Farbwenz")
        return title + (" Tout" if self.tout else "")

    # -- taps ----------------------------------------------------------------------------------
    def choose_spiel(self, spiel: str) -> None:
        self.spiel = spiel
        if spiel != "rufspiel":
            self.partner = None
        self._prune()

    def choose_spieler(self, player: str) -> None:
        self.spieler = player
        if self.partner == player:
            self.partner = None
        if self.spritze_von == player:
            self.spritze_von = None
        self._prune()

    def choose_partner(self, player: str) -> None:
        self.partner = None if self.partner == player else player
        if self.spritze_von == player:
            self.spritze_von = None
        self._prune()

    def choose_farbe(self, farbe: str) -> None:
        self.farbe = None if self.farbe == farbe else farbe
        self._prune()

    def toggle_tout(self) -> None:
        self.tout = None if self.tout else True
        self.stufe = None
        self._prune()

    def choose_gewonnen(self, gewonnen: bool) -> None:
        self.gewonnen = gewonnen
        self._prune()

    def choose_stufe(self, stufe: str) -> None:
        self.stufe = None if stufe == "einfach" and self.stufe in (None, "einfach") else stufe
        self._prune()

    def choose_spritze(self, player: str) -> None:
        self.spritze_von = None if self.spritze_von == player else player
        self.unberechtigt = None
        self._prune()

    def toggle_unberechtigt(self) -> None:
        self.unberechtigt = None if self.unberechtigt else True

    def toggle_weitere(self) -> None:
        self.weitere = not self.weitere

    def set_augen(self, text: str) -> None:
        """Augen typed by the player; a bad number is shown next to the panel and is not used."""
        self.augen_text = text
        try:
            self.augen = _int_or_none(text, AUGEN, 120)
            self.error = None
        except DraftIncomplete as error:
            self.augen, self.error = None, str(error)

    def set_stiche(self, text: str) -> None:
        """Tricks typed by the player (0 to 8)."""
        self.stiche_text = text
        try:
            self.stiche = _int_or_none(text, STICHE, 8)
            self.error = None
        except DraftIncomplete as error:
            self.stiche, self.error = None, str(error)

    def choose_fehler_von(self, player: str) -> None:
        self.fehler_von = None if self.fehler_von == player else player
        if self.fehler_von is None:
            self.fehler_art = self.fehler_fall = None
        self._prune()

    def choose_fehler_art(self, art: str) -> None:
        self.fehler_art = art

    def choose_fehler_fall(self, fall: str) -> None:
        self.fehler_fall = fall
        for name, value in self._implied_by(fall).items():
            setattr(self, name, value)
        self._prune()

    @staticmethod
    def _implied_by(fall: str) -> dict[str, Any]:
        """A misplay not continued: the offender's opponents won simply; the ruleset says who, no level, no Augen."""
        if fall != "nicht_fortgesetzt":
            return {}
        return {"gewonnen": None, "stufe": None, "augen": None, "stiche": None, "augen_text": "", "stiche_text": ""}

    # -- internals -----------------------------------------------------------------------------
    def _use(self, sheet: Sheet, score: Score) -> None:
        assign(self, sheet=sheet, score=score)  # no O(n) compare with the previous sheet
        table = self._empty()
        key = table.model_dump_json(include={"ruleset", "participants"})
        if key not in _TABLES:
            _TABLES[key] = find_ruleset(table.ruleset.id).checker(table)
        self._table = key

    def _empty(self) -> Sheet:
        assert self.sheet is not None
        return self.sheet.model_copy(update={"entries": ()})

    def _clear(self) -> None:
        self.spiel, self.spieler, self.partner, self.farbe, self.tout = "rufspiel", None, None, None, None
        self.gewonnen, self.stufe, self.augen, self.stiche = None, None, None, None
        self.augen_text = self.stiche_text = ""
        self.spritze_von = self.unberechtigt = None
        self.fehler_von = self.fehler_art = self.fehler_fall = None
        self.error = None

    def _fields(self) -> dict[str, Any]:
        return {
            "spiel": self.spiel,
            "spieler": self.spieler,
            "partner": self.partner,
            "farbe": self.farbe,
            "tout": self.tout,
            "gewonnen": self.gewonnen,
            "stufe": self.stufe,
            "augen": self.augen,
            "stiche": self.stiche,
            "spritze_von": self.spritze_von,
            "unberechtigt": self.unberechtigt,
            "fehler_von": self.fehler_von,
            "fehler_art": self.fehler_art,
            "fehler_fall": self.fehler_fall,
        }

    def _data(self, fields: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The entry's data from the draft's fields: only what was chosen."""
        f = self._fields() if fields is None else fields
        data = {k: f[k] for k in ("spiel", "spieler", "partner", "farbe", "tout", "gewonnen", "stufe", "augen", "stiche")}
        data = {k: v for k, v in data.items() if v is not None}
        if f["spritze_von"] is not None:
            data["spritze"] = {"von": f["spritze_von"]}
            if f["unberechtigt"] is not None:
                data["spritze"]["unberechtigt"] = f["unberechtigt"]
        if f["fehler_von"] is not None:
            data["fehler"] = {"von": f["fehler_von"], "fall": f["fehler_fall"]}
            if f["fehler_art"] is not None:
                data["fehler"]["art"] = f["fehler_art"]
        return data

    def _completions(self, f: dict[str, Any], keep: frozenset[str] | set[str] = frozenset()) -> Iterator[dict[str, Any]]:
        """Every way to fill what is not chosen yet (declarer, partner, suit, outcome, what followed a
        misplay), except the fields in ``keep``, which stay as they are."""
        players = self.players
        spieler = [f["spieler"]] if f["spieler"] else players
        partner = [f["partner"]] if f["partner"] or f["spiel"] != "rufspiel" else players
        farbe = [f["farbe"]] if f["farbe"] or f["spiel"] not in ("solo", "farbwenz") or "farbe" in keep else FARBEN
        open_outcome = f["gewonnen"] is None and f["augen"] is None and f["stiche"] is None
        gewonnen = (None, True, False) if open_outcome else (f["gewonnen"],)
        fall = [f["fehler_fall"]] if f["fehler_fall"] or f["fehler_von"] is None else list(FEHLER_FAELLE)
        for s, p, c, g, fa in itertools.product(spieler, partner, farbe, gewonnen, fall):
            yield {**f, "spieler": s, "partner": p, "farbe": c, "gewonnen": g, "fehler_fall": fa}

    def _possible(self, keep: frozenset[str] | set[str] = frozenset(), **changes: Any) -> bool:
        """Whether the ruleset accepts the game with ``changes`` for some completion of the open fields."""
        if self.sheet is None:
            return False
        fields = {**self._fields(), **changes}
        return any(_accepted(self._table, json.dumps(self._data(f), sort_keys=True)) for f in self._completions(fields, keep))

    def _prune(self) -> None:
        """After a tap, drop the choices the rules no longer allow with it (most dependent first).

        If no such drop makes the game possible (typed Augen against the outcome chosen, say), all
        choices stay as they are and the ruleset's refusal is shown on "Eintragen"."""
        self.error = None
        if self._possible():
            if self.unberechtigt is not None and not self.unberechtigt_offered:
                self.unberechtigt = None  # the tricks tell now (Schwarz), or there is nothing to tell
            return
        kept = self._fields()
        for name in ("unberechtigt", "fehler_fall", "stufe", "tout", "spritze_von", "farbe", "partner"):
            if getattr(self, name) is not None:
                setattr(self, name, None)
                if self._possible():
                    return
        for name, value in kept.items():
            setattr(self, name, value)
