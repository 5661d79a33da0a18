"""The organizer's pages on the host's app: every route behind the organizer's password, every form with its key."""

from __future__ import annotations

import html
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from starlette.datastructures import FormData, UploadFile

from ..auth import is_organizer
from ..desk import DeskError
from ..http import HostError
from ..state import HostState
from .auth import BadFormKey, login_required
from .auth import posted as posted_form
from .downloads import install_pdf_downloads
from .forms import MAX_CSV_BYTES
from .season import install_season_pages
from .site import HERE, PREFIX, download, flashed
from .views import Pages

Round = Annotated[int, Path(ge=1, le=1000)]
Table = Annotated[int, Path(ge=1, le=100_000)]
StartNumber = Annotated[int, Path(ge=1, le=100_000)]
DeviceId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[0-9a-f]+$")]
"""Every number in a page's URL is range-checked (422) before it reaches the database."""


def install_pages(app: FastAPI, state: HostState) -> None:
    """Mount the organizer's pages on the host's app (``create_app`` calls this)."""
    pages = Pages(state)

    class PageRoute(APIRoute):
        """Every page: the organizer's password first, then the page; a refusal of ``Desk`` or a form
        without the form key becomes a German page (the JSON endpoints keep their own answers)."""

        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            original = super().get_route_handler()

            async def handler(request: Request) -> Response:
                try:
                    if not await run_in_threadpool(is_organizer, state, request):  # scrypt off the event loop
                        return login_required()
                except HostError as error:  # too many wrong passwords: wait
                    return HTMLResponse(
                        "<!doctype html><meta charset=utf-8><title>Bitte warten</title><h1>Bitte warten</h1>"
                        f"<p>{html.escape(error.detail)}.</p>",
                        status_code=error.status,
                        headers={**(error.headers or {}), "Cache-Control": "no-store"},
                    )
                try:
                    return await original(request)
                except BadFormKey:
                    return HTMLResponse(
                        "<!doctype html><meta charset=utf-8><h1>Formular abgelehnt</h1><p>Das Formular kam nicht von "
                        f'dieser Seite. Bitte die Seite neu laden und nochmal senden.</p><p><a href="{PREFIX}/">Zur Übersicht</a></p>',
                        status_code=403,
                    )
                except DeskError as error:
                    return await run_in_threadpool(pages.message, str(error))

            return handler

    router = APIRouter(route_class=PageRoute)

    async def posted(request: Request) -> FormData:
        return await posted_form(state, request)

    @router.get(PREFIX)
    def prefix_root() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/", status_code=307)

    @router.get(f"{PREFIX}/pages.css")
    def stylesheet() -> FileResponse:
        return FileResponse(HERE / "static" / "pages.css", media_type="text/css")

    @router.get(f"{PREFIX}/")
    def setup_page(request: Request) -> HTMLResponse:
        return pages.setup(**flashed(request))

    @router.post(f"{PREFIX}/turnier")
    async def setup_save(request: Request) -> Response:
        return pages.save_setup(await posted(request))

    @router.get(f"{PREFIX}/teilnehmer")
    def roster_page(request: Request) -> HTMLResponse:
        return pages.roster(**flashed(request))

    @router.post(f"{PREFIX}/teilnehmer/import")
    async def roster_import(request: Request) -> Response:
        form = await posted(request)
        upload = form.get("file")
        text = ""
        if isinstance(upload, UploadFile) and upload.filename:
            raw = await upload.read(MAX_CSV_BYTES + 1)
            if len(raw) > MAX_CSV_BYTES:
                return pages.roster(status=413, errors=[f"Die Datei ist größer als {MAX_CSV_BYTES // 1024} KiB"])
            for encoding in ("utf-8-sig", "cp1252"):  # German spreadsheets save either
                try:
                    text = raw.decode(encoding)
                    break
                except UnicodeDecodeError:
                    continue
        if not text.strip():
            pasted = form.get("text")
            text = pasted if isinstance(pasted, str) else ""
        if not text.strip():
            return pages.roster(status=422, errors=["Keine CSV-Datei gewählt und nichts eingefügt"])
        return pages.import_roster(form, text)

    @router.post(f"{PREFIX}/teilnehmer/neu")
    async def roster_add(request: Request) -> Response:
        return pages.register(await posted(request))

    @router.post(f"{PREFIX}/teilnehmer/{{start_number}}/zurueckziehen")
    async def roster_withdraw(request: Request, start_number: StartNumber) -> Response:
        await posted(request)
        return pages.withdraw(start_number)

    @router.post(f"{PREFIX}/teilnehmer/{{start_number}}/schluessel")
    async def roster_new_secret(request: Request, start_number: StartNumber) -> Response:
        await posted(request)
        return pages.new_secret(start_number)

    @router.get(f"{PREFIX}/handys")
    def devices_page(request: Request) -> HTMLResponse:
        return pages.devices(**flashed(request))

    @router.post(f"{PREFIX}/handys/{{device_id}}/abmelden")
    async def revoke_device(request: Request, device_id: DeviceId) -> Response:
        return pages.revoke(device_id, await posted(request))

    @router.get(f"{PREFIX}/runde/{{number}}")
    def round_page(request: Request, number: Round) -> HTMLResponse:
        return pages.round(number, **flashed(request))

    @router.post(f"{PREFIX}/runde/{{number}}/auslosen")
    async def round_draw(request: Request, number: Round) -> Response:
        return pages.draw(number, await posted(request))

    @router.post(f"{PREFIX}/runde/{{number}}/start")
    async def round_start(request: Request, number: Round) -> Response:
        await posted(request)
        return pages.start(number)

    @router.get(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/abbrechen")
    def abort_page(number: Round, table: Table) -> HTMLResponse:
        return pages.abort_form(number, table)

    @router.post(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/abbrechen")
    async def abort_table(request: Request, number: Round, table: Table) -> Response:
        return pages.abort(number, table, await posted(request))

    @router.get(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/papier")
    def paper_page(number: int, table: int, art: str = "spiele") -> HTMLResponse:
        return pages.paper(number, table, art)

    @router.post(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/papier")
    async def paper_save(request: Request, number: int, table: int) -> Response:
        return pages.save_paper(number, table, await posted(request))

    @router.get(f"{PREFIX}/runde/{{number}}/tisch/{{table}}")
    def dispute_page(request: Request, number: Round, table: Table) -> HTMLResponse:
        return pages.dispute(number, table, **flashed(request))

    @router.post(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/entscheiden")
    async def dispute_decide(request: Request, number: Round, table: Table) -> Response:
        return pages.decide(number, table, await posted(request))

    @router.post(f"{PREFIX}/runde/{{number}}/tisch/{{table}}/korrigieren")
    async def dispute_correct(request: Request, number: Round, table: Table) -> Response:
        return pages.correct(number, table, await posted(request))

    @router.get(f"{PREFIX}/wertung")
    def standings_page() -> HTMLResponse:
        return pages.standings()

    @router.get(f"{PREFIX}/beamer")
    def beamer_page(seite: Annotated[int, Query(ge=1, le=100_000)] = 1) -> HTMLResponse:
        return pages.beamer(seite)

    # -- downloads ------------------------------------------------------------------------------
    @router.get(f"{PREFIX}/export/wertung.csv")
    def standings_csv() -> Response:
        desk = pages.desk()
        return download(desk.standings_csv(), f"{desk.tournament().id}-wertung.csv", "text/csv; charset=utf-8")

    @router.get(f"{PREFIX}/export/spiele.csv")
    def games_csv() -> Response:
        desk = pages.desk()
        return download(desk.games_csv(), f"{desk.tournament().id}-spiele.csv", "text/csv; charset=utf-8")

    install_pdf_downloads(router, pages)
    install_season_pages(router, pages)  # the season (issue 23)
    app.include_router(router, include_in_schema=False)

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/", status_code=307)
