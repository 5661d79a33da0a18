"""The organizer's login box and form keys on the pages; the password itself is checked by ``sync/host/auth.py``.

The browser asks once (its own login box, HTTP Basic, user ``organizer``) and sends the password with
every request of the tab; the host checks it as it checks the JSON endpoints' (``is_organizer``).

A form of these pages is only accepted with the page's form key (``csrf``): the browser sends the
Basic credentials to any request for this host, also one a foreign page makes it send, so a POST
without the key that only the host's own pages carry changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request
from fastapi.responses import HTMLResponse
from starlette.datastructures import FormData

from ..state import HostState

REALM = "Tischblock Veranstalter"


class BadFormKey(Exception):
    """A form came without this host's form key (answered 403)."""


def form_key(state: HostState) -> str:
    """The key every form of these pages carries; only this process knows it."""
    return hmac.new(state.process_key, b"tischblock-pages-form", hashlib.sha256).hexdigest()


def check_form_key(state: HostState, given: object) -> None:
    if not isinstance(given, str) or not hmac.compare_digest(given.encode("utf-8"), form_key(state).encode("utf-8")):
        raise BadFormKey


async def posted(state: HostState, request: Request, max_files: int = 1) -> FormData:
    """The form of a POST to these pages, if it carries the form key (else ``BadFormKey``: 403)."""
    form = await request.form(max_files=max_files, max_fields=500)
    check_form_key(state, form.get("csrf"))
    return form


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
