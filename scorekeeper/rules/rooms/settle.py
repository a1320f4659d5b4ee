"""A settlement: what each player still holds at the end of a hand, and what it changes
(docs/rules.md section 8)."""

from __future__ import annotations

from scorekeeper.rules.errors import IllegalEntry
from scorekeeper.rules.events import Settle
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms.shared import check_seat, decide, game_over
from scorekeeper.rules.settlement import check_remaining, settle
from scorekeeper.rules.state import GameState


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
