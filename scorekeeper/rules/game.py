"""A game of All Fives: its setup, the hands played, the scores and the winner.

The state (:class:`~scorekeeper.rules.state.GameState`) is derived from the ordered list of
events. :meth:`Game.push` hands an event to the room of its kind (:mod:`scorekeeper.rules.rooms`),
which applies it completely or refuses it with a :class:`~scorekeeper.rules.errors.Refusal`,
changing nothing; :meth:`Game.pop` undoes the last one.

Continuing a game costs only the new events, and undoing one costs one hand, never the whole
game. Every hand keeps a snapshot of what the game was when it began (``scores_before``; a
hand only begins while nobody has won) and the game keeps where each hand's events begin, so
:meth:`Game.pop` restores the current hand's snapshot and pushes that hand's events again,
all but the last. Past hands never change once the next hand has begun: :meth:`Game.fork`
shares them and copies only the current hand, so a copy to continue from is cheap too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import Event
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms import KIND_OF
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.state import (
    GameState,
    Hand,
    HandResult,
    Move,
    MoveKind,
    Phase,
    Reached,
    Scored,
)

__all__ = [
    "Game",
    "GameState",
    "Hand",
    "HandResult",
    "Move",
    "MoveKind",
    "Phase",
    "Reached",
    "Scored",
    "Setup",
]


class Game(GameState):
    """A game derived from its setup and events; push to apply, pop to undo."""

    def __init__(self, setup: Setup, events: Iterable[Event] = ()) -> None:
        super().__init__(setup)
        for event in events:
            self.push(event)

    def fork(self) -> Game:
        """An independent copy of this game to push onto and pop from.

        It costs the current hand and a list of references, not a replay: past hands are
        never changed again (a pop back into one builds it anew), so they are shared.
        """
        other = Game.__new__(Game)
        other.setup = self.setup
        other.rules = self.rules
        other.sides = self.sides
        other.side_of_seat = self.side_of_seat
        other.events = list(self.events)
        other.hands = list(self.hands)
        if other.hands:
            other.hands[-1] = self.hands[-1].copy()
        other.scores = list(self.scores)
        other.sides_in = list(self.sides_in)
        other.winner = self.winner
        other.time = self.time
        other.time_at = self.time_at
        other.won_at_time = self.won_at_time
        other.starts = list(self.starts)
        return other

    # -- entering events ----------------------------------------------------------------

    def push(self, event: Event) -> None:
        """Apply ``event``, or raise a Refusal and change nothing. The room that checks and
        applies it is found by its exact type in ``rooms.KINDS``."""
        kind = KIND_OF.get(type(event))
        if kind is None:
            raise MalformedInput(say("%(event)s is not an event.", event=repr(event)))
        kind.enter(self, event)
        self.events.append(event)

    def pop(self) -> Event:
        """Undo the last event and return it; this replays the current hand, not the game."""
        if not self.events:
            raise IndexError("no event to undo")
        return self.rewind(len(self.events) - 1)[0]

    def rewind(self, length: int) -> list[Event]:
        """Undo events until ``length`` remain; return those undone, oldest first.

        The game goes back to the snapshot of the hand the last kept event belongs to (its
        ``scores_before``: a hand only begins while nobody has won) and pushes that hand's
        kept events again, so it costs one hand at most, however long the game.
        """
        if not 0 <= length <= len(self.events):
            raise IndexError(f"cannot keep {length} of {len(self.events)} events")
        undone = self.events[length:]
        if not undone:
            return []
        index = bisect_left(self.starts, length)
        if index == len(self.starts) or self.starts[index] != length:
            index -= 1  # the kept events end inside hand ``index``: replay its kept events
        start = self.starts[index]
        self.scores = list(self.hands[index].scores_before)
        self.sides_in = list(self.hands[index].in_before)
        self.winner = None
        self.won_at_time = False
        if self.time_at is not None and self.time_at >= start:
            # called in the hand replayed: pushed again below if it is kept
            self.time = self.time_at = None
        again = self.events[start:length]
        del self.events[start:], self.hands[index:], self.starts[index:]
        for event in again:
            self.push(event)
        return undone
