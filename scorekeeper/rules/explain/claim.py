"""Why: a claim of a missed count ("Muggins!", docs/rules.md 8b)."""

from __future__ import annotations

from scorekeeper.rules.events import (
    Claim,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    gain_step,
    house,
    wins_at_once,
)
from scorekeeper.rules.gains import in_units
from scorekeeper.rules.game import Game, Hand, Scored
from scorekeeper.rules.messages import Fact, Message, say


def _claim(
    game: Game, hand: Hand, claim: Claim, before: Before
) -> tuple[Message, tuple[Message, ...]]:
    """ "Ann called 10, the count was 15: Bob's Muggins! +15.", and the steps to it."""
    scored = hand.plays[-1]
    name, claimant = game.players[scored.player], game.players[claim.player]
    side = game.side_of(claim.player)
    team = game.sides[side]
    facts: dict[str, Fact] = {
        "player": name,
        "called": scored.called or 0,
        "count": scored.count,
        "claimant": claimant,
        "points": scored.claimed,
        "missed": scored.missed,
        "side": team,
        "rule": house("muggins"),
    }
    lines = [
        say(
            "%(player)s called %(called)s on a count of %(count)s (%(rule)s): %(missed)s "
            "missed, and %(player)s's side scored nothing.",
            **facts,
        ),
        say(
            "%(claimant)s, an opponent, cried Muggins! before the next entry: %(side)s takes "
            "the %(missed)s as a play would score them.",
            **facts,
        ),
    ]
    # The claim as the play it takes over: its count, what it earned and what it scored.
    voided = Scored(
        claim.player,
        scored.tile,
        scored.end,
        scored.count,
        scored.claimed,
        scored.claim_voided,
        in_units(scored.missed, game.rules),
    )
    gain = gain_step(game, voided, before.scores[side])
    if scored.claim_voided == "not-in":
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins!, "
            "no score (%(side)s is not in yet).",
            **facts,
        )
    elif scored.claim_voided == "overshoot":
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins!, "
            "no score (it would pass %(target)s).",
            target=game.rules.target,
            **facts,
        )
    else:
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins! "
            "+%(points)s.",
            **facts,
        )
    if gain is not None:
        lines.append(gain)
    lines.append(say("%(side)s: %(score)s", side=team, score=game.scores[side]))
    if game.winner is not None:
        lines.append(wins_at_once(game, side))
    return summary, tuple(lines)


def tell(game: Game, hand: Hand, claim: Claim, before: Before) -> Told:
    """How a claim was judged: its summary and lines."""
    summary, lines = _claim(game, hand, claim, before)
    return summary, lines, 0
