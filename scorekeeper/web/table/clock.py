"""The round's clock on a club night table's play screen and watch page (docs/nights.md).

The page says the time left at render ("Round 2 · 12:34 left"); static/js/round-clock.js
counts it down each second from ``data-round-ends`` and says the notice once it is up.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import Game
from scorekeeper.web.data.loaded import Loaded
from scorekeeper.web.data.night_clock import RoundClock, clock_of
from scorekeeper.web.languages import gettext as _


@dataclass(frozen=True)
class ClockView:
    """What the table shows of its round's clock."""

    round_number: int
    ends_iso: str
    """When the round's time is up, ISO 8601 in UTC: ``data-round-ends``."""
    at_limit: str
    seconds_left: int

    @property
    def is_up(self) -> bool:
        return self.seconds_left <= 0

    @property
    def left(self) -> str:
        """The time left as a clock shows it: ``12:34`` (hours as minutes: ``95:00``)."""
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d}"

    @property
    def time_up(self) -> str:
        """What the table is told once the round's time is up, by the night's rule."""
        if self.at_limit == "to-target":
            return _("Time! Play on to the target")
        return _("Time! This hand is the last: the higher side wins")


def clock_view(loaded: Loaded) -> ClockView | None:
    """The round's clock for the game ``loaded``, or None: a game outside a night (no
    statement outside a club), or one whose round no longer applies to it."""
    clock = clock_of(loaded.row)
    return None if clock is None or not _shown(clock, loaded.game) else _view(clock)


def _shown(clock: RoundClock, game: Game) -> bool:
    """A finished game shows no clock, unless time ended it (the notice says why)."""
    return game.winner is None or game.won_at_time


def _view(clock: RoundClock) -> ClockView:
    return ClockView(
        clock.round_number,
        clock.ends_at.isoformat(),
        clock.at_limit,
        clock.seconds_left(),
    )
