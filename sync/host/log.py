"""The host's log (``tischblock.host``): one German line per event, never a token or a password."""

from __future__ import annotations

import logging
import queue
import re
import threading
from contextlib import nullcontext
from typing import TextIO

from .batches import take_batches

log = logging.getLogger("tischblock.host")


class _OneLine(logging.Filter):
    """Every log record stays one line: names and messages come from phones, and a line break or
    terminal escape in them must not forge further lines in the organizer's terminal."""

    _CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._CONTROL.sub(" ", record.getMessage())
        record.args = None
        return True


log.addFilter(_OneLine())


class LineWriter(logging.Handler):
    """Writes the host's log lines from one thread of its own, every line waiting in one write.

    A line per sheet written by the thread that took the sheet cost about 0.14 ms of CPU each while
    sheets arrived together (``bench/host.py --phases``, issue 24), against about 0.01 ms alone: each
    write to the terminal or pipe gave up the interpreter lock, and the sheets' other threads then
    queued for it and for the handler's lock. Here a sheet's thread only queues its record, and the
    lines keep their order. ``stop`` (the host's end: Ctrl-C, SIGTERM) writes what waits and ends the
    thread before the interpreter does (a thread still writing to stdout then can abort it); a line
    logged after that is written at once, as ``logging.StreamHandler`` writes."""

    MOST = 256

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self._waiting: queue.SimpleQueue[logging.LogRecord | None] = queue.SimpleQueue()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="tischblock-host-log", daemon=True)
        self._thread.start()

    def handle(self, record: logging.LogRecord) -> bool:
        """``logging.Handler.handle`` without the handler's lock around ``emit``: a sheet's thread only
        queues its record, and that lock, taken by every sheet's thread for each line, cost three
        times the line itself while sheets arrived together (21.6 against 7.0 µs with 8 threads)."""
        passed = self.filter(record)
        if isinstance(passed, logging.LogRecord):  # a filter may hand back another record (Python 3.12)
            record = passed
        if passed:
            self.emit(record)
        return bool(passed)

    def emit(self, record: logging.LogRecord) -> None:
        if self._stopped:
            with self.lock or nullcontext():
                self._write([record])
            return
        self._waiting.put(record)
        if self._stopped:  # ``stop`` came in between and may have taken what was left already
            self._write_leftover()

    def _run(self) -> None:
        take_batches(self._waiting, self.MOST, self._write)

    def _write(self, records: list[logging.LogRecord]) -> None:
        if not records:
            return
        lines = []
        for record in records:
            try:
                lines.append(self.format(record) + "\n")
            except Exception:  # a record that cannot be formatted: reported as logging does, the others written
                self.handleError(record)
        try:
            self.stream.write("".join(lines))
            self.stream.flush()
        except Exception:  # the terminal went away: the host serves on (logging.StreamHandler does the same)
            pass

    def stop(self) -> None:
        """Write every line waiting and end the writer's thread (the host's end); later lines are
        written at once. Not ``close``: ``logging.config.dictConfig`` closes every handler there is,
        and uvicorn calls it at its start."""
        if self._stopped:
            return
        self._stopped = True
        self._waiting.put(None)
        self._write_leftover()

    def _write_leftover(self) -> None:
        """After ``stop``: once the writer's thread has ended, write what was queued behind its end."""
        self._thread.join(timeout=10)
        with self.lock or nullcontext():
            left = []
            while True:
                try:
                    record = self._waiting.get_nowait()
                except queue.Empty:
                    break
                if record is not None:
                    left.append(record)
            self._write(left)
