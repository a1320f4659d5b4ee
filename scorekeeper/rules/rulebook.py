"""The rulebook pages' data: presets, house rules and the rule ids refusals name.

:func:`rulebook` with a game's :class:`Rules` lists the preset and every house rule in force,
each with its value in plain words and whether it differs from the preset; without rules it
describes every preset and every value a house rule can take. Every entry has an anchor id
(``rule-match``, ``house-spinners``, ``preset-fives-up``) so a refusal can link to
``/rules#rule-match`` or a game's ``/games/<id>/rules#rule-match``.

Every title and text is a :class:`~scorekeeper.rules.messages.Message` (the site says it in
the reader's language, ``str()`` gives the English); the texts of :mod:`options` (house
rules' titles, texts, value texts and examples, preset titles) are passed on as they come.
Anchors, rule ids, preset names and house-rule values are never words: they stay ``str``.

The game itself, rule by rule, is in :mod:`scorekeeper.rules.basics`, with the anchors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.rules.basics import (
    ADJUSTMENTS_ANCHOR,
    BASIC_BY_RULE,
    BASIC_RULES,
    SETTLEMENT_RULES,
    WINNING_RULE,
    BasicRule,
    house_anchor,
    preset_anchor,
    rule_anchor,
)
from scorekeeper.rules.errors import RULE_IDS
from scorekeeper.rules.house_rule import HouseRule
from scorekeeper.rules.layout import END_NAMES
from scorekeeper.rules.messages import Message, say, say_n
from scorekeeper.rules.options import (
    HOUSE_RULES,
    HOUSE_RULES_BY_NAME,
    LARGER_DEAL,
    PRESET_TITLES,
    PRESETS,
    Preset,
    Rules,
    default_partners,
)
from scorekeeper.rules.tiles import SET_NAMES

Text = Message | str
"""Words on the page: a message, or a text from :mod:`options` said as it comes (the site
renders either with its ``say`` filter)."""

RULE_TITLES: dict[str, Message] = {
    "record": say("Well-formed entries"),
    "game-over": say("The game is over"),
    "hand-over": say("The hand is over"),
    "lead": say("Who leads"),
    "turn": say("Whose turn"),
    "tile-unique": say("Each tile once"),
    "end-unknown": say("Open ends only"),
    "spinner-sides": say("Spinner sides first"),
    "match": say("Matching numbers"),
    "end-ambiguous": say("Naming the end"),
    "draw-empty": say("Drawing from the boneyard"),
    "pass-boneyard": say("Passing"),
    "remaining": say("What is left at the end"),
    "call": say("Calling the count"),
    "guess": say("Guessing the count"),
    "time": say("The time limit of a club night"),
}

RULE_TEXTS: dict[str, Message] = {
    "record": say(
        "Every entry must be readable: players must be players of this game, tiles must be "
        "tiles of the game's set (two numbers from 0 to 6 in a double-six set, to 9 or 12 in "
        "a larger one, always with a dash), and no field may be missing or of the "
        "wrong kind."
    ),
    "game-over": say("Once a side has won, the game is finished: nothing more can be entered."),
    "hand-over": say(
        "When a player has dominoed or every player has passed in turn, the hand is over: no "
        "more plays, draws or passes until the next hand is led."
    ),
    "lead": say(
        "The player who dominoed in the previous hand leads the next one; the first leader, "
        "and the leader after a blocked hand, is chosen by the table. The leader opens the "
        "hand by playing a tile, never by drawing or passing. When the highest double leads "
        "(house rule lead: highest-double), that lead must be a double."
    ),
    "turn": say("Players act in seat order, one after the other, starting with the leader."),
    "tile-unique": say(
        "A set holds each tile once, so a tile already on the table cannot be played again."
    ),
    # End names are what a player types: never translated, so given as facts.
    "end-unknown": say(
        "A tile goes on an end that exists in the layout: %(west)s and %(east)s from the "
        "start, %(north)s and %(south)s once the spinner opens them, and %(later_north)s or "
        "%(later_south)s for a later spinner %(later)s.",
        **END_NAMES,
    ),
    "spinner-sides": say(
        "A spinner's ends (%(north)s and %(south)s, or %(later_north)s and %(later_south)s) "
        "open only after both of its sides have a tile against them.",
        north="N",
        south="S",
        later_north="d-d:N",
        later_south="d-d:S",
    ),
    "match": say(
        "The half of the tile that touches the layout must show the same number as the open "
        "end it is played on."
    ),
    "end-ambiguous": say("When a tile fits more than one open end, say which end it goes on."),
    "draw-empty": say(
        "Nobody can draw more tiles than the boneyard can give (tiles kept in reserve are "
        "never drawn)."
    ),
    "pass-boneyard": say(
        "A player who cannot play draws; passing is allowed only when nothing more can be drawn."
    ),
    "remaining": say(
        "At the end of a hand every player still holding tiles gives their pip total or their "
        "tiles, and the figures must be possible: nothing for the player who dominoed, a total "
        "that the number of tiles held can make from the tiles not on the table, and no more "
        "pips in all than are off the table (exactly that many when the boneyard is empty)."
    ),
    "call": say(
        "With house rule muggins, a play scores only when its player calls its count: a call "
        "can be the count's points or less (0: nothing called), never more. A count called "
        "short may be claimed once, by an opponent, directly after the play and before any "
        "other entry; after that it is lost."
    ),
    "guess": say(
        "With house rule practice, each play's count is hidden until the table guesses it: "
        "one guess, directly after the play and before any other entry, of 0 (no score) or "
        "a multiple of 5 the open ends could make. After the next entry the count is shown "
        "and the play counts as not guessed."
    ),
    "time": say(
        "At a club night's time limit time is called once in each game still on, after "
        "hand 1 is led. With finish-hand the hand being played is the last, and when it is "
        "settled the higher side wins; level sides play on a hand at a time. With "
        "to-target play goes on to the target."
    ),
}


ADJUSTMENTS_TITLE = say("Corrections agreed at the table")
ADJUSTMENTS_TEXT = say(
    "Tables settle mishaps among themselves: a penalty for drawing while able to play, a "
    "misdeal, a score agreed by hand. The scorekeeper may then adjust a side's score at any "
    "time before the game is won: up or down by a multiple of 5 points (any whole number "
    "when scores are kept in fives), with the reason in words. An adjustment is not a turn; "
    "the settlement, getting in and an exact target do not count it. The target is checked "
    "after it as after a settlement: at the hand's settlement, or at once when the game is "
    "won at once (house rule win_check: immediate). Between a settlement and the next lead "
    "the hand's end has come, so it is checked at once."
)

PRESET_TEXTS: dict[Preset, Message] = {
    "all-fives": say(
        "The classic rules: 9, 7 or 5 tiles for 2, 3 or 4 players, the first leader chosen by "
        "lot, the first double a spinner, and at the end of a hand every player's own pips, "
        "rounded to the nearest five, come off their own side's score. Four players play in "
        "partnership. Game to 250 with two players, 200 with three or more."
    ),
    "fives-up": say(
        "The family rules: 7, 5 or 5 tiles, the highest drawn tile leads first, and the winner "
        "of the hand collects the other sides' pips less their own, rounded to five and "
        "counted in fives. Game to 100."
    ),
    "totally-fives": say(
        "As Fives-Up: 7, 5 or 5 tiles, the highest drawn tile leads first, and the winner of "
        "the hand collects the other sides' pips less their own, rounded to the nearest five "
        "and then divided by 5. Game to 200."
    ),
    "sniff": say(
        "All Fives' close relative: 7, 6 or 5 tiles, the first leader chosen by lot, the first "
        "double a spinner whose ends count its number while nothing is played on them, and "
        "the winner of the hand collects the other sides' pips less their own, rounded to the "
        "nearest five and kept in points. Four players play in partnership. Game to 200."
    ),
}


def linked_titles() -> dict[str, Text]:
    """The title of every paragraph :func:`basics_of` names, by its anchor."""
    titles: dict[str, Text] = {
        basic.anchor: basic.title
        for basic in (*BASIC_RULES, *SETTLEMENT_RULES.values(), WINNING_RULE)
    }
    titles[house_anchor("muggins")] = HOUSE_RULES_BY_NAME["muggins"].title
    titles[house_anchor("practice")] = HOUSE_RULES_BY_NAME["practice"].title
    titles[ADJUSTMENTS_ANCHOR] = ADJUSTMENTS_TITLE
    return titles


PARTNERS_TITLE = say("Partners")
PARTNERS_TEXT = say(
    "With four players: whether seats 1 and 3 play as a team against seats 2 and 4, sharing "
    "one score."
)
PARTNERS_VALUE_TEXTS: dict[str, Message] = {
    "yes": say("seats 1 and 3 against seats 2 and 4, partners sitting across"),
    "no": say("every player keeps their own score"),
}


@dataclass(frozen=True)
class ValueText:
    """One value a house rule can take, and what it means."""

    value: str
    text: Text


@dataclass(frozen=True)
class PresetDefault:
    """A preset's default for a house rule, as the rules page shows it: the value in words,
    and as the record spells it (``value``; None when it depends on the number of players,
    which ``words`` then says)."""

    preset: str
    words: Text
    value: str | None


@dataclass(frozen=True)
class HouseRuleEntry:
    """A house rule on the rules page.

    ``values`` lists every value it can take with its meaning; ``preset_defaults`` each
    preset's default (the value as the record spells it, or in words when it depends on the
    number of players). With a game: ``value`` and ``value_text`` are what is in force,
    ``default`` the preset's value for this number of players and ``differs`` whether they
    differ; without a game these are None (and ``differs`` False).
    """

    name: str
    anchor: str
    title: Text
    text: Text
    values: tuple[ValueText, ...]
    preset_defaults: tuple[tuple[str, Text], ...]
    value: str | None = None
    value_text: Text | None = None
    default: str | None = None
    differs: bool = False
    example: Text = ""
    """A worked example, for the variations beyond the seeds."""
    in_game: Text = ""
    """With a game, what the rule comes to at its table, where it depends on the set and the
    number of players (the set's tiles and pips, the tiles dealt); "" otherwise."""
    preset_words: tuple[PresetDefault, ...] = ()
    """Each preset's default in words, beside the record's spelling of it."""


@dataclass(frozen=True)
class RefusalRule:
    """A rule id a refusal names, with its title and plain-words text."""

    rule: str
    anchor: str
    title: Message
    text: Message
    basic: BasicRule | None = None
    """The basic rule the refusal is about, where it is one (its link lands there)."""


@dataclass(frozen=True)
class PresetEntry:
    """A preset: its title and description."""

    name: str
    anchor: str
    title: Text
    text: Message


@dataclass(frozen=True)
class Rulebook:
    """Everything the rules pages show; ``preset`` is the game's preset, None without a game."""

    preset: PresetEntry | None
    presets: tuple[PresetEntry, ...]
    house_rules: tuple[HouseRuleEntry, ...]
    refusals: tuple[RefusalRule, ...]
    basics: tuple[BasicRule, ...] = BASIC_RULES
    """The rules of the game itself (docs/rules.md 10), each with a worked example."""
    settlements: tuple[BasicRule, ...] = ()
    """Each preset's settlement; a game's page shows its own preset's alone."""
    winning: BasicRule = WINNING_RULE
    adjustments_title: Message = ADJUSTMENTS_TITLE
    """Corrections agreed at the table (docs/rules.md 8c): every game may have them."""
    adjustments_text: Message = ADJUSTMENTS_TEXT

    @property
    def differing(self) -> tuple[HouseRuleEntry, ...]:
        """The house rules whose value in force differs from the preset's."""
        return tuple(entry for entry in self.house_rules if entry.differs)


def _number_text(name: str, value: int) -> Text:
    if name == "boneyard_reserve":
        if value == 0:
            return say("every tile of the boneyard can be drawn")
        return say_n(
            "the last %(count)s tile of the boneyard are never drawn",
            "the last %(count)s tiles of the boneyard are never drawn",
            value,
        )
    if name == "target":
        return say("the game is won at %(points)s points", points=value)
    return HOUSE_RULES_BY_NAME[name].value_texts.get(str(value), str(value))


def _value_text(rule: HouseRule, value: str | int) -> Text:
    if isinstance(value, int):
        return _number_text(rule.name, value)
    return rule.value_texts.get(value, value)


def _values(rule: HouseRule) -> tuple[ValueText, ...]:
    if rule.number_choices:
        return tuple(ValueText(str(n), _number_text(rule.name, n)) for n in rule.number_choices)
    if rule.numbers is None:
        return tuple(ValueText(value, _value_text(rule, value)) for value in rule.choices)
    numbers = rule.numbers
    low, high, step = numbers.start, numbers[-1], numbers.step
    if step > 1:
        text = say(
            "a whole number from %(low)s to %(high)s in steps of %(step)s",
            low=low,
            high=high,
            step=step,
        )
    else:
        text = say("a whole number from %(low)s to %(high)s", low=low, high=high)
    return (ValueText(f"{low}..{high}", text),)


def _preset_default(rule: HouseRule, preset: str) -> Text:
    two, three, four = (str(rule.default(preset, players)) for players in (2, 3, 4))
    if two == three == four:
        return two
    return say(
        "%(two)s with 2 players, %(three)s with 3 players, %(four)s with 4 players",
        two=two,
        three=three,
        four=four,
    )


def _preset_words(rule: HouseRule, preset: str) -> PresetDefault:
    two, three, four = (rule.default(preset, players) for players in (2, 3, 4))
    if two == three == four:
        return PresetDefault(preset, _value_text(rule, two), str(two))
    return PresetDefault(preset, _preset_default(rule, preset), None)


def in_force_words(rule: HouseRule, rules: Rules) -> Text:
    """The value of ``rule`` a game plays by, in words (the rules page's and the score
    sheet's): a larger set's own deal, a target in fives, else the value's plain words."""
    value = rules.value(rule.name)
    if rule.name == "target" and rules.in_fives:
        return say("the game is won at %(target)s in fives", target=value)
    if rule.name == "deal" and value == "standard" and rules.set in LARGER_DEAL:
        return _larger_deal(rules.set)
    return _value_text(rule, value)


def _larger_deal(set_name: str) -> Message:
    """The standard deal of a larger set (docs/rules.md 1a), which a preset's own does not give."""
    few, some, many = LARGER_DEAL[set_name]
    return say(
        "as the %(set)s set deals: %(few)s, %(some)s or %(many)s tiles each for 2-4, 5-6 or 7-8 "
        "players",
        set=SET_NAMES[set_name],
        few=few,
        some=some,
        many=many,
    )


def _house_entry(rule: HouseRule, rules: Rules | None) -> HouseRuleEntry:
    values = _values(rule)
    defaults = tuple((preset, _preset_default(rule, preset)) for preset in PRESETS)
    entry = HouseRuleEntry(
        rule.name,
        house_anchor(rule.name),
        rule.title,
        rule.text,
        values,
        defaults,
        example=rule.example,
        preset_words=tuple(_preset_words(rule, preset) for preset in PRESETS),
    )
    if rules is None:
        return entry
    value = rules.value(rule.name)
    default = rule.default(rules.preset, rules.players)
    if rule.name == "target" and rules.in_fives:
        default = int(default) // 5
    return replace(
        entry,
        value=str(value),
        value_text=in_force_words(rule, rules),
        default=str(default),
        differs=value != default,
        in_game=_in_game(rule.name, rules),
    )


def _in_game(name: str, rules: Rules) -> Text:
    """What house rule ``name`` comes to at a game's table: the set's own numbers, the deal."""
    if name == "set":
        tiles = rules.tile_set
        return say(
            "In this game: %(tiles)s tiles, numbers 0 to %(top)s, %(pips)s pips in all.",
            tiles=tiles.size,
            top=tiles.top,
            pips=tiles.total_pips,
        )
    if name == "deal":
        return say(
            "In this game: %(count)s tiles each for %(players)s players, %(boneyard)s left in "
            "the boneyard.",
            count=rules.hand_size,
            players=rules.players,
            boneyard=rules.boneyard_size,
        )
    return ""


def _partners_entry(rules: Rules | None, partners: bool | None) -> HouseRuleEntry:
    values = tuple(ValueText(v, t) for v, t in PARTNERS_VALUE_TEXTS.items())
    defaults = tuple(
        (
            preset,
            say("%(value)s with 4 players", value="yes") if default_partners(preset, 4) else "no",
        )
        for preset in PRESETS
    )
    words = tuple(
        PresetDefault(
            preset,
            say("%(value)s with 4 players", value=PARTNERS_VALUE_TEXTS["yes"]),
            "yes",
        )
        if default_partners(preset, 4)
        else PresetDefault(preset, PARTNERS_VALUE_TEXTS["no"], "no")
        for preset in PRESETS
    )
    entry = HouseRuleEntry(
        "partners",
        house_anchor("partners"),
        PARTNERS_TITLE,
        PARTNERS_TEXT,
        values,
        defaults,
        preset_words=words,
    )
    if rules is None or rules.players != 4:
        return entry
    default = default_partners(rules.preset, rules.players)
    chosen = default if partners is None else partners
    value = "yes" if chosen else "no"
    return replace(
        entry,
        value=value,
        value_text=PARTNERS_VALUE_TEXTS[value],
        default="yes" if default else "no",
        differs=chosen != default,
    )


def _preset_entry(preset: Preset) -> PresetEntry:
    return PresetEntry(preset, preset_anchor(preset), PRESET_TITLES[preset], PRESET_TEXTS[preset])


def rulebook(rules: Rules | None = None, partners: bool | None = None) -> Rulebook:
    """The rules pages' data, for a game played by ``rules`` or, with None, for all games.

    ``partners`` is the game's partnership choice (None: the preset's default); the
    ``partners`` entry carries a value only in a game of four.
    """
    house = [_house_entry(rule, rules) for rule in HOUSE_RULES]
    house.append(_partners_entry(rules, partners))
    refusals = tuple(
        RefusalRule(
            rule, rule_anchor(rule), RULE_TITLES[rule], RULE_TEXTS[rule], BASIC_BY_RULE.get(rule)
        )
        for rule in RULE_IDS
    )
    shown = PRESETS if rules is None else (rules.preset,)
    return Rulebook(
        settlements=tuple(SETTLEMENT_RULES[p] for p in shown if p in SETTLEMENT_RULES),
        preset=None if rules is None else _preset_entry(rules.preset),
        presets=tuple(_preset_entry(preset) for preset in PRESETS),
        house_rules=tuple(house),
        refusals=refusals,
    )
