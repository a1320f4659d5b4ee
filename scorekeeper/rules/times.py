"""When a game was played, as a game record says: the optional times of ``all-fives/1``.

A record may say when the game began (``started``) and ended (``finished``), when each event
was entered (``at``) and when each hand was settled (``settled_at``). The referee reads them
and checks their form, and never lets them change a score or a ruling: a game is the same
game at any time. They travel beside the game, in :class:`Times`, so that whoever stores the
game (the web app) can keep them, and whoever writes its record can write them back.

Each is an ISO 8601 date and time of day with its offset from UTC, and nothing else:
``2026-11-28T17:39:04Z``, ``2026-11-28T18:39:04+01:00``, optionally with a fraction of a
second (up to microseconds, as far as a time is kept). A date alone, a time without its
offset (whose instant nobody can know), a space for the ``T``, an impossible date or a value
that is not text is refused with rule ``record``. Read, each is an aware ``datetime`` with
the offset it was written with: two spellings of one instant compare equal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import say

LONGEST_TIME = 32
"""The most characters a time can have (``2026-11-28T18:39:04.123456+01:00`` is 32): a longer
string is refused before it is looked at, and only its start is quoted back."""

_SHAPE = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})", re.ASCII
)
_EXAMPLE = '"2026-11-28T17:39:04Z"'
_QUOTED = 40
"""How much of a refused value is quoted in the message."""


def _shown(value: object) -> str:
    """The refused value as JSON, cut short when long (a record may carry megabytes)."""
    if isinstance(value, str) and len(value) > _QUOTED:
        return json.dumps(value[:_QUOTED] + "...")
    if isinstance(value, dict | list):
        return "{...}" if isinstance(value, dict) else "[...]"
    return json.dumps(value)


def parse_time(value: object, field: str) -> datetime:
    """The aware time a record's field ``field`` holds, or a ``record`` refusal."""
    moment = None
    if isinstance(value, str) and len(value) <= LONGEST_TIME and _SHAPE.fullmatch(value):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None or moment.tzinfo is None:
        raise MalformedInput(
            say(
                '"%(field)s" is a date and time with its offset from UTC, such as %(example)s; '
                "not %(given)s.",
                field=field,
                example=_EXAMPLE,
                given=_shown(value),
            )
        )
    return moment


def write_time(moment: datetime) -> str:
    """``moment`` (aware) as a record writes it: to the second unless it has a fraction, the
    offset it has (UTC written ``Z``)."""
    if moment.tzinfo is None:
        raise ValueError("a record's time is aware: it says its offset from UTC")
    text = moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds")
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text


def utc(moment: datetime) -> datetime:
    """``moment`` as naive UTC, the way a store keeps times (every offset, one instant)."""
    return moment.astimezone(UTC).replace(tzinfo=None)


@dataclass(frozen=True, slots=True)
class Times:
    """The times a record gives for a game, None where it gives none.

    ``entries`` runs beside the game's events, one per event, in order: an event's ``at``,
    a settlement's ``settled_at``, and None for the start of a hand (a record has no time for
    it). Empty when the record gives no entry times at all.
    """

    started: datetime | None = None
    finished: datetime | None = None
    entries: tuple[datetime | None, ...] = ()

    def entry(self, index: int) -> datetime | None:
        """The time of the game's event at ``index`` (from 0), if known."""
        return self.entries[index] if index < len(self.entries) else None

    def filled(
        self, count: int, over: bool, fallback: datetime
    ) -> tuple[datetime, list[datetime], datetime]:
        """Times for a store to keep the game by: when it began, each of its ``count`` events,
        and its last change, every one known (``over``: the game has a winner).

        Without any time, every one is ``fallback`` (the moment of the import, as a record
        without times has always been stored). With some, an event without its own time is
        taken to be entered at the latest time before it (the time the hand before it was
        settled, for a hand's start, as a table stores it), the first ones at the start of
        the game; a game without ``started`` began at its first known time. The last change
        is ``finished`` if given, else the latest time known; the event that ended a finished
        game, if it has no time of its own, takes ``finished``. A game not over has not
        ended: its ``finished`` says nothing and is not used.
        """
        finished = self.finished if over else None
        known = [moment for moment in self.entries if moment is not None]
        first = self.started or (min(known) if known else finished)
        if first is None:
            return fallback, [fallback] * count, fallback
        moments, current = [], first
        for index in range(count):
            own = self.entry(index)
            if own is None and index == count - 1 and finished is not None:
                own = finished
            current = own or current
            moments.append(current)
        return first, moments, finished or max([first, *known])
