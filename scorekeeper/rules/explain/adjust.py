"""Why: an adjustment the table agreed (docs/rules.md 8c)."""

from __future__ import annotations

from scorekeeper.rules.events import (
    Adjust,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    house,
    wins_at_once,
)
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.messages import Fact, Message, say
from scorekeeper.rules.wording import signed


def _adjust(
    game: Game, hand: Hand, adjust: Adjust, before: Before
) -> tuple[Message, tuple[Message, ...]]:
    """ "Adjusted: Bob -10 (drew while able to play)." and what it did."""
    side = game.side_of(adjust.player)
    team = game.sides[side]
    facts: dict[str, Fact] = {
        "side": team,
        "points": signed(adjust.points),
        "reason": adjust.reason,
        "before": before.scores[side],
        "score": game.scores[side],
    }
    lines = [
        say("The table agreed a correction: %(reason)s.", **facts),
        say("%(side)s %(before)s %(points)s = %(score)s.", **facts),
        say(
            "An adjustment is not a turn; the settlement and the rules of scoring (getting "
            "in, an exact target) do not count it."
        ),
    ]
    if game.winner is not None:
        lines.append(wins_at_once(game, game.winner))
    elif game.rules.win_check == "end-of-hand" and max(game.scores) >= game.rules.target:
        lines.append(
            say(
                "The target is checked when hand %(hand)s is settled (%(rule)s).",
                hand=hand.number,
                rule=house("win_check", "end-of-hand"),
            )
        )
    return say("Adjusted: %(side)s %(points)s (%(reason)s).", **facts), tuple(lines)


def tell(game: Game, hand: Hand, adjust: Adjust, before: Before) -> Told:
    """How an adjustment was judged: its summary and lines."""
    summary, lines = _adjust(game, hand, adjust, before)
    return summary, lines, 0
