"""What the director chooses once for a whole night (docs/nights.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

TableSize = Literal[2, 3, 4]
TABLE_SIZES: tuple[TableSize, ...] = get_args(TableSize)
"""Players per table: 2 (paired Swiss), 3 (each for themselves), 4 (two partnerships)."""
Match = Literal["one-game", "best-of-3"]
MATCHES: tuple[Match, ...] = get_args(Match)
"""A table's match: one game, or the best 2 of 3 (the rematches of the table's first game)."""
AtLimit = Literal["finish-hand", "to-target"]
AT_LIMITS: tuple[AtLimit, ...] = get_args(AtLimit)
"""At the round's time limit: finish the hand being played and the higher side wins, or play
on to the target (stored with the night; the referee's time entry applies it: rooms/time.py)."""
TieBreak = Literal["difference", "total", "head-to-head"]
TIE_BREAKS: tuple[TieBreak, ...] = get_args(TieBreak)
"""After match points: points for minus points against, total points, the matches between the
tied players."""

MOST_ROUNDS = 20
MOST_MINUTES = 240
MOST_PLAYERS = 120
"""The most players a night seats (30 tables of four)."""


@dataclass(frozen=True)
class NightFormat:
    """A night's format: every table of every round plays by it."""

    table_size: TableSize
    rounds: int
    minutes: int
    match: Match
    at_limit: AtLimit
    tie_breaks: tuple[TieBreak, ...]

    @property
    def partners(self) -> bool:
        """Whether the tables of four play in partnership (they do in a night of fours)."""
        return self.table_size == 4

    @property
    def games_per_match(self) -> int:
        """The most games a table's match can take."""
        return 3 if self.match == "best-of-3" else 1
