"""The organizer's desk: every action of the Turnierleitung on the host, as methods of ``Desk``.

``Desk(store)`` works on the host's current tournament. The HTTP endpoints (``organizer_api.py``) and
the organizer's pages call these methods and nothing else, so this is the one place of the
host's tournament logic; the rules themselves (plan, roster, draw, standings, table states, CSV)
are the pure functions of ``scoring/`` (``plan.py``, ``roster.py``, ``draw.py``, ``standings.py``,
``table_status.py``, ``csv_export.py``).

Every method refuses bad input with a ``DeskError`` (a ``ValueError``) whose ``str()`` is a German
sentence saying where and why, and then has changed nothing.

Decisions of the Turnierleitung are never overwrites:

- "Dieses Blatt gilt" (``decide``): a new revision of the standing sheet whose one new entry is a
  correction that repeats its last counting entry unchanged, with ``device="Turnierleitung"`` and the
  reason: the score stays, and the log says who decided, when and why.
- "Spiel korrigiert" (``correct_game``): a new revision with a ``correction`` entry replacing game k
  (checked by the ruleset), same device and reason.
- "Durchgang abbrechen" (``abort_table``): each open sheet of the table gets a ``zeitlimit`` entry
  (Watten, Regel 11) and a ``close`` signed by the Turnierleitung; other rulesets a ``close`` with the
  Turnierleitung's note (``override``).

- "Papierblatt erfassen" (``enter_paper``): a table's paper Tischliste typed at the desk, game by
  game or only its totals (entry kind ``papier``), each line checked by the ruleset as a phone's
  entry is, closed and signed "Turnierleitung (Papier)" as a new sheet of the table.

Each writes a ``decisions`` row beside the revision in the same transaction (the trail). From then
on the host refuses the phones' revisions of that table and round (409, German: "nur noch über die
Turnierleitung"), and the standings count the decided revision (``result_sheets``), so no phone
can silently undo a decision. A paper Tischliste is the exception: it decides nothing, it is one
more sheet of the table (kind "papier" in the trail). The phones' sheets of that table are still
accepted, compared with it like a second team sheet, and the table counts when they agree; where
they differ, the Turnierleitung decides ("Dieses Blatt gilt"), which then locks the table.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from scoring import Entry, RuleViolation, Score, Sheet, UnknownRuleset, effective_entries, find_ruleset, score_sheet
from scoring.adoption import AdoptionRefused, adopt
from scoring.compare import Comparison, compare_scored, compare_sheets, compare_tallies
from scoring.csv_export import games_csv, standings_csv
from scoring.draw import DrawError, RoundDraw, Seat, TableDraw, draw_round, participant_id, sheet_for
from scoring.engine import PAPER, german_validation_message
from scoring.model import CLOSE, CORRECTION, Replacement
from scoring.numbering import line_label, numbering
from scoring.plan import TournamentPlan, plan_for
from scoring.roster import Entrant, Roster, RosterError
from scoring.standings import Standings, tournament_standings
from scoring.table_status import TableStatus, table_status

from ..protocol import body_sha256
from .credentials import new_entrant_secret, new_join_code
from .records import DecisionRecord, Device, DrawnSheet, EntrantRecord, NewRevision, StoredRevision, Tournament, utcnow
from .scored import ScoredSheets
from .store import HostStore

__all__ = [
    "PAPIER",
    "Assignment",
    "Decision",
    "Desk",
    "DeskError",
    "DeviceView",
    "Dispute",
    "HostSheet",
    "PaperError",
    "RosterEntry",
    "RosterError",
    "TableView",
]

TURNIERLEITUNG = "Turnierleitung"
"""The ``device`` of every entry the host writes, and the default ``decided_by``."""
MAX_REASON = 500
PAPIER = "Turnierleitung (Papier)"
"""Who keeps and signs a paper Tischliste typed at the desk (``written_by``, ``signed_by``, ``device``)."""
LOCKING = ("entscheidung", "korrektur", "abbruch")
"""Decisions that close a table to the phones; a paper Tischliste ("papier") does not."""


class DeskError(ValueError):
    """The organizer's action is refused; ``str()`` says why, in German. Nothing was changed."""


class PaperError(DeskError):
    """A paper Tischliste is refused; ``line`` is the line (from 1) it failed at, ``None`` for the whole sheet."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class RosterEntry:
    """An entrant with what the host knows of them beyond the roster: when they came, when they left."""

    entrant: Entrant
    registered_round: int | None
    """Registered late: plays from this round on (``None``: on the roster from the start)."""
    withdrawn_after: int | None
    """Withdrew after this round (``None``: still playing)."""
    secret: str | None = None
    """The entrant's secret for the Startkarte: a phone joins for this Startnummer only with it."""

    def plays_in(self, round: int) -> bool:
        if self.registered_round is not None and round < self.registered_round:
            return False
        return self.withdrawn_after is None or round <= self.withdrawn_after


@dataclass(frozen=True)
class HostSheet:
    """A stored sheet (its latest revision, or the decided one) parsed, with its score."""

    sheet: Sheet
    revision: int
    written_by_host: bool
    received_at: datetime
    score: Score | None = None
    closed: bool = False


@dataclass(frozen=True)
class Decision:
    """One decision of the Turnierleitung, as the trail shows it."""

    id: int
    round: int
    table: int
    kind: str
    """"entscheidung", "korrektur" or "abbruch"."""
    sheet_id: uuid.UUID | None
    revision: int | None
    decided_by: str
    reason: str
    detail: str
    """German: what was decided ("Blatt von Die Sautreiber gilt", "4. Spiel auf dem Blatt von … neu eingetragen: ...")."""
    decided_at: datetime


@dataclass(frozen=True)
class TableView:
    """A table of a round on the dashboard: who sits there, its state, its sheets, its decisions."""

    round: int
    draw: TableDraw
    status: TableStatus
    sheets: tuple[HostSheet, ...]
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class Dispute:
    """Two sheets of one table side by side, from the first game where they part."""

    round: int
    table: int
    sheets: tuple[HostSheet, HostSheet]
    comparison: Comparison
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    """Each sheet's games as German lines ("4. Spiel: Die Sautreiber +2 (Stand 9:7)"), from the first difference on."""


class RoundSigned(DeskError):
    """A sheet begun before joining cannot be taken: the table's round is signed or decided already."""


@dataclass(frozen=True)
class DeviceView:
    """A phone that writes for an entrant or a table side, as the Turnierleitung sees it."""

    id: str
    name: str
    joined_at: datetime
    start_number: int | None
    table: int | None
    """The table it joined for (tables-only), or its Startnummer's table in the round asked about."""
    team: str | None
    """The entrant's name (joined with a Startnummer) or the team it gave (tables-only)."""
    last_delivery: datetime | None
    revoked_at: datetime | None
    second: bool
    """Another phone that is not revoked writes for the same entrant (or side of the table) too."""


@dataclass(frozen=True)
class Assignment:
    """Where a Startnummer plays in a round: table, seat and the prepared sheet to open."""

    round: int
    round_label: str
    table: int
    seat: int | None
    start_number: int
    participant_id: str
    name: str
    sheet: Sheet
    started_at: datetime | None


_PLURAL = {"Durchgang": "Durchgänge", "Serie": "Serien", "Runde": "Runden", "Spielabend": "Spielabende"}


def _plural(label: str) -> str:
    return _PLURAL.get(label, f"{label}n")


def _text(value: str, field: str, *, limit: int = 200) -> str:
    cleaned = re.sub(r"\s+", " ", value or "").strip()
    if not cleaned:
        raise DeskError(f"{field} fehlt")
    if len(cleaned) > limit:
        raise DeskError(f"{field} ist zu lang (höchstens {limit} Zeichen)")
    return cleaned


# -- starting a tournament --------------------------------------------------------------------


def tournament_slug(name: str) -> str:
    """A readable id for a tournament name: "Kathreinwatten Söll 2026" -> "kathreinwatten-soell-2026"."""
    text = name.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:60]
    return slug or "turnier"


def start_tournament(store: HostStore, name: str, join_code: str | None = None) -> Tournament:
    """Create the host's (new) current tournament with ``join_code`` or a fresh random one."""
    base = tournament_slug(name)
    taken = store.tournament_ids()
    tournament_id = base
    while tournament_id in taken:
        tournament_id = f"{base}-{secrets.token_hex(2)}"
    return store.create_tournament(tournament_id, name, join_code or new_join_code())


class Desk:
    """The Turnierleitung's actions on the host's current tournament (see the module docstring)."""

    def __init__(self, store: HostStore, *, clock: Callable[[], datetime] = utcnow, scored: ScoredSheets | None = None) -> None:
        self.store = store
        self.clock = clock
        self.scored = scored if scored is not None else ScoredSheets()
        """Stored revisions parsed and scored once (the host's own cache, which scored them on arrival)."""
        self.roster_hook: Callable[[str, Sequence[Entrant]], None] | None = None
        """Called with the tournament and the entrants after a roster import or a registration (the
        league gives each entrant its stable player id, ``league.League.link``)."""
        self._draws: dict[str, tuple[int, list[RoundDraw]]] = {}
        """Parsed draws per tournament, with how many rounds they cover: a draw is never changed once
        stored, so the list is whole while the store counts as many (any Desk may add the next one)."""

    # -- the tournament -------------------------------------------------------------------------
    def tournament(self) -> Tournament:
        current = self.store.current_tournament()
        if current is None:
            raise DeskError("Der Host hat noch kein Turnier")
        return current

    def create_tournament(
        self,
        name: str,
        ruleset_id: str,
        *,
        date: str | None = None,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
        join_code: str | None = None,
    ) -> Tournament:
        """A new tournament with its plan, made the host's current one (the phones' join code is new)."""
        name = _text(name, "Der Name des Turniers")
        plan = self._plan(ruleset_id, options, rounds)
        day = self._date(date)
        tournament = start_tournament(self.store, name, join_code)
        self.store.save_plan(tournament.id, plan.model_dump_json(), day)
        return tournament

    def configure(
        self,
        ruleset_id: str,
        *,
        date: str | None = None,
        options: Mapping[str, Any] | None = None,
        rounds: int | None = None,
    ) -> TournamentPlan:
        """Set the current tournament's plan (ruleset, options, rounds, date); only before the first draw."""
        tournament = self.tournament()
        if self.store.draws(tournament.id):
            raise DeskError("Runde 1 ist schon ausgelost: Regelwerk und Plan bleiben jetzt, wie sie sind")
        plan = self._plan(ruleset_id, options, rounds)
        entrants = self.store.entrants(tournament.id)
        if entrants and any(bool(e.members) != (plan.unit == "team") for e in entrants[:1]):
            raise DeskError(
                f"Die Startliste passt nicht zu {find_ruleset(plan.ruleset_id).title}: "
                f"dort spielen {'Mannschaften' if plan.unit == 'team' else 'einzelne Spieler'}; erst die Startliste neu einlesen"
            )
        self.store.save_plan(tournament.id, plan.model_dump_json(), self._date(date))
        return plan

    def same_plan(
        self, ruleset_id: str, *, date: str | None = None, options: Mapping[str, Any] | None = None, rounds: int | None = None
    ) -> bool:
        """Is this the plan and date the current tournament already has (a setup form saved unchanged)?"""
        return self.has_plan() and self._plan(ruleset_id, options, rounds) == self.plan() and self._date(date) == self.date()

    @staticmethod
    def _plan(ruleset_id: str, options: Mapping[str, Any] | None, rounds: int | None) -> TournamentPlan:
        try:
            return plan_for(ruleset_id, dict(options) if options else None, rounds)
        except UnknownRuleset as error:
            raise DeskError(f"Unbekanntes Regelwerk '{ruleset_id}': {error}") from None
        except ValidationError as error:
            raise DeskError(f"Der Turnierplan ist ungültig: {german_validation_message(error)}") from None
        except ValueError as error:
            raise DeskError(str(error)) from None

    @staticmethod
    def _date(value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            return Date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise DeskError(f"Das Datum '{value}' ist kein Datum (JJJJ-MM-TT, z. B. 2026-11-23)") from None

    def plan(self) -> TournamentPlan:
        record = self.store.plan(self.tournament().id)
        if record is None:
            raise DeskError("Das Turnier hat noch keinen Plan (Regelwerk, Durchgänge): zuerst einrichten")
        return TournamentPlan.model_validate_json(record.plan)

    def has_plan(self) -> bool:
        return self.store.plan(self.tournament().id) is not None

    def date(self) -> str | None:
        record = self.store.plan(self.tournament().id)
        return record.date if record is not None else None

    # -- the roster -------------------------------------------------------------------------------
    def roster_entries(self) -> list[RosterEntry]:
        return self._roster_entries(self.tournament().id)

    def _roster_entries(self, tournament_id: str) -> list[RosterEntry]:
        return [
            RosterEntry(
                Entrant(start_number=r.start_number, name=r.name, members=r.members, club=r.club),
                r.registered_round,
                r.withdrawn_after,
                r.secret,
            )
            for r in self.store.entrants(tournament_id)
        ]

    def roster(self) -> Roster:
        """Every entrant ever on the roster (withdrawn ones too: their finished rounds count)."""
        entries = self.roster_entries()
        withdrawn = tuple(e.entrant.start_number for e in entries if e.withdrawn_after is not None)
        return Roster(entrants=tuple(e.entrant for e in entries), withdrawn=withdrawn)

    def has_roster(self) -> bool:
        return bool(self.store.entrants(self.tournament().id))

    def import_roster(self, csv_text: str) -> Roster:
        """Read the roster from a CSV (``Roster.parse_csv``): all rows, or none; only before the first draw.

        A bad row raises ``RosterError`` (its ``problems`` name each line and why) and imports nothing.
        """
        tournament = self.tournament()
        plan = self.plan()
        if self.store.draws(tournament.id):
            raise DeskError("Runde 1 ist schon ausgelost: jetzt nur noch Nachmeldungen und Rückzüge")
        roster = Roster.parse_csv(csv_text, plan.unit)
        if not roster.entrants:
            raise DeskError("Die Datei enthält keine Teilnehmer (nur die Kopfzeile?)")
        self.store.replace_entrants(tournament.id, [self._record(tournament.id, e, None) for e in roster.entrants])
        if self.roster_hook is not None:
            self.roster_hook(tournament.id, roster.entrants)
        return roster

    def register(
        self, name: str, members: Sequence[str] = (), club: str | None = None, start_number: int | None = None
    ) -> RosterEntry:
        """Add an entrant; once a round is drawn, a late registration that plays from the next round on."""
        tournament = self.tournament()
        plan = self.plan()
        current = self.roster()
        number = start_number if start_number is not None else max((e.start_number for e in current.entrants), default=0) + 1
        members = tuple(m.strip() for m in members if m and m.strip())
        if plan.unit == "team" and not members:
            raise DeskError(f"Mannschaft '{name}': die Spieler fehlen (Spieler 1, Spieler 2)")
        try:
            entrant = Entrant(start_number=number, name=name.strip(), members=members, club=(club or "").strip() or None)
            current.with_entrant(entrant)
        except ValidationError as error:
            raise DeskError(f"Nachmeldung: {german_validation_message(error)}") from None
        drawn = [d.round for d in self.store.draws(tournament.id)]
        late = max(drawn) + 1 if drawn else None
        if late is not None and late > plan.rounds:
            raise DeskError(
                f"Alle {plan.rounds} {_plural(plan.round_label)} sind ausgelost: eine Nachmeldung spielt nicht mehr mit"
            )
        record = self._record(tournament.id, entrant, late)
        self.store.add_entrant(record)
        if self.roster_hook is not None:
            self.roster_hook(tournament.id, [entrant])
        return RosterEntry(entrant, late, None, record.secret)

    def withdraw(self, start_number: int) -> RosterEntry:
        """The entrant withdraws: plays no round drawn from now on; the rounds already drawn stay theirs."""
        tournament = self.tournament()
        entry = self._entry(start_number)
        if entry.withdrawn_after is not None:
            raise DeskError(
                f"Startnummer {start_number} ({entry.entrant.name}) hat schon nach Runde {entry.withdrawn_after} zurückgezogen"
            )
        after = max((d.round for d in self.store.draws(tournament.id)), default=0)
        self.store.withdraw_entrant(tournament.id, start_number, after)
        return RosterEntry(entry.entrant, entry.registered_round, after, entry.secret)

    def _entry(self, start_number: int) -> RosterEntry:
        for entry in self.roster_entries():
            if entry.entrant.start_number == start_number:
                return entry
        raise DeskError(f"Startnummer {start_number} steht nicht auf der Startliste")

    @staticmethod
    def _record(tournament_id: str, e: Entrant, registered_round: int | None) -> EntrantRecord:
        return EntrantRecord(
            tournament_id, e.start_number, e.name, tuple(e.members), e.club, registered_round, None, new_entrant_secret()
        )

    def new_secret(self, start_number: int) -> RosterEntry:
        """A new secret for the entrant (a lost Startkarte): the old one no longer joins; phones that
        joined with it stay until revoked (``revoke_device``)."""
        tournament = self.tournament()
        entry = self._entry(start_number)
        secret = new_entrant_secret()
        self.store.set_entrant_secret(tournament.id, start_number, secret)
        return RosterEntry(entry.entrant, entry.registered_round, entry.withdrawn_after, secret)

    def playing(self, round: int) -> list[int]:
        """The Startnummern that play in ``round`` (late ones from their round, withdrawn ones until theirs)."""
        return [e.entrant.start_number for e in self.roster_entries() if e.plays_in(round)]

    # -- the draw -------------------------------------------------------------------------------
    def draws(self) -> list[RoundDraw]:
        return list(self._draws_of(self.tournament().id))

    def _draws_of(self, tournament_id: str) -> list[RoundDraw]:
        count = self.store.draw_rounds(tournament_id)
        cached = self._draws.get(tournament_id)
        if cached is None or cached[0] != count:
            parsed = [RoundDraw.model_validate_json(d.draw) for d in self.store.draws(tournament_id)]
            self._draws[tournament_id] = (len(parsed), parsed)
            return parsed
        return cached[1]

    def draw_of(self, round: int) -> RoundDraw:
        for draw in self.draws():
            if draw.round == round:
                return draw
        raise DeskError(f"{self._round_name(round)} ist noch nicht ausgelost")

    def draw(self, round: int, seed: int | None = None) -> RoundDraw:
        """Draw ``round`` (the next one) with ``seed`` (or a random one the organizer can read out and note)."""
        tournament = self.tournament()
        plan = self.plan()
        previous = self.draws()
        expected = len(previous) + 1
        if round != expected:
            if any(d.round == round for d in previous):
                raise DeskError(f"{self._round_name(round)} ist schon ausgelost (Los-Nummer {self.draw_of(round).seed})")
            raise DeskError(f"Als Nächstes wird {self._round_name(expected)} ausgelost, nicht {self._round_name(round)}")
        if round > plan.rounds:
            raise DeskError(f"Das Turnier hat {plan.rounds} {_plural(plan.round_label)}; ein {round}. gibt es nicht")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not 0 <= seed < 2**31:
            raise DeskError("Die Los-Nummer muss eine ganze Zahl von 0 bis 2147483647 sein")
        numbers = self.playing(round)
        if not numbers:
            raise DeskError("Die Startliste ist leer: zuerst Teilnehmer eintragen oder einlesen")
        try:
            drawn = draw_round(plan, numbers, previous, round, seed)
        except DrawError as error:
            raise DeskError(str(error)) from None
        self._save_draw(tournament.id, drawn)
        return drawn

    def enter_draw(self, round: int, tables: Sequence[Sequence[int]]) -> RoundDraw:
        """A draw made by hand in the hall (the paper Lose): ``tables`` lists each table's Startnummern in
        seat order, table 1 first. Every entrant playing the round sits exactly once, every table has a
        size the ruleset allows; stored like a drawn round (Los-Nummer 0: none)."""
        tournament = self.tournament()
        plan = self.plan()
        previous = self.draws()
        if round != len(previous) + 1:
            raise DeskError(f"Als Nächstes wird {self._round_name(len(previous) + 1)} ausgelost, nicht {self._round_name(round)}")
        if round > plan.rounds:
            raise DeskError(f"Das Turnier hat {plan.rounds} {_plural(plan.round_label)}; ein {round}. gibt es nicht")
        playing = set(self.playing(round))
        seen: set[int] = set()
        problems: list[str] = []
        for number, table in enumerate(tables, start=1):
            if len(table) not in plan.table_sizes:
                sizes = " oder ".join(str(n) for n in sorted(set(plan.table_sizes)))
                problems.append(
                    f"Tisch {number}: {len(table)} statt {sizes} {'Mannschaften' if plan.unit == 'team' else 'Spieler'}"
                )
            for entrant in table:
                if entrant not in playing:
                    problems.append(f"Tisch {number}: Startnummer {entrant} spielt in {self._round_name(round)} nicht mit")
                elif entrant in seen:
                    problems.append(f"Tisch {number}: Startnummer {entrant} sitzt schon an einem anderen Tisch")
                seen.add(entrant)
        missing = sorted(playing - seen)
        if missing:
            problems.append(f"Ohne Tisch: Startnummer {', '.join(str(n) for n in missing)}")
        if problems:
            raise DeskError("Die Auslosung von Hand passt nicht: " + "; ".join(problems))
        drawn = RoundDraw(
            round=round,
            seed=0,
            tables=tuple(
                TableDraw(table=number, seats=tuple(Seat(start_number=n, seat=seat) for seat, n in enumerate(table, start=1)))
                for number, table in enumerate(tables, start=1)
            ),
        )
        self._save_draw(tournament.id, drawn)
        return drawn

    def _drawn_sheets(self, tournament_id: str, drawn: RoundDraw) -> list[DrawnSheet]:
        """Each seat's sheet of the round with a random id (uuid4): a phone cannot work it out from the
        Losnummer, its own sheet or anything printed; the host tells each device only its own."""
        plan = TournamentPlan.model_validate_json(self.store.plan(tournament_id).plan)  # type: ignore[union-attr]
        return [
            DrawnSheet(tournament_id, drawn.round, seat.start_number, table.table, participant_id(plan, seat.seat), uuid.uuid4())
            for table in drawn.tables
            for seat in table.seats
        ]

    def drawn_sheet(self, start_number: int, round: int, tournament_id: str | None = None) -> DrawnSheet | None:
        """The sheet ``start_number`` keeps in ``round``: id, table and writer; ``None`` if not drawn there.

        A round drawn before the host kept sheet ids (an older host) gets them now, once."""
        tid = tournament_id or self.tournament().id
        found = self.store.drawn_sheets(tid, round)
        if not found:
            draw = next((d for d in self._draws_of(tid) if d.round == round), None)
            if draw is None:
                return None
            try:
                self.store.add_drawn_sheets(self._drawn_sheets(tid, draw))
            except Exception:  # another request made them at the same moment: theirs stand
                pass
            found = self.store.drawn_sheets(tid, round)
        return next((d for d in found if d.start_number == start_number), None)

    def _save_draw(self, tournament_id: str, drawn: RoundDraw) -> None:
        try:
            self.store.save_draw(
                tournament_id, drawn.round, drawn.seed, drawn.model_dump_json(), self._drawn_sheets(tournament_id, drawn)
            )
        except Exception as error:  # the key refuses a second draw of the same round (two clicks at once)
            if any(d.round == drawn.round for d in self.store.draws(tournament_id)):
                raise DeskError(f"{self._round_name(drawn.round)} ist schon ausgelost") from None
            raise error

    def _round_name(self, round: int) -> str:
        record = self.store.plan(self.tournament().id)
        label = TournamentPlan.model_validate_json(record.plan).round_label if record else "Runde"
        return f"{label} {round}"

    # -- the rounds -------------------------------------------------------------------------------
    def start_round(self, round: int) -> datetime:
        """Start the round's clock (Watten: the 70 minutes of Regel 11 run from here); a second start keeps the first."""
        self.draw_of(round)
        return self.store.start_round(self.tournament().id, round, self.clock())

    def started_at(self, round: int) -> datetime | None:
        return self.store.round_starts(self.tournament().id).get(round)

    def current_round(self) -> int | None:
        """The latest drawn round, or ``None`` before the first draw."""
        draws = self.store.draws(self.tournament().id)
        return draws[-1].round if draws else None

    # -- sheets --------------------------------------------------------------------------------------
    def _parsed(self, stored: StoredRevision) -> HostSheet:
        sheet, score = self.scored.get(stored)
        return HostSheet(sheet, stored.revision, stored.device_id is None, stored.received_at, score, stored.closed)

    def table_sheets(self, round: int, table: int) -> list[HostSheet]:
        """The latest revision of every sheet of the table in the round, oldest sheet first."""
        plan = self.plan()
        rows = self.store.latest_per_sheet(self.tournament().id, round_label=plan.round_label, round=round, table=table)
        return [self._parsed(r) for r in rows]

    def _round_sheets(self, round: int | None = None) -> dict[tuple[int, int], list[HostSheet]]:
        plan = self.plan()
        out: dict[tuple[int, int], list[HostSheet]] = {}
        for stored in self.store.latest_per_sheet(self.tournament().id):
            if stored.round_label != plan.round_label or stored.round is None:
                continue
            if round is not None and stored.round != round:
                continue
            out.setdefault((stored.round, stored.table), []).append(self._parsed(stored))
        return out

    def decisions(self, round: int | None = None, table: int | None = None) -> list[Decision]:
        """The trail: every decision of the Turnierleitung, oldest first."""
        return [
            Decision(d.id, d.round, d.table, d.kind, d.sheet_id, d.revision, d.decided_by, d.reason, d.detail, d.decided_at)
            for d in self.store.decisions(self.tournament().id, round, table)
        ]

    def decided(self, round: int, table: int) -> Decision | None:
        """The latest decision of the table that names the sheet standing (``entscheidung``/``korrektur``)."""
        pinned = [d for d in self.decisions(round, table) if d.kind in ("entscheidung", "korrektur") and d.sheet_id]
        return pinned[-1] if pinned else None

    def locked(self, round: int | None, table: int | None, tournament_id: str | None = None) -> Decision | None:
        """The decision that closes the table to the phones (any but a paper Tischliste), or ``None``."""
        if round is None or table is None:
            return None
        tid = tournament_id or self.tournament().id
        if not self.store.has_decision(tid, round, table):
            return None
        locking = [d for d in self.store.decisions(tid, round, table) if d.kind in LOCKING]
        if not locking:  # only a paper Tischliste: the phones' sheets are still welcome (module docstring)
            return None
        d = locking[-1]
        return Decision(d.id, d.round, d.table, d.kind, d.sheet_id, d.revision, d.decided_by, d.reason, d.detail, d.decided_at)

    def result_sheets(self, round: int | None = None) -> tuple[list[Sheet], list[str]]:
        """One sheet per drawn table (the standings count exactly these), and notes on the tables left out.

        A table's sheet is the decided revision if the Turnierleitung decided; else its sheets if they
        agree (the latest, preferring a signed one); tables whose sheets disagree are left out, noted.
        """
        counted, notes = self._result_sheets(round)
        return [h.sheet for h in counted], notes

    def _result_sheets(self, round: int | None = None) -> tuple[list[HostSheet], list[str]]:
        by_table = self._round_sheets(round)
        pinned: dict[tuple[int, int], Decision] = {}
        for d in self.decisions(round):
            if d.kind in ("entscheidung", "korrektur") and d.sheet_id is not None:
                pinned[(d.round, d.table)] = d  # the latest wins
        sheets: list[HostSheet] = []
        notes: list[str] = []
        plan = self.plan()
        for draw in self.draws():
            if round is not None and draw.round != round:
                continue
            for table in draw.tables:
                where = f"{plan.round_label} {draw.round}, Tisch {table.table}"
                decision = pinned.get((draw.round, table.table))
                if decision is not None:
                    assert decision.sheet_id is not None and decision.revision is not None
                    stored = self.store.revision(decision.sheet_id, decision.revision)
                    if stored is not None:
                        sheets.append(self._parsed(stored))
                        continue
                found = by_table.get((draw.round, table.table), [])
                if not found:
                    continue
                chosen = self._agreeing(found)
                if chosen is None:
                    notes.append(f"{where}: die Blätter sind uneinig; bis zur Entscheidung der Turnierleitung nicht gewertet")
                    continue
                sheets.append(chosen)
        return sheets, notes

    @staticmethod
    def _agreeing(found: list[HostSheet]) -> HostSheet | None:
        closed = [h for h in found if h.closed]
        pool = closed or found
        first = pool[0]
        for other in pool[1:]:
            if first.score is None or other.score is None:
                comparison = compare_sheets(first.sheet, other.sheet)
            else:
                comparison = compare_scored(first.sheet, first.score, other.sheet, other.score)
            if not comparison.agree:
                return None
        return max(pool, key=lambda h: h.received_at)

    # -- the dashboard ------------------------------------------------------------------------------
    def comparison(self, stored: StoredRevision) -> tuple[Comparison | None, str | None]:
        """The comparison of ``stored`` with the other sheet of its table and round (the latest revision
        of the other writer's sheet, else of another sheet), and that sheet's writer; ``None`` alone."""
        others = [
            r
            for r in self.store.latest_per_sheet(
                stored.tournament_id, round_label=stored.round_label, round=stored.round, table=stored.table
            )
            if r.sheet_id != stored.sheet_id
        ]
        if not others:
            return None, None
        other_writer = [r for r in others if r.written_by != stored.written_by]
        other = max(other_writer or others, key=lambda r: r.received_at)
        try:
            return compare_tallies(self.scored.tally(stored), self.scored.tally(other)), self.scored.tally(other).writer_name
        except (RuleViolation, UnknownRuleset) as error:
            message = f"Die Blätter sind nicht vergleichbar: {error}"
            return Comparison(agree=False, games_compared=0, message=message), None

    def tables(self, round: int) -> list[TableView]:
        """Every table of the round with its state (``table_status``), its sheets and its decisions."""
        plan = self.plan()
        draw = self.draw_of(round)
        by_table = self._round_sheets(round)
        started = self.started_at(round)
        now = self.clock()
        decisions = self.decisions(round)
        out = []
        for table in draw.tables:
            found = by_table.get((round, table.table), [])
            decided = [d for d in decisions if d.table == table.table]
            pinned = [d for d in decided if d.kind in ("entscheidung", "korrektur") and d.sheet_id]
            counted = [h.sheet for h in found]
            if pinned:
                stored = self.store.revision(pinned[-1].sheet_id, pinned[-1].revision)  # type: ignore[arg-type]
                if stored is not None:
                    counted = [Sheet.from_json(stored.body)]
            status = table_status(plan, table, counted, now, started, decided=bool(pinned))
            out.append(TableView(round, table, status, tuple(found), tuple(decided)))
        return out

    def dispute(self, round: int, table: int) -> Dispute:
        """The two sheets of the table side by side, from the first game where they differ."""
        found = self.table_sheets(round, table)
        if len(found) < 2:
            raise DeskError(f"An Tisch {table} ({self._round_name(round)}) gibt es nur {len(found)} Blatt: nichts zu vergleichen")
        a, b = found[-2], found[-1]
        comparison = compare_sheets(a.sheet, b.sheet)
        start = comparison.first_difference or 1
        return Dispute(round, table, (a, b), comparison, (self._lines(a.sheet, start), self._lines(b.sheet, start)))

    @staticmethod
    def _lines(sheet: Sheet, start: int) -> tuple[str, ...]:
        score = score_sheet(sheet)
        names = {p.id: p.name for p in sheet.participants}
        called = numbering(sheet.entries, find_ruleset(sheet.ruleset.id).counted_kinds(sheet))
        out = []
        games = [line for line in score.lines if line.kind != CLOSE]
        for number, line in enumerate(games, start=1):
            if number < start:
                continue
            points = ", ".join(f"{names.get(k, k)} {v:+d}" for k, v in line.points.items() if v) or "keine Punkte"
            stand = ":".join(str(v) for v in (line.stand or line.totals).values())
            label = line_label(called, line.entry)
            out.append(f"{label}: {points}" + (f" (Stand {stand})" if stand else ""))
        return tuple(out)

    # -- decisions (new revisions with a trail) ------------------------------------------------------
    def decide(self, round: int, table: int, sheet_id: uuid.UUID | str, reason: str, by: str = TURNIERLEITUNG) -> Decision:
        """ "Dieses Blatt gilt": a new revision of it confirming its last counting entry, with the reason."""
        reason = _text(reason, "Die Begründung", limit=MAX_REASON)
        by = _text(by, "Wer entscheidet", limit=80)
        host = self._sheet_of(round, table, sheet_id)
        sheet = host.sheet
        effective = effective_entries(sheet.entries)
        if not effective:
            raise DeskError("Das Blatt hat noch keinen Eintrag: darüber ist nichts zu entscheiden")
        last = effective[-1]
        entry = Entry(
            kind=CORRECTION,
            target=last.number,
            replacement=Replacement(kind=last.kind, data=dict(last.data)),
            at=self.clock(),
            device=TURNIERLEITUNG,
            reason=f"Entscheidung ({by}): dieses Blatt gilt. {reason}",
        )
        writer = self._writer(sheet)
        return self._write(round, table, sheet.with_entry(entry), "entscheidung", by, reason, f"{writer} gilt")

    def correct_game(
        self,
        round: int,
        table: int,
        sheet_id: uuid.UUID | str,
        game: int,
        data: Mapping[str, Any],
        reason: str,
        *,
        kind: str | None = None,
        by: str = TURNIERLEITUNG,
    ) -> Decision:
        """Enter game ``game`` (counted from 1, as the comparison counts) anew on the sheet, with the reason."""
        reason = _text(reason, "Die Begründung", limit=MAX_REASON)
        by = _text(by, "Wer entscheidet", limit=80)
        host = self._sheet_of(round, table, sheet_id)
        sheet = host.sheet
        games = [e for e in effective_entries(sheet.entries) if e.kind != CLOSE]
        if not 1 <= game <= len(games):
            raise DeskError(f"Spiel {game} gibt es auf diesem Blatt nicht (es hat {len(games)} Spiele)")
        target = games[game - 1]
        try:
            replacement = Replacement(kind=kind or target.kind, data=dict(data))
            entry = Entry(
                kind=CORRECTION,
                target=target.number,
                replacement=replacement,
                at=self.clock(),
                device=TURNIERLEITUNG,
                reason=f"Korrektur ({by}): {reason}",
            )
        except ValidationError as error:
            raise DeskError(f"Die Korrektur ist ungültig: {german_validation_message(error)}") from None
        named = numbering(sheet.entries, find_ruleset(sheet.ruleset.id).counted_kinds(sheet)).get(target.number)
        called = named.label if named is not None else f"Spiel {game}"  # as the players count it: "8. Spiel"
        detail = f"{called} auf dem {self._writer(sheet)} neu eingetragen: {json.dumps(dict(data), ensure_ascii=False)}"
        return self._write(round, table, sheet.with_entry(entry), "korrektur", by, reason, detail)

    def abort_table(self, round: int, table: int, reason: str, by: str = TURNIERLEITUNG) -> list[Decision]:
        """ "Durchgang abbrechen": every open sheet of the table ends as the rules say (Watten: Zeitlimit, Regel 11)."""
        reason = _text(reason, "Die Begründung", limit=MAX_REASON)
        by = _text(by, "Wer entscheidet", limit=80)
        plan = self.plan()
        draw = self.draw_of(round)
        if not any(t.table == table for t in draw.tables):
            raise DeskError(f"Tisch {table} gibt es in {self._round_name(round)} nicht")
        found = self.table_sheets(round, table)
        if not found:  # no phone sent anything: the host opens the table's sheet itself
            prepared = sheet_for(plan, self.roster(), draw, table, tournament=self.tournament().id, written_by=None)
            found = [HostSheet(prepared, 0, True, self.clock())]
        open_sheets = [h for h in found if not score_sheet(h.sheet).status.closed]
        if not open_sheets:
            raise DeskError(f"Tisch {table} ({self._round_name(round)}) ist schon abgeschlossen: nichts abzubrechen")
        made = []
        for host in open_sheets:
            sheet = host.sheet
            now = self.clock()
            note = f"Durchgang abgebrochen ({by}): {reason}"
            ruleset = find_ruleset(sheet.ruleset.id)
            if "zeitlimit" in ruleset.entry_models:
                sheet = sheet.with_entry(Entry(kind="zeitlimit", at=now, device=TURNIERLEITUNG, reason=note))
                close = Entry(kind=CLOSE, data={"signed_by": TURNIERLEITUNG}, at=now, device=TURNIERLEITUNG, reason=note)
            else:
                close = Entry(
                    kind=CLOSE,
                    data={"signed_by": TURNIERLEITUNG, "override": reason[:500]},
                    at=now,
                    device=TURNIERLEITUNG,
                    reason=note,
                )
            sheet = sheet.with_entry(close)
            made.append(self._write(round, table, sheet, "abbruch", by, reason, f"{self._writer(sheet)} abgebrochen"))
        return made

    def paper_sheet(self, round: int, table: int) -> Sheet:
        """The empty sheet of the table as the desk types its paper Tischliste: kept by ``PAPIER``."""
        draw = self.draw_of(round)
        if not any(t.table == table for t in draw.tables):
            raise DeskError(f"Tisch {table} gibt es in {self._round_name(round)} nicht")
        return sheet_for(self.plan(), self.roster(), draw, table, tournament=self.tournament().id, written_by=PAPIER)

    def paper_of(self, round: int, table: int) -> HostSheet | None:
        """The paper Tischliste already typed for the table, if any."""
        return next((h for h in self.table_sheets(round, table) if h.written_by_host and h.sheet.context.written_by == PAPIER), None)

    def enter_paper(
        self,
        round: int,
        table: int,
        entries: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        override: str | None = None,
        reason: str | None = None,
        by: str = TURNIERLEITUNG,
    ) -> Decision:
        """ "Papierblatt erfassen": the table's paper Tischliste as a new sheet, closed and signed ``PAPIER``.

        ``entries`` are ``(kind, data)`` as a phone's entry panel makes them: the games line by line, or
        the totals alone (kind ``papier``, checked by the ruleset: Bummerl to 15, Spielpunkte 0 and
        Tischpunkte 100, Doppelkopf points 0). Every line is checked as a phone's entry is; the first
        refused one raises ``PaperError`` with its line, and nothing is stored. ``override``: the
        Turnierleitung's note for a sheet that ended early (else the close needs a finished sheet).
        Stored with a "papier" decision (the trail); it does not lock the table."""
        by = _text(by, "Wer erfasst", limit=80)
        reason = _text(reason or "Papier-Tischliste am Tisch der Turnierleitung erfasst", "Die Begründung", limit=MAX_REASON)
        sheet = self.paper_sheet(round, table)
        earlier = self.paper_of(round, table)
        if earlier is not None:
            raise PaperError(
                f"Für Tisch {table} ({self._round_name(round)}) ist die Papier-Tischliste schon erfasst "
                f"({earlier.received_at.astimezone().strftime('%H:%M')}); ändern nur über \"Spiel korrigiert\""
            )
        if self.locked(round, table) is not None:
            raise PaperError(f"Über Tisch {table} ({self._round_name(round)}) hat die Turnierleitung schon entschieden")
        if not entries:
            raise PaperError("Die Tischliste hat noch keine Zeile: mindestens ein Spiel oder die Summen eintragen", 1)
        ruleset = find_ruleset(sheet.ruleset.id)
        checker = ruleset.checker(sheet)
        now = self.clock()
        for line, (kind, data) in enumerate(entries, start=1):
            try:
                entry = Entry(kind=kind, data=dict(data), at=now, device=PAPIER)
            except ValidationError as error:
                raise PaperError(f"Zeile {line}: {german_validation_message(error)}", line) from None
            refusal = checker.refusal(entry)
            if refusal is not None:
                raise PaperError(f"Zeile {line}: {refusal.rule}: {refusal.message}", line)
            sheet = sheet.with_entry(entry)
            checker = ruleset.checker(sheet, checker)
        note = (override or "").strip()
        close_data: dict[str, Any] = {"signed_by": PAPIER}
        if note:
            close_data["override"] = _text(note, "Der Vermerk", limit=MAX_REASON)
        close = Entry(kind=CLOSE, data=close_data, at=now, device=PAPIER, reason=f"Papier-Tischliste ({by}): {reason}")
        refusal = checker.refusal(close)
        if refusal is not None:
            raise PaperError(f"Abschluss: {refusal.rule}: {refusal.message}")
        sheet = sheet.with_entry(close)
        totals = any(kind == PAPER for kind, _ in entries)
        what = "nur die Summen" if totals else f"{len(entries)} Zeilen"
        detail = f"Papier-Tischliste erfasst ({what}), unterschrieben {PAPIER}"
        return self._write(round, table, sheet, "papier", by, reason, detail)

    def _sheet_of(self, round: int, table: int, sheet_id: uuid.UUID | str) -> HostSheet:
        try:
            wanted = uuid.UUID(str(sheet_id))
        except ValueError:
            raise DeskError(f"'{sheet_id}' ist keine Blatt-ID") from None
        for host in self.table_sheets(round, table):
            if host.sheet.id == wanted:
                return host
        raise DeskError(f"Das Blatt {wanted} gehört nicht zu Tisch {table} in {self._round_name(round)}")

    @staticmethod
    def _writer(sheet: Sheet) -> str:
        who = sheet.context.written_by
        for p in sheet.participants:
            if who is not None and who in (p.id, str(p.seat)):
                return f"Blatt von {p.name}"
        return "Blatt der Turnierleitung" if who is None else f"Blatt von {who}"

    def _write(self, round: int, table: int, sheet: Sheet, kind: str, by: str, reason: str, detail: str) -> Decision:
        """Check the new revision with its ruleset, then store it and its decision in one transaction."""
        try:
            score = score_sheet(sheet)
        except RuleViolation as error:
            raise DeskError(f"Das Regelwerk lässt das nicht zu: {error}") from None
        canonical = sheet.to_json().encode("utf-8")
        tournament = self.tournament()
        now = self.clock()
        revision = len(sheet.entries)
        decision = DecisionRecord(0, tournament.id, round, table, kind, sheet.id, revision, by, reason, detail, now)
        try:
            self.store.store_host_revision(
                NewRevision(
                    sheet_id=sheet.id,
                    revision=revision,
                    body=canonical,
                    body_sha256=body_sha256(canonical),
                    tournament_id=tournament.id,
                    round_label=sheet.context.round_label,
                    round=round,
                    table=table,
                    written_by=sheet.context.written_by,
                    closed=score.status.closed,
                    games=sum(1 for line in score.lines if line.kind != CLOSE),
                    device_id=None,
                ),
                decision,
            )
        except ValueError as error:
            raise DeskError(str(error)) from None
        return self.decisions(round, table)[-1]

    # -- the phones ----------------------------------------------------------------------------------
    def assignment(self, start_number: int, round: int | None = None) -> Assignment:
        """Where ``start_number`` plays in ``round`` (default: the latest drawn) and the sheet to open there.

        Every phone asks this at the start of each round: it reads the tournament, plan, roster and
        draws once each."""
        tournament = self.tournament()
        record = self.store.plan(tournament.id)
        if record is None:
            raise DeskError("Das Turnier hat noch keinen Plan (Regelwerk, Durchgänge): zuerst einrichten")
        plan = TournamentPlan.model_validate_json(record.plan)
        entries = self._roster_entries(tournament.id)
        entry = next((e for e in entries if e.entrant.start_number == start_number), None)
        if entry is None:
            raise DeskError(f"Startnummer {start_number} steht nicht auf der Startliste")
        draws = self._draws_of(tournament.id)
        if round is None:
            if not draws:
                raise DeskError(f"{plan.round_label} 1 ist noch nicht ausgelost; bitte warten, bis die Turnierleitung auslost")
            round = draws[-1].round
        draw = next((d for d in draws if d.round == round), None)
        if draw is None:
            raise DeskError(f"{plan.round_label} {round} ist noch nicht ausgelost")
        table = draw.table_of(start_number)
        if table is None:
            if start_number in draw.bye:
                raise DeskError(f"Startnummer {start_number} hat in {plan.round_label} {round} spielfrei")
            raise DeskError(f"Startnummer {start_number} ({entry.entrant.name}) spielt in {plan.round_label} {round} nicht mit")
        seat = next(s for s in table.seats if s.start_number == start_number)
        writer = participant_id(plan, seat.seat)
        roster = Roster(entrants=tuple(e.entrant for e in entries))
        own = self.drawn_sheet(start_number, round, tournament.id)
        sheet = sheet_for(
            plan, roster, draw, table.table, tournament=tournament.id, written_by=writer, sheet_id=own.sheet_id if own else None
        )
        return Assignment(
            round=round,
            round_label=plan.round_label,
            table=table.table,
            seat=seat.seat,
            start_number=start_number,
            participant_id=writer,
            name=entry.entrant.name,
            sheet=sheet,
            started_at=self.store.round_starts(tournament.id).get(round),
        )

    def adopt(self, start_number: int, begun: Sheet, round: int | None = None) -> tuple[Assignment, Sheet]:
        """The drawn table's sheet (``round``, default the latest drawn) holding the games of ``begun``, a sheet
        the entrant's table began before joining; nothing is stored. ``DeskError`` while not drawn,
        ``AdoptionRefused`` for other teams or another ruleset (``scoring.adoption``) or games the rules
        refuse, ``RoundSigned`` when the entrant's sheet of that round is signed or the table decided."""
        found = self.assignment(start_number, round)
        where = f"{found.round_label} {found.round} an Tisch {found.table}"
        decision = self.locked(found.round, found.table)
        if decision is not None:
            raise RoundSigned(f"Über {where} hat die Turnierleitung schon entschieden ({decision.detail})")
        for held in self.table_sheets(found.round, found.table):
            writer = next((p for p in held.sheet.participants if p.id == held.sheet.context.written_by), None)
            ours = held.sheet.id == found.sheet.id or (writer is not None and writer.start_number == start_number)
            if ours and held.closed:
                raise RoundSigned(f"{where} ist für {found.name} schon unterschrieben abgegeben")
            if ours and held.sheet.entries:
                raise RoundSigned(f"Für {where} liegt von {found.name} schon ein Blatt mit Spielen vor")
        sheet = adopt(begun, found.sheet)
        try:
            score_sheet(sheet)
        except (RuleViolation, UnknownRuleset) as error:
            raise AdoptionRefused(f"Die Spiele des Blatts passen nicht zu {where}: {error}") from None
        return found, sheet

    def seat_of(self, start_number: int, round: int, tournament_id: str | None = None) -> int | None:
        """The table ``start_number`` is drawn to in ``round`` (of the current tournament, or ``tournament_id``), or ``None``."""
        for draw in self._draws_of(tournament_id or self.tournament().id):
            if draw.round == round:
                for table in draw.tables:
                    if any(s.start_number == start_number for s in table.seats):
                        return table.table
        return None

    # -- the devices ---------------------------------------------------------------------------------
    def devices(self, round: int | None = None) -> list[DeviceView]:
        """Every phone that joined the current tournament: for whom it writes, when it joined, its last
        delivery; a second phone (not revoked) for the same entrant or table side is flagged."""
        tournament = self.tournament()
        found = self.store.devices(tournament.id)
        last = self.store.last_deliveries(tournament.id)
        names = {e.entrant.start_number: e.entrant.name for e in self.roster_entries()}

        def whom(d: Device) -> tuple[object, ...]:
            if d.start_number is not None:
                return ("nr", d.start_number)
            return ("tisch", d.table, (d.team or "").strip().casefold())

        active: dict[tuple[object, ...], int] = {}
        for d in found:
            if d.revoked_at is None:
                active[whom(d)] = active.get(whom(d), 0) + 1
        out = []
        for d in found:
            table: int | None = d.table or None
            if d.start_number is not None:
                table = self.seat_of(d.start_number, round, tournament.id) if round is not None else None
            out.append(
                DeviceView(
                    id=d.id,
                    name=d.name,
                    joined_at=d.created,
                    start_number=d.start_number,
                    table=table,
                    team=names.get(d.start_number, d.team) if d.start_number is not None else d.team,
                    last_delivery=last.get(d.id),
                    revoked_at=d.revoked_at,
                    second=d.revoked_at is None and active.get(whom(d), 0) > 1,
                )
            )
        return out

    def revoke_device(self, device_id: str) -> DeviceView:
        """The Turnierleitung revokes a phone: its token gets 401 from now on; what it delivered stays.
        In a tables-only tournament its side of the table is free for the next phone."""
        tournament = self.tournament()
        if self.store.revoke_device(tournament.id, device_id) is None:
            raise DeskError(f"Ein Handy '{device_id[:40]}' gibt es in diesem Turnier nicht")
        return next(d for d in self.devices() if d.id == device_id)

    # -- standings and exports -----------------------------------------------------------------------
    def standings(self) -> Standings:
        """The live standings: the rulesets' own ranking over one sheet per table (``result_sheets``)."""
        given, decided = self._standing_sheets()
        scores = {id(h.sheet): h.score for h in given if h.score is not None}

        def scorer(sheet: Sheet) -> Score:
            known = scores.get(id(sheet))
            return known if known is not None else score_sheet(sheet)

        return tournament_standings(self.plan(), self.roster(), [h.sheet for h in given], scorer=scorer, decided=decided)

    def _standing_sheets(self) -> tuple[list[HostSheet], set[tuple[int, int]]]:
        """What the standings are asked about: every drawn table's latest sheets, or the revision the
        Turnierleitung decided for it alone; which sheets count (finished, agreeing) is
        ``tournament_standings``' to say, not the Desk's."""
        by_table = self._round_sheets()
        pinned: dict[tuple[int, int], Decision] = {}
        for d in self.decisions():
            if d.kind in ("entscheidung", "korrektur") and d.sheet_id is not None:
                pinned[(d.round, d.table)] = d  # the latest wins
        given: list[HostSheet] = []
        decided: set[tuple[int, int]] = set()
        for draw in self.draws():
            for table in draw.tables:
                key = (draw.round, table.table)
                decision = pinned.get(key)
                if decision is not None and decision.sheet_id is not None and decision.revision is not None:
                    stored = self.store.revision(decision.sheet_id, decision.revision)
                    if stored is not None:
                        given.append(self._parsed(stored))
                        decided.add(key)
                        continue
                given.extend(by_table.get(key, []))
        return given, decided

    def standings_csv(self) -> bytes:
        return standings_csv(self.standings()).encode("utf-8-sig")

    def games_csv(self) -> bytes:
        """Every game of every sheet the standings count, one row per game."""
        sheets, _ = self.result_sheets()
        return games_csv(sheets).encode("utf-8-sig")
