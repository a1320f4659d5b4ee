"""Practice mode on the table (house rule practice, docs/rules.md 8e): the row of guesses
while the last play's count is hidden, and the guess once made, right or wrong.

While a count is hidden, nothing the table page shows may give it away: the scores, the
hand's tally, the flash and its announcement, the pegs, the chart, the log are drawn from
:func:`~scorekeeper.rules.entering.shown_game`, the game without the hidden play (which has scored, as the referee
keeps it: the table is only not shown it yet).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import Game, Guess
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.practice import guess_choices, guessed_right, hidden_play


@dataclass(frozen=True)
class GuessRow:
    """The hidden count of the last play: whose it is, and the guesses the table may tap
    (none on a page that only watches)."""

    player: str
    choices: tuple[int, ...]


@dataclass(frozen=True)
class Guessed:
    """The guess just made of the last play's count, and whether it was right."""

    guessed: int
    points: int
    right: bool


def guess_row(game: Game, editable: bool) -> GuessRow | None:
    """The row of guesses while the last play's count is hidden, else None."""
    hidden = hidden_play(game)
    if hidden is None:
        return None
    return GuessRow(game.players[hidden.player], guess_choices(game) if editable else ())


def just_guessed(game: Game) -> Guessed | None:
    """The guess of the last play's count while it is the last entry, else None."""
    hand = game.hand
    if not game.events or not isinstance(game.events[-1], Guess) or hand is None:
        return None
    scored = hand.plays[-1]
    assert scored.guessed is not None
    return Guessed(scored.guessed, play_points(scored.count), guessed_right(scored))
