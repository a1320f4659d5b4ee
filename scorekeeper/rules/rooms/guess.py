"""A guess of a hidden count in practice mode (house rule practice, docs/rules.md 8e)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import Guess, is_whole
from scorekeeper.rules.messages import say
from scorekeeper.rules.practice import guess_most, hidden_play
from scorekeeper.rules.rooms.shared import check_seat, game_over, name
from scorekeeper.rules.state import GameState


def enter(game: GameState, guess: Guess) -> None:
    """Check a guess, then apply it: whole, or refused with nothing changed."""
    _check(game, guess)
    hand = game.hand
    assert hand is not None
    # It changes no score: the play scored what it scores; the table now sees it.
    hand.plays[-1] = replace(hand.plays[-1], guessed=guess.points)


def _check(game: GameState, guess: Guess) -> None:
    check_seat(game, guess.player)
    points = guess.points
    if not is_whole(points, 0):
        raise MalformedInput(
            say(
                "A guess is a count in points, a whole number from 0 up (0: no score); "
                "not %(given)s.",
                given=repr(points),
            )
        )
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    player = name(game, guess.player)
    if not game.rules.practice:
        raise IllegalEntry(
            "guess",
            say(
                "%(player)s cannot guess the count: this game is played without practice "
                "mode (house rule practice: no), so every count is shown at once.",
                player=player,
            ),
        )
    scored = hidden_play(game)
    if scored is None:
        hand = game.hand
        last = hand.plays[-1] if hand is not None and hand.plays else None
        if last is not None and last.guessed is not None and isinstance(game.events[-1], Guess):
            raise IllegalEntry(
                "guess",
                say(
                    "The count of %(player)s's %(tile)s is already guessed (%(guessed)s): "
                    "a count is guessed once.",
                    player=name(game, last.player),
                    tile=str(last.tile),
                    guessed=last.guessed,
                ),
            )
        raise IllegalEntry(
            "guess",
            say(
                "No count is hidden now: a guess comes directly after a play, before the "
                "next entry, which shows its count."
            ),
        )
    if guess.player != scored.player:
        raise IllegalEntry(
            "guess",
            say(
                "The count of %(player)s's %(tile)s is guessed for %(player)s, who played "
                "it, not for %(guesser)s.",
                player=name(game, scored.player),
                tile=str(scored.tile),
                guesser=player,
            ),
        )
    most = guess_most(game)
    if points % 5 or points > most:
        raise IllegalEntry(
            "guess",
            say(
                "A guess is 0 (no score) or a multiple of 5 up to %(most)s, what these "
                "open ends could make; not %(given)s.",
                most=most,
                given=points,
            ),
        )


def store(guess: Guess) -> dict[str, Any]:
    """A guess as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    return {"player": guess.player, "points": guess.points}


def restore(data: Mapping[str, Any]) -> Guess:
    """The guess a stored row's data holds."""
    return Guess(data["player"], data["points"])
