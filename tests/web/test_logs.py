"""The server's log is bounded whatever strangers send: gunicorn's line for each request it
cannot parse passes a few times a minute, cut short, then says how many it left out."""

from __future__ import annotations

import logging

from scorekeeper.web.site.logs import InvalidRequestLines


def _line(text: str) -> logging.LogRecord:
    return logging.LogRecord("gunicorn.error", logging.WARNING, __file__, 1, text, (), None)


def test_a_flood_of_invalid_requests_writes_a_few_lines_a_minute() -> None:
    now = [0.0]
    lines = InvalidRequestLines(most=3, window=60, clock=lambda: now[0])
    flood = [_line("Invalid request from ip=203.0.113.9: " + "x" * 5000) for _ in range(1000)]
    kept = [record for record in flood if lines.filter(record)]
    assert len(kept) == 3
    assert all(len(record.getMessage()) <= 201 for record in kept)
    now[0] = 61.0
    later = _line("Invalid request from ip=203.0.113.9: Invalid HTTP method")
    assert lines.filter(later)
    assert "997 more invalid requests were not logged" in later.getMessage()
    other = _line("Worker exiting (pid: 12)")
    assert all(lines.filter(other) for _ in range(100)), "other lines are never held back"
