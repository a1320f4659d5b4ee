"""How the table answers an entry: the table again, with what happened.

Every entry view reads its form, lets the store apply it under a lock (the referee decides),
and answers with the table: the partial for htmx, otherwise a redirect after a success and
the full page for a refusal (422), a stale page (409) or an incomplete form (400).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from flask import abort, flash, get_flashed_messages, redirect, render_template, url_for

from scorekeeper.rules import Event, Refusal
from scorekeeper.rules.messages import Message
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import NO_GAME, load_or_404
from scorekeeper.web.data.games import NotFound, Stale
from scorekeeper.web.data.loaded import EDIT, Loaded
from scorekeeper.web.htmx import Answer, is_htmx, page_or_fragment
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.table.view import Refused, TableView, Where, table_view

STALE = _l("The table had changed: nothing was entered. This is the table as it is now.")
ENTERED = "entered"
"""The flash category that tells the page after a redirect that it follows a stored entry."""
INCOMPLETE = _l("The form was incomplete or out of date: nothing was entered.")
STALE_REDO = _l(
    "Nothing was redone: an entry was made after the undo, so the undone entry cannot be "
    "brought back (it stays in the log). This is the table as it is now."
)


def why_text(error: Exception) -> str:
    """Why, as an exception says it, in the reader's language (its ``said`` message when it
    has one, else its message)."""
    message = getattr(error, "said", None)
    if isinstance(message, Message):
        return languages.said(message)
    return languages.said(error.args[0]) if error.args else str(error)


def load_table(key: str) -> Loaded:
    """The game behind its edit link ``key`` (a 404 for any other key)."""
    return load_or_404(key, EDIT)


def render_table(view: TableView, status: int = 200) -> tuple[str, int]:
    """The table: the partial for htmx, the whole page otherwise."""
    if view.notice is None:
        # With categories Flask gives (category, message) pairs; its annotation is the union
        # of both forms, so say which one this is.
        flashed = cast(list[tuple[str, str]], get_flashed_messages(with_categories=True))
        texts = [text for category, text in flashed if category != ENTERED]
        view.notice = " ".join(texts) if texts else None
        view.entered = view.entered or len(texts) < len(flashed)
    template = page_or_fragment("game.html", "_table.html")
    return render_template(template, t=view), status


def done(loaded: Loaded, notice: str | None = None, entered: bool = False) -> Answer:
    """After a stored entry: the new table for htmx; otherwise redirect to it (POST-redirect-GET).

    After an ``entered`` entry (one more event, not an undo) the page flashes what it scored,
    and the redirect scrolls to the settlement or the winner it made.
    """
    view = table_view(loaded, notice=notice, entered=entered)
    if is_htmx():
        return render_table(view)
    if notice:
        flash(notice)
    anchor = None
    if entered:
        flash("", ENTERED)
        # A hand's settlement and its form are on the hand's own screen, in view: only the
        # winner's banner, on a page that flows, is worth a jump.
        anchor = "winner" if view.bring_into_view == "winner" else None
    return redirect(url_for("games.table", key=loaded.row.edit_key, _anchor=anchor), code=303)


def commit(
    loaded: Loaded, version: int, events: Sequence[Event], where: Where, **keep: object
) -> Answer:
    """Store ``events`` in the game ``loaded`` (just read) at ``version``; answer the stale
    page, the refusal or the success. A refusal is found before anything is written, so the
    game it is shown on is ``loaded`` itself when that is the version the page saw."""
    key = loaded.row.edit_key
    try:
        after = games.append(key, version, events, loaded)
    except NotFound:
        abort(404, description=NO_GAME)
    except Stale:
        return render_table(table_view(load_table(key), notice=STALE, notice_kind="stale"), 409)
    except Refusal as refusal:
        return refuse(
            loaded if loaded.version == version else load_table(key), refusal, where, **keep
        )
    return done(after, entered=True)


def incomplete(loaded: Loaded) -> tuple[str, int]:
    """The table again after a form that was incomplete or out of date: nothing entered."""
    return render_table(table_view(loaded, notice=INCOMPLETE, notice_kind="stale"), 400)


def refuse(loaded: Loaded, refusal: Refusal, where: Where, **keep: object) -> tuple[str, int]:
    """The table with the referee's refusal shown at ``where``, the form's values ``keep``."""
    return render_table(
        table_view(loaded, refused=Refused(refusal.rule, refusal.said, where), **keep), 422
    )


def stale_or_none(loaded: Loaded, version: int) -> tuple[str, int] | None:
    """The table as it is now if the page saw another ``version`` of it, else None."""
    if version != loaded.version:
        return render_table(table_view(loaded, notice=STALE, notice_kind="stale"), 409)
    return None
