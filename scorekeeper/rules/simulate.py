"""A simulated table: shuffled tiles, hidden hands, random legal play, the true remainders.

Used by the property tests and the benchmark; it plays the way a real table does, so every
game it produces must replay without a refusal.
"""

from __future__ import annotations

import random

from scorekeeper.rules.events import Draw, Held, NewHand, Pass, Play, Settle
from scorekeeper.rules.game import Game
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import ALL_TILES, Tile


def _flush_draws(game: Game, seat: int, pending: int, rng: random.Random) -> None:
    """Enter ``pending`` draws as one or several draw events."""
    while pending:
        chunk = rng.randint(1, pending)
        game.push(Draw(seat, chunk))
        pending -= chunk


def play_hand(game: Game, rng: random.Random) -> list[list[Tile]]:
    """Deal and play one hand to its end (settled unless the game was won); return the hands."""
    players = len(game.players)
    size = game.rules.hand_size
    shuffled = list(ALL_TILES)
    rng.shuffle(shuffled)
    hands = [shuffled[seat * size : (seat + 1) * size] for seat in range(players)]
    boneyard = shuffled[players * size :]
    leader = game.next_leader
    game.push(NewHand(rng.randrange(players) if leader is None else leader))
    hand = game.hand
    assert hand is not None
    first = rng.choice(hands[hand.leader])
    hands[hand.leader].remove(first)
    game.push(Play(hand.leader, first, None, flipped=not first.is_double and rng.random() < 0.5))
    while hand.result == "open":
        seat = hand.turn
        pending = 0
        while True:
            playable = [(t, end) for t in hands[seat] for end in game.fits(t)]
            if playable:
                _flush_draws(game, seat, pending, rng)
                chosen, end = rng.choice(playable)
                named = end if len(game.fits(chosen)) > 1 or rng.random() < 0.5 else None
                hands[seat].remove(chosen)
                game.push(Play(seat, chosen, named))
                break
            if game.drawable() - pending > 0:
                hands[seat].append(boneyard.pop())
                pending += 1
                continue
            _flush_draws(game, seat, pending, rng)
            game.push(Pass(seat))
            break
    if hand.result in ("domino", "blocked"):
        remaining: dict[int, Held] = {}
        for seat, tiles in enumerate(hands):
            if tiles:
                remaining[seat] = tuple(tiles) if rng.random() < 0.5 else sum(t.pips for t in tiles)
        game.push(Settle(remaining))
    return hands


def play_game(setup: Setup, rng: random.Random, max_hands: int = 100) -> Game:
    """Play hands until a side wins or ``max_hands`` have been played."""
    game = Game(setup)
    while game.winner is None and len(game.hands) < max_hands:
        play_hand(game, rng)
    return game
