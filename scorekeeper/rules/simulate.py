"""A simulated table: shuffled tiles, hidden hands, random legal play, the true remainders.

Used by the property tests and the benchmark; it plays the way a real table does, so every
game it produces must replay without a refusal.
"""

from __future__ import annotations

import random

from scorekeeper.rules.events import Draw, Held, NewHand, Pass, Play, Settle
from scorekeeper.rules.game import Game
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import Tile


def _flush_draws(game: Game, seat: int, pending: int, rng: random.Random) -> None:
    """Enter ``pending`` draws as one or several draw events."""
    while pending:
        chunk = rng.randint(1, pending)
        game.push(Draw(seat, chunk))
        pending -= chunk


def _redraws(
    hands: list[list[Tile]], boneyard: list[Tile], reserve: int
) -> tuple[int, Tile] | None:
    """House rule ``lead: highest-double``: everyone draws one more tile while nobody holds a
    double. The number of redraws and the highest double, or None if the boneyard ran out."""
    redraws = 0
    while not any(t.is_double for held in hands for t in held):
        if len(boneyard) - reserve < len(hands):
            return None
        for held in hands:
            held.append(boneyard.pop())
        redraws += 1
    return redraws, max((t for held in hands for t in held if t.is_double), key=lambda t: t.high)


def play_hand(game: Game, rng: random.Random) -> list[list[Tile]]:
    """Deal and play one hand to its end (settled unless the game was won); return the hands."""
    hands, boneyard, first = _deal_and_lead(game, rng)
    hand = game.hand
    assert hand is not None
    hands[hand.leader].remove(first)
    game.push(Play(hand.leader, first, None, flipped=not first.is_double and rng.random() < 0.5))
    while hand.result == "open":
        _take_turn(game, hand.turn, hands, boneyard, rng)
    if hand.result in ("domino", "blocked"):
        remaining: dict[int, Held] = {}
        for seat, tiles in enumerate(hands):
            if tiles:
                remaining[seat] = tuple(tiles) if rng.random() < 0.5 else sum(t.pips for t in tiles)
        game.push(Settle(remaining))
    return hands


def _deal_and_lead(game: Game, rng: random.Random) -> tuple[list[list[Tile]], list[Tile], Tile]:
    """Deal the hands (again while the highest double to lead lay only in the last of the
    boneyard), begin the hand, and choose the tile it is led with: the hands, the boneyard
    and that tile."""
    players = len(game.players)
    size = game.rules.hand_size
    leader = game.next_leader
    by_double = leader is None and game.rules.lead == "highest-double"
    while True:
        shuffled = list(game.rules.tile_set.tiles)
        rng.shuffle(shuffled)
        hands = [shuffled[seat * size : (seat + 1) * size] for seat in range(players)]
        boneyard = shuffled[players * size :]
        if not by_double:
            game.push(NewHand(rng.randrange(players) if leader is None else leader))
            hand = game.hand
            assert hand is not None
            return hands, boneyard, rng.choice(hands[hand.leader])
        found = _redraws(hands, boneyard, game.rules.boneyard_reserve)
        if found is not None:  # else every double lay in the last of the boneyard: deal again
            redraws, first = found
            seat = next(seat for seat, held in enumerate(hands) if first in held)
            game.push(NewHand(seat, "double", redraws))
            return hands, boneyard, first


def _take_turn(
    game: Game, seat: int, hands: list[list[Tile]], boneyard: list[Tile], rng: random.Random
) -> None:
    """Seat ``seat``'s turn: draw until a tile fits and play one, or pass once nothing can be
    drawn."""
    pending = 0
    while True:
        playable = [(t, end) for t in hands[seat] for end in game.fits(t)]
        if playable:
            _flush_draws(game, seat, pending, rng)
            chosen, end = rng.choice(playable)
            named = end if len(game.fits(chosen)) > 1 or rng.random() < 0.5 else None
            hands[seat].remove(chosen)
            game.push(Play(seat, chosen, named))
            return
        if game.drawable() - pending > 0:
            hands[seat].append(boneyard.pop())
            pending += 1
            continue
        _flush_draws(game, seat, pending, rng)
        game.push(Pass(seat))
        return


def play_game(setup: Setup, rng: random.Random, max_hands: int = 100) -> Game:
    """Play hands until a side wins or ``max_hands`` have been played."""
    game = Game(setup)
    while game.winner is None and len(game.hands) < max_hands:
        play_hand(game, rng)
    return game
