"""The season's pages (issue 23): the seasons of the league, a season's standings with each player's
counted and uncounted tournaments, the projector, CSV and PDF, the scheme, and merging two records
of one person. Every page says that the rule documents define no season and which scheme counts.

Everything is computed by ``sync/host/league.py`` (``League``) and the pure ``scoring/season.py``;
a refusal (``LeagueError``) is a German page and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import FormData

from scoring import all_rulesets
from scoring.season import DEFAULT_SCHEME, SEASONS_NOT_IN_RULES, SeasonStandings, season_csv

from ..http import SlugPath
from ..league import FAMILIES, League, LeagueError, scheme_from_form
from .auth import posted as posted_form
from .formats import german_date, quoted
from .site import BEAMER_REFRESH, BEAMER_ROWS, PREFIX, download, flashed, see_other
from .views import Pages

SeasonId = SlugPath


def _field(form: FormData, name: str, limit: int = 2000) -> str:
    value = form.get(name)
    return value[:limit] if isinstance(value, str) else ""


class SeasonPages:
    """The season's pages of one host, over its ``League``."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.league = League(pages.state.store, pages.state.scored)

    def render(self, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        values.setdefault("default_scheme", DEFAULT_SCHEME)
        return self.pages.render(template, self.pages.desk(), status=status, rules_note=SEASONS_NOT_IN_RULES, **values)

    # -- the list of seasons ----------------------------------------------------------------------
    def overview(self, status: int = 200, **extra: Any) -> HTMLResponse:
        desk = self.pages.desk()
        tournament = desk.tournament()
        current = self.league.season_of(tournament.id)
        return self.render(
            "seasons.html",
            status=status,
            title="Saison",
            seasons=self.league.seasons(),
            current=current,
            this_tournament=tournament,
            families=sorted({*FAMILIES, *(r for r in _ruleset_ids())}),
            **extra,
        )

    def create(self, form: FormData) -> Response:
        try:
            scheme = self._scheme(form)
            season = self.league.create_season(_field(form, "name", 300), _field(form, "family", 60), scheme)
        except LeagueError as error:
            return self.overview(status=422, errors=[str(error)], form=dict(form))
        return see_other(f"{PREFIX}/saison/{season.id}?ok={quoted(f'Saison {season.name} angelegt')}")

    def join(self, form: FormData) -> Response:
        tournament = self.pages.desk().tournament()
        try:
            season = self.league.join(tournament.id, _field(form, "season", 100))
        except LeagueError as error:
            return self.overview(status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/saison/{season.id}?ok={quoted(f'{tournament.name} zählt jetzt für {season.name}')}")

    # -- one season -------------------------------------------------------------------------------
    def standings_page(self, season_id: str, status: int = 200, **extra: Any) -> HTMLResponse:
        season = self.league.season(season_id)
        standings = self.league.standings(season_id)
        return self.render(
            "season.html",
            status=status,
            title=f"Saison {season.name}",
            season=season,
            standings=standings,
            scheme_text=standings.scheme.describe(),
            tournaments=[(t, german_date(d)) for t, d in self.league.tournaments(season_id)],
            players=self.league.season_players(season_id),
            merges=self.league.merges(),
            **extra,
        )

    def set_scheme(self, season_id: str, form: FormData) -> Response:
        self.league.season(season_id)
        try:
            self.league.set_scheme(season_id, self._scheme(form))
        except LeagueError as error:
            return self.standings_page(season_id, status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/saison/{season_id}?ok={quoted('Schema gespeichert')}")

    def merge(self, season_id: str, form: FormData) -> Response:
        self.league.season(season_id)
        try:
            done = self.league.merge(_field(form, "from", 100), _field(form, "into", 100), _field(form, "reason", 600))
        except LeagueError as error:
            return self.standings_page(season_id, status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/saison/{season_id}?ok={quoted(f'{done.from_id} ist jetzt {done.into_id}')}")

    def beamer(self, season_id: str, page: int) -> HTMLResponse:
        season = self.league.season(season_id)
        standings = self.league.standings(season_id)
        rows = [r for r in standings.rows if r.rank is not None]
        pages = max(1, -(-len(rows) // BEAMER_ROWS))
        page = min(max(page, 1), pages)
        chunk = rows[(page - 1) * BEAMER_ROWS : page * BEAMER_ROWS]
        return self.render(
            "beamer.html",
            title="Beamer",
            tournament_name=season.name,
            columns=["Punkte", "Teilnahmen", "Siege"],
            rows=[
                {"rank": r.rank, "name": r.name, "shown": [r.total, r.participations, r.wins], "decided_by": r.decided_by}
                for r in chunk
            ],
            page=page,
            pages=pages,
            subtitle=f"Saisonwertung ({standings.scheme.name}; keine Regel der Regelwerke)",
            refresh=BEAMER_REFRESH,
            refresh_url=f"{PREFIX}/saison/{season_id}/beamer?seite={page % pages + 1}",
        )

    def csv(self, season_id: str) -> Response:
        self.league.season(season_id)
        body = season_csv(self.league.standings(season_id)).encode("utf-8-sig")
        return download(body, f"{season_id}-saisonwertung.csv", "text/csv; charset=utf-8")

    def pdf(self, season_id: str) -> Response:
        season = self.league.season(season_id)
        standings = self.league.standings(season_id)
        return download(season_pdf(season.name, standings), f"{season_id}-saisonwertung.pdf", "application/pdf")

    def suggest(self, season_id: str, typed: str) -> JSONResponse:
        self.league.season(season_id)
        found = self.league.suggest(season_id, typed[:80])
        return JSONResponse([{"id": p.id, "name": p.name} for p in found], headers={"Cache-Control": "no-store"})

    @staticmethod
    def _scheme(form: FormData) -> Any:
        return scheme_from_form(
            _field(form, "scheme_name", 200) or DEFAULT_SCHEME.name,
            _field(form, "points", 20),
            _field(form, "place_points", 20_000),
            _field(form, "best_of", 20),
            _field(form, "min_participations", 20),
        )


def season_pdf(name: str, standings: SeasonStandings) -> bytes:
    """The notice-board list: the ranking with each player's counted and struck results, the scheme and the note."""
    from scoring.printout import table_pdf

    columns = ["Platz", "Spieler", "Punkte", "Teiln.", "Siege", "Gezählt", "Gestrichen"]
    rows: list[list[str | int]] = [
        [cells[0], cells[1], cells[2], cells[3], cells[4], cells[6] or "–", cells[7] or "–"] for cells in standings.table()
    ]
    notes = [standings.scheme.describe(), *standings.notes]
    return table_pdf(f"{name}: Saisonwertung", standings.scheme.name, columns, rows, notes)


def _ruleset_ids() -> list[str]:
    return [r.id for r in all_rulesets()]


def install_season_pages(router: APIRouter, pages: Pages) -> None:
    """The season's routes on the pages' router (each behind the organizer's password, forms with their key)."""
    seasons = SeasonPages(pages)

    async def posted(request: Request) -> FormData:
        return await posted_form(pages.state, request, max_files=0)

    @router.get(f"{PREFIX}/saison")
    def overview(request: Request) -> HTMLResponse:
        return seasons.overview(**flashed(request))

    @router.post(f"{PREFIX}/saison/neu")
    async def create(request: Request) -> Response:
        return seasons.create(await posted(request))

    @router.post(f"{PREFIX}/saison/zuordnen")
    async def join(request: Request) -> Response:
        return seasons.join(await posted(request))

    @router.get(f"{PREFIX}/saison/{{season_id}}")
    def standings(request: Request, season_id: SeasonId) -> HTMLResponse:
        return seasons.standings_page(season_id, **flashed(request))

    @router.post(f"{PREFIX}/saison/{{season_id}}/schema")
    async def scheme(request: Request, season_id: SeasonId) -> Response:
        return seasons.set_scheme(season_id, await posted(request))

    @router.post(f"{PREFIX}/saison/{{season_id}}/zusammenfuehren")
    async def merge(request: Request, season_id: SeasonId) -> Response:
        return seasons.merge(season_id, await posted(request))

    @router.get(f"{PREFIX}/saison/{{season_id}}/beamer")
    def beamer(season_id: SeasonId, seite: Annotated[int, Query(ge=1, le=100_000)] = 1) -> HTMLResponse:
        return seasons.beamer(season_id, seite)

    @router.get(f"{PREFIX}/saison/{{season_id}}/saisonwertung.csv")
    def csv(season_id: SeasonId) -> Response:
        return seasons.csv(season_id)

    @router.get(f"{PREFIX}/saison/{{season_id}}/saisonwertung.pdf")
    def pdf(season_id: SeasonId) -> Response:
        return seasons.pdf(season_id)

    @router.get(f"{PREFIX}/saison/{{season_id}}/spieler")
    def suggest(season_id: SeasonId, q: Annotated[str, Query(max_length=80)] = "") -> JSONResponse:
        return seasons.suggest(season_id, q)
