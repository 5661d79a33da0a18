"""The season (Saison, Jahreswertung): many tournaments' final standings added up, pure.

**The rule documents say nothing about seasons.** Neither the Watten rules, the Schafkopf
Turnierordnung, the Doppelkopf rules nor the Schnapsen rules (``/work/shared/rules``) define how
evenings add up to a Jahreswertung. What follows is the organizer's choice, a ``SeasonScheme``
(a frozen options object), and ``DEFAULT_SCHEME`` is a common one, named as such on every page:

- **Punkte je Platz** (``points="places"``): a table the organizer enters; place 1 gets the first
  number, place 2 the second, and so on; places beyond the table get 0. Players who share a place
  in a tournament (an open Entscheidungsbummerl) each get that place's points (as the
  standings print the same rank for both).
- **Eigene Punkte** (``points="own"``): the sum of each tournament's own main figure, the first
  column of its standings (Watten: Bummerl, Schafkopf: Ergebnis, Doppelkopf: Punkte,
  Schnapsen: Bummerl gewonnen).
- **Beste N von M** (``best_of``): of a player's M results only the N with the most season
  points count (equal ones: the earlier tournament first); the rest are Streichergebnisse.
- **Mindestteilnahmen** (``min_participations``): who played fewer tournaments is listed, with
  all results, but not ranked.
- **Gleichstand**: more season points; then more tournament wins (place 1, shared or not); then the
  best single counted result (most season points in one tournament); then the place is shared.

A player is known across evenings by a stable player id (Spielerpass number, or one the host
assigns on first registration); ``aliases`` map a merged record's id to the id it was merged into.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field, field_validator, model_validator

from .limits import MAX_NAME, MAX_NUMBER
from .messages import text_cell
from .model import Frozen
from .standings import NOT_PLAYED, Standings

MAX_PLACES = 1000
"""The longest table of points per place an organizer may enter."""
MAX_POINTS = 100_000
"""The most season points one place may give."""
MAX_TOURNAMENTS = 1000
"""More tournaments than any season holds."""

SEASONS_NOT_IN_RULES = (
    "Die Regelwerke (Watten, Schafkopf-Turnierordnung, Doppelkopf, Schnapsen) sagen nichts über eine "
    "Saison- oder Jahreswertung; sie folgt dem hier gewählten Schema des Veranstalters."
)
"""The sentence every season page and export carries."""


class SeasonError(ValueError):
    """A season that cannot be computed as given (German message)."""


class SeasonScheme(Frozen):
    """How a season adds up its tournaments (see the module docstring); the organizer's choice."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    points: Literal["places", "own"] = "places"
    place_points: tuple[int, ...] = ()
    """Season points of place 1, 2, 3, ... (``points="places"``); places beyond get 0."""
    best_of: int | None = Field(default=None, ge=1, le=MAX_TOURNAMENTS)
    """Count only the best N results (``None``: all)."""
    min_participations: int = Field(default=1, ge=1, le=MAX_TOURNAMENTS)

    @field_validator("place_points")
    @classmethod
    def _places(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if len(value) > MAX_PLACES:
            raise ValueError(f"höchstens {MAX_PLACES} Plätze in der Punktetabelle")
        for place, points in enumerate(value, start=1):
            if not 0 <= points <= MAX_POINTS:
                raise ValueError(f"Platz {place}: {points} Punkte geht nicht (0 bis {MAX_POINTS})")
            if place > 1 and points > value[place - 2]:
                raise ValueError(f"Platz {place} bekäme mehr Punkte ({points}) als Platz {place - 1} ({value[place - 2]})")
        return value

    @model_validator(mode="after")
    def _table_for_places(self) -> SeasonScheme:
        if self.points == "places" and not self.place_points:
            raise ValueError("Punkte je Platz braucht eine Punktetabelle (z. B. 25, 20, 16, ...)")
        return self

    def season_points(self, rank: int, own: int) -> int:
        """What one tournament result is worth: the table's points for ``rank``, or ``own``."""
        if self.points == "own":
            return own
        return self.place_points[rank - 1] if rank <= len(self.place_points) else 0

    def describe(self) -> str:
        """The scheme in one German sentence, for the pages and exports."""
        how = (
            "Punkte je Platz " + "-".join(str(p) for p in self.place_points) + " (weitere Plätze 0)"
            if self.points == "places"
            else "Summe der eigenen Turnierpunkte (erste Spalte der Turnierwertung)"
        )
        best = f"die besten {self.best_of} Ergebnisse zählen" if self.best_of else "alle Ergebnisse zählen"
        least = f"gewertet ab {self.min_participations} Teilnahme{'n' if self.min_participations > 1 else ''}"
        ties = "bei Gleichstand: mehr Turniersiege, dann bestes Einzelergebnis, dann geteilter Platz"
        return f"{self.name}: {how}; {best}; {least}; {ties}"


DEFAULT_SCHEME = SeasonScheme(
    name="Übliche Cup-Wertung (Vorgabe)",
    points="places",
    place_points=(25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
)
"""A common scheme (as many Watt- and Schafkopf-Cups count), not one from a rule document:
25-20-16-13-11-10-9-8-7-6-5-4-3-2-1 points for places 1 to 15, every result counts, one
participation suffices."""


def parse_place_points(text: str) -> tuple[int, ...]:
    """The points-per-place table as an organizer types it ("25, 20, 16" or "25-20-16" or one per line)."""
    text = text.strip()
    if re.search(r"(^|[\s,;]|-)-|-$", text):
        raise SeasonError("Punktetabelle: Punkte sind ganze Zahlen ≥ 0 (ein Minus steht nur zwischen zwei Zahlen: 25-20-16)")
    parts = [p for p in re.split(r"[\s,;\-]+", text) if p]
    if not parts:
        raise SeasonError("Punktetabelle: bitte Punkte je Platz eingeben, z. B. 25, 20, 16, 13")
    if len(parts) > MAX_PLACES:
        raise SeasonError(f"Punktetabelle: höchstens {MAX_PLACES} Plätze")
    points = []
    for place, part in enumerate(parts, start=1):
        if not (part.isascii() and part.isdigit()):
            raise SeasonError(f"Punktetabelle, Platz {place}: '{part[:20]}' ist keine ganze Zahl ≥ 0")
        if len(part) > 6 or int(part) > MAX_POINTS:
            raise SeasonError(f"Punktetabelle, Platz {place}: höchstens {MAX_POINTS} Punkte")
        points.append(int(part))
    return tuple(points)


class Placing(Frozen):
    """One player's final place in one tournament."""

    player_id: str = Field(min_length=1, max_length=MAX_NAME)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    rank: int = Field(ge=1, le=MAX_NUMBER)
    points: int = Field(ge=-MAX_NUMBER, le=MAX_NUMBER)
    """The tournament's own main figure (first column of its standings)."""


class SeasonTournament(Frozen):
    """A tournament of the season with its final placings."""

    id: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=200)
    date: str | None = Field(default=None, max_length=10)
    placings: tuple[Placing, ...] = ()


def placings_from_standings(standings: Standings, player_ids: Mapping[int, str]) -> tuple[Placing, ...]:
    """The placings of a tournament's final ``Standings``; ``player_ids``: start number → stable player id.

    Entrants without a counted sheet took no part; an entrant without a player id is known by
    its name (``name:<name>``). The main figure is the standings' first column."""
    placings = []
    for row in standings.rows:
        if row.decided_by == NOT_PLAYED:
            continue
        own = row.values[0] if row.values and isinstance(row.values[0], int) else 0
        pid = player_ids.get(row.start_number) if row.start_number is not None else None
        placings.append(
            Placing(player_id=pid or f"name:{row.name.casefold()}"[:MAX_NAME], name=row.name, rank=row.rank, points=own)
        )
    return tuple(placings)


class SeasonResult(Frozen):
    """One tournament result of a player, with what the season makes of it."""

    tournament_id: str
    tournament_name: str
    date: str | None
    rank: int
    field: int
    """How many took part in that tournament."""
    own_points: int
    season_points: int
    counted: bool
    why: str
    """German: "zählt", or why not (Streichergebnis)."""


class SeasonRow(Frozen):
    """One line of the season standings."""

    rank: int | None
    """``None``: fewer participations than the scheme asks; listed, not ranked."""
    player_id: str
    name: str
    total: int
    participations: int
    wins: int
    best: int
    """The best single counted result (season points)."""
    results: tuple[SeasonResult, ...]
    """Every tournament the player took part in, in season order, counted or not."""
    decided_by: str
    """What separates the row from the one above ("Punkte", "mehr Turniersiege", "bestes
    Einzelergebnis"), "geteilter Platz", or why it is not ranked."""

    @property
    def counted(self) -> tuple[SeasonResult, ...]:
        return tuple(r for r in self.results if r.counted)

    @property
    def not_counted(self) -> tuple[SeasonResult, ...]:
        return tuple(r for r in self.results if not r.counted)


class SeasonStandings(Frozen):
    """The season's ranking, the scheme it used and the tournaments it read."""

    scheme: SeasonScheme
    tournaments: tuple[str, ...]
    rows: tuple[SeasonRow, ...]
    notes: tuple[str, ...] = (SEASONS_NOT_IN_RULES,)

    @property
    def header(self) -> tuple[str, ...]:
        return ("Platz", "Spieler", "Punkte", "Teilnahmen", "Siege", "Bestes", "Gezählt", "Gestrichen", "Entscheidung")

    def table(self) -> list[tuple[str | int, ...]]:
        """Every row in the order of ``header`` for a CSV or the printed list."""
        return [
            (
                r.rank if r.rank is not None else "–",
                r.name,
                r.total,
                r.participations,
                r.wins,
                r.best,
                ", ".join(f"{x.tournament_name} ({x.season_points})" for x in r.counted),
                ", ".join(f"{x.tournament_name} ({x.season_points})" for x in r.not_counted),
                r.decided_by,
            )
            for r in self.rows
        ]


_LEVELS = ("Punkte", "mehr Turniersiege", "bestes Einzelergebnis", "geteilter Platz")


def resolve(player_id: str, aliases: Mapping[str, str]) -> str:
    """The id a player's record was merged into (following merges of merges)."""
    seen = {player_id}
    while player_id in aliases:
        player_id = aliases[player_id]
        if player_id in seen:
            raise SeasonError(f"Zusammenführung im Kreis bei Spieler-ID '{player_id}'")
        seen.add(player_id)
    return player_id


def season_standings(
    tournaments: Sequence[SeasonTournament],
    scheme: SeasonScheme = DEFAULT_SCHEME,
    aliases: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
) -> SeasonStandings:
    """The season standings over ``tournaments`` (in season order) by ``scheme``.

    ``aliases`` map merged player ids to the id they were merged into; ``names`` give a player
    id's name as the season knows it (else the name of the latest tournament). ``SeasonError``
    for a tournament listed twice, a player placed twice in one tournament or merges in a circle.
    """
    aliases = aliases or {}
    names = names or {}
    if len(tournaments) > MAX_TOURNAMENTS:
        raise SeasonError(f"höchstens {MAX_TOURNAMENTS} Turniere je Saison")
    ids = [t.id for t in tournaments]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise SeasonError(f"Turnier '{twice}' steht zweimal in der Saison")
    per_player: dict[str, list[tuple[int, Placing, SeasonTournament]]] = {}
    latest_name: dict[str, str] = {}
    for order, t in enumerate(tournaments):
        placed: set[str] = set()
        for p in t.placings:
            pid = resolve(p.player_id, aliases)
            if pid in placed:
                raise SeasonError(f"{t.name}: Spieler '{p.name}' ({pid}) steht zweimal in der Wertung")
            placed.add(pid)
            per_player.setdefault(pid, []).append((order, p, t))
            latest_name[pid] = p.name
    rows: list[SeasonRow] = []
    for pid, entries in per_player.items():
        valued = [(scheme.season_points(p.rank, p.points), order, p, t) for order, p, t in entries]
        ordered = sorted(valued, key=lambda v: (-v[0], v[1]))
        keep = {v[1] for v in (ordered if scheme.best_of is None else ordered[: scheme.best_of])}
        results = tuple(
            SeasonResult(
                tournament_id=t.id,
                tournament_name=t.name,
                date=t.date,
                rank=p.rank,
                field=len(t.placings),
                own_points=p.points,
                season_points=points,
                counted=order in keep,
                why="zählt" if order in keep else f"Streichergebnis (nur die besten {scheme.best_of} zählen)",
            )
            for points, order, p, t in sorted(valued, key=lambda v: v[1])
        )
        counted = [r for r in results if r.counted]
        rows.append(
            SeasonRow(
                rank=None,
                player_id=pid,
                name=names.get(pid, latest_name[pid]),
                total=sum(r.season_points for r in counted),
                participations=len(results),
                wins=sum(1 for r in results if r.rank == 1),
                best=max((r.season_points for r in counted), default=0),
                results=results,
                decided_by="",
            )
        )

    def key(r: SeasonRow) -> tuple[int, int, int]:
        return (-r.total, -r.wins, -r.best)

    ranked = sorted((r for r in rows if r.participations >= scheme.min_participations), key=lambda r: (key(r), r.name.casefold()))
    unranked = sorted(
        (r for r in rows if r.participations < scheme.min_participations), key=lambda r: (key(r), r.name.casefold())
    )
    out: list[SeasonRow] = []
    for i, r in enumerate(ranked):
        rank = out[-1].rank if out and key(ranked[i - 1]) == key(r) else i + 1
        neighbours = [key(ranked[j]) for j in (i - 1, i + 1) if 0 <= j < len(ranked)]
        if key(r) in neighbours:
            decided = _LEVELS[3]
        else:
            decided = _LEVELS[_level(key(r), neighbours[0])] if neighbours else _LEVELS[0]
        out.append(r.model_copy(update={"rank": rank, "decided_by": decided}))
    for r in unranked:
        least = scheme.min_participations
        out.append(r.model_copy(update={"decided_by": f"nicht gewertet: {r.participations} von mindestens {least} Teilnahmen"}))
    return SeasonStandings(scheme=scheme, tournaments=tuple(ids), rows=tuple(out))


def _level(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Which tie-break separates a row from the one above it (0: the points already), 3: none."""
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return i
    return 3


def season_csv(standings: SeasonStandings) -> str:
    """The season standings as CSV (``;``-separated, as German spreadsheets open it), then the scheme
    and the note that the rule documents define no season, then one row per player and tournament."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(standings.header)
    for row in standings.table():
        writer.writerow([text_cell(cell) if isinstance(cell, str) else cell for cell in row])
    writer.writerow([])
    writer.writerow(["Schema", text_cell(standings.scheme.describe())])
    for note in standings.notes:
        writer.writerow(["Hinweis", text_cell(note)])
    writer.writerow([])
    writer.writerow(["Spieler", "Turnier", "Datum", "Platz", "Teilnehmer", "Eigene Punkte", "Saisonpunkte", "Gezählt"])
    for r in standings.rows:
        for x in r.results:
            writer.writerow(
                [
                    text_cell(r.name),
                    text_cell(x.tournament_name),
                    x.date or "",
                    x.rank,
                    x.field,
                    x.own_points,
                    x.season_points,
                    "ja" if x.counted else text_cell(x.why),
                ]
            )
    return out.getvalue()
