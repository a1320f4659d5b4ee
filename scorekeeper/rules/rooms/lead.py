"""A new hand: who leads it, how the leader was chosen, and (house rule lead: highest-double) how
many times every player redrew before the lead (docs/rules.md section 3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import LEAD_WAYS, NewHand, is_whole
from scorekeeper.rules.layout import Layout
from scorekeeper.rules.messages import say, say_n
from scorekeeper.rules.rooms.shared import check_seat, game_over, how_it_ended, name
from scorekeeper.rules.state import GameState, Hand


def enter(game: GameState, new: NewHand) -> None:
    """Check a new hand, then apply it: whole, or refused with nothing changed."""
    _check(game, new)
    _apply(game, new)


def _check(game: GameState, new: NewHand) -> None:
    _check_form(game, new)
    _check_when(game)
    _check_leader(game, new)


def _check_form(game: GameState, new: NewHand) -> None:
    """The entry on its own: a seat, a way the leader was chosen, redraws this game has."""
    check_seat(game, new.leader)
    if new.chosen is not None and new.chosen not in LEAD_WAYS:
        raise MalformedInput(
            say(
                "%(given)s is not a way to choose the leader: %(ways)s (or none recorded).",
                given=repr(new.chosen),
                ways=", ".join(LEAD_WAYS),
            )
        )
    redraws = new.redraws
    if not is_whole(redraws, 0):
        raise MalformedInput(
            say("Redraws are a whole number from 0 up, not %(given)s.", given=repr(redraws))
        )
    if redraws and game.rules.lead != "highest-double":
        raise MalformedInput(
            say(
                "Redraws belong to house rule lead: highest-double; this game plays "
                "lead: %(value)s, and nobody draws before the lead.",
                value=game.rules.lead,
            )
        )


def _check_when(game: GameState) -> None:
    """A hand begins once the one before it is over and settled, and the game is not."""
    if game.winner is not None:
        raise IllegalEntry("game-over", game_over(game))
    hand = game.hand
    if hand is not None and hand.result == "open":
        raise MalformedInput(
            say(
                "Hand %(hand)s is not over (nobody has dominoed and it is not blocked): "
                "hand %(next)s cannot begin.",
                hand=hand.number,
                next=hand.number + 1,
            )
        )
    if hand is not None and hand.settlement is None:
        raise IllegalEntry(
            "remaining",
            say(
                "Hand %(hand)s is over (%(how)s) but not settled: "
                "enter what each player still holds.",
                hand=hand.number,
                how=how_it_ended(game, hand),
            ),
        )


def _check_leader(game: GameState, new: NewHand) -> None:
    """The leader the rules name (who dominoed) leads with no choice and no redraw; redraws
    fit in the boneyard."""
    redraws = new.redraws
    hand = game.hand
    expected = game.next_leader
    if expected is not None and new.leader != expected:
        assert hand is not None
        raise IllegalEntry(
            "lead",
            say(
                "%(leader)s dominoed in hand %(hand)s and leads hand %(next)s, not %(player)s.",
                leader=name(game, expected),
                hand=hand.number,
                next=hand.number + 1,
                player=name(game, new.leader),
            ),
        )
    if expected is not None and redraws:
        assert hand is not None
        raise MalformedInput(
            say(
                "%(leader)s dominoed in hand %(hand)s and leads hand %(next)s with any tile: "
                "the highest double does not decide it, so nobody redraws.",
                leader=name(game, expected),
                hand=hand.number,
                next=hand.number + 1,
            )
        )
    if expected is not None and new.chosen is not None:
        assert hand is not None
        raise MalformedInput(
            say(
                "%(leader)s dominoed in hand %(hand)s, so the rules name the leader of "
                "hand %(next)s: nobody chose it (%(given)s given).",
                leader=name(game, expected),
                hand=hand.number,
                next=hand.number + 1,
                given=repr(new.chosen),
            )
        )
    if redraws:
        count, can = len(game.setup.players), game.rules.most_redraws
        if redraws > can:
            raise IllegalEntry(
                "draw-empty",
                say_n(
                    "%(count)s redraw is more than the boneyard allows: its %(boneyard)s "
                    "tiles give each of the %(players)s players at most %(most)s more.",
                    "%(count)s redraws are more than the boneyard allows: its %(boneyard)s "
                    "tiles give each of the %(players)s players at most %(most)s more.",
                    redraws,
                    boneyard=game.rules.boneyard_size - game.rules.boneyard_reserve,
                    players=count,
                    most=can,
                ),
            )


def _apply(game: GameState, new: NewHand) -> None:
    rules = game.rules
    count = len(game.setup.players)
    game.hands.append(
        Hand(
            number=len(game.hands) + 1,
            leader=new.leader,
            layout=Layout(rules.spinners, rules.spinner_counts),
            held=[rules.hand_size + new.redraws] * count,
            drawn=[0] * count,
            boneyard=rules.boneyard_size - new.redraws * count,
            redraws=new.redraws,
            double_lead=rules.lead == "highest-double" and game.next_leader is None,
            turn=new.leader,
            scores_before=list(game.scores),
            in_before=list(game.sides_in),
        )
    )
    game.starts.append(len(game.events))  # the new hand is the event about to be added


def store(new: NewHand) -> dict[str, Any]:
    """A new hand as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    begun: dict[str, Any] = {"leader": new.leader}
    if new.chosen is not None:
        begun["chosen"] = new.chosen
    if new.redraws:  # only under lead: highest-double; older rows never have it
        begun["redraws"] = new.redraws
    return begun


def restore(data: Mapping[str, Any]) -> NewHand:
    """The new hand a stored row's data holds."""
    return NewHand(data["leader"], data.get("chosen"), data.get("redraws", 0))
