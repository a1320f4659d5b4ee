"""Times in the reader's own time zone.

The server stores UTC and does not know where the reader is, so a page writes each time as
``<time datetime="...Z" data-local="...">`` with UTC text, and static/js/local-time.js
rewrites the text in the browser's time zone. Without JavaScript the UTC text stays; a time
of day says that it is UTC. Both write a date and a time as the reader's language does, by
the CLDR's formats (Babel here, the browser's ``Intl`` there): "25 November 2026, 15:05",
"25 nov. 2026 15:05", "Nobyembre 25, 2026" and "3:05 PM" in Filipino.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from babel.dates import format_date, format_time, get_datetime_format
from flask import Flask
from markupsafe import Markup, escape

from scorekeeper.web import languages

Format = Literal["long", "medium", "short"]

STYLES: dict[str, tuple[Format | None, Format | None]] = {
    "datetime": ("medium", "short"),
    "date": ("medium", None),
    "time": (None, "short"),
    "long-date": ("long", None),
}
"""Each kind of time as the CLDR's date and time formats (None: not written): "datetime"
25 Nov 2026, 15:05; "date" 25 Nov 2026; "time" 15:05; "long-date" 25 November 2026. The
same in static/js/local-time.js (``dateStyle``, ``timeStyle``)."""

LOCALES = {"en": "en_GB", "sv": "sv", "fil": "fil"}
"""The CLDR locale whose formats each language of the site writes its dates in: the site's
English is British English, day first and a 24-hour clock (local-time.js says the same)."""


def written(moment: datetime, style: str, language: str) -> str:
    """``moment`` (naive UTC) as ``language`` writes a ``style`` time, in UTC."""
    date_format, time_format = STYLES[style]
    locale = LOCALES.get(language, language)
    date = format_date(moment.date(), date_format, locale=locale) if date_format else ""
    time = format_time(moment.time(), time_format, locale=locale) if time_format else ""
    if date_format and time_format:
        # The locale's own way of joining a date and a time, as Babel's format_datetime does.
        joined = str(get_datetime_format(date_format, locale=locale)).replace("'", "")
        return joined.replace("{0}", time).replace("{1}", date) + " UTC"
    return f"{time} UTC" if time else date


def utc_iso(moment: datetime) -> str:
    """A stored time (naive UTC, or aware) in ISO 8601 with a ``Z``: "2026-11-22T10:05:00Z"."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds") + "Z"


def local_time(moment: datetime, style: str = "datetime") -> Markup:
    """``<time>`` for ``moment``, in UTC until the browser writes it in its own time zone.

    ``style`` is one of :data:`STYLES`: "datetime" (22 Nov 2026, 10:05), "date" (22 Nov
    2026), "time" (10:05) or "long-date" (22 November 2026), each as the reader's language
    writes it; a date alone is the day in the reader's zone too.
    """
    if style not in STYLES:
        raise ValueError(f"unknown time style {style!r}: one of {', '.join(STYLES)}")
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    text = written(moment, style, languages.current())
    return Markup(
        f'<time datetime="{escape(utc_iso(moment))}" data-local="{escape(style)}">'
        f"{escape(text)}</time>"
    )


def init_app(app: Flask) -> None:
    """Offer ``local_time`` to every template."""
    app.add_template_global(local_time)
