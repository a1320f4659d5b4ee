"""Tiles and their spellings, the deal, presets and house rules, sides and partners, the lead.

docs/rules.md sections 1, 2, 5 (the lead's orientation) and 8a.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import NewHand, Play
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.tiles import ALL_TILES, parse_tile, tile
from tests.rules.helpers import (
    DUO,
    QUAD,
    assert_refused,
    duo_domino,
    game_of,
    hand,
    play,
    quad_domino,
    record,
    result_of,
)
from tests.support.referee import spoken

NAMES = ["Ann", "Bob", "Cy", "Dee"]

# -- tiles ----------------------------------------------------------------------------------


def test_a_double_six_set() -> None:
    assert len(ALL_TILES) == 28
    assert len(set(ALL_TILES)) == 28
    assert sum(t.pips for t in ALL_TILES) == 168
    assert all(0 <= t.low <= t.high <= 6 for t in ALL_TILES)
    assert sum(t.is_double for t in ALL_TILES) == 7


@pytest.mark.parametrize("text", ["6-4", "4-6", "4 6", "46", "64", " 6-4 "])
def test_spellings_name_the_same_tile(text: str) -> None:
    assert parse_tile(text) == tile(6, 4) == tile(4, 6)
    assert str(parse_tile(text)) == "6-4"


@pytest.mark.parametrize("text", ["7-1", "6", "", "6-4-2", "six-four", "-1-2", "6/4", "66 6"])
def test_not_a_double_six_tile(text: str) -> None:
    with pytest.raises(MalformedInput) as caught:
        parse_tile(text)
    assert caught.value.rule == "record"


def test_tiles_are_written_high_number_first() -> None:
    assert str(tile(0, 3)) == "3-0"
    assert str(tile(5, 5)) == "5-5"


def test_tile_names_spoken_aloud() -> None:
    assert spoken(tile(6, 4)) == "six-four"
    assert spoken(tile(5, 5)) == "double five"
    assert spoken(tile(3, 0)) == "three-blank"


@pytest.mark.parametrize("spelling", ["4-6", "4 6", "46", "6-4", "64"])
def test_a_tile_spelled_differently_is_still_on_the_table(spelling: str) -> None:
    data = record(DUO, [hand("Ann", [play("Ann", "6-4"), play("Bob", spelling)])])
    assert_refused(data, "tile-unique", 1, 2)


def test_plays_in_any_spelling_are_replayed_high_first() -> None:
    events = [play("Ann", "4 6"), play("Bob", "16"), play("Ann", "4-3", "W")]
    plays = result_of(record(DUO, [hand("Ann", events)]))["hands"][0]["plays"]
    assert [p["tile"] for p in plays] == ["6-4", "6-1", "4-3"]
    assert [p["end"] for p in plays] == [None, "E", "W"]


# -- the lead's orientation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "west", "east"),
    [("6-4", 6, 4), ("4-6", 4, 6), ("46", 4, 6), ("6 4", 6, 4), ("3-0", 3, 0), ("0-3", 0, 3)],
)
def test_the_lead_shows_its_first_written_half_on_w(lead: str, west: int, east: int) -> None:
    game = game_of(record(DUO, [hand("Ann", [play("Ann", lead)])]))
    assert game.hand is not None
    assert [(e.name, e.shows) for e in game.hand.layout.ends()] == [("W", west), ("E", east)]


def test_a_tile_fitting_only_the_first_written_half_goes_on_w() -> None:
    for lead, end in (("4-6", "W"), ("6-4", "E")):
        data = record(DUO, [hand("Ann", [play("Ann", lead), play("Bob", "4-1")])])
        assert result_of(data)["hands"][0]["plays"][1]["end"] == end


def test_an_end_named_on_the_lead_is_ignored() -> None:
    data = record(DUO, [hand("Ann", [play("Ann", "6-4", "N"), play("Bob", "6-1", "W")])])
    assert [p["end"] for p in result_of(data)["hands"][0]["plays"]] == [None, "W"]


def test_the_written_record_keeps_the_leads_spelling() -> None:
    data = record(DUO, [hand("Ann", [play("Ann", "4-6"), play("Bob", "6-1", "E")])])
    written = write_record(game_of(data))
    assert written["hands"][0]["events"][0]["play"] == "4-6"
    assert game_of(written).hand is not None


def test_a_record_reads_back_as_written() -> None:
    data = duo_domino(more_hands=[hand("Ann", [play("Ann", "4-4")])])
    data["preset"] = "all-fives"
    written = write_record(game_of(data))
    assert written == {key: data[key] for key in written}
    assert list(written) == ["format", "preset", "options", "players", "hands"]


# -- the deal -------------------------------------------------------------------------------

DEALS = {
    ("all-fives", "standard"): {2: 9, 3: 7, 4: 5},
    ("fives-up", "standard"): {2: 7, 3: 5, 4: 5},
    ("totally-fives", "standard"): {2: 7, 3: 5, 4: 5},
    **{(preset, "five-each"): {2: 5, 3: 5, 4: 5} for preset in ("all-fives", "fives-up")},
    ("totally-fives", "five-each"): {2: 5, 3: 5, 4: 5},
    **{(preset, "seven-five"): {2: 7, 3: 5, 4: 5} for preset in ("all-fives", "fives-up")},
    ("totally-fives", "seven-five"): {2: 7, 3: 5, 4: 5},
}


@pytest.mark.parametrize(
    ("preset", "deal", "players"),
    [(preset, deal, n) for (preset, deal) in DEALS for n in (2, 3, 4)],
)
def test_deal_sizes(preset: str, deal: str, players: int) -> None:
    dealt = DEALS[(preset, deal)][players]
    options = {} if deal == "standard" else {"deal": deal}
    game = Game(Setup.create(NAMES[:players], preset, options))
    game.push(NewHand(0))
    assert game.hand is not None
    assert game.hand.held == [dealt] * players
    assert game.hand.boneyard == 28 - dealt * players


def test_deal_standard_given_explicitly() -> None:
    game = Game(Setup.create(NAMES[:3], "all-fives", {"deal": "standard"}))
    assert game.rules.hand_size == 7


@pytest.mark.parametrize("reserve", [0, 1, 2, 3, 4])
def test_boneyard_reserve_is_never_drawn(reserve: int) -> None:
    game = Game(Setup.create(NAMES[:4], "all-fives", {"boneyard_reserve": reserve}))
    game.push(NewHand(0))
    assert game.hand is not None
    assert game.hand.boneyard == 8
    assert game.drawable() == 8 - reserve


def test_boneyard_reserve_draws_up_to_the_reserve_then_passes() -> None:
    events = [play("Ann", "6-6"), {"player": "Bob", "draw": 8}, {"player": "Bob", "pass": True}]
    data = record(DUO, [hand("Ann", events)], options={"boneyard_reserve": 2})
    game = game_of(data)
    assert game.hand is not None
    assert (game.hand.boneyard, game.drawable(), game.hand.turn) == (2, 0, 0)


# -- presets and house rules ------------------------------------------------------------------

PRESET_TABLE: dict[str, dict[str, Any]] = {
    "all-fives": {
        "deal": "standard",
        "lead": "lots",
        "spinners": "first",
        "spinner_counts": "yes",
        "boneyard_reserve": 0,
        "settlement": "deduct-own",
        "win_check": "end-of-hand",
    },
    "fives-up": {
        "deal": "standard",
        "lead": "draw-highest",
        "spinners": "first",
        "spinner_counts": "yes",
        "boneyard_reserve": 0,
        "settlement": "winner-collects",
        "bonus_in_fives": True,
        "target": 100,
        "win_check": "end-of-hand",
    },
    "totally-fives": {
        "deal": "standard",
        "lead": "draw-highest",
        "spinners": "first",
        "spinner_counts": "yes",
        "boneyard_reserve": 0,
        "settlement": "winner-collects",
        "bonus_in_fives": True,
        "target": 200,
        "win_check": "end-of-hand",
    },
    "sniff": {
        "deal": "standard",
        "lead": "lots",
        "spinners": "first",
        "spinner_counts": "open-ends",
        "boneyard_reserve": 0,
        "settlement": "winner-collects",
        "bonus_in_fives": False,
        "target": 200,
        "win_check": "end-of-hand",
    },
}


@pytest.mark.parametrize("preset", list(PRESET_TABLE))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_preset_defaults(preset: str, players: int) -> None:
    rules = Setup.create(NAMES[:players], preset).rules
    for name, value in PRESET_TABLE[preset].items():
        assert getattr(rules, name) == value, name


@pytest.mark.parametrize(("players", "target"), [(2, 250), (3, 200), (4, 200)])
def test_all_fives_target(players: int, target: int) -> None:
    assert Setup.create(NAMES[:players]).rules.target == target


def test_house_rules_override_the_preset() -> None:
    options = {
        "deal": "five-each",
        "lead": "draw-highest",
        "spinners": "all",
        "spinner_counts": "no",
        "boneyard_reserve": 3,
        "settlement": "winner-collects",
        "bonus_in_fives": "yes",
        "target": 55,
        "win_check": "immediate",
    }
    rules = Setup.create(NAMES[:2], "all-fives", options).rules
    assert (rules.deal, rules.lead, rules.spinners) == ("five-each", "draw-highest", "all")
    assert (rules.spinner_counts, rules.boneyard_reserve) == ("no", 3)
    assert (rules.settlement, rules.bonus_in_fives) == ("winner-collects", True)
    assert (rules.target, rules.win_check) == (55, "immediate")


@pytest.mark.parametrize(
    "options",
    [
        {"deal": "nine-each"},
        {"lead": "highest"},
        {"spinners": "first-two"},
        {"spinner_counts": 1},
        {"boneyard_reserve": -1},
        {"settlement": "collect"},
        {"bonus_in_fives": "true"},
        {"target": 3},
        {"win_check": "never"},
        {"partners": True},
    ],
)
def test_unknown_house_rule_values_are_malformed(options: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        Setup.create(NAMES[:4], "all-fives", options)


@pytest.mark.parametrize(
    "options",
    [{"deal": "nine-each"}, {"lead": "highest"}, {"spinners": "first-two"}, {"win_check": 1}],
)
def test_a_setup_built_without_checks_still_cannot_play_an_unknown_rule(
    options: dict[str, Any],
) -> None:
    """A word no house rule takes is refused when the rules are worked out, not played by."""
    setup = Setup(tuple(NAMES[:2]), "all-fives", options)
    with pytest.raises(MalformedInput) as caught:
        Game(setup)
    assert next(iter(options)) in caught.value.message


# -- sides and partners -----------------------------------------------------------------------


def test_team_names_are_seat_one_and_three_against_two_and_four() -> None:
    assert result_of(quad_domino())["sides"] == ["Ann & Cy", "Bob & Dee"]
    assert Setup.create(["Wu", "Xi", "Yo", "Zed"]).sides == ("Wu & Yo", "Xi & Zed")


@pytest.mark.parametrize(
    ("preset", "players", "partners"),
    [
        ("all-fives", 4, True),
        ("fives-up", 4, False),
        ("totally-fives", 4, False),
        ("all-fives", 3, False),
        ("all-fives", 2, False),
    ],
)
def test_partners_default_per_preset(preset: str, players: int, partners: bool) -> None:
    setup = Setup.create(NAMES[:players], preset)
    assert setup.in_partnership is partners
    expected = ("Ann & Cy", "Bob & Dee") if partners else tuple(NAMES[:players])
    assert setup.sides == expected


def test_partners_chosen_against_the_preset() -> None:
    assert Setup.create(QUAD, "fives-up", partners=True).sides == ("Ann & Cy", "Bob & Dee")
    assert Setup.create(QUAD, "all-fives", partners=False).sides == tuple(QUAD)
    assert result_of(quad_domino(partners=False))["sides"] == QUAD


@pytest.mark.parametrize("players", [2, 3])
def test_partners_need_four_players(players: int) -> None:
    data = record(NAMES[:players], [], partners=True)
    assert_refused(data, "record", None, None)


def test_partners_score_for_their_team() -> None:
    game = Game(Setup.create(QUAD))
    game.push(NewHand(2))
    game.push(Play(2, tile(5, 5)))
    game.push(Play(3, tile(5, 0), "W"))
    game.push(Play(0, tile(5, 4), "E"))
    game.push(Play(1, tile(0, 0), "W"))
    # Cy 10, Dee 0 + 10 = 10, Ann 0 + 4 = 4 (no score), Bob 0 + 4 = 4 (no score).
    assert [p.count for p in game.hands[0].plays] == [10, 10, 4, 4]
    assert game.scores == [10, 10]
    assert game.side_of(0) == game.side_of(2) == 0
    assert game.side_of(1) == game.side_of(3) == 1


def test_sniff_deals_seven_six_five_and_plays_partners_with_four() -> None:
    # docs/rules.md sections 2 and 8d.
    assert [Setup.create(NAMES[:n], "sniff").rules.hand_size for n in (2, 3, 4)] == [7, 6, 5]
    four = Setup.create(NAMES[:4], "sniff")
    assert [four.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert Setup.create(NAMES[:4], "sniff", partners=False).side_of(3) == 3


@pytest.mark.parametrize("preset", ["all-fives", "fives-up", "totally-fives"])
def test_open_ends_goes_with_any_preset(preset: str) -> None:
    rules = Setup.create(NAMES[:2], preset, {"spinner_counts": "open-ends"}).rules
    assert rules.spinner_counts == "open-ends"


@pytest.mark.parametrize("value", ["open", "sniff", 1, None, "Open-Ends"])
def test_an_unknown_spinner_counts_is_refused_with_record(value: object) -> None:
    with pytest.raises(MalformedInput) as caught:
        Setup.create(NAMES[:2], "sniff", {"spinner_counts": value})
    assert caught.value.rule == "record"
    assert "yes, no, open-ends" in str(caught.value.said)


def test_spinner_counts_as_a_json_boolean_still_reads_as_before() -> None:
    # Records written while spinner_counts took only yes/no may spell it true/false.
    assert (
        Setup.create(NAMES[:2], "all-fives", {"spinner_counts": False}).rules.spinner_counts == "no"
    )
    assert Setup.create(NAMES[:2], "sniff", {"spinner_counts": True}).rules.spinner_counts == "yes"
