"""The league: seasons (Saison, Jahreswertung) across tournaments and halls, and people across evenings.

Several hosts (one laptop per hall) may write to one PostgreSQL at the same time, each its own
tournaments (``HostStore.owns``; a host knows itself by the ``host-id`` file in its data directory).
What they share is read here: the seasons and which tournaments belong to them, the players with
their stable ids, and the season standings computed from every tournament's final standings
(``scoring.season``: the rule documents say nothing about seasons, the scheme is the organizer's).

A player id is ``SP-<Spielerpass>`` when the roster gives the Spielerpass number, else the id of the
season's player of that exact name (when there is exactly one), else a new ``T-<random>`` assigned
on the first registration. Two records of the same person are merged with a trail
(``player_merges``); the season standings follow the merge at once.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, insert, select, update

from scoring import all_rulesets
from scoring.engine import german_validation_message
from scoring.plan import TournamentPlan
from scoring.roster import Entrant
from scoring.season import (
    DEFAULT_SCHEME,
    SeasonError,
    SeasonScheme,
    SeasonStandings,
    SeasonTournament,
    parse_place_points,
    placings_from_standings,
    resolve,
    season_standings,
)
from scoring.standings import Standings

from .desk import Desk, DeskError, tournament_slug
from .records import Tournament, as_utc, tournament_from_row, utcnow
from .schema import entrants, player_merges, players, roster_players, season_tournaments, seasons, tournament_plans, tournaments
from .scored import ScoredSheets
from .store import HostStore

HOST_ID_FILE = "host-id"

FAMILIES: dict[str, tuple[str, ...]] = {
    "schnapsen": ("bauernschnapsen", "talonschnapsen"),
    "doppelkopf": ("doppelkopf-turnier", "doppelkopf-haus"),
}
"""Families a season may group (besides a single ruleset id)."""


def host_id(data_dir: Path) -> str:
    """This host's id, made once and kept in ``<data-dir>/host-id`` (0600): which tournaments it writes."""
    path = Path(data_dir) / HOST_ID_FILE
    try:
        found = path.read_text(encoding="ascii").strip()
        if re.fullmatch(r"[0-9a-f]{16}", found):
            return found
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_hex(8)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(made + "\n")
    return made


class LeagueError(DeskError):
    """An organizer's season action refused (German); nothing was changed."""


@dataclass(frozen=True)
class Season:
    id: str
    name: str
    family: str
    scheme: SeasonScheme
    created: datetime


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    merged_into: str | None


@dataclass(frozen=True)
class Merge:
    id: int
    from_id: str
    into_id: str
    reason: str
    merged_by: str
    merged_at: datetime


class PinnedDesk(Desk):
    """A Desk over one given tournament (any host's, read only here): its final standings for the season."""

    def __init__(self, store: HostStore, tournament: Tournament, scored: ScoredSheets | None = None) -> None:
        super().__init__(store, scored=scored)
        self._pinned = tournament

    def tournament(self) -> Tournament:
        return self._pinned


def _text(value: str, what: str, limit: int = 200) -> str:
    cleaned = " ".join(value.split())
    if not cleaned:
        raise LeagueError(f"{what} fehlt")
    if len(cleaned) > limit:
        raise LeagueError(f"{what} ist zu lang (höchstens {limit} Zeichen)")
    if any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in cleaned):
        raise LeagueError(f"{what} enthält Steuerzeichen oder ungültige Zeichen")
    return cleaned


class League:
    """The seasons, players and merges on the (shared) database, and the season standings."""

    def __init__(self, store: HostStore, scored: ScoredSheets | None = None) -> None:
        self.store = store
        self.scored = scored if scored is not None else ScoredSheets()

    # -- seasons ----------------------------------------------------------------------------------
    def create_season(self, name: str, family: str, scheme: SeasonScheme = DEFAULT_SCHEME) -> Season:
        """A new season for one ruleset (or one family of rulesets) with its scheme."""
        name = _text(name, "Der Name der Saison")
        family = family.strip()
        if family not in FAMILIES and family not in _ruleset_ids():
            raise LeagueError(f"Regelwerk '{family[:40]}' gibt es nicht (erlaubt: {', '.join(sorted(_families()))})")
        with self.store._write() as conn:
            if conn.execute(select(seasons.c.id).where(func.lower(seasons.c.name) == name.lower())).first() is not None:
                raise LeagueError(f"Eine Saison '{name}' gibt es schon")
            base = tournament_slug(name)
            taken = set(conn.execute(select(seasons.c.id)).scalars())
            season_id = base
            while season_id in taken:
                season_id = f"{base}-{secrets.token_hex(2)}"
            created = utcnow()
            conn.execute(
                insert(seasons).values(id=season_id, name=name, family=family, scheme=scheme.model_dump_json(), created=created)
            )
        return Season(season_id, name, family, scheme, created)

    def seasons(self) -> list[Season]:
        with self.store._read() as conn:
            return [_season(r) for r in conn.execute(select(seasons).order_by(seasons.c.created, seasons.c.id))]

    def season(self, season_id: str) -> Season:
        with self.store._read() as conn:
            row = conn.execute(select(seasons).where(seasons.c.id == season_id)).first()
        if row is None:
            raise LeagueError(f"Eine Saison '{season_id[:40]}' gibt es nicht")
        return _season(row)

    def set_scheme(self, season_id: str, scheme: SeasonScheme) -> Season:
        self.season(season_id)
        with self.store._write() as conn:
            conn.execute(update(seasons).where(seasons.c.id == season_id).values(scheme=scheme.model_dump_json()))
        return self.season(season_id)

    def fitting(self, season_id: str, ruleset_id: str) -> Season:
        """The season, if a tournament of ``ruleset_id`` may count for it (asked before a tournament is set up)."""
        season = self.season(season_id)
        if ruleset_id not in FAMILIES.get(season.family, (season.family,)):
            raise LeagueError(f"Die Saison '{season.name}' wertet {season.family}, das Turnier spielt {ruleset_id[:40]}")
        return season

    def seasons_for(self, ruleset_id: str) -> list[Season]:
        """The seasons a tournament of ``ruleset_id`` may count for (its own ruleset's or its family's)."""
        return [s for s in self.seasons() if ruleset_id in FAMILIES.get(s.family, (s.family,))]

    def _own(self, tournament_id: str) -> Tournament:
        tournament = self.store.tournament(tournament_id)
        if tournament is None:
            raise LeagueError(f"Ein Turnier '{tournament_id[:40]}' gibt es nicht")
        if not self.store.owns(tournament_id):
            raise LeagueError(f"Das Turnier '{tournament.name}' schreibt ein anderer Host; nur er ordnet es einer Saison zu")
        return tournament

    def join(self, tournament_id: str, season_id: str) -> Season:
        """Put one of this host's tournaments into a season (at setup or later); its ruleset must fit."""
        self.season(season_id)
        tournament = self._own(tournament_id)
        plan = self.store.plan(tournament_id)
        if plan is None:
            raise LeagueError(f"Das Turnier '{tournament.name}' hat noch kein Regelwerk: zuerst einrichten")
        season = self.fitting(season_id, TournamentPlan.model_validate_json(plan.plan).ruleset_id)
        with self.store._write() as conn:
            conn.execute(season_tournaments.delete().where(season_tournaments.c.tournament_id == tournament_id))
            conn.execute(insert(season_tournaments).values(tournament_id=tournament_id, season_id=season_id, joined_at=utcnow()))
        self._relink(tournament_id, season_id)
        self.link(tournament_id, self._entrants(tournament_id))
        return season

    def _relink(self, tournament_id: str, season_id: str) -> None:
        """A tournament that joins later: an entrant with a new host-assigned id (used nowhere else) takes
        the id of the season's player of exactly that name, as if it had been in the season at registration."""
        others = self.season_players(season_id)
        mine = self.player_ids(tournament_id)
        by_name: dict[str, list[Player]] = {}
        for p in others:
            if p.id not in mine.values():
                by_name.setdefault(p.name.casefold(), []).append(p)
        with self.store._write() as conn:
            for start_number, pid in mine.items():
                if not pid.startswith("T-"):
                    continue
                used = conn.execute(
                    select(func.count()).select_from(roster_players).where(roster_players.c.player_id == pid)
                ).scalar()
                name = conn.execute(select(players.c.name).where(players.c.id == pid)).scalar()
                same = by_name.get(str(name).casefold(), [])
                if used == 1 and len(same) == 1:
                    key = (roster_players.c.tournament_id == tournament_id) & (roster_players.c.start_number == start_number)
                    conn.execute(update(roster_players).where(key).values(player_id=same[0].id))

    def leave(self, tournament_id: str) -> Season | None:
        """Take one of this host's tournaments out of its season (the season it left, or ``None``)."""
        self._own(tournament_id)
        season = self.season_of(tournament_id)
        if season is not None:
            with self.store._write() as conn:
                conn.execute(season_tournaments.delete().where(season_tournaments.c.tournament_id == tournament_id))
        return season

    def season_of(self, tournament_id: str) -> Season | None:
        with self.store._read() as conn:
            sid = conn.execute(
                select(season_tournaments.c.season_id).where(season_tournaments.c.tournament_id == tournament_id)
            ).scalar()
        return self.season(sid) if sid is not None else None

    def tournaments(self, season_id: str) -> list[tuple[Tournament, str | None]]:
        """The season's tournaments with their dates, in season order (date, then when created)."""
        query = (
            select(tournaments, tournament_plans.c.date)
            .join(season_tournaments, season_tournaments.c.tournament_id == tournaments.c.id)
            .outerjoin(tournament_plans, tournament_plans.c.tournament_id == tournaments.c.id)
            .where(season_tournaments.c.season_id == season_id)
        )
        with self.store._read() as conn:
            rows = [(tournament_from_row(r), r.date) for r in conn.execute(query)]
        return sorted(rows, key=lambda tr: (tr[1] or tr[0].created.date().isoformat(), tr[0].created, tr[0].id))

    # -- players ----------------------------------------------------------------------------------
    def _entrants(self, tournament_id: str) -> list[Entrant]:
        query = select(entrants.c.start_number, entrants.c.name).where(entrants.c.tournament_id == tournament_id)
        with self.store._read() as conn:
            return [Entrant(start_number=r.start_number, name=r.name) for r in conn.execute(query)]

    def link(self, tournament_id: str, given: Sequence[Entrant]) -> None:
        """Give each entrant without one its stable player id (Spielerpass, the season's player of that
        exact name, or a new one); ``Desk.roster_hook``. Entrants already linked keep theirs."""
        season = self.season_of(tournament_id)
        known = self.season_players(season.id) if season is not None else []
        by_name: dict[str, list[Player]] = {}
        for p in known:
            by_name.setdefault(p.name.casefold(), []).append(p)
        with self.store._write() as conn:
            linked = set(
                conn.execute(
                    select(roster_players.c.start_number).where(roster_players.c.tournament_id == tournament_id)
                ).scalars()
            )
            for e in given:
                if e.start_number in linked:
                    continue
                same = by_name.get(e.name.casefold(), [])
                if e.player_pass:
                    pid = f"SP-{e.player_pass}"
                elif len(same) == 1:
                    pid = same[0].id
                else:
                    pid = f"T-{secrets.token_hex(5)}"
                if conn.execute(select(players.c.id).where(players.c.id == pid)).first() is None:
                    conn.execute(insert(players).values(id=pid, name=e.name, created=utcnow()))
                conn.execute(
                    insert(roster_players).values(tournament_id=tournament_id, start_number=e.start_number, player_id=pid)
                )
                linked.add(e.start_number)

    def player_ids(self, tournament_id: str) -> dict[int, str]:
        query = select(roster_players.c.start_number, roster_players.c.player_id).where(
            roster_players.c.tournament_id == tournament_id
        )
        with self.store._read() as conn:
            return {r.start_number: r.player_id for r in conn.execute(query)}

    def player(self, player_id: str) -> Player:
        with self.store._read() as conn:
            row = conn.execute(select(players).where(players.c.id == player_id)).first()
        if row is None:
            raise LeagueError(f"Einen Spieler '{player_id[:40]}' gibt es nicht")
        return Player(row.id, row.name, row.merged_into)

    def season_players(self, season_id: str) -> list[Player]:
        """The players who took part in the season's tournaments (merged ones as the one they became), by name."""
        query = (
            select(players)
            .join(roster_players, roster_players.c.player_id == players.c.id)
            .join(season_tournaments, season_tournaments.c.tournament_id == roster_players.c.tournament_id)
            .where(season_tournaments.c.season_id == season_id)
            .distinct()
        )
        with self.store._read() as conn:
            found = {r.id: Player(r.id, r.name, r.merged_into) for r in conn.execute(query)}
        aliases = self.aliases()
        out: dict[str, Player] = {}
        for p in found.values():
            target = resolve(p.id, aliases)
            out[target] = found.get(target) or self.player(target)
        return sorted(out.values(), key=lambda p: (p.name.casefold(), p.id))

    def suggest(self, season_id: str, typed: str, limit: int = 10) -> list[Player]:
        """The season's players whose name contains what was typed (for the roster's name fields)."""
        needle = " ".join(typed.split()).casefold()[:80]
        if not needle:
            return []
        return [p for p in self.season_players(season_id) if needle in p.name.casefold()][: max(1, min(limit, 50))]

    def aliases(self) -> dict[str, str]:
        with self.store._read() as conn:
            return {
                r.id: r.merged_into
                for r in conn.execute(select(players.c.id, players.c.merged_into).where(players.c.merged_into.is_not(None)))
            }

    def merge(self, from_id: str, into_id: str, reason: str, by: str = "Turnierleitung") -> Merge:
        """Merge the record ``from_id`` into ``into_id`` (the same person), with a trail; the season
        standings count both records' results as one player's from now on."""
        reason = _text(reason, "Der Grund der Zusammenführung", 500)
        if from_id == into_id:
            raise LeagueError("Ein Spieler kann nicht mit sich selbst zusammengeführt werden")
        source, target = self.player(from_id), self.player(into_id)
        if source.merged_into is not None:
            raise LeagueError(f"'{source.name}' ({source.id}) ist schon mit {source.merged_into} zusammengeführt")
        if target.merged_into is not None:
            raise LeagueError(f"'{target.name}' ({target.id}) ist selbst schon mit {target.merged_into} zusammengeführt")
        both = self._tournaments_of(resolve(from_id, self.aliases())) & self._tournaments_of(resolve(into_id, self.aliases()))
        if both:
            raise LeagueError(
                f"'{source.name}' und '{target.name}' spielten beide im Turnier '{sorted(both)[0]}': "
                "das sind zwei Personen, nichts wurde zusammengeführt"
            )
        at = utcnow()
        with self.store._write() as conn:
            done = conn.execute(
                update(players).where((players.c.id == from_id) & players.c.merged_into.is_(None)).values(merged_into=into_id)
            )
            if not done.rowcount:
                raise LeagueError(f"'{source.name}' wurde inzwischen schon zusammengeführt; bitte neu laden")
            conn.execute(
                insert(player_merges).values(from_id=from_id, into_id=into_id, reason=reason, merged_by=by, merged_at=at)
            )
            merge_id = conn.execute(select(func.max(player_merges.c.id))).scalar()
        return Merge(int(merge_id or 0), from_id, into_id, reason, by, at)

    def _tournaments_of(self, player_id: str) -> set[str]:
        """The tournaments a player (with every record merged into it) took part in."""
        ids = {player_id} | {a for a, b in self.aliases().items() if resolve(b, self.aliases()) == player_id}
        query = select(roster_players.c.tournament_id).where(roster_players.c.player_id.in_(sorted(ids)))
        with self.store._read() as conn:
            return set(conn.execute(query).scalars())

    def merges(self) -> list[Merge]:
        with self.store._read() as conn:
            return [
                Merge(r.id, r.from_id, r.into_id, r.reason, r.merged_by, as_utc(r.merged_at))
                for r in conn.execute(select(player_merges).order_by(player_merges.c.id))
            ]

    # -- standings --------------------------------------------------------------------------------
    def tournament_standings(self, tournament: Tournament) -> Standings | None:
        """A tournament's standings as its own host shows them (``None`` without a plan)."""
        desk = PinnedDesk(self.store, tournament, self.scored)
        if not desk.has_plan():
            return None
        return desk.standings()

    def standings(self, season_id: str) -> SeasonStandings:
        """The season standings over every tournament of the season, as the sheets stand now."""
        season = self.season(season_id)
        given = []
        for tournament, date in self.tournaments(season_id):
            standings = self.tournament_standings(tournament)
            if standings is None:
                continue
            if self.store.owns(tournament.id):  # another host's entrants are linked by that host
                self.link(tournament.id, self._entrants(tournament.id))
            placings = placings_from_standings(standings, self.player_ids(tournament.id))
            given.append(SeasonTournament(id=tournament.id, name=tournament.name, date=date, placings=placings))
        aliases = self.aliases()
        names = {p.id: p.name for p in self.season_players(season_id)}
        try:
            return season_standings(given, season.scheme, aliases=aliases, names=names)
        except SeasonError as error:  # e.g. one person twice in a tournament after a merge by hand in the database
            raise LeagueError(f"Die Saisonwertung geht so nicht: {error}") from None


def scheme_from_form(name: str, points: str, place_points: str, best_of: str, min_participations: str) -> SeasonScheme:
    """A scheme from the organizer's form fields; ``LeagueError`` (German) for what does not fit."""
    try:
        table = parse_place_points(place_points) if points == "places" else ()
        best = _count(best_of, "Beste N") if best_of.strip() else None
        least = _count(min_participations, "Mindestteilnahmen") if min_participations.strip() else 1
        return SeasonScheme(
            name=_text(name, "Der Name des Schemas", 80),
            points="own" if points == "own" else "places",
            place_points=table,
            best_of=best,
            min_participations=least,
        )
    except SeasonError as error:
        raise LeagueError(str(error)) from None
    except ValidationError as error:
        raise LeagueError(f"Schema: {german_validation_message(error)}") from None


def _count(text: str, what: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or not 1 <= int(text) <= 1000:
        raise LeagueError(f"{what}: bitte eine ganze Zahl von 1 bis 1000 (nicht '{text[:20]}')")
    return int(text)


def _season(r: Any) -> Season:
    return Season(r.id, r.name, r.family, SeasonScheme.model_validate(json.loads(r.scheme)), as_utc(r.created))


def _ruleset_ids() -> set[str]:
    return {r.id for r in all_rulesets()}


def _families() -> set[str]:
    return {*FAMILIES, *_ruleset_ids()}
