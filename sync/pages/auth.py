"""The organizer's password on every page: HTTP Basic (user ``organizer``), checked by ``verify_password``.

The browser asks once (its own login box) and sends the password with every request of the tab;
the host remembers the last verified password only as an HMAC with a key of this process (the same
cache as the JSON endpoints), so the pages that refresh themselves do not pay for scrypt each time.

A form of these pages is only accepted with the page's form key (``csrf``): the browser sends the
Basic credentials to any request for this host, also one a foreign page makes it send, so a POST
without the key that only the host's own pages carry changes nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from typing import TYPE_CHECKING

from fastapi import Request
from fastapi.responses import HTMLResponse

from ..protocol import ORGANIZER_USER

if TYPE_CHECKING:
    from ..host import HostState

REALM = "Tischblock Veranstalter"


class BadFormKey(Exception):
    """A form came without this host's form key (answered 403)."""


def _credentials(request: Request) -> tuple[str, str] | None:
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


def is_organizer(state: HostState, request: Request) -> bool:
    """Does the request carry user ``organizer`` and the organizer's password?"""
    from ..host import verify_password

    given = _credentials(request)
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


def form_key(state: HostState) -> str:
    """The key every form of these pages carries; only this process knows it."""
    return hmac.new(state.process_key, b"tischblock-pages-form", hashlib.sha256).hexdigest()


def check_form_key(state: HostState, given: object) -> None:
    if not isinstance(given, str) or not hmac.compare_digest(given.encode("utf-8"), form_key(state).encode("utf-8")):
        raise BadFormKey


LOGIN_PAGE = """<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Anmeldung nötig</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem"><h1>Nur für den Veranstalter</h1>
<p>Bitte mit dem Benutzer <b>organizer</b> und dem Veranstalter-Passwort anmelden
(das Passwort, mit dem <code>tischblock host</code> zum ersten Mal gestartet wurde).</p>
<p><a href="">Nochmal versuchen</a></p></body></html>"""


def login_required() -> HTMLResponse:
    return HTMLResponse(
        LOGIN_PAGE,
        status_code=401,
        headers={"WWW-Authenticate": f'Basic realm="{REALM}", charset="UTF-8"', "Cache-Control": "no-store"},
    )
