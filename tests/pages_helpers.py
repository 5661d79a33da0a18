"""Simulated phones for the organizer pages' tests: they join the real host with a Startnummer, ask
for their assignment and deliver their sheets through the host's API, exactly as the app does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import requests

from scoring import Entry, Sheet, find_ruleset
from sync.protocol import TOKEN_HEADER, revision_path

from .host_helpers import pinned_session
from .hostproc import PASSWORD, HostProcess

FARBEN = ("eichel", "gras", "schellen")


@dataclass
class Phone:
    """One entrant's phone: joined with its Startnummer."""

    host: HostProcess
    join_code: str
    start_number: int
    token: str = ""
    session: requests.Session = field(init=False)

    def __post_init__(self) -> None:
        self.session = pinned_session(self.host.fingerprint)
        reply = self.session.post(
            f"{self.host.url}/api/v1/join",
            json={
                "join_code": self.join_code,
                "start_number": self.start_number,
                "secret": self.host.secret(self.start_number),
                "device_name": f"Handy {self.start_number}",
            },
            timeout=30,
        )
        assert reply.status_code == 201, reply.text
        self.token = reply.json()["device_token"]

    def assignment(self, round: int) -> dict[str, Any]:
        reply = self.session.get(
            f"{self.host.url}/api/v1/assignment", params={"round": round}, headers={TOKEN_HEADER: self.token}, timeout=30
        )
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    def sheet(self, round: int) -> Sheet:
        return Sheet.model_validate(self.assignment(round)["sheet"])

    def submit(self, sheet: Sheet) -> requests.Response:
        reply = self.session.put(
            f"{self.host.url}{revision_path(sheet.id, len(sheet.entries))}",
            data=sheet.to_json().encode("utf-8"),
            headers={"Content-Type": "application/json", TOKEN_HEADER: self.token},
            timeout=30,
        )
        assert reply.status_code in (200, 201), reply.text
        return reply


def watten_durchgang(sheet: Sheet, winners: str, *, close: bool = True, games: int | None = None) -> Sheet:
    """The sheet with games won in the pattern ``winners`` ("AAB" repeated: participant order, A = first)
    until the Durchgang is over (or ``games`` games), then signed."""
    ruleset = find_ruleset(sheet.ruleset.id)
    ids = [p.id for p in sheet.participants]
    number = 0
    while not ruleset.score(sheet).status.finished and (games is None or number < games):
        winner = ids[0] if winners[number % len(winners)] == "A" else ids[1]
        sheet = sheet.with_entry(Entry(kind="game", data={"winner": winner}))
        number += 1
    if close:
        sheet = sheet.with_entry(Entry(kind="close", data={"signed_by": sheet.participants[0].name}))
    return sheet


def schafkopf_serie(sheet: Sheet, shift: int) -> Sheet:
    """A whole Serie of Rufspiele (as many as the sheet's option ``spiele``), won or lost by a pattern, signed."""
    ruleset = find_ruleset(sheet.ruleset.id)
    ids = [p.id for p in sorted(sheet.participants, key=lambda p: p.seat or 0)]
    number = 0
    while not ruleset.score(sheet).status.finished:
        player = ids[(number + shift) % 4]
        partner = ids[(number + shift + 2) % 4]
        data: dict[str, Any] = {"spiel": "rufspiel", "spieler": player, "partner": partner, "farbe": FARBEN[number % 3]}
        data["gewonnen"] = (number + shift) % 3 != 1
        sheet = sheet.with_entry(Entry(kind="game", data=data))
        number += 1
    return sheet.with_entry(Entry(kind="close", data={"signed_by": sheet.participants[0].name}))


def join_code_of(html: str) -> str:
    """The join code the set-up page shows."""
    found = re.search(r"Beitrittscode <strong>([A-Z0-9]+)</strong>", html)
    assert found, html
    return found.group(1)


AUTH = ("organizer", PASSWORD)
