"""The host's SQL schema: its tables (SQLAlchemy Core) and the named migrations that make them.

Schema changes are named migrations applied once, in order, recorded in ``schema_migrations``
(``HostStore.migrate``); each one is idempotent, so a crash in the middle of one only repeats that
step. The database itself refuses to change or delete a stored revision or a decision of the
Turnierleitung (triggers of ``0002-revisionen-unveraenderlich`` and ``0005-entscheidungen-unveraenderlich``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    select,
    update,
)

from .credentials import new_entrant_secret

metadata = MetaData()

schema_migrations = Table(
    "schema_migrations",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("applied_at", DateTime(timezone=True), nullable=False),
)

host_settings = Table(
    "host_settings",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("value", Text, nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(80), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("join_code", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("host_id", String(40)),
    # The host that writes it (migration 0007); ``NULL``: from before, written by the one host of then.
)

devices = Table(
    "devices",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("team", String(80)),
    Column("name", String(80), nullable=False),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("start_number", Integer),
    # Joined with a Startnummer (migration 0004): the table comes from each round's draw, ``table_no`` is 0.
    Column("revoked_at", DateTime(timezone=True)),
    # Revoked by the Turnierleitung (migration 0006): its token gets 401 from then on.
)

revisions = Table(
    "revisions",
    metadata,
    Column("sheet_id", String(36), nullable=False),
    Column("revision", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("body_sha256", String(64), nullable=False),
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round_label", String(20), nullable=False),
    Column("round", Integer),
    Column("table_no", Integer, nullable=False),
    Column("written_by", String(80)),
    Column("closed", Boolean, nullable=False),
    Column("games", Integer, nullable=False),
    Column("device_id", String(40)),
    Column("received_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("sheet_id", "revision", name="revisions_pk"),
    Index("revisions_by_table", "tournament_id", "round_label", "round", "table_no"),
)

conflicts = Table(
    "conflicts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("sheet_id", String(36), nullable=False),
    Column("revision", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("body_sha256", String(64), nullable=False),
    Column("stored_sha256", String(64), nullable=False),
    Column("tournament_id", String(80)),
    Column("device_id", String(40)),
    Column("received_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("sheet_id", "revision", "body_sha256", name="conflicts_once_per_body"),
)

V1_TABLES = [schema_migrations, host_settings, tournaments, devices, revisions, conflicts]

# -- issue 13: the organizer's tournament (plan, roster, draws, rounds, decisions) -------------

tournament_plans = Table(
    "tournament_plans",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), primary_key=True),
    Column("plan", Text, nullable=False),
    # The ``TournamentPlan`` as JSON (ruleset, options, unit, rounds, ...).
    Column("date", String(10)),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

entrants = Table(
    "entrants",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("start_number", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("members", Text, nullable=False),
    # The team's players as a JSON list (empty for a single player).
    Column("club", String(200)),
    Column("registered_round", Integer),
    # Registered late: plays from this round on (``None``: on the roster from the start).
    Column("withdrawn_after", Integer),
    # Withdrew after this round (``None``: still playing); finished rounds stay counted.
    Column("created", DateTime(timezone=True), nullable=False),
    Column("secret", String(32)),
    # The entrant's secret for the Startkarte (migration 0006): a phone joins for the Startnummer only with it.
    PrimaryKeyConstraint("tournament_id", "start_number", name="entrants_pk"),
)

draws = Table(
    "draws",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("draw", Text, nullable=False),
    # The ``RoundDraw`` as JSON.
    Column("created", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "round", name="draws_pk"),
)

rounds = Table(
    "rounds",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "round", name="rounds_pk"),
)

decisions = Table(
    "decisions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("kind", String(20), nullable=False),
    # "entscheidung" (this sheet stands), "korrektur" (a game entered anew), "abbruch" (Durchgang abgebrochen).
    Column("sheet_id", String(36)),
    Column("revision", Integer),
    # The host-written revision the decision made (the one the standings use).
    Column("decided_by", String(80), nullable=False),
    Column("reason", Text, nullable=False),
    Column("detail", Text, nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=False),
    Index("decisions_by_table", "tournament_id", "round", "table_no"),
)

V2_TABLES = [tournament_plans, entrants, draws, rounds, decisions]

# -- issue 20: who writes which sheet ------------------------------------------------------------

drawn_sheets = Table(
    "drawn_sheets",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("start_number", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("writer", String(80), nullable=False),
    # The participant id the entrant writes as (``context.written_by`` of its sheet).
    Column("sheet_id", String(36), nullable=False, unique=True),
    # Random (uuid4), made with the draw: not derivable from the Losnummer or anything printed.
    PrimaryKeyConstraint("tournament_id", "round", "start_number", name="drawn_sheets_pk"),
)

table_claims = Table(
    "table_claims",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("round_label", String(20), nullable=False),
    Column("round", Integer, nullable=False),
    # The sheet's round (0: a sheet without a round number).
    Column("table_no", Integer, nullable=False),
    Column("side", String(80), nullable=False),
    # The ``written_by`` of the side (tables-only tournaments): the first phone to deliver it holds it.
    Column("device_id", String(40), nullable=False),
    Column("claimed_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "round_label", "round", "table_no", "side", name="table_claims_pk"),
)

V3_TABLES = [drawn_sheets, table_claims]


# -- migrations -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Migration:
    name: str
    apply: Callable[[Connection], None]


MIGRATIONS: list[Migration] = []


def migration(name: str) -> Callable[[Callable[[Connection], None]], Callable[[Connection], None]]:
    """Register a schema step; steps run in the order they are registered, each once."""

    def decorate(function: Callable[[Connection], None]) -> Callable[[Connection], None]:
        if any(m.name == name for m in MIGRATIONS):
            raise ValueError(f"migration registered twice: {name}")
        MIGRATIONS.append(Migration(name, function))
        return function

    return decorate


@migration("0001-erste-tabellen")
def _create_v1_tables(conn: Connection) -> None:
    metadata.create_all(conn, tables=V1_TABLES, checkfirst=True)


_REFUSAL = "Eine gespeicherte Revision wird nie geändert oder gelöscht"


@migration("0002-revisionen-unveraenderlich")
def _revisions_are_immutable(conn: Connection) -> None:
    if conn.dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            conn.exec_driver_sql(
                f"CREATE TRIGGER IF NOT EXISTS revisions_no_{action.lower()} BEFORE {action} ON revisions "
                f"BEGIN SELECT RAISE(ABORT, '{_REFUSAL}'); END"
            )
    else:
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION tischblock_refuse_change() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN RAISE EXCEPTION '{_REFUSAL}'; END $$"
        )
        for action in ("UPDATE", "DELETE"):
            trigger = f"revisions_no_{action.lower()}"
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger} ON revisions")
            conn.exec_driver_sql(
                f"CREATE TRIGGER {trigger} BEFORE {action} ON revisions FOR EACH ROW EXECUTE FUNCTION tischblock_refuse_change()"
            )


@migration("0003-turnier-plan-startliste-auslosung")
def _create_tournament_tables(conn: Connection) -> None:
    metadata.create_all(conn, tables=V2_TABLES, checkfirst=True)


@migration("0004-geraete-startnummer")
def _devices_start_number(conn: Connection) -> None:
    """A phone may join with its Startnummer instead of a table: its table then comes from each round's draw."""
    if "start_number" not in {c["name"] for c in inspect(conn).get_columns("devices")}:
        conn.exec_driver_sql("ALTER TABLE devices ADD COLUMN start_number INTEGER")


@migration("0005-entscheidungen-unveraenderlich")
def _decisions_are_immutable(conn: Connection) -> None:
    """A decision of the Turnierleitung is a trail: never changed or removed (like a revision)."""
    if conn.dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            conn.exec_driver_sql(
                f"CREATE TRIGGER IF NOT EXISTS decisions_no_{action.lower()} BEFORE {action} ON decisions "
                f"BEGIN SELECT RAISE(ABORT, '{_DECISION_REFUSAL}'); END"
            )
    else:
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION tischblock_refuse_decision_change() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN RAISE EXCEPTION '{_DECISION_REFUSAL}'; END $$"
        )
        for action in ("UPDATE", "DELETE"):
            trigger = f"decisions_no_{action.lower()}"
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger} ON decisions")
            conn.exec_driver_sql(
                f"CREATE TRIGGER {trigger} BEFORE {action} ON decisions FOR EACH ROW "
                "EXECUTE FUNCTION tischblock_refuse_decision_change()"
            )


_DECISION_REFUSAL = "Eine Entscheidung der Turnierleitung wird nie geändert oder gelöscht"


@migration("0006-blatt-besitz-schluessel-geraete")
def _ownership(conn: Connection) -> None:
    """Sheets belong to their writer, entrants have secrets, devices can be revoked (issue 20).

    Adds ``drawn_sheets`` (each drawn sheet's random id) and ``table_claims`` (who holds a side of a
    table), ``devices.revoked_at`` and ``entrants.secret``, and gives every entrant without one a secret.
    """
    metadata.create_all(conn, tables=V3_TABLES, checkfirst=True)
    if "revoked_at" not in {c["name"] for c in inspect(conn).get_columns("devices")}:
        conn.exec_driver_sql(
            "ALTER TABLE devices ADD COLUMN revoked_at TIMESTAMP WITH TIME ZONE"
            if conn.dialect.name == "postgresql"
            else "ALTER TABLE devices ADD COLUMN revoked_at DATETIME"
        )
    if "secret" not in {c["name"] for c in inspect(conn).get_columns("entrants")}:
        conn.exec_driver_sql("ALTER TABLE entrants ADD COLUMN secret VARCHAR(32)")
    missing = conn.execute(select(entrants.c.tournament_id, entrants.c.start_number).where(entrants.c.secret.is_(None))).all()
    for tournament_id, start_number in missing:
        key = (entrants.c.tournament_id == tournament_id) & (entrants.c.start_number == start_number)
        conn.execute(update(entrants).where(key).values(secret=new_entrant_secret()))


# -- issue 23: seasons across tournaments and halls, people across evenings ------------------------

seasons = Table(
    "seasons",
    metadata,
    Column("id", String(80), primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("family", String(40), nullable=False),
    # The ruleset id its tournaments play (or a family prefix such as "doppelkopf").
    Column("scheme", Text, nullable=False),
    # The ``SeasonScheme`` as JSON.
    Column("created", DateTime(timezone=True), nullable=False),
)

season_tournaments = Table(
    "season_tournaments",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), primary_key=True),
    # A tournament belongs to at most one season.
    Column("season_id", String(80), ForeignKey("seasons.id"), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(80), primary_key=True),
    # "SP-<Spielerpass>" or "T-<random>" (assigned by the host on first registration).
    Column("name", String(200), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("merged_into", String(80)),
    # Set once when the organizer merged this record into another (``player_merges`` keeps the trail).
)

roster_players = Table(
    "roster_players",
    metadata,
    Column("tournament_id", String(80), ForeignKey("tournaments.id"), nullable=False),
    Column("start_number", Integer, nullable=False),
    Column("player_id", String(80), ForeignKey("players.id"), nullable=False),
    PrimaryKeyConstraint("tournament_id", "start_number", name="roster_players_pk"),
)

player_merges = Table(
    "player_merges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("from_id", String(80), nullable=False),
    Column("into_id", String(80), nullable=False),
    Column("reason", Text, nullable=False),
    Column("merged_by", String(80), nullable=False),
    Column("merged_at", DateTime(timezone=True), nullable=False),
)

V4_TABLES = [seasons, season_tournaments, players, roster_players, player_merges]


@migration("0007-saisons-spieler-hosts")
def _seasons(conn: Connection) -> None:
    """Seasons and their tournaments, stable player ids with merges, and which host writes a tournament
    (``tournaments.host_id``: ``NULL`` for tournaments from before, which the one host of then writes)."""
    metadata.create_all(conn, tables=V4_TABLES, checkfirst=True)
    if "host_id" not in {c["name"] for c in inspect(conn).get_columns("tournaments")}:
        conn.exec_driver_sql("ALTER TABLE tournaments ADD COLUMN host_id VARCHAR(40)")
