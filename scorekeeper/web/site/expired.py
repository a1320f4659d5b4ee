"""Pages left open for hours keep working, with CSRF protection on every POST.

A form's CSRF token never expires by age (``WTF_CSRF_TIME_LIMIT = None``, set in
``create_app``): it is checked against a secret kept in the session, and the session cookie
lasts (``security.SessionCookies``). So a table page open since the first tile of a long game
still takes the next one, and a form from another site is still refused (it has no token,
and cannot read this site's).

A token can still be refused: the phone's cookies were cleared, the session ran out after a
year, or the server's secret key changed. Then nothing is stored and, instead of a dead end,
the page comes back with a fresh token and says what happened: the table (for an entry) or
the new-game form with what was typed in it. Other forms get the "expired" page.
"""

from __future__ import annotations

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError

from scorekeeper.web.data import games
from scorekeeper.web.data.doors import remember
from scorekeeper.web.data.games import NotFound
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.htmx import ErrorAnswer, is_htmx
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.routes import requested
from scorekeeper.web.site import errors
from scorekeeper.web.table import NewGameForm, render_table, table_view

EXPIRED_ENTRY = _l(
    "Nothing was entered: this page's security token was no longer accepted (the browser's "
    "cookies were cleared, or the page is very old). The table below is up to date and "
    "ready: make the entry again."
)
EXPIRED_FORM = _l(
    "The game was not started: this page's security token was no longer accepted (the "
    "browser's cookies were cleared, or the page is very old). Everything typed is still "
    "here: press Start the game again."
)


def _table_again(key: str) -> tuple[str, int] | None:
    try:
        loaded = games.load(key, EDIT)
    except NotFound:
        return None
    remember(loaded.row, EDIT)
    return render_table(table_view(loaded, notice=EXPIRED_ENTRY, notice_kind="stale"), 400)


def _new_game_again() -> tuple[str, int]:
    form = NewGameForm()
    template = "_new_game_form.html" if is_htmx() else "new_game.html"
    return render_template(template, form=form, expired=EXPIRED_FORM), 400


def recover(error: CSRFError) -> tuple[str, int] | ErrorAnswer:
    """A POST whose CSRF token was refused: the page again with a fresh token, or "expired"."""
    route, values = requested()
    key = values.get("key")
    if route.entry and isinstance(key, str):
        again = _table_again(key)
        if again is not None:
            return again
    if route.game_form:
        return _new_game_again()
    return errors.handle_csrf(error)


def init_app(app: Flask) -> None:
    """Answer a refused CSRF token with the page again, where that is possible."""
    app.register_error_handler(CSRFError, recover)
