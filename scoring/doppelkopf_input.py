"""What a Doppelkopf entry and the house rules hold: the data of a game (type, sides, Augen,
Ansagen, Sonderpunkte), of a Strafe and of Schmeißen, and the options with each document's
defaults (``TurnierOptions``, ``HausOptions``), with what they allow: the announcements a side may
make (Regel 15, 16), the game types (Regel 3, 10; Hausregel 1.1, I.B) and the most Sonderpunkte a
side can make (Regel 20; Hausregel 4, II). The rules that score them are in ``doppelkopf.py``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .doppelkopf_games import RANG, SONDER_NAME, Absage, Seite, Spieltyp, gegner
from .model import Frozen


# -- the entries ---------------------------------------------------------------------------
class ParteiAnsagen(Frozen):
    """What one side announced (Regel 14-16)."""

    ansage: bool = Field(default=False, description='"Re" bzw. "Kontra" gesagt')
    zurueck: bool = Field(default=False, description='"Einen zurück" erwidert')
    absage: Absage | None = Field(default=None, description="höchste Absage: keine 90, keine 60, keine 30, schwarz")

    @property
    def verdoppelt(self) -> bool:
        return self.ansage or self.zurueck

    @property
    def rang(self) -> int:
        return RANG[self.absage] if self.absage else 0


class Ansagen(Frozen):
    re: ParteiAnsagen = ParteiAnsagen()
    kontra: ParteiAnsagen = ParteiAnsagen()

    def of(self, seite: Seite) -> ParteiAnsagen:
        return self.re if seite == "re" else self.kontra


def kann_zurueck(ansagen: Ansagen, seite: Seite) -> bool:
    """Regel 16: "Einen zurück" is the reply of a side that has not said its own Re/Kontra to the other's."""
    return not ansagen.of(seite).ansage and ansagen.of(gegner(seite)).ansage


def kann_absagen(ansagen: Ansagen, seite: Seite) -> bool:
    """Regel 15: an Absage needs the side's own Re/Kontra (or its "Einen zurück")."""
    return ansagen.of(seite).verdoppelt


class Sonderpunkte(Frozen):
    """Special points one side made (Regel 20 / Hausregel 4)."""

    doppelkopf: int = Field(default=0, ge=0, le=6, description="je 40 Augen, also höchstens 240 / 40 = 6")
    fuchs: int = Field(default=0, ge=0, le=2, description="gefangene Füchse; es gibt nur zwei Füchse")
    karlchen: int = Field(default=0, ge=0, le=2, description="es gibt zwei Kreuz-Buben")
    herzstich: int = Field(default=0, ge=0, le=1, description="höchstens einmal im Spiel")

    @property
    def summe(self) -> int:
        return self.doppelkopf + self.fuchs + self.karlchen + self.herzstich

    def items(self) -> list[str]:
        if not (self.fuchs or self.doppelkopf or self.karlchen or self.herzstich):
            return []  # most games: no Sonderpunkte, nothing to list
        return [
            *[SONDER_NAME["fuchs"]] * self.fuchs,
            *[SONDER_NAME["doppelkopf"]] * self.doppelkopf,
            *[SONDER_NAME["karlchen"]] * self.karlchen,
            *[SONDER_NAME["herzstich"]] * self.herzstich,
        ]


class SonderpunkteBeider(Frozen):
    re: Sonderpunkte = Sonderpunkte()
    kontra: Sonderpunkte = Sonderpunkte()

    def of(self, seite: Seite) -> Sonderpunkte:
        return self.re if seite == "re" else self.kontra


class GameData(Frozen):
    typ: Spieltyp = "normal"
    re: tuple[str, ...] = Field(description="Re-Spieler; beim Solo, stiller Hochzeit, Hochzeit allein: der Einzelspieler")
    kontra: tuple[str, ...] | None = Field(default=None, description="Kontra-Spieler (optional, wird geprüft)")
    augen: int = Field(ge=0, le=240, description="Augen der Re-Partei (0-240)")
    schwarz: Seite | None = Field(default=None, description="die Partei, die keinen Stich gemacht hat")
    ansagen: Ansagen = Ansagen()
    sonderpunkte: SonderpunkteBeider = SonderpunkteBeider()
    schwein: bool = False
    farbe: Literal["kreuz", "pik", "herz", "karo"] | None = None
    geber: str | None = None


class StrafeData(Frozen):
    spieler: str
    grund: str | None = Field(default=None, max_length=200)
    spiel: Literal["fortgefuehrt", "wiederholt"] | None = None


class PapierData(Frozen):
    """A Runde as the paper Tischliste sums it up (``papier``): each player's points."""

    punkte: dict[str, int]


class SchmeissenData(Frozen):
    spieler: str


# -- the options -------------------------------------------------------------------------------
class DoppelkopfOptions(Frozen):
    """Options of the engine; each ruleset sets the defaults of its document."""

    sonderpunkte_nach_verdopplung: bool = Field(
        default=False, description="Sonderpunkte erst nach dem Verdoppeln addieren (Hausregel 6); sonst vorher (Regel 22/25)"
    )
    solo_ansage_punkte: int | None = Field(
        default=None,
        ge=1,
        le=10,
        description="Im Solo wird nicht verdoppelt, jede Re/Kontra-Ansage zählt so viele Punkte (Hausregel 1.2: 2); leer: verdoppeln",
    )
    pflichtsolo: bool = Field(default=True, description="Jeder Spieler muss pro Runde ein Pflichtsolo spielen (Regel 6)")
    strafe_minus: int = Field(default=15, ge=1, le=99, description="Minuspunkte für den Regelverstoß (Regel 24: 15)")
    strafe_plus: int = Field(default=5, ge=1, le=33, description="Pluspunkte für jeden der drei Mitspieler (Regel 24: 5)")
    strafe_beendet_spiel: bool = Field(
        default=False, description="Die Strafe beendet das Spiel und zählt als Spiel (Hausregel 2); sonst kein Spiel (Regel 24)"
    )
    armut: bool = Field(default=False, description="Trumpfabgabe (Armut) erlaubt")
    schmeissen: bool = Field(default=False, description="Schmeißen (min. 5 Könige) erlaubt")
    koehler: bool = Field(default=False, description="Köhler als Solo erlaubt")
    schwein: bool = Field(default=False, description="Schwein (beide Karo-Asse) erlaubt")
    herzstich: bool = Field(default=True, description="Herzstich gibt einen Sonderpunkt (Regel 20)")
    karlchen_gefangen: bool = Field(
        default=False, description="Karlchen auch, wenn der Kreuz-Bube im letzten Stich gefangen wird (Hausregel 4)"
    )
    mit_neunen: bool = Field(default=False, description="Mit Neunen (48 Karten); ohne Neunen heißt 0 Augen schwarz (Regel 2)")

    @model_validator(mode="after")
    def _strafe_nullsumme(self) -> DoppelkopfOptions:
        """Regel 23: every line sums to 0, so the offender pays what the three others get."""
        if self.strafe_minus != 3 * self.strafe_plus:
            raise ValueError(
                f"strafe_minus ({self.strafe_minus}) muss 3 x strafe_plus ({self.strafe_plus}) sein, damit die Summe 0 ist"
            )
        return self


class TurnierOptions(DoppelkopfOptions):
    pass


class HausOptions(DoppelkopfOptions):
    sonderpunkte_nach_verdopplung: bool = Field(
        default=True, description="Sonderpunkte erst nach dem Verdoppeln addieren (Hausregel 6); sonst vorher (Regel 22/25)"
    )
    solo_ansage_punkte: int | None = Field(
        default=2,
        ge=1,
        le=10,
        description="Im Solo wird nicht verdoppelt, jede Re/Kontra-Ansage zählt so viele Punkte (Hausregel 1.2: 2); leer: verdoppeln",
    )
    pflichtsolo: bool = Field(default=False, description="Jeder Spieler muss pro Runde ein Pflichtsolo spielen (Regel 6)")
    strafe_minus: int = Field(default=9, ge=1, le=99, description="Minuspunkte für falsches Bedienen (Hausregel 2: 9)")
    strafe_plus: int = Field(default=3, ge=1, le=33, description="Pluspunkte für jeden der drei Mitspieler (Hausregel 2: 3)")
    strafe_beendet_spiel: bool = Field(
        default=True, description="Die Strafe beendet das Spiel und zählt als Spiel (Hausregel 2); sonst kein Spiel (Regel 24)"
    )
    armut: bool = Field(default=True, description="Trumpfabgabe (Armut) erlaubt (Hausregel I.B)")
    schmeissen: bool = Field(default=True, description="Schmeißen (min. 5 Könige) erlaubt (Hausregel I.A)")
    koehler: bool = Field(default=True, description="Köhler als Solo erlaubt (Hausregel 1.1)")
    schwein: bool = Field(default=True, description="Schwein (beide Karo-Asse) erlaubt (Hausregel II)")
    herzstich: bool = Field(default=False, description="Herzstich gibt einen Sonderpunkt (nicht in Hausregel 4)")
    karlchen_gefangen: bool = Field(
        default=True, description="Karlchen auch, wenn der Kreuz-Bube im letzten Stich gefangen wird (Hausregel 4)"
    )


def spieltypen(options: DoppelkopfOptions) -> tuple[Spieltyp, ...]:
    """The game types the options allow (Regel 3, 10; Hausregel 1.1, I.B), in the panel's order."""
    order: tuple[Spieltyp, ...] = (
        "normal",
        "hochzeit",
        "stille_hochzeit",
        "armut",
        "damensolo",
        "bubensolo",
        "trumpfsolo",
        "farbsolo",
        "fleischloser",
        "koehler",
    )
    return tuple(t for t in order if (t != "armut" or options.armut) and (t != "koehler" or options.koehler))


def sonderpunkte_grenzen(options: DoppelkopfOptions, schwein: bool = False) -> dict[str, int]:
    """The most of each Sonderpunkt one side can make in a game (Regel 20, Hausregel 4, II):
    a Doppelkopf trick has 40 Augen (at most 6 of 240), two Füchse (one with a Schwein),
    one Karlchen (two where the caught Kreuz-Bube counts), one Herzstich where it counts."""
    return {
        "fuchs": 1 if schwein else 2,
        "doppelkopf": 6,
        "karlchen": 2 if options.karlchen_gefangen else 1,
        "herzstich": 1 if options.herzstich else 0,
    }
