"""The outbox: every queued sheet reaches the organizer's host once, and counts as there only when the host said so.

It works on ``SheetStore``'s sync marks (``mark_queued``, ``mark_acknowledged``, ``pending_sync``):

- Closing and signing a sheet queues it (``close_and_queue``); ``queue`` sends an open sheet as
  progress. A sheet is sent as it is now: ``PUT`` of its current revision (the number of log
  entries). A sheet already at the organizer's that gets another entry (a correction after the
  close) is pending again and its new revision is sent.
- A revision is marked acknowledged only on the host's 201 ("stored") or 200 ("already
  stored"): both mean it is durably stored there. No answer (a lost reply, a dropped connection,
  a host being restarted) changes nothing: the next round asks ``GET .../revisions/{n}`` first and
  re-sends only if the host does not have it; the host stores a revision once, so nothing is
  ever stored twice.
- A refusal (409 conflict, 422 the rules' message, 413, a sheet of another table) is recorded with
  its German message in ``outbox.json`` beside the store and not retried blindly: only a new
  revision of the sheet, or ``retry``, sends it again.

``SyncService`` runs the outbox in a background thread for the app: woken when a sheet is queued,
retrying with exponential backoff while the host is unreachable, and reporting every change of
the per-sheet state (``SheetSync``: not sent / waiting / at the organizer / refused) to a callback.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from scoring import Sheet
from storage import SheetInfo, SheetStore, SyncState
from storage.atomic import atomic_write_bytes, parse_json_object
from storage.errors import StorageError

from .client import Credentials, HostClient, HostFailed, SheetConflict, SheetRefused, SyncError
from .protocol import SubmitResponse

log = logging.getLogger(__name__)

NOTES_FILE = "outbox.json"


class SheetSyncState(StrEnum):
    """Where a sheet stands, as the app shows it."""

    NOT_SENT = "not_sent"
    WAITING = "waiting"
    AT_ORGANIZER = "at_organizer"
    REFUSED = "refused"


LABELS = {
    SheetSyncState.NOT_SENT: "nicht gesendet",
    SheetSyncState.WAITING: "wartet auf Versand",
    SheetSyncState.AT_ORGANIZER: "beim Veranstalter",
    SheetSyncState.REFUSED: "abgelehnt",
}


@dataclass(frozen=True)
class SheetSync:
    """The sync state of one sheet, for a list row or a sheet's header."""

    sheet_id: uuid.UUID
    revision: int
    """The sheet's current revision (number of log entries)."""
    state: SheetSyncState
    acknowledged_revision: int
    """The highest revision the host has acknowledged (0: none)."""
    message: str | None = None
    """Why the host refused the current revision (German), if it did."""
    comparison: str | None = None
    """The host's verdict on this sheet against the other team's sheet of the table, if it gave one."""

    @property
    def label(self) -> str:
        return LABELS[self.state]


@dataclass(frozen=True)
class SendReport:
    """What one round of ``send_pending`` did."""

    acknowledged: tuple[tuple[uuid.UUID, int], ...] = ()
    refused: tuple[tuple[uuid.UUID, str], ...] = ()
    problem: str | None = None
    """A transient failure (host unreachable, ...) that ended the round early; the rest waits for the next."""

    @property
    def complete(self) -> bool:
        return self.problem is None


class _Notes:
    """``outbox.json``: per sheet, the refusal of a revision and the host's last comparison.

    Read and written under the store's lock, atomically; the sheets themselves are untouched.
    """

    def __init__(self, store: SheetStore) -> None:
        self.store = store
        self.path = store.root / NOTES_FILE

    def read(self) -> dict[str, dict[str, Any]]:
        try:
            raw = parse_json_object(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:  # only notes: the next refusal is recorded again
            log.warning("outbox notes %s unreadable (%s); starting without them", self.path, error)
            return {}
        sheets = raw.get("sheets")
        return sheets if isinstance(sheets, dict) else {}

    def update(self, sheet_id: uuid.UUID, **values: Any) -> None:
        with self.store.locked():
            notes = self.read()
            note = {**notes.get(str(sheet_id), {}), **values, "at": datetime.now(UTC).isoformat()}
            notes[str(sheet_id)] = {k: v for k, v in note.items() if v is not None}
            atomic_write_bytes(self.path, json.dumps({"sheets": notes}, ensure_ascii=False).encode("utf-8"))

    def clear_refusal(self, sheet_id: uuid.UUID) -> None:
        self.update(sheet_id, refused=None, refused_revision=None)


def _state(info: SheetInfo, note: dict[str, Any]) -> SheetSync:
    refused = note.get("refused") if note.get("refused_revision") == info.revision else None
    acked = info.sync.revision if info.sync.state == SyncState.ACKNOWLEDGED else 0
    if refused:
        state = SheetSyncState.REFUSED
    elif info.sync.state == SyncState.ACKNOWLEDGED and info.sync.revision == info.revision:
        state = SheetSyncState.AT_ORGANIZER
    elif info.sync.state == SyncState.LOCAL:
        state = SheetSyncState.NOT_SENT
    else:
        state = SheetSyncState.WAITING
    return SheetSync(
        sheet_id=info.id,
        revision=info.revision,
        state=state,
        acknowledged_revision=acked,
        message=refused,
        comparison=note.get("comparison"),
    )


class Outbox:
    """Sends the store's queued sheets through ``client`` to the host the ``credentials`` belong to."""

    def __init__(self, store: SheetStore, client: HostClient, credentials: Credentials) -> None:
        self.store = store
        self.client = client
        self.credentials = credentials
        self.notes = _Notes(store)
        self._uncertain: set[tuple[uuid.UUID, int]] = set()
        """Revisions whose PUT got no answer: the host may hold them; ask before sending again."""

    # -- what the app calls ---------------------------------------------------------------------
    def queue(self, sheet_id: uuid.UUID | str) -> SheetSync:
        """Queue the sheet as it is now (an open sheet goes as progress)."""
        self.store.mark_queued(sheet_id)
        return self.status(sheet_id)

    def close_and_queue(self, sheet_id: uuid.UUID | str, signed_by: str, override: str | None = None) -> Sheet:
        """Close and sign the sheet (the ruleset may refuse: ``RuleViolation``), then queue it."""
        sheet = self.store.close(sheet_id, signed_by, override)
        self.store.mark_queued(sheet.id)
        return sheet

    def retry(self, sheet_id: uuid.UUID | str) -> SheetSync:
        """Send a refused sheet once more (after the organizer sorted it out)."""
        sid = self.store.stored(sheet_id).sheet.id
        self.notes.clear_refusal(sid)
        return self.queue(sid)

    def status(self, sheet_id: uuid.UUID | str) -> SheetSync:
        """The sheet's sync state: the store's acknowledgement read before the notes, which ``send``
        writes in the other order."""
        stored = self.store.stored(sheet_id)
        return _state(stored.info(), self.notes.read().get(str(stored.sheet.id), {}))

    def statuses(self) -> list[SheetSync]:
        """Every stored sheet's sync state, newest sheet first."""
        notes = self.notes.read()
        return [_state(info, notes.get(str(info.id), {})) for info in self.store.list_sheets()]

    def pending(self) -> list[SheetInfo]:
        """Sheets queued (or sent before and changed since) whose current revision is not refused, oldest first."""
        notes = self.notes.read()
        out = []
        for info in reversed(self.store.pending_sync()):
            if info.sync.state == SyncState.LOCAL:
                continue  # never queued: a home game, or a sheet not closed yet
            note = notes.get(str(info.id), {})
            if note.get("refused") and note.get("refused_revision") == info.revision:
                continue
            out.append(info)
        return out

    # -- sending --------------------------------------------------------------------------------
    def send_pending(self) -> SendReport:
        """Send every pending sheet, oldest first.

        Stops at a failure that concerns every sheet (the host unreachable, another certificate, the
        token refused); a server error for one sheet is reported and the others are still sent.
        """
        acknowledged: list[tuple[uuid.UUID, int]] = []
        refused: list[tuple[uuid.UUID, str]] = []
        problem: str | None = None
        for info in self.pending():
            try:
                answer = self.send(info.id)
            except SheetRefused as error:
                refused.append((info.id, str(error)))
                continue
            except HostFailed as error:  # the host answers, but not for this sheet: the others may still go through
                problem = str(error)
                continue
            except SyncError as error:  # unreachable, wrong certificate, token refused: the same for every sheet
                return SendReport(tuple(acknowledged), tuple(refused), str(error))
            except StorageError as error:  # e.g. a damaged sheet file, kept aside by the store
                refused.append((info.id, str(error)))
                continue
            if answer is not None:
                acknowledged.append((answer.sheet_id, answer.revision))
        return SendReport(tuple(acknowledged), tuple(refused), problem)

    def send(self, sheet_id: uuid.UUID | str) -> SubmitResponse | None:
        """Send the sheet's current revision; the host's acknowledgement, or ``None`` if refused here.

        ``SheetRefused`` / ``SheetConflict`` are recorded and raised; transient ``SyncError``s
        leave everything as it was (the revision stays pending) and are raised.
        """
        sheet = self.store.open(sheet_id)
        revision = len(sheet.entries)
        wrong_place = self._wrong_place(sheet)
        if wrong_place:
            self._refuse(sheet.id, revision, wrong_place)
            raise SheetRefused(wrong_place)
        try:
            answer = None
            if (sheet.id, revision) in self._uncertain:
                answer = self.client.stored(sheet.id, revision)
            if answer is None:
                answer = self.client.submit(sheet)
        except (SheetRefused, SheetConflict) as error:
            self._uncertain.discard((sheet.id, revision))
            self._refuse(sheet.id, revision, str(error))
            raise SheetRefused(str(error)) from error
        except SyncError as error:
            if error.transient:
                self._uncertain.add((sheet.id, revision))
            raise
        self._uncertain.discard((sheet.id, revision))
        # The comparison first, then the acknowledgement: ``status`` reads them in the other order, so
        # a screen (or another thread) that sees "beim Veranstalter" sees the host's comparison with it.
        # The other way round, a status read between the two said "at the organizer" without it.
        if answer.comparison is not None:
            self.notes.update(sheet.id, comparison=answer.comparison.message)
        self.store.mark_acknowledged(sheet.id, answer.revision)
        return answer

    def _wrong_place(self, sheet: Sheet) -> str | None:
        """Why this sheet does not belong to the tournament and table this phone joined, or ``None``."""
        creds = self.credentials
        if creds.start_number is not None:  # joined with the Startnummer: the host checks the table against the draw
            if sheet.context.tournament == creds.tournament_id and sheet.context.table is not None:
                return None
            return (
                f"Das Blatt gehört nicht zu {creds.tournament_name} (Turnier {sheet.context.tournament or '(keines)'}); "
                "dieses Handy sendet es nicht."
            )
        if sheet.context.tournament != creds.tournament_id or sheet.context.table != creds.table:
            where = f"Turnier {sheet.context.tournament or '(keines)'}, Tisch {sheet.context.table or '(keiner)'}"
            return (
                f"Das Blatt gehört zu {where}; dieses Handy ist für Tisch {creds.table} von "
                f"{creds.tournament_name} angemeldet und sendet es nicht."
            )
        return None

    def _refuse(self, sheet_id: uuid.UUID, revision: int, message: str) -> None:
        log.info("sheet %s revision %d refused: %s", sheet_id, revision, message)
        self.notes.update(sheet_id, refused=message, refused_revision=revision)


Listener = Callable[[list[SheetSync], str | None], None]
"""Called with every sheet's state and the current problem (German, or ``None``) when either changes."""


@dataclass
class SyncService:
    """The outbox in a background thread, for the app: ``start()``, ``stop()``, and plain methods.

    Sends at once when a sheet is queued (``queue``, ``close_and_queue`` or ``wake``); while the
    host is unreachable it retries after ``backoff_min``, doubling up to ``backoff_max`` seconds
    (with jitter); otherwise it looks again every ``poll`` seconds. ``on_change(states, problem)``
    runs in the sender's thread: a Flet screen should hand it to ``page.run_thread`` or update
    observable state there.
    """

    store: SheetStore
    credentials: Credentials
    on_change: Listener | None = None
    client: HostClient | None = None
    backoff_min: float = 0.5
    backoff_max: float = 30.0
    poll: float = 60.0
    problem: str | None = field(default=None, init=False)
    """The last transient failure (German), ``None`` once a round went through."""

    def __post_init__(self) -> None:
        if self.client is None:
            self.client = HostClient.for_credentials(self.credentials)
        self.outbox = Outbox(self.store, self.client, self.credentials)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: tuple[list[SheetSync], str | None] | None = None
        self._rng = random.Random()

    # -- what the app calls ---------------------------------------------------------------------
    def start(self) -> SyncService:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._wake.set()
            self._thread = threading.Thread(target=self._run, name="tischblock-sync", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop sending (a request in flight finishes or times out first)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """Try now (e.g. the phone is back in the Wi-Fi)."""
        self._wake.set()

    def queue(self, sheet_id: uuid.UUID | str) -> SheetSync:
        state = self.outbox.queue(sheet_id)
        self.wake()
        return state

    def close_and_queue(self, sheet_id: uuid.UUID | str, signed_by: str, override: str | None = None) -> Sheet:
        sheet = self.outbox.close_and_queue(sheet_id, signed_by, override)
        self.wake()
        return sheet

    def retry(self, sheet_id: uuid.UUID | str) -> SheetSync:
        state = self.outbox.retry(sheet_id)
        self.wake()
        return state

    def snapshot(self) -> list[SheetSync]:
        """Every sheet's sync state now (newest sheet first)."""
        return self.outbox.statuses()

    def status(self, sheet_id: uuid.UUID | str) -> SheetSync:
        return self.outbox.status(sheet_id)

    # -- the sender -----------------------------------------------------------------------------
    def _run(self) -> None:
        delay = 0.0
        while True:
            self._wake.wait(delay if delay else self.poll)
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                report = self.outbox.send_pending()
                self.problem = report.problem
            except Exception as error:  # never let the sender die: the app would stop syncing silently
                log.exception("sync round failed")
                self.problem = f"Senden an den Veranstalter fehlgeschlagen: {error}"
            if self.problem is None:
                delay = 0.0
            else:
                delay = min(self.backoff_max, max(self.backoff_min, delay * 2)) * self._rng.uniform(0.8, 1.0)
            self._notify()
        assert self.client is not None
        self.client.close()

    def _notify(self) -> None:
        if self.on_change is None:
            return
        try:
            current = (self.snapshot(), self.problem)
        except StorageError:
            log.exception("sync state unreadable")
            return
        if current == self._last:
            return
        self._last = current
        try:
            self.on_change(*current)
        except Exception:
            log.exception("sync state listener failed")
