"""Watten, team tournament (``../shared/rules/watten-turnier.txt``), ruleset ``watten-turnier``.

A sheet is one Durchgang at one table: two teams play ``bummerl_count`` Bummerl (Regel 1: 3)
to ``target`` points (Regel 1: 15). Each entry is one deal:

- ``game``: a game played to the end: ``winner`` and ``value`` (2, raised by one per
  Ausschaffen: 3, 4, ...). Against a gspannt team the value is 3 (Regel 8), which is also
  the default; a gspannt team's own win counts 2, or 3 when the opponents had raised.
- ``gehen``: the gspannt ``team`` goes after the announcement; the opponents get 2 (Regel 8).
- ``ausschaffen``: the gspannt ``team`` raised itself, which it may not; the opponents
  get 2 (Regel 8).
- ``vergeben``: a misdeal; the dealer's opponents get 2 (Regel 6). The engine knows who
  deals; ``dealer`` may name another team if the table dealt out of turn.
- ``betrug``: ``cheater`` caught cheating (Bscheißn) and the parties agreed: the open
  Bummerl is scored 30:0 against the cheater (Regel 10).
- ``zeitlimit``: the time limit ended the Durchgang: the open Bummerl ends with the points
  written and no winner, both teams get their written points (Regel 11).
- ``close``: sign the sheet. Before the Durchgang is over only with the Turnierleitung's
  note (``override``); the open Bummerl then ends as at the time limit (Regel 11).

How this ruleset reads the document where it is not explicit:

- A team is gspannt with ``target - 2`` or ``target - 1`` points (Regel 8: 13 or 14 of 15).
  When both are gspannt, either side winning a played game is "the opponents of a gspannt
  team" and gets 3; either may go, giving the other 2.
- Dealing alternates between the teams with every deal, Vergeben and Gehen included. The
  first Bummerl of a Durchgang is dealt by the team with the higher Startnummer, every
  later one by the winner of the Bummerl before (Regel 3); after a Bummerl without winner
  (impossible except by time limit) the deal simply passes on. Without Startnummern the
  first team listed deals first.
- Bummerl score (Regel 12): the winner gets ``2 * target`` (30) minus the loser's points,
  the loser its own points; a Bummerl ended by the time limit gives each team its written
  points (Regel 11); a Bummerl lost by cheating is 30:0 (Regel 10).
- ``totals`` are the points written over the whole Durchgang; ``stand`` on each line is the
  open Bummerl; the tournament counts the Bummerl scores in ``result``.
- Ranking (Regel 13, see ``standings``): Bummerl won; then the better Punkteverhältnis,
  read as the quotient of Bummerl-score points scored to points conceded (a team that
  conceded none is best); then more points scored; then the Bummerl won in the direct
  encounters among the tied teams. Teams that are still level, or tied teams of which some
  never met, need an Entscheidungsbummerl.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field

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
from .model import Frozen, Sheet
from .registry import register

R1 = "Regel 1 (3 Bummerl bis 15)"
R3 = "Regel 3 (erstes Spiel)"
R6 = "Regel 6 (Vergeben)"
R8 = "Regel 8 (gspannt)"
R10 = "Regel 10 (Bscheißn)"
R11 = "Regel 11 (Zeitlimit)"
R12 = "Regel 12 (Wertung)"
R13 = "Regel 13 (Sieger)"
_GEWONNEN = "Bummerl gewonnen "
"""The status line of the Bummerl won (the sheet shows them on top instead: ``status_beside_headline``)."""
SPIELWERT = "Spielwert (2, je Ausschaffen +1)"


class WattenOptions(Frozen):
    target: int = Field(default=15, ge=5, le=50, description="Ein Bummerl geht bis zu diesen Punkten (Regel 1)")
    bummerl_count: int = Field(default=3, ge=1, le=9, description="Bummerl pro Durchgang (Regel 1)")


class GameData(Frozen):
    winner: str
    value: int | None = Field(
        default=None,
        ge=2,
        le=50,
        description="2, 3, 4, ...; leer: 2, gegen Gspannte 3. Höchstens 50: kein Spiel ist mehr wert als ein Bummerl (Regel 1, target bis 50)",
    )


class TeamData(Frozen):
    team: str


class VergebenData(Frozen):
    dealer: str | None = None


class BetrugData(Frozen):
    cheater: str


class ZeitlimitData(Frozen):
    pass


class PapierData(Frozen):
    """A Bummerl as the paper Tischliste shows it at its end: each team's stand (``papier``)."""

    stand: dict[str, int]
    zeitlimit: bool = False
    """The Durchgang ended by the time limit in this Bummerl, nobody reached the target (Regel 11)."""


class BummerlResult(Frozen):
    number: int
    stand: dict[str, int]
    winner: str | None
    ended_by: Literal["ziel", "betrug", "zeitlimit"]
    score: dict[str, int]
    """Bummerl score (Wertung) per team."""


class TeamResult(Frozen):
    bummerl_won: int
    points: int
    """Bummerl-score points scored (Regel 12)."""
    points_against: int
    written: int
    """Points written over the Durchgang."""


class WattenResult(Frozen):
    finished: bool
    teams: dict[str, TeamResult]
    bummerl: tuple[BummerlResult, ...]


@dataclass
class _State:
    teams: tuple[str, str]
    stand: dict[str, int]
    dealer: str
    bummerl: list[BummerlResult] = field(default_factory=list)
    games_in_bummerl: int = 0
    ended_by_time: bool = False

    def other(self, team: str) -> str:
        return self.teams[1] if team == self.teams[0] else self.teams[0]


@register
class WattenTurnier(Ruleset[_State, WattenOptions]):
    id = "watten-turnier"
    version = 1
    title = "Watten (Turnier)"
    source = "watten-turnier.txt"
    participant_kind = "team"
    participant_counts = (2,)
    zero_sum = False
    round_label = "Durchgang"
    team_size = 2
    Options = WattenOptions
    input_rules = {"value": SPIELWERT}
    game_kinds = frozenset({"game", "gehen", "ausschaffen", "vergeben"})
    """Every kind that writes points and passes the deal is a game the table counts (Regel 8)."""
    entry_models = {
        "game": GameData,
        "gehen": TeamData,
        "ausschaffen": TeamData,
        "vergeben": VergebenData,
        "betrug": BetrugData,
        "zeitlimit": ZeitlimitData,
        "papier": PapierData,
    }

    def check_participants(self, sheet: Sheet) -> None:
        """Two teams; the Startnummer (else the name) is a team's identity for dealing first
        (Regel 3) and across Durchgänge (Regel 13), so it must differ."""
        super().check_participants(sheet)
        a, b = sheet.participants
        if a.start_number is not None and a.start_number == b.start_number:
            raise RuleViolation("Teilnehmer", f"Beide Mannschaften haben die Startnummer {a.start_number}")
        if a.start_number is None and b.start_number is None and a.name.strip().casefold() == b.name.strip().casefold():
            raise RuleViolation("Teilnehmer", f"Beide Mannschaften heißen {a.name.strip()} (gleicher Name ohne Startnummer)")

    # -- state -----------------------------------------------------------------------------
    def start(self, ctx: Context[WattenOptions]) -> _State:
        a, b = ctx.sheet.participants
        first = b if (b.start_number or 0) > (a.start_number or 0) else a
        return _State(teams=(a.id, b.id), stand={a.id: 0, b.id: 0}, dealer=first.id)

    def _finished(self, state: _State, ctx: Context[WattenOptions]) -> bool:
        return state.ended_by_time or len(state.bummerl) >= ctx.options.bummerl_count

    def _require_open(self, state: _State, ctx: Context[WattenOptions]) -> None:
        if state.ended_by_time:
            raise RuleViolation(R11, "Der Durchgang wurde durch das Zeitlimit beendet")
        if self._finished(state, ctx):
            raise RuleViolation(R1, f"Der Durchgang ist mit {ctx.options.bummerl_count} Bummerl beendet")

    @staticmethod
    def gspannt_zone(options: WattenOptions) -> tuple[int, int]:
        """Regel 8: the points at which a team is gspannt, lowest and highest (13 and 14 of 15)."""
        return options.target - 2, options.target - 1

    def gspannt(self, state: _State, team: str, options: WattenOptions) -> bool:
        """Regel 8: gspannt with 13 or 14 points (``target - 2`` or ``target - 1``)."""
        low, high = self.gspannt_zone(options)
        return low <= state.stand[team] <= high

    def chart_marks(self, options: WattenOptions, result: BaseModel) -> ChartMarks:
        """The course chart: the target that ends a Bummerl (Regel 1) and the gspannt zone (Regel 8)."""
        low, high = self.gspannt_zone(options)
        return ChartMarks(
            levels=((options.target, f"Bummerl bei {options.target}"),),
            bands=((low, high, f"gspannt ({low}/{high})"),),
        )

    def stage(self, state: _State) -> int:
        """Bummerl closed so far (Regel 1)."""
        return len(state.bummerl)

    def _team(self, ctx: Context[WattenOptions], team: str, what: str) -> str:
        return ctx.require_participant(team, "Teilnehmer", what)

    # -- writing points --------------------------------------------------------------------
    def _write(self, state: _State, ctx: Context[WattenOptions], team: str, points: int, reasons: list[Explanation]) -> Outcome:
        """Give ``team`` its points, pass the deal on, and close the Bummerl at the target."""
        state.stand[team] += points
        state.games_in_bummerl += 1
        stand = dict(state.stand)
        state.dealer = state.other(state.dealer)
        if state.stand[team] >= ctx.options.target:
            reasons.append(self._close_bummerl(state, ctx, winner=team, ended_by="ziel"))
        return Outcome({team: points}, reasons, stand)

    def _close_bummerl(
        self, state: _State, ctx: Context[WattenOptions], winner: str | None, ended_by: Literal["ziel", "betrug", "zeitlimit"]
    ) -> Explanation:
        number = len(state.bummerl) + 1
        base = 2 * ctx.options.target
        if ended_by == "betrug":
            assert winner is not None
            score = {winner: base, state.other(winner): 0}
            text = f"Bummerl {number} wird {base}:0 für {ctx.name(winner)} gewertet"
            rule = R10
        elif winner is None:
            score = dict(state.stand)
            text = f"Bummerl {number} endet ohne Sieger beim Stand {self._stand_text(state, ctx)}; beide erhalten ihre Punkte"
            rule = R11
        else:
            loser = state.other(winner)
            score = {winner: base - state.stand[loser], loser: state.stand[loser]}
            text = (
                f"Bummerl {number} gewinnt {ctx.name(winner)} {state.stand[winner]}:{state.stand[loser]}: "
                f"{base}-{state.stand[loser]} = {score[winner]} für {ctx.name(winner)}, {score[loser]} für {ctx.name(loser)}"
            )
            rule = R12
        score = {t: score[t] for t in state.teams}
        assert winner is None or sum(score.values()) == base, f"a won Bummerl scores {base} in all: {score}"
        state.bummerl.append(BummerlResult(number=number, stand=dict(state.stand), winner=winner, ended_by=ended_by, score=score))
        state.stand = {t: 0 for t in state.teams}
        state.games_in_bummerl = 0
        if winner is not None:
            state.dealer = winner
            if not self._finished(state, ctx):
                text += f"; {ctx.name(winner)} gibt das erste Spiel des nächsten Bummerl (Regel 3)"
        return Explanation(rule=rule, text=text, points=score)

    def _stand_text(self, state: _State, ctx: Context[WattenOptions]) -> str:
        a, b = state.teams
        return f"{state.stand[a]}:{state.stand[b]}"

    # -- entries -----------------------------------------------------------------------------
    def on_game(self, state: _State, data: GameData, ctx: Context[WattenOptions]) -> Outcome:
        self._require_open(state, ctx)
        winner = self._team(ctx, data.winner, "Sieger")
        loser = state.other(winner)
        opts = ctx.options
        if self.gspannt(state, loser, opts):
            value = 3 if data.value is None else data.value
            if value >= 4:
                raise RuleViolation(R8, f"{ctx.name(loser)} ist gspannt und kann nicht mehr auf {value} ausgeschafft werden")
            if value != 3:
                hint = f"; ist {ctx.name(loser)} gegangen, das als 'gehen' eintragen (dann 2)" if value == 2 else ""
                raise RuleViolation(
                    R8, f"Gegen die gspannte Mannschaft {ctx.name(loser)} zählt ein gewonnenes Spiel 3, nicht {value}{hint}"
                )
            reason = Explanation(
                rule=R8,
                text=f"{ctx.name(loser)} ist gspannt und ging nicht: {ctx.name(winner)} gewinnt und schreibt 3",
                points={winner: 3},
            )
        elif self.gspannt(state, winner, opts):
            value = 2 if data.value is None else data.value
            if value >= 4:
                raise RuleViolation(R8, f"{ctx.name(winner)} ist gspannt und kann nicht auf {value} ausgeschafft werden")
            if value < 2:
                raise RuleViolation(SPIELWERT, f"Ein Spiel zählt mindestens 2, nicht {value}")
            reason = Explanation(
                rule=SPIELWERT, text=f"{ctx.name(winner)} (gspannt) gewinnt das Spiel zu {value}", points={winner: value}
            )
        else:
            value = 2 if data.value is None else data.value
            if value < 2:
                raise RuleViolation(SPIELWERT, f"Ein Spiel zählt mindestens 2, nicht {value}")
            raised = f", {value - 2}x ausgeschafft" if value > 2 else ""
            reason = Explanation(
                rule=SPIELWERT, text=f"{ctx.name(winner)} gewinnt das Spiel zu {value}{raised}", points={winner: value}
            )
        return self._write(state, ctx, winner, value, [reason])

    def on_gehen(self, state: _State, data: TeamData, ctx: Context[WattenOptions]) -> Outcome:
        """Regel 8: the gspannt team goes after the announcement; the opponents get 2."""
        return self._gspannt_gives_2(
            state,
            data.team,
            ctx,
            "Gehen darf nur eine gspannte Mannschaft (sonst als Spiel der Gegner zum Wert vor dem Ausschaffen eintragen)",
            "geht",
        )

    def on_ausschaffen(self, state: _State, data: TeamData, ctx: Context[WattenOptions]) -> Outcome:
        """Regel 8: a gspannt team may not raise itself; if it does, the opponents write 2."""
        return self._gspannt_gives_2(
            state, data.team, ctx, "Nur eine gspannte Mannschaft kann unerlaubt ausschaffen", "hat selbst ausgeschafft"
        )

    def _gspannt_gives_2(self, state: _State, team_id: str, ctx: Context[WattenOptions], refusal: str, what: str) -> Outcome:
        self._require_open(state, ctx)
        team = self._team(ctx, team_id, "Mannschaft")
        if not self.gspannt(state, team, ctx.options):
            raise RuleViolation(R8, f"{refusal}; {ctx.name(team)} hat {state.stand[team]} und ist nicht gspannt")
        other = state.other(team)
        reason = Explanation(
            rule=R8, text=f"{ctx.name(team)} ist gspannt und {what}: {ctx.name(other)} erhält 2", points={other: 2}
        )
        return self._write(state, ctx, other, 2, [reason])

    def on_vergeben(self, state: _State, data: VergebenData, ctx: Context[WattenOptions]) -> Outcome:
        self._require_open(state, ctx)
        reasons = []
        if data.dealer is not None:
            dealer = self._team(ctx, data.dealer, "Geber")
            if dealer != state.dealer:
                reasons.append(Explanation(rule=R3, text=f"Geber war {ctx.name(dealer)} statt {ctx.name(state.dealer)}"))
                state.dealer = dealer
        dealer = state.dealer
        other = state.other(dealer)
        reasons.append(
            Explanation(rule=R6, text=f"{ctx.name(dealer)} hat vergeben: {ctx.name(other)} erhält 2", points={other: 2})
        )
        return self._write(state, ctx, other, 2, reasons)

    def on_betrug(self, state: _State, data: BetrugData, ctx: Context[WattenOptions]) -> Outcome:
        self._require_open(state, ctx)
        cheater = self._team(ctx, data.cheater, "Betrüger")
        stand = dict(state.stand)
        reason = Explanation(rule=R10, text=f"{ctx.name(cheater)} beim Bscheißn erwischt")
        closing = self._close_bummerl(state, ctx, winner=state.other(cheater), ended_by="betrug")
        return Outcome({}, [reason, closing], stand)

    def on_zeitlimit(self, state: _State, data: ZeitlimitData, ctx: Context[WattenOptions]) -> Outcome:
        self._require_open(state, ctx)
        stand = dict(state.stand)
        reasons = [Explanation(rule=R11, text="Zeitlimit erreicht: der Durchgang ist beendet")]
        if state.games_in_bummerl:
            reasons.append(self._close_bummerl(state, ctx, winner=None, ended_by="zeitlimit"))
        state.ended_by_time = True
        return Outcome({}, reasons, stand)

    def on_papier(self, state: _State, data: PapierData, ctx: Context[WattenOptions]) -> Outcome:
        """A whole Bummerl typed from the paper Tischliste: its end stand (``papier``).

        Regel 1: a Bummerl goes to ``target`` (15): one team has 15 or more, the other less. Only a
        Bummerl ended by the time limit (Regel 11, ``zeitlimit``) ends below it, with no winner, and
        ends the Durchgang. Scored as the games would be (Regel 12: 30 minus the loser's points)."""
        self._require_open(state, ctx)
        if state.games_in_bummerl:
            raise RuleViolation(R1, "Ein Bummerl vom Papier beginnt ein neues Bummerl; das offene hat schon Spiele")
        target = ctx.options.target
        a, b = state.teams
        if set(data.stand) != {a, b}:
            raise RuleViolation(R1, f"Der Stand braucht genau die zwei Mannschaften {ctx.name(a)} und {ctx.name(b)}")
        number = len(state.bummerl) + 1
        stand = {a: data.stand[a], b: data.stand[b]}
        text = f"{ctx.name(a)} {stand[a]} : {stand[b]} {ctx.name(b)}"
        if any(v < 0 for v in stand.values()):
            raise RuleViolation(R1, f"Bummerl {number}: ein Stand ist nie negativ ({text})")
        winners = [t for t in state.teams if stand[t] >= target]
        if data.zeitlimit:
            if winners:
                raise RuleViolation(R11, f"Bummerl {number}: beim Zeitlimit hat keine Mannschaft {target} erreicht ({text})")
        elif len(winners) != 1:
            how = "beide Mannschaften haben" if winners else "keine Mannschaft hat"
            raise RuleViolation(
                R1, f"Bummerl {number}: ein Bummerl endet, sobald eine Mannschaft {target} oder mehr hat; {how} {target} ({text})"
            )
        elif stand[winners[0]] > target - 3 + 50 or stand[state.other(winners[0])] > target - 1:
            raise RuleViolation(R1, f"Bummerl {number}: {text} ist kein Endstand eines Bummerl bis {target}")
        state.stand = stand
        state.games_in_bummerl = 1
        reasons = [Explanation(rule=R1, text=f"Bummerl {number} vom Papier: {text}", points=dict(stand))]
        if data.zeitlimit:
            reasons.append(self._close_bummerl(state, ctx, winner=None, ended_by="zeitlimit"))
            state.ended_by_time = True
        else:
            reasons.append(self._close_bummerl(state, ctx, winner=winners[0], ended_by="ziel"))
        return Outcome(stand, reasons, stand)

    def paper_totals(self, sheet: Sheet, score: Score) -> tuple[tuple[str, dict[str, int]], ...]:
        """Each Bummerl's end stand, as the Tischliste writes it (Regel 5, 12)."""
        result = score.result
        assert isinstance(result, WattenResult)
        return tuple((f"Bummerl {b.number}", dict(b.stand)) for b in result.bummerl)

    def on_close(self, state: _State, data: CloseData, ctx: Context[WattenOptions]) -> Outcome:
        """Close and sign. Before the Durchgang is over (Regel 1) only the Turnierleitung may end
        it (Regel 11): that needs its note (``override``), and the open Bummerl then ends with the
        written points and no winner, as at the time limit."""
        reasons = list(super().on_close(state, data, ctx).explanation)
        stand = None
        if not self._finished(state, ctx):
            number = len(state.bummerl) + 1
            if data.override is None:
                raise RuleViolation(
                    R11,
                    f"Der Durchgang ist nicht beendet (Bummerl {number} von {ctx.options.bummerl_count}, "
                    f"Stand {self._stand_text(state, ctx)}); vorzeitig abschließen nur mit Vermerk der "
                    "Turnierleitung (override) oder nach dem Eintrag 'zeitlimit'",
                )
            stand = dict(state.stand)
            reasons.append(Explanation(rule=R11, text=f"Vorzeitig abgeschlossen, Vermerk der Turnierleitung: {data.override}"))
            if state.games_in_bummerl:
                reasons.append(self._close_bummerl(state, ctx, winner=None, ended_by="zeitlimit"))
            state.ended_by_time = True
        return Outcome({}, reasons, stand)

    # -- reading -----------------------------------------------------------------------------
    def status(self, state: _State, ctx: Context[WattenOptions]) -> Status:
        opts = ctx.options
        won = self._bummerl_won(state)
        finished = self._finished(state, ctx)
        gspannt = [t for t in state.teams if self.gspannt(state, t, opts)]
        messages: list[str] = []
        if finished:
            messages.append("Durchgang beendet" + (" (Zeitlimit)" if state.ended_by_time else ""))
        else:
            number = len(state.bummerl) + 1
            messages.append(f"Bummerl {number} von {opts.bummerl_count}, Stand {self._stand_text(state, ctx)}")
            messages.extend(f"{ctx.name(t)} ist gspannt" for t in gspannt)
            messages.append(f"Es gibt: {ctx.name(state.dealer)}")
        a, b = state.teams
        messages.append(f"{_GEWONNEN}{ctx.name(a)} {won[a]} : {won[b]} {ctx.name(b)}")
        return Status(
            finished=finished,
            dealer=None if finished else state.dealer,
            messages=tuple(messages),
            details={
                "bummerl": len(state.bummerl) + (0 if finished else 1),
                "bummerl_count": opts.bummerl_count,
                "stand": dict(state.stand),
                "gspannt": gspannt,
                "bummerl_won": won,
                "time_limit": state.ended_by_time,
            },
        )

    def _bummerl_won(self, state: _State) -> dict[str, int]:
        return {t: sum(1 for b in state.bummerl if b.winner == t) for t in state.teams}

    def result(self, state: _State, ctx: Context[WattenOptions]) -> WattenResult:
        won = self._bummerl_won(state)
        written = {t: sum(b.stand[t] for b in state.bummerl) + state.stand[t] for t in state.teams}
        teams = {}
        for t in state.teams:
            points = sum(b.score[t] for b in state.bummerl)
            against = sum(b.score[state.other(t)] for b in state.bummerl)
            teams[t] = TeamResult(bummerl_won=won[t], points=points, points_against=against, written=written[t])
        return WattenResult(finished=self._finished(state, ctx), teams=teams, bummerl=tuple(state.bummerl))

    def result_lines(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Each Bummerl with its score (Regel 12) and the Durchgang's sum, as the Tischliste shows them."""
        result = score.result
        assert isinstance(result, WattenResult)
        names = {p.id: p.name for p in sheet.participants}
        a, b = (p.id for p in sheet.participants)
        lines = []
        for bummerl in result.bummerl:
            how = {"ziel": "", "betrug": " (Bscheißn, Regel 10)", "zeitlimit": " (Zeitlimit, Regel 11)"}[bummerl.ended_by]
            lines.append(
                f"Bummerl {bummerl.number}: {bummerl.stand[a]}:{bummerl.stand[b]}, "
                f"Wertung {names[a]} {bummerl.score[a]} : {bummerl.score[b]} {names[b]}{how}"
            )
        ta, tb = result.teams[a], result.teams[b]
        lines.append(f"Summe: {names[a]} {ta.bummerl_won} Bummerl, {ta.points}:{ta.points_against} Punkte")
        lines.append(f"Summe: {names[b]} {tb.bummerl_won} Bummerl, {tb.points}:{tb.points_against} Punkte")
        return tuple(lines)

    def headline(self, sheet: Sheet, score: Score) -> Headline:
        """During play the open Bummerl's stand, then the Wertung of the Bummerl closed so far
        (Regel 12) and the Bummerl won; at the end the Wertung and the Bummerl won, which rank
        (Regel 13); the points written over the Durchgang count for nothing and are not on top."""
        result = score.result
        assert isinstance(result, WattenResult)
        points = {t: r.points for t, r in result.teams.items()}
        won = {t: r.bummerl_won for t, r in result.teams.items()}
        if score.status.finished:
            return Headline(figures=(figure("Wertung (Punkte)", sheet, points), figure("Bummerl gewonnen", sheet, won)))
        number = score.status.details.get("bummerl", len(result.bummerl) + 1)
        stand = score.status.details["stand"]
        figures = [figure(f"Stand im Bummerl {number}", sheet, stand)]
        if result.bummerl:
            figures += [figure("Wertung bisher (Punkte)", sheet, points), figure("Bummerl gewonnen", sheet, won)]
        return Headline(figures=tuple(figures))

    def status_beside_headline(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """Without "Bummerl gewonnen A 1 : 0 B": the headline's figure of that name shows it once a
        Bummerl is closed (before, it says 0 : 0). "Bummerl 2 von 3, Stand …" stays: it says how many."""
        return tuple(m for m in score.status.messages if not m.startswith(_GEWONNEN))

    # -- tournament ----------------------------------------------------------------------------
    def standings(self, sheets: Sequence[Sheet], *, scores: Sequence[Score] | None = None) -> tuple[Standing, ...]:
        """Regel 13: the ranking over all Durchgänge (one sheet per table and Durchgang).

        Only finished Durchgänge are ranked: a sheet still being played is refused, since its
        open Bummerl would be missing from a ranking that looks final. ``scores``, if given, are
        the sheets' scores (``score(sheet)`` each), so a caller who scored them need not again."""
        rows: dict[str, _Row] = {}
        meetings: dict[frozenset[str], dict[str, int]] = {}
        for index, sheet in enumerate(sheets):
            result = (scores[index] if scores is not None else self.score(sheet)).result
            assert isinstance(result, WattenResult)
            if not result.finished:
                a, b = sheet.participants
                context = sheet.context
                places = [
                    f"{context.round_label} {context.round}" if context.round else "",
                    f"Tisch {context.table}" if context.table else "",
                ]
                where = ", ".join(p for p in places if p)
                count = self.options(sheet.ruleset.options).bummerl_count
                raise RuleViolation(
                    R13,
                    f"Das Blatt {a.name} gegen {b.name}{f' ({where})' if where else ''} ist nicht beendet "
                    f"({len(result.bummerl)} von {count} Bummerl gespielt): erst fertig spielen oder das Zeitlimit eintragen (Regel 11)",
                )
            keys = {p.id: p.key for p in sheet.participants}
            for pid, team in result.teams.items():
                row = rows.setdefault(keys[pid], _Row(keys[pid], sheet.participant(pid).name))
                row.bummerl_won += team.bummerl_won
                row.points += team.points
                row.points_against += team.points_against
            pair = frozenset(keys.values())
            h2h = meetings.setdefault(pair, {k: 0 for k in pair})
            for pid, team in result.teams.items():
                h2h[keys[pid]] += team.bummerl_won
        return _rank(list(rows.values()), meetings)


@dataclass
class _Row:
    key: str
    name: str
    bummerl_won: int = 0
    points: int = 0
    points_against: int = 0

    @property
    def ratio(self) -> Fraction | float:
        return float("inf") if self.points_against == 0 else Fraction(self.points, self.points_against)

    def primary(self) -> tuple[int, Fraction | float, int]:
        return (self.bummerl_won, self.ratio, self.points)


class Standing(Frozen):
    """One row of the Watten ranking (Regel 13)."""

    rank: int
    key: str
    name: str
    bummerl_won: int
    points: int
    points_against: int
    decided_by: str
    """The criterion that separated this team from the next (or why it could not)."""


def _rank(rows: list[_Row], meetings: dict[frozenset[str], dict[str, int]]) -> tuple[Standing, ...]:
    rows.sort(key=lambda r: r.primary(), reverse=True)
    groups: list[list[_Row]] = []
    for row in rows:
        if groups and groups[-1][0].primary() == row.primary():
            groups[-1].append(row)
        else:
            groups.append([row])
    ordered: list[tuple[_Row, int, str]] = []  # row, tie-group id, decided_by
    group_id = 0
    for group in groups:
        if len(group) == 1:
            ordered.append((group[0], group_id, ""))
            group_id += 1
            continue
        keys = [r.key for r in group]
        pairs = [frozenset((a, b)) for i, a in enumerate(keys) for b in keys[i + 1 :]]
        if not all(p in meetings for p in pairs):
            for r in group:
                ordered.append((r, group_id, "Entscheidungsbummerl nötig (kein direkter Vergleich)"))
            group_id += 1
            continue
        h2h = {k: sum(meetings[p].get(k, 0) for p in pairs if k in p) for k in keys}
        group.sort(key=lambda r: h2h[r.key], reverse=True)
        previous: int | None = None
        for r in group:
            if previous is not None and h2h[r.key] != previous:
                group_id += 1
            ordered.append((r, group_id, f"direkter Vergleich ({h2h[r.key]} Bummerl)"))
            previous = h2h[r.key]
        group_id += 1
    standings: list[Standing] = []
    for index, (row, gid, note) in enumerate(ordered):
        same = [i for i, (_, g, _) in enumerate(ordered) if g == gid]
        rank = same[0] + 1
        if len(same) > 1:
            decided = "Entscheidungsbummerl nötig" + (" (kein direkter Vergleich)" if "kein" in note else "")
        elif note:
            decided = note
        else:
            decided = _criterion(row, ordered, index)
        standings.append(
            Standing(
                rank=rank,
                key=row.key,
                name=row.name,
                bummerl_won=row.bummerl_won,
                points=row.points,
                points_against=row.points_against,
                decided_by=decided,
            )
        )
    return tuple(standings)


def _criterion(row: _Row, ordered: list[tuple[_Row, int, str]], index: int) -> str:
    """Which criterion of Regel 13 separates ``row`` from its nearest neighbour."""
    neighbours = [ordered[i][0] for i in (index - 1, index + 1) if 0 <= i < len(ordered)]
    if not neighbours:
        return "Bummerl"
    deepest = 0
    for other in neighbours:
        for depth, (mine, theirs) in enumerate(zip(row.primary(), other.primary(), strict=True)):
            if mine != theirs:
                deepest = max(deepest, depth)
                break
    return ("Bummerl", "Punkteverhältnis", "Punkte")[deepest]
