"""The referee: the rules of All Fives in pure Python (no web framework, no database).

A :class:`Game` is a :class:`Setup` plus an ordered list of events (:class:`NewHand`,
:class:`Play`, :class:`Draw`, :class:`Pass`, :class:`Settle`). Each event is applied whole or
refused with a :class:`Refusal` that names a rule id; the state is derived from the events.
"""

from scorekeeper.rules.errors import (
    RULE_IDS,
    IllegalEntry,
    MalformedInput,
    RecordRefusal,
    Refusal,
)
from scorekeeper.rules.events import (
    LEAD_WAYS,
    Adjust,
    Claim,
    Draw,
    Event,
    Guess,
    Held,
    LeadWay,
    NewHand,
    Pass,
    Play,
    Settle,
    TimeCalled,
)
from scorekeeper.rules.game import Game, Hand, HandResult, Move, Phase, Reached, Scored
from scorekeeper.rules.house_rule import HouseRule
from scorekeeper.rules.layout import End, Layout, is_arm_name
from scorekeeper.rules.options import HOUSE_RULES, PRESETS, Preset, Rules
from scorekeeper.rules.settlement import Settlement, round_to_five
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import ALL_TILES, Tile, parse_halves, parse_tile, tile

__all__ = [
    "ALL_TILES",
    "HOUSE_RULES",
    "LEAD_WAYS",
    "PRESETS",
    "RULE_IDS",
    "Adjust",
    "Claim",
    "Draw",
    "End",
    "Event",
    "Game",
    "Guess",
    "Hand",
    "HandResult",
    "Held",
    "HouseRule",
    "IllegalEntry",
    "Layout",
    "LeadWay",
    "MalformedInput",
    "Move",
    "NewHand",
    "Pass",
    "Phase",
    "Play",
    "Preset",
    "Reached",
    "RecordRefusal",
    "Refusal",
    "Rules",
    "Scored",
    "Settle",
    "Settlement",
    "Setup",
    "Tile",
    "TimeCalled",
    "is_arm_name",
    "parse_halves",
    "parse_tile",
    "round_to_five",
    "tile",
]
