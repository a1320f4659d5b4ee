"""Answering htmx and plain browsers alike: one page or its fragment, and the error answer.

A page and the fragment htmx asks for are made from the same partial (the page includes it),
so every view answers both; this module says which one a request wants, and tells caches
that the answer differs by it (``Vary: HX-Request``). An error is a whole page for a browser
and, for htmx, a fragment retargeted into the page's alert area.
"""

from __future__ import annotations

from flask import Flask, render_template, request
from flask.globals import request_ctx
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l

Answer = tuple[str, int] | BaseResponse
"""What a view answers: a rendered page or fragment with its status, or a response (a
redirect, a download)."""
ErrorAnswer = tuple[str, int, dict[str, str]]
"""An error page or fragment, its status and its headers."""

TITLES = {
    400: _l("Bad request"),
    403: _l("Refused"),
    404: _l("Not found"),
    405: _l("Not allowed"),
    409: _l("The table had changed"),
    413: _l("Too large"),
    422: _l("Refused"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
    503: _l("Busy: try again"),
}
"""The title of each error page, by status."""


def is_htmx() -> bool:
    """Whether htmx sent the request (and wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true"


def page_or_fragment(page: str, fragment: str) -> str:
    """The template to render: ``fragment`` for htmx, the whole ``page`` otherwise."""
    return fragment if is_htmx() else page


def render_error(code: int, explanation: object) -> ErrorAnswer:
    """The error page for ``code``, or for htmx a fragment shown in the page's alert area.

    ``explanation`` is said in the reader's language: a translated text, or a lazy one.
    """
    title = str(TITLES[code]) if code in TITLES else _("Error")
    explanation = str(explanation)
    if request_ctx.url_adapter is None:
        # The request could not be routed at all (a malformed or untrusted Host header), so
        # no link can be built: plain text rather than a page whose links would fail.
        text = f"{title} ({code})\n\n{explanation}\n"
        return text, code, {"Content-Type": "text/plain; charset=utf-8"}
    if is_htmx():
        headers = {"HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"}
        return (
            render_template("_error.html", code=code, title=title, explanation=explanation),
            code,
            headers,
        )
    return render_template("error.html", code=code, title=title, explanation=explanation), code, {}


def _vary(response: BaseResponse) -> BaseResponse:
    """Pages and fragments differ by HX-Request: say so to caches."""
    response.vary.add("HX-Request")
    return response


def init_app(app: Flask) -> None:
    """Say ``Vary: HX-Request`` on every response."""
    app.after_request(_vary)
