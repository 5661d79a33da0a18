"""Realistic tournament sheets for the sync tests and the host benchmark (not a test module).

Every sheet is built game by game with its ruleset (``Ruleset.check`` accepts each entry), so
the host's own validation has nothing to refuse: a Watten Durchgang played to its three
Bummerl, a Schafkopf Serie of 32 games, each closed and signed unless asked otherwise.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from scoring import Entry, Participant, RuleViolation, Sheet, SheetContext, find_ruleset

WATTEN = find_ruleset("watten-turnier")
SCHAFKOPF = find_ruleset("schafkopf-turnier")
START = datetime(2026, 11, 23, 19, 0, tzinfo=UTC)


def watten_teams(table: int) -> tuple[Participant, Participant]:
    return (
        Participant(id="A", name=f"Tisch {table} Team A", start_number=2 * table - 1, members=("Sepp", "Hias")),
        Participant(id="B", name=f"Tisch {table} Team B", start_number=2 * table, members=("Toni", "Vroni")),
    )


def _stamp(n: int, device: str) -> dict[str, Any]:
    return {"at": START + timedelta(minutes=3 * n), "device": device}


def _append_first_valid(sheet: Sheet, candidates: list[dict[str, Any]], device: str, kind: str = "game") -> Sheet:
    ruleset = find_ruleset(sheet.ruleset.id)
    for data in candidates:
        entry = Entry(kind=kind, data=data, **_stamp(len(sheet.entries), device))
        try:
            ruleset.check(sheet, entry)
        except RuleViolation:
            continue
        return sheet.with_entry(entry)
    raise AssertionError(f"no candidate fits: {candidates}")


def watten_sheet(
    rng: random.Random,
    *,
    tournament: str,
    table: int,
    round: int = 1,
    written_by: str | None = "A",
    games: int | None = None,
    close: bool = True,
    winners: str | None = None,
) -> Sheet:
    """A Watten Durchgang (3 Bummerl to 15) of random games, or the games named by ``winners`` ("ABBA...")."""
    device = f"handy-tisch-{table}-{written_by or 'x'}"
    context = SheetContext(tournament=tournament, round_label="Durchgang", round=round, table=table, written_by=written_by)
    sheet = WATTEN.new_sheet(watten_teams(table), context)
    plan = list(winners) if winners is not None else None
    while not WATTEN.score(sheet).status.finished and (games is None or len(sheet.entries) < games):
        if plan is not None:
            if not plan:
                break
            winner = plan.pop(0)
            value = 2
        else:
            winner = rng.choice("AB")
            value = rng.choice((2, 2, 2, 3, 4))
        sheet = _append_first_valid(
            sheet, [{"winner": winner, "value": value}, {"winner": winner, "value": 3}, {"winner": winner}], device
        )
    if close:
        signer = watten_teams(table)[0 if written_by != "B" else 1].members[0]
        data = {"signed_by": signer}
        if not WATTEN.score(sheet).status.finished:
            data["override"] = "Turnierleitung: Zeit abgelaufen"
        sheet = sheet.with_entry(Entry(kind="close", data=data, **_stamp(len(sheet.entries), device)))
        WATTEN.score(sheet)
    return sheet


def schafkopf_sheet(
    rng: random.Random, *, tournament: str, table: int, round: int = 1, close: bool = True, spiele: int = 32
) -> Sheet:
    """A Schafkopf Serie of ``spiele`` random Rufspiele, Soli and Wenz, kept by the player at seat 3."""
    players = [
        Participant(id=f"p{i}", name=f"Tisch {table} Spieler {i}", seat=i, start_number=4 * (table - 1) + i) for i in range(1, 5)
    ]
    device = f"handy-tisch-{table}"
    context = SheetContext(tournament=tournament, round_label="Serie", round=round, table=table, written_by="p3")
    sheet = SCHAFKOPF.new_sheet(players, context, {"spiele": spiele})
    ids = [p.id for p in players]
    for _ in range(spiele):
        spieler = rng.choice(ids)
        gewonnen = rng.random() < 0.6
        art = rng.random()
        if art < 0.7:
            partner = rng.choice([p for p in ids if p != spieler])
            farbe = rng.choice(("eichel", "gras", "schellen"))
            game = {"spiel": "rufspiel", "spieler": spieler, "partner": partner, "farbe": farbe, "gewonnen": gewonnen}
        elif art < 0.9:
            game = {
                "spiel": "solo",
                "farbe": rng.choice(("eichel", "gras", "herz", "schellen")),
                "spieler": spieler,
                "gewonnen": gewonnen,
            }
        else:
            game = {"spiel": "wenz", "spieler": spieler, "gewonnen": gewonnen}
        sheet = _append_first_valid(sheet, [game], device)
    if close:
        sheet = sheet.with_entry(Entry(kind="close", data={"signed_by": players[2].name}, **_stamp(len(sheet.entries), device)))
        SCHAFKOPF.score(sheet)
    return sheet
