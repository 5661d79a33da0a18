"""The Doppelkopf entry panel's state: one game, a Strafe or a Schmeißen, as the player taps it.

It asks the ruleset (``scoring.doppelkopf`` and its ``doppelkopf_games``, ``doppelkopf_input``,
``doppelkopf_table``) for every rule fact: who deals and sits out
(``Tischlage``, Regel 25), which game types the options allow, how many Re players a type has,
which announcements and Sonderpunkte are possible, whose Pflichtsolo is open. It holds the taps
and turns them into the raw ``(kind, data)`` of a log entry in the shape of the sheet format
(defaults left out), so a loaded, unchanged entry gives back the same data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import flet as ft

from scoring import Entry, Score, Sheet, effective_entries, find_ruleset
from scoring.doppelkopf_games import SOLI, STUFEN, Seite, ist_solo, karo_trumpf, re_anzahl
from scoring.doppelkopf_input import Ansagen, DoppelkopfOptions, kann_absagen, kann_zurueck, sonderpunkte_grenzen, spieltypen
from scoring.doppelkopf_table import Tischlage, sitzordnung

from .drafts import DraftIncomplete, assign, checker, refusal

Kind = Literal["game", "strafe", "schmeissen"]
SEITEN: tuple[Seite, Seite] = ("re", "kontra")
SEITE_NAME = {"re": "Re", "kontra": "Kontra"}
ABSAGEN: tuple[str, ...] = tuple(name for name, _ in STUFEN)
SONDER: tuple[str, ...] = ("fuchs", "doppelkopf", "karlchen", "herzstich")
COMMON_SONDER = frozenset({"fuchs", "doppelkopf", "karlchen"})
"""The Sonderpunkte of nearly every Runde: always on the panel; the others (Herzstich) one tap down."""
SONDER_LABEL = {"fuchs": "Fuchs", "doppelkopf": "Doppelkopf", "karlchen": "Karlchen", "herzstich": "Herzstich"}
FARBEN: tuple[str, ...] = ("kreuz", "pik", "herz", "karo")
#: Short chip labels of the game types (the ruleset's ``TYP_NAME`` is the long form).
TYP_LABEL = {
    "normal": "Normalspiel",
    "hochzeit": "Hochzeit",
    "stille_hochzeit": "Stille Hochzeit",
    "armut": "Armut",
    "damensolo": "Damensolo",
    "bubensolo": "Bubensolo",
    "trumpfsolo": "Trumpfsolo",
    "farbsolo": "Farbsolo",
    "fleischloser": "Fleischloser",
    "koehler": "Köhler",
}
STRAFE_SPIEL = {"fortgefuehrt": "Spiel fortgeführt", "wiederholt": "Spiel wiederholt"}


@ft.observable
@dataclass
class DoppelkopfDraft:
    """The taps of one Doppelkopf entry on the sheet as it stands (or on a past entry, to correct it)."""

    sheet: Sheet | None = None
    score: Score | None = None
    lage: Tischlage | None = None
    """The table before the game: seat order, dealer, who sits out, open Pflichtsoli."""
    target: int | None = None
    """The entry being corrected (its table is the one before it), or ``None`` for a new game."""
    kind: Kind = "game"
    typ: str = "normal"
    re: tuple[str, ...] = ()
    augen: str = ""
    """Augen of Re as typed (0-240)."""
    ansage: dict[str, bool] = field(default_factory=dict)
    zurueck: dict[str, bool] = field(default_factory=dict)
    absage: dict[str, str | None] = field(default_factory=dict)
    sonder: dict[str, int] = field(default_factory=dict)
    """Sonderpunkte as ``"re.fuchs" -> count``."""
    schwein: bool = False
    farbe: str | None = None
    schwarz: str | None = None
    geber: str | None = None
    kontra: tuple[str, ...] | None = None
    """Kontra as a loaded entry named it (kept while Re is unchanged; otherwise derived by the rules)."""
    spieler: str | None = None
    """Who gets the Strafe, or who throws in (Schmeißen)."""
    grund: str = ""
    spiel: str | None = None
    more_types: bool = False
    """The game types beyond Normalspiel and Hochzeit are shown."""
    more: bool = False
    """The rare events (Strafe, Schmeißen, Geber außer der Reihe, schwarz) are shown."""
    more_calls: bool = False
    """The rare parts of a game are shown: Absagen, "Einen zurück", the Sonderpunkte beyond Fuchs,
    Doko and Karlchen (``RARE_SONDER``). Shown anyway while one of them is chosen."""

    # -- the contract ---------------------------------------------------------------------------
    def reset(self, sheet: Sheet, score: Score) -> None:
        """A new game on ``sheet``: the table as the rules see it now, nothing tapped yet."""
        self._clear(sheet, score)
        # The entry checker the preview asks: kept for this sheet, so that the next saved game
        # advances it by one entry instead of replaying the Runde (bench/app.py).
        checker(sheet)
        # From the score's status, not a replay: a reset follows every saved game.
        order = sitzordnung(sheet)
        details = score.status.details
        self.lage = Tischlage(
            order=order,
            dealer=score.status.dealer or order[0],
            pflichtsolo_offen=tuple(details.get("pflichtsolo_offen", ())),
        )

    def load(self, sheet: Sheet, score: Score, kind: str, data: Mapping[str, Any], entry: int | None = None) -> None:
        """Fill the panel with a past entry, at the table as it was before it (to correct it).

        ``entry`` is its number; without it the first effective entry with this kind and data is meant.
        """
        self._clear(sheet, score)
        self.target = entry if entry is not None else self._find(sheet, kind, data)
        self.lage = self._ruleset().tischlage(sheet, vor=self.target)
        if kind in ("strafe", "schmeissen"):
            self.kind = kind  # type: ignore[assignment]
            self.spieler = data.get("spieler")
            self.grund = data.get("grund") or ""
            self.spiel = data.get("spiel")
            self.more = True
            return
        self.typ = str(data.get("typ", "normal"))
        self.re = tuple(data.get("re", ()))
        self.kontra = tuple(data["kontra"]) if data.get("kontra") is not None else None
        self.augen = str(data["augen"]) if data.get("augen") is not None else ""
        ansagen = data.get("ansagen") or {}
        self.ansage = {s: bool((ansagen.get(s) or {}).get("ansage")) for s in SEITEN}
        self.zurueck = {s: bool((ansagen.get(s) or {}).get("zurueck")) for s in SEITEN}
        self.absage = {s: (ansagen.get(s) or {}).get("absage") for s in SEITEN}
        sonder = data.get("sonderpunkte") or {}
        self.sonder = {f"{s}.{k}": int(v) for s in SEITEN for k, v in (sonder.get(s) or {}).items() if v}
        self.schwein = bool(data.get("schwein"))
        self.farbe = data.get("farbe")
        self.schwarz = data.get("schwarz")
        self.geber = data.get("geber")
        self.more = bool(self.schwarz or self.geber)

    def entry(self) -> tuple[str, dict[str, Any]]:
        """The entry the taps make, in the sheet format's shape; ``DraftIncomplete`` says what is missing."""
        if self.kind in ("strafe", "schmeissen"):
            if self.spieler is None:
                what = "die Strafe bekommt" if self.kind == "strafe" else "schmeißt"
                raise DraftIncomplete(f"Wähle, wer {what}.")
            data: dict[str, Any] = {"spieler": self.spieler}
            if self.kind == "strafe":
                if self.grund.strip():
                    data["grund"] = self.grund.strip()
                if self.spiel:
                    data["spiel"] = self.spiel
            return self.kind, data
        counts = re_anzahl(self.typ)
        if len(self.re) not in counts:
            if self.single:
                raise DraftIncomplete(f"{TYP_LABEL[self.typ]}: Wähle, wer spielt (Re).")
            raise DraftIncomplete("Wähle die zwei Re-Spieler.")
        augen = self.augen.strip()
        if not augen:
            raise DraftIncomplete("Trage die Augen von Re ein (0 bis 240).")
        if not augen.isdigit():
            raise DraftIncomplete(f"Augen von Re: eine ganze Zahl von 0 bis 240, nicht „{augen}“.")
        data = {}
        if self.typ != "normal":
            data["typ"] = self.typ
        if self.farbe is not None:
            data["farbe"] = self.farbe
        data["re"] = list(self.re)
        if self.kontra is not None:
            data["kontra"] = list(self.kontra)
        data["augen"] = int(augen)
        if self.schwarz is not None:
            data["schwarz"] = self.schwarz
        if self.schwein:
            data["schwein"] = True
        ansagen: dict[str, dict[str, Any]] = {}
        for s in SEITEN:
            side: dict[str, Any] = {}
            if self.ansage.get(s):
                side["ansage"] = True
            if self.zurueck.get(s):
                side["zurueck"] = True
            if self.absage.get(s):
                side["absage"] = self.absage[s]
            if side:
                ansagen[s] = side
        if ansagen:
            data["ansagen"] = ansagen
        sonder: dict[str, dict[str, int]] = {}
        for key, count in self.sonder.items():
            if count:
                side_name, name = key.split(".")
                sonder.setdefault(side_name, {})[name] = count
        if sonder:
            data["sonderpunkte"] = sonder
        if self.geber is not None:
            data["geber"] = self.geber
        return "game", data

    # -- what the panel shows ---------------------------------------------------------------------
    @property
    def options(self) -> DoppelkopfOptions:
        assert self.sheet is not None
        opts = self._ruleset().options(self.sheet.ruleset.options)
        assert isinstance(opts, DoppelkopfOptions)
        return opts

    @property
    def table(self) -> Tischlage:
        """The table of this game, with an out-of-turn dealer if one was chosen."""
        assert self.lage is not None
        return self.lage.mit_geber(self.geber)

    @property
    def players(self) -> tuple[str, ...]:
        """The four players of the game, in seat order (at a 5-player table without the dealer)."""
        return self.table.active

    @property
    def sitting(self) -> str | None:
        return self.table.sitting

    @property
    def everyone(self) -> tuple[str, ...]:
        return self.table.order

    def name(self, pid: str) -> str:
        assert self.sheet is not None
        return self.sheet.participant(pid).name

    @property
    def table_text(self) -> str:
        """Who deals and who sits out, as the panel's first line says it."""
        dealer = self.name(self.table.dealer)
        if self.sitting:
            return f"{dealer} gibt und sitzt aus"
        return f"{dealer} gibt"

    @property
    def typen(self) -> tuple[str, ...]:
        """The game types the ruleset's options allow."""
        return spieltypen(self.options)

    @property
    def common_types(self) -> tuple[str, ...]:
        """The types on the panel's first row; the others (soli, stille Hochzeit, Armut) one tap down."""
        return tuple(t for t in self.typen if t in ("normal", "hochzeit"))

    @property
    def other_types(self) -> tuple[str, ...]:
        return tuple(t for t in self.typen if t not in self.common_types)

    @property
    def show_other_types(self) -> bool:
        return self.more_types or self.typ in self.other_types

    def toggle_types(self) -> None:
        self.more_types = not self.more_types

    @property
    def single(self) -> bool:
        """Re is one player (solo, stille Hochzeit)."""
        return re_anzahl(self.typ) == (1,)

    @property
    def solo(self) -> bool:
        """Counted as a solo (no Sonderpunkte, Regel 21)."""
        return ist_solo(self.typ, len(self.re))

    @property
    def re_prompt(self) -> str:
        if self.single:
            return "Wer spielt?" if self.typ in SOLI else "Wer hat die Hochzeit?"
        if self.typ == "hochzeit":
            return "Re: der Hochzeiter und sein Partner (allein: Trumpfsolo)"
        if self.typ == "armut":
            return "Re: der Arme und wer die Trümpfe nimmt"
        return "Wer spielt Re?"

    def solo_note(self, pid: str) -> str | None:
        """ "Pflichtsolo" or "Lustsolo" next to a soloist's name where the ruleset counts Pflichtsoli."""
        if not (self.options.pflichtsolo and self.typ in SOLI and self.lage is not None):
            return None
        return "Pflichtsolo" if pid in self.lage.pflichtsolo_offen else "Lustsolo"

    @property
    def farben(self) -> tuple[str, ...]:
        """The trump suits to choose from (Farbsolo only)."""
        return FARBEN if self.typ == "farbsolo" else ()

    @property
    def schwein_possible(self) -> bool:
        """Hausregel II: a Schwein where the options have one and the Karo-Ass is trump."""
        return self.options.schwein and karo_trumpf(self.typ, self.farbe)

    @property
    def schwarz_explicit(self) -> bool:
        """With Neunen a side with 0 Augen is not schwarz by itself; the table says so."""
        return self.options.mit_neunen

    @property
    def ansagen(self) -> Ansagen:
        return Ansagen.model_validate(
            {s: {"ansage": self.ansage.get(s, False), "zurueck": self.zurueck.get(s, False)} for s in SEITEN}
        )

    def zurueck_possible(self, seite: Seite) -> bool:
        return self.zurueck.get(seite, False) or kann_zurueck(self.ansagen, seite)

    def absage_possible(self, seite: Seite) -> bool:
        return kann_absagen(self.ansagen, seite)

    @property
    def sonder_keys(self) -> tuple[str, ...]:
        """The Sonderpunkte this game can have: none in a solo (Regel 21), the ones the options count."""
        if self.solo:
            return ()
        limits = sonderpunkte_grenzen(self.options, self.schwein)
        return tuple(k for k in SONDER if limits[k])

    def sonder_count(self, seite: Seite, key: str) -> int:
        return self.sonder.get(f"{seite}.{key}", 0)

    @property
    def kinds(self) -> tuple[Kind, ...]:
        """Besides a game: a Strafe always, Schmeißen where the options allow it (Hausregel I.A)."""
        return ("game", "strafe", "schmeissen") if self.options.schmeissen else ("game", "strafe")

    @property
    def strafe_text(self) -> str:
        o = self.options
        rest = "das Spiel ist damit zu Ende" if o.strafe_beendet_spiel else "zählt nicht als Spiel"
        return f"Strafe: −{o.strafe_minus} für den Spieler, je +{o.strafe_plus} für die drei anderen; {rest}"

    @property
    def strafe_spiel_choices(self) -> tuple[str, ...]:
        """Regel 24: after a Strafe the game goes on or is repeated (a note); not where it ends the game."""
        return () if self.options.strafe_beendet_spiel else tuple(STRAFE_SPIEL)

    @property
    def summary(self) -> str:
        """What is tapped so far, in one line the player checks before "Eintragen"."""
        if self.sheet is None:
            return ""
        if self.kind != "game":
            what = "Strafe" if self.kind == "strafe" else "Schmeißen"
            who = f" – {self.name(self.spieler)}" if self.spieler else ""
            grund = f" ({self.grund.strip()})" if self.kind == "strafe" and self.grund.strip() else ""
            spiel = f", {STRAFE_SPIEL[self.spiel]}" if self.kind == "strafe" and self.spiel else ""
            return f"Gewählt: {what}{who}{grund}{spiel}"
        typ = TYP_LABEL[self.typ] + (f" {self.farbe.capitalize()}" if self.farbe else "")
        parts = [typ + (" mit Schwein" if self.schwein else "")]
        if self.re:
            parts.append("Re " + " und ".join(self.name(p) for p in self.re))
        for s in SEITEN:
            said = "Einen zurück" if self.zurueck.get(s) else SEITE_NAME[s] if self.ansage.get(s) else None
            if said:
                parts.append(f"{SEITE_NAME[s]} sagt {said}" + (f", {self.absage[s]}" if self.absage.get(s) else ""))
        for key, count in self.sonder.items():
            if count:
                side, name = key.split(".")
                parts.append(f"{SONDER_LABEL[name]} für {SEITE_NAME[side]}" + (f" ×{count}" if count > 1 else ""))
        if self.augen:
            parts.append(f"{self.augen} Augen")
        if self.geber:
            parts.append(f"Geber {self.name(self.geber)}")
        return "Gewählt: " + ", ".join(parts)

    def preview(self) -> tuple[bool, str] | None:
        """What a new game gives as the ruleset scores it (``True``, points per player), or the rule
        that refuses it (``False``, its message); ``None`` while incomplete or when correcting."""
        try:
            kind, data = self.entry()
        except DraftIncomplete:
            return None
        if self.sheet is None or self.target is not None:
            return None
        problem = refusal(self.sheet, kind, data)
        if problem is not None:
            return False, problem
        with_entry = self.sheet.with_entry(Entry(kind=kind, data=data))
        ahead = checker(self.sheet).advanced(with_entry)
        line = (ahead.score if ahead is not None else self._ruleset().score(with_entry)).lines[-1]
        parts = [f"{self.name(p)} {v:+d}" for p, v in line.points.items() if v]
        return True, "  ".join(parts) if parts else "keine Punkte"

    # -- taps ------------------------------------------------------------------------------------
    def set_kind(self, kind: Kind) -> None:
        self.kind = kind
        if kind == "game":
            self.spieler = None

    def toggle_more(self) -> None:
        self.more = not self.more

    @property
    def rare_sonder_keys(self) -> tuple[str, ...]:
        """The Sonderpunkte this game can have beyond Fuchs, Doko and Karlchen (Herzstich)."""
        return tuple(k for k in self.sonder_keys if k not in COMMON_SONDER)

    @property
    def has_rare_calls(self) -> bool:
        """Whether anything of ``more_calls`` can be chosen in this game now."""
        return bool(self.rare_sonder_keys) or any(self.absage_possible(s) or self.zurueck_possible(s) for s in SEITEN)

    @property
    def show_rare_calls(self) -> bool:
        """The rare parts of the game are open: asked for, or one of them is chosen (never hidden while it counts)."""
        chosen = (
            any(self.absage.get(s) for s in SEITEN)
            or any(self.zurueck.get(s) for s in SEITEN)
            or any(self.sonder.get(f"{s}.{k}", 0) for s in SEITEN for k in self.rare_sonder_keys)
        )
        return self.more_calls or chosen

    def toggle_calls(self) -> None:
        self.more_calls = not self.more_calls

    def set_typ(self, typ: str) -> None:
        """Choose the game type; keep what still fits it (Re players, Sonderpunkte, Schwein)."""
        if typ not in self.typen:
            return
        self.typ = typ
        most = max(re_anzahl(typ))
        if len(self.re) > most:
            self.re = self.re[-most:]
            self.kontra = None
        if typ != "farbsolo":
            self.farbe = None
        if self.schwein and not self.schwein_possible:
            self.schwein = False
        if self.solo and self.sonder:
            self.sonder = {}

    def toggle_re(self, pid: str) -> None:
        """Tap a player: on or off Re; when Re is full, the earliest choice gives way."""
        if pid not in self.players:
            return
        if pid in self.re:
            self.re = tuple(p for p in self.re if p != pid)
        else:
            most = max(re_anzahl(self.typ))
            self.re = (*self.re, pid)[-most:]
        self.kontra = None
        if self.solo and self.sonder:
            self.sonder = {}

    def set_augen(self, text: str) -> None:
        self.augen = text.strip()

    def toggle_ansage(self, seite: Seite) -> None:
        """Re or Kontra said; a "zurück" of the same side gives way (a side doubles once, Regel 16)."""
        on = not self.ansage.get(seite, False)
        self.ansage = {**self.ansage, seite: on}
        if on and self.zurueck.get(seite):
            self.zurueck = {**self.zurueck, seite: False}
        self._drop_impossible()

    def toggle_zurueck(self, seite: Seite) -> None:
        on = not self.zurueck.get(seite, False)
        if on and not kann_zurueck(self.ansagen, seite):
            return
        self.zurueck = {**self.zurueck, seite: on}
        self._drop_impossible()

    def set_absage(self, seite: Seite, absage: str) -> None:
        """Tap an Absage: the highest one counts (the lower are included); tap it again to take it back."""
        if not self.absage_possible(seite):
            return
        self.absage = {**self.absage, seite: None if self.absage.get(seite) == absage else absage}

    def tap_sonder(self, seite: Seite, key: str) -> None:
        """Count a Sonderpunkt up; past the most a side can make it goes back to 0."""
        if key not in self.sonder_keys:
            return
        most = sonderpunkte_grenzen(self.options, self.schwein)[key]
        slot = f"{seite}.{key}"
        count = self.sonder.get(slot, 0) + 1
        self.sonder = {**self.sonder, slot: 0 if count > most else count}

    def untap_sonder(self, seite: Seite, key: str) -> None:
        """Count a Sonderpunkt down (a tap too many is taken back in one tap); not below 0."""
        slot = f"{seite}.{key}"
        count = self.sonder.get(slot, 0)
        if count > 0:
            self.sonder = {**self.sonder, slot: count - 1}

    def toggle_schwein(self) -> None:
        if self.schwein or self.schwein_possible:
            self.schwein = not self.schwein

    def set_farbe(self, farbe: str) -> None:
        if farbe in self.farben:
            self.farbe = None if self.farbe == farbe else farbe
            if self.schwein and not self.schwein_possible:
                self.schwein = False

    def set_schwarz(self, seite: str) -> None:
        self.schwarz = None if self.schwarz == seite else seite

    def set_geber(self, pid: str) -> None:
        """The table dealt out of turn (Regel 9): this player dealt; at a 5-player table he sits out."""
        assert self.lage is not None
        self.geber = None if pid == self.lage.dealer or pid == self.geber else pid
        self.re = tuple(p for p in self.re if p in self.players)
        self.kontra = None

    def set_spieler(self, pid: str) -> None:
        self.spieler = None if self.spieler == pid else pid

    def set_grund(self, text: str) -> None:
        self.grund = text

    def set_spiel(self, spiel: str) -> None:
        self.spiel = None if self.spiel == spiel else spiel

    # -- helpers ---------------------------------------------------------------------------------
    def _ruleset(self) -> Any:
        assert self.sheet is not None
        return find_ruleset(self.sheet.ruleset.id)

    def _clear(self, sheet: Sheet, score: Score) -> None:
        assign(self, sheet=sheet, score=score)  # no O(n) compare with the previous sheet
        self.target = None
        self.kind, self.typ, self.re, self.augen = "game", "normal", (), ""
        self.ansage, self.zurueck, self.absage, self.sonder = {}, {}, {}, {}
        self.schwein, self.farbe, self.schwarz, self.geber, self.kontra = False, None, None, None, None
        self.spieler, self.grund, self.spiel, self.more, self.more_types = None, "", None, False, False
        self.more_calls = False

    def _drop_impossible(self) -> None:
        """Take back what the announcements no longer allow: a zurück without the other's call, an
        Absage without the side's own call."""
        a = self.ansagen
        zurueck: dict[str, bool] = {s: self.zurueck[s] and kann_zurueck(a, s) for s in SEITEN if s in self.zurueck}
        if zurueck != self.zurueck:
            self.zurueck = zurueck
            a = self.ansagen
        absage: dict[str, str | None] = {s: self.absage[s] if kann_absagen(a, s) else None for s in SEITEN if s in self.absage}
        if absage != self.absage:
            self.absage = absage

    @staticmethod
    def _find(sheet: Sheet, kind: str, data: Mapping[str, Any]) -> int | None:
        for eff in effective_entries(sheet.entries):
            if eff.kind == kind and dict(eff.data) == dict(data):
                return eff.number
        return None
