"""Presets and house rules.

Every house rule is one :class:`HouseRule` entry in :data:`HOUSE_RULES`: its name as the
game record spells it, the values it takes, each preset's default and its text in plain
words. :class:`Rules` is the resolved set a game plays by. Adding a house rule means adding
an entry here, a field to :class:`Rules`, and the code that reads that field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar, get_args

from scorekeeper.rules.errors import MalformedInput

Preset = Literal["all-fives", "fives-up", "totally-fives"]
PRESETS: tuple[Preset, ...] = get_args(Preset)
PRESET_TITLES: dict[Preset, str] = {
    "all-fives": "All Fives (Muggins): deduct your own pips, 250 with two players",
    "fives-up": "Fives-Up: the winner collects in fives, game to 100",
    "totally-fives": "Totally Fives: the winner collects, game to 200",
}

OptionValue = str | int
Default = OptionValue | Callable[[int], OptionValue]

# The values of the house rules that take one of a few words, as the record spells them.
Deal = Literal["standard", "five-each", "seven-five"]
LeadRule = Literal["lots", "draw-highest"]
SpinnerMode = Literal["first", "none", "all"]
SettlementMethod = Literal["deduct-own", "winner-collects"]
WinCheck = Literal["end-of-hand", "immediate"]
Units = Literal["points", "fives"]
BlockedTie = Literal["nobody", "split"]
YES_NO = ("yes", "no")

_Word = TypeVar("_Word", bound=str)


def one_of(value: object, choices: tuple[_Word, ...]) -> _Word | None:
    """``value`` as the one of ``choices`` it equals, or None when it equals none."""
    for choice in choices:
        if value == choice:
            return choice
    return None


@dataclass(frozen=True)
class HouseRule:
    """One house rule: its record name, allowed values, preset defaults and plain words."""

    name: str
    title: str
    text: str
    defaults: Mapping[str, Default]
    choices: tuple[str, ...] = ()
    numbers: range | None = None
    value_texts: Mapping[str, str] = field(default_factory=dict)
    number_choices: tuple[int, ...] = ()
    example: str = ""

    def default(self, preset: str, players: int) -> OptionValue:
        """The value ``preset`` uses with ``players`` players."""
        value = self.defaults[preset]
        return value(players) if callable(value) else value

    def parse(self, value: object) -> OptionValue:
        """The canonical value for ``value`` as a record or form gives it, or a ``record`` refusal."""
        if self.number_choices:
            if isinstance(value, bool) or value not in self.number_choices:
                raise MalformedInput(
                    f"House rule {self.name} is one of "
                    f"{', '.join(map(str, self.number_choices))}; not {_show(value)}."
                )
            assert isinstance(value, int)
            return value
        if self.numbers is not None:
            if isinstance(value, bool) or not isinstance(value, int) or value not in self.numbers:
                step = self.numbers.step
                multiple = f", a multiple of {step}" if step > 1 else ""
                raise MalformedInput(
                    f"House rule {self.name} takes a whole number from {self.numbers.start} to "
                    f"{self.numbers[-1]}{multiple}, not {_show(value)}."
                )
            return value
        if self.choices == YES_NO and isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str) and value in self.choices:
            return value
        raise _not_a_choice(self.name, self.choices, value)


def _not_a_choice(name: str, choices: tuple[str, ...], value: object) -> MalformedInput:
    return MalformedInput(f"House rule {name} is one of {', '.join(choices)}; not {_show(value)}.")


def _show(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _all_fives_target(players: int) -> int:
    return 250 if players == 2 else 200


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "deal",
        "Tiles dealt",
        "How many tiles each player takes at the start of a hand; the rest is the boneyard.",
        {"all-fives": "standard", "fives-up": "standard", "totally-fives": "standard"},
        choices=get_args(Deal),
        value_texts={
            "standard": "as the preset deals: All Fives 9, 7 or 5 for 2, 3 or 4 players; "
            "Fives-Up and Totally Fives 7, 5 or 5",
            "five-each": "5 tiles each, whatever the number of players",
            "seven-five": "7 tiles each with 2 players, otherwise 5",
        },
    ),
    HouseRule(
        "lead",
        "First leader",
        "How the leader of the first hand (and of a hand after a blocked one) is chosen.",
        {"all-fives": "lots", "fives-up": "draw-highest", "totally-fives": "draw-highest"},
        choices=get_args(LeadRule),
        value_texts={
            "lots": "by lot",
            "draw-highest": "each player draws a tile; the highest pip total leads, a tie draws again",
        },
    ),
    HouseRule(
        "spinners",
        "Spinners",
        "Which doubles may be played on all four ways. A spinner's ends open only once both "
        "its sides are covered.",
        {"all-fives": "first", "fives-up": "first", "totally-fives": "first"},
        choices=get_args(SpinnerMode),
        value_texts={
            "first": "the first double laid is the spinner, its new arms are N and S",
            "none": "no spinner: the layout is a line with two ends",
            "all": "every double is a spinner; a later spinner d-d opens arms d-d:N and d-d:S",
        },
    ),
    HouseRule(
        "spinner_counts",
        "Spinner counts",
        "Whether the spinner's own pips count while it is at the tip of the line.",
        {"all-fives": "yes", "fives-up": "yes", "totally-fives": "yes"},
        choices=YES_NO,
        value_texts={
            "yes": "the spinner counts both halves while fewer than two sides are covered",
            "no": "the spinner's own pips never count",
        },
    ),
    HouseRule(
        "boneyard_reserve",
        "Boneyard reserve",
        "How many tiles of the boneyard are never drawn: with that many left it counts as empty.",
        {"all-fives": 0, "fives-up": 0, "totally-fives": 0},
        numbers=range(0, 5),
    ),
    HouseRule(
        "settlement",
        "End of hand",
        "What the pips still held at the end of a hand do to the scores.",
        {
            "all-fives": "deduct-own",
            "fives-up": "winner-collects",
            "totally-fives": "winner-collects",
        },
        choices=get_args(SettlementMethod),
        value_texts={
            "deduct-own": "each player's own pips, rounded to the nearest five, are taken off "
            "their own side's score",
            "winner-collects": "the winner of the hand scores the other sides' pips less their "
            "own, rounded to the nearest five",
        },
    ),
    HouseRule(
        "bonus_in_fives",
        "Bonus in fives",
        "With the winner collecting: whether the collected amount is divided by 5.",
        {"all-fives": "no", "fives-up": "yes", "totally-fives": "no"},
        choices=YES_NO,
        value_texts={
            "yes": "opponents holding 26 give 25, which is 5 points",
            "no": "opponents holding 26 give 25 points",
        },
    ),
    HouseRule(
        "target",
        "Target",
        "The score that wins the game.",
        {"all-fives": _all_fives_target, "fives-up": 100, "totally-fives": 200},
        numbers=range(5, 1001, 5),
    ),
    HouseRule(
        "win_check",
        "When the target is checked",
        "When a side that reaches the target wins.",
        {"all-fives": "end-of-hand", "fives-up": "end-of-hand", "totally-fives": "end-of-hand"},
        choices=get_args(WinCheck),
        value_texts={
            "end-of-hand": "after the hand is settled; the highest side at or above the target "
            "wins, a tie for highest plays another hand",
            "immediate": "also after every scoring play: the first side to reach it wins at once",
        },
    ),
)
VARIATIONS: tuple[HouseRule, ...] = (
    HouseRule(
        "units",
        "Scores kept in",
        "Points, or fives as a cribbage board keeps them (a count of 15 scores 3; the target "
        "is then in fives too, 61 as usual).",
        {"all-fives": "points", "fives-up": "points", "totally-fives": "points"},
        choices=get_args(Units),
        value_texts={
            "points": "points: a count of 15 scores 15",
            "fives": "fives: a count of 15 scores 3, settlements are divided by 5 too",
        },
        example="A count of 20 scores 4. Opponents holding 26 pips at the end of a hand give 25, which is 5 in fives. A game to 61 in fives is a game to 305 in points.",
    ),
    HouseRule(
        "exact_target",
        "Exact target",
        "Whether a side must reach the target exactly: a gain that would pass it scores nothing.",
        {"all-fives": "no", "fives-up": "no", "totally-fives": "no"},
        choices=YES_NO,
        value_texts={
            "yes": "a gain that would pass the target scores nothing (deductions still apply)",
            "no": "any score at or past the target reaches it",
        },
        example="In fives to 61: a side on 58 plays a count of 20 (4): 62 would pass 61, so it scores nothing and stays on 58; a count of 15 (3) takes it to 61 and it wins.",
    ),
    HouseRule(
        "get_in",
        "To get in",
        "How many points one play must score before a side's scores count (0: from the start).",
        {"all-fives": 0, "fives-up": 0, "totally-fives": 0},
        number_choices=(0, 10, 15, 20, 25),
        value_texts={
            "0": "every score counts from the start",
            **{
                str(n): f"a side scores nothing until one of its plays scores {n} or more"
                for n in (10, 15, 20, 25)
            },
        },
        example="Ten to get in: a side's first play counting 5 scores nothing; its first play counting 10 or more scores in full, and from then on every 5 counts.",
    ),
    HouseRule(
        "blocked_tie",
        "Blocked hand, tie for fewest",
        "With the winner collecting and no partners: what a tie for the fewest pips in a "
        "blocked hand gives.",
        {"all-fives": "nobody", "fives-up": "nobody", "totally-fives": "nobody"},
        choices=get_args(BlockedTie),
        value_texts={
            "nobody": "nobody collects",
            "split": "the tied players share the others' pips, each rounded to the nearest five",
        },
        example="Three players, blocked: Ann holds 4 pips, Bob 4, Cy 17. Ann and Bob tie for fewest and share Cy's 17: each scores 17 / 2 = 8.5, rounded to 10.",
    ),
)
"""The variations beyond the seeds (pagat, Hoyle, league rules): off in every preset."""
HOUSE_RULES = HOUSE_RULES + VARIATIONS
HOUSE_RULES_BY_NAME: dict[str, HouseRule] = {rule.name: rule for rule in HOUSE_RULES}
FIVES_TARGETS = range(1, 201)
"""A target in fives: any whole number from 1 to 200 (61 is the usual)."""

_STANDARD_DEAL: dict[Preset, dict[int, int]] = {
    "all-fives": {2: 9, 3: 7, 4: 5},
    "fives-up": {2: 7, 3: 5, 4: 5},
    "totally-fives": {2: 7, 3: 5, 4: 5},
}


def default_partners(preset: str, players: int) -> bool:
    """Partnerships are the default only in All Fives with four players."""
    return preset == "all-fives" and players == 4


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved house rules a game is played by."""

    preset: Preset
    players: int
    deal: Deal
    lead: LeadRule
    spinners: SpinnerMode
    spinner_counts: bool
    boneyard_reserve: int
    settlement: SettlementMethod
    bonus_in_fives: bool
    target: int
    win_check: WinCheck
    units: Units = "points"
    exact_target: bool = False
    get_in: int = 0
    blocked_tie: BlockedTie = "nobody"

    @property
    def in_fives(self) -> bool:
        """Whether every score (and the target) is kept in fives."""
        return self.units == "fives"

    @property
    def hand_size(self) -> int:
        """Tiles each player is dealt."""
        if self.deal == "five-each":
            return 5
        if self.deal == "seven-five":
            return 7 if self.players == 2 else 5
        return _STANDARD_DEAL[self.preset][self.players]

    @property
    def boneyard_size(self) -> int:
        """Tiles left face down after the deal."""
        return 28 - self.hand_size * self.players

    def value(self, name: str) -> OptionValue:
        """A house rule's value as the record spells it."""
        value = getattr(self, name)
        if isinstance(value, bool):
            return "yes" if value else "no"
        assert isinstance(value, (str, int))
        return value


def parse_preset(value: object) -> Preset:
    """The preset named by ``value``, or a ``record`` refusal."""
    preset = one_of(value, PRESETS)
    if preset is not None:
        return preset
    raise MalformedInput(f"The preset is one of {', '.join(PRESETS)}; not {_show(value)}.")


def parse_options(options: object) -> dict[str, OptionValue]:
    """House-rule overrides in canonical form, checked name by name."""
    if not isinstance(options, dict):
        raise MalformedInput('options is an object of house rules, such as {"spinners": "none"}.')
    parsed: dict[str, OptionValue] = {}
    for name, value in options.items():
        rule = HOUSE_RULES_BY_NAME.get(name)
        if rule is None:
            raise MalformedInput(
                f'There is no house rule "{name}"; the house rules are '
                f"{', '.join(r.name for r in HOUSE_RULES)}."
            )
        if name == "target" and options.get("units") == "fives":
            parsed[name] = _fives_target(value)
        else:
            parsed[name] = rule.parse(value)
    return parsed


def _fives_target(value: object) -> int:
    """A target in fives (with ``units: fives``), or a ``record`` refusal."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in FIVES_TARGETS:
        raise MalformedInput(
            f"House rule target is in fives with units fives: a whole number from "
            f"{FIVES_TARGETS.start} to {FIVES_TARGETS[-1]} (61 is the usual), not {_show(value)}."
        )
    return value


def resolve(preset: Preset, players: int, options: Mapping[str, OptionValue]) -> Rules:
    """The rules of ``preset`` for ``players`` players with ``options`` (canonical) overriding.

    An option that is not one of its house rule's values is refused with rule ``record``.
    """
    values = {
        rule.name: options.get(rule.name, rule.default(preset, players)) for rule in HOUSE_RULES
    }

    def word(name: str, choices: tuple[_Word, ...]) -> _Word:
        chosen = one_of(values[name], choices)
        if chosen is None:
            raise _not_a_choice(name, choices, values[name])
        return chosen

    return Rules(
        preset=preset,
        players=players,
        deal=word("deal", get_args(Deal)),
        lead=word("lead", get_args(LeadRule)),
        spinners=word("spinners", get_args(SpinnerMode)),
        spinner_counts=values["spinner_counts"] == "yes",
        boneyard_reserve=int(values["boneyard_reserve"]),
        settlement=word("settlement", get_args(SettlementMethod)),
        bonus_in_fives=values["bonus_in_fives"] == "yes",
        target=_target(values, preset, players, options),
        win_check=word("win_check", get_args(WinCheck)),
        units=word("units", get_args(Units)),
        exact_target=values["exact_target"] == "yes",
        get_in=int(values["get_in"]),
        blocked_tie=word("blocked_tie", get_args(BlockedTie)),
    )


def _target(
    values: Mapping[str, OptionValue], preset: str, players: int, options: Mapping[str, object]
) -> int:
    """The target in the game's units: in fives, left out, the preset's target divided by 5."""
    target = int(values["target"])
    if values["units"] == "fives" and "target" not in options:
        return target // 5
    return target


def check_combination(rules: Rules, partners: bool) -> None:
    """Refuse house rules that cannot go together (rule ``record``), in plain words."""
    if rules.blocked_tie == "split":
        if partners:
            raise MalformedInput(
                "House rule blocked_tie: split is only for games without partners: partners "
                "share a score, so a tie within a side has nothing to split."
            )
        if rules.settlement != "winner-collects":
            raise MalformedInput(
                "House rule blocked_tie: split needs settlement: winner-collects: with "
                "deduct-own nobody collects, so there is nothing to split."
            )
