"""The referee as the tests question it: helpers that only tests need, kept out of the package.

They ask what the package answers in other words (a refusal without pushing, every hand's
notes at once, an event's place in its hand, a tile's English name), so that a test can state
what a player would check at the table.
"""

from __future__ import annotations

from scorekeeper.rules import Event, Game, NewHand, Settle, Tile
from scorekeeper.rules.notes import Note, referee_notes

NUMBER_WORDS = ("blank", "one", "two", "three", "four", "five", "six")


def spoken(tile: Tile) -> str:
    """The name English players say aloud: "six-four", "double five"."""
    if tile.is_double:
        return f"double {NUMBER_WORDS[tile.high]}"
    return f"{NUMBER_WORDS[tile.high]}-{NUMBER_WORDS[tile.low]}"


def check(game: Game, event: Event) -> None:
    """Raise the Refusal that pushing ``event`` onto ``game`` would raise; change nothing."""
    game.fork().push(event)


def all_referee_notes(game: Game) -> list[Note]:
    """The referee notes of every hand of ``game``, in event order."""
    return [
        note for number in range(1, len(game.hands) + 1) for note in referee_notes(game, number)
    ]


def event_position(game: Game, index: int) -> tuple[int, int | None]:
    """The hand (from 1) of ``game.events[index]`` and its event number in that hand.

    The event number counts the hand's plays, draws and passes from 1, as the record does;
    it is None for the new hand itself and for the settlement.
    """
    if not 0 <= index < len(game.events):
        raise IndexError(f"there is no event {index} in this game's {len(game.events)} events")
    hand = 0
    number = 0
    for event in game.events[: index + 1]:
        if isinstance(event, NewHand):
            hand += 1
            number = 0
        elif not isinstance(event, Settle):
            number += 1
    last = game.events[index]
    return hand, None if isinstance(last, (NewHand, Settle)) else number
