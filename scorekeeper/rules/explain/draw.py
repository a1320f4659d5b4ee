"""Why: a draw and a pass, who, how many and what was left to draw (docs/rules.md section 4)."""

from __future__ import annotations

from scorekeeper.rules.events import (
    Draw,
    Pass,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    house,
    shows,
    tiles,
)
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.layout import Layout
from scorekeeper.rules.messages import Fact, Message, say, say_list


def _open_ends(layout: Layout) -> Message:
    return say(
        "The open ends were %(ends)s.",
        ends=say_list([shows(end.name, end.shows) for end in layout.ends()]),
    )


def _kept(game: Game, boneyard: int) -> dict[str, Fact]:
    """The tiles a reserve keeps out of the boneyard (house rule boneyard_reserve), as facts;
    none without a reserve."""
    reserve = game.rules.boneyard_reserve
    if not reserve:
        return {}
    return {"kept": min(boneyard, reserve), "rule": house("boneyard_reserve", reserve)}


def _draw(game: Game, hand: Hand, draw: Draw) -> tuple[Message, tuple[Message, ...]]:
    name = game.players[draw.player]
    reserve = game.rules.boneyard_reserve
    before = hand.boneyard + draw.count
    could = max(0, before - reserve)
    can = max(0, hand.boneyard - reserve)
    drawn = tiles(draw.count)
    kept = _kept(game, hand.boneyard)
    if kept:
        took = say(
            "%(player)s drew %(tiles)s: %(could)s could be drawn before, %(can)s now "
            "(%(kept)s kept in reserve, %(rule)s).",
            player=name,
            tiles=drawn,
            could=could,
            can=can,
            **kept,
        )
    else:
        took = say(
            "%(player)s drew %(tiles)s: %(could)s could be drawn before, %(can)s now.",
            player=name,
            tiles=drawn,
            could=could,
            can=can,
        )
    if can:
        still = say(
            "It is still %(player)s's turn: a drawn tile that fits must be played at once; "
            "otherwise draw again.",
            player=name,
        )
    else:
        still = say(
            "It is still %(player)s's turn: a drawn tile that fits must be played at once; "
            "otherwise pass, as nothing more can be drawn.",
            player=name,
        )
    lines = [
        _open_ends(hand.layout),
        took,
        say(
            "%(player)s now holds %(tiles)s.",
            player=name,
            tiles=tiles(hand.held[draw.player]),
        ),
        still,
    ]
    summary = say(
        "%(player)s drew %(tiles)s; %(can)s left to draw; still %(player)s's turn.",
        player=name,
        tiles=drawn,
        can=can,
    )
    return summary, tuple(lines)


def _pass(game: Game, hand: Hand, passing: Pass) -> tuple[Message, tuple[Message, ...]]:
    name = game.players[passing.player]
    players = len(game.players)
    kept = _kept(game, hand.boneyard)
    if kept:
        passed = say(
            "%(player)s passed: nothing could be drawn (%(kept)s kept in reserve, %(rule)s).",
            player=name,
            **kept,
        )
    else:
        passed = say("%(player)s passed: nothing could be drawn.", player=name)
    lines = [
        _open_ends(hand.layout),
        passed,
        say("Passes in a row: %(passes)s of %(players)s.", passes=hand.passes, players=players),
    ]
    if hand.result == "blocked":
        lines.append(
            say(
                "Every player has passed in turn: the hand is blocked (%(players)s passes).",
                players=players,
            )
        )
        summary = say("%(player)s passed; the hand is blocked.", player=name)
    else:
        nxt = game.players[hand.turn]
        lines.append(say("Next: %(player)s's turn.", player=nxt))
        summary = say("%(player)s passed; %(next)s's turn.", player=name, next=nxt)
    return summary, tuple(lines)


def tell_draw(game: Game, hand: Hand, draw: Draw, before: Before) -> Told:
    """How a draw was judged: its summary and lines."""
    summary, lines = _draw(game, hand, draw)
    return summary, lines, 0


def tell_pass(game: Game, hand: Hand, passing: Pass, before: Before) -> Told:
    """How a pass was judged: its summary and lines."""
    summary, lines = _pass(game, hand, passing)
    return summary, lines, 0
