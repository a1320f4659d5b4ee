"""How the table answers an entry: the table again, with what happened.

Every entry view reads its form and lets the store write the change on the version the page
saw (the referee decides); :func:`written` says why a change wrote nothing, the same way for
every entry form, and the view answers with the table: the partial for htmx, otherwise a
redirect after a success and the full page for a refusal (422), a stale page (409) or an
incomplete form (400). A game gone meanwhile is a 404, as any link to no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from flask import abort, flash, get_flashed_messages, redirect, render_template, url_for

from scorekeeper.rules import Event, Refusal
from scorekeeper.rules.entering import CannotTurn
from scorekeeper.rules.messages import Message
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import NO_GAME, load_or_404
from scorekeeper.web.data.games import NotFound, NothingToRedo, Stale, TimeRefused
from scorekeeper.web.data.loaded import EDIT, Loaded
from scorekeeper.web.drawing.fragments import answer_with_parts
from scorekeeper.web.htmx import Answer, is_htmx, page_or_fragment
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.table.controls import NoticeKind, Refused, Where
from scorekeeper.web.table.view import TableView, table_view

STALE = _l("The table had changed: nothing was entered. This is the table as it is now.")
ENTERED = "entered"
"""The flash category that tells the page after a redirect that it follows a stored entry."""
INCOMPLETE = _l("The form was incomplete or out of date: nothing was entered.")
TIME_CALLED = _l("The round's time is up: time was called in this game before that entry.")
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
    if is_htmx():
        # What the page holds unchanged stays on it (fragments.part): the rest is sent.
        answer_with_parts()
        return render_table(table_view(loaded, notice=notice, entered=entered))
    if notice:
        flash(notice)
    anchor = None
    if entered:
        flash("", ENTERED)
        # A hand's settlement and its form are on the hand's own screen, in view: only the
        # winner's banner, on a page that flows, is worth a jump. (The table itself is not
        # built for a redirect: it would read what a redo brings back, for nothing.)
        anchor = "winner" if loaded.game.phase == "over" else None
    return redirect(url_for("games.table", key=loaded.row.edit_key, _anchor=anchor), code=303)


T = TypeVar("T")


@dataclass(frozen=True)
class Unwritten:
    """Why a change wrote nothing, as every entry form answers it: the game to show it on (as
    it is now), the status, and a notice (of ``notice_kind``) or the referee's refusal."""

    loaded: Loaded
    status: int
    notice: str | None = None
    notice_kind: NoticeKind = "info"
    refusal: Refusal | None = None


def stale(now: Loaded, redo: bool = False) -> Unwritten:
    """A page that saw another version of the game: the game as it is ``now``, 409. A redo
    says why when an entry made since the undo is what moved the game on."""
    notice = STALE_REDO if redo and not now.row.redoable else STALE
    return Unwritten(now, 409, str(notice), "stale")


def written(
    loaded: Loaded, version: int, change: Callable[[], T], redo: bool = False
) -> T | Unwritten:
    """What ``change()`` gives (the store's write of a change to the game ``loaded``, just read,
    on ``version``, the version the page saw), or why it wrote nothing:

    - the game is gone (deleted meanwhile): 404, as for any link to no game;
    - stale (the page saw another version, or another change was written first): 409 with
      the game as it is now, ``loaded`` when that is newer than the page, else read again;
    - nothing to redo: 409, saying why;
    - the lead cannot be turned, the call cannot be changed: 422, saying why;
    - refused by the referee: 422, shown on the game the page saw (the referee refuses
      before anything is written, so that is ``loaded`` when it is at ``version``);
    - refused once a club night's time was called in front of it: 422, shown on the game
      with its time entry (written: the round's time is up whatever the table entered).
    """
    try:
        return change()
    except NotFound:
        abort(404, description=NO_GAME)
    except Stale:
        return stale(loaded if loaded.version > version else load_table(loaded.row.edit_key), redo)
    except NothingToRedo as why:
        return Unwritten(loaded, 409, why_text(why), "stale")
    except CannotTurn as why:
        notice = _("%(why)s Nothing was changed.", why=why_text(why))
        return Unwritten(loaded, 422, notice, "refused")
    except TimeRefused as why:
        return Unwritten(why.loaded, 422, str(TIME_CALLED), "info", why.refusal)
    except Refusal as refusal:
        shown = loaded if loaded.version == version else load_table(loaded.row.edit_key)
        return Unwritten(shown, 422, refusal=refusal)


def unwritten(why: Unwritten, where: Where, **keep: object) -> tuple[str, int]:
    """The table again, saying why nothing was written: a refusal at ``where`` with the
    form's values ``keep``, or the notice."""
    if why.refusal is not None:
        if why.notice is not None:  # time called in front of the refused entry, and kept
            keep = {**keep, "notice": why.notice, "notice_kind": why.notice_kind}
        return refuse(why.loaded, why.refusal, where, **keep)
    view = table_view(why.loaded, notice=why.notice, notice_kind=why.notice_kind)
    return render_table(view, why.status)


def commit(
    loaded: Loaded, version: int, events: Sequence[Event], where: Where, **keep: object
) -> Answer:
    """Store ``events`` in the game ``loaded`` (just read) at ``version``; answer the stale
    page, the refusal or the success."""
    key = loaded.row.edit_key
    after = written(loaded, version, lambda: games.append(key, version, events, loaded))
    if isinstance(after, Unwritten):
        return unwritten(after, where, **keep)
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
        return unwritten(stale(loaded), "actions")
    return None
