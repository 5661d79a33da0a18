"""The phones' endpoints: join the tournament, ask for the drawn table, hand in each revision of a sheet.

- Phones join with the tournament's join code and get a random device token, stored only as its
  SHA-256; they send it in ``X-Tischblock-Token``, never in a URL. Wrong join codes are counted per
  client address (``limits``, a moving window) and answered 429 with ``Retry-After`` once too many.
- A device submits only sheets of its own tournament and table. Every sheet is checked with its
  ruleset before it is stored (``score_sheet(sheet)``); a refused sheet gets 422 with
  the rule's German message and changes nothing.
- A revision is stored once (identity: the sheet's canonical JSON, ``Sheet.to_json()``), and the
  answer leaves only after the commit. The same sheet again is "already stored"; another sheet
  under a stored (id, revision) is a 409 conflict, kept aside for the organizer.
- The two sheets of a table and round are compared (``Desk.comparison``) and each arriving sheet
  gets one German log line, which never holds a token or a password.

No ``from __future__ import annotations`` here: FastAPI reads the routes' ``Annotated[..., Depends(...)]``
at definition time, and the dependencies are local to ``install_phone_routes``.
"""

import asyncio
import functools
import hmac
import math
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, NamedTuple

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool
from starlette.routing import Match, Route

from scoring import Sheet
from scoring.adoption import AdoptionRefused

from ..protocol import (
    ADOPT_PATH,
    API_PREFIX,
    API_VERSION,
    TOKEN_HEADER,
    AdoptResponse,
    AssignmentResponse,
    HostInfo,
    JoinRequest,
    JoinResponse,
    Problem,
    SubmitResponse,
)
from .auth import BASIC, basic_credentials, device_of, device_required, device_required_fast, is_organizer, known_device
from .batches import Doorbell
from .checking import Checked
from .credentials import new_device_token, same_secret, token_sha256
from .desk import DeskError, RoundSigned
from .http import PROBLEMS, HostError, RevisionPath, SheetIdPath, json_body_schema
from .log import log
from .records import Device, NewRevision, SheetRefused, StoredRevision, StoreResult
from .state import HostState


def _round_text(round_label: str, round: int | None) -> str:
    return f"{round_label} {round}" if round is not None else round_label


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_MAX_REVISION = 1_000_000  # RevisionPath's bound


class _Admitted(NamedTuple):
    """A sheet that passed the host's checks (``admit``): the revision to store, and for the log line
    where it comes from (table, round) and who writes it."""

    new: NewRevision
    where: str
    writer: str


class KnownDeviceSubmit:
    """The sheet route's way for the requests nearly all sheets are: a known device's token (as
    ``known_device`` says) and a path FastAPI would take as it is (a lowercase UUID, a revision of
    digits within ``RevisionPath``'s bound). Those go straight to ``take_sheet`` in one worker
    thread, without FastAPI's solving of the route's parameters and dependency per request, which
    was a tenth of the host's CPU per sheet (issue 24). Every other request is handed to the
    FastAPI route itself, so every refusal is the one it was; ``take_sheet``'s own refusals are
    answered by the app's error handlers either way. Same work, same answers, less per request.

    A device of a tables-only tournament (no Startnummer) on a store with the group commit (SQLite)
    has its sheet taken in the event loop itself (``take_in_loop``): the sheet waits for its check
    process and for the commit holding it as a coroutine, woken with the other sheets of its batch
    by one ``Doorbell``, where a worker thread per sheet was woken twice (the host's own CPU per
    sheet 0.58 to 0.62 ms, now 0.47 to 0.49; issue 24). The checks between (device, table, writer,
    the Turnierleitung's lock) and the answer (the comparison, the log line) are the same code as
    in ``take_sheet``, and what they read is kept in memory (the table's latest sheets, its
    decisions, the tallies), read from SQLite once on a miss; WAL readers never wait for the writer.
    A device with a Startnummer (its round's draw may be read and its sheets written) and the
    PostgreSQL store take the worker thread, as before.

    The worker threads are a plain executor's (``loop.run_in_executor``): anyio's way to a thread
    (a cancel scope, a capacity limiter, its own worker queue) cost more CPU per sheet than the
    log line (issue 24). Each thread waits for the group commit holding its sheet, so there are
    as many as there may be sheets in one batch (``_GroupCommit.MAX_BATCH``)."""

    THREADS = 64

    def __init__(
        self, state: HostState, route: APIRoute, take: Callable[..., Response], take_in_loop: Callable[..., Awaitable[Response]]
    ) -> None:
        self.state = state
        self.route = route
        self.take = take
        self.take_in_loop = take_in_loop
        self.threads = ThreadPoolExecutor(self.THREADS, thread_name_prefix="tischblock-sheet")
        self._bell: Doorbell | None = None

    def _doorbell(self, loop: asyncio.AbstractEventLoop) -> Doorbell:
        """The running loop's doorbell (a test client may run the app in a loop of its own)."""
        bell = self._bell
        if bell is None or bell.loop is not loop:
            self._bell = bell = Doorbell(loop)
        return bell

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        params = scope["path_params"]
        sheet_id, revision = str(params.get("sheet_id", "")), str(params.get("revision", ""))
        request = Request(scope, receive)
        device = known_device(self.state, request.headers.get(TOKEN_HEADER))
        if (
            device is None
            or not _CANONICAL_UUID.fullmatch(sheet_id)
            or not (revision.isascii() and revision.isdigit() and len(revision) <= 7 and int(revision) <= _MAX_REVISION)
        ):
            match, child_scope = self.route.matches(scope)
            assert match is Match.FULL, match
            await self.route.handle({**scope, **child_scope, "route": self.route}, receive, send)
            return
        body = await request.body()
        arguments = (uuid.UUID(sheet_id), int(revision), body, request.headers.get("content-type"), device)
        loop = asyncio.get_running_loop()
        if device.start_number is None and self.state.store.commits_in_groups:
            response = await self.take_in_loop(*arguments, self._doorbell(loop), self.threads)
        else:
            response = await loop.run_in_executor(self.threads, functools.partial(self.take, *arguments))
        await response(scope, receive, send)


def install_phone_routes(app: FastAPI, state: HostState) -> None:
    """Add the phones' endpoints to the host's app."""
    store = state.store
    require_device = device_required(state)
    require_device_fast = device_required_fast(state)

    def device_table(device: Device, round: int | None) -> int | None:
        """The table the device writes for: the one it joined, or its Startnummer's in the round's draw."""
        if device.start_number is None:
            return device.table
        if round is None:
            return None
        return state.desk.seat_of(device.start_number, round, device.tournament_id)

    def answer(status: str, stored: StoredRevision) -> SubmitResponse:
        comparison, _ = state.desk.comparison(stored)
        return SubmitResponse(
            status=status,  # type: ignore[arg-type]
            sheet_id=stored.sheet_id,
            revision=stored.revision,
            closed=stored.closed,
            comparison=comparison,
        )

    @app.get(f"{API_PREFIX}/info", response_model=HostInfo, summary="Welches Turnier dieser Host sammelt")
    def info() -> HostInfo:
        return HostInfo(api_version=API_VERSION, tournament_id=state.tournament.id, tournament_name=state.tournament.name)

    @app.post(
        f"{API_PREFIX}/join",
        response_model=JoinResponse,
        status_code=201,
        summary="Mit dem Beitrittscode ein Geräte-Token für einen Tisch holen",
        responses={403: PROBLEMS[403], 422: PROBLEMS[422], 429: {"model": Problem, "description": "Zu viele falsche Codes"}},
    )
    def join(request: JoinRequest, http: Request) -> JoinResponse:
        address = http.client.host if http.client else "?"
        if not state.limiter.test(state.join_limit, address):
            reset = state.limiter.get_window_stats(state.join_limit, address).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            log.warning("Beitritt von %s gesperrt: zu viele falsche Beitrittscodes oder Schlüssel (noch %d s)", address, wait)
            raise HostError(
                429,
                f"Zu viele falsche Beitrittscodes oder Schlüssel; bitte in {wait} Sekunden wieder versuchen",
                {"Retry-After": str(wait)},
            )
        given = request.join_code.strip().upper().encode("utf-8")
        if not hmac.compare_digest(given, state.tournament.join_code.encode("utf-8")):
            state.limiter.hit(state.join_limit, address)
            where = f"Tisch {request.table}" if request.table is not None else f"Startnummer {request.start_number}"
            log.warning("Falscher Beitrittscode von %s (%s)", address, where)
            raise HostError(403, "Falscher Beitrittscode")
        desk = state.desk
        drawn = desk.has_plan() and desk.has_roster()
        team = request.team
        if request.start_number is not None:
            if not drawn:
                raise HostError(
                    422, "Dieses Turnier hat keine Startliste: bitte mit der Tischnummer beitreten, die am Tisch steht"
                )
            try:
                entry = desk._entry(request.start_number)
            except DeskError as error:
                state.limiter.hit(state.join_limit, address)
                log.warning("Beitritt von %s abgelehnt: %s", address, error)
                raise HostError(404, f"{error}; bitte die Startnummer prüfen") from None
            if not same_secret(request.secret, entry.secret):
                state.limiter.hit(state.join_limit, address)
                log.warning("Falscher Schlüssel von %s für Startnummer %d", address, request.start_number)
                raise HostError(
                    403,
                    f"Falscher Schlüssel für Startnummer {request.start_number}: er steht auf der Startkarte "
                    "(XXXX-XXXX); eine neue Startkarte gibt die Turnierleitung",
                )
            team = entry.entrant.name
        elif drawn:
            raise HostError(
                422,
                "In diesem Turnier werden die Tische ausgelost: bitte mit der Startnummer beitreten (sie steht auf der Startliste)",
            )
        token = new_device_token()
        device = store.add_device(
            state.tournament.id, request.table or 0, team, request.device_name, token_sha256(token), request.start_number
        )
        if request.start_number is not None:
            log.info("Gerät '%s' beigetreten: Startnummer %d, %s", request.device_name, request.start_number, team)
        else:
            shown = f", {team}" if team else ""
            log.info("Gerät '%s' beigetreten: Tisch %d%s", request.device_name, request.table, shown)
        return JoinResponse(
            device_token=token,
            device_id=device.id,
            tournament_id=state.tournament.id,
            tournament_name=state.tournament.name,
            table=request.table,
            team=team,
            start_number=request.start_number,
        )

    @app.get(
        f"{API_PREFIX}/assignment",
        response_model=AssignmentResponse,
        summary="Tisch, Platz und vorbereitetes Blatt dieser Startnummer in einem Durchgang (Gerät)",
        responses={401: PROBLEMS[401], 404: PROBLEMS[404], 422: PROBLEMS[422]},
    )
    def assignment(
        device: Annotated[Device, Depends(require_device)],
        round: Annotated[int | None, Query(ge=1, le=1000)] = None,
    ) -> AssignmentResponse:
        if device.start_number is None:
            raise HostError(422, f"Dieses Gerät ist für Tisch {device.table} angemeldet; eine Auslosung gibt es dafür nicht")
        try:
            found = state.desk.assignment(device.start_number, round)
        except DeskError as error:
            raise HostError(404, str(error)) from None
        return AssignmentResponse(
            tournament_id=state.tournament.id,
            tournament_name=state.tournament.name,
            round=found.round,
            round_label=found.round_label,
            table=found.table,
            seat=found.seat,
            start_number=found.start_number,
            participant_id=found.participant_id,
            name=found.name,
            started_at=found.started_at,
            sheet=found.sheet,
        )

    def take_sheet(sheet_id: uuid.UUID, revision: int, body: bytes, content_type: str | None, device: Device) -> Response:
        """Everything ``submit`` does with one arriving sheet, in one worker thread: parse the body
        once, check it (device, table, writer, the Turnierleitung's lock, the ruleset), store it
        (the answer waits for the commit holding it), compare it and answer in JSON."""
        admitted = admit(state.checker.check(body, content_type), sheet_id, revision, device)
        try:
            result = store.store_revision(admitted.new)
        except SheetRefused as error:
            raise refused(admitted, error) from None
        return reply(admitted, result)

    async def take_in_loop(
        sheet_id: uuid.UUID,
        revision: int,
        body: bytes,
        content_type: str | None,
        device: Device,
        bell: Doorbell,
        executor: ThreadPoolExecutor,
    ) -> Response:
        """``take_sheet`` as a coroutine of ``bell``'s loop, for a store that ``commits_in_groups``:
        the waits for the check and for the commit are the loop's (``KnownDeviceSubmit``)."""
        admitted = admit(await state.checker.check_in_loop(body, content_type, bell, executor), sheet_id, revision, device)
        try:
            result = await store.store_revision_in_loop(admitted.new, bell)
        except SheetRefused as error:
            raise refused(admitted, error) from None
        return reply(admitted, result)

    def refused(admitted: _Admitted, error: SheetRefused) -> HostError:
        """The store refused the sheet (another phone holds its side of the table, or it is not the sender's)."""
        log.warning("Abgelehnt (%s, %s, Revision %d): %s", admitted.where, admitted.writer, admitted.new.revision, error)
        return HostError(403, str(error))

    def admit(checked: Checked, sheet_id: uuid.UUID, revision: int, device: Device) -> _Admitted:
        """The revision to store, once ``checked`` passed every check of ``take_sheet`` but the store's;
        raises ``HostError`` with the refusal otherwise."""
        head = checked.head
        where = f"Tisch {head.table or '?'}, {_round_text(head.round_label, head.round)}"
        writer = head.writer_name or device.team or device.name
        if head.id != sheet_id:
            raise HostError(422, f"Die Blatt-ID im Inhalt ({head.id}) ist nicht die der Adresse ({sheet_id})")
        if revision != checked.entries:
            raise HostError(422, f"Revision {revision} passt nicht: das Blatt hat {checked.entries} Einträge")
        if head.tournament != device.tournament_id:
            log.warning("Abgelehnt (%s, %s): Blatt eines anderen Turniers von Gerät '%s'", where, writer, device.name)
            raise HostError(403, f"Dieses Gerät gehört zum Turnier '{device.tournament_id}', das Blatt nicht")
        table = device_table(device, head.round)
        if device.start_number is not None and table is None:
            log.warning("Abgelehnt (%s, %s): Startnummer %d ist dort nicht ausgelost", where, writer, device.start_number)
            raise HostError(
                403,
                f"Startnummer {device.start_number} ist in {_round_text(head.round_label, head.round)} an keinem Tisch ausgelost",
            )
        if head.table != table:
            log.warning("Abgelehnt (%s, %s): Gerät '%s' gehört zu Tisch %s", where, writer, device.name, table)
            if device.start_number is not None:
                raise HostError(
                    403,
                    f"Startnummer {device.start_number} ist in {_round_text(head.round_label, head.round)} "
                    f"an Tisch {table} ausgelost, nicht an Tisch {head.table}",
                )
            raise HostError(403, f"Dieses Gerät darf nur Blätter von Tisch {device.table} abgeben")
        assert table is not None
        round_text = _round_text(head.round_label, head.round)
        if device.start_number is not None:
            own = state.desk.drawn_sheet(device.start_number, head.round or 0, device.tournament_id)
            if own is None or own.sheet_id != head.id:
                log.warning(
                    "Abgelehnt (%s, %s): nicht das zugeteilte Blatt von Startnummer %d", where, writer, device.start_number
                )
                raise HostError(
                    403,
                    f"Das ist nicht das Blatt, das die Turnierleitung Startnummer {device.start_number} für {round_text} "
                    "zugeteilt hat; bitte das zugeteilte Blatt öffnen",
                )
            if head.written_by != own.writer and head.writer_start_number != device.start_number:
                # the drawn seat's id, or (a sheet begun before joining, taken over with its own ids:
                # Desk.adopt) the participant that carries the device's own Startnummer
                log.warning("Abgelehnt (%s, %s): Startnummer %d schreibt als %s", where, writer, device.start_number, own.writer)
                raise HostError(
                    403, f"Startnummer {device.start_number} schreibt ihr eigenes Blatt ({own.writer}), nicht das eines anderen"
                )
        else:
            side = head.written_by
            if side is None:
                log.warning("Abgelehnt (%s): Blatt ohne Schreiber von Gerät '%s'", where, device.name)
                raise HostError(403, "Das Blatt sagt nicht, wer es schreibt (written_by); so nimmt der Host es nicht an")
            if device.team and device.team.strip().casefold() not in {side.casefold(), (head.writer_name or "").casefold()}:
                log.warning("Abgelehnt (%s, %s): Gerät '%s' ist für %s angemeldet", where, writer, device.name, device.team)
                raise HostError(403, f"Dieses Gerät schreibt für {device.team}, nicht für {writer}")
        lock = state.desk.locked(head.round, table, device.tournament_id)
        if lock is not None:
            log.warning("Abgelehnt (%s, %s): die Turnierleitung hat über den Tisch entschieden", where, writer)
            raise HostError(
                409,
                f"Die Turnierleitung hat über Tisch {table} entschieden ({lock.detail}: {lock.reason}); "
                "Änderungen an diesem Tisch nur noch über die Turnierleitung",
            )
        if checked.refusal is not None:
            log.warning("Abgelehnt (%s, %s, Revision %d): %s", where, writer, revision, checked.refusal)
            raise HostError(422, checked.refusal)
        assert checked.tally is not None
        canonical, sha, games = checked.canonical, checked.sha256, checked.games
        state.scored.put_tally(sha, checked.tally)
        new = NewRevision(
            sheet_id=head.id,
            revision=revision,
            body=canonical,
            body_sha256=sha,
            tournament_id=device.tournament_id,
            round_label=head.round_label,
            round=head.round,
            table=table,
            written_by=head.written_by,
            closed=checked.closed,
            games=games,
            device_id=device.id,
            claim=device.start_number is None,
        )
        return _Admitted(new, where, writer)

    def reply(admitted: _Admitted, result: StoreResult) -> Response:
        """The answer to a stored (or already stored) revision, with its table's comparison, and its log line."""
        new, where, writer = admitted
        revision, games = new.revision, new.games
        if result.status == "conflict":
            log.warning(
                "KONFLIKT (%s, %s): Revision %d kam mit anderem Inhalt als gespeichert; beiseitegelegt für den Veranstalter",
                where,
                writer,
                revision,
            )
            raise HostError(
                409,
                f"Revision {revision} dieses Blatts ist schon mit anderem Inhalt gespeichert; die neue Fassung liegt beim Veranstalter",
            )
        reply = answer(result.status, result.stored)
        state_text = "abgeschlossen" if result.stored.closed else "offen"
        verdict = reply.comparison.message if reply.comparison else "noch kein zweites Blatt an diesem Tisch"
        again = "bereits gespeichert, " if result.status == "already_stored" else ""
        log.info(
            "%s, %s: %s%d %s, %s (Revision %d) – %s",
            where,
            writer,
            again,
            games,
            "Spiel" if games == 1 else "Spiele",
            state_text,
            revision,
            verdict,
        )
        return Response(
            reply.model_dump_json().encode("utf-8"),
            status_code=201 if result.status == "stored" else 200,
            media_type="application/json",
        )

    @app.put(
        f"{API_PREFIX}/sheets/{{sheet_id}}/revisions/{{revision}}",
        response_model=SubmitResponse,
        status_code=201,
        summary="Eine Revision eines Blatts abgeben (idempotent)",
        responses={
            200: {"model": SubmitResponse, "description": "Bereits gespeichert"},
            **PROBLEMS,
            409: {"model": Problem, "description": "Andere Fassung dieser Revision schon gespeichert"},
        },
        openapi_extra=json_body_schema(Sheet),
    )
    async def submit(
        sheet_id: SheetIdPath,
        revision: RevisionPath,
        http: Request,
        device: Annotated[Device, Depends(require_device_fast)],
    ) -> Response:
        # One hop to a worker thread for the whole sheet (FastAPI's sync route took three: the
        # device, the route, the answer's validation), the body parsed from its bytes once, and
        # the answer serialized once (issue 24).
        body = await http.body()
        return await run_in_threadpool(take_sheet, sheet_id, revision, body, http.headers.get("content-type"), device)

    submit_route = app.router.routes[-1]
    assert isinstance(submit_route, APIRoute) and submit_route.endpoint is submit
    app.router.routes.insert(
        len(app.router.routes) - 1,
        Route(
            submit_route.path,
            KnownDeviceSubmit(state, submit_route, take_sheet, take_in_loop),
            methods=["PUT"],
            include_in_schema=False,
        ),
    )

    @app.get(
        f"{API_PREFIX}/sheets/{{sheet_id}}/revisions/{{revision}}",
        response_model=SubmitResponse,
        summary="Ist diese Revision gespeichert? (Gerät des Tisches oder Veranstalter)",
        responses={401: PROBLEMS[401], 403: PROBLEMS[403], 404: PROBLEMS[404], 422: PROBLEMS[422]},
    )
    def stored_revision(
        sheet_id: SheetIdPath,
        revision: RevisionPath,
        http: Request,
        _basic: Annotated[None, Depends(BASIC)],
        token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None,
    ) -> SubmitResponse:
        device = None if (token is None and basic_credentials(http) is not None) else device_of(state, token)
        if device is None and not is_organizer(state, http):
            raise HostError(401, "Nur für das Gerät des Tisches oder den Veranstalter", {"WWW-Authenticate": "Basic"})
        stored = store.revision(sheet_id, revision)
        if (
            device is not None
            and stored is not None
            and (stored.tournament_id, stored.table) != (device.tournament_id, device_table(device, stored.round))
        ):
            raise HostError(403, "Dieses Gerät darf nur Blätter seines eigenen Tisches abfragen")
        if stored is None:
            raise HostError(404, f"Revision {revision} des Blatts {sheet_id} ist nicht gespeichert")
        return answer("already_stored", stored)


def install_adopt_route(app: FastAPI, state: HostState) -> None:
    """``POST /api/v1/sheets/adopt``: a sheet begun before joining becomes the drawn table's sheet (issue 21)."""
    require_device = device_required(state)

    @app.post(
        ADOPT_PATH,
        response_model=AdoptResponse,
        summary="Ein vor dem Beitritt begonnenes Blatt dem ausgelosten Tisch zuordnen (Gerät mit Startnummer)",
        responses={**PROBLEMS, 409: {"model": Problem, "description": "Durchgang schon unterschrieben oder entschieden"}},
    )
    def adopt_sheet(
        sheet: Sheet,
        device: Annotated[Device, Depends(require_device)],
        round: Annotated[int | None, Query(ge=1, le=1000)] = None,
    ) -> AdoptResponse:
        if device.start_number is None:
            raise HostError(
                422, f"Dieses Gerät ist für Tisch {device.table} angemeldet: das Blatt dort mit der Tischnummer neu beginnen"
            )
        try:
            found, adopted = state.desk.adopt(device.start_number, sheet, round)
        except RoundSigned as error:
            log.warning("Übernahme abgelehnt (Startnummer %d): %s", device.start_number, error)
            raise HostError(409, str(error)) from None
        except AdoptionRefused as error:
            log.warning("Übernahme abgelehnt (Startnummer %d): %s", device.start_number, error)
            raise HostError(422, str(error)) from None
        except DeskError as error:
            raise HostError(404, str(error)) from None
        log.info(
            "Startnummer %d: ein vor dem Beitritt begonnenes Blatt (%d Einträge) gilt für %s %d, Tisch %d",
            device.start_number,
            len(sheet.entries),
            found.round_label,
            found.round,
            found.table,
        )
        return AdoptResponse(round=found.round, round_label=found.round_label, table=found.table, sheet=adopted)
