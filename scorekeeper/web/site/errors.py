"""Error pages: every client error gets a clear page (or an htmx fragment); a 500 rolls back.

A database that is busy (SQLite's write lock still taken after the busy timeout) or cannot be
reached (PostgreSQL down) is answered 503 with ``Retry-After``: nothing was stored, and the
page keeps the entry to send again (htmx pages keep it in static/js/not-saved.js).
"""

from __future__ import annotations

import contextlib
import io
import logging
import sqlite3
import sys
from typing import Any

from flask import Flask, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from sqlalchemy import exc as sql_errors
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    NotFound,
    RequestEntityTooLarge,
)

from scorekeeper.web import languages
from scorekeeper.web.data.database import db
from scorekeeper.web.data.doors import NO_GAME, hides_key
from scorekeeper.web.data.loaded import WATCH
from scorekeeper.web.htmx import TITLES, ErrorAnswer, is_htmx, render_error
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.routes import requested
from scorekeeper.web.site.ratelimits import guessing_refused

EXPLANATIONS = {
    400: _l("The request could not be understood. Go back, reload the page and try again."),
    404: _l("There is no such page or game."),
    405: _l("This address does not accept that kind of request."),
    413: _l("What was sent is larger than %(size)s MB, the most this address accepts."),
    500: _l("The app failed to answer; nothing was stored. Reload the page and try again."),
    503: _l(
        "The database is busy or cannot be reached just now: nothing was stored. "
        "Send it again in a few seconds."
    ),
}
WERKZEUG = {
    403: _l(
        "You don't have the permission to access the requested resource. It is either "
        "read-protected or not readable by the server."
    ),
    415: _l("The server does not support the media type transmitted in the request."),
    416: _l("The server cannot provide the requested range."),
}
"""Werkzeug's own explanations of errors the app may meet without saying why itself (a
forbidden file, a body of a type no view reads, a range past a static file's end): the same
English, said in the reader's language."""
RETRY_AFTER_SECONDS = 2
"""How long a client is asked to wait before sending again after a 503."""
CSRF_EXPLANATION = _l(
    "This page has expired (its security token is missing or old). "
    "Reload the page and enter it again."
)


def handle_csrf(error: CSRFError) -> ErrorAnswer:
    """A POST without a valid CSRF token: the page expired (scorekeeper.web.site.expired registers it,
    after trying to give the table or the new-game form back with a fresh token)."""
    return render_error(400, CSRF_EXPLANATION)


def handle_http(error: HTTPException) -> ErrorAnswer | HTTPException:
    """Any HTTP error (404, 405, 413, ...): a page that says what happened."""
    code = error.code or 500
    if code < 400:
        return error
    if code == 405 and _hides_key():
        code = 404
        error = NotFound(NO_GAME)
    explanation: object = EXPLANATIONS.get(code) or error.description or ""
    if code in WERKZEUG and error.description == type(error).description:
        explanation = WERKZEUG[code]
    if code == 404 and error.description and error.description != type(error).description:
        # A page that says why it found nothing (no such club, no such night) keeps its words.
        explanation = error.description
    if code == 404:
        refused = guessing_refused()
        if refused is not None:
            return refused
    if code == 413:
        # Its own route's limit (a club's import takes more than a form), in MB.
        most = request.max_content_length or 0
        explanation = str(EXPLANATIONS[413]) % {"size": languages.number(round(most / 2**20))}
    rendered = render_error(code, explanation)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        rendered[2]["Allow"] = ", ".join(error.valid_methods)
    if code == 413:
        _read_no_further(rendered[2])
    return rendered


def _read_no_further(headers: dict[str, str]) -> None:
    """After a refused body: close the connection rather than read the rest of the body.

    A server that keeps the connection for a next request reads the unread body to its end
    first, all 300 MB of it; gunicorn's gevent worker read it without letting anything else
    of the worker run, until gunicorn killed the worker, every stream it held with it.
    ``Connection: close`` tells the development server (and the client); gunicorn answers
    for the connection itself, and closes it when it cannot tell where the body ends, which
    a body marked failed says.
    """
    headers["Connection"] = "close"
    body: object = request.environ.get("wsgi.input")
    if hasattr(body, "failed"):  # gunicorn's request body
        body.failed = True


def refuse_large_bodies() -> None:
    """Refuse a body larger than its route takes before anything reads it (413), even where
    no one would read it: its ``Content-Length`` says so. A body without one (chunked) is
    read here, up to the limit and no further (the 413 past it), and kept for the view: the
    servers hand it on as it comes, and nothing else would stop reading at the limit."""
    limit = request.max_content_length
    if limit is None:
        return
    length = request.content_length
    if length is not None:
        if length > limit:
            raise RequestEntityTooLarge()
    elif "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        received = _at_most(request.environ["wsgi.input"], limit)
        if len(received) > limit:
            raise RequestEntityTooLarge()
        # What the views read instead: the body, whole, and its length.
        request.environ["wsgi.input"] = io.BytesIO(received)
        request.environ["CONTENT_LENGTH"] = str(len(received))


def _at_most(stream: Any, limit: int) -> bytes:
    """What ``stream`` holds, read up to one byte past ``limit`` (enough to know it is over)."""
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        part = stream.read(min(2**16, limit + 1 - total))
        if not part:
            break
        parts.append(part)
        total += len(part)
    return b"".join(parts)


def _hides_key() -> bool:
    """Whether a wrong method must look like a missing game: at a watch link always, at an edit
    link unless its game or club exists (only a real edit link may answer 405)."""
    route, values = requested()
    key = values.get("key")
    if not isinstance(key, str):
        return False
    return hides_key(key, watch=route.watch or values.get("door") == WATCH)


def _roll_back() -> None:
    """Undo any half-done database work; when the database is gone, forget the connection."""
    try:
        db.session.rollback()
    except Exception:  # the database that failed the request may fail the rollback too
        logging.getLogger(__name__).warning("rollback failed", exc_info=True)
        with contextlib.suppress(Exception):
            # The scoped session does not pass invalidate() on: ask the request's own Session.
            db.session().invalidate()


def handle_500(error: InternalServerError) -> ErrorAnswer:
    """An unexpected failure: undo any half-done database work and say so."""
    _roll_back()
    return render_error(500, EXPLANATIONS[500])


def handle_unavailable(error: Exception) -> ErrorAnswer:
    """The database is busy or down: 503 with Retry-After, and the entry kept to send again.

    A POST without htmx gets a page whose form sends the same fields again (its CSRF token
    included); htmx gets the message in the alerts, and not-saved.js offers "Send again".
    """
    logging.getLogger(__name__).warning("database unavailable: %s", error)
    _roll_back()
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request_ctx.url_adapter is None or is_htmx():
        body, code, headers = render_error(503, EXPLANATIONS[503])
        return body, code, {**headers, **retry}
    kept: list[tuple[str, str]] = []
    if request.method == "POST":
        kept = [(name, value) for name, values in request.form.lists() for value in values]
    page = render_template(
        "unavailable.html",
        code=503,
        title=str(TITLES[503]),
        explanation=str(EXPLANATIONS[503]),
        kept=kept,
        files=bool(request.method == "POST" and request.files),
    )
    return page, 503, retry


UNAVAILABLE: tuple[type[Exception], ...] = (
    sql_errors.OperationalError,
    sql_errors.TimeoutError,
    sqlite3.OperationalError,
)
"""What a busy or unreachable database raises (the ORM's wrappers and SQLite's own)."""


def init_app(app: Flask) -> None:
    """Register the error handlers."""
    kinds = list(UNAVAILABLE)
    psycopg = sys.modules.get("psycopg")  # imported by the engine when it is PostgreSQL's
    if psycopg is not None:
        kinds.append(psycopg.OperationalError)
    for kind in kinds:
        app.register_error_handler(kind, handle_unavailable)
    app.register_error_handler(InternalServerError, handle_500)
    app.register_error_handler(HTTPException, handle_http)
    # First of all the checks before the views: the form token's reads the body.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_large_bodies)
