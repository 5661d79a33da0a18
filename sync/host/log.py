"""The host's log (``tischblock.host``): one German line per event, never a token or a password."""

from __future__ import annotations

import logging
import re

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
