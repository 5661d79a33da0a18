"""The host's log lines are written by one thread of their own (``sync/host/log.py``: ``LineWriter``):
every line arrives, in order per thread, also after uvicorn's logging set-up, and ``stop`` writes
what waits."""

from __future__ import annotations

import io
import logging
import threading

import pytest
from uvicorn.config import LOGGING_CONFIG

from sync.host.log import LineWriter


@pytest.fixture
def writer() -> tuple[logging.Logger, LineWriter, io.StringIO]:
    stream = io.StringIO()
    lines = LineWriter(stream)
    lines.setFormatter(logging.Formatter("%(threadName)s %(message)s"))
    logger = logging.getLogger("tischblock.test-line-writer")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(lines)
    yield logger, lines, stream
    logger.removeHandler(lines)
    lines.stop()


def test_every_line_of_many_threads_is_written_in_each_threads_order(
    writer: tuple[logging.Logger, LineWriter, io.StringIO],
) -> None:
    logger, lines, stream = writer
    threads = [
        threading.Thread(target=lambda: [logger.info("Zeile %d", n) for n in range(500)], name=f"blatt-{t}") for t in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines.stop()
    written = stream.getvalue().splitlines()
    assert len(written) == 8 * 500
    for t in range(8):
        mine = [line.split(" ", 1)[1] for line in written if line.startswith(f"blatt-{t} ")]
        assert mine == [f"Zeile {n}" for n in range(500)]


def test_uvicorns_logging_set_up_does_not_silence_it(writer: tuple[logging.Logger, LineWriter, io.StringIO]) -> None:
    """uvicorn runs ``logging.config.dictConfig`` at its start, which closes every handler there is
    (``logging.shutdown`` over them: flush, close): the writer's thread must go on writing after that
    (it stopped once, and the host logged nothing; ``test_host_checking`` sees it in the real host)."""
    logger, lines, stream = writer
    assert "disable_existing_loggers" in LOGGING_CONFIG  # uvicorn's set-up is a dictConfig
    logging.shutdown([lambda: lines])
    logger.info("Tisch 3, Durchgang 1: 24 Spiele")
    lines.stop()
    assert stream.getvalue().endswith("Tisch 3, Durchgang 1: 24 Spiele\n")


def test_a_line_that_cannot_be_formatted_costs_only_itself(
    writer: tuple[logging.Logger, LineWriter, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    logger, lines, stream = writer
    monkeypatch.setattr(logging, "raiseExceptions", False)  # logging's own report of the bad record
    logger.info("vorher")
    logger.info("%d Spiele", "keine Zahl")
    logger.info("nachher")
    lines.stop()
    assert [line.split(" ", 1)[1] for line in stream.getvalue().splitlines()] == ["vorher", "nachher"]


def test_stop_writes_what_waits_and_later_lines_at_once(writer: tuple[logging.Logger, LineWriter, io.StringIO]) -> None:
    """The host's end stops the writer before the interpreter ends; a line logged after that (a check
    process's start reported late, the shutdown's own lines) is not lost."""
    logger, lines, stream = writer
    for n in range(100):
        logger.info("vorher %d", n)
    lines.stop()
    assert len(stream.getvalue().splitlines()) == 100
    logger.info("danach")
    assert stream.getvalue().splitlines()[-1].endswith(" danach")
    lines.stop()  # again: nothing to do
