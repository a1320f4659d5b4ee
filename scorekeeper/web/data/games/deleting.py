"""Deleting a game, for a while: it is found behind neither key until it is restored, and
purged for good once the while is over."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete as sql_delete
from sqlalchemy import select

from scorekeeper.rules.messages import say
from scorekeeper.web.data import changes
from scorekeeper.web.data.database import db
from scorekeeper.web.data.games.reading import NotFound, current
from scorekeeper.web.data.games.writing import all_or_nothing, begin_write, lock_game, locked
from scorekeeper.web.data.models import EventRow, GameRow
from scorekeeper.web.data.models import now as _now


class CannotDelete(Exception):
    """The game may not be deleted (it is finished); the message says why in plain words."""


def delete(edit_key: str) -> GameRow:
    """Delete an unfinished game: it is found behind neither key from now on, until restored.

    Its row and events stay until :func:`purge` removes them, so that the deletion can be
    undone for a while. A finished game is kept (CannotDelete): it is the record of a result.
    """
    row = lock_game(edit_key)
    with all_or_nothing():
        game = current(row).game
        if game.phase == "over":
            raise CannotDelete(
                say(
                    "A finished game cannot be deleted: it is the record of who won. "
                    "Forget it on this browser instead."
                )
            )
        row.deleted_at = _now()
        row.version = (row.version or 0) + 1
    changes.changed(row.id, changes.GONE)
    return row


def restore(edit_key: str, since: datetime) -> GameRow:
    """Undo the deletion of the game with ``edit_key`` if it was deleted at ``since`` or later.

    NotFound when there is no such deleted game, or it was deleted before ``since``.
    """
    query = select(GameRow).where(
        GameRow.edit_key == edit_key,
        GameRow.deleted_at.is_not(None),
        GameRow.deleted_at >= since,
    )
    row = locked(query)
    if row is None:
        raise NotFound(edit_key)
    with all_or_nothing():
        row.deleted_at = None
        row.version = (row.version or 0) + 1
    return row


def deleted_since(edit_keys: Sequence[str], since: datetime) -> list[GameRow]:
    """The games with one of ``edit_keys`` deleted at ``since`` or later, the latest first."""
    if not edit_keys:
        return []
    query = select(GameRow).where(
        GameRow.edit_key.in_(list(edit_keys)), GameRow.deleted_at >= since
    )
    return list(db.session.scalars(query.order_by(GameRow.deleted_at.desc())).all())


def purge(before: datetime) -> int:
    """Remove for good the games deleted before ``before``, with their events; how many."""
    doomed = select(GameRow.id).where(GameRow.deleted_at < before)
    begin_write()
    with all_or_nothing():
        ids = list(db.session.scalars(doomed).all())
        if ids:
            db.session.execute(sql_delete(EventRow).where(EventRow.game_id.in_(ids)))
            db.session.execute(sql_delete(GameRow).where(GameRow.id.in_(ids)))
    return len(ids)
