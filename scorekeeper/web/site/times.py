"""Times in the reader's own time zone.

The server stores UTC and does not know where the reader is, so a page writes each time as
``<time datetime="...Z" data-local="...">`` with UTC text, and static/js/local-time.js
rewrites the text in the browser's time zone. Without JavaScript the UTC text stays; a time
of day says that it is UTC. A month is named in the reader's language ("22 November 2026",
"22 november 2026", "22 Nobyembre 2026").
"""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_date
from flask import Flask
from markupsafe import Markup, escape

from scorekeeper.web import languages

STYLES = {
    "datetime": "%Y-%m-%d %H:%M UTC",
    "date": "%Y-%m-%d",
    "time": "%H:%M UTC",
    "long-date": "d MMMM y",
}
"""How each kind of time reads before the browser rewrites it (and without JavaScript): a
``strftime`` format, or for a long date a Unicode (CLDR) date pattern, which names the month
in the reader's language."""


def utc_iso(moment: datetime) -> str:
    """A stored time (naive UTC, or aware) in ISO 8601 with a ``Z``: "2026-11-22T10:05:00Z"."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds") + "Z"


def local_time(moment: datetime, style: str = "datetime") -> Markup:
    """``<time>`` for ``moment``, in UTC until the browser writes it in its own time zone.

    ``style`` is one of :data:`STYLES`: "datetime" (2026-11-22 10:05), "date" (2026-11-22),
    "time" (10:05) or "long-date" (22 November 2026); a date alone is the day in the
    reader's zone too.
    """
    if style not in STYLES:
        raise ValueError(f"unknown time style {style!r}: one of {', '.join(STYLES)}")
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    if style == "long-date":
        text = format_date(moment.date(), STYLES[style], locale=languages.current())
    else:
        text = moment.strftime(STYLES[style])
    return Markup(
        f'<time datetime="{escape(utc_iso(moment))}" data-local="{escape(style)}">'
        f"{escape(text)}</time>"
    )


def init_app(app: Flask) -> None:
    """Offer ``local_time`` to every template."""
    app.add_template_global(local_time)
