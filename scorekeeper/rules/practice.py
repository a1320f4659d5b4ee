"""Practice mode (house rule ``practice``, docs/rules.md 8e): each play's count is hidden until
the table guesses it, then shown with right or wrong.

What the table may see while a count is hidden, and each player's counts guessed right, are
read here from the game as the referee replayed it; the guess itself is checked and applied by
its room (:mod:`scorekeeper.rules.rooms.guess`). Nothing here changes a score: a hidden play
has scored what it scores, the table is only not shown it yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.events import Play
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.state import GameState, Scored


def hidden_play(game: GameState) -> Scored | None:
    """The play whose count is hidden now: with practice mode, the last play while it is the
    last entry and the game is not over (a play that wins shows its count, the game being
    decided). None otherwise, and always without the house rule."""
    if not game.rules.practice or game.winner is not None or not game.events:
        return None
    hand = game.hand
    if not isinstance(game.events[-1], Play) or hand is None or not hand.plays:
        return None
    return hand.plays[-1]


def guess_most(game: GameState) -> int:
    """The highest guess the table is offered for the hidden play: what the open ends could
    make at most, in fives. An end counts a double (each double is in the set once) or at
    most the set's top number, so n ends make at most the n largest of 2 x top, 2 x (top - 1),
    ... and top, top, ...: 20 with two ends of a double-six set, 35 with four. It depends on
    how many ends are open, which the table sees, never on the count itself."""
    hand = game.hand
    if hand is None or not hand.plays:
        return 0
    top = game.rules.tile_set.top
    ends = max(2, len(hand.layout.arms))
    most = sum(max(2 * (top - i), top) for i in range(ends))
    # The count's own points always lie within; this only guards the bound's arithmetic.
    return max(most - most % 5, play_points(hand.plays[-1].count))


def guess_choices(game: GameState) -> tuple[int, ...]:
    """The guesses offered for the hidden play: 0 (no score), then 5, 10, ... up to
    :func:`guess_most`; empty when no count is hidden."""
    if hidden_play(game) is None:
        return ()
    return tuple(range(0, guess_most(game) + 1, 5))


def guessed_right(scored: Scored) -> bool:
    """Whether the table guessed the count of ``scored`` right (not guessed: not right)."""
    return scored.guessed is not None and scored.guessed == play_points(scored.count)


@dataclass(frozen=True, slots=True)
class Guessed:
    """One player's counts in practice mode: how many of their plays' counts were guessed
    right, of how many plays (a play not guessed counts as not right)."""

    seat: int
    right: int
    plays: int


def guesses(game: GameState) -> tuple[Guessed, ...]:
    """Each player's counts guessed right so far, in seat order; the play whose count is
    hidden now is not counted yet. Empty without the house rule."""
    if not game.rules.practice:
        return ()
    hidden = hidden_play(game)
    right = [0] * len(game.players)
    plays = [0] * len(game.players)
    for hand in game.hands:
        for scored in hand.plays:
            if scored is hidden:
                continue
            plays[scored.player] += 1
            right[scored.player] += guessed_right(scored)
    return tuple(Guessed(seat, right[seat], plays[seat]) for seat in range(len(game.players)))
