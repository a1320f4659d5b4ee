"""The referee as the tests question it: helpers that only tests need, kept out of the package.

They ask what the package answers in other words (a refusal without pushing, every hand's
notes at once, an event's place in its hand, a tile's English name), so that a test can state
what a player would check at the table.
"""

from __future__ import annotations

from scorekeeper.rules import Event, Game, NewHand, Play, Settle, Tile
from scorekeeper.rules.explain.play import compact_parts
from scorekeeper.rules.game import Hand
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.notes import Note, referee_notes

NUMBER_WORDS = (
    "blank", "one", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "eleven", "twelve",
)  # fmt: skip


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


def explain_last_play(game: Game) -> Message:
    """The compact line the table shows after the last play: "W 3 + E 12 = 15: Ann +15".

    Open ends of a spinner that are still empty are left out; a lone lead reads
    "6-4 alone = 10: Ann +10". Raises ValueError when nothing has been played yet.
    """
    index = max((i for i, e in enumerate(game.events) if isinstance(e, Play)), default=None)
    if index is None:
        raise ValueError("nothing has been played in this game yet")
    hand = game.hand
    if hand is not None and index == _last_play_index_of_current_hand(game):
        return _compact(game, hand, len(hand.plays) - 1)
    replayed = Game(game.setup, game.events[: index + 1])
    current = replayed.hand
    assert current is not None
    return _compact(replayed, current, len(current.plays) - 1)


def _last_play_index_of_current_hand(game: Game) -> int | None:
    for i in range(len(game.events) - 1, -1, -1):
        event = game.events[i]
        if isinstance(event, NewHand):
            return None
        if isinstance(event, Play):
            return i
    return None


# -- the table's short lines ----------------------------------------------------------------


def _compact(game: Game, hand: Hand, play_number: int) -> Message:
    """The compact line for play ``play_number`` (from 0) of ``hand``, its last play so far."""
    scored = hand.plays[play_number]
    count = compact_parts(hand.layout)
    if not scored.points:
        return count
    return say(
        "%(count)s: %(player)s +%(points)s",
        count=count,
        player=game.players[scored.player],
        points=scored.points,
    )
