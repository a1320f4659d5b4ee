"""Why: a new hand, who leads it and how that leader was chosen (docs/rules.md section 3)."""

from __future__ import annotations

from scorekeeper.rules.events import (
    LeadWay,
    NewHand,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    house,
    tiles,
)
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.house_rule import LeadRule
from scorekeeper.rules.messages import Message, say, say_n

_WAYS: dict[LeadWay, Message] = {
    "lot": say("by lot: the app picked a player at random"),
    "draw": say("by the draw for the lead: each player drew a tile, the highest pip total leading"),
    "table": say("at the table: the players agreed who leads"),
    "double": say("by the highest double: the player holding it leads it"),
}


_SHORT_WAYS: dict[LeadWay, Message] = {
    "lot": say("by lot"),
    "draw": say("by the draw for the lead"),
    "table": say("at the table"),
    "double": say("by the highest double"),
}


_HOUSE_WAY: dict[LeadRule, LeadWay] = {
    "lots": "lot",
    "draw-highest": "draw",
    "highest-double": "double",
}


def _chosen_how(game: Game, chosen: LeadWay) -> Message:
    """How a leader the rules left open was chosen, naming the house rule when it agrees."""
    rule = game.rules.lead
    how = _WAYS[chosen]
    if _HOUSE_WAY.get(rule) == chosen:
        return say("%(how)s (%(rule)s)", how=how, rule=house("lead", rule))
    return how


def _not_recorded(game: Game) -> Message:
    rule = game.rules.lead
    return say(
        "how the leader was chosen was not recorded (%(rule)s, %(way)s)",
        rule=house("lead", rule),
        way=_SHORT_WAYS[_HOUSE_WAY[rule]],
    )


def _new_hand(game: Game, hand: Hand, event: NewHand) -> tuple[Message, tuple[Message, ...]]:
    """Who leads a hand, and how that leader was chosen: as recorded, never guessed."""
    leader = game.players[hand.leader]
    lines: list[Message] = []
    previous = game.hands[-2] if hand.number > 1 else None
    chosen = event.chosen
    if previous is not None and previous.result == "domino" and previous.went_out is not None:
        lines.append(
            say(
                "%(player)s dominoed in hand %(previous)s, so %(leader)s leads hand %(hand)s.",
                player=game.players[previous.went_out],
                previous=previous.number,
                leader=leader,
                hand=hand.number,
            )
        )
        summary = say(
            "Hand %(hand)s begins: %(leader)s leads (dominoed in hand %(previous)s).",
            hand=hand.number,
            leader=leader,
            previous=previous.number,
        )
    else:
        if previous is None and chosen is None:
            lines.append(
                say(
                    "%(leader)s leads the first hand; %(how)s.",
                    leader=leader,
                    how=_not_recorded(game),
                )
            )
        elif previous is None and chosen is not None:
            lines.append(
                say(
                    "%(leader)s leads the first hand, chosen %(how)s.",
                    leader=leader,
                    how=_chosen_how(game, chosen),
                )
            )
        elif chosen is None:
            lines.append(
                say(
                    "Hand %(blocked)s was blocked, so the leader of hand %(hand)s was chosen "
                    "again: %(leader)s; %(how)s.",
                    blocked=hand.number - 1,
                    hand=hand.number,
                    leader=leader,
                    how=_not_recorded(game),
                )
            )
        else:
            lines.append(
                say(
                    "Hand %(blocked)s was blocked, so the leader of hand %(hand)s was chosen "
                    "again, %(how)s: %(leader)s.",
                    blocked=hand.number - 1,
                    hand=hand.number,
                    how=_chosen_how(game, chosen),
                    leader=leader,
                )
            )
        if chosen is None:
            summary = say(
                "Hand %(hand)s begins: %(leader)s leads.", hand=hand.number, leader=leader
            )
        else:
            summary = say(
                "Hand %(hand)s begins: %(leader)s leads, chosen %(how)s.",
                hand=hand.number,
                leader=leader,
                how=_SHORT_WAYS[chosen],
            )
    rules = game.rules
    lines.append(
        say(
            "Each player takes %(hand)s; %(boneyard)s stay face down in the boneyard.",
            hand=tiles(rules.hand_size),
            boneyard=tiles(rules.boneyard_size),
        )
    )
    if hand.redraws:
        lines.append(
            say_n(
                "Nobody held a double, so every player drew one more tile: %(boneyard)s "
                "stay in the boneyard.",
                "Nobody held a double, so every player drew one more tile, %(count)s times: "
                "%(boneyard)s stay in the boneyard.",
                hand.redraws,
                boneyard=tiles(rules.boneyard_size - hand.redraws * len(game.players)),
            )
        )
    if hand.double_lead:
        lines.append(
            say(
                "%(leader)s leads the highest double held, and must lead a double (%(rule)s).",
                leader=leader,
                rule=house("lead", rules.lead),
            )
        )
    else:
        lines.append(say("%(leader)s may lead any tile, double or not.", leader=leader))
    return summary, tuple(lines)


def tell(game: Game, hand: Hand, event: NewHand, before: Before) -> Told:
    """Why a hand begins as it does: its summary and lines."""
    summary, lines = _new_hand(game, hand, event)
    return summary, lines, 0
