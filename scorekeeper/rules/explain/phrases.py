"""What the explanations of every kind of entry say alike: a house rule named as the record
spells it, a number of tiles, what an end shows, what a gain was worth, a win at once."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.game import Game, Scored
from scorekeeper.rules.messages import Message, say, say_n

Told = tuple[Message, tuple[Message, ...], int]
"""What an explanation of one entry says: its summary, its lines, and how many of those lines,
from the first, are a play's count (0 for every other kind)."""


@dataclass(frozen=True)
class Before:
    """What an explanation needs of the state just before its event."""

    scores: tuple[int, ...]
    event: int


def house(rule: str, value: str | int | None = None) -> Message:
    """A house rule in force, named as the record spells it: "house rule get_in: 10"."""
    if value is None:
        return say("house rule %(rule)s", rule=rule)
    return say("house rule %(rule)s: %(value)s", rule=rule, value=value)


def tiles(count: int) -> Message:
    """A number of tiles: "1 tile", "7 tiles"."""
    return say_n("%(count)s tile", "%(count)s tiles", count)


def wins_at_once(game: Game, side: int) -> Message:
    """ "Ann 250 >= 250: wins at once (house rule win_check: immediate); the hand stops
    unsettled": what an entry that won during play says last."""
    return say(
        "%(side)s %(score)s >= %(target)s: wins at once (%(rule)s); the hand stops unsettled",
        side=game.sides[side],
        score=game.scores[side],
        target=game.rules.target,
        rule=house("win_check", "immediate"),
    )


def shows(end: str, pips: int) -> Message:
    """What an open end shows: "W shows 6"."""
    return say("%(end)s shows %(pips)s", end=end, pips=pips)


def gain_step(game: Game, scored: Scored, before: int) -> Message | None:
    """The total's step when a house rule of section 8a changed what the play scored (in
    fives, not in yet, past an exact target), or None when it scored as the count says."""
    rules = game.rules
    count = scored.count
    if scored.voided == "not-in":
        return say(
            "total %(count)s, a multiple of five, but %(side)s needs %(needed)s to get in "
            "(%(rule)s): %(count)s does not count",
            count=count,
            side=game.sides[game.side_of(scored.player)],
            needed=rules.get_in,
            rule=house("get_in"),
        )
    if scored.voided == "overshoot":
        return say(
            "total %(count)s: %(score)s + %(earned)s = %(sum)s would pass %(target)s "
            "(%(rule)s): nothing scored",
            count=count,
            score=before,
            earned=scored.earned,
            sum=before + scored.earned,
            target=rules.target,
            rule=house("exact_target"),
        )
    if scored.points and rules.in_fives:
        return say(
            "total %(count)s, a multiple of five: %(count)s / 5 = +%(points)s in fives",
            count=count,
            points=scored.points,
        )
    return None
