"""The round's clock on a club night table's play screen and watch page (docs/nights.md).

The page says the time left at render ("Round 2 · 12:34 left"); static/js/round-clock.js
counts it down each second from ``data-round-ends`` and says the notice once it is up.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    def match_over(self) -> str:
        """What a finished game's table is told instead of a rematch once time is up."""
        return _(
            "Time is up for round %(number)s: this table's match ends with this game.",
            number=self.round_number,
        )

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
    return None if clock is None else _view(clock)


def _view(clock: RoundClock) -> ClockView:
    return ClockView(
        clock.round_number,
        clock.ends_at.isoformat(),
        clock.at_limit,
        clock.seconds_left(),
    )
