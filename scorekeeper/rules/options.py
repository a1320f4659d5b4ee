"""Presets and house rules: the one registry of house rules.

Every house rule is one :class:`~scorekeeper.rules.house_rule.HouseRule` entry in :data:`HOUSE_RULES`: its name as the
game record spells it, the values it takes, each preset's default and its text in plain
words. :class:`Rules` is the resolved set a game plays by. Everything that lists the house
rules reads them from here: the record's ``options`` (:func:`parse_options`), the resolved
rules (:func:`resolve`), the new-game form's fields and their groups
(``scorekeeper/web/table/forms.py``, ``templates/_new_game_form.html``), a club's defaults,
the rulebook's table (``rulebook.py``), the score sheet's house-rules lines (``sheet.py``)
and the tests that walk every rule.

Adding a house rule, the checklist:

1. Its entry here, in :data:`SEED_RULES` (a rule the presets differ on, shown in the
   new-game form's House rules fold) or :data:`VARIATIONS` (off in every preset, shown under
   Variations), and its field in :class:`Rules`, typed as :meth:`HouseRule.in_force` makes it
   (``yes``/``no`` a bool, a number an int, a word its ``Literal``), with the "off" value as
   its default when it is a variation. The form, the rulebook, the sheet, club defaults and
   the record follow from the entry; ``tests/rules/test_registry.py`` checks the two agree.
   A rule that takes words has its ``Literal`` in :mod:`~scorekeeper.rules.house_rule`
   beside the others, so a new value is a word there too (``spinner_counts`` gaining
   ``open-ends``: that, its value text here, and the code of step 2).
2. The code of the rule itself: what reads the new field of :class:`Rules` (``game.py``,
   ``gains.py``, ``settlement.py``, ...), and in :func:`check_combination` any other rule it
   cannot go with.
3. The catalogs: ``make translations``, then the Swedish and Filipino words of its title,
   text, value texts and example.
4. Its tests: the engine's worked examples, and a corpus record (``tests/make_corpus.py``)
   that plays it.
5. The docs: its section in docs/rules.md, and its row in the README's table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.house_rule import (
    YES_NO,
    BlockedTie,
    Deal,
    HouseRule,
    LeadRule,
    OptionValue,
    SetName,
    SettlementMethod,
    SpinnerCounts,
    SpinnerMode,
    Units,
    WinCheck,
    one_of,
    shown,
)
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.practice_rule import PRACTICE
from scorekeeper.rules.tiles import TILE_SETS, TileSet

Preset = Literal["all-fives", "fives-up", "totally-fives", "sniff"]
PRESETS: tuple[Preset, ...] = get_args(Preset)
PRESET_TITLES: dict[Preset, Message] = {
    "all-fives": say("All Fives (Muggins): deduct your own pips, 250 with two players"),
    "fives-up": say("Fives-Up: the winner collects in fives, game to 100"),
    "totally-fives": say("Totally Fives: the winner collects in fives, game to 200"),
    "sniff": say(
        "Sniff: the spinner's open ends count, the winner collects in points, game to 200"
    ),
}
"""Each preset's title, as the new-game form and the rules page show it."""
PRESET_NAMES: dict[Preset, Message] = {
    "all-fives": say("All Fives (Muggins): deduct your own pips"),
    "fives-up": say("Fives-Up: the winner collects in fives"),
    "totally-fives": say("Totally Fives: the winner collects in fives"),
    "sniff": say("Sniff: the spinner's open ends count, the winner collects in points"),
}
"""Each preset's title without the target it sets, for a game whose own target is said beside
it (a game of three to 100 is not played "to 250 with two players")."""


def _all_fives_target(players: int) -> int:
    return 250 if players == 2 else 200


_END_NAMES: dict[str, str] = {
    "north": "N",
    "south": "S",
    "later": "d-d",
    "later_north": "d-d:N",
    "later_south": "d-d:S",
}
"""End names in the house rules' words: what a player types, the same in every language."""
_OPTIONS_EXAMPLE = '{"spinners": "none"}'
"""The record's options object, as the refusal of a malformed one shows it."""

SEED_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "deal",
        say("Tiles dealt"),
        say("How many tiles each player takes at the start of a hand; the rest is the boneyard."),
        {
            "all-fives": "standard",
            "fives-up": "standard",
            "totally-fives": "standard",
            "sniff": "standard",
        },
        choices=get_args(Deal),
        value_texts={
            "standard": say(
                "as the preset deals: All Fives 9, 7 or 5 for 2, 3 or 4 players; "
                "Fives-Up and Totally Fives 7, 5 or 5; Sniff 7, 6 or 5; a larger set as "
                "house rule set says"
            ),
            "five-each": say("5 tiles each, whatever the number of players"),
            "seven-five": say("7 tiles each with 2 players, otherwise 5"),
        },
    ),
    HouseRule(
        "set",
        say("Set"),
        say(
            "Which dominoes the table plays with: a larger set lets more players in (up to 8), "
            "and every number of the game follows the set."
        ),
        {
            "all-fives": "double-six",
            "fives-up": "double-six",
            "totally-fives": "double-six",
            "sniff": "double-six",
        },
        choices=get_args(SetName),
        value_texts={
            "double-six": say("28 tiles, numbers 0 to 6, 2 to 4 players"),
            "double-nine": say(
                "55 tiles, numbers 0 to 9, 2 to 8 players; 9, 7 or 6 tiles each "
                "for 2-4, 5-6 or 7-8 players"
            ),
            "double-twelve": say(
                "91 tiles, numbers 0 to 12, 2 to 8 players; 12, 11 or 9 tiles "
                "each for 2-4, 5-6 or 7-8 players"
            ),
        },
    ),
    HouseRule(
        "lead",
        say("First leader"),
        say("How the leader of the first hand (and of a hand after a blocked one) is chosen."),
        {
            "all-fives": "lots",
            "fives-up": "draw-highest",
            "totally-fives": "draw-highest",
            "sniff": "lots",
        },
        choices=get_args(LeadRule),
        value_texts={
            "lots": say("by lot"),
            "draw-highest": say(
                "each player draws a tile; the highest pip total leads, a tie draws again"
            ),
            "highest-double": say(
                "the player holding the highest double leads it; if nobody holds a double, "
                "everyone draws one more tile until someone does"
            ),
        },
    ),
    HouseRule(
        "spinners",
        say("Spinners"),
        say(
            "Which doubles may be played on all four ways. A spinner's ends open only once both "
            "its sides are covered."
        ),
        {"all-fives": "first", "fives-up": "first", "totally-fives": "first", "sniff": "first"},
        choices=get_args(SpinnerMode),
        value_texts={
            "first": say(
                "the first double laid is the spinner, its new arms are %(north)s and %(south)s",
                north=_END_NAMES["north"],
                south=_END_NAMES["south"],
            ),
            "none": say("no spinner: the layout is a line with two ends"),
            "all": say(
                "every double is a spinner; a later spinner %(later)s opens arms "
                "%(later_north)s and %(later_south)s",
                later=_END_NAMES["later"],
                later_north=_END_NAMES["later_north"],
                later_south=_END_NAMES["later_south"],
            ),
        },
    ),
    HouseRule(
        "spinner_counts",
        say("Spinner counts"),
        say(
            "Whether the spinner's own pips count while it is at the tip of the line, and "
            "whether its open ends count while nothing is played on them."
        ),
        {"all-fives": "yes", "fives-up": "yes", "totally-fives": "yes", "sniff": "open-ends"},
        choices=get_args(SpinnerCounts),
        value_texts={
            "yes": say("the spinner counts both halves while fewer than two sides are covered"),
            "no": say("the spinner's own pips never count"),
            "open-ends": say(
                "as yes, and once both sides are covered each of its ends with nothing on it "
                "counts the spinner's number"
            ),
        },
        example=say(
            "Open ends: lead 4-4 counts 8; 6-4 on W, 6 + 8 = 14; 1-4 on E covers the "
            "spinner's second side, and its two empty ends count 4 each: 6 + 1 + 4 + 4 = 15."
        ),
    ),
    HouseRule(
        "boneyard_reserve",
        say("Boneyard reserve"),
        say(
            "How many tiles of the boneyard are never drawn: with that many left it counts as "
            "empty."
        ),
        {"all-fives": 0, "fives-up": 0, "totally-fives": 0, "sniff": 0},
        numbers=range(0, 5),
    ),
    HouseRule(
        "settlement",
        say("End of hand"),
        say("What the pips still held at the end of a hand do to the scores."),
        {
            "all-fives": "deduct-own",
            "fives-up": "winner-collects",
            "totally-fives": "winner-collects",
            "sniff": "winner-collects",
        },
        choices=get_args(SettlementMethod),
        value_texts={
            "deduct-own": say(
                "each player's own pips, rounded to the nearest five, are taken off "
                "their own side's score"
            ),
            "winner-collects": say(
                "the winner of the hand scores the other sides' pips less their "
                "own, rounded to the nearest five"
            ),
        },
    ),
    HouseRule(
        "bonus_in_fives",
        say("Bonus in fives"),
        say("With the winner collecting: whether the collected amount is divided by 5."),
        {"all-fives": "no", "fives-up": "yes", "totally-fives": "yes", "sniff": "no"},
        choices=YES_NO,
        value_texts={
            "yes": say("opponents holding 26 give 25, which is 5 points"),
            "no": say("opponents holding 26 give 25 points"),
        },
    ),
    HouseRule(
        "target",
        say("Target"),
        say("The score that wins the game."),
        {"all-fives": _all_fives_target, "fives-up": 100, "totally-fives": 200, "sniff": 200},
        numbers=range(5, 1001, 5),
    ),
    HouseRule(
        "win_check",
        say("When the target is checked"),
        say("When a side that reaches the target wins."),
        {
            "all-fives": "end-of-hand",
            "fives-up": "end-of-hand",
            "totally-fives": "end-of-hand",
            "sniff": "end-of-hand",
        },
        choices=get_args(WinCheck),
        value_texts={
            "end-of-hand": say(
                "after the hand is settled; the highest side at or above the target "
                "wins, a tie for highest plays another hand"
            ),
            "immediate": say(
                "also after every scoring play: the first side to reach it wins at once"
            ),
        },
    ),
)
VARIATIONS: tuple[HouseRule, ...] = (
    HouseRule(
        "units",
        say("Scores kept in"),
        say(
            "Points, or fives as a cribbage board keeps them (a count of 15 scores 3; the target "
            "is then in fives too, 61 as usual)."
        ),
        {"all-fives": "points", "fives-up": "points", "totally-fives": "points", "sniff": "points"},
        choices=get_args(Units),
        value_texts={
            "points": say("points: a count of 15 scores 15"),
            "fives": say("fives: a count of 15 scores 3, settlements are divided by 5 too"),
        },
        example=say(
            "A count of 20 scores 4. Opponents holding 26 pips at the end of a hand give 25, "
            "which is 5 in fives. A game to 61 in fives is a game to 305 in points."
        ),
    ),
    HouseRule(
        "exact_target",
        say("Exact target"),
        say(
            "Whether a side must reach the target exactly: a gain that would pass it scores "
            "nothing, and when several sides stand on it the first to reach it wins."
        ),
        {"all-fives": "no", "fives-up": "no", "totally-fives": "no", "sniff": "no"},
        choices=YES_NO,
        value_texts={
            "yes": say("a gain that would pass the target scores nothing (deductions still apply)"),
            "no": say("any score at or past the target reaches it"),
        },
        example=say(
            "In fives to 61: a side on 58 plays a count of 20 (4): 62 would pass 61, so it "
            "scores nothing and stays on 58; a count of 15 (3) takes it to 61 and it wins. "
            "Checked at the end of the hand: Ann reaches 61 with a play, Bob later in the "
            "same hand; both stand on 61 when it is settled, and Ann, there first, wins. A "
            "deduction that takes a side off the target loses it its place; two sides that "
            "one settlement brings there together (a blocked hand's tie split) go in that "
            "hand's turn order, from its leader."
        ),
    ),
    HouseRule(
        "get_in",
        say("To get in"),
        say(
            "How many points one play must score before a side's scores count (0: from the start)."
        ),
        {"all-fives": 0, "fives-up": 0, "totally-fives": 0, "sniff": 0},
        number_choices=(0, 10, 15, 20, 25),
        value_texts={
            "0": say("every score counts from the start"),
            **{
                str(n): say(
                    "a side scores nothing until one of its plays scores %(points)s or more",
                    points=n,
                )
                for n in (10, 15, 20, 25)
            },
        },
        example=say(
            "Ten to get in: a side's first play counting 5 scores nothing; its first play "
            "counting 10 or more scores in full, and from then on every 5 counts."
        ),
    ),
    HouseRule(
        "blocked_tie",
        say("Blocked hand, tie for fewest"),
        say(
            "With the winner collecting and no partners: what a tie for the fewest pips in a "
            "blocked hand gives."
        ),
        {"all-fives": "nobody", "fives-up": "nobody", "totally-fives": "nobody", "sniff": "nobody"},
        choices=get_args(BlockedTie),
        value_texts={
            "nobody": say("nobody collects"),
            "split": say(
                "the tied players share the others' pips, each rounded to the nearest five"
            ),
        },
        example=say(
            "Three players, blocked: Ann holds 4 pips, Bob 4, Cy 17. Ann and Bob tie for "
            "fewest and share Cy's 17: each gets 17 / 2 = 8.5, rounded to 10, and scores 10, "
            "or 2 where the amount is divided by 5 (as in Fives-Up and Totally Fives)."
        ),
    ),
    HouseRule(
        "muggins",
        say("Muggins: call your count"),
        say(
            "Whether a play scores only what its player calls: a count called short scores "
            'nothing, and an opponent who cries "Muggins!" before the next entry takes it.'
        ),
        {"all-fives": "no", "fives-up": "no", "totally-fives": "no", "sniff": "no"},
        choices=YES_NO,
        value_texts={
            "yes": say("a play scores what its player calls; a missed count goes to Muggins!"),
            "no": say("every count is scored without a call"),
        },
        example=say(
            "Ann plays and the ends count 15, but she calls 10: her side scores nothing. Bob "
            'cries "Muggins!" before anything else is entered, and his side scores the 15. '
            "Had Bob played or drawn before crying it, the 15 would have been lost."
        ),
    ),
    PRACTICE,
)
"""The variations beyond the seeds (pagat, Hoyle, league rules): off in every preset."""
HOUSE_RULES: tuple[HouseRule, ...] = SEED_RULES + VARIATIONS
"""Every house rule, in the order the form, the rulebook and the sheet show them."""
HOUSE_RULES_BY_NAME: dict[str, HouseRule] = {rule.name: rule for rule in HOUSE_RULES}
FIVES_TARGETS = range(1, 201)
"""A target in fives: any whole number from 1 to 200 (61 is the usual)."""

_STANDARD_DEAL: dict[Preset, dict[int, int]] = {
    "all-fives": {2: 9, 3: 7, 4: 5},
    "fives-up": {2: 7, 3: 5, 4: 5},
    "totally-fives": {2: 7, 3: 5, 4: 5},
    "sniff": {2: 7, 3: 6, 4: 5},
}


LARGER_DEAL: dict[str, tuple[int, int, int]] = {
    "double-nine": (9, 7, 6),
    "double-twelve": (12, 11, 9),
}
"""docs/rules.md 1a: the standard deal with a larger set, for 2-4, 5-6 and 7-8 players."""


def default_partners(preset: str, players: int) -> bool:
    """Partnerships are the default in All Fives and Sniff with four players."""
    return preset in ("all-fives", "sniff") and players == 4


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved house rules a game is played by."""

    preset: Preset
    players: int
    deal: Deal
    lead: LeadRule
    spinners: SpinnerMode
    spinner_counts: SpinnerCounts
    boneyard_reserve: int
    settlement: SettlementMethod
    bonus_in_fives: bool
    target: int
    win_check: WinCheck
    units: Units = "points"
    exact_target: bool = False
    get_in: int = 0
    blocked_tie: BlockedTie = "nobody"
    set: SetName = "double-six"
    muggins: bool = False
    practice: bool = False

    @property
    def tile_set(self) -> TileSet:
        """The dominoes played with (house rule set)."""
        return TILE_SETS[self.set]

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
        if self.set != "double-six":
            few, some, many = LARGER_DEAL[self.set]
            return few if self.players <= 4 else some if self.players <= 6 else many
        return _STANDARD_DEAL[self.preset][self.players]

    @property
    def most_redraws(self) -> int:
        """How many times everyone can draw one more tile before a lead (highest-double): the
        drawable boneyard, one tile per player a time."""
        return max(0, self.boneyard_size - self.boneyard_reserve) // self.players

    @property
    def boneyard_size(self) -> int:
        """Tiles left face down after the deal."""
        return self.tile_set.size - self.hand_size * self.players

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
    raise MalformedInput(
        say(
            "The preset is one of %(presets)s; not %(given)s.",
            presets=", ".join(PRESETS),
            given=shown(value),
        )
    )


def parse_options(options: object) -> dict[str, OptionValue]:
    """House-rule overrides in canonical form, checked name by name."""
    if not isinstance(options, dict):
        raise MalformedInput(
            say(
                "options is an object of house rules, such as %(example)s.",
                example=_OPTIONS_EXAMPLE,
            )
        )
    parsed: dict[str, OptionValue] = {}
    for name, value in options.items():
        rule = HOUSE_RULES_BY_NAME.get(name)
        if rule is None:
            raise MalformedInput(
                say(
                    'There is no house rule "%(given)s"; the house rules are %(rules)s.',
                    given=str(name),
                    rules=", ".join(r.name for r in HOUSE_RULES),
                )
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
            say(
                "House rule %(rule)s is in fives with %(units)s: a whole number from %(low)s "
                "to %(high)s (61 is the usual), not %(given)s.",
                rule="target",
                units="units fives",
                low=FIVES_TARGETS.start,
                high=FIVES_TARGETS[-1],
                given=shown(value),
            )
        )
    return value


def resolve(preset: Preset, players: int, options: Mapping[str, OptionValue]) -> Rules:
    """The rules of ``preset`` for ``players`` players with ``options`` (canonical) overriding.

    An option that is not one of its house rule's values is refused with rule ``record``.
    """
    values = {
        rule.name: options.get(rule.name, rule.default(preset, players)) for rule in HOUSE_RULES
    }
    # Any: each value is checked against its rule's choices by in_force, which the field's
    # Literal type cannot see through a dict.
    in_force: dict[str, Any] = {rule.name: rule.in_force(values[rule.name]) for rule in HOUSE_RULES}
    in_force["target"] = _target(values, preset, players, options)
    return Rules(preset=preset, players=players, **in_force)


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
    if rules.practice and rules.muggins:
        raise MalformedInput(
            say(
                "House rule %(rule)s cannot go with %(other)s: a count its player calls "
                "aloud is not hidden for the table to guess.",
                rule="practice: yes",
                other="muggins: yes",
            )
        )
    if rules.blocked_tie == "split":
        if partners:
            raise MalformedInput(
                say(
                    "House rule %(rule)s is only for games without partners: partners share "
                    "a score, so a tie within a side has nothing to split.",
                    rule="blocked_tie: split",
                )
            )
        if rules.settlement != "winner-collects":
            raise MalformedInput(
                say(
                    "House rule %(rule)s needs %(needs)s: with %(other)s nobody collects, "
                    "so there is nothing to split.",
                    rule="blocked_tie: split",
                    needs="settlement: winner-collects",
                    other="deduct-own",
                )
            )
