"""The tournament this phone joined, and where each sheet stands on its way to the organizer.

Joining takes the organizer's join line (``tischblock://join?url=…&code=…&fp=…``, printed and shown
as a QR code by ``tischblock host``) or the host's address and the join code, and then either the
Startnummer (a tournament whose tables the organizer draws: ``open_assigned`` fetches the round's
table, seat and prepared sheet and opens it) or the table and the team or seat this phone writes for. The credentials are kept beside the store; from then on one
``SyncService`` per store sends every queued sheet in the background until the host acknowledges
it. ``pull`` reads where each sheet stands into this observable state on the app's own loop (the
screens call it every second while they are shown; the sender works in its own thread).
"""

from __future__ import annotations

import hashlib
import ssl
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import flet as ft

from storage import SheetStore, StorageError
from storage.errors import SheetExists, SheetNotFound
from storage.repository import default_device
from sync.client import (
    CertificateMismatch,
    Credentials,
    HostClient,
    HostUnreachable,
    JoinRefused,
    NotDrawn,
    SheetRefused,
    SyncError,
    forget_credentials,
    join,
    load_credentials,
    save_credentials,
)
from sync.outbox import SheetSync, SheetSyncState, SyncService
from sync.protocol import InvalidJoinLine, JoinLine
from sync.scan import join_line_of, qr_texts

_SERVICES: dict[Path, SyncService] = {}
_LOCK = threading.Lock()


def _service(store: SheetStore, credentials: Credentials) -> SyncService:
    """The one sender of this store (two windows share it), started on first use."""
    with _LOCK:
        service = _SERVICES.get(store.root)
        if service is None or service.credentials != credentials:
            if service is not None:
                service.stop(timeout=2)
            service = SyncService(store, credentials).start()
            _SERVICES[store.root] = service
        return service


def _stop_service(store: SheetStore) -> None:
    with _LOCK:
        service = _SERVICES.pop(store.root, None)
    if service is not None:
        service.stop(timeout=2)


@ft.observable
@dataclass
class TournamentState:
    """The join form, the joined tournament, and every sheet's sync state."""

    store: SheetStore
    credentials: Credentials | None = None
    target: str = ""
    """The join line, or the host's address."""
    code: str = ""
    start_number: str = ""
    """The Startnummer, where the organizer draws the tables (then no table or team is asked)."""
    table: str = ""
    team: str = ""
    fingerprint: str = ""
    """For a typed https address: the first characters of the certificate's fingerprint."""
    device_name: str = field(default_factory=default_device)
    errors: dict[str, str] = field(default_factory=dict)
    problem: str | None = None
    """Why sending does not get through right now (German), ``None`` while it does."""
    states: dict[str, SheetSync] = field(default_factory=dict)
    assigned: str | None = None
    """Where the Startnummer plays now ("Durchgang 2 · Tisch 5 · Platz 1"), once asked."""
    link: JoinLine | None = None
    """The join line a link, a scanned QR code or a pasted line brought: the form then asks only what it lacks."""

    def __post_init__(self) -> None:
        try:
            self.credentials = load_credentials(self.store.root)
        except StorageError as error:
            self.errors = {"target": str(error)}
        if self.credentials is not None:
            _service(self.store, self.credentials)
            self.pull()

    @property
    def joined(self) -> bool:
        return self.credentials is not None

    @property
    def summary(self) -> str:
        """ "Kathreinwatten Söll 2026 · Tisch 4 · Die Sautreiber" for the start screen."""
        if self.credentials is None:
            return ""
        creds = self.credentials
        if creds.start_number is not None:
            parts = [creds.tournament_name, f"Startnummer {creds.start_number}", creds.team]
        else:
            parts = [creds.tournament_name, f"Tisch {creds.table}", self._side(creds)]
        return " · ".join(p for p in parts if p)

    def _side(self, creds: Credentials) -> str | None:
        """The team or player this phone joined for, as its table's sheet names it ("Die Sautreiber, Nr. 7"):
        joined by table, the phone typed the side ("A", "1") or the name; the sheet knows the name and the
        Startnummer. What was typed where no sheet of the table names it."""
        typed = (creds.team or "").strip()
        if not typed:
            return None
        try:
            infos = [i for i in self.store.list_sheets() if i.context.tournament == creds.tournament_id and i.context.table == creds.table]
            sheets = [self.store.open(i.id) for i in infos]
        except StorageError:
            return typed
        for sheet in sheets:
            for p in sheet.participants:
                if typed.casefold() in (p.id.casefold(), p.name.casefold()):
                    return p.name + (f", Nr. {p.start_number}" if p.start_number is not None else "")
        return typed

    @property
    def by_draw(self) -> bool:
        """Joined with the Startnummer: the table comes from each round's draw."""
        return self.credentials is not None and self.credentials.start_number is not None

    # -- joining --------------------------------------------------------------------------------
    def set_field(self, name: str, value: str) -> None:
        setattr(self, name, value)
        self.errors.pop(name, None)

    def take_link(self, text: str, *, named: bool = True) -> bool:
        """Fill the form from a join line or a link carrying one (``/beitreten?url=…``, ``tischblock://join?…``):
        the host, the code, the pinned fingerprint and, from a Startkarte, the Startnummer and its key. ``named``:
        the own name is known (else the name field starts empty and is asked). A text that is no join line
        leaves the form as it was, with the reason at the line's field."""
        try:
            line = JoinLine.from_link(text)
        except InvalidJoinLine as error:
            self.errors = {"target": str(error)}
            return False
        if line is None:
            self.errors = {"target": "Das ist keine Beitrittszeile von Tischblock (sie beginnt mit tischblock://join?)."}
            return False
        self.link, self.target, self.code, self.fingerprint = line, line.format(), "", ""
        if line.start_number is not None:
            self.start_number, self.table, self.team = str(line.start_number), "", ""
        if not named:
            self.device_name = ""
        self.errors = {}
        return True

    def take_photo(self, image: bytes | None, *, named: bool = True) -> bool:
        """A photo of the QR code (picked from a file): its join line fills in the form, or ``errors["scan"]``
        says why not (no image, no QR code, not Tischblock's)."""
        try:
            texts = qr_texts(image or b"")
        except InvalidJoinLine as error:
            self.errors = {"scan": str(error)}
            return False
        return self.take_qr(texts, named=named)

    def take_qr(self, texts: list[str], *, named: bool = True) -> bool:
        """The texts of the QR codes the camera or a photo shows: the join line among them fills in the form."""
        try:
            line = join_line_of(texts)
        except InvalidJoinLine as error:
            self.errors = {"scan": str(error)}
            return False
        return self.take_link(line.format(), named=named)

    def by_hand(self) -> None:
        """The player types the address, the code and the fingerprint instead."""
        self.link, self.target, self.errors = None, "", {}

    @property
    def remembered(self) -> str:
        """What the phone keeps of the join line for next time: the hall's line, never a Startkarte's key."""
        return self.link.for_everyone().format() if self.link is not None else self.target

    def join(self) -> bool:
        """Join with what the form holds; mark what is wrong next to its field, or keep the credentials."""
        errors: dict[str, str] = {}
        if self.link is None and self.target.strip().startswith("tischblock:"):
            typed = self.start_number.strip()  # a Startnummer typed beside a pasted line is the player's word
            if not self.take_link(self.target):
                return False
            if typed:
                self.start_number = typed
        target = self.link.format() if self.link is not None else self.target.strip()
        if not target:
            errors["target"] = "Beitrittszeile (tischblock://join?…) oder Adresse des Veranstalters eingeben."
        elif not target.startswith("tischblock:") and not self.code.strip():
            errors["code"] = "Der Beitrittscode fehlt (er steht unter dem QR-Code des Veranstalters)."
        number = self.start_number.strip()
        table = self.table.strip()
        if number:
            if not number.isdigit() or not 1 <= int(number) <= 99_999:
                errors["start_number"] = "Startnummer: eine ganze Zahl, wie sie auf der Startliste steht."
        elif not table.isdigit() or not 1 <= int(table) <= 999:
            errors["table"] = "Tischnummer: eine ganze Zahl von 1 bis 999 (oder oben die Startnummer, wenn ausgelost wird)."
        if not self.device_name.strip():
            errors["device_name"] = (
                "Bitte deinen Namen eingeben." if self.link is not None else "Bitte dem Handy einen Namen geben (z. B. „Tisch 4, Sautreiber“)."
            )
        if errors:
            self.errors = errors
            return False
        fingerprint = None
        if target.startswith("https://"):
            fingerprint = self._pin(target)
            if fingerprint is None:
                return False
        try:
            credentials = join(
                target,
                None if number else int(table),
                None if number else (self.team.strip() or None),
                self.device_name.strip()[:80],
                code=self.code.strip() or None,
                fingerprint=fingerprint,
                start_number=int(number) if number else None,
                secret=self.link.secret if self.link is not None and number == str(self.link.start_number) else None,
            )
        except InvalidJoinLine as error:
            self.errors = {"target": str(error)}
            return False
        except JoinRefused as error:
            self.errors = {"code": str(error)}
            return False
        except (CertificateMismatch, HostUnreachable, SyncError) as error:
            self.errors = {"target": str(error)}
            return False
        save_credentials(self.store.root, credentials)
        self.credentials, self.errors = credentials, {}
        _service(self.store, credentials)
        self.pull()
        return True

    def _pin(self, url: str) -> str | None:
        """For a typed https address: the host's certificate fingerprint, if it starts as the organizer
        printed it (the first characters the player typed); else a message at the field."""
        typed = self.fingerprint.replace(":", "").replace(" ", "").upper()
        if len(typed) < 8 or any(c not in "0123456789ABCDEF" for c in typed):
            self.errors = {"fingerprint": "Die ersten 8 Zeichen des Fingerabdrucks eingeben, wie der Veranstalter sie zeigt."}
            return None
        parts = urlsplit(url)
        try:
            pem = ssl.get_server_certificate((parts.hostname or "", parts.port or 443), timeout=10)
        except (OSError, ValueError) as error:
            self.errors = {"target": f"Der Veranstalter ist unter {url} nicht erreichbar: {error}"}
            return None
        digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
        if not digest.startswith(typed):
            self.errors = {
                "fingerprint": "Der Fingerabdruck passt nicht: das ist nicht der Rechner des Veranstalters "
                "(oder ein Tippfehler). Nicht beitreten, den Veranstalter fragen."
            }
            return None
        return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))

    def leave(self) -> None:
        """Leave the tournament on this phone (the sheets stay; unsent ones are sent after joining again)."""
        _stop_service(self.store)
        forget_credentials(self.store.root)
        self.credentials, self.states, self.problem, self.assigned = None, {}, None, None

    def open_assigned(self, round: int | None = None) -> str | None:
        """Ask the organizer where this Startnummer plays (the latest drawn round, or ``round``) and make
        that table's prepared sheet on this phone (once; asking again opens the same sheet).

        Returns the sheet's id, or ``None`` with the reason in ``errors["assignment"]``."""
        creds = self.credentials
        if creds is None or creds.start_number is None:
            self.errors = {"assignment": "Dieses Handy ist nicht mit einer Startnummer angemeldet."}
            return None
        try:
            with HostClient.for_credentials(creds) as client:
                found = client.assignment(round)
        except NotDrawn as error:
            self.errors = {"assignment": f"Noch kein Tisch: {error}"}
            return None
        except SyncError as error:
            self.errors = {"assignment": str(error)}
            return None
        try:
            self.store.create(found.sheet)
        except SheetExists:
            pass  # asked before: the same sheet, with whatever was written on it since
        except StorageError as error:
            self.errors = {"assignment": str(error)}
            return None
        seat = f" · Platz {found.seat}" if found.seat is not None else ""
        self.assigned = f"{found.round_label} {found.round} · Tisch {found.table}{seat}"
        self.errors = {}
        return str(found.sheet.id)

    # -- a sheet begun before joining -------------------------------------------------------------
    def stray(self, tournament: str | None, table: int | None) -> str | None:
        """Why a sheet will not reach the organizer this phone joined ("gehört zu keinem Turnier"), or ``None``."""
        if self.credentials is None or self.belongs(tournament, table):
            return None
        if tournament is None:
            return "geht nicht an den Veranstalter: gehört zu keinem Turnier"
        if tournament != self.credentials.tournament_id:
            return "geht nicht an den Veranstalter: gehört zu einem anderen Turnier"
        return f"geht nicht an den Veranstalter: dieses Handy schreibt für Tisch {self.credentials.table}"

    def can_hand_over(self, tournament: str | None, closed: bool) -> bool:
        """An open sheet of no tournament, on a phone joined with its Startnummer: "An das Turnier senden"."""
        return self.by_draw and tournament is None and not closed

    def hand_over(self, sheet_id: str, round: int | None = None) -> str | None:
        """Send a sheet begun before joining to the organizer as the drawn table's sheet: the host checks the
        teams, the ruleset and that the round is not signed yet; the phone keeps that sheet in place of the
        begun one and sends it from now on. Returns its id, or ``None`` with the reason in
        ``errors["hand_over:<id>"]``."""
        key = f"hand_over:{sheet_id}"
        creds = self.credentials
        if creds is None or creds.start_number is None:
            self.errors = {key: "Erst mit der Startnummer dem Turnier beitreten (Startkarte scannen)."}
            return None
        try:
            begun = self.store.open(sheet_id)
            with HostClient.for_credentials(creds) as client:
                answer = client.adopt(begun, round)
            self.store.hand_over(sheet_id, answer.sheet)
        except NotDrawn as error:
            self.errors = {key: f"Noch kein Tisch: {error}"}
            return None
        except (SheetRefused, SyncError) as error:
            self.errors = {key: str(error)}
            return None
        except SheetExists:
            self.errors = {
                key: f"Für {answer.round_label} {answer.round}, Tisch {answer.table} hat dieses Handy schon ein Blatt "
                "mit Spielen; dort weiterschreiben."
            }
            return None
        except (SheetNotFound, StorageError) as error:
            self.errors = {key: str(error)}
            return None
        self.assigned = f"{answer.round_label} {answer.round} · Tisch {answer.table}"
        self.errors = {}
        new_id = str(answer.sheet.id)
        self.queue(new_id)
        return new_id

    # -- sending --------------------------------------------------------------------------------
    def _running(self) -> SyncService | None:
        return _service(self.store, self.credentials) if self.credentials is not None else None

    def where(self, text: str) -> str:
        """A sheet's "where" line with the joined tournament's name instead of its id."""
        creds = self.credentials
        return text.replace(creds.tournament_id, creds.tournament_name) if creds is not None else text

    def belongs(self, tournament: str | None, table: int | None) -> bool:
        """Whether a sheet of this tournament and table is one this phone sends."""
        creds = self.credentials
        if creds is not None and creds.start_number is not None:
            return tournament == creds.tournament_id and table is not None
        return creds is not None and tournament == creds.tournament_id and table == creds.table

    def saved(self, sheet_id: str, closed: bool) -> None:
        """After a sheet was changed: a signed sheet of the tournament goes out, and so does every
        later change of a sheet that went out before (a correction after signing)."""
        state = self.states.get(sheet_id)
        if closed or (state is not None and state.state != SheetSyncState.NOT_SENT):
            self.queue(sheet_id)

    def queue(self, sheet_id: str) -> None:
        """Send the sheet as it is now (an open sheet goes as progress, a signed one as the result)."""
        service = self._running()
        if service is None:
            return
        try:
            service.queue(sheet_id)
        except StorageError as error:
            self.problem = str(error)
            return
        self.pull()

    def retry(self, sheet_id: str) -> None:
        service = self._running()
        if service is not None:
            service.retry(sheet_id)
            self.pull()

    def pull(self) -> None:
        """Copy the sender's latest report (or a fresh snapshot) into what the screens show."""
        service = self._running()
        if service is None:
            return
        try:
            states, problem = service.snapshot(), service.problem
        except StorageError as error:
            states, problem = [], str(error)
        fresh = {str(s.sheet_id): s for s in states}
        if fresh != self.states:
            self.states = fresh
        if problem != self.problem:
            self.problem = problem

    def holdup(self, sheet_id: str) -> str | None:
        """Why a sheet that waits to go out does not go out now (the sender's problem, German), for the
        sheet's own screen: a player inside the sheet does not see the start screen's notice. ``None``
        when nothing of this sheet waits or nothing holds it up."""
        state = self.states.get(sheet_id)
        if self.problem is None or state is None or self.credentials is None:
            return None
        waiting = state.state == SheetSyncState.WAITING or (
            state.state != SheetSyncState.NOT_SENT and state.revision > state.acknowledged_revision
        )
        return f"Senden klappt gerade nicht: {self.problem}" if waiting else None

    def label(self, sheet_id: str) -> str | None:
        """Where the sheet stands: "beim Veranstalter", "wartet auf Versand", "abgelehnt: …"; ``None`` if not sent."""
        state = self.states.get(sheet_id)
        if state is None or self.credentials is None:
            return None
        if state.state == SheetSyncState.REFUSED:
            return f"abgelehnt: {state.message}"
        if state.state == SheetSyncState.NOT_SENT:
            return None
        text = state.label
        if state.state == SheetSyncState.AT_ORGANIZER and state.comparison:
            text += f" · {state.comparison}"
        return text
