"""What the rooms share: naming a seat, checking a seat and a turn, saying the game is over or how
a hand ended, and the win check a settlement and an adjustment both make."""

from __future__ import annotations

from typing import Literal

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import is_whole
from scorekeeper.rules.messages import Fact, Message, say
from scorekeeper.rules.state import GameState, Hand

Turn = Literal["play", "draw", "pass"]
"""What a player does in their turn."""


def name(game: GameState, seat: int) -> str:
    """The name of the player in seat ``seat``."""
    return game.setup.players[seat]


def check_seat(game: GameState, seat: object) -> None:
    """Refuse what is not a seat of this table."""
    if not is_whole(seat):
        raise MalformedInput(say("%(seat)s is not a seat.", seat=repr(seat)))
    if not 0 <= seat < len(game.setup.players):
        raise MalformedInput(say("There is no seat %(seat)s at this table.", seat=seat + 1))


def check_turn(game: GameState, seat: int, action: Turn) -> Hand:
    """Rules game-over, hand-over, lead and turn, common to plays, draws and passes."""
    check_seat(game, seat)
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    hand = game.hand
    if hand is None:
        raise IllegalEntry("lead", say("Hand 1 has not begun: choose who leads it first."))
    if hand.settlement is not None:
        settled: dict[str, Fact] = {
            "hand": hand.number,
            "player": name(game, seat),
            "next": hand.number + 1,
        }
        raise IllegalEntry(
            "hand-over",
            _by_action(
                action,
                play=say(
                    "Hand %(hand)s is over and settled: %(player)s cannot play "
                    "until hand %(next)s is led.",
                    **settled,
                ),
                draw=say(
                    "Hand %(hand)s is over and settled: %(player)s cannot draw "
                    "until hand %(next)s is led.",
                    **settled,
                ),
                pass_=say(
                    "Hand %(hand)s is over and settled: %(player)s cannot pass "
                    "until hand %(next)s is led.",
                    **settled,
                ),
            ),
        )
    if hand.is_over:
        over: dict[str, Fact] = {
            "hand": hand.number,
            "how": how_it_ended(game, hand),
            "player": name(game, seat),
        }
        raise IllegalEntry(
            "hand-over",
            _by_action(
                action,
                play=say(
                    "Hand %(hand)s is over (%(how)s): %(player)s cannot play. "
                    "Enter what each player still holds.",
                    **over,
                ),
                draw=say(
                    "Hand %(hand)s is over (%(how)s): %(player)s cannot draw. "
                    "Enter what each player still holds.",
                    **over,
                ),
                pass_=say(
                    "Hand %(hand)s is over (%(how)s): %(player)s cannot pass. "
                    "Enter what each player still holds.",
                    **over,
                ),
            ),
        )
    if not hand.plays:
        leads: dict[str, Fact] = {
            "leader": name(game, hand.leader),
            "hand": hand.number,
            "player": name(game, seat),
        }
        if seat != hand.leader:
            raise IllegalEntry(
                "lead",
                _by_action(
                    action,
                    play=say(
                        "%(leader)s leads hand %(hand)s: %(player)s cannot play "
                        "before %(leader)s has led a tile.",
                        **leads,
                    ),
                    draw=say(
                        "%(leader)s leads hand %(hand)s: %(player)s cannot draw "
                        "before %(leader)s has led a tile.",
                        **leads,
                    ),
                    pass_=say(
                        "%(leader)s leads hand %(hand)s: %(player)s cannot pass "
                        "before %(leader)s has led a tile.",
                        **leads,
                    ),
                ),
            )
        if action == "draw":
            raise IllegalEntry(
                "lead",
                say(
                    "%(leader)s leads hand %(hand)s and starts it by playing a tile, "
                    "not by drawing.",
                    leader=leads["leader"],
                    hand=hand.number,
                ),
            )
        if action == "pass":
            raise IllegalEntry(
                "lead",
                say(
                    "%(leader)s leads hand %(hand)s and starts it by playing a tile, "
                    "not by passing.",
                    leader=leads["leader"],
                    hand=hand.number,
                ),
            )
    if seat != hand.turn:
        raise IllegalEntry(
            "turn",
            say(
                "It is %(turn)s's turn, not %(player)s's.",
                turn=name(game, hand.turn),
                player=name(game, seat),
            ),
        )
    return hand


def game_over(game: GameState) -> Message:
    """What every entry after the win is refused with."""
    assert game.winner is not None
    if game.won_at_time:
        return say(
            "The game is over: time was called, and %(side)s won at the time limit with "
            "%(score)s. Nothing more can be entered.",
            side=game.sides[game.winner],
            score=game.scores[game.winner],
        )
    return say(
        "The game is over: %(side)s won with %(score)s (target %(target)s). "
        "Nothing more can be entered.",
        side=game.sides[game.winner],
        score=game.scores[game.winner],
        target=game.rules.target,
    )


def how_it_ended(game: GameState, hand: Hand) -> Message:
    """How ``hand`` ended, said in a clause: "Ann dominoed"."""
    if hand.result == "domino" and hand.went_out is not None:
        return say("%(went_out)s dominoed", went_out=name(game, hand.went_out))
    if hand.result == "blocked":
        return say("it is blocked: every player passed")
    return say("it was won")


def decide(game: GameState) -> None:
    """The win check after a settlement (docs/rules.md 8): the one highest side at or above
    the target wins; a tie for highest plays on, unless exact_target parts it."""
    best = max(game.scores)
    if best < game.rules.target:
        return
    leaders = [side for side, score in enumerate(game.scores) if score == best]
    if len(leaders) == 1:
        game.winner = leaders[0]
    elif game.rules.exact_target and best == game.rules.target:
        # docs/rules.md 8a: no score passes an exact target, so the leaders stand on it and can
        # gain nothing more (with winner-collects nothing can take them off either, and
        # another hand would never part them): the first to reach it wins. Two that one
        # settlement brought there together (a split blocked hand) go in the hand's turn
        # order, from its leader: the only order a hand puts its players in, and not
        # always the same seat first (after a blocked hand the leader is chosen by lot).
        # (An adjustment may pass an exact target: tied past it, they play on.)
        game.winner = game.on_target()[0].side


def decide_at_time(game: GameState) -> None:
    """The win check at the end of a hand once time is called with ``finish-hand``
    (docs/rules.md 8f): after :func:`decide`, the one highest side wins below the target too;
    level sides play on, a hand at a time, until one is ahead."""
    if game.winner is not None or game.time != "finish-hand":
        return
    best = max(game.scores)
    leaders = [side for side, score in enumerate(game.scores) if score == best]
    if len(leaders) == 1:
        game.winner = leaders[0]
        game.won_at_time = True


def _by_action(action: Turn, *, play: Message, draw: Message, pass_: Message) -> Message:
    """The one of three whole sentences that says ``action``: a play, a draw or a pass."""
    if action == "play":
        return play
    if action == "draw":
        return draw
    return pass_
