"""The organizer's pages, one method of ``Pages`` per page: each renders what ``Desk`` says."""

from __future__ import annotations

import html
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from scoring import RuleViolation, effective_entries, find_ruleset
from scoring.draw import DrawError, draw_round
from scoring.model import CLOSE
from scoring.numbering import line_label, numbering
from scoring.registry import all_rulesets

from ..desk import LOCKING, PAPIER, Desk, DeskError, HostSheet, PaperError
from ..league import League, Season
from ..state import HostState
from .auth import form_key
from .formats import LOCAL, SEAT_WORD, UNIT_PLURAL, euro, german_date, local_time, quoted, state_css
from .forms import correction_data, correction_fields, form_int, option_fields, options_from_form
from .paper import MODES, READERS, family, games_grid, totals_grid
from .site import BEAMER_REFRESH, BEAMER_ROWS, DASHBOARD_REFRESH, PREFIX, TEMPLATES, see_other


def game_text(kind: str, data: Mapping[str, Any], explanation: Sequence[str]) -> str:
    """A game as the dispute view reads it: the ruleset's own explanation, else its raw inputs."""
    if explanation:
        return "; ".join(explanation)
    inputs = ", ".join(f"{k}={v}" for k, v in data.items())
    return f"{kind} ({inputs})" if inputs else kind


def sheet_side(host: HostSheet, title: str, first: int | None = None) -> dict[str, Any]:
    """One sheet of a dispute: its games (``number`` as the comparison counts its lines, ``label`` as
    the players count them on the sheet: "8. Spiel") with their running stand, from two lines before
    the first difference on (the lines before agree)."""
    sheet = host.sheet
    ruleset = find_ruleset(sheet.ruleset.id)
    score = ruleset.score(sheet)
    ids = [p.id for p in sheet.participants]
    data_by_entry = {e.number: e for e in effective_entries(sheet.entries)}
    called = numbering(sheet.entries, ruleset.counted_kinds(sheet))
    games = []
    for number, line in enumerate((line for line in score.lines if line.kind != CLOSE), start=1):
        eff = data_by_entry.get(line.entry)
        text = game_text(line.kind, eff.data if eff else {}, [x.text for x in line.explanation])
        totals = line.stand or line.totals
        if first is not None and number < first - 2:
            continue
        label = line_label(called, line.entry)
        games.append({"number": number, "label": label, "text": text, "totals": [totals.get(i, 0) for i in ids]})
    return {
        "title": title,
        "sheet_id": str(sheet.id),
        "revision": host.revision,
        "closed": score.status.closed,
        "columns": [p.name for p in sheet.participants],
        "games": games,
        "result": ruleset.result_lines(sheet, score),
    }


class Pages:
    """The pages of one host: each method renders one page from ``Desk``."""

    def __init__(self, state: HostState) -> None:
        self.state = state
        self._beamer: tuple[float, str, Any] | None = None
        """(when, tournament id, standings) last shown on the projector: its pages share one computation."""

    def desk(self) -> Desk:
        return self.state.desk or Desk(self.state.store)

    # -- rendering ------------------------------------------------------------------------------
    def render(self, template: str, desk: Desk, status: int = 200, **values: Any) -> HTMLResponse:
        tournament = desk.tournament()
        plan = desk.plan() if desk.has_plan() else None
        common = {
            "prefix": PREFIX,
            "csrf": form_key(self.state),
            "tournament_name": tournament.name,
            "tournament_date": german_date(desk.date()) if plan else "",
            "round_label": plan.round_label if plan else "Runde",
            "nav_rounds": [d.round for d in desk.draws()] if plan else [],
            "unit": plan.unit if plan else "player",
            "unit_plural": UNIT_PLURAL[plan.unit] if plan else "Teilnehmer",
            "now": datetime.now(LOCAL).strftime("%H:%M:%S"),
        }
        next_round = (desk.current_round() or 0) + 1
        if plan and next_round <= plan.rounds and next_round not in common["nav_rounds"]:
            common["nav_rounds"] = [*common["nav_rounds"], next_round]
        html = TEMPLATES.get_template(template).render(**{**common, **values})
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    # -- set-up ---------------------------------------------------------------------------------
    def setup(self, form: Mapping[str, Any] | None = None, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        tournament = desk.tournament()
        plan = desk.plan() if desk.has_plan() else None
        ruleset_id = str((form or {}).get("ruleset") or (plan.ruleset_id if plan else "watten-turnier"))
        values = (form or {}).get("options") or (plan.options if plan and plan.ruleset_id == ruleset_id else None)
        try:
            default_plan = plan_for_form(ruleset_id)
        except DeskError:
            default_plan = None
        rounds = (form or {}).get("rounds") or (
            plan.rounds if plan and plan.ruleset_id == ruleset_id else default_plan.rounds if default_plan else 3
        )
        league = League(self.state.store, self.state.scored)
        current = league.season_of(tournament.id)
        shown = {
            "name": (form or {}).get("name", tournament.name),
            "date": (form or {}).get("date", desk.date() or ""),
            "ruleset": ruleset_id,
            "rounds": rounds,
            "season": (form or {}).get("season", current.id if current else ""),
        }
        all_rounds = []
        if plan:
            drawn = {d.round: d for d in desk.draws()}
            for number in range(1, plan.rounds + 1):
                if number in drawn:
                    started = desk.started_at(number)
                    text = f"ausgelost (Losnummer {drawn[number].seed})" + (
                        f", gestartet {local_time(started)}" if started else ""
                    )
                else:
                    text = "noch nicht ausgelost"
                all_rounds.append({"number": number, "text": text})
        return self.render(
            "setup.html",
            desk,
            title="Turnier",
            plan=plan,
            ruleset_title=find_ruleset(plan.ruleset_id).title if plan else "",
            entrant_count=len([e for e in desk.roster_entries() if e.withdrawn_after is None]) if plan else 0,
            join_code=tournament.join_code,
            rulesets=[{"id": r.id, "title": r.title} for r in all_rulesets()],
            options=option_fields(ruleset_id, values) if ruleset_id in {r.id for r in all_rulesets()} else [],
            form=shown,
            form_round_label=find_ruleset(ruleset_id).round_label if default_plan else "Runden",
            all_rounds=all_rounds,
            seasons=league.seasons_for(ruleset_id),
            current_season=current,
            **extra,
        )

    def save_setup(self, form: FormData) -> Response:
        desk = self.desk()
        ruleset_id = str(form.get("ruleset") or "")
        season_id = str(form.get("season") or "")[:100].strip()
        shown = {
            "name": str(form.get("name") or ""),
            "date": str(form.get("date") or ""),
            "ruleset": ruleset_id,
            "rounds": str(form.get("rounds") or ""),
            "season": season_id,
        }
        if form.get("reload"):  # the ruleset was changed: show its options, save nothing yet
            return self.setup({**shown, "rounds": ""})
        league = League(self.state.store, self.state.scored)
        try:
            options = options_from_form(ruleset_id, form)
            shown["options"] = options  # type: ignore[assignment]
            rounds = form_int(form.get("rounds"), "Die Zahl der Runden") if str(form.get("rounds") or "").strip() else None
            season = league.fitting(season_id, ruleset_id) if season_id else None  # refused before anything is saved
            name = shown["name"].strip()
            if name and name != desk.tournament().name:
                tournament = desk.create_tournament(name, ruleset_id, date=shown["date"], options=options, rounds=rounds)
                # HostState.tournament follows the store's current tournament: the phones join it from now on.
                flash = f"Neues Turnier '{tournament.name}' angelegt; Beitrittscode für die Handys: {tournament.join_code}"
            elif "season" in form and desk.same_plan(ruleset_id, date=shown["date"], options=options, rounds=rounds):
                flash = "Turnier unverändert"  # only the season chosen: also after the draw, when the plan is fixed
            else:
                desk.configure(ruleset_id, date=shown["date"], options=options, rounds=rounds)
                flash = "Turnier gespeichert"
        except (DeskError, RuleViolation, ValueError) as error:
            return self.setup(shown, errors=[str(error)], status=422)
        if "season" in form:
            flash += self._season_choice(league, desk.tournament().id, season)
        return see_other(f"{PREFIX}/?ok={quoted(flash)}")

    @staticmethod
    def _season_choice(league: League, tournament_id: str, season: Season | None) -> str:
        """Put the tournament just saved into the season chosen on the setup page, or out of its season."""
        if season is not None:
            return f"; zählt für die Saison {league.join(tournament_id, season.id).name}"
        left = league.leave(tournament_id)
        return f"; zählt nicht mehr für die Saison {left.name}" if left else ""

    # -- roster ---------------------------------------------------------------------------------
    def roster(self, status: int = 200, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        if not desk.has_plan():
            return see_other(f"{PREFIX}/?fehler={quoted('Zuerst das Turnier einrichten (Regelwerk und Runden)')}")  # type: ignore[return-value]
        entries = desk.roster_entries()
        return self.render(
            "roster.html",
            desk,
            status=status,
            title="Teilnehmer",
            entrants=[e.entrant for e in entries],
            secrets={e.entrant.start_number: e.secret for e in entries},
            withdrawn={e.entrant.start_number for e in entries if e.withdrawn_after is not None},
            next_number=max((e.entrant.start_number for e in entries), default=0) + 1,
            season_names=self.season_names(desk),
            **extra,
        )

    def season_names(self, desk: Desk) -> list[str]:
        """The names of the season's players (the roster's name field offers them as one types)."""
        league = League(self.state.store, self.state.scored)
        season = league.season_of(desk.tournament().id)
        return [p.name for p in league.season_players(season.id)] if season is not None else []

    def import_roster(self, form: FormData, text: str) -> Response:
        desk = self.desk()
        try:
            roster = desk.import_roster(text)
        except DeskError as error:
            return self.roster(status=422, errors=[str(error)], csv_text=text)
        except ValueError as error:  # RosterError: every bad line, nothing imported
            problems = list(getattr(error, "problems", ()) or [str(error)])
            return self.roster(status=422, errors=problems, errors_title="Nichts importiert: die Datei hat Fehler", csv_text=text)
        return see_other(f"{PREFIX}/teilnehmer?ok={quoted(f'{len(roster.entrants)} Teilnehmer importiert')}")

    def register(self, form: FormData) -> Response:
        desk = self.desk()
        try:
            raw_number = str(form.get("start_number") or "").strip()
            number = form_int(raw_number, "Die Startnummer") if raw_number else None
            members = [str(form.get("member1") or ""), str(form.get("member2") or "")]
            entry = desk.register(str(form.get("name") or ""), members, str(form.get("club") or ""), number)
        except ValueError as error:
            problems = list(getattr(error, "problems", ()) or [str(error)])
            return self.roster(status=422, errors=problems)
        late = f" (spielt ab {desk.plan().round_label} {entry.registered_round})" if entry.registered_round else ""
        text = f"Nr. {entry.entrant.start_number} {entry.entrant.name} angemeldet{late}"
        return see_other(f"{PREFIX}/teilnehmer?ok={quoted(text)}")

    def new_secret(self, start_number: int) -> Response:
        desk = self.desk()
        entry = desk.new_secret(start_number)
        text = f"Nr. {start_number} {entry.entrant.name}: neuer Schlüssel {entry.secret}; die alte Startkarte gilt nicht mehr"
        return see_other(f"{PREFIX}/teilnehmer?ok={quoted(text)}")

    # -- devices ----------------------------------------------------------------------------------
    def device_rows(self, desk: Desk, round: int | None = None) -> list[dict[str, Any]]:
        """The phones as the devices table shows them (by table, then Startnummer)."""
        rows = [
            {
                "id": d.id,
                "name": d.name,
                "table": d.table,
                "start_number": d.start_number,
                "team": d.team,
                "joined": local_time(d.joined_at),
                "last": local_time(d.last_delivery) if d.last_delivery else "",
                "revoked": local_time(d.revoked_at) if d.revoked_at else "",
                "second": d.second,
            }
            for d in desk.devices(round)
        ]
        return sorted(rows, key=lambda r: (r["table"] or 0, r["start_number"] or 0, r["joined"]))

    def devices(self, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        back = f"{PREFIX}/handys"
        return self.render("handys.html", desk, title="Handys", devices=self.device_rows(desk), back=back, **extra)

    def revoke(self, device_id: str, form: FormData) -> Response:
        desk = self.desk()
        back = str(form.get("zurueck") or "")
        if not back.startswith(f"{PREFIX}/") or "//" in back or "?" in back:
            back = f"{PREFIX}/handys"
        device = desk.revoke_device(device_id)
        who = f"Nr. {device.start_number} {device.team}" if device.start_number else f"Tisch {device.table}, {device.team or ''}"
        return see_other(f"{back}?ok={quoted(f'{device.name} ({who}) abgemeldet')}")

    def withdraw(self, start_number: int) -> Response:
        desk = self.desk()
        try:
            entry = desk.withdraw(start_number)
        except DeskError as error:
            return self.roster(status=422, errors=[str(error)])
        after = f" nach {desk.plan().round_label} {entry.withdrawn_after}" if entry.withdrawn_after else " vor der Auslosung"
        text = f"Nr. {start_number} {entry.entrant.name} hat{after} zurückgezogen"
        return see_other(f"{PREFIX}/teilnehmer?ok={quoted(text)}")

    # -- a round: draw and dashboard -------------------------------------------------------------
    def round(self, number: int, status: int = 200, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        plan = desk.plan()
        drawn = {d.round: d for d in desk.draws()}
        names = {e.start_number: e.name for e in desk.roster().entrants}
        values: dict[str, Any] = {
            "title": f"{plan.round_label} {number}",
            "number": number,
            "names": names,
            "seat_word": SEAT_WORD[plan.unit],
            "time_limit": plan.time_limit_minutes,
            "draw": drawn.get(number),
        }
        if number not in drawn:
            playing = desk.playing(number)
            values["active_count"] = len(playing)
            values["refusal"] = draw_refusal(desk, number, playing)
            return self.render("round.html", desk, status=status, **values, **extra)
        started = desk.started_at(number)
        tables = []
        reuegeld_total = 0
        minutes_left: int | None = None
        for view in desk.tables(number):
            s = view.status
            reuegeld_total += s.reuegeld_cents
            if s.minutes_left is not None:
                minutes_left = s.minutes_left if minutes_left is None else max(minutes_left, s.minutes_left)
            message = s.comparison.message if s.comparison is not None and not s.comparison.agree else ""
            state: str = s.state
            if view.decisions:  # the trail; a paper Tischliste decides nothing, so its comparison stays in view
                trail = " · ".join(f"{d.detail} ({d.decided_by}: {d.reason})" for d in view.decisions)
                message = f"{message} · {trail}" if message else trail
            tables.append(
                {
                    "table": view.draw.table,
                    "seats": view.draw.seats,
                    "state": state,
                    "css": state_css(state),
                    "stand": s.stand,
                    "games": s.games,
                    "reuegeld": euro(s.reuegeld_cents),
                    "message": message,
                    "has_sheets": bool(view.sheets),
                    "can_paper": not any(h.sheet.context.written_by == PAPIER for h in view.sheets)
                    and not any(d.kind in LOCKING for d in view.decisions),
                    "can_abort": started is not None and s.state in ("nicht begonnen", "läuft"),
                }
            )
        values.update(
            started=started,
            started_text=local_time(started),
            tables=tables,
            minutes_left=minutes_left,
            reuegeld=any(view["reuegeld"] != euro(0) for view in tables) or plan.ruleset_id.startswith("schafkopf"),
            reuegeld_total=euro(reuegeld_total),
            devices=self.device_rows(desk, number),
            back=f"{PREFIX}/runde/{number}",
            refresh=DASHBOARD_REFRESH if started is not None else None,
        )
        return self.render("round.html", desk, status=status, **values, **extra)

    def draw(self, number: int, form: FormData) -> Response:
        desk = self.desk()
        raw = str(form.get("seed") or "").strip().replace(".", "").replace(" ", "")
        try:
            seed = form_int(raw, "Die Losnummer") if raw else None
            drawn = desk.draw(number, seed)
        except DeskError as error:
            return self.round(number, status=422, errors=[str(error)])
        text = f"{desk.plan().round_label} {number} ausgelost mit Losnummer {drawn.seed}"
        return see_other(f"{PREFIX}/runde/{number}?ok={quoted(text)}")

    def start(self, number: int) -> Response:
        desk = self.desk()
        try:
            desk.start_round(number)
        except DeskError as error:
            return self.round(number, status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/runde/{number}?ok={quoted(f'{desk.plan().round_label} {number} gestartet')}")

    def abort_form(self, number: int, table: int, status: int = 200, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        view = next((v for v in desk.tables(number) if v.draw.table == table), None)
        if view is None:
            raise DeskError(f"Tisch {table} gibt es in {desk.plan().round_label} {number} nicht")
        return self.render(
            "abort.html",
            desk,
            status=status,
            title=f"Tisch {table} abbrechen",
            number=number,
            table=table,
            stand=view.status.stand,
            reason_default="Zeitlimit" if desk.plan().time_limit_minutes else "",
            **extra,
        )

    def abort(self, number: int, table: int, form: FormData) -> Response:
        desk = self.desk()
        if form.get("confirm") != "ja":
            return self.abort_form(number, table, status=422, errors=["Bitte den Abbruch bestätigen (Häkchen setzen)"])
        try:
            desk.abort_table(number, table, str(form.get("reason") or ""))
        except DeskError as error:
            return self.abort_form(number, table, status=422, errors=[str(error)])
        text = f"Tisch {table}: {desk.plan().round_label} {number} abgebrochen"
        return see_other(f"{PREFIX}/runde/{number}?ok={quoted(text)}")

    # -- disputes -------------------------------------------------------------------------------
    def dispute(self, number: int, table: int, status: int = 200, **extra: Any) -> HTMLResponse:
        desk = self.desk()
        decisions = desk.decisions(number, table)
        trail = [{"when": local_time(d.decided_at), "who": d.decided_by, "what": d.detail, "reason": d.reason} for d in decisions]
        found = desk.table_sheets(number, table)
        values: dict[str, Any] = {"title": f"Tisch {table}", "number": number, "table": table, "trail": trail}
        if len(found) >= 2:
            dispute = desk.dispute(number, table)
            a, b = dispute.sheets
            first = dispute.comparison.first_difference
            sides = [sheet_side(a, desk._writer(a.sheet), first), sheet_side(b, desk._writer(b.sheet), first)]
            values.update(
                comparison=dispute.comparison,
                sides=sides,
                first_difference=first,
                can_decide=not dispute.comparison.agree and desk.decided(number, table) is None,
            )
            if first is not None and correction_fields(a, first):
                values["correction"] = {
                    "sheet_id": str(a.sheet.id),
                    "title": sides[0]["title"],
                    "game": first,
                    "label": next(g["label"] for g in sides[0]["games"] if g["number"] == first),
                    "fields": correction_fields(a, first),
                }
        else:
            values.update(sides=[sheet_side(h, desk._writer(h.sheet)) for h in found], can_decide=False)
        return self.render("dispute.html", desk, status=status, **values, **extra)

    def decide(self, number: int, table: int, form: FormData) -> Response:
        desk = self.desk()
        try:
            decision = desk.decide(number, table, str(form.get("sheet_id") or ""), str(form.get("reason") or ""))
        except DeskError as error:
            return self.dispute(number, table, status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/runde/{number}/tisch/{table}?ok={quoted(decision.detail)}")

    def correct(self, number: int, table: int, form: FormData) -> Response:
        desk = self.desk()
        try:
            game = form_int(form.get("game"), "Die Spielnummer")
            decision = desk.correct_game(
                number, table, str(form.get("sheet_id") or ""), game, correction_data(form), str(form.get("reason") or "")
            )
        except DeskError as error:
            return self.dispute(number, table, status=422, errors=[str(error)])
        return see_other(f"{PREFIX}/runde/{number}/tisch/{table}?ok={quoted(decision.detail)}")

    # -- the paper Tischliste -------------------------------------------------------------------
    def paper(
        self,
        number: int,
        table: int,
        mode: str = "spiele",
        form: Mapping[str, str] | None = None,
        status: int = 200,
        error: PaperError | None = None,
    ) -> HTMLResponse:
        """ "Papierblatt erfassen": the table's paper Tischliste, game by game or only its totals."""
        desk = self.desk()
        mode = mode if mode in MODES else "spiele"
        sheet = desk.paper_sheet(number, table)
        seats = next(t.seats for t in desk.draw_of(number).tables if t.table == table)
        if mode == "spiele":
            grid = games_grid(sheet, paper_lines(sheet), form)
            filled = list(range(len(grid.rows)))
        else:
            grid = totals_grid(sheet, form)
            filled = [i for i, row in enumerate(grid.rows) if any(c["value"] for c in row.cells)] or [0]
        sheet_error = None
        if error is not None:
            line = error.line
            if line is not None and 1 <= line <= len(filled):
                grid.rows[filled[line - 1]].error = str(error)
            else:
                sheet_error = str(error)
        existing = desk.paper_of(number, table)
        return self.render(
            "paper.html",
            desk,
            status=status,
            title=f"Papierblatt Tisch {table}",
            number=number,
            table=table,
            seats=seats,
            names={e.start_number: e.name for e in desk.roster().entrants},
            seat_word=SEAT_WORD[desk.plan().unit],
            modes=MODES,
            mode=mode,
            grid=grid,
            sheet_error=sheet_error,
            existing=f"{local_time(existing.received_at)}, Revision {existing.revision}" if existing else None,
            override=(form or {}).get("override", ""),
            reason=(form or {}).get("reason", ""),
            errors=[str(error)] if error is not None else None,
            errors_title="Nichts gespeichert:",
        )

    def save_paper(self, number: int, table: int, form: FormData) -> Response:
        desk = self.desk()
        mode = str(form.get("art") or "")
        values = {key: value for key, value in form.multi_items() if isinstance(value, str)}
        if mode not in READERS:
            return self.paper(number, table, "spiele", values, status=422, error=PaperError("Unbekannte Art der Erfassung"))
        try:
            entries = READERS[mode](desk.paper_sheet(number, table), values)
            decision = desk.enter_paper(
                number, table, entries, override=values.get("override") or None, reason=values.get("reason") or None
            )
        except PaperError as error:
            return self.paper(number, table, mode, values, status=422, error=error)
        return see_other(f"{PREFIX}/runde/{number}?ok={quoted(f'Tisch {table}: {decision.detail}')}")

    def message(self, text: str) -> HTMLResponse:
        """A refusal of ``Desk`` outside a form (a round not drawn, no plan yet ...), as a German page."""
        try:
            return self.render("message.html", self.desk(), status=422, title=text, back=f"{PREFIX}/")
        except DeskError:
            return HTMLResponse(f"<!doctype html><meta charset=utf-8><p>{html.escape(text)}</p>", status_code=422)

    # -- standings ------------------------------------------------------------------------------
    def standings(self) -> HTMLResponse:
        desk = self.desk()
        return self.render(
            "standings.html",
            desk,
            title="Wertung",
            standings=desk.standings(),
            subtitle=subtitle(desk),
            refresh=DASHBOARD_REFRESH,
        )

    def beamer_standings(self, desk: Desk) -> Any:
        """The standings for the projector, computed at most once per page interval: paging through a long
        list (and a second projector) must not recompute them for every page."""
        now = time.monotonic()
        tournament_id = desk.tournament().id
        cached = self._beamer
        if cached is not None and cached[1] == tournament_id and now - cached[0] < BEAMER_REFRESH - 1:
            return cached[2]
        standings = desk.standings()
        self._beamer = (now, tournament_id, standings)
        return standings

    def beamer(self, page: int) -> HTMLResponse:
        desk = self.desk()
        standings = self.beamer_standings(desk)
        # The projector shows the first columns that decide the ranking, not every detail.
        shown_columns = list(standings.columns[:4])
        rows = standings.rows
        pages = max(1, -(-len(rows) // BEAMER_ROWS))
        page = min(max(page, 1), pages)
        chunk = rows[(page - 1) * BEAMER_ROWS : page * BEAMER_ROWS]
        next_page = page % pages + 1
        return self.render(
            "beamer.html",
            desk,
            title="Beamer",
            columns=shown_columns,
            rows=[
                {"rank": r.rank, "name": r.name, "shown": r.values[: len(shown_columns)], "decided_by": r.decided_by}
                for r in chunk
            ],
            page=page,
            pages=pages,
            subtitle=subtitle(desk),
            refresh=BEAMER_REFRESH,
            refresh_url=f"{PREFIX}/beamer?seite={next_page}",
        )


def paper_lines(sheet: Any) -> int:
    """Empty game lines the paper form offers: a whole round of the ruleset (Watten: 40 deals are plenty
    for 3 Bummerl to 15; Schafkopf: the Serie's games; Doppelkopf: 4 per player; Schnapsen: 30)."""
    kind = family(sheet.ruleset.id)
    if kind == "schafkopf":
        return int(sheet.ruleset.options.get("spiele", 32))
    if kind == "doppelkopf":
        return 4 * len(sheet.participants)
    return 40 if kind == "watten" else 30


def plan_for_form(ruleset_id: str) -> Any:
    try:
        return Desk._plan(ruleset_id, None, None)
    except Exception as error:
        raise DeskError(str(error)) from None


def draw_refusal(desk: Desk, number: int, playing: Sequence[int]) -> str | None:
    """Why this round cannot be drawn as the roster stands (the draw's own refusal), shown before the organizer tries."""
    if number != (desk.current_round() or 0) + 1:
        return f"Zuerst {desk.plan().round_label} {(desk.current_round() or 0) + 1} auslosen"
    if not playing:
        return "Die Startliste ist leer: zuerst Teilnehmer eintragen oder importieren"
    try:
        draw_round(desk.plan(), playing, desk.draws(), number, 0)
    except DrawError as error:
        return str(error)
    return None


def subtitle(desk: Desk) -> str:
    current = desk.current_round()
    plan = desk.plan()
    date = german_date(desk.date())
    parts = [p for p in (date, f"nach {plan.round_label} {current} von {plan.rounds}" if current else "") if p]
    return " · ".join(parts)
