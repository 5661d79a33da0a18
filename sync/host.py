"""The organizer's host: the FastAPI app that collects every table's sheets (protocol v1).

``create_app(store)`` builds the app over a ``HostStore``; ``tischblock host`` (cli.py) serves it
with uvicorn over HTTPS. The endpoints and their answers are those of ``sync/protocol.py``.

- Phones join with the tournament's join code and get a random device token (``secrets``),
  stored only as its SHA-256; they send it in ``X-Tischblock-Token``, never in a URL. Wrong
  join codes are counted per client address (``limits``, a moving window) and answered 429
  with ``Retry-After`` once too many.
- A device submits only sheets of its own tournament and table. Every sheet is checked with its
  ruleset before it is stored (``find_ruleset(...).score(sheet)``); a refused sheet gets 422 with
  the rule's German message and changes nothing.
- A revision is stored once (identity: the sheet's canonical JSON, ``Sheet.to_json()``), and the
  answer leaves only after the commit. The same sheet again is "already stored"; another sheet
  under a stored (id, revision) is a 409 conflict, kept aside for the organizer.
- The two sheets of a table and round are compared (``scoring.compare.compare_sheets``) and each
  arriving sheet gets one German log line, which never holds a token or a password.
- Organizer endpoints need HTTP Basic (user ``organizer``) with the organizer's password, kept as
  a scrypt hash and compared in constant time. Bodies over 1 MiB get 413.
"""

import base64
import hashlib
import hmac
import logging
import math
import re
import secrets
import time
import unicodedata
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException as StarletteHTTPException

from scoring import RuleViolation, Sheet, UnknownRuleset, find_ruleset
from scoring.compare import Comparison, compare_scored

from .desk import Desk, DeskError, ScoredSheets
from .hoststore import Device, HostStore, NewRevision, StoredRevision, Tournament
from .protocol import (
    API_PREFIX,
    API_VERSION,
    MAX_BODY_BYTES,
    ORGANIZER_USER,
    TOKEN_HEADER,
    AssignmentResponse,
    ConflictInfo,
    HostInfo,
    JoinRequest,
    JoinResponse,
    Problem,
    SheetSummary,
    SubmitResponse,
    TableState,
    body_sha256,
)

log = logging.getLogger("tischblock.host")


class _OneLine(logging.Filter):
    """Every log record stays one line: names and messages come from phones, and a line break or
    terminal escape in them must not forge further lines in the organizer's terminal."""

    _CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._CONTROL.sub(" ", record.getMessage())
        record.args = None
        return True


log.addFilter(_OneLine())

PASSWORD_SETTING = "organizer_password"
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join code letters: no 0/O, 1/I, so a code read aloud in a hall is typed right."""


class HostError(Exception):
    """An answer other than success: HTTP status and a German ``detail``."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers


# -- secrets ----------------------------------------------------------------------------------------

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def hash_password(password: str) -> str:
    """A scrypt hash of the organizer's password with a random salt: ``scrypt$n$r$p$salt$hash``."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)
    encode = base64.b64encode
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${encode(salt).decode()}${encode(digest).decode()}"


def verify_password(password: str, stored: str) -> bool:
    """Does ``password`` match the stored hash? (Constant-time comparison of the digests.)"""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(
            password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=len(expected)
        )
    except (ValueError, UnicodeEncodeError):
        return False
    return hmac.compare_digest(actual, expected)


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_join_code(length: int = 6) -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(length))


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


# -- messages ---------------------------------------------------------------------------------------


def _german_request_errors(errors: Any) -> str:
    """A German summary of FastAPI's request validation errors (where, and what is wrong)."""
    parts: list[str] = []
    for item in list(errors)[:5]:
        loc = [str(p) for p in item.get("loc", ())]
        where = {"body": "Inhalt", "path": "Pfad", "header": "Kopfzeile", "query": "Abfrage"}.get(
            loc[0] if loc else "", "Eingabe"
        )
        field = ".".join(loc[1:])
        kind = item.get("type", "")
        if kind == "json_invalid":
            parts.append("Der Inhalt ist kein gültiges JSON")
            continue
        if kind == "value_error":
            text = str(item.get("ctx", {}).get("error", item.get("msg", "")))
            parts.append(f"{where} '{field}': {text}" if field else f"{where}: {text}")
            continue
        if kind == "uuid_parsing" or kind == "uuid_type":
            parts.append(f"{where} '{field}' ist keine gültige Blatt-ID (UUID)")
            continue
        what = _PYDANTIC_DE.get(kind, "ist ungültig")
        if kind == "missing" and not field:
            parts.append(f"{where} fehlt")
            continue
        parts.append(f"{where} '{field}' {what}" if field else f"{where} {what}")
    return "; ".join(parts) or "Die Anfrage ist ungültig"


# What a request's own validation error (path, header, body shape) says in German; the sheet
# inside a body is worded by scoring.messages like every other sheet.
_PYDANTIC_DE = {
    "missing": "fehlt",
    "extra_forbidden": "ist hier nicht vorgesehen",
    "int_type": "muss eine ganze Zahl sein",
    "int_parsing": "muss eine ganze Zahl sein",
    "int_from_float": "muss eine ganze Zahl sein",
    "bool_type": "muss ja/nein sein",
    "bool_parsing": "muss ja/nein sein",
    "string_type": "muss ein Text sein",
    "literal_error": "hat keinen erlaubten Wert",
    "enum": "hat keinen erlaubten Wert",
    "greater_than_equal": "ist zu klein",
    "greater_than": "ist zu klein",
    "less_than_equal": "ist zu groß",
    "less_than": "ist zu groß",
    "list_type": "muss eine Liste sein",
    "tuple_type": "muss eine Liste sein",
    "too_short": "hat zu wenige Einträge",
    "too_long": "hat zu viele Einträge",
}


_STATUS_DE = {
    400: "Die Anfrage ist ungültig",
    401: "Anmeldung erforderlich",
    403: "Nicht erlaubt",
    404: "Nicht gefunden",
    405: "Diese Methode gibt es für diese Adresse nicht",
    406: "Dieses Antwortformat gibt es hier nicht",
    413: "Die Anfrage ist zu groß",
    415: "Dieses Format wird nicht angenommen",
}


def _writer_name(sheet: Sheet) -> str | None:
    who = sheet.context.written_by
    if who is None:
        return None
    for p in sheet.participants:
        if who in (p.id, str(p.seat)):
            return p.name
    return who


def _round_text(round_label: str, round: int | None) -> str:
    return f"{round_label} {round}" if round is not None else round_label


# -- the body size limit ----------------------------------------------------------------------------

ASGIApp = Callable[[MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before the app sees any of it.

    A declared ``Content-Length`` over the limit is refused at once; a chunked body is read up to
    the limit and refused as soon as it passes it.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.limit
            except ValueError:
                await _send_problem(send, 400, "Content-Length ist keine Zahl")
                return
            if too_big:
                await _send_problem(send, 413, f"Die Anfrage ist größer als {self.limit // 1024} KiB")
                return
            await self.app(scope, receive, send)
            return
        if scope.get("method") in ("GET", "HEAD", "DELETE", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _send_problem(send, 413, f"Die Anfrage ist größer als {self.limit // 1024} KiB")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # type: ignore[no-any-return]

        await self.app(scope, replay, send)


async def _send_problem(send: Any, status: int, detail: str) -> None:
    body = Problem(detail=detail).model_dump_json().encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- the app ----------------------------------------------------------------------------------------


@dataclass
class HostState:
    store: HostStore
    started_with: Tournament
    """The current tournament when the host started; ``tournament`` follows the store."""
    password_hash: str
    join_limit: RateLimitItemPerMinute
    limiter: MovingWindowRateLimiter
    scored: ScoredSheets = field(default_factory=ScoredSheets)
    verified: bytes | None = None
    """HMAC (with a key that lives only in this process) of the password last verified, so a
    dashboard that polls does not pay for scrypt on every request."""
    process_key: bytes = b""
    desk: Desk | None = None

    @property
    def tournament(self) -> Tournament:
        """The host's current tournament, as the store says now: the organizer may have made a new one
        (``Desk.create_tournament``, from an endpoint or a page); phones join that one from then on."""
        return self.store.current_tournament() or self.started_with


PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "Token oder Passwort fehlt oder ist falsch"},
    403: {"model": Problem, "description": "Nicht erlaubt"},
    404: {"model": Problem, "description": "Nicht gefunden"},
    413: {"model": Problem, "description": "Anfrage zu groß"},
    422: {"model": Problem, "description": "Ungültige Anfrage oder vom Regelwerk abgelehnt"},
}


def create_app(store: HostStore, *, wrong_codes_per_minute: int = 5) -> FastAPI:
    """The host's ASGI app over ``store`` (which must hold a current tournament and the organizer's password)."""
    tournament = store.current_tournament()
    if tournament is None:
        raise ValueError("Der Host hat noch kein Turnier (beim ersten Start: --tournament NAME)")
    password_hash = store.setting(PASSWORD_SETTING)
    if password_hash is None:
        raise ValueError("Der Host hat noch kein Veranstalter-Passwort")
    state = HostState(
        store=store,
        started_with=tournament,
        password_hash=password_hash,
        join_limit=RateLimitItemPerMinute(wrong_codes_per_minute),
        limiter=MovingWindowRateLimiter(MemoryStorage()),
        process_key=secrets.token_bytes(32),
    )
    state.desk = Desk(store, scored=state.scored)
    app = FastAPI(
        title="Tischblock-Host",
        version=str(API_VERSION),
        description="Sammelt die Tischlisten eines Turniers (Protokoll v1).",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.state.host = state
    _install_error_handlers(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)  # type: ignore[arg-type]
    _install_routes(app, state)
    from .pages import install_pages  # the organizer's pages under /veranstalter/ (HTTP Basic)

    install_pages(app, state)
    return app


def _desk(state: HostState) -> Desk:
    assert state.desk is not None
    return state.desk


def _problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(Problem(detail=detail).model_dump(), status_code=status, headers=headers)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HostError)
    async def host_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HostError)
        return _problem(error.status, error.detail, error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        return _problem(422, _german_request_errors(error.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, StarletteHTTPException)
        detail = error.detail if isinstance(error.detail, str) and error.status_code not in _STATUS_DE else None
        headers = dict(error.headers) if error.headers else None
        return _problem(error.status_code, detail or _STATUS_DE.get(error.status_code, "Fehler"), headers)


SheetIdPath = Annotated[uuid.UUID, Path(description="Die ID des Blatts (UUID)")]
RevisionPath = Annotated[int, Path(ge=0, le=1_000_000, description="Revision = Anzahl der Einträge des Blatts")]

_basic = HTTPBasic(auto_error=False, description="Veranstalter: Benutzer 'organizer' und das Veranstalter-Passwort")


def _install_routes(app: FastAPI, state: HostState) -> None:
    store = state.store

    def device_of(token: str | None) -> Device:
        if not token:
            raise HostError(401, f"Geräte-Token fehlt (Kopfzeile {TOKEN_HEADER}); zuerst dem Turnier beitreten")
        device = store.device_by_token(token_sha256(token))
        if device is None:
            raise HostError(401, "Unbekanntes Geräte-Token; bitte dem Turnier neu beitreten")
        return device

    def is_organizer(credentials: HTTPBasicCredentials | None) -> bool:
        if credentials is None:
            return False
        user_ok = hmac.compare_digest(credentials.username.encode("utf-8"), ORGANIZER_USER.encode("utf-8"))
        seen = hmac.new(state.process_key, credentials.password.encode("utf-8"), hashlib.sha256).digest()
        if state.verified is not None and hmac.compare_digest(seen, state.verified):
            return user_ok
        password_ok = verify_password(credentials.password, state.password_hash)
        if password_ok:
            state.verified = seen
        return user_ok and password_ok

    def require_organizer(credentials: Annotated[HTTPBasicCredentials | None, Depends(_basic)]) -> None:
        if not is_organizer(credentials):
            raise HostError(
                401,
                "Nur für den Veranstalter: Benutzer 'organizer' und Veranstalter-Passwort nötig",
                {"WWW-Authenticate": "Basic"},
            )

    def require_device(token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None) -> Device:
        return device_of(token)

    def device_table(device: Device, round: int | None) -> int | None:
        """The table the device writes for: the one it joined, or its Startnummer's in the round's draw."""
        if device.start_number is None:
            return device.table
        if round is None:
            return None
        return _desk(state).seat_of(device.start_number, round, device.tournament_id)

    from .deskapi import install_desk_routes

    install_desk_routes(app, state, require_organizer)

    def comparison_for(stored: StoredRevision) -> tuple[Comparison | None, str | None]:
        """The comparison with the other sheet of the table and round, and that sheet's writer."""
        others = [
            r
            for r in store.latest_per_sheet(
                stored.tournament_id, round_label=stored.round_label, round=stored.round, table=stored.table
            )
            if r.sheet_id != stored.sheet_id
        ]
        if not others:
            return None, None
        other_writer = [r for r in others if r.written_by != stored.written_by]
        other = max(other_writer or others, key=lambda r: r.received_at)
        try:
            sheet, score = state.scored.get(stored)
            other_sheet, other_score = state.scored.get(other)
            return compare_scored(sheet, score, other_sheet, other_score), _writer_name(other_sheet)
        except (RuleViolation, UnknownRuleset) as error:
            message = f"Die Blätter sind nicht vergleichbar: {error}"
            return Comparison(agree=False, games_compared=0, message=message), None

    def answer(status: str, stored: StoredRevision) -> SubmitResponse:
        comparison, _ = comparison_for(stored)
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
            log.warning("Beitritt von %s gesperrt: zu viele falsche Beitrittscodes (noch %d s)", address, wait)
            raise HostError(
                429, f"Zu viele falsche Beitrittscodes; bitte in {wait} Sekunden wieder versuchen", {"Retry-After": str(wait)}
            )
        given = request.join_code.strip().upper().encode("utf-8")
        if not hmac.compare_digest(given, state.tournament.join_code.encode("utf-8")):
            state.limiter.hit(state.join_limit, address)
            where = f"Tisch {request.table}" if request.table is not None else f"Startnummer {request.start_number}"
            log.warning("Falscher Beitrittscode von %s (%s)", address, where)
            raise HostError(403, "Falscher Beitrittscode")
        desk = _desk(state)
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
                log.warning("Beitritt von %s abgelehnt: %s", address, error)
                raise HostError(404, f"{error}; bitte die Startnummer prüfen") from None
            team = entry.entrant.name
        elif drawn:
            raise HostError(
                422,
                "In diesem Turnier werden die Tische ausgelost: bitte mit der Startnummer beitreten (sie steht auf der Startliste)",
            )
        token = secrets.token_urlsafe(32)
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
            found = _desk(state).assignment(device.start_number, round)
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
    )
    def submit(
        sheet_id: SheetIdPath,
        revision: RevisionPath,
        sheet: Sheet,
        response: Response,
        device: Annotated[Device, Depends(require_device)],
    ) -> SubmitResponse:
        where = f"Tisch {sheet.context.table or '?'}, {_round_text(sheet.context.round_label, sheet.context.round)}"
        writer = _writer_name(sheet) or device.team or device.name
        if sheet.id != sheet_id:
            raise HostError(422, f"Die Blatt-ID im Inhalt ({sheet.id}) ist nicht die der Adresse ({sheet_id})")
        if revision != len(sheet.entries):
            raise HostError(422, f"Revision {revision} passt nicht: das Blatt hat {len(sheet.entries)} Einträge")
        if sheet.context.tournament != device.tournament_id:
            log.warning("Abgelehnt (%s, %s): Blatt eines anderen Turniers von Gerät '%s'", where, writer, device.name)
            raise HostError(403, f"Dieses Gerät gehört zum Turnier '{device.tournament_id}', das Blatt nicht")
        table = device_table(device, sheet.context.round)
        if device.start_number is not None and table is None:
            log.warning("Abgelehnt (%s, %s): Startnummer %d ist dort nicht ausgelost", where, writer, device.start_number)
            raise HostError(
                403,
                f"Startnummer {device.start_number} ist in {_round_text(sheet.context.round_label, sheet.context.round)} "
                "an keinem Tisch ausgelost",
            )
        if sheet.context.table != table:
            log.warning("Abgelehnt (%s, %s): Gerät '%s' gehört zu Tisch %s", where, writer, device.name, table)
            if device.start_number is not None:
                raise HostError(
                    403,
                    f"Startnummer {device.start_number} ist in {_round_text(sheet.context.round_label, sheet.context.round)} "
                    f"an Tisch {table} ausgelost, nicht an Tisch {sheet.context.table}",
                )
            raise HostError(403, f"Dieses Gerät darf nur Blätter von Tisch {device.table} abgeben")
        assert table is not None
        lock = _desk(state).locked(sheet.context.round, table, device.tournament_id)
        if lock is not None:
            log.warning("Abgelehnt (%s, %s): die Turnierleitung hat über den Tisch entschieden", where, writer)
            raise HostError(
                409,
                f"Die Turnierleitung hat über Tisch {table} entschieden ({lock.detail}: {lock.reason}); "
                "Änderungen an diesem Tisch nur noch über die Turnierleitung",
            )
        try:
            score = find_ruleset(sheet.ruleset.id).score(sheet)
        except (RuleViolation, UnknownRuleset) as error:
            log.warning("Abgelehnt (%s, %s, Revision %d): %s", where, writer, revision, error)
            raise HostError(422, str(error)) from None
        canonical = sheet.to_json().encode("utf-8")
        state.scored.put(body_sha256(canonical), sheet, score)
        games = sum(1 for line in score.lines if line.kind != "close")
        result = store.store_revision(
            NewRevision(
                sheet_id=sheet.id,
                revision=revision,
                body=canonical,
                body_sha256=body_sha256(canonical),
                tournament_id=device.tournament_id,
                round_label=sheet.context.round_label,
                round=sheet.context.round,
                table=table,
                written_by=sheet.context.written_by,
                closed=score.status.closed,
                games=games,
                device_id=device.id,
            )
        )
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
        response.status_code = 201 if result.status == "stored" else 200
        return reply

    @app.get(
        f"{API_PREFIX}/sheets/{{sheet_id}}/revisions/{{revision}}",
        response_model=SubmitResponse,
        summary="Ist diese Revision gespeichert? (Gerät des Tisches oder Veranstalter)",
        responses={401: PROBLEMS[401], 403: PROBLEMS[403], 404: PROBLEMS[404], 422: PROBLEMS[422]},
    )
    def stored_revision(
        sheet_id: SheetIdPath,
        revision: RevisionPath,
        credentials: Annotated[HTTPBasicCredentials | None, Depends(_basic)],
        token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None,
    ) -> SubmitResponse:
        device = None if (token is None and credentials is not None) else device_of(token)
        if device is None and not is_organizer(credentials):
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
                    team=_writer_name(s),
                    revision=r.revision,
                    closed=r.closed,
                    games=r.games,
                    updated_at=r.received_at,
                )
                for r, s in zip(rows, sheets, strict=True)
            ]
            comparison = comparison_for(rows[-1])[0] if len(rows) >= 2 else None
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
