"""A draw and a pass: a player who cannot play draws from the boneyard, and passes only once
nothing can be drawn (docs/rules.md section 4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import Draw, Pass, is_whole
from scorekeeper.rules.messages import Message, say, say_n
from scorekeeper.rules.rooms.shared import check_turn, name
from scorekeeper.rules.state import GameState


def enter_draw(game: GameState, draw: Draw) -> None:
    """Check a draw, then apply it: whole, or refused with nothing changed."""
    _check_draw(game, draw)
    _apply_draw(game, draw)


def _check_draw(game: GameState, draw: Draw) -> None:
    if not is_whole(draw.count, 1):
        raise MalformedInput(
            say("A draw takes 1 or more tiles, not %(given)s.", given=repr(draw.count))
        )
    hand = check_turn(game, draw.player, "draw")
    can = max(0, hand.boneyard - game.rules.boneyard_reserve)
    if draw.count > can:
        player = name(game, draw.player)
        left: Message
        if game.rules.boneyard_reserve and hand.boneyard:
            kept = min(hand.boneyard, game.rules.boneyard_reserve)
            if can:
                left = say_n(
                    "only %(count)s tile can be drawn (%(kept)s kept in reserve)",
                    "only %(count)s tiles can be drawn (%(kept)s kept in reserve)",
                    can,
                    kept=kept,
                )
            else:
                left = say("the boneyard is empty (%(kept)s kept in reserve)", kept=kept)
        elif can:
            left = say_n(
                "only %(count)s tile can be drawn", "only %(count)s tiles can be drawn", can
            )
        else:
            left = say("the boneyard is empty")
        if can:
            then = say("draw at most %(most)s", most=can)
        else:
            then = say("%(player)s must pass if no tile fits", player=player)
        raise IllegalEntry(
            "draw-empty",
            say_n(
                "%(player)s cannot draw a tile: %(left)s; %(then)s.",
                "%(player)s cannot draw %(count)s tiles: %(left)s; %(then)s.",
                draw.count,
                player=player,
                left=left,
                then=then,
            ),
        )


def _apply_draw(game: GameState, draw: Draw) -> None:
    hand = game.hand
    assert hand is not None
    hand.held[draw.player] += draw.count
    hand.drawn[draw.player] += draw.count
    hand.boneyard -= draw.count


def enter_pass(game: GameState, passing: Pass) -> None:
    """Check a pass, then apply it: whole, or refused with nothing changed."""
    _check_pass(game, passing)
    _apply_pass(game, passing)


def _check_pass(game: GameState, passing: Pass) -> None:
    hand = check_turn(game, passing.player, "pass")
    can = max(0, hand.boneyard - game.rules.boneyard_reserve)
    if can:
        raise IllegalEntry(
            "pass-boneyard",
            say_n(
                "%(player)s cannot pass while %(count)s tile can be drawn: draw until a tile fits.",
                "%(player)s cannot pass while %(count)s tiles can be drawn: "
                "draw until a tile fits.",
                can,
                player=name(game, passing.player),
            ),
        )


def _apply_pass(game: GameState, passing: Pass) -> None:
    hand = game.hand
    assert hand is not None
    hand.passes += 1
    hand.turn = (passing.player + 1) % len(hand.held)
    if hand.passes == len(hand.held):
        hand.result = "blocked"


def store_draw(draw: Draw) -> dict[str, Any]:
    """A draw as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    return {"player": draw.player, "count": draw.count}


def restore_draw(data: Mapping[str, Any]) -> Draw:
    """The draw a stored row's data holds."""
    return Draw(data["player"], data["count"])


def store_pass(passing: Pass) -> dict[str, Any]:
    """A pass as its stored row's data."""
    return {"player": passing.player}


def restore_pass(data: Mapping[str, Any]) -> Pass:
    """The pass a stored row's data holds."""
    return Pass(data["player"])
