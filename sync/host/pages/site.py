"""Where the organizer's pages live and how they answer: the URL prefix, the templates, redirects and downloads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

PREFIX = "/veranstalter"
HERE = Path(__file__).resolve().parent
DASHBOARD_REFRESH = 15
"""Seconds between the round dashboard's and the standings' own reloads."""
BEAMER_REFRESH = 12
"""Seconds each page of the projector's leaderboard stays before the next one."""
BEAMER_ROWS = 10
"""Rows per projector page: big enough to read from the back of the hall."""

TEMPLATES = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def download(body: bytes, filename: str, media_type: str) -> Response:
    return Response(
        body,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


def flashed(request: Request) -> dict[str, Any]:
    """The message a redirect after a form carries (``?ok=`` or ``?fehler=``), for the page it lands on."""
    out: dict[str, Any] = {}
    if request.query_params.get("ok"):
        out["flash"] = request.query_params["ok"][:300]
    if request.query_params.get("fehler"):
        out["errors"] = [request.query_params["fehler"][:300]]
    return out
