"""Simulated tables for the tournament tests: the games a drawn table plays, written on its prepared sheet.

Pure helpers (no host, no phone): given the prepared sheet of a table (``Desk.assignment`` or
``AssignmentResponse.sheet``), ``play_*`` append the entries a table would write and return the
sheet. Each is deterministic from a ``random.Random`` seeded per table, so both teams of a Watten
table write the same games unless a test makes them differ.
"""

from __future__ import annotations

import random
from typing import Any

from scoring import Entry, Participant, RuleViolation, Sheet, find_ruleset


def entry(kind: str, data: dict[str, Any] | None = None) -> Entry:
    return Entry(kind=kind, data=data or {})


def sign(sheet: Sheet, signed_by: str | None = None) -> Sheet:
    """Close the sheet, signed by whoever keeps it (the Listenführer); early only with the Turnierleitung's note."""
    keeper = next((p.name for p in sheet.participants if p.id == sheet.context.written_by), "Listenführer")
    signed = sheet.with_entry(entry("close", {"signed_by": signed_by or keeper}))
    try:
        find_ruleset(sheet.ruleset.id).score(signed)
    except RuleViolation:  # not over yet (a Pflichtsolo open, games left): the Turnierleitung's note
        note = {"signed_by": signed_by or keeper, "override": "Vorzeitig beendet, Vermerk der Turnierleitung"}
        signed = sheet.with_entry(entry("close", note))
    return signed


def watten_games(winners: list[str]) -> list[Entry]:
    """One ``game`` entry per winner with the default value (2, or 3 against a gspannt team)."""
    return [entry("game", {"winner": w}) for w in winners]


def watten_durchgang(rng: random.Random, target: int = 15, bummerl: int = 3) -> list[str]:
    """Winners of the games of a whole Durchgang: ``bummerl`` Bummerl to ``target``, random winners."""
    ruleset = find_ruleset("watten-turnier")
    sheet = ruleset.new_sheet(
        [Participant(id="A", name="A", start_number=1), Participant(id="B", name="B", start_number=2)],
        options={"target": target, "bummerl_count": bummerl},
    )
    winners: list[str] = []
    while not ruleset.score(sheet).status.finished:
        winner = rng.choice("AB")
        sheet = sheet.with_entry(entry("game", {"winner": winner}))
        winners.append(winner)
    return winners


def play_watten(sheet: Sheet, winners: list[str], *, close: bool = True, finish: bool = False) -> Sheet:
    """Write the games with these winners; ``finish``: stop when the Durchgang is over, and play on
    (random winners, seeded) if it is not over yet (a sheet made to differ from the other one)."""
    ruleset = find_ruleset("watten-turnier")
    if not finish:
        for e in watten_games(winners):
            sheet = sheet.with_entry(e)
        return sign(sheet) if close else sheet
    more = random.Random(len(winners))
    queue = list(winners)
    while not ruleset.score(sheet).status.finished:
        sheet = sheet.with_entry(entry("game", {"winner": queue.pop(0) if queue else more.choice("AB")}))
    return sign(sheet) if close else sheet


def play_random(sheet: Sheet, rng: random.Random, *, close: bool = True, limit: int = 400) -> Sheet:
    """Play games the ruleset accepts until it says the round is finished (Schafkopf, Doppelkopf, Schnapsen).

    Candidate entries come from ``CANDIDATES``; a refused candidate is simply not written."""
    ruleset = find_ruleset(sheet.ruleset.id)
    checker = ruleset.checker(sheet)
    for _ in range(limit):
        if checker.score.status.finished:
            break
        options = [c for c in candidates(sheet, rng) if checker.allows(c)]
        if not options:
            break
        sheet = sheet.with_entry(rng.choice(options))
        advanced = checker.advanced(sheet)
        checker = advanced if advanced is not None else ruleset.checker(sheet)
    return sign(sheet) if close else sheet


def candidates(sheet: Sheet, rng: random.Random) -> list[Entry]:
    """A handful of plausible game entries for the sheet's ruleset."""
    ids = [p.id for p in sheet.participants]
    kind = sheet.ruleset.id
    out: list[Entry] = []
    if kind == "schafkopf-turnier":
        for _ in range(4):
            player = rng.choice(ids)
            partner = rng.choice([i for i in ids if i != player])
            farbe = rng.choice(["eichel", "gras", "schellen"])
            out.append(
                entry(
                    "game",
                    {"spiel": "rufspiel", "spieler": player, "partner": partner, "farbe": farbe, "gewonnen": rng.random() < 0.6},
                )
            )
        out.append(
            entry("game", {"spiel": "solo", "farbe": "herz", "spieler": rng.choice(ids), "augen": rng.choice([40, 78, 95])})
        )
    elif kind.startswith("doppelkopf"):
        for _ in range(4):
            pool = list(ids)
            rng.shuffle(pool)
            out.append(entry("game", {"re": pool[:2], "augen": rng.choice([131, 150, 100, 90, 121])}))
        out.append(entry("game", {"typ": "bubensolo", "re": [rng.choice(ids)], "augen": rng.choice([128, 100, 150])}))
    elif kind in ("bauernschnapsen", "talonschnapsen"):
        for _ in range(3):
            out.append(entry("game", {"game": "normal", "won": rng.random() < 0.5, "augen": rng.choice(["ab33", "unter33"])}))
    return out
