"""A club's ratings, computed from its finished games (``rules.ratings``): which games count,
and when each ended.

A game ended when its last live entry was stored (the entry that won it), read from the
events; its facts (final scores, sides, winner) come from the cache of facts, itself kept
equal to the events. Nothing about the ratings is stored, so they follow every undo, rename,
merge and deletion at once.

The ratings of the last few clubs shown are kept in the process, keyed by everything they are
computed from (each counted game's players, sides, scores, winner and end, and the roster's
spellings): OpenSkill costs some 0.15 ms a game (bench/README.md), and a club page is viewed
far more often than its games change. A change of any game makes another key, so what is kept
is always what :func:`~scorekeeper.rules.ratings.rate` gives for the games as they are.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from functools import lru_cache

from sqlalchemy import func, select

from scorekeeper.rules.ratings import RatedGame, Ratings, rate
from scorekeeper.rules.stats import GameFacts
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow, EventRow, GameRow


def ended_at(rows: Sequence[GameRow]) -> dict[int, datetime]:
    """When each of ``rows`` had its last live entry stored, by game id."""
    if not rows:
        return {}
    query = (
        select(EventRow.game_id, func.max(EventRow.created_at))
        .where(EventRow.game_id.in_([row.id for row in rows]), EventRow.undone_at.is_(None))
        .group_by(EventRow.game_id)
    )
    return {game_id: when for game_id, when in db.session.execute(query)}


def rated_games(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    always: Collection[int] = (),
) -> list[RatedGame]:
    """The finished games among ``rows`` (with their ``facts``) that count toward the club's
    ratings: every one when the club says its ordinary games count, else only those of
    ``always`` (a night's games always count), keyed by game id."""
    counted = [
        row
        for row in rows
        if row.id in facts
        and facts[row.id].winner is not None
        and (club.rate_club_games or row.id in always)
    ]
    ended = ended_at(counted)
    games = []
    for row in sorted(counted, key=lambda row: (row.created_at, row.id)):
        game_facts = facts[row.id]
        when = ended.get(row.id) or row.updated_at
        games.append(
            RatedGame(
                key=row.id,
                players=tuple(row.players),
                side_of=game_facts.side_of,
                scores=game_facts.scores,
                winner=game_facts.winner,
                ended=when,
            )
        )
    return games


def club_ratings(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    roster: dict[str, str],
    always: Collection[int] = (),
) -> Ratings:
    """The club's ratings from its games ``rows`` and their ``facts`` (see :func:`rated_games`),
    players shown as the ``roster`` spells them."""
    return rated(tuple(rated_games(club, rows, facts, always)), tuple(sorted(roster.items())))


KEPT = 8
"""How many clubs' ratings a process keeps (a club of 2,000 games takes about a megabyte)."""


@lru_cache(maxsize=KEPT)
def rated(games: tuple[RatedGame, ...], roster: tuple[tuple[str, str], ...]) -> Ratings:
    """:func:`~scorekeeper.rules.ratings.rate` of ``games``, kept for the same games again."""
    return rate(games, dict(roster))
