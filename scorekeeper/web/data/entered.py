"""When entries were made: the time a game's live events were stored, for the pages that say
when (an adjustment on the log, the score sheet and the CSV).

The referee knows no times; the event table does (``EventRow.created_at``). A live event's
``seq`` is its place in the game's events, from 1, so the event at index ``i`` of
``game.events`` is the live row numbered ``i + 1``.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import select

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import EventRow, GameRow


def entry_times(row: GameRow, indices: Collection[int]) -> dict[int, datetime]:
    """When each of the game's live events at ``indices`` (from 0) was entered, by index; one
    query for them all, none without indices."""
    if not indices:
        return {}
    seqs = sorted({index + 1 for index in indices})
    query = select(EventRow.seq, EventRow.created_at).where(
        EventRow.game_id == row.id, EventRow.undone_at.is_(None), EventRow.seq.in_(seqs)
    )
    return {seq - 1: created for seq, created in db.session.execute(query).all()}
