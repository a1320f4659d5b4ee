"""Why: a guess of a hidden count in practice mode (docs/rules.md 8e)."""

from __future__ import annotations

from scorekeeper.rules.events import Guess
from scorekeeper.rules.explain.phrases import Before, Told, house
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.messages import Fact, say
from scorekeeper.rules.practice import guessed_right, guesses


def tell(game: Game, hand: Hand, guess: Guess, before: Before) -> Told:
    """ "Ann's count guessed 10: right, the count was 10." and each player's tally so far."""
    scored = hand.plays[-1]
    points = play_points(scored.count)
    facts: dict[str, Fact] = {
        "player": game.players[scored.player],
        "tile": str(scored.tile),
        "guessed": guess.points,
        "count": scored.count,
        "points": points,
        "rule": house("practice"),
    }
    if guessed_right(scored):
        summary = say(
            "The count of %(player)s's %(tile)s guessed %(guessed)s: right, the count was "
            "%(count)s.",
            **facts,
        )
    else:
        summary = say(
            "The count of %(player)s's %(tile)s guessed %(guessed)s: wrong, the count was "
            "%(count)s (%(points)s points).",
            **facts,
        )
    lines = [
        say(
            "The count was hidden until the table guessed it (%(rule)s); a guess scores "
            "nothing, the play scored what it scores.",
            **facts,
        ),
        *(
            say(
                "%(player)s: %(right)s of %(plays)s counts guessed right.",
                player=game.players[tally.seat],
                right=tally.right,
                plays=tally.plays,
            )
            for tally in guesses(game)
            if tally.plays
        ),
    ]
    return summary, tuple(lines), 0
