"""What a check process runs (``checking.SheetChecker``): an arriving sheet parsed and checked with its
ruleset, and the process's own start. It imports the rules and pydantic, nothing of the web framework
or the database (a contract in ``pyproject.toml``): a check process imports this module, and with
``http`` beside it each one imported FastAPI and Starlette too, about 0.2 s of CPU more per process
at every start of the host (``python -X importtime``, 29 Nov)."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, replace

from scoring import RuleViolation, Sheet, UnknownRuleset, score_sheet
from scoring.compare import Tally, tally

from ..protocol import body_sha256
from .bodies import parse_json_body


@dataclass(frozen=True, slots=True)
class Head:
    """What the host checks an arriving sheet's device, table and writer against (``take_sheet``), as
    plain values: a parsed ``Sheet`` (its context, participants and ruleset, each a pydantic model)
    cost as much to pickle across the pipe from a check process as the rest of its answer."""

    id: uuid.UUID
    tournament: str | None
    round_label: str
    round: int | None
    table: int | None
    written_by: str | None
    writer_name: str | None
    """``Sheet.writer_name``: the writing participant's name, else ``written_by``."""
    writer_start_number: int | None
    """The Startnummer of the participant whose id is ``written_by`` (``None``: no such participant, or
    one without a Startnummer)."""

    @classmethod
    def of(cls, sheet: Sheet) -> Head:
        context = sheet.context
        named = next((p for p in sheet.participants if p.id == context.written_by), None)
        return cls(
            id=sheet.id,
            tournament=context.tournament,
            round_label=context.round_label,
            round=context.round,
            table=context.table,
            written_by=context.written_by,
            writer_name=sheet.writer_name,
            writer_start_number=named.start_number if named is not None else None,
        )


@dataclass(frozen=True)
class Checked:
    """What the host needs of an arriving sheet that parsed: its ``Head``, and either the ruleset's
    refusal or the stored form and the score's facts."""

    head: Head
    """Id, context and writer for the checks of device, table and writer."""
    entries: int
    """How many log entries it has (the revision it must be sent as)."""
    refusal: str | None = None
    """The ruleset's German refusal (``RuleViolation``, ``UnknownRuleset``); ``None`` if it holds."""
    canonical: bytes = b""
    """Its canonical JSON (``Sheet.to_json()``), the form it is stored in."""
    sha256: str = ""
    closed: bool = False
    games: int = 0
    """Game lines of its score (every line but the close)."""
    tally: Tally | None = None
    """What the comparison with the other sheet of its table needs (``scoring/compare.py``)."""


def check_sheet(body: bytes, content_type: str | None) -> Checked:
    """Parse ``body`` as a sheet (``BodyRefused`` where it does not parse, ``bodies.parse_json_body``)
    and check it with its ruleset; a ruleset's refusal is returned in ``refusal``, not raised."""
    sheet = parse_json_body(Sheet, body, content_type)
    head = Head.of(sheet)
    try:
        score = score_sheet(sheet)
    except (RuleViolation, UnknownRuleset) as error:
        return Checked(head=head, entries=len(sheet.entries), refusal=str(error))
    canonical = sheet.to_json().encode("utf-8")
    return Checked(
        head=head,
        entries=len(sheet.entries),
        canonical=canonical,
        sha256=body_sha256(canonical),
        closed=score.status.closed,
        games=sum(1 for line in score.lines if line.kind != "close"),
        tally=tally(sheet, score),
    )


def _check_in_worker(body: bytes, content_type: str | None) -> Checked | None:
    """``check_sheet`` in a worker; ``None`` for a body that does not parse (the host parses it again)."""
    try:
        return check_sheet(body, content_type)
    except Exception:  # a refused body: its refusal is made in the host's process (see the module docstring)
        return None


def check_batch(bodies: list[tuple[bytes, str | None]]) -> list[Checked | None]:
    """``_check_in_worker`` for each of ``bodies``, in one task: a task's way to a worker and back (the
    pool's threads, pickling, two pipes, waking the waiting thread) costs the host's process about what
    the check itself costs, and it is paid once for all the sheets that arrived together.

    A sheet whose body is its canonical JSON already (a phone sends ``Sheet.to_json()``) comes back
    without it (``AS_SENT``): the host has those bytes, and a batch of bodies sent back was most of
    the pipe's and the pickles' work."""
    found = []
    for body, content_type in bodies:
        checked = _check_in_worker(body, content_type)
        if checked is not None and checked.refusal is None and checked.canonical == body:
            checked = replace(checked, canonical=AS_SENT)
        found.append(checked)
    return found


AS_SENT = b""
"""``Checked.canonical`` from a check process: the body as it was sent is the canonical JSON."""


def worker_ready() -> int:
    """A started worker's answer: its pid, a little later, so that a worker still starting takes the
    next of these while this one is busy (``SheetChecker._warm``)."""
    time.sleep(0.05)
    return os.getpid()


def start_worker(parent: int, cores: frozenset[int] | None, thresholds: tuple[int, int, int] | None) -> None:
    """A worker's start: every core the host may use, the host's collector thresholds, and an end
    with its parent (a killed host leaves no worker behind). Ctrl-C at the host's terminal reaches
    every process of its group: the host shuts down on it, its workers leave that to the host."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked from the start (``_warm``), now ignored
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    if thresholds is not None:
        gc.set_threshold(*thresholds)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="tischblock-check-parent", daemon=True).start()
