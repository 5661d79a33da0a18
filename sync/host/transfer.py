"""Moving an evening's SQLite into the league's PostgreSQL (``tischblock host import-into URL``).

Everything of the evening's tournaments is copied in one transaction of the target, or nothing:
the tournaments (written from then on only by the host whose ``host-id`` the evening's data
directory holds), plans, rosters with their player ids, draws, rounds, decisions, devices, every
stored revision and every kept-aside conflict. Not copied: the evening host's settings (its
password, its current tournament): the league has its own.

Idempotent: a row already in the target (the same key and the same content) is left as it is, so a
second run changes nothing and says so. A row whose key is taken by something else (another
evening's tournament of the same id, another body for a stored revision) refuses the whole import,
with a German message naming it.

With ``season``, the imported tournaments join that season of the league, and a player the evening
host assigned a new id (``T-...``) takes the id of the season's player of exactly that name, if
there is one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, and_, func, insert, select

from scoring.plan import TournamentPlan

from .league import FAMILIES, League, host_id
from .records import as_utc, utcnow
from .schema import (
    conflicts,
    decisions,
    devices,
    drawn_sheets,
    draws,
    entrants,
    player_merges,
    players,
    revisions,
    roster_players,
    rounds,
    season_tournaments,
    table_claims,
    tournament_plans,
    tournaments,
)
from .store import SQLITE_NAME, HostStore


class ImportRefused(ValueError):
    """The evening cannot be moved as it is (German); nothing was written."""


@dataclass
class ImportReport:
    """How many rows of each table were new, and how many were there already."""

    new: dict[str, int] = field(default_factory=dict)
    present: dict[str, int] = field(default_factory=dict)
    tournaments: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(self.new.values())

    def lines(self) -> list[str]:
        out = []
        for name in self.new:
            if self.new[name] or self.present[name]:  # tables the evening has rows in
                out.append(f"  {name}: {self.new[name]} neu, {self.present[name]} schon da")
        return out


# The tables copied with their natural keys (the columns that say "the same row").
_KEYED: list[tuple[Table, tuple[str, ...]]] = [
    (tournaments, ("id",)),
    (tournament_plans, ("tournament_id",)),
    (entrants, ("tournament_id", "start_number")),
    (draws, ("tournament_id", "round")),
    (rounds, ("tournament_id", "round")),
    (drawn_sheets, ("tournament_id", "round", "start_number")),
    (table_claims, ("tournament_id", "round_label", "round", "table_no", "side")),
    (devices, ("id",)),
    (revisions, ("sheet_id", "revision")),
]
# Tables with a counter for a key: the same row is the one with the same content.
_COUNTED: list[tuple[Table, tuple[str, ...]]] = [
    (decisions, ("tournament_id", "round", "table_no", "kind", "sheet_id", "revision", "decided_at")),
    (conflicts, ("sheet_id", "revision", "body_sha256")),
]
_IGNORED_DIFFERENCES = {"host_id"}
"""Columns that may differ between source and target without being a different row."""


def import_into(data_dir: Path, url: str, season: str | None = None) -> ImportReport:
    """Copy the evening in ``data_dir`` (its ``host.sqlite3``) into the database at ``url``."""
    path = Path(data_dir) / SQLITE_NAME
    if not path.is_file():
        raise ImportRefused(f"Im Datenverzeichnis {data_dir} liegt kein Abend ({SQLITE_NAME} fehlt)")
    if url.startswith("sqlite") and Path(url.split("///", 1)[-1]).resolve() == path.resolve():
        raise ImportRefused("Ziel und Quelle sind dieselbe Datenbank")
    owner = host_id(data_dir)
    source = HostStore(f"sqlite:///{path.resolve()}")
    try:
        rows = _read_all(source)
    finally:
        source.close()
    target = HostStore(url, owner)
    try:
        league = League(target)
        if season is not None:
            _fits(league, season, rows)  # an unknown season or one of another ruleset: before anything is written
        report = ImportReport(tournaments=[r["id"] for r in rows[tournaments.name]])
        with target._write() as conn:
            for table, key in _KEYED:
                given = rows[table.name]
                if table is tournaments:
                    given = [{**r, "host_id": r.get("host_id") or owner} for r in given]
                _copy(conn, table, key, given, report)
            for table, key in _COUNTED:
                _copy(conn, table, key, [{k: v for k, v in r.items() if k != "id"} for r in rows[table.name]], report)
            mapping = _players(conn, league, season, rows, report)
            _copy(
                conn,
                roster_players,
                ("tournament_id", "start_number"),
                [{**r, "player_id": mapping.get(r["player_id"], r["player_id"])} for r in rows[roster_players.name]],
                report,
            )
            _copy(
                conn,
                player_merges,
                ("from_id", "into_id", "merged_at"),
                [{k: v for k, v in r.items() if k != "id"} for r in rows[player_merges.name]],
                report,
            )
            if season is not None:
                joined = [
                    {"tournament_id": t, "season_id": season, "joined_at": utcnow()}
                    for t in report.tournaments
                    if conn.execute(select(season_tournaments.c.tournament_id).where(season_tournaments.c.tournament_id == t)).first()
                    is None
                ]
                report.new["Saison-Zuordnungen"] = len(joined)
                report.present["Saison-Zuordnungen"] = len(report.tournaments) - len(joined)
                if joined:
                    conn.execute(insert(season_tournaments), joined)
        if season is not None:  # entrants of evenings from before player ids: linked like a registration
            for t in report.tournaments:
                league.link(t, league._entrants(t))
        return report
    finally:
        target.close()


def _fits(league: League, season_id: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Every imported tournament plays what the season wertet (as ``League.join`` checks it)."""
    season = league.season(season_id)
    allowed = FAMILIES.get(season.family, (season.family,))
    names = {r["id"]: r["name"] for r in rows[tournaments.name]}
    for r in rows[tournament_plans.name]:
        ruleset_id = TournamentPlan.model_validate_json(r["plan"]).ruleset_id
        if ruleset_id not in allowed:
            raise ImportRefused(
                f"Die Saison '{season.name}' wertet {season.family}, das Turnier '{names.get(r['tournament_id'])}' "
                f"spielt {ruleset_id}; nichts wurde importiert"
            )


def _read_all(store: HostStore) -> dict[str, list[dict[str, Any]]]:
    tables = [t for t, _ in _KEYED] + [t for t, _ in _COUNTED] + [players, roster_players, player_merges]
    with store._read() as conn:
        return {t.name: [dict(r._mapping) for r in conn.execute(select(t))] for t in tables}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, datetime) and isinstance(b, datetime):
        return as_utc(a) == as_utc(b)
    return bool(a == b)


def _normal(row: dict[str, Any]) -> dict[str, Any]:
    return {k: as_utc(v) if isinstance(v, datetime) else v for k, v in row.items()}


def _copy(conn: Connection, table: Table, key: tuple[str, ...], given: Iterable[dict[str, Any]], report: ImportReport) -> None:
    label = _LABELS.get(table.name, table.name)
    report.new.setdefault(label, 0)
    report.present.setdefault(label, 0)
    fresh = []
    for row in given:
        row = _normal(row)
        where = and_(*(table.c[k].is_(None) if row[k] is None else table.c[k] == row[k] for k in key))
        there = conn.execute(select(table).where(where)).first()
        if there is None:
            fresh.append(row)
            continue
        found = dict(there._mapping)
        differing = [
            k for k, v in row.items() if k in found and k not in _IGNORED_DIFFERENCES and k != "id" and not _same(v, found[k])
        ]
        if differing:
            what = ", ".join(f"{k}={row[k]}" for k in key)
            raise ImportRefused(
                f"{label} ({what}) steht in der Liga-Datenbank schon mit anderem Inhalt ({', '.join(differing)}); "
                "nichts wurde importiert"
            )
        report.present[label] += 1
    if table is tournaments:
        for row in fresh:
            taken = conn.execute(select(tournaments.c.id).where(func.lower(tournaments.c.id) == row["id"].lower())).first()
            if taken is not None:
                raise ImportRefused(f"Turnier-ID {row['id']} ist in der Liga-Datenbank schon vergeben; nichts wurde importiert")
    if fresh:
        conn.execute(insert(table), fresh)
    report.new[label] += len(fresh)


def _players(
    conn: Connection, league: League, season: str | None, rows: dict[str, list[dict[str, Any]]], report: ImportReport
) -> dict[str, str]:
    """Copy the evening's players; with a season, a new host-assigned id becomes the season's player of that exact name."""
    mapping: dict[str, str] = {}
    known: dict[str, list[str]] = {}
    if season is not None:
        for p in league.season_players(season):
            known.setdefault(p.name.casefold(), []).append(p.id)
    label = _LABELS[players.name]
    report.new.setdefault(label, 0)
    report.present.setdefault(label, 0)
    for row in rows[players.name]:
        row = _normal(row)
        if conn.execute(select(players.c.id).where(players.c.id == row["id"])).first() is not None:
            report.present[label] += 1
            continue
        same = known.get(row["name"].casefold(), [])
        if row["id"].startswith("T-") and len(same) == 1:
            mapping[row["id"]] = same[0]
            report.present[label] += 1
            continue
        conn.execute(insert(players).values(**row))
        report.new[label] += 1
    return mapping


_LABELS = {
    "tournaments": "Turniere",
    "tournament_plans": "Turnierpläne",
    "entrants": "Meldungen",
    "draws": "Auslosungen",
    "rounds": "Rundenstarts",
    "drawn_sheets": "ausgeloste Blätter",
    "table_claims": "Tischseiten",
    "devices": "Handys",
    "revisions": "Revisionen",
    "decisions": "Entscheidungen",
    "conflicts": "Konflikte",
    "players": "Spieler",
    "roster_players": "Spieler-IDs der Meldungen",
    "player_merges": "Zusammenführungen",
}
