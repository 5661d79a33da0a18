"""Doppelkopf: the tournament rules and the club's house rules, at 4- and 5-player tables.

Two rulesets share one engine (``_Doppelkopf``) and differ only by their options and the
rule names they cite:

- ``doppelkopf-turnier`` (``../shared/rules/doppelkopf-turnier.txt``): Sonderpunkte are
  counted *before* the doubling (Regel 22, 25), solos are doubled like every game and
  x3 (Regel 23), each player owes a Pflichtsolo per Runde (Regel 6), a Regelverstoß costs
  -15 / +5 each and is no game (Regel 24); no Armut, no Schmeißen (Regel 3).
- ``doppelkopf-haus`` (``../shared/rules/doppelkopf-hausregeln.txt``): Sonderpunkte are
  added *after* the doubling (6. Zählweise), solos are not doubled, each Re/Kontra
  announcement adds 2 (1.2), no Sonderpunkte in a solo; Schmeißen, Armut, Köhler and
  Schwein exist; Verwerfen costs -9 / +3 each and ends the game (2.).

A sheet is one Runde at one table: 4 players (16 games, each deals 4) or 5 (20 games, the
dealer sits out and his line stays 0, Regel 25). Entry kinds:

- ``game``: one game: ``typ``, the ``re`` players (the soloist alone for a solo, stille
  Hochzeit or a Hochzeit without partner), optionally ``kontra`` (checked), ``augen`` of Re
  (0-240), ``schwarz`` (the side without a trick), ``ansagen`` per side (``ansage``: "Re"
  resp. "Kontra", ``zurueck``: "Einen zurück", ``absage``: the highest of "keine 90",
  "keine 60", "keine 30", "schwarz"), ``sonderpunkte`` per side (``doppelkopf``, ``fuchs``,
  ``karlchen``, ``herzstich``), ``schwein``, ``farbe`` (Farbsolo), ``geber`` (only when the
  table dealt out of turn).
- ``strafe``: ``spieler`` broke a rule (falsch bedient): Regel 24 / Hausregel 2.
- ``schmeissen``: ``spieler`` had five Kings; redealt, nothing scored (house rules only).

How the engine reads the documents where they are not explicit (see
``docs/rulesets/doppelkopf-*.md``):

- Winning (Regel 17/18, Hausregel 3): without Absagen Re needs 121, or 120 when only Kontra
  was announced. A side that made an Absage must reach it (keine 90: the others below 90,
  i.e. 151; schwarz: the others without a trick); the other side wins when it fails. If both
  sides made Absagen and both fail, nobody wins (rare; see ``_value``); in a house-rules solo the
  2 points per announcement then go to the side ahead on the net, and a net of 0 stays 0.
- Game points for the winner: "keine 120" 1; "gegen (die Alten)" 1 when Kontra wins (also in
  a solo, example h); per level 90/60/30/schwarz: 1 when the winner reached it or it was
  announced, and the Zusatzpunkt (Regel 19) when it was announced, by either side. This
  gives Fall 1/2 and examples b and e exactly: a failed Absage of the losers is worth
  "keine 90, keine 90" to the winners.
- "Einen zurück" (Regel 16) is the reply of a side that has not said its own Re/Kontra; it
  doubles like Re/Kontra (example e) and counts as that side's announcement for Regel 17; it
  needs the other side's own Re/Kontra.
  A side has one doubling at most; an Absage needs the side's Re/Kontra (or zurück).
- Doubling: x2 per side that announced (so x4 at most); the house rules' "weitere
  Verdopplung, wenn auch die Gegenpartei etwas angesagt hat" is the same count.
- Sonderpunkte are netted: the winner's are added, the loser's subtracted (examples b, d, f);
  a negative result means the winners pay. A schwarz side has no Sonderpunkte.
- A single player (solo, stille Hochzeit, Hochzeit without partner) gets x3, each of the
  three others the single value (Regel 23). A stille Hochzeit is not a solo: Sonderpunkte
  and doubling as in a normal game (example f). A Hochzeit without partner is a Trumpfsolo
  (Regel 11), in both rulesets, and no Pflichtsolo.
- At a 5-player table the dealer sits out; a Strafe goes to the four players of the game,
  never to the sitting player.
- A ``close`` before the last of the 16 (20) games, like one with a Pflichtsolo open, needs the
  organizer's ``override`` note (Regel 1, 6).
- Without Neunen (Regel 2) every trick has at least 8 Augen, so 0 Augen means schwarz and
  1-7 Augen (Re 233-239) are refused.
  The house rules do not say; option ``mit_neunen`` (default off) makes schwarz explicit.
- Herzstich at most once per game (40 cards: four Herz cards besides the Dullen); Karlchen
  at most once, in the house rules up to two for the side that takes the last trick (one
  Kreuz-Bube wins it, the other is caught). Each Doppelkopf needs 40 Augen of its side, a
  caught Fuchs 17 (its trick), two caught Füchse 26 (11 each with Neunen).
- House rules, example A "sechs, sechs, neun, neun, zwölf und 2 Zusatzpunkte" reads as
  keine 60 (announced), keine 60, keine 90 (announced), keine 90, keine 120 and 2 for "Re":
  7, and 5 x2 x3 = 30 under tournament counting ("statt 30"); example B likewise 11 / 84.
- House rules: what the document leaves to "unseren Regeln" (levels, Absagen, Einen zurück,
  stille Hochzeit) counts as in the tournament. Schmeißen: the same dealer deals again, no
  game. A Schwein exists only where the Karo-Ass is trump.
- Vorbehalt order, announcement timing and solo precedence (Regel 5, 7, 13-16; Hausregel
  1.1) decide which game is played; the sheet records the game played and does not check them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel

from .doppelkopf_games import SEITEN, SOLI, STUFEN, TYP_NAME, Seite, ansage_name, gegner, ist_solo, karo_trumpf
from .doppelkopf_input import (
    DoppelkopfOptions,
    GameData,
    HausOptions,
    PapierData,
    SchmeissenData,
    StrafeData,
    TurnierOptions,
    kann_absagen,
    kann_zurueck,
)
from .doppelkopf_table import Tischlage, sitzordnung
from .engine import (
    ChartMarks,
    CloseData,
    Context,
    Explanation,
    Outcome,
    Ruleset,
    RuleViolation,
    Score,
    Status,
    effective_entries,
    rank_by_sum,
)
from .model import CLOSE, Frozen, Sheet
from .numbering import numbering
from .registry import register


# -- results ---------------------------------------------------------------------------------
class SpielerResult(Frozen):
    punkte: int
    spiele: int
    """Games this player played (at a 5-player table not the ones he sat out)."""
    pflichtsolo: int | None
    """Entry number of the player's Pflichtsolo, if played."""
    lustsoli: int
    strafen: int


class DoppelkopfResult(Frozen):
    finished: bool
    spiele: int
    spiele_gesamt: int
    spieler: dict[str, SpielerResult]
    pflichtsolo_offen: tuple[str, ...]


# -- state ------------------------------------------------------------------------------------
@dataclass
class _State:
    order: tuple[str, ...]
    dealer: int = 0
    games: int = 0
    played: dict[str, int] = field(default_factory=dict)
    pflichtsolo: dict[str, int] = field(default_factory=dict)
    lustsoli: dict[str, int] = field(default_factory=dict)
    strafen: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)

    @property
    def dealer_id(self) -> str:
        return self.order[self.dealer]

    def sitting(self) -> str | None:
        return self.dealer_id if len(self.order) == 5 else None

    def active(self) -> tuple[str, ...]:
        sit = self.sitting()
        return tuple(p for p in self.order if p != sit)


@dataclass(frozen=True)
class _Regeln:
    """The rule names each document uses, cited in explanations and refusals."""

    teilnehmer: str
    spiele: str
    augen: str
    verboten: str
    soli: str
    parteien: str
    sieger: str
    ansagen: str
    zaehlweise: str
    sonderpunkte: str
    solo_sonder: str
    verdoppeln: str
    solo_ansagen: str
    einzelspieler: str
    aufschreiben: str
    strafe: str
    sitzend: str
    hochzeit: str
    pflichtsolo: str
    schwein: str
    schmeissen: str
    geber: str


# -- the engine -------------------------------------------------------------------------------
class _Doppelkopf(Ruleset[_State, DoppelkopfOptions]):
    """The one Doppelkopf engine; subclasses set the document, its options and rule names."""

    participant_kind = "player"
    participant_counts = (4, 5)
    zero_sum = True
    round_label = "Runde"
    entry_models: ClassVar[dict[str, type[Any]]] = {
        "game": GameData,
        "strafe": StrafeData,
        "schmeissen": SchmeissenData,
        "papier": PapierData,
    }
    R: ClassVar[_Regeln]

    def check_participants(self, sheet: Sheet) -> None:
        count = len(sheet.participants)
        if count not in self.participant_counts:
            raise RuleViolation(self.R.teilnehmer, f"An einem Doppelkopf-Tisch sitzen 4 oder 5 Spieler, das Blatt hat {count}")

    # -- state ---------------------------------------------------------------------------
    def start(self, ctx: Context[DoppelkopfOptions]) -> _State:
        order = sitzordnung(ctx.sheet)
        zero = {p: 0 for p in order}
        return _State(order=order, played=dict(zero), lustsoli=dict(zero), strafen=dict(zero), totals=dict(zero))

    def counted_kinds(self, sheet: Sheet) -> frozenset[str]:
        """A game counts; a Strafe only where it ends the game and counts as one (Hausregel 2)."""
        options = self.options(sheet.ruleset.options)
        return self.game_kinds | ({"strafe"} if getattr(options, "strafe_beendet_spiel", False) else set())

    def games_total(self, state: _State) -> int:
        """Regel 1: 16 games at a 4-player table, 20 at a 5-player table (each deals 4)."""
        return 4 * len(state.order)

    def _require_open(self, state: _State, ctx: Context[DoppelkopfOptions]) -> None:
        total = self.games_total(state)
        if state.games >= total:
            raise RuleViolation(self.R.spiele, f"Die Runde ist mit {total} Spielen beendet")

    def _player(self, ctx: Context[DoppelkopfOptions], pid: str, what: str) -> str:
        return ctx.require_participant(pid, self.R.teilnehmer, what)

    def _next_game(self, state: _State, active: tuple[str, ...]) -> None:
        state.games += 1
        for p in active:
            state.played[p] += 1
        state.dealer = (state.dealer + 1) % len(state.order)

    def _geber(self, state: _State, geber: str | None, ctx: Context[DoppelkopfOptions]) -> list[Explanation]:
        """An out-of-turn dealer given in the entry; the rotation goes on from him."""
        if geber is None or geber == state.dealer_id:
            return []
        self._player(ctx, geber, "Geber")
        expected = state.dealer_id
        state.dealer = state.order.index(geber)
        return [Explanation(rule=self.R.geber, text=f"Geber war {ctx.name(geber)} statt {ctx.name(expected)}")]

    def _book(self, state: _State, points: dict[str, int]) -> None:
        for pid, value in points.items():
            state.totals[pid] += value

    # -- game ------------------------------------------------------------------------------
    def on_game(self, state: _State, data: GameData, ctx: Context[DoppelkopfOptions]) -> Outcome:
        self._require_open(state, ctx)
        reasons = self._geber(state, data.geber, ctx)
        active = state.active()
        sitting = state.sitting()
        re, kontra = self._parteien(data, active, sitting, ctx)
        solo = self._check_typ(data, re, ctx)
        schwarz = self._check_augen(data, ctx)
        self._check_ansagen(data)
        self._check_sonderpunkte(data, solo, schwarz, ctx)

        typ_text = TYP_NAME[data.typ]
        if data.typ == "hochzeit" and len(re) == 1:
            typ_text = "Hochzeit ohne Partner, gespielt als Trumpfsolo"
        if data.farbe:
            typ_text += f" ({data.farbe.capitalize()})"
        if data.schwein:
            typ_text += " mit Schwein"
        if solo and ctx.options.pflichtsolo and data.typ in SOLI:
            soloist = re[0]
            if soloist in state.pflichtsolo:
                state.lustsoli[soloist] += 1
                typ_text += f", Lustsolo von {ctx.name(soloist)}"
            else:
                state.pflichtsolo[soloist] = ctx.entry
                typ_text += f", Pflichtsolo von {ctx.name(soloist)}"
            rule = self.R.pflichtsolo
        elif (solo or data.typ == "stille_hochzeit") and ctx.options.pflichtsolo:
            typ_text += ", kein Pflichtsolo"
            rule = self.R.hochzeit
        else:
            rule = self.R.soli if solo else self.R.parteien
        names_re = ", ".join(ctx.name(p) for p in re)
        names_kontra = ", ".join(ctx.name(p) for p in kontra)
        sit_text = f"; {ctx.name(sitting)} sitzt aus" if sitting else ""
        reasons.append(
            Explanation(
                rule=rule,
                text=f"{typ_text}: Re {names_re} ({data.augen} Augen) gegen Kontra {names_kontra} ({240 - data.augen} Augen){sit_text}",
            )
        )
        value, steps = self._value(data, solo, schwarz, ctx)
        reasons.extend(steps)
        points = self._points(value, re, kontra, sitting, ctx, reasons)
        self._next_game(state, active)
        self._book(state, points)
        return Outcome(points, reasons)

    def _parteien(
        self, data: GameData, active: tuple[str, ...], sitting: str | None, ctx: Context[DoppelkopfOptions]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Who played Re and Kontra: the four players of the game, each on one side."""
        R = self.R
        for p in data.re + (data.kontra or ()):
            self._player(ctx, p, "Spieler")
        if len(set(data.re)) != len(data.re):
            raise RuleViolation(R.parteien, "Ein Spieler steht doppelt bei Re")
        if sitting is not None and sitting in data.re + (data.kontra or ()):
            raise RuleViolation(R.sitzend, f"{ctx.name(sitting)} gibt und sitzt aus, spielt also nicht mit")
        if not 1 <= len(data.re) <= 2:
            raise RuleViolation(R.parteien, f"Re hat einen oder zwei Spieler, nicht {len(data.re)}")
        kontra = tuple(p for p in active if p not in data.re)
        if data.kontra is not None:
            both = set(data.re) & set(data.kontra)
            if both:
                who = ", ".join(ctx.name(p) for p in sorted(both))
                raise RuleViolation(R.parteien, f"{who} kann nicht zugleich bei Re und bei Kontra spielen")
            if len(set(data.kontra)) != len(data.kontra) or set(data.kontra) != set(kontra):
                raise RuleViolation(
                    R.parteien, f"Kontra sind die übrigen Spieler des Spiels: {', '.join(ctx.name(p) for p in kontra)}"
                )
        return tuple(data.re), kontra

    def _check_typ(self, data: GameData, re: tuple[str, ...], ctx: Context[DoppelkopfOptions]) -> bool:
        """The game type is allowed and has the right number of Re players; True for a solo."""
        R, opts = self.R, ctx.options
        if data.typ == "armut" and not opts.armut:
            raise RuleViolation(R.verboten, "Es gibt keine Trumpfabgabe (Armut)")
        if data.typ == "koehler" and not opts.koehler:
            raise RuleViolation(R.soli, "Einen Köhler gibt es hier nicht")
        single = data.typ in SOLI or data.typ == "stille_hochzeit"
        if single and len(re) != 1:
            raise RuleViolation(R.parteien, f"{TYP_NAME[data.typ]}: Re ist ein einzelner Spieler, nicht {len(re)}")
        if data.typ in ("normal", "armut") and len(re) != 2:
            raise RuleViolation(R.parteien, f"{TYP_NAME[data.typ]}: Re sind zwei Spieler, nicht {len(re)}")
        if data.farbe is not None and data.typ not in ("farbsolo", "trumpfsolo"):
            raise RuleViolation(R.soli, "Eine Trumpffarbe gibt es nur beim Farb- bzw. Trumpfsolo")
        if data.schwein:
            if not opts.schwein:
                raise RuleViolation(R.schwein, "Ein Schwein gibt es hier nicht")
            if not karo_trumpf(data.typ, data.farbe):
                raise RuleViolation(R.schwein, f"Beim {TYP_NAME[data.typ]} ist das Karo-Ass kein Trumpf, also kein Schwein")
        return ist_solo(data.typ, len(re))

    def _check_augen(self, data: GameData, ctx: Context[DoppelkopfOptions]) -> Seite | None:
        """Augen 0-240 and schwarz consistent; returns the side without a trick, if any."""
        R = self.R
        if not 0 <= data.augen <= 240:
            raise RuleViolation(R.augen, f"Re kann 0 bis 240 Augen haben, nicht {data.augen}")
        augen = {"re": data.augen, "kontra": 240 - data.augen}
        if data.schwarz is not None and augen[data.schwarz] != 0:
            raise RuleViolation(
                R.augen, f"{ansage_name(data.schwarz)} ist schwarz, hat also 0 Augen, nicht {augen[data.schwarz]}"
            )
        if not ctx.options.mit_neunen:
            for seite in SEITEN:
                if 0 < augen[seite] < 8:
                    raise RuleViolation(
                        R.augen,
                        f"Ohne Neunen hat jeder Stich mindestens 8 Augen: {ansage_name(seite)} hat 0 oder "
                        f"mindestens 8 Augen, nicht {augen[seite]}",
                    )
        if data.schwarz is None and not ctx.options.mit_neunen:
            for seite in SEITEN:
                if augen[seite] == 0:
                    return seite
        return data.schwarz

    def _check_ansagen(self, data: GameData) -> None:
        R = self.R
        for seite in SEITEN:
            a = data.ansagen.of(seite)
            name = ansage_name(seite)
            if a.ansage and a.zurueck:
                raise RuleViolation(
                    R.ansagen, f'"Einen zurück" ist die Erwiderung einer Partei, die nicht selbst "{name}" gesagt hat'
                )
            if a.zurueck:
                # The reply needs the other side's own "Re"/"Kontra": two replies cannot answer each other.
                other_side = gegner(seite)
                if not kann_zurueck(data.ansagen, seite):
                    raise RuleViolation(
                        R.ansagen,
                        f'"Einen zurück" ({name}) setzt eine Ansage der Gegenpartei voraus ("{ansage_name(other_side)}")',
                    )
            if a.absage and not kann_absagen(data.ansagen, seite):
                raise RuleViolation(R.ansagen, f'Die Absage "{a.absage}" setzt "{name}" (oder "Einen zurück") voraus')

    def _check_sonderpunkte(self, data: GameData, solo: bool, schwarz: Seite | None, ctx: Context[DoppelkopfOptions]) -> None:
        R, opts = self.R, ctx.options
        sp = data.sonderpunkte
        total = sp.re.summe + sp.kontra.summe
        if solo and total:
            raise RuleViolation(R.solo_sonder, "Bei einem Solo gibt es keine Sonderpunkte")
        if not opts.herzstich and sp.re.herzstich + sp.kontra.herzstich:
            raise RuleViolation(R.sonderpunkte, "Einen Sonderpunkt für den Herzstich gibt es hier nicht")
        if sp.re.herzstich + sp.kontra.herzstich > 1:
            raise RuleViolation(R.sonderpunkte, "Einen Herzstich gibt es höchstens einmal im Spiel")
        fuechse = sp.re.fuchs + sp.kontra.fuchs
        if data.schwein and fuechse > 1:
            raise RuleViolation(R.schwein, "Mit Schwein ist nur ein Karo-Ass ein Fuchs; höchstens ein Fuchs kann gefangen werden")
        if fuechse > 2:
            raise RuleViolation(R.sonderpunkte, f"Es gibt nur zwei Füchse, nicht {fuechse}")
        karl = (sp.re.karlchen, sp.kontra.karlchen)
        if opts.karlchen_gefangen:
            if karl[0] and karl[1]:
                raise RuleViolation(R.sonderpunkte, "Karlchen gibt es nur für die Partei, die den letzten Stich macht")
            if sum(karl) > 2:
                raise RuleViolation(R.sonderpunkte, "Es gibt nur zwei Kreuz-Buben, also höchstens zwei Karlchen")
        elif sum(karl) > 1:
            raise RuleViolation(R.sonderpunkte, "Karlchen (letzter Stich mit dem Kreuz-Buben) gibt es höchstens einmal")
        augen = {"re": data.augen, "kontra": 240 - data.augen}
        for seite in SEITEN:
            mine = sp.of(seite)
            if mine.doppelkopf * 40 > augen[seite]:
                raise RuleViolation(
                    R.sonderpunkte,
                    f"{ansage_name(seite)} hat {augen[seite]} Augen, zu wenig für {mine.doppelkopf} Doppelkopf (je 40 Augen)",
                )
            if schwarz == seite and mine.summe:
                raise RuleViolation(R.sonderpunkte, f"{ansage_name(seite)} hat keinen Stich gemacht, also keine Sonderpunkte")
            if mine.fuchs:
                # Each caught Fuchs (11 Augen) lies in a trick of this side; the other cards of such
                # a trick are worth at least a Bube (2) each without Neunen.
                need = 11 * mine.fuchs + (0 if opts.mit_neunen else 2 * (4 - mine.fuchs))
                if augen[seite] < need:
                    what = "einem gefangenen Fuchs" if mine.fuchs == 1 else f"{mine.fuchs} gefangenen Füchsen"
                    raise RuleViolation(
                        R.sonderpunkte,
                        f"{ansage_name(seite)} hat {augen[seite]} Augen; Stiche mit {what} haben mindestens {need} Augen",
                    )

    # -- counting ---------------------------------------------------------------------------
    def _winner(self, data: GameData, schwarz: Seite | None) -> Seite | None:
        """Regel 17/18, Hausregel 3: who won, or None if both sides failed their Absagen."""
        a = data.ansagen
        augen = {"re": data.augen, "kontra": 240 - data.augen}

        def reaches(seite: Seite, rang: int) -> bool:
            name, limit = STUFEN[rang - 1]
            other = gegner(seite)
            return schwarz == other if name == "schwarz" else augen[other] < limit

        re_abs, kontra_abs = a.re.rang, a.kontra.rang
        if re_abs and kontra_abs:
            if reaches("re", re_abs):
                return "re"
            if reaches("kontra", kontra_abs):
                return "kontra"
            return None
        if re_abs:
            return "re" if reaches("re", re_abs) else "kontra"
        if kontra_abs:
            return "kontra" if reaches("kontra", kontra_abs) else "re"
        only_kontra = a.kontra.verdoppelt and not a.re.verdoppelt
        return "re" if augen["re"] >= (120 if only_kontra else 121) else "kontra"

    def _stufen(self, data: GameData, schwarz: Seite | None, seite: Seite, won: bool) -> list[str]:
        """The levels ``seite`` is paid: reached (when it won) or announced, plus the Zusatzpunkt."""
        a = data.ansagen
        other = gegner(seite)
        against = data.augen if other == "re" else 240 - data.augen
        # The highest level announced by either side (the winner's own Absagen count only when it won).
        announced_upto = max(a.of(seite).rang if won else 0, a.of(other).rang)
        items: list[str] = []
        for rang, (name, limit) in enumerate(STUFEN, start=1):
            reached = won and (schwarz == other if name == "schwarz" else against < limit)
            announced = rang <= announced_upto
            if reached or announced:
                items.append(name)
            if announced:
                items.append(name)
        return items

    def _value(
        self, data: GameData, solo: bool, schwarz: Seite | None, ctx: Context[DoppelkopfOptions]
    ) -> tuple[int, list[Explanation]]:
        """The game's value for Re (per Re player, or per opponent of a single Re player).

        The steps, each an explanation: winner; Augenpunkte (Regel 19/25); Sonderpunkte before
        the doubling (Regel 22) or after it (Hausregel 6); doubling per announcing side, or in a
        house-rules solo +2 per announcement instead (Hausregel 1.2).
        """
        R, opts = self.R, ctx.options
        winner = self._winner(data, schwarz)
        steps: list[Explanation] = []
        if winner is None:
            seite: Seite = "re"
            re_items = self._stufen(data, schwarz, "re", won=False)
            kontra_items = self._stufen(data, schwarz, "kontra", won=False)
            steps.append(
                Explanation(
                    rule=R.sieger,
                    text="Beide Parteien haben ihre Absage nicht erfüllt: keine gewinnt; "
                    f"Re erhält {', '.join(re_items) or 'nichts'}, Kontra {', '.join(kontra_items) or 'nichts'}",
                )
            )
            items: list[str] = []
            base = len(re_items) - len(kontra_items)
        else:
            seite = winner
            steps.append(Explanation(rule=R.sieger, text=f"{ansage_name(winner)} gewinnt ({self._need_text(data, winner)})"))
            items = [
                "keine 120",
                *(["gegen (die Alten)"] if winner == "kontra" else []),
                *self._stufen(data, schwarz, winner, won=True),
            ]
            base = len(items)

        own_sp = data.sonderpunkte.of(seite).items()
        other_sp = data.sonderpunkte.of(gegner(seite)).items()
        before = not opts.sonderpunkte_nach_verdopplung
        # Regel 22 lists the winners' own Sonderpunkte in the count line itself.
        inline = before and winner is not None
        value = base + (len(own_sp) if inline else 0)
        if winner is None:
            text = f"{len(re_items)} - {len(kontra_items)} = {_pkt(base)} für Re"
        else:
            text = f"{', '.join(items + (own_sp if inline else []))} = {_pkt(value)}"
        steps.append(Explanation(rule=R.zaehlweise, text=text))

        def add_sonderpunkte(value: int, own: list[str]) -> int:
            if own:
                value += len(own)
                steps.append(Explanation(rule=R.sonderpunkte, text=f"+ {_pkt(len(own))} für {_liste(own)} = {_pkt(value)}"))
            if other_sp:
                value -= len(other_sp)
                steps.append(
                    Explanation(rule=R.sonderpunkte, text=f"- {_pkt(len(other_sp))} für {_liste(other_sp)} = {_pkt(value)}")
                )
            return value

        announcers = self._doubling_order(data)
        if solo and opts.solo_ansage_punkte is not None:
            # Hausregel 1.2: no Sonderpunkte (refused earlier), no doubling, points per announcement.
            suffix = ""
            if winner is None and announcers:
                # Nobody won: the points enlarge the net for the side ahead, as a doubling would;
                # a net of 0 stays 0 (0 x2 = 0).
                if value == 0:
                    steps.append(Explanation(rule=R.solo_ansagen, text="Keine Partei liegt vorn: die Ansagen zählen nichts"))
                    return 0, steps
                seite = "re" if value > 0 else "kontra"
                value = abs(value)
                suffix = f" für {ansage_name(seite)}"
            for s in announcers:
                value += opts.solo_ansage_punkte
                steps.append(
                    Explanation(
                        rule=R.solo_ansagen,
                        text=f'+ {_pkt(opts.solo_ansage_punkte)} für "{self._word(data, s)}" = {_pkt(value)}{suffix}',
                    )
                )
            return self._signed(value, seite), steps

        if before:
            value = add_sonderpunkte(value, [] if inline else own_sp)
        for number, s in enumerate(announcers):
            value *= 2
            again = " nochmals" if number else ""
            steps.append(Explanation(rule=R.verdoppeln, text=f'"{self._word(data, s)}" verdoppelt{again} = {_pkt(value)}'))
        if not before:
            value = add_sonderpunkte(value, own_sp)
        return self._signed(value, seite), steps

    @staticmethod
    def _word(data: GameData, seite: Seite) -> str:
        """What the side said: "Re", "Kontra" or "Einen zurück"."""
        return "Einen zurück" if data.ansagen.of(seite).zurueck else ansage_name(seite)

    def _doubling_order(self, data: GameData) -> list[Seite]:
        """Sides that doubled, the first announcer first (a reply "zurück" comes second)."""
        a = data.ansagen
        re, kontra = a.re.verdoppelt, a.kontra.verdoppelt
        if re and kontra:
            # The reply comes second; with no reply (or two) Re first.
            return ["kontra", "re"] if a.re.zurueck and not a.kontra.zurueck else ["re", "kontra"]
        return ["re"] if re else ["kontra"] if kontra else []

    def _need_text(self, data: GameData, winner: Seite) -> str:
        a = data.ansagen
        augen = {"re": data.augen, "kontra": 240 - data.augen}
        loser = gegner(winner)
        own, other = a.of(winner), a.of(loser)
        if own.absage:
            return f'"{own.absage}" erfüllt mit {augen[winner]} Augen'
        if other.absage:
            return f'"{other.absage}" von {ansage_name(loser)} nicht erfüllt: {augen[loser]} Augen'
        only_kontra = a.kontra.verdoppelt and not a.re.verdoppelt
        if winner == "re":
            return f"{augen['re']} Augen, {'120 reichen, da nur Kontra angesagt' if only_kontra else '121 nötig'}"
        return f"{augen['kontra']} Augen, {'121 nötig, da nur Kontra angesagt' if only_kontra else '120 reichen'}"

    @staticmethod
    def _signed(value: int, seite: Seite) -> int:
        return value if seite == "re" else -value

    def _points(
        self,
        value: int,
        re: tuple[str, ...],
        kontra: tuple[str, ...],
        sitting: str | None,
        ctx: Context[DoppelkopfOptions],
        reasons: list[Explanation],
    ) -> dict[str, int]:
        """Regel 23: plus for the winners, minus for the losers, x3 for a single player."""
        R = self.R
        if len(re) == 1:
            points = {re[0]: 3 * value, **{p: -value for p in kontra}}
            reasons.append(
                Explanation(
                    rule=R.einzelspieler, text=f"3 x {abs(value)} = {3 * abs(value)} für den Einzelspieler {ctx.name(re[0])}"
                )
            )
        else:
            points = {**{p: value for p in re}, **{p: -value for p in kontra}}
        if value == 0:
            text = "Nullspiel: niemand bekommt Punkte"
        else:
            plus = [p for p in points if points[p] > 0]
            minus = [p for p in points if points[p] < 0]
            text = (
                f"{_je(plus, points, 'Pluspunkt')} für {', '.join(ctx.name(p) for p in plus)}; "
                f"{_je(minus, points, 'Minuspunkt')} für {', '.join(ctx.name(p) for p in minus)}"
            )
        if sitting:
            text += f"; {ctx.name(sitting)} sitzt und bekommt nichts"
        reasons.append(Explanation(rule=R.aufschreiben, text=text, points={p: v for p, v in points.items() if v}))
        return points

    # -- other entries ---------------------------------------------------------------------------
    def on_papier(self, state: _State, data: PapierData, ctx: Context[DoppelkopfOptions]) -> Outcome:
        """The whole Runde typed from the paper Tischliste's sums: each player's points.

        Regel 23 (Hausregeln III.): winners are written plus, losers minus, "Die Summe der Punkte
        aller Spieler muss bei jedem Spiel stets 0 sein", so the sums add up to 0 as well (a
        Regelverstoß, -15 and +5 each, too). The Runde counts as played in full (Regel 1), its
        Pflichtsoli as the signed paper says."""
        if state.games:
            raise RuleViolation(self.R.spiele, "Die Summen vom Papier stehen für die ganze Runde; das Blatt hat schon Spiele")
        if set(data.punkte) != set(state.order):
            names = ", ".join(ctx.name(p) for p in state.order)
            raise RuleViolation(self.R.teilnehmer, f"Die Punkte braucht es für genau diese Spieler: {names}")
        punkte = {p: data.punkte[p] for p in state.order}
        total = sum(punkte.values())
        if total != 0:
            shown = ", ".join(f"{ctx.name(p)} {v:+d}" for p, v in punkte.items())
            raise RuleViolation(self.R.aufschreiben, f"Die Punkte ergeben zusammen {total:+d}, nicht 0 ({shown})")
        self._book(state, punkte)
        state.games = self.games_total(state)
        for p in state.order:
            state.played[p] = 16
            state.pflichtsolo.setdefault(p, ctx.entry)
        text = ", ".join(f"{ctx.name(p)} {v:+d}" for p, v in punkte.items())
        return Outcome(punkte, [Explanation(rule=self.R.aufschreiben, text=f"Runde vom Papier: {text}", points=punkte)])

    def on_strafe(self, state: _State, data: StrafeData, ctx: Context[DoppelkopfOptions]) -> Outcome:
        """Regel 24 (-15, +5 each, no game) or Hausregel 2 (-9, +3 each, the game ends)."""
        R, opts = self.R, ctx.options
        self._require_open(state, ctx)
        offender = self._player(ctx, data.spieler, "Spieler")
        sitting = state.sitting()
        if offender == sitting:
            raise RuleViolation(R.sitzend, f"{ctx.name(offender)} sitzt in diesem Spiel aus und spielt nicht mit")
        if opts.strafe_beendet_spiel and data.spiel is not None:
            raise RuleViolation(
                R.strafe, "Mit der Strafe ist das Spiel zu Ende und zählt als Spiel; es wird weder fortgeführt noch wiederholt"
            )
        active = state.active()
        others = [p for p in active if p != offender]
        points = {offender: -opts.strafe_minus, **{p: opts.strafe_plus for p in others}}
        grund = f" ({data.grund})" if data.grund else ""
        reasons = [
            Explanation(
                rule=R.strafe,
                text=f"Regelverstoß von {ctx.name(offender)}{grund}: {opts.strafe_minus} Minuspunkte, "
                f"je {opts.strafe_plus} Pluspunkte für {', '.join(ctx.name(p) for p in others)}",
                points=points,
            )
        ]
        if opts.strafe_beendet_spiel:
            reasons.append(Explanation(rule=R.strafe, text="Das Spiel ist damit zu Ende und zählt als Spiel"))
            self._next_game(state, active)
        else:
            follow = {
                "fortgefuehrt": "Das Spiel wird fortgeführt und normal gewertet",
                "wiederholt": "Das Spiel wird nicht gewertet und wiederholt",
                None: "Das Spiel wird fortgeführt oder wiederholt",
            }[data.spiel]
            reasons.append(Explanation(rule=R.strafe, text=f"Zählt nicht als Spiel. {follow}"))
        if sitting:
            reasons.append(Explanation(rule=R.sitzend, text=f"{ctx.name(sitting)} sitzt und bekommt nichts"))
        state.strafen[offender] += 1
        self._book(state, points)
        return Outcome(points, reasons)

    def on_schmeissen(self, state: _State, data: SchmeissenData, ctx: Context[DoppelkopfOptions]) -> Outcome:
        """Hausregel I.A: five Kings: the cards are thrown in and redealt, nothing is scored."""
        R = self.R
        self._require_open(state, ctx)
        if not ctx.options.schmeissen:
            raise RuleViolation(R.schmeissen, "Es kann nicht geschmissen werden; jedes Spiel wird gespielt")
        player = self._player(ctx, data.spieler, "Spieler")
        if player == state.sitting():
            raise RuleViolation(R.sitzend, f"{ctx.name(player)} sitzt aus und hat keine Karten")
        return Outcome(
            {},
            [
                Explanation(
                    rule=R.schmeissen,
                    text=f"{ctx.name(player)} schmeißt (fünf Könige): {ctx.name(state.dealer_id)} gibt neu, kein Spiel, keine Punkte",
                )
            ],
        )

    def on_close(self, state: _State, data: CloseData, ctx: Context[DoppelkopfOptions]) -> Outcome:
        """Regel 6: the Runde cannot be closed while a Pflichtsolo is open, and Regel 1 (16 or 20
        games) not before its last game, unless an override note is recorded."""
        open_ = self._pflichtsolo_offen(state, ctx)
        total = self.games_total(state)
        text = f"Abgeschlossen und unterschrieben von {data.signed_by}"
        if open_:
            names = ", ".join(ctx.name(p) for p in open_)
            if not data.override:
                raise RuleViolation(
                    self.R.pflichtsolo,
                    f"Pflichtsolo noch offen: {names}. Abschließen nur mit Vermerk der Turnierleitung (override)",
                )
            text += f"; Pflichtsolo offen ({names}), Turnierleitung: {data.override}"
        reasons = [Explanation(rule="Abschluss", text=text)]
        if state.games < total:
            if not data.override:
                raise RuleViolation(
                    self.R.spiele,
                    f"Die Runde hat {total} Spiele, gespielt sind {state.games}: noch {total - state.games} offen. "
                    "Vorzeitig abschließen nur mit Vermerk und Grund (override)",
                )
            reasons.append(
                Explanation(
                    rule=self.R.spiele, text=f"Vorzeitig abgeschlossen nach {state.games} von {total} Spielen: {data.override}"
                )
            )
        return Outcome({}, reasons)

    def tischlage(self, sheet: Sheet, vor: int | None = None) -> Tischlage:
        """The table before entry ``vor`` (before the next game if ``None``): who deals, who sits
        out, whose Pflichtsolo is open. A correction of entry ``vor`` is entered at this table."""
        self._check_ref(sheet)
        options = self.options(sheet.ruleset.options)
        ctx: Context[DoppelkopfOptions] = Context(sheet, options)
        state = self.start(ctx)
        for eff in effective_entries(sheet.entries):
            if vor is not None and eff.number >= vor:
                break
            if eff.kind != CLOSE:
                self._apply(state, eff, Context(sheet, options, eff.number))
        return Tischlage(order=state.order, dealer=state.dealer_id, pflichtsolo_offen=self._pflichtsolo_offen(state, ctx))

    # -- reading -----------------------------------------------------------------------------
    def _pflichtsolo_offen(self, state: _State, ctx: Context[DoppelkopfOptions]) -> tuple[str, ...]:
        if not ctx.options.pflichtsolo:
            return ()
        return tuple(p for p in state.order if p not in state.pflichtsolo)

    def status(self, state: _State, ctx: Context[DoppelkopfOptions]) -> Status:
        total = self.games_total(state)
        complete = state.games >= total
        finished = complete or ctx.closed
        left = total - state.games
        open_ = self._pflichtsolo_offen(state, ctx)
        messages: list[str] = []
        if complete:
            messages.append(f"Runde beendet: {total} Spiele")
        elif ctx.closed:
            messages.append(f"Runde vorzeitig abgeschlossen nach {state.games} von {total} Spielen (Regel 1, mit Vermerk)")
        else:
            messages.append(f"Spiel {state.games + 1} von {total}, noch {_spiele(left)}")
            # one line: at a 5-player table "Es gibt: Anna" above "Anna gibt und sitzt aus" said it twice
            dealer = ctx.name(state.dealer_id)
            messages.append(f"{dealer} gibt und sitzt aus" if state.sitting() else f"Es gibt: {dealer}")
        if ctx.options.pflichtsolo:
            if open_:
                messages.append("Pflichtsolo offen: " + ", ".join(ctx.name(p) for p in open_))
                if not finished and len(open_) > left:
                    messages.append(f"Achtung: {len(open_)} Pflichtsoli offen, aber nur noch {_spiele(left)}")
                elif left == 1 and state.sitting() in open_:
                    # Regel 25: the dealer of the last game sits out and cannot play his solo in it.
                    messages.append(
                        f"Achtung: {ctx.name(state.dealer_id)} gibt das letzte Spiel und sitzt aus, "
                        "kann das Pflichtsolo also nicht mehr spielen"
                    )
            else:
                messages.append("Alle Pflichtsoli gespielt")
        return Status(
            finished=finished,
            dealer=None if finished else state.dealer_id,
            messages=tuple(messages),
            details={
                "spiele": state.games,
                "spiele_gesamt": total,
                "spiele_offen": left,
                "sitzt_aus": None if finished else state.sitting(),
                "pflichtsolo_offen": list(open_),
            },
        )

    def result(self, state: _State, ctx: Context[DoppelkopfOptions]) -> DoppelkopfResult:
        return DoppelkopfResult(
            finished=state.games >= self.games_total(state),
            spiele=state.games,
            spiele_gesamt=self.games_total(state),
            spieler={
                p: SpielerResult(
                    punkte=state.totals[p],
                    spiele=state.played[p],
                    pflichtsolo=state.pflichtsolo.get(p),
                    lustsoli=state.lustsoli[p],
                    strafen=state.strafen[p],
                )
                for p in state.order
            },
            pflichtsolo_offen=self._pflichtsolo_offen(state, ctx),
        )

    def chart_marks(self, options: DoppelkopfOptions, result: BaseModel) -> ChartMarks:
        """The course chart picks out each player's Pflichtsolo (Regel 6)."""
        assert isinstance(result, DoppelkopfResult)
        return ChartMarks(
            games=tuple(
                (player.pflichtsolo, pid, "Pflichtsolo") for pid, player in result.spieler.items() if player.pflichtsolo is not None
            )
        )

    def result_lines(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """The Runde's points per player, best first, with games played, Pflichtsolo and penalties."""
        result = score.result
        assert isinstance(result, DoppelkopfResult)
        names = {p.id: p.name for p in sheet.participants}
        rows = sorted(result.spieler.items(), key=lambda item: -item[1].punkte)
        lines = [f"{result.spiele} von {result.spiele_gesamt} Spielen"]
        called = numbering(sheet.entries, self.counted_kinds(sheet))
        for pid, r in rows:
            extra = []
            if r.pflichtsolo is not None:
                named = called.get(r.pflichtsolo)
                extra.append(f"Pflichtsolo im {named.label}" if named is not None else "Pflichtsolo gespielt")
            if r.lustsoli:
                extra.append(f"{r.lustsoli} Lustsolo" + ("" if r.lustsoli == 1 else "s"))
            if r.strafen:
                extra.append(f"{r.strafen} Strafe" + ("" if r.strafen == 1 else "n"))
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(f"{names[pid]}: {r.punkte:+d} Punkte, {_spiele(r.spiele)}{tail}")
        if result.pflichtsolo_offen:
            lines.append("Pflichtsolo offen: " + ", ".join(names[p] for p in result.pflichtsolo_offen if p in names))
        return tuple(lines)

    # -- tournament ----------------------------------------------------------------------------
    def standings(self, sheets: Sequence[Sheet], *, scores: Sequence[Score] | None = None) -> tuple[Standing, ...]:
        """The tournament standing: each player's points summed over the Runden (Regel 1: three
        Runden, 16 games for every player), each Runde's points kept by its number.

        The document ranks by the points alone and names no tie-break: players on equal points
        share the rank. Only finished Runden count (16 or 20 games, or closed with the
        Turnierleitung's note): an open Runde is refused, its missing games would make a ranking
        that looks final wrong. ``scores``, if given, are ``score(sheet)`` of each sheet."""
        rows: dict[str, Standing] = {}
        for index, sheet in enumerate(sheets):
            score = scores[index] if scores is not None else self.score(sheet)
            result = score.result
            assert isinstance(result, DoppelkopfResult)
            if not score.status.finished:
                where = f"Runde {sheet.context.round}, Tisch {sheet.context.table}" if sheet.context.table else str(sheet.id)
                raise RuleViolation(
                    self.R.spiele,
                    f"Das Blatt {where} ist nicht beendet ({result.spiele} von {result.spiele_gesamt} Spielen): "
                    "erst fertig spielen oder mit Vermerk abschließen",
                )
            for participant in sheet.participants:
                mine = result.spieler[participant.id]
                old = rows.get(participant.key)
                runden = dict(old.runden) if old else {}
                number = sheet.context.round if sheet.context.round is not None else len(runden) + 1
                runden[number] = runden.get(number, 0) + mine.punkte
                rows[participant.key] = Standing(
                    rank=0,
                    key=participant.key,
                    name=participant.name,
                    punkte=(old.punkte if old else 0) + mine.punkte,
                    runden=runden,
                    spiele=(old.spiele if old else 0) + mine.spiele,
                    strafen=(old.strafen if old else 0) + mine.strafen,
                )
        return rank_by_sum(list(rows.values()), lambda r: r.punkte, "Punkte")


class Standing(Frozen):
    """One row of the Doppelkopf tournament standing: points summed over the Runden."""

    rank: int
    key: str
    name: str
    punkte: int
    runden: dict[int, int]
    """Points per Runde, by the Runde's number."""
    spiele: int
    strafen: int
    decided_by: str = ""
    """What separates this player from the next: the points, or nothing (tied)."""


def _spiele(n: int) -> str:
    return "1 Spiel" if n == 1 else f"{n} Spiele"


def _pkt(n: int) -> str:
    return f"{n} Punkt" if abs(n) == 1 else f"{n} Punkte"


def _liste(items: list[str]) -> str:
    quoted = [f'"{i}"' for i in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " und " + quoted[-1]


def _je(players: list[str], points: dict[str, int], word: str) -> str:
    """ "18 Pluspunkte" for one player, "je 6 Minuspunkte" for several, "je 1 Pluspunkt"."""
    value = abs(points[players[0]])
    text = f"{value} {word}" + ("" if value == 1 else "e")
    return text if len(players) == 1 else f"je {text}"


@register
class DoppelkopfTurnier(_Doppelkopf):
    id = "doppelkopf-turnier"
    version = 1
    title = "Doppelkopf (Turnier)"
    source = "doppelkopf-turnier.txt"
    Options = TurnierOptions
    R = _Regeln(
        teilnehmer="Regel 1 (4er- und 5er-Tische)",
        spiele="Regel 1 (16 bzw. 20 Spiele pro Runde)",
        augen="Regel 2 (40 Karten, 240 Augen)",
        verboten="Regel 3 (keine Trumpfabgabe, kein Schmeißen)",
        soli="Regel 10 (Soli)",
        parteien="Parteien (Re/Kontra)",
        sieger="Regel 17/18 (121 Augen zum Sieg, keine 90: 151)",
        ansagen="Regel 14-16 (Ansagen)",
        zaehlweise="Regel 19/25 (Zählweise)",
        sonderpunkte="Regel 20/22 (Sonderpunkte)",
        solo_sonder="Regel 21 (keine Sonderpunkte im Solo)",
        verdoppeln="Regel 25 (Verdoppeln)",
        solo_ansagen="Regel 25 (Verdoppeln)",
        einzelspieler="Regel 23 (Einzelspieler x3)",
        aufschreiben="Regel 23 (Aufschreiben)",
        strafe="Regel 24 (Regelverstoß)",
        sitzend="Regel 25 (sitzender Spieler)",
        hochzeit="Regel 11/12 (Hochzeit ist kein Pflichtsolo)",
        pflichtsolo="Regel 6 (Pflichtsolo)",
        schwein="Schwein (gibt es im Turnier nicht)",
        schmeissen="Regel 3 (kein Schmeißen)",
        geber="Regel 9 (Geberreihenfolge)",
    )
    input_rules = {"augen": R.augen, **dict.fromkeys(("doppelkopf", "fuchs", "karlchen", "herzstich"), R.sonderpunkte)}


@register
class DoppelkopfHaus(_Doppelkopf):
    id = "doppelkopf-haus"
    version = 1
    title = "Doppelkopf (Hausregeln)"
    source = "doppelkopf-hausregeln.txt"
    Options = HausOptions
    R = _Regeln(
        teilnehmer="Tisch (4 oder 5 Spieler)",
        spiele="Runde (16 bzw. 20 Spiele)",
        augen="Augen (240 im Spiel)",
        verboten="I. Vorbehalte",
        soli="1.1 Soli (Trumpf-/Farbsolo, Köhler, Damen, Buben, Fleischlos)",
        parteien="Parteien (Re/Kontra)",
        sieger="3. Wann hat Re oder Kontra gewonnen?",
        ansagen="Ansagen (Re/Kontra, Absagen, Einen zurück)",
        zaehlweise="6. Zählweise",
        sonderpunkte="4. Sonderpunkte",
        solo_sonder="1.2 Zählweise beim Solo (keine Sonderpunkte)",
        verdoppeln="6. Zählweise (Verdopplung)",
        solo_ansagen="1.2 Zählweise beim Solo (Ansagen je 2 Punkte)",
        einzelspieler="1.2 Zählweise beim Solo (x 3)",
        aufschreiben="III. Punkte",
        strafe="2. Verwerfen (falsch bedient)",
        sitzend="5er-Tisch (der Geber sitzt aus)",
        hochzeit="I.C Hochzeit",
        pflichtsolo="Pflichtsolo",
        schwein="II. Schwein",
        schmeissen="I.A Schmeißen",
        geber="Geberreihenfolge",
    )
    input_rules = {"augen": R.augen, **dict.fromkeys(("doppelkopf", "fuchs", "karlchen", "herzstich"), R.sonderpunkte)}
