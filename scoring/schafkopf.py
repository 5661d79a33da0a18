"""Schafkopf, tournament order (``../shared/rules/schafkopf-turnierordnung.txt``), ruleset ``schafkopf-turnier``.

A sheet is one Serie at one table of four players, kept by the Listenführer
(``context.written_by``). Every ``game`` entry is one game played (a deal without a game is
dealt again by the same player and is not written). At the end of the Serie the
Listenführer closes the sheet (``close``): every player gets Tischpunkte for his place at
the table, and his result is Tischpunkte plus Spielpunkte; the four results add up to 100.

A ``game`` entry (all names as on the Tischliste):

- ``spiel``: ``rufspiel`` (``spieler`` and the called ``partner``; ``farbe`` optionally the
  called Sau), ``solo`` or ``farbwenz`` (with their ``farbe``), ``wenz``; ``tout: true`` for
  a Solo, Wenz or Farbwenz Tout.
- ``gewonnen`` (from the declaring party's view) and ``stufe`` (``einfach``, ``schneider``,
  ``schwarz``; ``durch`` is a synonym of ``schwarz``). Instead the sheet may give the
  declaring party's ``augen`` (card points) and ``stiche`` (tricks): won with 61, Schneider
  at 30 or less, Schwarz without a trick. When both are given they must agree; 120 or 0
  Augen without ``stiche`` read as Schneider unless ``stufe`` says Schwarz (a trick can be
  worth 0 Augen, so the Augen alone cannot tell).
- ``spritze``: ``{"von": player}``; ``unberechtigt`` is derived where the tricks tell
  (Schwarz, or ``stiche`` given) and may be set for a Schneider game where the giving
  party made one trick.
- ``fehler``: a misplay (falsches Ausspiel or uncorrected falsches Bedienen) by ``von``
  with ``fall`` ``bereits_gewonnen``, ``nicht_fortgesetzt`` or ``fortgesetzt``.

Spielpunkte (table of the document), per player: a Rufspiel gives each winner +1/+2/+3
(einfach/Schneider/Durch) and each loser as much minus. A Solo, Wenz or Farbwenz gives
the declarer 6/9/12 (Tout 18) and each opponent a third of it, with the winners' sign;
so a lost Solo is declarer -6, opponents +2 each. A Spritze doubles all of it.

How this ruleset reads the document where it is not explicit:

- Unberechtigte Spritze (the giving party is not schneiderfrei and makes at most one
  trick; never for a Tout): the winners get the doubled points, the loser who did not
  give the Spritze the simple loss, the player who gave it the rest (second table of the
  document). A Spritze party without any trick (Schwarz) is always unberechtigt.
- Misplay, game already won (``bereits_gewonnen``): the game counts as won by the party
  that had won it (at the ``stufe`` entered, doubled by a Spritze). If the offender is in
  the losing party he alone pays that party's whole loss and his partners stay at 0
  ("Solo +6 ±0 ±0 -6"); if he is in the winning party the game is scored as usual: the
  loser cannot gain by it. A Tout is only won with the last trick, so it can only be
  "already won" by the opponents.
- Misplay, not continued (``nicht_fortgesetzt``): the offender's opponents have won simply;
  every other player gets what a winner in his role gets in a simple game (declarer of a
  Solo +6, a Solo opponent +2, a Rufspiel player +1, doubled with Spritze), and the
  offender pays all of it: -10 (+6 +2 +2) in a Solo, -3 (+1 +1 +1) in a Rufspiel, as the
  document says. When the offender is the declarer of a Solo the three opponents get +2
  each and he pays -6 (no one else is left to pay). In a Tout "simply won" is the Tout's
  own value (18 / 6), a Tout has no lower level; option ``fehler_tout_einfach`` scores it as
  a simple Solo (6 / 2) instead.
- Misplay, continued (``fortgesetzt``): scored as the game actually ended.
- Reuegeld (Reuegeld section): for a game lost by the declaring party the declarer pays
  (0,50 € for a Rufspiel, 1,00 € for a Solo, Wenz, Farbwenz and their Tout); for a Spritze
  the declaring party won, the player who gave the Spritze pays (0,50 € on a Rufspiel,
  1,00 € on a Solo, Wenz, Farbwenz). Misplay games count as scored: whoever's game or
  Spritze is lost pays; but in a game not continued after a misplay every other player is
  scored as a winner and the offender alone pays all of it (-3 = +1 +1 +1), so he also pays
  that game's Reuegeld (his partner's lost Rufspiel, the lost Spritze of a team-mate).
  The amounts are options (in cents).
- An unberechtigte Spritze is not scored on a misplay game that was not played out
  (``bereits_gewonnen``, ``nicht_fortgesetzt``): the tricks it depends on were not made.
- Tischpunkte: places by Spielpunkte; players on equal Spielpunkte share the places'
  points equally, which is every tie value the document lists (35, 30, 25, 20, 15), also
  combined (1.+2. and 3.+4. tied: 35, 35, 15, 15).
- The Serie has ``spiele`` games (an option; the document names no number, default 32). Seats fix the order of dealing
  (clockwise, seat 1, 2, 3, 4); the player on seat ``erster_geber`` deals the first game.
  Without seats the order of the participants is the seating order.
- ``close`` needs all games of the Serie unless ``override`` gives the organizer's reason;
  it must be signed by the Listenführer (``context.written_by``: a participant's id, name or
  seat, or the name of a Listenführer who does not play; he signs with his name or id) unless
  ``override`` is given. The close computes the Tischpunkte and refuses a Serie whose
  results do not add up to 100, showing the numbers (a guard: with every game zero-sum
  and the tie shares above, a valid log always adds up to 100).
- A Rufspiel calls an Eichel-, Gras- or Schellen-Sau (``farbe``, optional); the Herz-Sau
  is trump and cannot be called (general Schafkopf rule, not in the document).
- Not scored, as the document does not score them: bidding (see ``gebotsrang``), Falschspiel
  and the other grounds for exclusion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import Field

from .engine import (
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
    rank_by_sum,
)
from .model import Frozen, Sheet
from .registry import register

# Rule names, as they appear in the document's sections.
SPIELPUNKTE = "Spielpunkte (Tabelle)"
SPRITZE = "Spritze"
SPRITZE_RE = "Spritze (nur die Gegenpartei, Re ist nicht erlaubt)"
UNBERECHTIGT = "Unberechtigte Spritze"
TOUT = "Spielpunkte: Tout"
_SPIELPUNKTE = "Spielpunkte: "
"""The status line ranking the Spielpunkte (the sheet shows them on top instead: ``status_beside_headline``)."""
GEWONNEN = "Spiel gewonnen mit 61, Schneider mit 30"
FEHLER = "Falsches Ausspiel / falsches Bedienen"
REUEGELD = "Reuegeld"
TISCHPUNKTE = "Tischpunkte"
ERGEBNIS = "Ergebnis (Tisch- + Spielpunkte = 100)"
UNTERSCHRIFT = "Ergebnis: Unterschrift des Listenführers"
SERIE = "Serie"
SPIELARTEN = "Spielarten"
TEILNEHMER = "Teilnehmer (4 Spieler, ausgeloste Plätze)"

SpielArt = Literal["rufspiel", "solo", "wenz", "farbwenz"]
Farbe = Literal["eichel", "gras", "herz", "schellen"]
Stufe = Literal["einfach", "schneider", "schwarz"]

#: Tischpunkte for places 1 to 4.
TISCHPUNKTE_PLATZ = (40, 30, 20, 10)

#: Per-player share of a won game: Rufspiel each player; Solo/Wenz/Farbwenz each opponent
#: (the declarer gets three times as much). Tout is the Solo's "stufe" ``tout``.
ANTEIL_RUFSPIEL = {"einfach": 1, "schneider": 2, "schwarz": 3}
ANTEIL_SOLO = {"einfach": 2, "schneider": 3, "schwarz": 4, "tout": 6}

FARBNAME = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}


def euro(cents: int) -> str:
    """``150`` -> ``"1,50 €"``."""
    return f"{cents // 100},{cents % 100:02d} €"


def signed(points: int) -> str:
    """``6`` -> ``"+6"``, ``0`` -> ``"±0"`` (as the document writes points)."""
    return f"{points:+d}" if points else "±0"


class SchafkopfOptions(Frozen):
    """House settings of a tournament; the defaults are the document's."""

    spiele: int = Field(default=32, ge=1, le=200, description="Spiele pro Serie (ein Tisch, vier Spieler)")
    erster_geber: int = Field(default=1, ge=1, le=4, description="Platz des Spielers, der das erste Spiel der Serie gibt")
    fehler_tout_einfach: bool = Field(
        default=False,
        description="Fehler im Tout, nicht fortgesetzt: als einfaches Spiel (6/2) statt zum Wert des Tout (18/6) werten",
    )
    reuegeld_rufspiel: int = Field(
        default=50, ge=0, le=10000, description="Reuegeld in Cent: verlorenes Rufspiel, verlorene Spritze auf ein Rufspiel"
    )
    reuegeld_solo: int = Field(
        default=100, ge=0, le=10000, description="Reuegeld in Cent: verlorenes Solo/Wenz/Farbwenz, verlorene Spritze darauf"
    )


class SpritzeData(Frozen):
    """``spritze`` of a game: Stoss – Kontra – Spritze – Schuss, given by the party against the declarer."""

    von: str
    """The player who gave the Spritze (always of the party against the declarer)."""
    unberechtigt: bool | None = None
    """Leer: aus den Stichen abgeleitet (Schwarz: unberechtigt), sonst berechtigt."""


class FehlerData(Frozen):
    """``fehler`` of a game: falsches Ausspiel or uncorrected falsches Bedienen, and what followed."""

    von: str
    """The player who played out or followed wrongly."""
    art: Literal["ausspiel", "bedienen"] = "ausspiel"
    fall: Literal["bereits_gewonnen", "nicht_fortgesetzt", "fortgesetzt"]


class GameData(Frozen):
    """Data of a ``game`` entry (see the module docstring)."""

    spiel: SpielArt
    spieler: str
    partner: str | None = None
    farbe: Farbe | None = None
    tout: bool = False
    gewonnen: bool | None = None
    stufe: Literal["einfach", "schneider", "schwarz", "durch"] | None = None
    augen: int | None = Field(default=None, ge=0, le=120)
    """Augen (card points) of the declaring party."""
    stiche: int | None = Field(default=None, ge=0, le=8)
    """Tricks of the declaring party."""
    spritze: SpritzeData | None = None
    fehler: FehlerData | None = None


class PapierData(Frozen):
    """A Serie as the paper Tischliste sums it up (``papier``): each player's Spielpunkte and Tischpunkte."""

    spielpunkte: dict[str, int]
    tischpunkte: dict[str, int]


class SpielerErgebnis(Frozen):
    """One player's line of the Serie (what goes into the Spielerausweis)."""

    spielpunkte: int
    platz: int
    """Place at the table by Spielpunkte; tied players share the better place."""
    tischpunkte: int
    ergebnis: int
    """Tischpunkte + Spielpunkte."""
    reuegeld_cent: int
    reuegeld: str


class SchafkopfResult(Frozen):
    """The Serie's result: per player, and the table's Reuegeld."""

    spiele: int
    """Games played."""
    abgeschlossen: bool
    """Closed and signed; before that the Tischpunkte are provisional."""
    unterschrieben_von: str | None = None
    spieler: dict[str, SpielerErgebnis]
    reuegeld_tisch_cent: int
    reuegeld_tisch: str
    """To be handed in at the Kasse with the Tischliste."""


@dataclass
class _State:
    order: tuple[str, ...]
    """Players in seating (dealing) order."""
    first: int
    spielpunkte: dict[str, int]
    reuegeld: dict[str, int]
    games: int = 0
    closed_by: str | None = None

    def dealer(self) -> str:
        return self.order[(self.first + self.games) % len(self.order)]


@dataclass(frozen=True)
class Spiel:
    """A game as the rules see it after validation: who plays with whom, how it ended."""

    art: SpielArt
    farbe: Farbe | None
    spieler: str
    partei: tuple[str, ...]
    """The declaring party: the declarer (and the called partner in a Rufspiel), declarer first."""
    gegner: tuple[str, ...]
    """The other players, in the order of the participants."""
    tout: bool
    gewonnen: bool
    stufe: Stufe
    spritze_von: str | None
    unberechtigt: bool

    @property
    def solo(self) -> bool:
        return self.art != "rufspiel"

    @property
    def stufe_key(self) -> str:
        return "tout" if self.tout else self.stufe

    def anteil(self, stufe: str | None = None) -> int:
        """Points of one Rufspiel player or one Solo opponent for the game at ``stufe``."""
        key = stufe or self.stufe_key
        return ANTEIL_SOLO[key] if self.solo else ANTEIL_RUFSPIEL[key]

    def gewinn(self, player: str, anteil: int) -> int:
        """What ``player`` gets as a winner in his role (a Solo declarer three shares)."""
        return 3 * anteil if self.solo and player == self.spieler else anteil

    def faktor(self) -> int:
        return 2 if self.spritze_von is not None else 1


def normal_points(spiel: Spiel, anteil: int) -> dict[str, int]:
    """Table of Spielpunkte: the winning party gets, the losing party pays, each in his role."""
    winners = spiel.partei if spiel.gewonnen else spiel.gegner
    points = {}
    for player in (*spiel.partei, *spiel.gegner):
        value = spiel.gewinn(player, anteil)
        points[player] = value if player in winners else -value
    return points


def unberechtigt_points(spiel: Spiel) -> dict[str, int]:
    """Second table: winners doubled, the other loser(s) simple, the giver of the Spritze the rest."""
    assert spiel.gewonnen and spiel.spritze_von is not None
    anteil = spiel.anteil()
    points: dict[str, int] = {}
    for player in spiel.partei:
        points[player] = 2 * spiel.gewinn(player, anteil)
    for player in spiel.gegner:
        if player != spiel.spritze_von:
            points[player] = -anteil
    points[spiel.spritze_von] = -sum(points.values())
    return points


def tischpunkte(spielpunkte: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Tischpunkte and place per player: 40/30/20/10, tied players share their places' points.

    The document's tie values are exactly these shares: 1.+2. je 35, 2.+3. je 25, 3.+4. je 15,
    1.,2.+3. je 30, 2.,3.+4. je 20, all four je 25.
    """
    ranked = sorted(spielpunkte.items(), key=lambda item: item[1], reverse=True)
    points: dict[str, int] = {}
    places: dict[str, int] = {}
    index = 0
    while index < len(ranked):
        end = index
        while end + 1 < len(ranked) and ranked[end + 1][1] == ranked[index][1]:
            end += 1
        share = Fraction(sum(TISCHPUNKTE_PLATZ[index : end + 1]), end - index + 1)
        assert share.denominator == 1, share
        for player, _ in ranked[index : end + 1]:
            points[player] = int(share)
            places[player] = index + 1
        index = end + 1
    return points, places


def pruefe_hundert(ergebnis: dict[str, int], names: dict[str, str] | None = None) -> None:
    """The Listenführer's check: the four results (Tisch- + Spielpunkte) add up to 100."""
    total = sum(ergebnis.values())
    if total != 100:
        shown = " + ".join(f"{(names or {}).get(p, p)} {v}" for p, v in ergebnis.items())
        raise RuleViolation(ERGEBNIS, f"Die Ergebnisse ergeben {shown} = {total}, nicht 100")


#: Bidding order of the Steigern section: higher wins. Farbwenz Tout and Wenz Tout are equal.
_GEBOT = {("rufspiel", False): 0, ("farbwenz", False): 1, ("wenz", False): 2, ("solo", False): 3}
_GEBOT |= {("farbwenz", True): 4, ("wenz", True): 4, ("solo", True): 5}


def gebotsrang(spiel: SpielArt, tout: bool = False) -> int:
    """Rank of a game when two players want to play (Steigern): Solo before Wenz before
    Farbwenz; any Tout above them, and a Solo Tout above a Farbwenz Tout / Wenz Tout."""
    try:
        return _GEBOT[(spiel, tout)]
    except KeyError:
        raise RuleViolation(SPIELARTEN, "Ein Rufspiel kann nicht als Tout gespielt werden") from None


@register
class SchafkopfTurnier(Ruleset[_State, SchafkopfOptions]):
    id = "schafkopf-turnier"
    version = 1
    title = "Schafkopf (Turnier)"
    source = "schafkopf-turnierordnung.txt"
    participant_kind = "player"
    participant_counts = (4,)
    zero_sum = True
    round_label = "Serie"
    Options = SchafkopfOptions
    entry_models = {"game": GameData, "papier": PapierData}

    # -- sheet -------------------------------------------------------------------------------
    def check_participants(self, sheet: Sheet) -> None:
        super().check_participants(sheet)
        numbers = [p.start_number for p in sheet.participants if p.start_number is not None]
        if len(set(numbers)) != len(numbers):
            raise RuleViolation(TEILNEHMER, f"Ein Spieler kann nicht zweimal am Tisch sitzen (Startnummern {numbers})")
        # Without a Startnummer the name is the player's identity (two namesakes need Startnummern).
        names = [p.name.strip().casefold() for p in sheet.participants if p.start_number is None]
        if len(set(names)) != len(names):
            raise RuleViolation(TEILNEHMER, "Ein Spieler kann nicht zweimal am Tisch sitzen (gleicher Name ohne Startnummer)")
        seats = [p.seat for p in sheet.participants if p.seat is not None]
        if seats and sorted(seats) != [1, 2, 3, 4]:
            raise RuleViolation(TEILNEHMER, f"Die ausgelosten Plätze sind 1 bis 4, jeder einmal (angegeben: {seats})")

    def start(self, ctx: Context[SchafkopfOptions]) -> _State:
        players = ctx.sheet.participants
        if all(p.seat is not None for p in players):
            players = tuple(sorted(players, key=lambda p: p.seat or 0))
        order = tuple(p.id for p in players)
        return _State(
            order=order,
            first=ctx.options.erster_geber - 1,
            spielpunkte={p: 0 for p in ctx.participant_ids},
            reuegeld={p: 0 for p in ctx.participant_ids},
        )

    # -- reading a game entry --------------------------------------------------------------
    def spiel(self, data: GameData, ctx: Context[SchafkopfOptions]) -> Spiel:
        """Validate a game entry against the rules and settle who won at which level."""
        players = ctx.participant_ids
        spieler = ctx.require_participant(data.spieler, TEILNEHMER, "Spieler")
        name = ctx.name
        # -- the game and the parties
        if data.spiel == "rufspiel":
            if data.partner is None:
                raise RuleViolation(SPIELARTEN, "Ein Rufspiel braucht den gerufenen Partner ('partner')")
            partner = ctx.require_participant(data.partner, TEILNEHMER, "Partner")
            if partner == spieler:
                raise RuleViolation(
                    SPIELARTEN, f"Im Rufspiel kann {name(spieler)} nicht sich selbst rufen: Partner und Spieler sind gleich"
                )
            if data.tout:
                raise RuleViolation(TOUT, "Tout gibt es nur bei Solo, Wenz und Farbwenz, nicht beim Rufspiel")
            if data.farbe == "herz":
                raise RuleViolation(
                    SPIELARTEN, "Im Rufspiel wird eine Eichel-, Gras- oder Schellen-Sau gerufen, nicht die Herz-Sau (Trumpf)"
                )
            partei: tuple[str, ...] = (spieler, partner)
        else:
            if data.partner is not None:
                raise RuleViolation(SPIELARTEN, f"Ein {self._art_name(data.spiel, None)} hat keinen Partner: nur das Rufspiel")
            if data.spiel in ("solo", "farbwenz") and data.farbe is None:
                raise RuleViolation(SPIELARTEN, f"Beim {self._art_name(data.spiel, None)} fehlt die Farbe ('farbe')")
            if data.spiel == "wenz" and data.farbe is not None:
                raise RuleViolation(SPIELARTEN, "Ein Wenz hat keine Farbe; mit Farbe ist es ein Farbwenz")
            partei = (spieler,)
        gegner = tuple(p for p in players if p not in partei)
        fall = data.fehler.fall if data.fehler else None
        offender = ctx.require_participant(data.fehler.von, TEILNEHMER, "Fehler von") if data.fehler else ""
        # -- won / lost
        gewonnen = data.gewonnen
        stufe: Stufe | None = "schwarz" if data.stufe == "durch" else data.stufe
        if fall == "nicht_fortgesetzt":
            if data.augen is not None or data.stiche is not None:
                raise RuleViolation(FEHLER, "Das Spiel wurde nicht fortgesetzt: Augen und Stiche bleiben leer")
            winner = offender not in partei
            if gewonnen is not None and gewonnen != winner:
                party = f"die Spielpartei von {name(spieler)}" if winner else f"die Gegenpartei von {name(spieler)}"
                raise RuleViolation(
                    FEHLER,
                    f"Ohne Fortsetzung hat die Gegenpartei von {name(offender)} gewonnen, also {party}: "
                    f"'gewonnen' ist {'true' if winner else 'false'}",
                )
            if stufe not in (None, "einfach"):
                raise RuleViolation(
                    FEHLER, "Wird nicht fortgesetzt, hat die Gegenpartei das Spiel einfach gewonnen, nicht mit Schneider/Schwarz"
                )
            gewonnen, stufe = winner, (None if data.tout else "einfach")
        if data.augen is not None and not (data.tout and data.augen == 120):
            # A Tout is won with every trick, not with 61: fewer than 120 Augen lose it.
            by_augen = data.augen >= 61 and not data.tout
            if gewonnen is not None and gewonnen != by_augen:
                rule, need = (TOUT, "ein Tout braucht alle Stiche") if data.tout else (GEWONNEN, "gewonnen ab 61")
                raise RuleViolation(
                    rule, f"Mit {data.augen} Augen hat die Spielpartei {'gewonnen' if by_augen else 'verloren'} ({need})"
                )
            gewonnen = by_augen
        if data.stiche is not None:
            if (data.stiche == 8 and data.augen not in (None, 120)) or (data.stiche == 0 and data.augen not in (None, 0)):
                raise RuleViolation(GEWONNEN, f"{data.stiche} Stiche und {data.augen} Augen passen nicht zusammen")
            if data.stiche in (0, 8):
                by_tricks = data.stiche == 8
                if gewonnen is not None and gewonnen != by_tricks:
                    raise RuleViolation(
                        GEWONNEN, f"Mit {data.stiche} Stichen hat die Spielpartei {'gewonnen' if by_tricks else 'verloren'}"
                    )
                gewonnen = by_tricks
        if data.tout and data.stiche is not None and data.stiche < 8:
            if gewonnen:
                raise RuleViolation(TOUT, f"Ein Tout ist nur mit allen 8 Stichen gewonnen, nicht mit {data.stiche}")
            gewonnen = False
        if gewonnen is None:
            raise RuleViolation(GEWONNEN, "Es fehlt, ob die Spielpartei gewonnen hat ('gewonnen', 'augen' oder 'stiche')")
        # -- level
        if data.tout:
            if gewonnen:
                if stufe not in (None, "schwarz"):
                    raise RuleViolation(
                        TOUT, f"Ein Tout ist nur schwarz gewonnen, nicht {stufe.capitalize()}; sonst ist er verloren"
                    )
                if data.augen is not None and data.augen != 120:
                    raise RuleViolation(TOUT, f"Ein gewonnener Tout hat alle Stiche und 120 Augen, nicht {data.augen}")
                stufe = "schwarz"
            else:
                if stufe not in (None, "einfach"):
                    raise RuleViolation(
                        TOUT, "Ein verlorener Tout zählt immer -18 / +6: Schneider und Schwarz gelten beim Tout nicht"
                    )
                stufe = "einfach"
        else:
            derived = self._stufe(data)
            if stufe is None:
                stufe = derived or "einfach"
            elif derived is not None and derived != stufe and not self._schwarz_moeglich(data, stufe):
                shown = {"einfach": "einfach", "schneider": "Schneider", "schwarz": "Schwarz"}
                raise RuleViolation(
                    GEWONNEN, f"Mit {self._augen_text(data)} ist das Spiel {shown[derived]}, nicht {shown[stufe]}"
                )
            elif stufe == "schwarz" and data.stiche is not None and data.stiche not in (0, 8):
                raise RuleViolation(GEWONNEN, f"Schwarz heißt ohne Stich; die Spielpartei hat {data.stiche} Stiche")
            elif stufe == "schneider" and data.stiche in (0, 8):
                raise RuleViolation(GEWONNEN, "Ohne Stich ist die Partei schwarz, nicht nur Schneider")
        # -- Spritze
        spritze_von = None
        unberechtigt = False
        if data.spritze is not None:
            spritze_von = ctx.require_participant(data.spritze.von, TEILNEHMER, "Spritze von")
            if spritze_von in partei:
                role = "Spieler" if spritze_von == spieler else "gerufene Partner"
                raise RuleViolation(
                    SPRITZE_RE,
                    f"{name(spritze_von)} ist der {role}: Spritze gibt nur die Gegenpartei, Re ist nicht erlaubt",
                )
            unberechtigt = self._unberechtigt(data, gewonnen, stufe, fall)
        return Spiel(
            art=data.spiel,
            farbe=data.farbe,
            spieler=spieler,
            partei=partei,
            gegner=gegner,
            tout=data.tout,
            gewonnen=gewonnen,
            stufe=stufe,
            spritze_von=spritze_von,
            unberechtigt=unberechtigt,
        )

    @staticmethod
    def _stufe(data: GameData) -> Stufe | None:
        """The level the Augen and Stiche show (Schneider with 30 or less), None if unknown."""
        if data.stiche in (0, 8):
            return "schwarz"
        if data.augen is not None:
            return "schneider" if data.augen <= 30 or data.augen >= 90 else "einfach"
        return None

    @staticmethod
    def _schwarz_moeglich(data: GameData, stufe: Stufe) -> bool:
        """120 or 0 Augen without ``stiche``: Schneider at least, Schwarz if the other party made no
        trick (a trick can be worth 0 Augen, so only the entry can tell)."""
        return stufe == "schwarz" and data.stiche is None and data.augen in (0, 120)

    @staticmethod
    def _augen_text(data: GameData) -> str:
        parts = []
        if data.augen is not None:
            parts.append(f"{data.augen} Augen (Gegenpartei {120 - data.augen})")
        if data.stiche is not None:
            parts.append(f"{data.stiche} Stichen")
        return " und ".join(parts)

    def _unberechtigt(self, data: GameData, gewonnen: bool, stufe: Stufe, fall: str | None) -> bool:
        """Unberechtigte Spritze: the giving party is not schneiderfrei and makes at most one trick."""
        assert data.spritze is not None
        given = data.spritze.unberechtigt
        if data.tout:
            if given:
                raise RuleViolation(UNBERECHTIGT, "Beim Tout gibt es keine unberechtigte Spritze")
            return False
        if fall in ("bereits_gewonnen", "nicht_fortgesetzt"):
            if given:
                raise RuleViolation(
                    UNBERECHTIGT, "Bei einem Fehler, der das Spiel beendet, wird keine unberechtigte Spritze gewertet"
                )
            return False
        possible = gewonnen and stufe in ("schneider", "schwarz")
        if given and not possible:
            if not gewonnen:
                why = "die kontragebende Partei hat gewonnen"
            else:
                why = "die kontragebende Partei ist schneiderfrei (das Spiel ist nicht mindestens Schneider)"
            raise RuleViolation(UNBERECHTIGT, f"Die Spritze kann nicht unberechtigt sein: {why}")
        if not possible:
            return False
        # The giving party's tricks: known from stiche, or none at Schwarz.
        tricks = 8 - data.stiche if data.stiche is not None else (0 if stufe == "schwarz" else None)
        if tricks is None:
            return bool(given)
        must = tricks <= 1
        if given is not None and given != must:
            if must:
                raise RuleViolation(
                    UNBERECHTIGT,
                    f"Die kontragebende Partei ist nicht schneiderfrei und macht {('keinen', 'einen')[tricks]} Stich: "
                    "die Spritze ist unberechtigt",
                )
            raise RuleViolation(UNBERECHTIGT, f"Die kontragebende Partei macht {tricks} Stiche: die Spritze ist berechtigt")
        return must

    # -- the game ----------------------------------------------------------------------------
    def on_game(self, state: _State, data: GameData, ctx: Context[SchafkopfOptions]) -> Outcome:
        if state.closed_by is not None:  # pragma: no cover - the engine refuses entries after close
            raise RuleViolation(SERIE, "Die Serie ist abgeschlossen")
        if state.games >= ctx.options.spiele:
            raise RuleViolation(SERIE, f"Die Serie hat {ctx.options.spiele} Spiele; alle sind gespielt")
        spiel = self.spiel(data, ctx)
        dealer = state.dealer()
        head = f"Gibt {ctx.name(dealer)}: "  # the line is named "5. Spiel" already; the dealer is what it adds
        if data.fehler is not None and data.fehler.fall != "fortgesetzt":
            points, reasons = self._fehler_points(spiel, data.fehler, ctx, head)
        else:
            points, reasons = self._game_points(spiel, ctx, head)
            if data.fehler is not None:
                reasons.insert(
                    0,
                    Explanation(
                        rule=FEHLER,
                        text=f"{self._fehler_text(data.fehler, ctx)}; die Gegenpartei ließ weiterspielen: gewertet nach tatsächlichem Spielausgang",
                    ),
                )
        assert sum(points.values()) == 0, points
        reasons.extend(self._reuegeld(state, spiel, ctx, data.fehler))
        for player, value in points.items():
            state.spielpunkte[player] += value
        state.games += 1
        return Outcome(points, reasons)

    def _art_name(self, art: SpielArt, farbe: Farbe | None, tout: bool = False) -> str:
        base = {"rufspiel": "Rufspiel", "solo": "Solo", "wenz": "Wenz", "farbwenz": "Farbwenz"}[art]
        if farbe is not None:
            base = f"{FARBNAME[farbe]}-{base}" if art != "rufspiel" else f"Rufspiel auf die {FARBNAME[farbe]}-Sau"
        return base + (" Tout" if tout else "")

    def _table_rule(self, spiel: Spiel, stufe: str | None = None) -> str:
        key = stufe or spiel.stufe_key
        art = "Rufspiel" if not spiel.solo else "Solo/Wenz/Farbwenz"
        level = {"einfach": "" if spiel.solo else " (einfach)", "schneider": " Schneider", "schwarz": " Durch", "tout": " Tout"}[
            key
        ]
        return f"{SPIELPUNKTE}: {art}{level}"

    def _party_text(self, spiel: Spiel, ctx: Context[SchafkopfOptions]) -> str:
        if spiel.solo:
            return ctx.name(spiel.spieler)
        partner = next(p for p in spiel.partei if p != spiel.spieler)
        return f"{ctx.name(spiel.spieler)} mit {ctx.name(partner)}"

    def _game_points(self, spiel: Spiel, ctx: Context[SchafkopfOptions], head: str) -> tuple[dict[str, int], list[Explanation]]:
        anteil = spiel.anteil()
        simple = normal_points(spiel, anteil)
        outcome = "gewinnt" if spiel.gewonnen else "verliert"
        level = (
            ""
            if spiel.tout
            else {"einfach": "", "schneider": " Schneider", "schwarz": " Durch" if spiel.gewonnen else " schwarz"}[spiel.stufe]
        )
        what = f"{head}{self._party_text(spiel, ctx)} {outcome} {self._describe(spiel, ctx)}{level}"
        reasons = [Explanation(rule=self._table_rule(spiel), text=what, points=simple)]
        if spiel.spritze_von is None:
            return simple, reasons
        giver = ctx.name(spiel.spritze_von)
        if spiel.unberechtigt:
            points = unberechtigt_points(spiel)
            reasons.append(
                Explanation(
                    rule=UNBERECHTIGT,
                    text=(
                        f"Spritze von {giver} ist unberechtigt (nicht schneiderfrei, höchstens 1 Stich): "
                        f"die Sieger doppelt, die Mitspieler von {giver} einfach, {giver} trägt den Rest"
                    ),
                    points=points,
                )
            )
            return points, reasons
        points = {p: 2 * v for p, v in simple.items()}
        reasons.append(Explanation(rule=SPRITZE, text=f"Spritze von {giver}: die Spielpunkte verdoppeln sich", points=points))
        return points, reasons

    def _describe(self, spiel: Spiel, ctx: Context[SchafkopfOptions]) -> str:
        return self._art_name(spiel.art, spiel.farbe, spiel.tout)

    def _fehler_text(self, fehler: FehlerData, ctx: Context[SchafkopfOptions]) -> str:
        what = "falsches Ausspiel" if fehler.art == "ausspiel" else "nicht korrigiertes falsches Bedienen"
        return f"{what} von {ctx.name(fehler.von)}"

    def _fehler_points(
        self, spiel: Spiel, fehler: FehlerData, ctx: Context[SchafkopfOptions], head: str
    ) -> tuple[dict[str, int], list[Explanation]]:
        offender = fehler.von
        faktor = spiel.faktor()
        spritze = f", mit Spritze von {ctx.name(spiel.spritze_von)} doppelt" if spiel.spritze_von else ""
        title = self._describe(spiel, ctx)
        winners = spiel.partei if spiel.gewonnen else spiel.gegner
        if fehler.fall == "nicht_fortgesetzt":
            tout_value = spiel.tout and not ctx.options.fehler_tout_einfach
            anteil = spiel.anteil("tout" if tout_value else "einfach")
            points = {p: faktor * spiel.gewinn(p, anteil) for p in (*spiel.partei, *spiel.gegner) if p != offender}
            points[offender] = -sum(points.values())
            parts = " ".join(signed(points[p]) for p in points if p != offender)
            text = (
                f"{head}{title} von {self._party_text(spiel, ctx)}: {self._fehler_text(fehler, ctx)}, "
                f"nicht fortgesetzt: die Gegenpartei von {ctx.name(offender)} hat das Spiel einfach gewonnen; "
                f"{ctx.name(offender)} zahlt alles: {points[offender]} ({parts}){spritze}"
            )
            return points, [Explanation(rule=f"{FEHLER}: nicht fortgesetzt", text=text, points=points)]
        # bereits_gewonnen
        if spiel.tout and spiel.gewonnen:
            raise RuleViolation(FEHLER, "Ein Tout ist erst mit dem letzten Stich gewonnen; vorher kann er nur verloren sein")
        points = {p: faktor * v for p, v in normal_points(spiel, spiel.anteil()).items()}
        outcome = "gewonnen" if spiel.gewonnen else "verloren"
        if offender in winners:
            text = (
                f"{head}{title} von {self._party_text(spiel, ctx)} war bereits {outcome}; {self._fehler_text(fehler, ctx)} "
                f"ändert nichts: der feststehende Verlierer erhält keine Pluspunkte{spritze}"
            )
            return points, [Explanation(rule=f"{FEHLER}: bereits gewonnenes Spiel", text=text, points=points)]
        losers = [p for p in points if p not in winners]
        loss = sum(points[p] for p in losers)
        for p in losers:
            points[p] = 0
        points[offender] = loss
        parts = ", ".join(f"{ctx.name(p)} {signed(points[p])}" for p in losers)
        text = (
            f"{head}{title} von {self._party_text(spiel, ctx)} war bereits {outcome}; {self._fehler_text(fehler, ctx)}: "
            f"{ctx.name(offender)} trägt den Verlust der eigenen Partei allein ({parts}){spritze}"
        )
        return points, [Explanation(rule=f"{FEHLER}: bereits gewonnenes Spiel", text=text, points=points)]

    def _reuegeld(
        self, state: _State, spiel: Spiel, ctx: Context[SchafkopfOptions], fehler: FehlerData | None = None
    ) -> list[Explanation]:
        """Reuegeld: a lost game costs its declarer, a lost Spritze its giver (amounts as options);
        in a game not continued after a misplay the offender, who alone loses it, pays."""
        cents = ctx.options.reuegeld_solo if spiel.solo else ctx.options.reuegeld_rufspiel
        art = "Solo/Wenz/Farbwenz" if spiel.solo else "Rufspiel"
        if not spiel.gewonnen:
            payer, why = spiel.spieler, f"verlorenes {art}" if spiel.solo else "verlorenes Rufspiel"
        elif spiel.spritze_von is not None:
            payer, why = spiel.spritze_von, f"verlorene Spritze auf ein {art}"
        else:
            return []
        if fehler is not None and fehler.fall == "nicht_fortgesetzt" and fehler.von != payer:
            payer, why = fehler.von, f"{why}, wegen seines Fehlers nicht fortgesetzt"
        if cents == 0:
            return []
        state.reuegeld[payer] += cents
        return [Explanation(rule=REUEGELD, text=f"{ctx.name(payer)} zahlt {euro(cents)} ({why})")]

    # -- a Serie from the paper's totals ------------------------------------------------------
    def on_papier(self, state: _State, data: PapierData, ctx: Context[SchafkopfOptions]) -> Outcome:
        """The whole Serie typed from the paper Tischliste's foot: Spielpunkte and Tischpunkte per player.

        Checked as far as the document allows: every game gives the winners what the losers pay
        (table of Spielpunkte), so the Spielpunkte add up to 0; the Tischpunkte are 40/30/20/10 by
        place, shared when tied ("Nach jeder Serie werden zusätzlich folgende Tischpunkte
        vergeben"), so they add up to 100 and must be those of the places the Spielpunkte give.
        The Reuegeld is not on the paper's foot and stays 0."""
        if state.games:
            raise RuleViolation(SERIE, "Die Summen vom Papier stehen für die ganze Serie; das Blatt hat schon Spiele")
        players = set(ctx.participant_ids)
        for what, given in (("Spielpunkte", data.spielpunkte), ("Tischpunkte", data.tischpunkte)):
            if set(given) != players:
                names = ", ".join(ctx.name(p) for p in ctx.participant_ids)
                raise RuleViolation(TEILNEHMER, f"{what}: es braucht genau die vier Spieler {names}")
        spiel = {p: data.spielpunkte[p] for p in ctx.participant_ids}
        tisch = {p: data.tischpunkte[p] for p in ctx.participant_ids}
        if sum(spiel.values()) != 0:
            shown = " ".join(f"{signed(v)}" for v in spiel.values())
            raise RuleViolation(
                SPIELPUNKTE,
                f"Die Spielpunkte ergeben zusammen {sum(spiel.values()):+d}, nicht 0 ({shown}): "
                "jedes Spiel gibt den Gewinnern, was die Verlierer zahlen",
            )
        if sum(tisch.values()) != 100:
            shown = " + ".join(str(v) for v in tisch.values())
            raise RuleViolation(
                TISCHPUNKTE, f"Die Tischpunkte ergeben {shown} = {sum(tisch.values())}, nicht 100 (40, 30, 20, 10)"
            )
        expected, places = tischpunkte(spiel)
        wrong = [p for p in ctx.participant_ids if tisch[p] != expected[p]]
        if wrong:
            text = ", ".join(
                f"{ctx.name(p)} ist {places[p]}. mit {signed(spiel[p])}: {expected[p]}, nicht {tisch[p]}" for p in wrong
            )
            raise RuleViolation(TISCHPUNKTE, f"Die Tischpunkte passen nicht zu den Spielpunkten ({text})")
        state.spielpunkte = dict(spiel)
        state.games = ctx.options.spiele
        text = ", ".join(f"{ctx.name(p)} {signed(spiel[p])} / {tisch[p]}" for p in ctx.participant_ids)
        return Outcome(
            spiel, [Explanation(rule=SPIELPUNKTE, text=f"Serie vom Papier (Spielpunkte / Tischpunkte): {text}", points=spiel)]
        )

    def paper_totals(self, sheet: Sheet, score: Score) -> tuple[tuple[str, dict[str, int]], ...]:
        """The Tischliste's foot: Spielpunkte and Tischpunkte per player."""
        result = score.result
        assert isinstance(result, SchafkopfResult)
        return (
            ("Spielpunkte", {p: r.spielpunkte for p, r in result.spieler.items()}),
            ("Tischpunkte", {p: r.tischpunkte for p, r in result.spieler.items()}),
        )

    # -- close -------------------------------------------------------------------------------
    def on_close(self, state: _State, data: CloseData, ctx: Context[SchafkopfOptions]) -> Outcome:
        """Tischpunkte, the 100 check, and the Listenführer's signature."""
        reasons: list[Explanation] = []
        left = ctx.options.spiele - state.games
        if left > 0:
            if not data.override:
                raise RuleViolation(
                    SERIE,
                    f"Die Serie hat {ctx.options.spiele} Spiele, gespielt sind {state.games}: noch {left} offen "
                    "(vorzeitig nur mit 'override' und Grund der Aufsicht)",
                )
            reasons.append(Explanation(rule=SERIE, text=f"Vorzeitig nach {state.games} Spielen abgeschlossen: {data.override}"))
        keeper = self._listenfuehrer(ctx)
        if keeper is not None:
            shown = ctx.name(keeper) if keeper in ctx.participant_ids else keeper
            allowed = {keeper.casefold(), shown.strip().casefold()}
            if data.signed_by.strip().casefold() not in allowed and not data.override:
                raise RuleViolation(
                    UNTERSCHRIFT,
                    f"Das Ergebnis bestätigt der Listenführer {shown} mit seiner Unterschrift, nicht {data.signed_by}",
                )
        tisch, places = tischpunkte(state.spielpunkte)
        ergebnis = {p: tisch[p] + state.spielpunkte[p] for p in ctx.participant_ids}
        pruefe_hundert(ergebnis, {p: ctx.name(p) for p in ctx.participant_ids})
        ranked = sorted(ctx.participant_ids, key=lambda p: places[p])
        reasons.append(
            Explanation(
                rule=TISCHPUNKTE,
                text=", ".join(f"{places[p]}. {ctx.name(p)} {tisch[p]}" for p in ranked),
                points=tisch,
            )
        )
        reasons.append(
            Explanation(
                rule=ERGEBNIS,
                text=", ".join(f"{ctx.name(p)} {tisch[p]} {signed(state.spielpunkte[p])} = {ergebnis[p]}" for p in ranked)
                + f"; zusammen {sum(ergebnis.values())}",
                points=ergebnis,
            )
        )
        total = sum(state.reuegeld.values())
        reasons.append(Explanation(rule=REUEGELD, text=f"vom Listenführer mit der Tischliste an die Kasse: {euro(total)}"))
        reasons.append(Explanation(rule=UNTERSCHRIFT, text=f"Abgeschlossen und unterschrieben von {data.signed_by}"))
        state.closed_by = data.signed_by
        return Outcome({}, reasons)

    @staticmethod
    def _listenfuehrer(ctx: Context[SchafkopfOptions]) -> str | None:
        """``context.written_by`` as a participant id if it names one (by id, name or seat), else as given."""
        keeper = (ctx.sheet.context.written_by or "").strip()
        if not keeper:
            return None
        for p in ctx.sheet.participants:
            if keeper == p.id or (p.seat is not None and keeper == str(p.seat)) or keeper.casefold() == p.name.strip().casefold():
                return p.id
        return keeper

    # -- reading -----------------------------------------------------------------------------
    def status(self, state: _State, ctx: Context[SchafkopfOptions]) -> Status:
        opts = ctx.options
        left = max(opts.spiele - state.games, 0)
        finished = left == 0 or state.closed_by is not None
        messages = []
        if state.closed_by is not None:
            messages.append(f"Serie abgeschlossen, unterschrieben von {state.closed_by}")
        elif left == 0:
            messages.append("Alle Spiele gespielt: der Listenführer zählt zusammen und unterschreibt (Abschluss)")
        else:
            messages.append(f"Spiel {state.games + 1} von {opts.spiele}, noch {left} offen")
            messages.append(f"Es gibt: {ctx.name(state.dealer())}")
        stand = sorted(ctx.participant_ids, key=lambda p: state.spielpunkte[p], reverse=True)
        messages.append(_SPIELPUNKTE + ", ".join(f"{ctx.name(p)} {signed(state.spielpunkte[p])}" for p in stand))
        owed = {p: c for p, c in state.reuegeld.items() if c}
        if owed:
            messages.append("Reuegeld: " + ", ".join(f"{ctx.name(p)} {euro(c)}" for p, c in owed.items()))
        return Status(
            finished=finished,
            dealer=None if finished else state.dealer(),
            messages=tuple(messages),
            details={
                "spiele": opts.spiele,
                "gespielt": state.games,
                "offen": left,
                "spielpunkte": dict(state.spielpunkte),
                "reuegeld_cent": dict(state.reuegeld),
            },
        )

    def result(self, state: _State, ctx: Context[SchafkopfOptions]) -> SchafkopfResult:
        tisch, places = tischpunkte(state.spielpunkte)
        spieler = {
            p: SpielerErgebnis(
                spielpunkte=state.spielpunkte[p],
                platz=places[p],
                tischpunkte=tisch[p],
                ergebnis=tisch[p] + state.spielpunkte[p],
                reuegeld_cent=state.reuegeld[p],
                reuegeld=euro(state.reuegeld[p]),
            )
            for p in ctx.participant_ids
        }
        total = sum(state.reuegeld.values())
        return SchafkopfResult(
            spiele=state.games,
            abgeschlossen=state.closed_by is not None,
            unterschrieben_von=state.closed_by,
            spieler=spieler,
            reuegeld_tisch_cent=total,
            reuegeld_tisch=euro(total),
        )

    def headline(self, sheet: Sheet, score: Score) -> Headline:
        """During the Serie each player's Spielpunkte; once every game is played the Ergebnis
        (Tischpunkte + Spielpunkte), which ranks, "vorläufig" until the sheet is closed."""
        result = score.result
        assert isinstance(result, SchafkopfResult)
        spielpunkte = figure("Spielpunkte", sheet, {p: r.spielpunkte for p, r in result.spieler.items()}, signed=True)
        if not score.status.finished:
            return Headline(figures=(spielpunkte,))
        label = "Ergebnis" if result.abgeschlossen else "Ergebnis (vorläufig)"
        return Headline(figures=(figure(label, sheet, {p: r.ergebnis for p, r in result.spieler.items()}), spielpunkte))

    def status_beside_headline(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Without the ranked "Spielpunkte: …": the headline shows every player's Spielpunkte."""
        return tuple(m for m in score.status.messages if not m.startswith(_SPIELPUNKTE))

    def result_lines(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Per player by place: Spielpunkte, Tischpunkte, Ergebnis and Reuegeld; the table's Reuegeld
        and the 100-point check (Tischpunkte). Before the close the Tischpunkte are provisional."""
        result = score.result
        assert isinstance(result, SchafkopfResult)
        names = {p.id: p.name for p in sheet.participants}
        rows = sorted(result.spieler.items(), key=lambda item: (item[1].platz, -item[1].spielpunkte))
        head = [] if result.abgeschlossen else ["Vorläufig (die Serie ist nicht abgeschlossen):"]
        lines = [
            f"{r.platz}. {names[pid]}: Spielpunkte {r.spielpunkte:+d}, Tischpunkte {r.tischpunkte}, "
            f"Ergebnis {r.ergebnis}, Reuegeld {r.reuegeld}"
            for pid, r in rows
        ]
        total = sum(r.ergebnis for r in result.spieler.values())
        lines.append(f"Summe der Ergebnisse: {total} (muss 100 sein)")
        lines.append(f"Reuegeld am Tisch: {result.reuegeld_tisch}")
        return (*head, *lines)

    # -- tournament ----------------------------------------------------------------------------
    def standings(self, sheets: Sequence[Sheet], *, scores: Sequence[Score] | None = None) -> tuple[Standing, ...]:
        """The tournament standing: the sum of each player's results over his Serien.

        The document gives no tie-break; players on equal results share the rank (the host
        ranks further). Only closed Serien count: Tischpunkte are given "nach jeder Serie", and
        before the Listenführer signs they are provisional. ``scores``, if given, are the
        sheets' scores (``score(sheet)`` each), so a caller who scored them need not again.
        """
        rows: dict[str, Standing] = {}
        for index, sheet in enumerate(sheets):
            result = (scores[index] if scores is not None else self.score(sheet)).result
            assert isinstance(result, SchafkopfResult)
            if not result.abgeschlossen:
                where = ", ".join(
                    part
                    for part in (
                        f"Serie {sheet.context.round}" if sheet.context.round else None,
                        f"Tisch {sheet.context.table}" if sheet.context.table else None,
                    )
                    if part
                )
                players = ", ".join(p.name for p in sheet.participants)
                raise RuleViolation(
                    TISCHPUNKTE,
                    f"Das Blatt {where or sheet.id} ({players}) ist noch nicht abgeschlossen: "
                    "erst die unterschriebene Serie zählt für den Turnierstand",
                )
            for participant in sheet.participants:
                mine = result.spieler[participant.id]
                old = rows.get(participant.key)
                rows[participant.key] = Standing(
                    rank=0,
                    key=participant.key,
                    name=participant.name,
                    serien=(old.serien if old else 0) + 1,
                    ergebnis=(old.ergebnis if old else 0) + mine.ergebnis,
                    spielpunkte=(old.spielpunkte if old else 0) + mine.spielpunkte,
                    tischpunkte=(old.tischpunkte if old else 0) + mine.tischpunkte,
                    reuegeld_cent=(old.reuegeld_cent if old else 0) + mine.reuegeld_cent,
                )
        return rank_by_sum(list(rows.values()), lambda r: r.ergebnis, "Ergebnis")


class Standing(Frozen):
    """One row of the tournament standing: results summed over the Serien."""

    rank: int
    key: str
    name: str
    serien: int
    ergebnis: int
    spielpunkte: int
    tischpunkte: int
    reuegeld_cent: int
    decided_by: str = ""
    """What separates this player from the next: the result, or nothing (tied)."""
