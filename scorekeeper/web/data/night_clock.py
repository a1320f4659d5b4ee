"""The clock of the club night round a game is played in, if it is: when the round's time is
up and what the night does then (docs/rules.md 8f, docs/nights.md).

A game is a night's only as a table's first game or one of that match's rematches, and every
such game is a club's: a game outside a club costs no statement here, a club's game one
(the table by its indexed ``game_id``, the match's earlier games among the club's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import case, or_, select
from sqlalchemy.orm import aliased

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


def clock_of(row: GameRow) -> RoundClock | None:
    """The clock of the started round whose table plays ``row``, or None: a game outside a
    night, of a round not started, of a table the director ended, or a rematch past the
    match's games."""
    if row.club_id is None:
        return None
    earlier = aliased(GameRow)
    earliest = aliased(GameRow)
    one_back = select(earlier.id).where(
        earlier.club_id == row.club_id, earlier.rematch_id == row.id
    )
    two_back = select(earliest.id).where(
        earliest.club_id == row.club_id, earliest.rematch_id.in_(one_back)
    )
    depth = case(
        (NightTableRow.game_id == row.id, 0),
        (NightTableRow.game_id.in_(one_back), 1),
        else_=2,
    )
    found = db.session.execute(
        select(
            NightRoundRow.number,
            NightRoundRow.started_at,
            NightRow.minutes,
            NightRow.at_limit,
            NightRow.match,
            NightTableRow.number,
            NightTableRow.ended_at,
            depth,
        )
        .join(NightRoundRow, NightTableRow.round_id == NightRoundRow.id)
        .join(NightRow, NightRoundRow.night_id == NightRow.id)
        .where(
            or_(
                NightTableRow.game_id == row.id,
                NightTableRow.game_id.in_(one_back),
                NightTableRow.game_id.in_(two_back),
            )
        )
        .limit(1)
    ).first()
    if found is None:
        return None
    number, started, minutes, at_limit, match, table, ended, back = found
    if started is None or ended is not None or back >= (3 if match == "best-of-3" else 1):
        return None
    rule = cast(TimeRule, at_limit if at_limit in TIME_RULES else "finish-hand")
    ends = started.replace(tzinfo=UTC) + timedelta(minutes=minutes)
    return RoundClock(number, ends, rule, table)
