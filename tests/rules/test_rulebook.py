"""The rulebook pages' data: every rule id, every house rule and preset, and what differs."""

from __future__ import annotations

from scorekeeper.rules.basics import rule_anchor
from scorekeeper.rules.errors import RULE_IDS
from scorekeeper.rules.game import Setup
from scorekeeper.rules.options import HOUSE_RULES, PRESETS
from scorekeeper.rules.rulebook import rulebook
from scorekeeper.rules.settlement import settle
from tests.rules.helpers import (
    DUO,
    DUO_DOMINO_OPTIONS,
    adjust,
    amended,
    duo_domino_events,
    hand,
    record,
    result_of,
)
from tests.rules.test_adjustments import duo


def test_every_rule_id_has_an_anchor_and_plain_words_in_precedence_order() -> None:
    book = rulebook(None)
    assert [entry.rule for entry in book.refusals] == list(RULE_IDS)
    assert len(book.refusals) == 16
    for entry in book.refusals:
        assert entry.anchor == rule_anchor(entry.rule) == f"rule-{entry.rule}"
        assert str(entry.title) and str(entry.text).endswith(".")
    assert len({str(entry.text) for entry in book.refusals}) == len(book.refusals)


def test_without_a_game_every_preset_and_house_rule_is_described() -> None:
    book = rulebook(None)
    assert book.preset is None
    assert [p.name for p in book.presets] == list(PRESETS)
    assert [p.anchor for p in book.presets] == [f"preset-{p}" for p in PRESETS]
    names = [entry.name for entry in book.house_rules]
    assert names == [rule.name for rule in HOUSE_RULES] + ["partners"]
    for entry in book.house_rules:
        assert entry.anchor == f"house-{entry.name}"
        assert entry.values and entry.value is None and not entry.differs
        assert [preset for preset, _ in entry.preset_defaults] == list(PRESETS)
    assert book.differing == ()


def test_presets_defaults_are_spelled_per_preset() -> None:
    by_name = {entry.name: entry for entry in rulebook(None).house_rules}
    assert {p: str(v) for p, v in by_name["target"].preset_defaults} == {
        "all-fives": "250 with 2 players, 200 with 3 players, 200 with 4 players",
        "fives-up": "100",
        "totally-fives": "200",
        "sniff": "200",
    }
    assert dict(by_name["spinner_counts"].preset_defaults)["sniff"] == "open-ends"
    assert str(dict(by_name["partners"].preset_defaults)["sniff"]) == "yes with 4 players"
    assert dict(by_name["settlement"].preset_defaults)["fives-up"] == "winner-collects"
    assert dict(by_name["bonus_in_fives"].preset_defaults)["totally-fives"] == "yes"
    assert str(dict(by_name["partners"].preset_defaults)["all-fives"]) == "yes with 4 players"
    spinners = [v.value for v in by_name["spinners"].values]
    assert spinners == ["first", "none", "all"]
    assert str(by_name["target"].values[0].text) == "a whole number from 5 to 1000 in steps of 5"


def test_a_games_rulebook_shows_the_values_in_force_and_what_differs() -> None:
    setup = Setup.create(
        ["Ann", "Bob"], "fives-up", {"spinners": "none", "boneyard_reserve": 2, "target": 100}
    )
    book = rulebook(setup.rules)
    assert book.preset is not None and book.preset.name == "fives-up"
    by_name = {entry.name: entry for entry in book.house_rules}
    assert (by_name["spinners"].value, by_name["spinners"].default) == ("none", "first")
    assert str(by_name["spinners"].value_text) == "no spinner: the layout is a line with two ends"
    assert str(by_name["boneyard_reserve"].value_text) == (
        "the last 2 tiles of the boneyard are never drawn"
    )
    assert (by_name["target"].value, by_name["target"].differs) == ("100", False)
    assert by_name["settlement"].value == "winner-collects"
    assert [entry.name for entry in book.differing] == ["spinners", "boneyard_reserve"]
    assert by_name["partners"].value is None  # two players: no partnership to choose


def test_partners_differ_only_when_chosen_against_the_preset() -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    default = Setup.create(players, "all-fives")
    apart = Setup.create(players, "all-fives", None, False)
    teams = Setup.create(players, "fives-up", None, True)
    for setup, value, differs in [
        (default, "yes", False),
        (apart, "no", True),
        (teams, "yes", True),
    ]:
        entry = {e.name: e for e in rulebook(setup.rules, setup.partners).house_rules}["partners"]
        assert (entry.value, entry.differs) == (value, differs)


def test_a_target_by_number_of_players() -> None:
    three = Setup.create(["Ann", "Bob", "Cy"], "all-fives", {"target": 250})
    entry = {e.name: e for e in rulebook(three.rules).house_rules}["target"]
    assert (entry.value, entry.default, entry.differs) == ("250", "200", True)
    assert str(entry.value_text) == "the game is won at 250 points"


def test_totally_fives_says_the_winner_collects_in_fives() -> None:
    # S3: "rounded to the closest 5 and then divided by 5".
    totally = {preset.name: preset for preset in rulebook(None).presets}["totally-fives"]
    assert "collects in fives" in str(totally.title)
    assert "rounded to the nearest five and then divided by 5" in str(totally.text)


def test_a_larger_sets_game_says_how_its_set_deals() -> None:
    # docs/rules.md 1a: with a larger set the standard deal is the set's (double-nine 9, 7 or 6
    # tiles each for 2-4, 5-6 or 7-8 players), not the preset's double-six 9, 7 or 5.
    six = Setup.create(
        ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], "all-fives", {"set": "double-nine"}
    )
    deal = {e.name: e for e in rulebook(six.rules).house_rules}["deal"]
    assert (deal.value, deal.differs) == ("standard", False)
    assert str(deal.value_text) == (
        "as the double-nine set deals: 9, 7 or 6 tiles each for 2-4, 5-6 or 7-8 players"
    )
    twelve = Setup.create(["Ann", "Bob"], "fives-up", {"set": "double-twelve"})
    deal = {e.name: e for e in rulebook(twelve.rules).house_rules}["deal"]
    assert str(deal.value_text) == (
        "as the double-twelve set deals: 12, 11 or 9 tiles each for 2-4, 5-6 or 7-8 players"
    )
    # five-each means 5 with any set; a double-six game still reads as the preset deals.
    five = Setup.create(["Ann", "Bob"], "all-fives", {"set": "double-twelve", "deal": "five-each"})
    deal = {e.name: e for e in rulebook(five.rules).house_rules}["deal"]
    assert str(deal.value_text) == "5 tiles each, whatever the number of players"
    plain = {e.name: e for e in rulebook(Setup.create(["Ann", "Bob"]).rules).house_rules}["deal"]
    assert str(plain.value_text).startswith("as the preset deals: All Fives 9, 7 or 5")
    set_entry = {e.name: e for e in rulebook(six.rules).house_rules}["set"]
    assert (set_entry.value, set_entry.default, set_entry.differs) == (
        "double-nine",
        "double-six",
        True,
    )


# -- the game in plain words (docs/rules.md 10): each worked example holds -------------------


def collected(
    preset: str, players: list[str], pips: dict[int, int], went_out: int | None
) -> list[int]:
    """What each side's score changes by when a hand of ``preset`` ends holding ``pips``."""
    setup = Setup.create(players, preset)
    return list(settle(pips, went_out, setup, setup.rules).changes)


def test_the_settlement_examples_are_what_the_referee_settles() -> None:
    trio = ["Ann", "Bob", "Cy"]
    # All Fives: Bob 7 loses 5, Cy 8 loses 10; partners 3 and 3 lose 5 + 5.
    assert collected("all-fives", trio, {1: 7, 2: 8}, 0) == [0, -5, -10]
    quad = ["Ann", "Bob", "Cy", "Dee"]
    assert collected("all-fives", quad, {1: 3, 3: 3}, 0) == [0, -10]
    # Fives-Up: 26 -> 25 -> 5; a blocked hand won holding 4: 26 - 4 = 22 -> 20 -> 4.
    assert collected("fives-up", DUO, {1: 26}, 0) == [5, 0]
    assert collected("fives-up", DUO, {0: 4, 1: 26}, None) == [4, 0]
    # The blocked hand's example: 13 - 4 = 9 -> 10 -> 2; a tie for fewest: nobody collects.
    assert collected("fives-up", DUO, {0: 4, 1: 13}, None) == [2, 0]
    assert collected("fives-up", DUO, {0: 4, 1: 4}, None) == [0, 0]
    # Totally Fives: 14 + 9 = 23 -> 25 -> 5; blocked, Cy on 3: 20 + 14 - 3 = 31 -> 30 -> 6.
    assert collected("totally-fives", trio, {1: 14, 2: 9}, 0) == [5, 0, 0]
    assert collected("totally-fives", trio, {0: 20, 1: 14, 2: 3}, None) == [0, 0, 6]


def test_the_blocked_tie_example_is_divided_where_the_preset_divides() -> None:
    split = {"blocked_tie": "split"}
    trio = ["Ann", "Bob", "Cy"]
    for preset, share in (("fives-up", 2), ("totally-fives", 2)):
        setup = Setup.create(trio, preset, split)
        assert list(settle({0: 4, 1: 4, 2: 17}, None, setup, setup.rules).changes) == [
            share,
            share,
            0,
        ]
    undivided = Setup.create(trio, "fives-up", {**split, "bonus_in_fives": "no"})
    assert list(settle({0: 4, 1: 4, 2: 17}, None, undivided, undivided.rules).changes) == [
        10,
        10,
        0,
    ]


def test_the_first_to_reach_the_target_is_who_win_check_says() -> None:
    """Bob reaches 250 first with a play (255), Ann later (250); Bob's 26 pips then take him
    back to 240. Checked at the end of the hand, Ann wins; checked at once, Bob did."""
    on_the_brink = {1: [adjust("Ann", 235), adjust("Bob", 240)]}
    settled = result_of(duo(on_the_brink))
    assert (settled["winner"], settled["scores"]) == ("Ann", {"Ann": 250, "Bob": 240})
    cut = record(
        DUO,
        [hand("Ann", amended(duo_domino_events()[:3], after=on_the_brink))],
        options={**DUO_DOMINO_OPTIONS, "win_check": "immediate"},
    )
    at_once = result_of(cut)
    assert (at_once["winner"], at_once["scores"]) == ("Bob", {"Ann": 235, "Bob": 255})


def test_each_basic_rule_has_its_paragraph_its_example_and_its_refusals() -> None:
    book = rulebook(None)
    everything = (*book.basics, *book.settlements, book.winning)
    names = [rule.name for rule in everything]
    assert names[:8] == [
        "count",
        "doubles",
        "spinner",
        "rounding",
        "drawing",
        "passing",
        "blocked",
        "leader",
    ]
    assert [rule.name for rule in book.settlements] == [f"settle-{p}" for p in PRESETS]
    assert len(set(names)) == len(names)
    for rule in everything:
        assert rule.anchor == f"basic-{rule.name}"
        assert str(rule.text).endswith(".") and str(rule.example).endswith(".")
        assert set(rule.refusals) <= set(RULE_IDS)
    # A game's rulebook gives its own preset's settlement alone.
    game = rulebook(Setup.create(DUO, "fives-up").rules)
    assert [rule.name for rule in game.settlements] == ["settle-fives-up"]
