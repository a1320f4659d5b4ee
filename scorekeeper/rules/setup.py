"""Who plays a game and by which rules: the players in seat order, the preset, the house
rules and whether partners play together. A :class:`~scorekeeper.rules.game.Game` is a setup
plus its events; settling a hand needs the setup's sides too, so it has a module of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.house_rule import OptionValue
from scorekeeper.rules.messages import say, say_list
from scorekeeper.rules.options import (
    Preset,
    Rules,
    check_combination,
    default_partners,
    parse_options,
    parse_preset,
    resolve,
)

MOST_PLAYERS = 8
"""The most seats a game has (with a larger set; a double-six set takes 4)."""
DOUBLE_SIX_MOST = 4
"""The most players a double-six set takes (docs/rules.md 1a): more need a larger set."""
PARTNERS_PLAYERS = 4
"""Partnerships need exactly this many players: seats 1 and 3 against seats 2 and 4."""


@dataclass(frozen=True)
class Setup:
    """Who plays, in seat order, and by which preset and house rules."""

    players: tuple[str, ...]
    preset: Preset = "all-fives"
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    partners: bool | None = None

    @classmethod
    def create(
        cls,
        players: Sequence[str],
        preset: object = "all-fives",
        options: object = None,
        partners: object = None,
    ) -> Setup:
        """A checked setup; malformed values are refused with rule ``record``."""
        if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= MOST_PLAYERS:
            raise MalformedInput(
                say(
                    "players lists 2 to 4 names in seat order (up to %(most)s with a larger set).",
                    most=MOST_PLAYERS,
                )
            )
        seen: set[str] = set()
        for name in players:
            if not isinstance(name, str) or not name.strip():
                raise MalformedInput(
                    say("A player's name is non-empty text, not %(given)s.", given=repr(name))
                )
            key = name.strip().casefold()
            if key in seen:
                raise MalformedInput(
                    say('Two players are called "%(player)s": names must differ.', player=name)
                )
            seen.add(key)
        checked_preset = parse_preset(preset)
        checked_options = parse_options({} if options is None else options)
        if (
            len(players) > DOUBLE_SIX_MOST
            and checked_options.get("set", "double-six") == "double-six"
        ):
            raise MalformedInput(
                say(
                    "A double-six set is for 2 to 4 players; %(count)s players need house rule "
                    "%(nine)s or %(twelve)s.",
                    count=len(players),
                    nine="set: double-nine",
                    twelve="set: double-twelve",
                )
            )
        if partners is not None:
            if not isinstance(partners, bool):
                raise MalformedInput(
                    say("partners is true or false, not %(given)s.", given=repr(partners))
                )
            if partners and len(players) != PARTNERS_PLAYERS:
                raise MalformedInput(say("Partnerships need 4 players."))
        setup = cls(tuple(players), checked_preset, checked_options, partners)
        check_combination(setup.rules, setup.in_partnership)
        return setup

    @cached_property
    def rules(self) -> Rules:
        """The house rules in force (worked out once: the referee asks at every entry)."""
        return resolve(self.preset, len(self.players), self.options)

    @cached_property
    def in_partnership(self) -> bool:
        """Whether seats 1 and 3 play against seats 2 and 4."""
        if self.partners is None:
            return default_partners(self.preset, len(self.players))
        return self.partners

    @cached_property
    def sides(self) -> tuple[str, ...]:
        """The names of the sides that keep a score, in seat order."""
        p = self.players
        if self.in_partnership:
            return (f"{p[0]} & {p[2]}", f"{p[1]} & {p[3]}")
        return p

    def side_of(self, seat: int) -> int:
        """The side that seat ``seat`` scores for."""
        return seat % 2 if self.in_partnership else seat

    def first_seats(self, start: int = 0) -> dict[int, int]:
        """Each side's first seat going round the table from seat ``start``, by side, in the
        order the sides are met: who speaks for a side (a claim, an adjustment)."""
        count = len(self.players)
        seats: dict[int, int] = {}
        for step in range(count):
            seat = (start + step) % count
            seats.setdefault(self.side_of(seat), seat)
        return seats

    @cached_property
    def _seats(self) -> dict[str, int]:
        return {player: seat for seat, player in enumerate(self.players)}

    def seat_of(self, name: object) -> int:
        """The seat of the player called ``name``, or a ``record`` refusal."""
        if isinstance(name, str) and name in self._seats:
            return self._seats[name]
        raise MalformedInput(
            say(
                "%(given)s is not a player in this game; the players are %(players)s.",
                given=repr(name),
                players=say_list(self.players),
            )
        )
