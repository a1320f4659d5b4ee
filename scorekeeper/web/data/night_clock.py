"""The clock of the club night round a game is played in, if it is: when the round's time is
up and what the night does then (docs/rules.md 8f, docs/nights.md).

A game is a night's only as a table's first game or one of that match's rematches, and every
such game is a club's: a game outside a club costs no statement here, a club's game one
(the table by its indexed ``game_id``, the match's earlier games among the club's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import BindParameter, Integer, Select, bindparam, case, or_, select

from scorekeeper.rules.events import TIME_RULES, TimeRule
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.data.night_models import NightRoundRow, NightRow, NightTableRow


@dataclass(frozen=True)
class RoundClock:
    """A started round's clock as a game of one of its tables sees it."""

    round_number: int
    ends_at: datetime
    """When the round's time is up (UTC, aware)."""
    at_limit: TimeRule
    table_number: int

    def seconds_left(self, moment: datetime | None = None) -> int:
        """Whole seconds until the limit (rounded up, so 0 only once it is reached)."""
        moment = moment or datetime.now(UTC)
        left = (self.ends_at - moment).total_seconds()
        return max(0, int(-(-left // 1)))

    def is_up(self, moment: datetime | None = None) -> bool:
        """Whether the round's time is up at ``moment`` (now if not given)."""
        return (moment or datetime.now(UTC)) >= self.ends_at


def _clock_query() -> Select[Any]:
    """The round of the table whose match ``game`` (of club ``club``) is in: as its first
    game, or one or two rematches on (``back``). Built once: a statement built for each call
    cost more than the database took to answer it."""
    game: BindParameter[int] = bindparam("game", type_=Integer)
    club: BindParameter[int] = bindparam("club", type_=Integer)
    games, tables = GameRow.__table__, NightTableRow.__table__
    rounds, nights = NightRoundRow.__table__, NightRow.__table__
    one, two = games.alias("one_back"), games.alias("two_back")
    one_back = select(one.c.id).where(one.c.club_id == club, one.c.rematch_id == game)
    two_back = select(two.c.id).where(two.c.club_id == club, two.c.rematch_id.in_(one_back))
    back = case((tables.c.game_id == game, 0), (tables.c.game_id.in_(one_back), 1), else_=2)
    return (
        select(
            rounds.c.number,
            rounds.c.started_at,
            nights.c.minutes,
            nights.c.at_limit,
            nights.c.match,
            tables.c.number,
            tables.c.ended_at,
            back,
        )
        .select_from(
            tables.join(rounds, tables.c.round_id == rounds.c.id).join(
                nights, rounds.c.night_id == nights.c.id
            )
        )
        .where(
            or_(
                tables.c.game_id == game,
                tables.c.game_id.in_(one_back),
                tables.c.game_id.in_(two_back),
            )
        )
        .limit(1)
    )


_CLOCK = _clock_query()


def clock_of(row: GameRow) -> RoundClock | None:
    """The clock of the started round whose table plays ``row``, or None: a game outside a
    night, of a round not started, of a table the director ended, or a rematch past the
    match's games."""
    if row.club_id is None:
        return None
    found = db.session.execute(_CLOCK, {"game": row.id, "club": row.club_id}).first()
    if found is None:
        return None
    number, started, minutes, at_limit, match, table, ended, back = found
    if started is None or ended is not None or back >= (3 if match == "best-of-3" else 1):
        return None
    rule = cast(TimeRule, at_limit if at_limit in TIME_RULES else "finish-hand")
    ends = started.replace(tzinfo=UTC) + timedelta(minutes=minutes)
    return RoundClock(number, ends, rule, table)
