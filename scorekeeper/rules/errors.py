"""Refusals: every entry the referee will not accept names a rule id and says why in plain words.

The rule ids, in the order in which they are named when several apply:

``record``         the input is malformed (unknown player, not a tile, missing field, wrong type)
``game-over``      anything after the game has a winner
``hand-over``      a play, draw or pass after the hand has ended
``lead``           the wrong player leads, or the leader's first action is not a play
``turn``           it is not this player's turn
``tile-unique``    the tile is already on the table
``end-unknown``    the named end does not exist in this layout
``spinner-sides``  a spinner's end is named before both its sides are covered
``match``          the tile does not show the number of the chosen end, or fits no open end
``end-ambiguous``  no end is named and the tile fits more than one open end
``draw-empty``     a draw asks for more tiles than can be drawn
``pass-boneyard``  a pass while tiles can still be drawn
``remaining``      the pips or tiles held at the end of a hand are missing or impossible
``call``           a Muggins call or claim the rules do not allow
``guess``          a guess of a count the rules do not allow (practice mode)
``time``           time called twice, or before hand 1 is led (a club night's time limit)
"""

from __future__ import annotations

from typing import Literal, get_args

from scorekeeper.rules.messages import Message, say

RuleId = Literal[
    "record",
    "game-over",
    "hand-over",
    "lead",
    "turn",
    "tile-unique",
    "end-unknown",
    "spinner-sides",
    "match",
    "end-ambiguous",
    "draw-empty",
    "pass-boneyard",
    "remaining",
    "call",
    "guess",
    "time",
]
"""A rule a refusal cites, as docs/rules.md names it."""
RULE_IDS: tuple[RuleId, ...] = get_args(RuleId)


class Refusal(Exception):
    """An entry the referee refuses; ``rule`` is one of :data:`RULE_IDS`.

    ``said`` is why, as a :class:`Message` the site says in the reader's language;
    ``message`` is the same in English, as the record and the replay output give it.
    """

    rule: RuleId

    def __init__(self, rule: RuleId, message: Message | str) -> None:
        if rule not in RULE_IDS:
            raise ValueError(f"unknown rule id {rule!r}")
        said = message if isinstance(message, Message) else say(message)
        super().__init__(str(said))
        self.rule = rule
        self.said = said
        self.message = str(said)


class MalformedInput(Refusal):
    """The input itself is malformed (rule ``record``), before any rule of play is applied."""

    def __init__(self, message: Message | str) -> None:
        super().__init__("record", message)


class IllegalEntry(Refusal):
    """A well-formed entry that a rule of play forbids."""


class RecordRefusal(Refusal):
    """A refusal located in a game record: ``hand`` and ``event`` count from 1, or are None."""

    def __init__(
        self, rule: RuleId, message: Message | str, hand: int | None, event: int | None
    ) -> None:
        super().__init__(rule, message)
        self.hand = hand
        self.event = event

    def as_json(self) -> dict[str, object]:
        """The ``error`` object of the replay output."""
        return {"rule": self.rule, "hand": self.hand, "event": self.event, "message": self.message}
