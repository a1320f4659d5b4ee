"""The entries a game is made of. A game is its setup plus an ordered list of these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeGuard, get_args

from scorekeeper.rules.tiles import Tile


def is_whole(value: object, least: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (a bool is not one), at least ``least`` if given:
    the form of every count, seat and score an event holds."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return least is None or value >= least


Held = int | tuple[Tile, ...]
"""What a player still holds at the end of a hand: a pip total, or the tiles themselves."""


LeadWay = Literal["lot", "draw", "table", "double"]
"""How a leader the rules leave open was chosen: by lot (at random), by the draw for the lead
(each player draws a tile, the highest pip total leads), agreed at the table, or by holding
the highest double (house rule ``lead: highest-double``)."""
LEAD_WAYS: tuple[LeadWay, ...] = get_args(LeadWay)


@dataclass(frozen=True, slots=True)
class NewHand:
    """A hand begins, led by the seat ``leader``.

    ``chosen`` says how the leader was chosen, one of :data:`LEAD_WAYS`, when the rules left
    it open (the first hand, a hand after a blocked one); None when it was not recorded, or
    when the rules named the leader (who dominoed the hand before).

    ``redraws`` (house rule ``lead: highest-double`` only): how many times every player drew
    one more tile before the lead because nobody held a double.
    """

    leader: int
    chosen: LeadWay | None = None
    redraws: int = 0


@dataclass(frozen=True, slots=True)
class Play:
    """Seat ``player`` plays ``tile`` on the open end ``end`` (None: the only end it fits).

    ``flipped`` records that the tile was written low number first; on the lead that puts
    the low half on W.

    ``called`` (house rule ``muggins`` only): the points its player called, as counted; None
    when the player called the count right, which is what a play is taken to be without it.
    """

    player: int
    tile: Tile
    end: str | None = None
    flipped: bool = False
    called: int | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Seat ``player`` draws ``count`` tiles from the boneyard, one at a time."""

    player: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class Pass:
    """Seat ``player`` cannot play and cannot draw."""

    player: int


@dataclass(frozen=True, slots=True)
class Settle:
    """The end of a hand: what each seat still holding tiles has left."""

    remaining: Mapping[int, Held]


@dataclass(frozen=True, slots=True)
class Claim:
    """Seat ``player`` cries "Muggins!": their side takes the points the play just before
    missed by calling short (house rule ``muggins``). Not a turn."""

    player: int


@dataclass(frozen=True, slots=True)
class Adjust:
    """A correction agreed at the table: seat ``player``'s side gains ``points`` (in the
    game's units; negative: loses), for ``reason``. Not a turn."""

    player: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Guess:
    """Practice mode (house rule ``practice``): the table's guess of the count of the play
    just before, in points as counted (0: no score), credited to seat ``player``, who made
    that play. It shows the count, with right or wrong; it scores nothing. Not a turn."""

    player: int
    points: int


TimeRule = Literal["finish-hand", "to-target"]
"""What a club night does at a round's time limit (docs/rules.md 8f): the hand being played
is the last, then the higher side wins; or play goes on to the target."""
TIME_RULES: tuple[TimeRule, ...] = get_args(TimeRule)


@dataclass(frozen=True, slots=True)
class TimeCalled:
    """A club night's round reached its time limit while this game was on (docs/rules.md
    8f): with ``finish-hand`` the hand being played is the last, and when it is settled the
    higher side wins (at once, between hands); with ``to-target`` play goes on as before.
    Entered by the server, once a game; not a turn, and it names no player."""

    rule: TimeRule


REASON_LENGTH = 200
"""The most characters an adjustment's reason has (docs/rules.md 8c)."""


Event = NewHand | Play | Draw | Pass | Settle | Claim | Adjust | Guess | TimeCalled
