"""Time called: a club night's round reached its time limit (docs/rules.md 8f).

The server enters it, not a player: the first change a table posts after the round's
deadline carries it in front (``web/data/games/writing.py``), so no table can play past the
limit by forgetting it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import TIME_RULES, TimeCalled
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms.shared import decide_at_time, game_over
from scorekeeper.rules.state import GameState


def enter(game: GameState, event: TimeCalled) -> None:
    """Check a time entry, then apply it: whole, or refused with nothing changed."""
    _check(game, event)
    game.time = event.rule
    game.time_at = len(game.events)
    hand = game.hand
    assert hand is not None
    if hand.settlement is not None:
        # Between hands: the hand just settled was the last one; a side ahead wins now.
        decide_at_time(game)


def _check(game: GameState, event: TimeCalled) -> None:
    if event.rule not in TIME_RULES:
        raise MalformedInput(
            say(
                'Time is called as "finish-hand" or "to-target", not %(given)s.',
                given=repr(event.rule),
            )
        )
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    if game.time is not None:
        raise IllegalEntry(
            "time",
            say("Time is already called in this game: it is called once."),
        )
    if game.hand is None:
        raise IllegalEntry(
            "time",
            say("Hand 1 has not begun: time is called once hand 1 is led."),
        )


def store(event: TimeCalled) -> dict[str, Any]:
    """A time entry as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    return {"rule": event.rule}


def restore(data: Mapping[str, Any]) -> TimeCalled:
    """The time entry a stored row's data holds."""
    return TimeCalled(data["rule"])
