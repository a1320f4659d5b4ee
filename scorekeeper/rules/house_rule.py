"""One house rule: its record name, the values it takes, each preset's default and its text in
plain words, and how a value a record or form gives is read. The house rules themselves are
listed in :mod:`scorekeeper.rules.options`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import Message, say

OptionValue = str | int
Default = OptionValue | Callable[[int], OptionValue]

# The values of the house rules that take one of a few words, as the record spells them.
Deal = Literal["standard", "five-each", "seven-five"]
SetName = Literal["double-six", "double-nine", "double-twelve"]
LeadRule = Literal["lots", "draw-highest", "highest-double"]
SpinnerMode = Literal["first", "none", "all"]
SpinnerCounts = Literal["yes", "no", "open-ends"]
SettlementMethod = Literal["deduct-own", "winner-collects"]
WinCheck = Literal["end-of-hand", "immediate"]
Units = Literal["points", "fives"]
BlockedTie = Literal["nobody", "split"]
YES_NO = ("yes", "no")

Word = TypeVar("Word", bound=str)


def one_of(value: object, choices: tuple[Word, ...]) -> Word | None:
    """``value`` as the one of ``choices`` it equals, or None when it equals none."""
    for choice in choices:
        if value == choice:
            return choice
    return None


@dataclass(frozen=True)
class HouseRule:
    """One house rule: its record name, allowed values, preset defaults and plain words.

    ``title``, ``text``, each of ``value_texts`` and ``example`` are said in the reader's
    language (:class:`~scorekeeper.rules.messages.Message`); ``example`` is "" when the rule
    has none. The name and the values are the record's words, never translated.
    """

    name: str
    title: Message
    text: Message
    defaults: Mapping[str, Default]
    choices: tuple[str, ...] = ()
    numbers: range | None = None
    value_texts: Mapping[str, Message] = field(default_factory=dict)
    number_choices: tuple[int, ...] = ()
    example: Message | str = ""

    def default(self, preset: str, players: int) -> OptionValue:
        """The value ``preset`` uses with ``players`` players."""
        value = self.defaults[preset]
        return value(players) if callable(value) else value

    def parse(self, value: object) -> OptionValue:
        """The canonical value for ``value`` as a record or form gives it, or a ``record`` refusal."""
        if self.number_choices:
            if isinstance(value, bool) or value not in self.number_choices:
                raise not_a_choice(self.name, tuple(map(str, self.number_choices)), value)
            assert isinstance(value, int)
            return value
        if self.numbers is not None:
            if isinstance(value, bool) or not isinstance(value, int) or value not in self.numbers:
                numbers = self.numbers
                if numbers.step > 1:
                    raise MalformedInput(
                        say(
                            "House rule %(rule)s takes a whole number from %(low)s to %(high)s, "
                            "a multiple of %(step)s, not %(given)s.",
                            rule=self.name,
                            low=numbers.start,
                            high=numbers[-1],
                            step=numbers.step,
                            given=shown(value),
                        )
                    )
                raise MalformedInput(
                    say(
                        "House rule %(rule)s takes a whole number from %(low)s to %(high)s, "
                        "not %(given)s.",
                        rule=self.name,
                        low=numbers.start,
                        high=numbers[-1],
                        given=shown(value),
                    )
                )
            return value
        if isinstance(value, bool) and set(YES_NO) <= set(self.choices):
            # A record may spell yes/no as JSON booleans, also for a rule with more values
            # (spinner_counts took only yes/no before open-ends, and old records say so).
            return "yes" if value else "no"
        if isinstance(value, str) and value in self.choices:
            return value
        raise not_a_choice(self.name, self.choices, value)

    def in_force(self, value: OptionValue) -> bool | int | str:
        """A canonical ``value`` as :class:`~scorekeeper.rules.options.Rules` holds it:
        ``yes``/``no`` a bool, a number an int, a word itself (refused with rule ``record``
        when it is not one of the choices)."""
        if self.choices == YES_NO:
            return value == "yes"
        if self.numbers is not None or self.number_choices:
            return int(value)
        chosen = one_of(value, self.choices)
        if chosen is None:
            raise not_a_choice(self.name, self.choices, value)
        return chosen


def not_a_choice(name: str, choices: tuple[str, ...], value: object) -> MalformedInput:
    """The refusal of ``value`` for house rule ``name``, which takes one of ``choices``."""
    return MalformedInput(
        say(
            "House rule %(rule)s is one of %(choices)s; not %(given)s.",
            rule=name,
            choices=", ".join(choices),
            given=shown(value),
        )
    )


def shown(value: object) -> str:
    """``value`` as the record would spell it, for a refusal to quote."""
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
