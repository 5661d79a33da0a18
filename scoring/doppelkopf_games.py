"""Doppelkopf's game types and what each one is: the sides (Re, Kontra), the Absagen and their
levels, which types are solos and how many Re players each has, where the Karo-Ass is trump
(Regel 10, 11, 14-19, 23; Hausregel 1.1, II). Plain facts of the two documents, asked by the
ruleset (``doppelkopf.py``), the entry models (``doppelkopf_input.py``), the entry panel and the
statistics.
"""

from __future__ import annotations

from typing import Literal

Seite = Literal["re", "kontra"]
SEITEN: tuple[Seite, Seite] = ("re", "kontra")
Absage = Literal["keine 90", "keine 60", "keine 30", "schwarz"]
Spieltyp = Literal[
    "normal",
    "hochzeit",
    "stille_hochzeit",
    "armut",
    "fleischloser",
    "bubensolo",
    "damensolo",
    "trumpfsolo",
    "farbsolo",
    "koehler",
]

SOLI: frozenset[str] = frozenset({"fleischloser", "bubensolo", "damensolo", "trumpfsolo", "farbsolo", "koehler"})
TYP_NAME = {
    "normal": "Normalspiel",
    "hochzeit": "Hochzeit",
    "stille_hochzeit": "stille Hochzeit",
    "armut": "Armut (Trumpfabgabe)",
    "fleischloser": "Fleischloser",
    "bubensolo": "Bubensolo",
    "damensolo": "Damensolo",
    "trumpfsolo": "Trumpfsolo",
    "farbsolo": "Farbsolo",
    "koehler": "Köhler",
}
#: The levels beyond "keine 120", in order, with the Augen the other side must stay below.
STUFEN: tuple[tuple[Absage, int], ...] = (("keine 90", 90), ("keine 60", 60), ("keine 30", 30), ("schwarz", 0))
RANG: dict[str, int] = {name: i + 1 for i, (name, _) in enumerate(STUFEN)}
SONDER_NAME = {"doppelkopf": "Doppelkopf", "fuchs": "Fuchs gefangen", "karlchen": "Karlchen", "herzstich": "Herzstich"}


def gegner(seite: Seite) -> Seite:
    """The other side: Kontra for Re, Re for Kontra."""
    return "kontra" if seite == "re" else "re"


def ansage_name(seite: Seite) -> str:
    """What the side says when it doubles: "Re" or "Kontra"."""
    return "Re" if seite == "re" else "Kontra"


def re_anzahl(typ: str) -> tuple[int, ...]:
    """How many Re players a game type has (Regel 11, 23): one single player for a solo and a
    stille Hochzeit, two for a normal game and an Armut, one or two for a Hochzeit."""
    if typ in SOLI or typ == "stille_hochzeit":
        return (1,)
    if typ == "hochzeit":
        return (2, 1)
    return (2,)


def ist_solo(typ: str, re_count: int) -> bool:
    """A solo is counted as one (Regel 10, 21): a Hochzeit without partner is a Trumpfsolo (Regel 11)."""
    return typ in SOLI or (typ == "hochzeit" and re_count == 1)


def karo_trumpf(typ: str, farbe: str | None) -> bool:
    """Whether the Karo-Ass is trump, the condition of a Schwein (Hausregel II)."""
    return typ not in ("fleischloser", "bubensolo", "damensolo", "koehler") and farbe in (None, "karo")
