"""A claim of a missed count: an opponent cries "Muggins!" directly after a play that called
short, and takes its points (house rule muggins, docs/rules.md 8b)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from scorekeeper.rules.errors import IllegalEntry
from scorekeeper.rules.events import Claim, Play
from scorekeeper.rules.gains import gets_in, play_gain
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms.shared import check_seat, game_over, name
from scorekeeper.rules.state import GameState, Hand, Move, Scored


def enter(game: GameState, claim: Claim) -> None:
    """Check a claim, then apply it: whole, or refused with nothing changed."""
    scored = _check(game, claim)
    _apply(game, claim, scored)


def _check(game: GameState, claim: Claim) -> Scored:
    """A Muggins claim (docs/rules.md 8b); return the play whose missed points it takes."""
    check_seat(game, claim.player)
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    claimant = name(game, claim.player)
    if not game.rules.muggins:
        raise IllegalEntry(
            "call",
            say(
                "%(claimant)s cannot cry Muggins: this game is played without calling the "
                "count (house rule muggins: no), so no count is ever missed.",
                claimant=claimant,
            ),
        )
    hand = game.hand
    last = game.events[-1] if game.events else None
    scored = hand.plays[-1] if hand is not None and hand.plays else None
    if isinstance(last, Claim) and scored is not None and scored.claimed_by is not None:
        raise IllegalEntry(
            "call",
            say(
                "%(claimant)s cannot claim: %(first)s already took the %(points)s points "
                "%(player)s missed with %(tile)s. A missed count is claimed once.",
                claimant=claimant,
                first=name(game, scored.claimed_by),
                points=scored.missed,
                player=name(game, scored.player),
                tile=str(scored.tile),
            ),
        )
    if not isinstance(last, Play) or scored is None or not scored.missed:
        lost = _last_missed(hand)
        if lost is None and hand is not None and not hand.plays and len(game.hands) > 1:
            lost = _last_missed(game.hands[-2])  # lost with the hand's settlement
        if lost is not None:
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot claim: the %(points)s points %(player)s missed "
                    "with %(tile)s were lost when the next entry was made. A claim comes "
                    "directly after the play that missed its count.",
                    claimant=claimant,
                    points=lost.missed,
                    player=name(game, lost.player),
                    tile=str(lost.tile),
                ),
            )
        raise IllegalEntry(
            "call",
            say(
                "%(claimant)s cannot claim: no count has just been missed. A claim comes "
                "directly after a play whose player called less than it scored.",
                claimant=claimant,
            ),
        )
    if game.side_of_seat[claim.player] == game.side_of_seat[scored.player]:
        player = name(game, scored.player)
        if claim.player == scored.player:
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot claim the %(points)s points of their own %(tile)s: "
                    "only an opponent may cry Muggins.",
                    claimant=claimant,
                    points=scored.missed,
                    tile=str(scored.tile),
                ),
            )
        raise IllegalEntry(
            "call",
            say(
                "%(claimant)s cannot claim the %(points)s points %(player)s missed: they "
                "play on the same side. Only an opponent may cry Muggins.",
                claimant=claimant,
                points=scored.missed,
                player=player,
            ),
        )
    return scored


def _apply(game: GameState, claim: Claim, scored: Scored) -> None:
    hand = game.hand
    assert hand is not None
    side = game.side_of_seat[claim.player]
    # docs/rules.md 8b: the claim is a gain from a play, for the claimant's side.
    gain = play_gain(scored.count, game.sides_in[side], game.scores[side], game.rules)
    if gets_in(scored.missed, game.rules):
        game.sides_in[side] = True
    game.scores[side] += gain.points
    hand.plays[-1] = replace(
        scored, claimed_by=claim.player, claimed=gain.points, claim_voided=gain.voided
    )
    hand.moves.append(Move("claim", claim.player, side, gain.points, len(hand.plays) - 1))
    if (
        gain.points
        and game.rules.win_check == "immediate"
        and game.scores[side] >= game.rules.target
    ):
        game.winner = side
        hand.result = "won"


def _last_missed(hand: Hand | None) -> Scored | None:
    """The last play of ``hand`` whose missed count nobody claimed, or None."""
    if hand is None:
        return None
    for scored in reversed(hand.plays):
        if scored.missed:
            return None if scored.claimed_by is not None else scored
    return None


def store(claim: Claim) -> dict[str, Any]:
    """A Muggins claim as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    return {"player": claim.player}


def restore(data: Mapping[str, Any]) -> Claim:
    """The claim a stored row's data holds."""
    return Claim(data["player"])
