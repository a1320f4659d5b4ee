"""What a gain is worth under the house rules that change scoring (docs/rules.md section 8a).

A gain (a play's count, or what a side collects at the end of a hand) goes through three
rules, always in this order, each in one place here:

1. ``get_in``: a side scores nothing until one of its plays scores at least that many
   points (compared in points, before any division by 5); that play counts in full.
2. ``units``: in fives every score is divided by 5 (a count of 15 scores 3).
3. ``exact_target``: a gain that would take the side past the target scores nothing.

Deductions (``deduct-own``) are not gains: they always apply, divided by 5 in fives. None of
these rules makes an entry illegal; they only change what it scores, so no rule id changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.rules.options import Rules

Voided = Literal["not-in", "overshoot"]
"""Why a gain scored nothing: the side is not in yet, or it would pass an exact target."""


@dataclass(frozen=True, slots=True)
class Gain:
    """What a side scores (``points``, in the game's units) of what it ``earned``, and why
    nothing when a rule voided it."""

    points: int
    earned: int
    voided: Voided | None = None


NO_GAIN = Gain(0, 0)


def in_units(points: int, rules: Rules) -> int:
    """``points`` (a multiple of five) in the game's units."""
    return points // 5 if rules.in_fives else points


def play_points(count: int) -> int:
    """What a count scores in points: the count when it is a positive multiple of five."""
    return count if count > 0 and count % 5 == 0 else 0


def gets_in(points: int, rules: Rules) -> bool:
    """Whether a play scoring ``points`` (in points) gets its side in."""
    return points > 0 and points >= rules.get_in


def play_gain(count: int, side_in: bool, score: int, rules: Rules) -> Gain:
    """What a play with ``count`` scores for a side on ``score`` (in or not yet)."""
    points = play_points(count)
    if not points:
        return NO_GAIN
    return _counted(in_units(points, rules), side_in or gets_in(points, rules), score, rules)


def settlement_gain(earned: int, side_in: bool, score: int, rules: Rules) -> Gain:
    """What a side that collects ``earned`` (already in the game's units) scores."""
    if earned <= 0:
        return Gain(earned, earned)
    return _counted(earned, side_in, score, rules)


def _counted(earned: int, side_in: bool, score: int, rules: Rules) -> Gain:
    if not side_in:
        return Gain(0, earned, "not-in")
    if rules.exact_target and score + earned > rules.target:
        return Gain(0, earned, "overshoot")
    return Gain(earned, earned)


def starts_in(rules: Rules) -> bool:
    """Whether a side is in from the start (no ``get_in``)."""
    return rules.get_in == 0
