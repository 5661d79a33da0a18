"""The organizer's JSON endpoints: one per ``Desk`` action, behind the organizer's password.

Every route is a thin shell over ``sync.host.desk.Desk`` (the one place of the tournament's logic): it
reads the request, calls the method, and answers its result as JSON. A refused action
(``DeskError``, ``RosterError``, ``RuleViolation``) is a 422 with the German ``detail`` (a CSV's
``problems`` as well, one per bad line) and has changed nothing. docs/sync-client.md lists them.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, is_dataclass
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Path, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from scoring import RuleViolation
from scoring.roster import RosterError

from ..protocol import API_PREFIX, ConflictInfo, SheetSummary, TableState
from .auth import organizer_required
from .desk import Desk, DeskError
from .http import PROBLEMS, HostError, SheetIdPath, SlugPath
from .league import League
from .records import StoredRevision
from .state import HostState

PREFIX = f"{API_PREFIX}/organizer"


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TournamentRequest(_Request):
    name: str = Field(min_length=1, max_length=200)
    ruleset_id: str = Field(min_length=1, max_length=40)
    date: str | None = Field(default=None, max_length=10)
    options: dict[str, Any] | None = None
    rounds: int | None = Field(default=None, ge=1, le=50)
    join_code: str | None = Field(default=None, min_length=4, max_length=64)


class PlanRequest(_Request):
    ruleset_id: str = Field(min_length=1, max_length=40)
    date: str | None = Field(default=None, max_length=10)
    options: dict[str, Any] | None = None
    rounds: int | None = Field(default=None, ge=1, le=50)


class RosterCsv(_Request):
    csv: str = Field(max_length=900_000)


class Registration(_Request):
    name: str = Field(min_length=1, max_length=200)
    members: list[str] = Field(default_factory=list, max_length=10)
    club: str | None = Field(default=None, max_length=200)
    start_number: int | None = Field(default=None, ge=1, le=100_000)


class DrawRequest(_Request):
    seed: int | None = Field(default=None, ge=0, lt=2**31)
    tables: list[list[int]] | None = Field(default=None, max_length=10_000)
    """A draw made by hand (the paper Lose): each table's Startnummern in seat order; then no seed."""


class Reason(_Request):
    reason: str = Field(min_length=1, max_length=500)
    by: str = Field(default="Turnierleitung", min_length=1, max_length=80)


class DecideRequest(Reason):
    sheet_id: uuid.UUID


class CorrectRequest(Reason):
    sheet_id: uuid.UUID
    game: int = Field(ge=1, le=10_000)
    data: dict[str, Any]
    kind: str | None = Field(default=None, max_length=40)


RoundPath = Annotated[int, Path(ge=1, le=1000, description="Durchgang / Serie / Runde")]
TablePath = Annotated[int, Path(ge=1, le=100_000, description="Tischnummer")]


def _json(value: Any, status: int = 200) -> JSONResponse:
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    return JSONResponse(jsonable_encoder(value), status_code=status)


def install_organizer_routes(app: FastAPI, state: HostState) -> None:
    """Add the organizer's endpoints to the host's app: the tournament's (one per ``Desk`` action) and
    the view of the phones' sheets."""
    install_sheet_routes(app, state)
    organizer = [Depends(organizer_required(state))]

    def desk() -> Desk:
        return state.desk

    @app.exception_handler(RosterError)
    async def roster_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RosterError)
        return JSONResponse({"detail": str(error), "problems": list(error.problems)}, status_code=422)

    @app.exception_handler(DeskError)
    async def desk_error(_request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=422)

    @app.exception_handler(RuleViolation)
    async def rule_error(_request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=422)

    def overview() -> dict[str, Any]:
        d = desk()
        t = d.tournament()
        plan = d.plan() if d.has_plan() else None
        return {
            "id": t.id,
            "name": t.name,
            "join_code": t.join_code,
            "date": d.date(),
            "plan": plan,
            "entrants": len(d.roster_entries()),
            "rounds_drawn": [r.round for r in d.draws()],
            "current_round": d.current_round(),
        }

    @app.get(f"{PREFIX}/tournament", dependencies=organizer, summary="Das Turnier mit Plan und Stand der Auslosung")
    def tournament() -> JSONResponse:
        return _json(overview())

    @app.post(f"{PREFIX}/tournament", dependencies=organizer, status_code=201, summary="Ein neues Turnier mit Plan anlegen")
    def create(request: TournamentRequest) -> JSONResponse:
        desk().create_tournament(
            request.name,
            request.ruleset_id,
            date=request.date,
            options=request.options,
            rounds=request.rounds,
            join_code=request.join_code,
        )
        return _json(overview(), 201)

    @app.put(
        f"{PREFIX}/plan", dependencies=organizer, summary="Regelwerk, Optionen, Durchgänge, Datum (vor der ersten Auslosung)"
    )
    def plan(request: PlanRequest) -> JSONResponse:
        desk().configure(request.ruleset_id, date=request.date, options=request.options, rounds=request.rounds)
        return _json(overview())

    @app.get(f"{PREFIX}/roster", dependencies=organizer, summary="Die Startliste")
    def roster() -> JSONResponse:
        return _json([asdict(e) for e in desk().roster_entries()])

    @app.post(f"{PREFIX}/roster/csv", dependencies=organizer, summary="Die Startliste aus einer CSV-Datei (alles oder nichts)")
    def import_csv(request: RosterCsv) -> JSONResponse:
        desk().import_roster(request.csv)
        return _json([asdict(e) for e in desk().roster_entries()])

    @app.post(f"{PREFIX}/entrants", dependencies=organizer, status_code=201, summary="Teilnehmer eintragen oder nachmelden")
    def register(request: Registration) -> JSONResponse:
        return _json(desk().register(request.name, request.members, request.club, request.start_number), 201)

    @app.post(
        f"{PREFIX}/entrants/{{start_number}}/secret",
        dependencies=organizer,
        summary="Einen neuen Schlüssel für die Startkarte ausgeben (der alte gilt nicht mehr)",
    )
    def new_secret(start_number: Annotated[int, Path(ge=1, le=100_000)]) -> JSONResponse:
        entry = desk().new_secret(start_number)
        return _json({"start_number": start_number, "name": entry.entrant.name, "secret": entry.secret})

    @app.get(f"{PREFIX}/devices", dependencies=organizer, summary="Jedes Handy: für wen, seit wann, letzte Abgabe, abgemeldet")
    def devices(round: Annotated[int | None, Query(ge=1, le=1000)] = None) -> JSONResponse:
        return _json([asdict(d) for d in desk().devices(round)])

    @app.post(
        f"{PREFIX}/devices/{{device_id}}/revoke",
        dependencies=organizer,
        summary="Ein Handy abmelden: sein Token gilt nicht mehr (401)",
    )
    def revoke(device_id: Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[0-9a-f]+$")]) -> JSONResponse:
        return _json(desk().revoke_device(device_id))

    @app.post(
        f"{PREFIX}/entrants/{{start_number}}/withdraw", dependencies=organizer, summary="Rückzug nach dem laufenden Durchgang"
    )
    def withdraw(start_number: Annotated[int, Path(ge=1, le=100_000)]) -> JSONResponse:
        return _json(desk().withdraw(start_number))

    @app.post(
        f"{PREFIX}/rounds/{{round}}/draw", dependencies=organizer, status_code=201, summary="Den Durchgang auslosen (Los-Nummer)"
    )
    def draw(round: RoundPath, request: Annotated[DrawRequest | None, Body()] = None) -> JSONResponse:
        if request is not None and request.tables is not None:
            return _json(desk().enter_draw(round, request.tables), 201)
        return _json(desk().draw(round, request.seed if request else None), 201)

    @app.get(f"{PREFIX}/rounds/{{round}}/draw", dependencies=organizer, summary="Die Auslosung eines Durchgangs")
    def drawn(round: RoundPath) -> JSONResponse:
        return _json(desk().draw_of(round))

    @app.post(f"{PREFIX}/rounds/{{round}}/start", dependencies=organizer, summary="Die Uhr des Durchgangs starten")
    def start(round: RoundPath) -> JSONResponse:
        return _json({"round": round, "started_at": desk().start_round(round)})

    @app.get(f"{PREFIX}/rounds/{{round}}/tables", dependencies=organizer, summary="Jeder Tisch mit Stand, Uhr und Blättern")
    def tables(round: RoundPath) -> JSONResponse:
        return _json([_table(v) for v in desk().tables(round)])

    @app.get(f"{PREFIX}/rounds/{{round}}/tables/{{table}}/dispute", dependencies=organizer, summary="Zwei Blätter nebeneinander")
    def dispute(round: RoundPath, table: TablePath) -> JSONResponse:
        found = desk().dispute(round, table)
        return _json(
            {
                "round": found.round,
                "table": found.table,
                "comparison": found.comparison,
                "sheets": [_host_sheet(h) for h in found.sheets],
                "lines": found.lines,
            }
        )

    @app.post(
        f"{PREFIX}/rounds/{{round}}/tables/{{table}}/decide", dependencies=organizer, status_code=201, summary="Dieses Blatt gilt"
    )
    def decide(round: RoundPath, table: TablePath, request: DecideRequest) -> JSONResponse:
        return _json(desk().decide(round, table, request.sheet_id, request.reason, request.by), 201)

    @app.post(
        f"{PREFIX}/rounds/{{round}}/tables/{{table}}/correct",
        dependencies=organizer,
        status_code=201,
        summary="Ein Spiel neu eintragen",
    )
    def correct(round: RoundPath, table: TablePath, request: CorrectRequest) -> JSONResponse:
        made = desk().correct_game(
            round, table, request.sheet_id, request.game, request.data, request.reason, kind=request.kind, by=request.by
        )
        return _json(made, 201)

    @app.post(
        f"{PREFIX}/rounds/{{round}}/tables/{{table}}/abort",
        dependencies=organizer,
        status_code=201,
        summary="Durchgang abbrechen",
    )
    def abort(round: RoundPath, table: TablePath, request: Reason) -> JSONResponse:
        return _json([asdict(d) for d in desk().abort_table(round, table, request.reason, request.by)], 201)

    @app.get(f"{PREFIX}/decisions", dependencies=organizer, summary="Alle Entscheidungen der Turnierleitung")
    def decisions() -> JSONResponse:
        return _json([asdict(d) for d in desk().decisions()])

    @app.get(f"{PREFIX}/standings", dependencies=organizer, summary="Der Zwischenstand mit den Regeln des Regelwerks")
    def standings() -> JSONResponse:
        return _json(desk().standings())

    # -- the season (issue 23): the league's seasons on the shared database ---------------------------
    def league() -> League:
        return League(state.store, state.scored)

    @app.get(f"{PREFIX}/seasons", dependencies=organizer, summary="Die Saisons der Liga (auch anderer Hosts)")
    def seasons() -> JSONResponse:
        return _json([_season(s) for s in league().seasons()])

    @app.get(
        f"{PREFIX}/seasons/{{season_id}}/standings",
        dependencies=organizer,
        summary="Die Saisonwertung: jede Zeile mit den gezählten und gestrichenen Ergebnissen (nur lesen)",
    )
    def season_standings(season_id: SlugPath) -> JSONResponse:
        found = league()
        season = found.season(season_id)
        standings = found.standings(season_id)
        return _json({"season": _season(season), "scheme_text": standings.scheme.describe(), **standings.model_dump(mode="json")})

    @app.put(
        f"{PREFIX}/seasons/{{season_id}}/tournaments/{{tournament_id}}",
        dependencies=organizer,
        summary="Ein Turnier dieses Hosts (auch ein früheres) einer Saison zuordnen",
    )
    def season_join(season_id: SlugPath, tournament_id: SlugPath) -> JSONResponse:
        return _json(_season(league().join(tournament_id, season_id)))

    @app.get(f"{PREFIX}/exports/standings.csv", dependencies=organizer, summary="Der Stand als CSV")
    def standings_csv() -> Response:
        return _csv(desk().standings_csv(), "stand.csv")

    @app.get(f"{PREFIX}/exports/games.csv", dependencies=organizer, summary="Jedes Spiel jedes gewerteten Blatts als CSV")
    def games_csv() -> Response:
        return _csv(desk().games_csv(), "spiele.csv")


def _season(season: Any) -> dict[str, Any]:
    return {"id": season.id, "name": season.name, "family": season.family, "scheme": season.scheme, "created": season.created}


def _csv(body: bytes, name: str) -> Response:
    return Response(body, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _host_sheet(h: Any) -> dict[str, Any]:
    return {
        "sheet": h.sheet.model_dump(mode="json", exclude_none=True),
        "revision": h.revision,
        "written_by_host": h.written_by_host,
        "received_at": h.received_at,
    }


def _table(view: Any) -> dict[str, Any]:
    return {
        "round": view.round,
        "draw": view.draw,
        "status": view.status,
        "sheets": [_host_sheet(h) for h in view.sheets],
        "decisions": [asdict(d) for d in view.decisions],
    }


def install_sheet_routes(app: FastAPI, state: HostState) -> None:
    """Add the organizer's view of the phones' sheets: every table with its sheets, the conflicts kept
    aside, and a sheet's latest revision."""
    store = state.store
    require_organizer = organizer_required(state)

    @app.get(
        f"{API_PREFIX}/tables",
        response_model=list[TableState],
        summary="Alle Tische des Turniers mit ihren Blättern (Veranstalter)",
        dependencies=[Depends(require_organizer)],
        responses={401: PROBLEMS[401]},
    )
    def tables() -> list[TableState]:
        groups: dict[tuple[str, int | None, int], list[StoredRevision]] = {}
        for stored in store.latest_per_sheet(state.tournament.id):
            groups.setdefault((stored.round_label, stored.round, stored.table), []).append(stored)
        out = []
        for (round_label, round, table), rows in sorted(
            groups.items(), key=lambda item: (item[0][1] or 0, item[0][2], item[0][0])
        ):
            sheets = [state.scored.get(r)[0] for r in rows]
            summaries = [
                SheetSummary(
                    sheet_id=r.sheet_id,
                    written_by=r.written_by,
                    team=s.writer_name,
                    revision=r.revision,
                    closed=r.closed,
                    games=r.games,
                    updated_at=r.received_at,
                )
                for r, s in zip(rows, sheets, strict=True)
            ]
            comparison = state.desk.comparison(rows[-1])[0] if len(rows) >= 2 else None
            out.append(TableState(round_label=round_label, round=round, table=table, sheets=summaries, comparison=comparison))
        return out

    @app.get(
        f"{API_PREFIX}/conflicts",
        response_model=list[ConflictInfo],
        summary="Beiseitegelegte abweichende Fassungen (Veranstalter)",
        dependencies=[Depends(require_organizer)],
        responses={401: PROBLEMS[401]},
    )
    def conflicts() -> list[ConflictInfo]:
        return [
            ConflictInfo(
                id=c.id,
                sheet_id=c.sheet_id,
                revision=c.revision,
                device_id=c.device_id,
                received_at=c.received_at,
                body_sha256=c.body_sha256,
                stored_sha256=c.stored_sha256,
                body=c.body,
            )
            for c in store.conflicts(state.tournament.id)
        ]

    @app.get(
        f"{API_PREFIX}/sheets/{{sheet_id}}",
        summary="Die neueste gespeicherte Revision eines Blatts (Veranstalter)",
        dependencies=[Depends(require_organizer)],
        responses={
            200: {"content": {"application/json": {"schema": {"type": "object"}}}},
            401: PROBLEMS[401],
            404: PROBLEMS[404],
        },
    )
    def latest_sheet(sheet_id: SheetIdPath) -> Response:
        stored = store.latest(sheet_id)
        if stored is None:
            raise HostError(404, f"Das Blatt {sheet_id} ist nicht gespeichert")
        return Response(stored.body, media_type="application/json", headers={"X-Tischblock-Revision": str(stored.revision)})
