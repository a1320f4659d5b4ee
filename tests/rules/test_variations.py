"""Section 8a's variations: each worked example, the order get_in -> units -> exact_target,
the combinations refused, and what the explanations say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.rules import Game, MalformedInput, NewHand, Play, Reached, Setup, tile
from scorekeeper.rules.explain import explain
from scorekeeper.rules.gains import Gain, play_gain, settlement_gain
from scorekeeper.rules.options import Rules
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.rulebook import rulebook
from scorekeeper.rules.settlement import round_share, settle
from tests.rules.helpers import (
    DUO,
    DUO_DOMINO_OPTIONS,
    duo_domino,
    duo_domino_events,
    english,
    game_of,
    hand,
    play,
    record,
    result_of,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def rules_of(preset: str = "fives-up", players: int = 2, **options: object) -> Rules:
    """The rules of a checked setup with ``options``."""
    return Setup.create(["Ann", "Bob", "Cy", "Dee"][:players], preset, options).rules


# -- units: fives ---------------------------------------------------------------------------


def test_in_fives_a_count_of_15_scores_3_and_the_target_is_in_fives() -> None:
    rules = rules_of(units="fives")
    assert play_gain(15, True, 0, rules) == Gain(3, 3)
    assert play_gain(35, True, 0, rules) == Gain(7, 7)
    assert play_gain(14, True, 0, rules) == Gain(0, 0)
    assert rules.target == 20  # fives-up's 100, divided by 5
    assert rules_of("all-fives", units="fives").target == 50
    assert rules_of(units="fives", target=61).target == 61


def test_in_fives_a_collected_amount_is_rounded_then_divided_once() -> None:
    """S2's example: opponents hold 26 -> 25 -> 5; bonus_in_fives is not divided again."""
    setup = Setup.create(["Ann", "Bob"], "fives-up", {"units": "fives"})
    settled = settle({0: 0, 1: 26}, 0, setup, setup.rules)
    assert settled.changes == (5, 0)
    points = Setup.create(
        ["Ann", "Bob"], "totally-fives", {"units": "fives", "bonus_in_fives": "no"}
    )
    assert settle({0: 0, 1: 26}, 0, points, points.rules).changes == (5, 0)


def test_in_fives_deductions_are_rounded_then_divided() -> None:
    setup = Setup.create(["Ann", "Bob", "Cy"], "all-fives", {"units": "fives"})
    assert settle({0: 0, 1: 7, 2: 13}, 0, setup, setup.rules).changes == (0, -1, -3)


# -- exact_target ---------------------------------------------------------------------------


def test_exact_target_the_worked_example_58_to_61() -> None:
    """On 58 of 61 in fives: a count of 20 (4) would make 62 and scores 0; 15 (3) makes 61."""
    rules = rules_of(units="fives", exact_target="yes", target=61)
    assert play_gain(20, True, 58, rules) == Gain(0, 4, "overshoot")
    assert play_gain(15, True, 58, rules) == Gain(3, 3)
    assert settlement_gain(4, True, 58, rules) == Gain(0, 4, "overshoot")
    assert settlement_gain(-4, True, 58, rules) == Gain(-4, -4)  # deductions always apply


def test_exact_target_wins_only_on_the_target_at_the_end_of_a_hand() -> None:
    """A settlement that would pass the target scores nothing; reaching it exactly wins."""
    options = {"exact_target": True, "target": 30, "bonus_in_fives": "no"}
    setup = Setup.create(["Ann", "Bob"], "totally-fives", options)
    rules = setup.rules
    passing = settle({0: 0, 1: 20}, 0, setup, rules, scores=(15, 0), sides_in=(True, True))
    assert passing.changes == (0, 0) and passing.voided == ("overshoot", None)
    assert passing.earned == (20, 0)
    reaching = settle({0: 0, 1: 14}, 0, setup, rules, scores=(15, 0), sides_in=(True, True))
    assert reaching.changes == (15, 0) and reaching.voided == ()


# -- exact_target: several on the target, the first to reach it wins -----------------------
#
# The two-player domino hand of the helpers (five tiles each): Bob's 6-3 (play 2) counts 15,
# his 1-0 (play 6) 10, Ann's 6-5 (play 7) 15, and Ann dominoes with her 5-5.

EXACT = {"exact_target": "yes"}
IN_POINTS = {"bonus_in_fives": "no"}
"""Totally Fives collecting in points, as these worked examples add it up."""


def test_exact_target_a_play_first_then_a_collection_the_play_wins() -> None:
    """To 25, totally-fives: Bob reaches 25 with his 1-0 (15 + 10). Ann has 15 when she
    dominoes and collects Bob's 8 pips, rounded 10: she reaches 25 at the end of the hand.
    Both stand on 25 when it is settled; Bob was there first and wins."""
    held = {"Bob": ["0-0", "1-1", "2-0", "4-0"]}  # 0 + 2 + 2 + 4 = 8
    data = duo_domino(held, preset="totally-fives", options={**EXACT, **IN_POINTS, "target": 25})
    result = result_of(data)
    assert result["hands"][0]["settlement"] == {"Ann": 10, "Bob": 0}
    assert result["scores"] == {"Ann": 25, "Bob": 25}
    assert result["winner"] == "Bob"
    game = game_of(data)
    assert game.phase == "over"
    assert game.on_target() == [Reached(1, 1, 5, 1), Reached(0, 1, None, 0)]


def test_exact_target_two_plays_the_earlier_wins_however_the_win_is_checked() -> None:
    """To 15: Bob's 6-3 takes him to 15; his 1-0 would pass it and scores 0. Ann's 6-5 takes
    her to 15 later, and her collection (26 -> 25) would pass it too. At the end of the hand
    both stand on 15 and Bob, first there, wins; checked after every play, he wins at once
    with the 6-3 (the first to reach it, as ever)."""
    options = {**EXACT, **IN_POINTS, "target": 15}
    result = result_of(duo_domino(preset="totally-fives", options=options))
    plays = result["hands"][0]["plays"]
    assert [p["points"] for p in plays] == [0, 15, 0, 0, 0, 0, 15, 0, 0]
    assert result["hands"][0]["settlement"] == {"Ann": 0, "Bob": 0}
    assert result["scores"] == {"Ann": 15, "Bob": 15}
    assert result["winner"] == "Bob"
    immediate = record(
        DUO,
        [hand("Ann", duo_domino_events()[:3])],  # up to Bob's 6-3
        preset="totally-fives",
        options={**DUO_DOMINO_OPTIONS, **options, "win_check": "immediate"},
    )
    result = result_of(immediate)
    assert result["hands"][0]["result"] == "won" and len(result["hands"][0]["plays"]) == 2
    assert result["scores"] == {"Ann": 0, "Bob": 15}
    assert result["winner"] == "Bob"


def knocked_off() -> dict[str, object]:
    """Deduct-own to 25. Hand 1: Bob reaches 25 with his 1-0, Ann has 15 and dominoes, and
    Bob's 7 pips (0-0 1-1 2-0 2-1), rounded 5, take him off the target: Ann 15, Bob 20.
    Hand 2, led by Ann, five tiles each, nobody draws: Ann leads 6-4 (10: she reaches 25),
    Bob's 6-1 on W counts 1 + 4 = 5 (he is back on 25); the other counts of 5 would pass it.
    Ann dominoes with her fifth tile, Bob keeps 2-0 (2, rounded 0): both stand on 25."""
    second = hand(
        "Ann",
        [
            play("Ann", "6-4"),
            play("Bob", "6-1", "W"),  # W 1 + E 4 = 5
            play("Ann", "4-2", "E"),  # 1 + 2 = 3
            play("Bob", "3-1", "W"),  # 3 + 2 = 5
            play("Ann", "5-2", "E"),  # 3 + 5 = 8
            play("Bob", "3-0", "W"),  # 0 + 5 = 5
            play("Ann", "5-1", "E"),  # 0 + 1 = 1
            play("Bob", "4-0", "W"),  # 4 + 1 = 5
            play("Ann", "4-3", "W"),  # 3 + 1 = 4, Ann's last tile
        ],
        {"Bob": ["2-0"]},
    )
    return duo_domino(
        {"Bob": ["0-0", "1-1", "2-0", "2-1"]},
        options={**EXACT, "target": 25},
        more_hands=[second],
    )


def test_exact_target_knocked_off_by_a_deduction_reaching_it_again_counts_anew() -> None:
    """Bob reached 25 first of all, in hand 1, but a deduction took him off it; in hand 2 Ann
    reached it before he came back, so Ann wins."""
    result = result_of(knocked_off())
    first, second = result["hands"]
    assert first["settlement"] == {"Ann": 0, "Bob": -5} and first["scores"] == {
        "Ann": 15,
        "Bob": 20,
    }
    assert [p["points"] for p in second["plays"]] == [10, 5, 0, 0, 0, 0, 0, 0, 0]
    assert second["settlement"] == {"Ann": 0, "Bob": 0}
    assert result["scores"] == {"Ann": 25, "Bob": 25}
    assert result["winner"] == "Ann"
    assert game_of(knocked_off()).on_target() == [Reached(0, 2, 0, 0), Reached(1, 2, 1, 1)]


def test_exact_target_undoing_the_deciding_settlement_opens_the_game_again() -> None:
    game = game_of(knocked_off())
    settlement = game.events[-1]
    assert game.winner == 0
    assert game.pop() == settlement
    assert (game.phase, game.winner, game.scores) == ("settle", None, [25, 25])
    assert game.on_target() == [Reached(0, 2, 0, 0), Reached(1, 2, 1, 1)]
    again = game.fork()
    again.push(settlement)
    assert (again.phase, again.winner) == ("over", 0)
    assert game.phase == "settle"  # the fork left it be
    # Undo further: Bob's 6-1 brought him back on 25; without it only Ann stands there.
    game.rewind(len(game.events) - 8)
    assert game.scores == [25, 20] and game.on_target() == [Reached(0, 2, 0, 0)]
    assert write_record(game) == write_record(Game(game.setup, game.events))
    for event in game_of(knocked_off()).events[len(game.events) :]:
        game.push(event)
    assert (game.phase, game.winner) == ("over", 0)


SPLIT = DATA / "var_blocked_tie_split.json"


@pytest.mark.parametrize("win_check", ["end-of-hand", "immediate"])
@pytest.mark.parametrize(
    ("players", "first"),
    [(["Ann", "Bob", "Cy", "Dee"], "Cy"), (["Dee", "Ann", "Bob", "Cy"], "Cy")],
)
def test_exact_target_two_sides_reaching_it_together_go_in_turn_order(
    players: list[str], first: str, win_check: str
) -> None:
    """The corpus's split hand, to 45: Cy and Dee tie on 5 pips and share 85, 45 each, so
    both reach 45 in the same settlement. Nothing could part them later, so the hand's turn
    order from its leader Ann (Ann, Bob, Cy, Dee) decides: Cy. Seated Dee, Ann, Bob, Cy the
    turn order is the same and so is the winner, though Dee now sits first."""
    data = json.loads(SPLIT.read_text())
    data["players"] = players
    data["options"] = {
        **data["options"],
        **EXACT,
        **IN_POINTS,
        "target": 45,
        "win_check": win_check,
    }
    result = result_of(data)
    assert result["scores"] == {"Ann": 10, "Bob": 0, "Cy": 45, "Dee": 45}
    assert result["winner"] == first


# -- get_in ---------------------------------------------------------------------------------


def test_ten_to_get_in_a_five_does_not_count_and_a_ten_does() -> None:
    rules = rules_of(get_in=10)
    assert play_gain(5, False, 0, rules) == Gain(0, 5, "not-in")
    assert play_gain(10, False, 0, rules) == Gain(10, 10)
    assert play_gain(5, True, 10, rules) == Gain(5, 5)
    assert settlement_gain(20, False, 0, rules) == Gain(0, 20, "not-in")


def test_get_in_in_a_game_counts_from_the_play_that_got_the_side_in() -> None:
    """Ann leads 5-0 (5: not in), Bob 0-0 (5: not in), Ann 5-5 on W (10: in, counts)."""
    setup = Setup.create(["Ann", "Bob"], "fives-up", {"get_in": 10})
    game = Game(setup, [NewHand(0), Play(0, tile(5, 0)), Play(1, tile(0, 0), "E")])
    assert [p.points for p in game.hand.plays] == [0, 0]  # type: ignore[union-attr]
    assert [p.voided for p in game.hand.plays] == ["not-in", "not-in"]  # type: ignore[union-attr]
    game.push(Play(0, tile(5, 5), "W"))
    assert game.scores == [10, 0] and game.sides_in == [True, False]
    assert game.pop() == Play(0, tile(5, 5), "W")
    assert game.sides_in == [False, False] and game.scores == [0, 0]


# -- blocked_tie: split ---------------------------------------------------------------------


def test_split_the_worked_example_ann_4_bob_4_cy_17() -> None:
    options = {"blocked_tie": "split", "bonus_in_fives": "no"}
    setup = Setup.create(["Ann", "Bob", "Cy"], "totally-fives", options)
    settled = settle({0: 4, 1: 4, 2: 17}, None, setup, setup.rules)
    assert settled.changes == (10, 10, 0)
    assert settled.split == (0, 1) and settled.share == 10
    assert round_share(17, 2) == 10 and round_share(25, 2) == 15  # 12.5: a half rounds up
    fives_up = Setup.create(["Ann", "Bob", "Cy"], "fives-up", {"blocked_tie": "split"})
    assert settle({0: 4, 1: 4, 2: 17}, None, fives_up, fives_up.rules).changes == (2, 2, 0)


def test_split_needs_a_tie_that_is_not_everyone_and_is_off_by_default() -> None:
    split = Setup.create(["Ann", "Bob", "Cy"], "totally-fives", {"blocked_tie": "split"})
    assert settle({0: 6, 1: 6, 2: 6}, None, split, split.rules).changes == (0, 0, 0)
    plain = Setup.create(["Ann", "Bob", "Cy"], "totally-fives")
    assert settle({0: 4, 1: 4, 2: 17}, None, plain, plain.rules).changes == (0, 0, 0)


@pytest.mark.parametrize(
    ("players", "preset", "options", "partners", "words"),
    [
        (
            4,
            "all-fives",
            {"blocked_tie": "split", "settlement": "winner-collects"},
            True,
            "partners",
        ),
        (3, "all-fives", {"blocked_tie": "split"}, None, "deduct-own"),
    ],
)
def test_split_is_refused_with_partners_and_with_deduct_own(
    players: int, preset: str, options: dict[str, object], partners: bool | None, words: str
) -> None:
    with pytest.raises(MalformedInput, match=words) as refused:
        Setup.create(["Ann", "Bob", "Cy", "Dee"][:players], preset, options, partners)
    assert refused.value.rule == "record"


# -- the order and bad values ---------------------------------------------------------------


def test_the_order_is_get_in_then_units_then_exact_target() -> None:
    rules = rules_of(units="fives", get_in=10, exact_target="yes", target=61)
    # get_in compares points before the division: 10 gets in though it is 2 in fives.
    assert play_gain(10, False, 0, rules) == Gain(2, 2)
    # A side not in that would also pass the target is "not in": get_in comes first.
    assert play_gain(5, False, 60, rules) == Gain(0, 1, "not-in")
    # Once in, the gain in fives is what exact_target compares: 59 + 2 = 61 is allowed.
    assert play_gain(10, True, 59, rules) == Gain(2, 2)
    assert play_gain(15, True, 59, rules) == Gain(0, 3, "overshoot")


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"get_in": 7}, "get_in is one of 0, 10, 15, 20, 25"),
        ({"units": "tens"}, "units is one of points, fives"),
        ({"units": "fives", "target": 0}, "target is in fives"),
        ({"units": "fives", "target": 300}, "from 1 to 200"),
        ({"exact_target": "maybe"}, "exact_target is one of yes, no"),
        ({"blocked_tie": "share"}, "blocked_tie is one of nobody, split"),
    ],
)
def test_a_bad_value_is_refused_naming_the_option_and_its_values(
    options: dict[str, object], named: str
) -> None:
    with pytest.raises(MalformedInput, match=named) as refused:
        Setup.create(["Ann", "Bob"], "totally-fives", options)
    assert refused.value.rule == "record"


def test_older_games_read_as_every_variation_off() -> None:
    rules = Setup.create(["Ann", "Bob"]).rules
    assert (rules.units, rules.exact_target, rules.get_in, rules.blocked_tie) == (
        "points",
        False,
        0,
        "nobody",
    )


# -- the explanations and the rulebook ------------------------------------------------------


def test_why_says_when_a_side_is_not_in_or_would_pass_the_target() -> None:
    setup = Setup.create(["Ann", "Bob"], "fives-up", {"get_in": 10})
    game = Game(setup, [NewHand(0), Play(0, tile(5, 0))])
    told = explain(game, 1)
    assert (
        "needs 10 to get in" in " ".join(english(told.lines))
        and "5 does not count" in english(told.lines)[-1]
    )
    assert "not in yet" in str(told.summary)
    exact = Setup.create(
        ["Ann", "Bob"], "fives-up", {"units": "fives", "exact_target": "yes", "target": 3}
    )
    game = Game(exact, [NewHand(0), Play(0, tile(5, 5)), Play(1, tile(5, 0), "W")])
    game.push(Play(0, tile(0, 0), "W"))
    assert game.scores == [2, 2]
    told = explain(game, 3)
    assert (
        "2 + 2 = 4 would pass 3" in english(told.lines)[-1]
        and "nothing scored" in english(told.lines)[-1]
    )


def test_settlement_lines_say_when_the_tie_was_split_or_a_gain_passed_the_target() -> None:
    """Read from the corpus's split record: Cy and Dee tie on 5 and share 85 pips."""
    game = load_record((DATA / "var_blocked_tie_split.json").read_text())
    told = explain(game, len(game.events) - 1)
    text = " ".join(english(told.lines))
    assert "tie for the fewest pips (5)" in text and "blocked_tie: split" in text
    assert "85 / 2 = 42.5" in text and ": 45." in text and "45 / 5 = 9." in text
    assert "Cy collects +9" in text and "Dee collects +9" in text
    options = {"exact_target": "yes", "target": 20, "deal": "five-each", "bonus_in_fives": "no"}
    exact = Setup.create(["Ann", "Bob"], "totally-fives", options)
    rules = exact.rules
    passing = settle({0: 0, 1: 30}, 0, exact, rules, scores=(10, 0), sides_in=(True, True))
    assert passing.voided == ("overshoot", None)


def test_why_says_the_winner_reached_the_target_first() -> None:
    """The deciding settlement's Why? names every side on the target, when each came onto it,
    and that the first won."""
    held = {"Bob": ["0-0", "1-1", "2-0", "4-0"]}
    game = game_of(
        duo_domino(held, preset="totally-fives", options={**EXACT, **IN_POINTS, "target": 25})
    )
    told = explain(game, len(game.events) - 1)
    assert told.winner == 1
    assert str(told.summary).endswith("Bob wins the game, the first to reach 25.")
    assert english(told.lines)[-4:] == (
        "Bob and Ann stand on the target 25 and can gain nothing more "
        "(house rule exact_target): the first to reach it wins",
        "Bob reached it with Bob's 1-0 in hand 1",
        "Ann reached it in the settlement of hand 1",
        "Bob reached it first: wins",
    )
    game = game_of(knocked_off())
    lines = english(explain(game, len(game.events) - 1).lines)
    assert lines[-3:] == (
        "Ann reached it with Ann's 6-4 in hand 2",
        "Bob reached it with Bob's 6-1 in hand 2",
        "Ann reached it first: wins",
    )
    data = json.loads(SPLIT.read_text())
    data["options"] = {**data["options"], **EXACT, **IN_POINTS, "target": 45}
    game = game_of(data)
    told = explain(game, len(game.events) - 1)
    assert str(told.summary).endswith("Cy wins the game, the first to reach 45.")
    assert english(told.lines)[-1] == (
        "Cy and Dee reached it together, in the settlement of hand 1: Cy comes first in the "
        "turn order from Ann, who led that hand: wins"
    )
    # To 15 Bob was there first (his 6-3), but the settlement's deduction takes him off it:
    # Ann, alone on it, wins as ever, with no word of who came first.
    alone = game_of(duo_domino({"Bob": 7}, options={**EXACT, "target": 15}))
    assert (alone.scores, alone.winner) == ([15, 10], 0)
    assert english(explain(alone, len(alone.events) - 1).lines)[-1] == "Ann 15 >= 15: wins"


def test_the_rulebook_describes_each_variation_with_an_example_and_shows_which_are_on() -> None:
    book = rulebook(rules_of(units="fives", get_in=10))
    entries = {entry.name: entry for entry in book.house_rules}
    for name in ("units", "exact_target", "get_in", "blocked_tie"):
        assert entries[name].example and entries[name].values
    assert entries["units"].differs and entries["units"].value == "fives"
    assert entries["get_in"].differs and entries["get_in"].value == "10"
    assert not entries["exact_target"].differs
    assert str(entries["target"].value_text) == "the game is won at 20 in fives"
    exact = entries["exact_target"]
    assert "when several sides stand on it the first to reach it wins" in str(exact.text)
    assert "turn order, from its leader" in str(exact.example)
