"""Why: time called at a club night's time limit (docs/rules.md 8f)."""

from __future__ import annotations

from scorekeeper.rules.events import TimeCalled
from scorekeeper.rules.explain.phrases import Before, Told
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.messages import Message, say, say_list


def tell(game: Game, hand: Hand, event: TimeCalled, before: Before) -> Told:
    """ "Time called: this hand is the last." and what follows from it."""
    if event.rule == "to-target":
        return (
            say("Time called; play goes on to the target."),
            (
                say(
                    "The night plays on to the target at its time limit: this game ends as "
                    "any game does, when a side reaches %(target)s.",
                    target=game.rules.target,
                ),
            ),
            0,
        )
    if hand.settlement is None:
        return (
            say("Time called: this hand is the last."),
            (
                say(
                    "The night's time limit: hand %(hand)s is finished and settled, then "
                    "the higher side wins; level sides play on, one hand at a time, until "
                    "a side is ahead.",
                    hand=hand.number,
                ),
            ),
            0,
        )
    return _between_hands(game, hand), (_standing(game),), 0


def _between_hands(game: Game, hand: Hand) -> Message:
    if game.winner is not None and game.won_at_time:
        return say(
            "Time called between hands: hand %(hand)s was the last, and the game goes to %(side)s.",
            hand=hand.number,
            side=game.sides[game.winner],
        )
    return say("Time called between hands: the next hand is the last.")


def _standing(game: Game) -> Message:
    """The scores when time was called: who is ahead, or that the sides are level."""
    best = max(game.scores)
    scores = ", ".join(
        f"{side} {score}" for side, score in zip(game.sides, game.scores, strict=True)
    )
    leaders = [game.sides[s] for s, score in enumerate(game.scores) if score == best]
    if len(leaders) > 1:
        return say(
            "%(sides)s level at %(score)s at the time limit: another hand, until a side is ahead.",
            sides=say_list(leaders),
            score=best,
        )
    return say("The higher side wins at the time limit: %(scores)s.", scores=scores)
