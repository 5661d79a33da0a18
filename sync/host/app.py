"""The organizer's host as one ASGI app: the composition of its parts (protocol v1).

``create_app(store)`` builds the FastAPI app over a ``HostStore``; ``tischblock host`` (``run.py``)
serves it with uvicorn over HTTPS. This is the one module that knows every part: the phones'
endpoints (``phone_api.py``), the organizer's JSON endpoints (``organizer_api.py``) and pages
(``pages/``), the German error answers and the body limit (``http.py``), over the state one
running host shares (``state.py``). The endpoints and their answers are those of ``sync/protocol.py``.

Organizer endpoints need HTTP Basic (user ``organizer``) with the organizer's password, kept as a
scrypt hash and compared in constant time (``auth.py``, ``credentials.py``); wrong passwords are
limited per address and overall (429 with ``Retry-After``). Bodies over 1 MiB get 413.
"""

from __future__ import annotations

import secrets

from fastapi import FastAPI
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..protocol import API_PREFIX, API_VERSION, MAX_BODY_BYTES
from .checking import SheetChecker
from .credentials import PASSWORD_SETTING
from .desk import Desk
from .http import NO_TELEMETRY, BodyLimit, install_error_handlers
from .league import League
from .organizer_api import install_organizer_routes
from .pages.routes import install_pages
from .phone_api import install_adopt_route, install_phone_routes
from .scored import ScoredSheets
from .state import HostState
from .store import HostStore


def create_app(
    store: HostStore,
    *,
    wrong_codes_per_minute: int = 5,
    wrong_passwords_per_minute: int = 10,
    address: tuple[str, str | None] | None = None,
    checker: SheetChecker | None = None,
) -> FastAPI:
    """The host's ASGI app over ``store`` (which must hold a current tournament and the organizer's
    password); arriving sheets are checked by ``checker`` (default: in the request's own thread)."""
    tournament = store.current_tournament()
    if tournament is None:
        raise ValueError("Der Host hat noch kein Turnier (beim ersten Start: --tournament NAME)")
    password_hash = store.setting(PASSWORD_SETTING)
    if password_hash is None:
        raise ValueError("Der Host hat noch kein Veranstalter-Passwort")
    scored = ScoredSheets()
    state = HostState(
        store=store,
        started_with=tournament,
        password_hash=password_hash,
        join_limit=RateLimitItemPerMinute(wrong_codes_per_minute),
        limiter=MovingWindowRateLimiter(MemoryStorage()),
        login_limit=RateLimitItemPerMinute(wrong_passwords_per_minute),
        login_limit_all=RateLimitItemPerMinute(3 * wrong_passwords_per_minute),
        desk=Desk(store, scored=scored),
        scored=scored,
        process_key=secrets.token_bytes(32),
        address=address,
        checker=checker or SheetChecker(),
    )
    state.desk.roster_hook = League(store, scored).link  # stable player ids for the season (issue 23)
    app = FastAPI(
        title="Tischblock-Host",
        version=str(API_VERSION),
        description="Sammelt die Tischlisten eines Turniers (Protokoll v1).",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
        # The host reports to no OpenTelemetry collector: FastAPI's native telemetry off, so no
        # request asks the global providers whether one was configured (issue 24).
        telemetry=NO_TELEMETRY,
    )
    app.state.host = state
    install_error_handlers(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)  # type: ignore[arg-type]
    install_phone_routes(app, state)
    install_adopt_route(app, state)
    install_organizer_routes(app, state)
    install_pages(app, state)  # the organizer's pages under /veranstalter/ (HTTP Basic)
    return app
