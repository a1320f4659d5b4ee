"""Deleting an unfinished game, with a confirmation, and undoing it for a while.

Only the edit link may delete, after a confirmation page (a plain form: no JavaScript
needed). A deleted game answers 404 behind both links at once; its row and events stay for
``DELETE_UNDO_MINUTES`` (10 by default), during which My games on the browser that knows its
edit link offers Undo. Games deleted longer ago are purged with every deletion (and by
``flask --app app purge-deleted``). A finished game is the record of a result and is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import click
from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.cli import with_appcontext
from werkzeug.wrappers import Response

from scorekeeper.rules.messages import say, say_list
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import NO_GAME, load_or_404, remember, remembered
from scorekeeper.web.data.games import CannotDelete, NotFound
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.data.models import GameRow, now
from scorekeeper.web.htmx import render_error
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.view import table_view

bp = Blueprint("deleting", __name__)

UNDO_MINUTES = 10
"""How long a deletion can be undone, unless DELETE_UNDO_MINUTES says otherwise."""


def undo_window() -> timedelta:
    """How long after its deletion a game can still be restored."""
    return timedelta(minutes=float(current_app.config.get("DELETE_UNDO_MINUTES", UNDO_MINUTES)))


def _minutes() -> int:
    return round(undo_window().total_seconds() / 60)


@dataclass(frozen=True)
class Deleted:
    """A game this browser deleted that can still be restored, and until when."""

    row: GameRow
    until: datetime


def recently_deleted() -> list[Deleted]:
    """The games deleted by their edit link on this browser that can still be restored."""
    since = now() - undo_window()
    rows = games.deleted_since(remembered(), since)
    return [Deleted(row, row.deleted_at + undo_window()) for row in rows if row.deleted_at]


def _back(key: str) -> str:
    """Where "Keep it" goes: My games when the page was opened from there, else the game."""
    if request.args.get("back") == "index":
        return url_for("games.index")
    return url_for("games.table", key=key)


@bp.get("/games/<key:key>/delete")
def confirm(key: str) -> tuple[str, int]:
    """Ask before deleting: what the game is, what deleting does, and how long undo lasts."""
    loaded = load_or_404(key, EDIT)
    finished = loaded.game.phase == "over"
    page = render_template(
        "delete_game.html",
        t=table_view(loaded),
        row=loaded.row,
        back=_back(key),
        back_to_index=request.args.get("back") == "index",
        minutes=_minutes(),
        finished=finished,
    )
    return page, 409 if finished else 200


@bp.post("/games/<key:key>/delete")
@route(changes_game=True)
def delete(key: str) -> Response | tuple[str, int]:
    """Delete the game (it can be restored for a while), then show My games with Undo."""
    try:
        row = games.delete(key)
    except NotFound:
        abort(404, description=NO_GAME)
    except CannotDelete:
        return confirm(key)[0], 409
    games.purge(now() - undo_window())
    flash(
        languages.said(
            say(
                "Deleted: %(players)s. Undo it below within %(minutes)s minutes; "
                "after that it is gone for good.",
                players=say_list(list(row.players)),
                minutes=_minutes(),
            )
        )
    )
    return redirect(url_for("games.index"), code=303)


@bp.post("/games/<key:key>/restore")
@route(changes_game=True)
def restore(key: str) -> Response | tuple[str, int, dict[str, str]]:
    """Undo a deletion made less than the undo window ago; then My games lists it again."""
    try:
        row = games.restore(key, now() - undo_window())
    except NotFound:
        too_late = _(
            "This game can no longer be restored: it was deleted more than %(minutes)s "
            "minutes ago and is gone for good.",
            minutes=_minutes(),
        )
        return render_error(404, too_late)
    remember(row, EDIT)
    flash(
        languages.said(
            say(
                "Restored: %(players)s. Both its links work again.",
                players=say_list(list(row.players)),
            )
        )
    )
    return redirect(url_for("games.index"), code=303)


@click.command("purge-deleted")
@with_appcontext
def purge_command() -> None:
    """Remove for good the games deleted longer ago than the undo window, with their events."""
    count = games.purge(now() - undo_window())
    click.echo(f"Purged {count} deleted game{'' if count == 1 else 's'}.")


def init_app(app: Flask) -> None:
    """Register the pages and the purge command."""
    app.register_blueprint(bp)
    app.cli.add_command(purge_command)
