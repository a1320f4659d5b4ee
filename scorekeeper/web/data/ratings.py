"""A club's ratings, computed from its finished games (``rules.ratings``): which games count,
and when each ended.

A game ended when its last live entry was stored (the entry that won it), read from the
events; its facts (final scores, sides, winner) come from the cache of facts, itself kept
equal to the events. Nothing about the ratings is stored, so they follow every undo, rename,
merge and deletion at once.

The ratings of the last few clubs shown are kept in the process, keyed by what they are
computed from: the club (its secret key, unique in every database, so that two databases in
one process never share an entry), each counted game's id and version (which every change of
a game, an undo or a rename too, moves on) and the roster's spellings. OpenSkill and reading
when each game ended nearly double a club page's time (bench/README.md), while a club page is
viewed far more often than its games change. What is kept is always what
:func:`~scorekeeper.rules.ratings.rate` gives for the games as they are.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import func, select

from scorekeeper.rules.ratings import RatedGame, Ratings, rate
from scorekeeper.rules.stats import GameFacts
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow, EventRow, GameRow


def ended_at(rows: Sequence[GameRow]) -> dict[int, datetime]:
    """When each of ``rows`` had its last live entry stored, by game id.

    The last entry's number is read from the index of the live events (game, number) alone;
    only that one event's row is read for its time, not every event of every game."""
    if not rows:
        return {}
    live = EventRow.undone_at.is_(None)
    last = (
        select(EventRow.game_id, func.max(EventRow.seq).label("seq"))
        .where(EventRow.game_id.in_([row.id for row in rows]), live)
        .group_by(EventRow.game_id)
        .subquery()
    )
    query = select(EventRow.game_id, EventRow.created_at).join(
        last, (EventRow.game_id == last.c.game_id) & (EventRow.seq == last.c.seq) & live
    )
    return {game_id: when for game_id, when in db.session.execute(query)}


def counted_rows(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    always: Collection[int] = (),
) -> list[GameRow]:
    """The finished games among ``rows`` (with their ``facts``) that count toward the club's
    ratings: every one when the club says its ordinary games count, else only those of
    ``always`` (a night's games always count); in the order they began."""
    counted = [
        row
        for row in rows
        if row.id in facts
        and facts[row.id].winner is not None
        and (club.rate_club_games or row.id in always)
    ]
    return sorted(counted, key=lambda row: (row.created_at, row.id))


def rated_games(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    always: Collection[int] = (),
) -> list[RatedGame]:
    """The games that count toward the club's ratings (see :func:`counted_rows`) as the
    ratings read them, keyed by game id."""
    counted = counted_rows(club, rows, facts, always)
    ended = ended_at(counted)
    return [
        RatedGame(
            key=row.id,
            players=tuple(row.players),
            side_of=facts[row.id].side_of,
            scores=facts[row.id].scores,
            winner=facts[row.id].winner,
            ended=ended.get(row.id) or row.updated_at,
        )
        for row in counted
    ]


KEPT = 8
"""How many clubs' ratings a process keeps (a club of 2,000 games takes about a megabyte)."""
_kept: OrderedDict[object, Ratings] = OrderedDict()
_lock = threading.Lock()


def club_ratings(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    roster: dict[str, str],
    always: Collection[int] = (),
) -> Ratings:
    """The club's ratings from its games ``rows`` and their ``facts`` (see :func:`rated_games`),
    players shown as the ``roster`` spells them: kept from an earlier view while no counted
    game has changed."""
    counted = counted_rows(club, rows, facts, always)
    key = (
        club.edit_key,
        tuple((row.id, row.version or 0) for row in counted),
        tuple(sorted(roster.items())),
    )
    with _lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
            return kept
    ratings = rate(rated_games(club, counted, facts, always), roster)
    with _lock:
        _kept[key] = ratings
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return ratings
