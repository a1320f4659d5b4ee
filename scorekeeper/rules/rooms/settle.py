"""A settlement: what each player still holds at the end of a hand, and what it changes
(docs/rules.md section 8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry
from scorekeeper.rules.events import Held, Settle
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms.shared import check_seat, decide, decide_at_time, game_over
from scorekeeper.rules.settlement import check_remaining, settle
from scorekeeper.rules.state import GameState
from scorekeeper.rules.tiles import stored_tile


def enter(game: GameState, event: Settle) -> None:
    """Check a settlement, then apply it: whole, or refused with nothing changed."""
    pips = _check(game, event)
    _apply(game, event, pips)


def _check(game: GameState, settle_event: Settle) -> dict[int, int]:
    remaining = settle_event.remaining
    for seat in remaining:
        check_seat(game, seat)
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    hand = game.hand
    if hand is None or hand.result == "open":
        number = hand.number if hand else 1
        raise IllegalEntry(
            "remaining",
            say(
                "Hand %(hand)s is not over (nobody has dominoed and it is not blocked): "
                "there is nothing to settle yet.",
                hand=number,
            ),
        )
    if hand.settlement is not None:
        raise IllegalEntry("remaining", say("Hand %(hand)s is already settled.", hand=hand.number))
    return check_remaining(
        remaining,
        hand.held,
        hand.layout.on_table,
        hand.boneyard,
        game.setup.players,
        game.rules.tile_set,
    )


def _apply(game: GameState, event: Settle, pips: dict[int, int]) -> None:
    hand = game.hand
    assert hand is not None
    hand.settlement = settle(
        pips,
        hand.went_out if hand.result == "domino" else None,
        game.setup,
        game.rules,
        game.scores,
        game.sides_in,
    )
    for side, change in enumerate(hand.settlement.changes):
        game.scores[side] += change
    decide(game)
    decide_at_time(game)


def store(event: Settle) -> dict[str, Any]:
    """A settlement as its stored row's data: each seat's pips, or its tiles by name."""
    remaining = {
        str(seat): held if isinstance(held, int) else [str(tile) for tile in held]
        for seat, held in sorted(event.remaining.items())
    }
    return {"remaining": remaining}


def restore(data: Mapping[str, Any]) -> Settle:
    """The settlement a stored row's data holds."""
    remaining: dict[int, Held] = {}
    for seat, held in data["remaining"].items():
        remaining[int(seat)] = (
            held if isinstance(held, int) else tuple(stored_tile(text) for text in held)
        )
    return Settle(remaining)
