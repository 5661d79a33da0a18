"""The Doppelkopf table before a game: the players in the order of dealing (Regel 9), who deals,
who sits out at a 5-player table (Regel 25) and whose Pflichtsolo is still open (Regel 6). What the
entry panel shows; the ruleset works it out from the sheet (``tischlage`` in ``doppelkopf.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Sheet


def sitzordnung(sheet: Sheet) -> tuple[str, ...]:
    """The players in the order of dealing (Regel 9): by seat, those without a seat after, in sheet order."""
    indexed = list(enumerate(sheet.participants))
    indexed.sort(key=lambda ip: (ip[1].seat is None, ip[1].seat or 0, ip[0]))
    return tuple(p.id for _, p in indexed)


@dataclass(frozen=True)
class Tischlage:
    """The table before one game: the seat order, who deals, who sits out, the players of the game
    and whose Pflichtsolo is still open (Regel 1, 6, 9, 25)."""

    order: tuple[str, ...]
    dealer: str
    pflichtsolo_offen: tuple[str, ...] = ()

    @property
    def sitting(self) -> str | None:
        """At a 5-player table the dealer sits out (Regel 25)."""
        return self.dealer if len(self.order) == 5 else None

    @property
    def active(self) -> tuple[str, ...]:
        """The four players of the game, in seat order."""
        return tuple(p for p in self.order if p != self.sitting)

    def mit_geber(self, geber: str | None) -> Tischlage:
        """The table when ``geber`` dealt out of turn (Regel 9); unchanged for ``None``."""
        if geber is None or geber not in self.order:
            return self
        return Tischlage(order=self.order, dealer=geber, pflichtsolo_offen=self.pflichtsolo_offen)
