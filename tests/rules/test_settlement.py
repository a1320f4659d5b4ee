"""The end of a hand (docs/rules.md section 8): rounding, deduct-own and winner-collects.

Before settling, the two-player domino hand stands at Ann 15, Bob 25 (Ann went out, Bob
holds four tiles); the blocked hand at Ann 5, Bob 0 (Ann holds 14 tiles, Bob 4); the
four-player hand at 0 for everyone (Ann went out, the others hold one tile each).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.settlement import round_to_five
from tests.rules.helpers import duo_blocked, duo_domino, game_of, quad_domino, result_of


def settled(data: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """The first hand's settlement per side and the game's scores after it."""
    result = result_of(data)
    return result["hands"][0]["settlement"], result["scores"]


# -- rounding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pips", "rounded"),
    [(7, 5), (8, 10), (12, 10), (13, 15), (2, 0), (3, 5), (0, 0), (1, 0), (5, 5), (26, 25)],
)
def test_round_to_the_nearest_five(pips: int, rounded: int) -> None:
    assert round_to_five(pips) == rounded


@pytest.mark.parametrize(("pips", "deducted"), [(7, 5), (8, 10), (12, 10), (13, 15), (26, 25)])
def test_deduct_own_rounds_what_is_held(pips: int, deducted: int) -> None:
    settlement, scores = settled(duo_domino(remaining={"Bob": pips}))
    assert settlement == {"Ann": 0, "Bob": -deducted}
    assert scores == {"Ann": 15, "Bob": 25 - deducted}


@pytest.mark.parametrize(("held", "deducted"), [("1-0", 0), ("2-1", 5), ("3-0", 5), ("5-4", 10)])
def test_deduct_own_rounds_a_single_tile(held: str, deducted: int) -> None:
    data = quad_domino(remaining={"Bob": [held], "Cy": ["4-1"], "Dee": ["4-2"]}, partners=False)
    settlement, _ = settled(data)
    assert settlement["Bob"] == -deducted


# -- deduct-own -----------------------------------------------------------------------------


def test_deduct_own_tiles_and_pip_total_settle_alike() -> None:
    by_tiles = settled(duo_domino(remaining={"Bob": ["5-4", "5-3", "4-2", "2-1"]}))
    by_total = settled(duo_domino(remaining={"Bob": 26}))
    assert by_tiles == by_total == ({"Ann": 0, "Bob": -25}, {"Ann": 15, "Bob": 0})


def test_deduct_own_each_partner_is_rounded_separately() -> None:
    # Bob and Dee hold 3 each: 5 + 5 = 10 off their side, not 6 rounded to 5.
    settlement, scores = settled(quad_domino())
    assert settlement == {"Ann & Cy": -5, "Bob & Dee": -10}
    assert scores == {"Ann & Cy": -5, "Bob & Dee": -10}


def test_deduct_own_without_partners_every_player_pays_their_own() -> None:
    settlement, _ = settled(quad_domino(partners=False))
    assert settlement == {"Ann": 0, "Bob": -5, "Cy": -5, "Dee": -5}


def test_deduct_own_scores_may_go_below_zero_and_nobody_collects() -> None:
    settlement, scores = settled(duo_blocked({"Ann": 62, "Bob": 28}))
    assert settlement == {"Ann": -60, "Bob": -30}
    assert scores == {"Ann": -55, "Bob": -30}
    found = game_of(duo_blocked({"Ann": 62, "Bob": 28})).hands[0].settlement
    assert found is not None and found.collector is None


# -- winner-collects ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["fives-up", "totally-fives"])
def test_winner_collects_bonus_in_fives_opponents_hold_26(preset: str) -> None:
    # S2's example: 26 -> 25 -> 5 points (both presets divide by 5).
    settlement, scores = settled(duo_domino(preset=preset))
    assert settlement == {"Ann": 5, "Bob": 0}
    assert scores == {"Ann": 20, "Bob": 25}


def test_totally_fives_winner_collecting_28_scores_6() -> None:
    # S3: "rounded to the closest 5 and then divided by 5": 28 -> 30 -> 6.
    data = duo_domino(remaining={"Bob": ["5-4", "5-3", "4-4", "2-1"]}, preset="totally-fives")
    settlement, scores = settled(data)
    assert settlement == {"Ann": 6, "Bob": 0}
    assert scores == {"Ann": 21, "Bob": 25}
    found = game_of(data).hands[0].settlement
    assert found is not None and (found.collector, found.collected) == (0, 28)


def test_winner_collects_without_bonus_in_fives_opponents_hold_26() -> None:
    data = duo_domino(preset="totally-fives", options={"bonus_in_fives": "no"})
    settlement, scores = settled(data)
    assert settlement == {"Ann": 25, "Bob": 0}
    assert scores == {"Ann": 40, "Bob": 25}


@pytest.mark.parametrize(
    ("preset", "options", "collected"),
    [
        ("all-fives", {"settlement": "winner-collects"}, 25),
        ("fives-up", {"bonus_in_fives": "no"}, 25),
        ("totally-fives", {"bonus_in_fives": "no"}, 25),
        ("totally-fives", {"bonus_in_fives": False}, 25),
    ],
)
def test_winner_collects_house_rules_override_the_preset(
    preset: str, options: dict[str, Any], collected: int
) -> None:
    settlement, _ = settled(duo_domino(preset=preset, options=options))
    assert settlement == {"Ann": collected, "Bob": 0}


@pytest.mark.parametrize(("pips", "collected"), [(7, 5), (8, 10), (12, 10), (13, 15)])
def test_winner_collects_rounds_what_is_collected(pips: int, collected: int) -> None:
    data = duo_domino(remaining={"Bob": pips}, options={"settlement": "winner-collects"})
    settlement, _ = settled(data)
    assert settlement == {"Ann": collected, "Bob": 0}


def test_winner_collects_in_a_blocked_hand_the_fewest_pips_collect_less_their_own() -> None:
    # Bob holds 28, Ann 62: Bob collects 62 - 28 = 34 -> 35 (not 60 for Ann's 62 alone).
    data = duo_blocked({"Ann": 62, "Bob": 28}, options={"settlement": "winner-collects"})
    settlement, scores = settled(data)
    assert settlement == {"Ann": 0, "Bob": 35}
    assert scores == {"Ann": 5, "Bob": 35}
    found = game_of(data).hands[0].settlement
    assert found is not None and (found.collector, found.collected) == (1, 34)


def test_winner_collects_in_a_blocked_hand_with_bonus_in_fives() -> None:
    options = {"settlement": "winner-collects", "bonus_in_fives": "yes"}
    settlement, _ = settled(duo_blocked({"Ann": 62, "Bob": 28}, options=options))
    assert settlement == {"Ann": 0, "Bob": 7}


def test_winner_collects_blocked_tie_for_fewest_nobody_collects() -> None:
    # Four tiles stay in reserve, so Ann draws only six: Ann and Bob both hold 32 pips.
    options = {"settlement": "winner-collects", "boneyard_reserve": 4}
    data = duo_blocked({"Ann": 32, "Bob": 32}, options=options, drawn=6)
    settlement, scores = settled(data)
    assert settlement == {"Ann": 0, "Bob": 0}
    assert scores == {"Ann": 5, "Bob": 0}


def test_winner_collects_a_partners_pips_neither_add_nor_subtract() -> None:
    # Ann went out; Bob 3 + Dee 3 = 6 -> 5. Cy's 5 would make it 10 (added) or 0 (subtracted).
    data = quad_domino(options={"settlement": "winner-collects"})
    settlement, scores = settled(data)
    assert settlement == {"Ann & Cy": 5, "Bob & Dee": 0}
    assert scores == {"Ann & Cy": 5, "Bob & Dee": 0}


def test_winner_collects_without_partners_collects_from_everyone() -> None:
    # totally-fives has no partners by default: 3 + 5 + 3 = 11 -> 10, in fives 2 (partners
    # would collect 3 + 3 = 6 -> 5, in fives 1).
    settlement, _ = settled(quad_domino(preset="totally-fives"))
    assert settlement == {"Ann": 2, "Bob": 0, "Cy": 0, "Dee": 0}


def test_winner_collects_with_partners_and_bonus_in_fives() -> None:
    data = quad_domino(options={"settlement": "winner-collects", "bonus_in_fives": "yes"})
    settlement, _ = settled(data)
    assert settlement == {"Ann & Cy": 1, "Bob & Dee": 0}
