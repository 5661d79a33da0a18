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
import math
import time
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPBasic
from limits import RateLimitItem
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ..protocol import ORGANIZER_USER, TOKEN_HEADER
from .credentials import normalized, token_sha256, verify_password
from .http import HostError
from .log import log
from .records import Device
from .state import HostState

REVOKED = "Dieses Handy wurde von der Turnierleitung abgemeldet"
"""The answer (401) to a revoked device's token."""

OTHER_HOST = "Dieses Handy gehört zu einem Turnier, das ein anderer Host schreibt; bitte dort abgeben"
"""The answer (401) to a token of another host's tournament (a league's shared database)."""


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


def _wait(state: HostState, item: RateLimitItem, key: str) -> int | None:
    """Seconds until ``key`` may try again under ``item``, or ``None`` if it may now."""
    if state.limiter.test(item, key):
        return None
    reset = state.limiter.get_window_stats(item, key).reset_time
    return max(1, math.ceil(reset - time.time()))


def _blocked(wait: int, address: str, overall: bool) -> HostError:
    log.warning(
        "Veranstalter-Anmeldung von %s gesperrt: zu viele falsche Passwörter%s (noch %d s)",
        address,
        " insgesamt" if overall else "",
        wait,
    )
    return HostError(
        429,
        f"Zu viele falsche Veranstalter-Passwörter; bitte in {wait} Sekunden wieder versuchen",
        {"Retry-After": str(wait)},
    )


def is_organizer(state: HostState, request: HTTPConnection) -> bool:
    """Does the request carry user ``organizer`` and the organizer's password?

    Wrong passwords are counted per client address and over all addresses (``limits``, a moving
    window); once too many, every try from that address (and every try that would need scrypt, from
    anywhere) is answered 429 with ``Retry-After`` until the window has passed (``HostError``). The
    password is compared as Unicode NFC in UTF-8, the same on the pages and the API.
    """
    given = basic_credentials(request)
    if given is None:
        return False
    address = request.client.host if request.client else "?"
    wait = _wait(state, state.login_limit, address)
    if wait is not None:
        raise _blocked(wait, address, overall=False)
    user, password = given
    user_ok = hmac.compare_digest(user.encode("utf-8"), ORGANIZER_USER.encode("utf-8"))
    seen = hmac.new(state.process_key, normalized(password), hashlib.sha256).digest()
    if state.verified is not None and hmac.compare_digest(seen, state.verified) and user_ok:
        return True
    wait = _wait(state, state.login_limit_all, "alle")
    if wait is not None:
        raise _blocked(wait, address, overall=True)
    password_ok = verify_password(password, state.password_hash)
    if password_ok:
        state.verified = seen
    if user_ok and password_ok:
        return True
    state.limiter.hit(state.login_limit, address)
    state.limiter.hit(state.login_limit_all, "alle")
    log.warning("Falsches Veranstalter-Passwort von %s", address)
    return False


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
    if device.revoked_at is not None:
        raise HostError(401, REVOKED)
    if not state.store.owns(device.tournament_id):
        # The league's shared database knows the phones of every hall; this host serves only its own.
        raise HostError(401, OTHER_HOST)
    return device


def device_required(state: HostState) -> Callable[..., Device]:
    """The dependency of every device endpoint: the device of the ``X-Tischblock-Token`` header."""

    def require_device(token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None) -> Device:
        return device_of(state, token)

    return require_device


def device_required_fast(state: HostState) -> Callable[..., Awaitable[Device]]:
    """``device_required`` for the route every sheet takes: a device the store already knows (not
    seen revoked, of a tournament this host already knows it writes) is answered on the event loop,
    without a hop to a worker thread; any other token is looked up (and refused) by ``device_of`` in
    a worker thread, as before. The store remembers a device even when ``device_of`` refused it for
    another hall's tournament: that one must take ``device_of`` again, every time."""

    async def require_device(token: Annotated[str | None, Header(alias=TOKEN_HEADER)] = None) -> Device:
        known = known_device(state, token)
        if known is not None:
            return known
        return await run_in_threadpool(device_of, state, token)

    return require_device


def known_device(state: HostState, token: str | None) -> Device | None:
    """The device of ``token`` if ``device_of`` would accept it without asking the database: one
    the store already knows, not seen revoked, of a tournament this host already knows it writes.
    ``None`` says nothing (the token may still be good): ask ``device_of``."""
    if not token:
        return None
    known = state.store.known_device(token_sha256(token))
    if known is not None and known.revoked_at is None and state.store.owns_known(known.tournament_id):
        return known
    return None
