"""Who is asking: a phone by its device token, the organizer by the password (HTTP Basic).

One check serves the JSON endpoints and the organizer's pages alike. The Basic credentials are read
as UTF-8 (RFC 7617 ``charset="UTF-8"``, what browsers send), so a password with an umlaut works the
same everywhere. The host remembers the last verified password only as an HMAC with a key of this
process, so a dashboard that polls does not pay for scrypt on every request.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPBasic
from starlette.requests import HTTPConnection

from ..protocol import ORGANIZER_USER, TOKEN_HEADER
from .credentials import token_sha256, verify_password
from .http import HostError
from .records import Device
from .state import HostState


def basic_credentials(request: HTTPConnection) -> tuple[str, str] | None:
    """User and password of the request's ``Authorization: Basic`` header (UTF-8), if it has one."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic" or not value:
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, sep, password = decoded.partition(":")
    return (user, password) if sep else None


class OrganizerBasic(HTTPBasic):
    """FastAPI's HTTP Basic scheme (it documents the door in the OpenAPI schema), reading UTF-8 and
    never refusing by itself: ``is_organizer`` decides."""

    async def __call__(self, request: HTTPConnection) -> None:  # type: ignore[override]
        return None


BASIC = OrganizerBasic(auto_error=False, description="Veranstalter: Benutzer 'organizer' und das Veranstalter-Passwort")


def is_organizer(state: HostState, request: HTTPConnection) -> bool:
    """Does the request carry user ``organizer`` and the organizer's password?"""
    given = basic_credentials(request)
    if given is None:
        return False
    user, password = given
    user_ok = hmac.compare_digest(user.encode("utf-8"), ORGANIZER_USER.encode("utf-8"))
    seen = hmac.new(state.process_key, password.encode("utf-8"), hashlib.sha256).digest()
    if state.verified is not None and hmac.compare_digest(seen, state.verified):
        return user_ok
    password_ok = verify_password(password, state.password_hash)
    if password_ok:
        state.verified = seen
    return user_ok and password_ok


def organizer_required(state: HostState) -> Callable[..., None]:
    """The dependency of every organizer endpoint: 401 (German) without the organizer's password."""

    def require_organizer(request: Request, _basic: Annotated[None, Depends(BASIC)]) -> None:
        if not is_organizer(state, request):
            raise HostError(
                401,
                "Nur für den Veranstalter: Benutzer 'organizer' und Veranstalter-Passwort nötig",
                {"WWW-Authenticate": "Basic"},
            )

    return require_organizer


def device_of(state: HostState, token: str | None) -> Device:
    """The joined device that sent ``token``; 401 (German) without one or with an unknown one."""
    if not token:
        raise HostError(401, f"Geräte-Token fehlt (Kopfzeile {TOKEN_HEADER}); zuerst dem Turnier beitreten")
    device = state.store.device_by_token(token_sha256(token))
    if device is None:
        raise HostError(401, "Unbekanntes Geräte-Token; bitte dem Turnier neu beitreten")
    return device


def device_required(state: HostState) -> Callable[..., Device]:
    """The dependency of every device endpoint: the device of the ``X-Tischblock-Token`` header."""

    def require_device(token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None) -> Device:
        return device_of(state, token)

    return require_device
