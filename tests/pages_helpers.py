"""Simulated phones for the organizer pages' tests, and the organizer's side of those tests.

``Phone`` joins the real host with a Startnummer, asks for its assignment and delivers its sheets
through the host's API; ``AppPhone`` does the same through the app's own sync code (its
``SheetStore``, ``sync.client.join`` with the Startkarte's line, ``HostClient`` and ``Outbox``).
``organizer_session`` and ``form_key`` are the organizer's side, without a browser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from scoring import Entry, Sheet, find_ruleset
from storage import SheetStore
from sync.client import Credentials, HostClient, join, save_credentials
from sync.outbox import Outbox, SendReport, SheetSync
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


@dataclass
class AppPhone:
    """One entrant's phone as the app keeps it: its own store, joined with the Startkarte's line
    (Startnummer and key, ``code``: the tournament's join code), the drawn table's prepared sheet taken
    as the app takes it, and the app's ``Outbox`` sending through ``HostClient``."""

    host: HostProcess
    start_number: int
    root: Path
    code: str | None = None
    store: SheetStore = field(init=False)
    credentials: Credentials = field(init=False)
    client: HostClient = field(init=False)
    outbox: Outbox = field(init=False)

    def __post_init__(self) -> None:
        name = f"Handy {self.start_number}"
        self.store = SheetStore(self.root / f"handy-{self.start_number}", device=name)
        self.credentials = join(self.host.card_line(self.start_number, self.code), None, None, name)
        save_credentials(self.store.root, self.credentials)
        self.client = HostClient.for_credentials(self.credentials)
        self.outbox = Outbox(self.store, self.client, self.credentials)

    def open_assigned(self, round: int) -> Sheet:
        """The drawn table's prepared sheet, kept in the phone's store (``TournamentState.open_assigned``)."""
        return self.store.create(self.client.assignment(round).sheet)

    def write(self, sheet_id: Any, played: Sheet) -> None:
        """Enter the games of ``played`` one by one, as the sheet screen does."""
        for entry in played.entries:
            self.store.add_game(sheet_id, entry.data, kind=entry.kind)

    def send(self) -> SendReport:
        return self.outbox.send_pending()

    def status(self, sheet_id: Any) -> SheetSync:
        return self.outbox.status(sheet_id)

    def close(self) -> None:
        self.client.close()


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


def organizer_session(host: HostProcess) -> requests.Session:
    """A session with the host's pinned certificate and the organizer's password."""
    session = pinned_session(host.fingerprint)
    session.auth = AUTH
    return session


def form_key(web: requests.Session, host: HostProcess, path: str = "/veranstalter/") -> str:
    """The form key (csrf) of the page at ``path``, as a browser would send it back."""
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get(host.url + path, timeout=30).text)
    assert found
    return found.group(1)



def new_season(
    web: requests.Session, host: HostProcess, name: str, family: str, scheme: str, points: str = "places", **fields: str
) -> requests.Response:
    """Create a season with the season page's form ("Neue Saison"): ``scheme`` is the scheme's name;
    ``fields``: ``place_points``, ``best_of``, ``min_participations`` as typed (empty by default)."""
    data = {"place_points": "", "best_of": "", "min_participations": "1", **fields}
    data |= {"csrf": form_key(web, host, "/veranstalter/saison"), "name": name, "family": family, "scheme_name": scheme}
    return web.post(f"{host.url}/veranstalter/saison/neu", data={**data, "points": points}, timeout=30)
