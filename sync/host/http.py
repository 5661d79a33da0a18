"""The host's HTTP answers: German problems for every error, and the body size limit.

Every refusal is a JSON ``Problem`` with a German ``detail`` (``HostError`` from a route, FastAPI's
own validation and HTTP errors put into German here); a body over 1 MiB gets 413 before any route
sees it (``BodyLimit``).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.telemetry import TelemetryConfig
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..protocol import MAX_BODY_BYTES, Problem
from .bodies import BodyRefused, M, parse_json_body


class HostError(Exception):
    """An answer other than success: HTTP status and a German ``detail``."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers


PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "Token oder Passwort fehlt oder ist falsch"},
    403: {"model": Problem, "description": "Nicht erlaubt"},
    404: {"model": Problem, "description": "Nicht gefunden"},
    413: {"model": Problem, "description": "Anfrage zu groß"},
    422: {"model": Problem, "description": "Ungültige Anfrage oder vom Regelwerk abgelehnt"},
}
"""The refusals a route documents in the OpenAPI schema."""

SheetIdPath = Annotated[uuid.UUID, Path(description="Die ID des Blatts (UUID)")]
RevisionPath = Annotated[int, Path(ge=0, le=1_000_000, description="Revision = Anzahl der Einträge des Blatts")]
SlugPath = Annotated[str, Path(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9-]{0,79}$", description="Die ID (klein, a-z0-9-)")]
"""A season's or tournament's id in a URL: checked (422) before it reaches the database."""


NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
"""FastAPI's native OpenTelemetry switched off: nothing here collects it (``create_app``; the host bench's bare endpoint too)."""


def json_body(model: type[M], body: bytes, content_type: str | None) -> M:
    """A request's JSON body as ``model`` (``bodies.parse_json_body``), refused as FastAPI refuses a
    body parameter: a ``RequestValidationError`` whose errors are placed under ``body`` (so
    ``invalid_request`` words them), or 400 for a body no parser reads (``refused_body``)."""
    try:
        return parse_json_body(model, body, content_type)
    except BodyRefused as error:
        raise refused_body(error) from None


def refused_body(error: BodyRefused) -> Exception:
    """FastAPI's refusal of a body for ``error``: what a route raises for it."""
    if error.unparsable:
        return StarletteHTTPException(400, "There was an error parsing the body")
    return RequestValidationError(error.errors)


def json_body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of a route that reads ``model`` with ``json_body`` (the schema
    is the one FastAPI lists for ``model`` as another route's body parameter)."""
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"content": {"application/json": {"schema": ref}}, "required": True}}


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


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(Problem(detail=detail).model_dump(), status_code=status, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HostError)
    async def host_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HostError)
        return problem(error.status, error.detail, error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        return problem(422, _german_request_errors(error.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, StarletteHTTPException)
        detail = error.detail if isinstance(error.detail, str) and error.status_code not in _STATUS_DE else None
        headers = dict(error.headers) if error.headers else None
        return problem(error.status_code, detail or _STATUS_DE.get(error.status_code, "Fehler"), headers)


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
