"""An adjustment: a correction the table agreed, with its reason (docs/rules.md 8c)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import REASON_LENGTH, Adjust, is_whole
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms.shared import check_seat, decide, decide_at_time, game_over
from scorekeeper.rules.state import GameState, Move


def enter(game: GameState, adjust: Adjust) -> None:
    """Check an adjustment, then apply it: whole, or refused with nothing changed."""
    _check(game, adjust)
    _apply(game, adjust)


def _check(game: GameState, adjust: Adjust) -> None:
    """An adjustment agreed at the table (docs/rules.md 8c)."""
    check_seat(game, adjust.player)
    points, in_fives = adjust.points, game.rules.in_fives
    if not is_whole(points) or points == 0:
        raise MalformedInput(
            say(
                "An adjustment changes a score by a whole number other than 0 "
                "(below 0: a loss); not %(given)s.",
                given=repr(points),
            )
        )
    if not in_fives and points % 5:
        raise MalformedInput(
            say(
                "An adjustment is a multiple of 5 points, as every score is: %(lower)s or "
                "%(higher)s, not %(given)s.",
                lower=points - points % 5,
                higher=points - points % 5 + 5,
                given=points,
            )
        )
    reason = adjust.reason
    if not isinstance(reason, str) or not reason.strip():
        raise MalformedInput(
            say(
                "An adjustment says why, in words: what the table agreed "
                "(1 to %(most)s characters).",
                most=REASON_LENGTH,
            )
        )
    if len(reason) > REASON_LENGTH:
        raise MalformedInput(
            say(
                "An adjustment's reason is at most %(most)s characters; this one has %(count)s.",
                most=REASON_LENGTH,
                count=len(reason),
            )
        )
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    hand = game.hand
    if hand is None:
        raise IllegalEntry(
            "lead",
            say("Hand 1 has not begun: a correction is entered once hand 1 is led."),
        )


def _apply(game: GameState, adjust: Adjust) -> None:
    hand = game.hand
    assert hand is not None
    side = game.side_of_seat[adjust.player]
    game.scores[side] += adjust.points
    hand.moves.append(
        Move(
            "adjust",
            adjust.player,
            side,
            adjust.points,
            len(hand.plays),
            adjust.reason,
            settled=hand.settlement is not None,
        )
    )
    # docs/rules.md 8c: the win is checked as after a settlement. During a hand, with
    # end-of-hand that is at the hand's settlement, with immediate at once; once the hand is
    # settled its end has come, so at once under either.
    if hand.settlement is not None:
        decide(game)
        decide_at_time(game)  # between hands after time: a side ahead wins at once
    elif game.rules.win_check == "immediate":
        decide(game)
        if game.winner is not None:
            hand.result = "won"


def store(adjust: Adjust) -> dict[str, Any]:
    """An adjustment as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    return {"player": adjust.player, "points": adjust.points, "reason": adjust.reason}


def restore(data: Mapping[str, Any]) -> Adjust:
    """The adjustment a stored row's data holds."""
    return Adjust(data["player"], data["points"], data["reason"])
