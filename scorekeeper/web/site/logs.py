"""The server's log stays readable and bounded whatever strangers send.

gunicorn writes a warning for every request it cannot parse ("Invalid request from ip=...:
..."), with what was sent in it: a client sending malformed requests in a loop grew the log
without bound. :class:`InvalidRequestLines` lets through the first few of each minute, cut
short, and then says how many it left out (``gunicorn.conf.py`` puts it on each worker's
error log).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

INVALID = "Invalid request from ip="
"""How gunicorn begins the line of a request it could not parse."""
EACH_MINUTE = 10
"""The most such lines a worker writes in a minute."""
LONGEST = 200
"""The most characters of such a line (the rest is what the stranger sent)."""


class InvalidRequestLines(logging.Filter):
    """A log filter: at most ``most`` lines about unparsable requests a ``window`` of
    seconds, each cut to ``LONGEST`` characters; the first line after a window that dropped
    some says how many. Every other line passes untouched."""

    def __init__(
        self,
        most: int = EACH_MINUTE,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.most, self.window, self.clock = most, window, clock
        self.started = clock()
        self.written = 0
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.startswith(INVALID):
            return True
        now = self.clock()
        if now - self.started >= self.window:
            self.started, self.written = now, 0
        if self.written >= self.most:
            self.dropped += 1
            return False
        self.written += 1
        if len(message) > LONGEST:
            message = message[:LONGEST] + "…"
        if self.dropped:
            message += f" ({self.dropped} more invalid requests were not logged before this one)"
            self.dropped = 0
        record.msg, record.args = message, ()
        return True
