"""Why: the explanation of every entry of a game's log (plays, draws, passes, settlements).

Every worked count of docs/rules.md section 6 is played out between Ann and Bob (nine tiles each,
so nobody goes out) and each play's explanation is read back: the open ends, what each
contributed, the total and what it scored.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.rules.events import Play
from scorekeeper.rules.explain import explain, explain_all
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.options import PRESETS
from scorekeeper.rules.simulate import play_game
from tests.rules.helpers import (
    DUO,
    FOUR_ENDS_FIFTEEN,
    FOUR_ENDS_TWENTY,
    Move,
    alternate,
    duo_blocked,
    duo_domino,
    duo_domino_events,
    english,
    game_of,
    hand,
    quad_domino,
    record,
)
from tests.support.referee import event_position, explain_last_play


def alternate_game(moves: list[Move], options: dict[str, Any] | None = None) -> Game:
    """The game in which Ann and Bob take turns playing ``moves`` (tile, end), Ann leading."""
    return game_of(alternate(moves, options))


def steps(moves: list[Move], options: dict[str, Any] | None = None) -> list[str]:
    """Each play's explanation, its lines joined by "; " as the table reads them."""
    game = alternate_game(moves, options)
    found = [e for e in explain_all(game) if e.kind == "play"]
    assert len(found) == len(moves)
    return ["; ".join(english(e.lines)) for e in found]


# -- the worked counts of section 6 ------------------------------------------------------------


def test_lead_five_five_counts_ten_and_scores_ten() -> None:
    assert steps([("5-5", None)]) == [
        "the lead 5-5 alone counts once: 10; total 10, a multiple of five: +10"
    ]


def test_lead_six_six_then_six_three_on_w_counts_three_and_the_spinner() -> None:
    assert steps([("6-6", None), ("6-3", "W")]) == [
        "the lead 6-6 alone counts once: 12; total 12, not a multiple of five: no score",
        "W 3; E 6-6, the spinner at the tip, 12; total 15, a multiple of five: +15",
    ]


def test_spinner_with_both_sides_covered_counts_only_the_tiles_against_it() -> None:
    moves: list[Move] = [("6-6", None), ("6-3", "W"), ("6-1", "E"), ("6-4", "N"), ("6-2", "S")]
    assert steps(moves)[2:] == [
        "W 3; E 1; N empty, 0; S empty, 0; total 4, not a multiple of five: no score",
        "W 3; E 1; N 4; S empty, 0; total 8, not a multiple of five: no score",
        "W 3; E 1; N 4; S 2; total 10, a multiple of five: +10",
    ]


def test_spinner_laid_on_the_line() -> None:
    assert steps([("4-2", None), ("2-2", "E"), ("2-5", "E"), ("2-1", "N")]) == [
        "the lead 4-2 alone counts once: 6; total 6, not a multiple of five: no score",
        "W 4; E 2-2, the spinner at the tip, 4; total 8, not a multiple of five: no score",
        "W 4; E 5; N empty, 0; S empty, 0; total 9, not a multiple of five: no score",
        "W 4; E 5; N 1; S empty, 0; total 10, a multiple of five: +10",
    ]


def test_four_ends_showing_five_five_six_and_four_count_twenty() -> None:
    moves = FOUR_ENDS_TWENTY
    assert steps(moves)[-1] == "W 5; E 4; N 5; S 6; total 20, a multiple of five: +20"


def test_four_ends_showing_two_five_three_and_five_count_fifteen() -> None:
    moves = FOUR_ENDS_FIFTEEN
    assert steps(moves)[-1] == "W 2; E 5; N 3; S 5; total 15, a multiple of five: +15"


def test_no_spinner_lead_five_five_then_five_blank() -> None:
    assert steps([("5-5", None), ("5-0", "E")], {"spinners": "none"}) == [
        "the lead 5-5 alone counts once: 10; total 10, a multiple of five: +10",
        "W 5-5, a double at the tip, 10; E 0; total 10, a multiple of five: +10",
    ]


# -- the rest of section 6 in words -------------------------------------------------------------


def test_a_lone_lead_counts_once() -> None:
    assert steps([("6-4", None)]) == [
        "the lead 6-4 alone counts once: 10; total 10, a multiple of five: +10"
    ]


def test_a_count_of_zero_scores_nothing() -> None:
    assert steps([("2-1", None), ("2-0", "W"), ("1-0", "E")])[-1] == "W 0; E 0; total 0: no score"


def test_a_double_at_the_tip_of_an_arm_is_named() -> None:
    moves: list[Move] = [("6-6", None), ("6-3", "W"), ("6-1", "E"), ("6-4", "N"), ("4-4", "N")]
    assert steps(moves)[-1] == (
        "W 3; E 1; N 4-4, a double at the tip, 8; S empty, 0; "
        "total 12, not a multiple of five: no score"
    )


def test_spinner_counts_no_the_spinner_at_the_tip_gives_nothing() -> None:
    moves: list[Move] = [("5-5", None), ("5-0", "W")]
    assert steps(moves, {"spinner_counts": "no"}) == [
        "the lead 5-5 alone, the spinner, does not count (house rule spinner_counts: no): 0; "
        "total 0: no score",
        "W 0; E 5-5, the spinner at the tip, does not count (house rule spinner_counts: no), 0; "
        "total 0: no score",
    ]


def test_spinners_all_a_later_spinner_at_the_tip() -> None:
    moves: list[Move] = [("6-6", None), ("6-3", "W"), ("6-1", "E"), ("3-3", "W")]
    assert steps(moves, {"spinners": "all"})[-1] == (
        "W 3-3, a spinner at the tip, 6; E 1; N empty, 0; S empty, 0; "
        "total 7, not a multiple of five: no score"
    )


def test_open_ends_the_why_names_each_empty_end_it_counts() -> None:
    # docs/rules.md section 6, pagat's Sniff example: 4-4, 6-4, 1-4 is 6 + 1 + 4 + 4 = 15.
    moves: list[Move] = [("4-4", None), ("6-4", "W"), ("1-4", "E"), ("4-0", "N")]
    found = steps(moves, {"spinner_counts": "open-ends"})
    assert (
        found[1]
        == "W 6; E 4-4, the spinner at the tip, 8; total 14, not a multiple of five: no score"
    )
    assert found[2] == (
        "W 6; E 1; N empty, an open end of the spinner 4-4, counts its number "
        "(house rule spinner_counts: open-ends): 4; S empty, an open end of the spinner 4-4, "
        "counts its number (house rule spinner_counts: open-ends): 4; "
        "total 15, a multiple of five: +15"
    )
    # A tile on N: N counts its tile, S still the spinner's number.
    assert found[3].startswith("W 6; E 1; N 0; S empty, an open end of the spinner 4-4")
    game = alternate_game(moves[:3], {"spinner_counts": "open-ends"})
    summary = english([explain(game, len(game.events) - 1).summary])[0]
    assert summary == "Ann played 4-1 on E: W 6 + E 1 + N 4 + S 4 = 15, Ann +15."


def test_open_ends_with_every_double_a_spinner_names_the_later_spinner() -> None:
    moves: list[Move] = [("5-5", None), ("5-0", "W"), ("5-3", "E"), ("3-3", "E"), ("3-2", "E")]
    last = steps(moves, {"spinners": "all", "spinner_counts": "open-ends"})[-1]
    assert "3-3:N empty, an open end of the spinner 3-3, counts its number" in last
    assert "N empty, an open end of the spinner 5-5, counts its number" in last
    assert last.endswith("total 18, not a multiple of five: no score")


def test_without_open_ends_an_empty_end_still_counts_nothing() -> None:
    moves: list[Move] = [("4-4", None), ("6-4", "W"), ("1-4", "E")]
    assert steps(moves)[-1] == (
        "W 6; E 1; N empty, 0; S empty, 0; total 7, not a multiple of five: no score"
    )


# -- the play's summary and the compact line ------------------------------------------------


def test_play_summary_names_the_player_tile_end_and_points() -> None:
    game = alternate_game([("6-6", None), ("6-3", "W"), ("6-1", "E")])
    found = explain_all(game)
    assert str(found[1].summary) == "Ann led 6-6 (W shows 6, E shows 6): 6-6 alone = 12, no score."
    assert str(found[2].summary) == "Bob played 6-3 on W: W 3 + E 12 = 15, Bob +15."
    assert (found[2].hand, found[2].event, found[2].winner) == (1, 2, None)


def test_a_flipped_lead_is_shown_as_entered() -> None:
    game = alternate_game([("4-6", None)])
    assert str(explain(game, 1).summary).startswith("Ann led 4-6 (W shows 4, E shows 6)")


def test_explain_last_play_scoring_and_not() -> None:
    assert (
        str(explain_last_play(alternate_game([("6-6", None), ("6-3", "W")])))
        == "W 3 + E 12 = 15: Bob +15"
    )
    assert str(explain_last_play(alternate_game([("6-6", None), ("6-3", "W"), ("6-1", "E")]))) == (
        "W 3 + E 1 = 4"
    )
    assert str(explain_last_play(alternate_game([("6-4", None)]))) == "6-4 alone = 10: Ann +10"


def test_explain_last_play_after_the_hand_is_settled_and_a_new_one_begun() -> None:
    data = duo_domino()
    data["hands"].append(hand("Ann", []))
    assert str(explain_last_play(game_of(data))) == "W 2 + E 0 + N 4 + S 10 = 16"


def test_explain_last_play_with_nothing_played() -> None:
    with pytest.raises(ValueError):
        explain_last_play(game_of(record(DUO, [hand("Ann", [])])))


def test_partner_points_name_the_player_and_the_team() -> None:
    game = game_of(quad_domino())
    last_plays = [e for e in explain_all(game) if e.kind == "play"]
    assert all(str(e.summary).endswith("no score.") for e in last_plays)
    assert "Ann played their last tile and dominoed: the hand is over" in english(
        last_plays[-1].lines
    )


def test_explain_one_event_matches_explain_all() -> None:
    game = game_of(duo_domino())
    assert [explain(game, i) for i in range(len(game.events))] == explain_all(game)
    with pytest.raises(IndexError):
        explain(game, len(game.events))


def test_event_position_counts_plays_draws_and_passes_from_one_in_each_hand() -> None:
    data = duo_domino(more_hands=[hand("Ann", duo_domino_events(), {"Bob": 26})])
    game = game_of(data)
    assert event_position(game, 0) == (1, None)
    assert event_position(game, 2) == (1, 2)
    assert event_position(game, 11) == (1, None)
    assert event_position(game, 12) == (2, None)
    assert event_position(game, 14) == (2, 2)
    assert explain(game, 14).event == 2


# -- draws and passes -----------------------------------------------------------------------


def test_draw_says_who_how_many_what_is_left_and_whose_turn() -> None:
    found = explain(game_of(duo_domino()), 2)
    assert found.kind == "draw"
    assert str(found.summary) == "Bob drew 3 tiles; 15 left to draw; still Bob's turn."
    assert "Bob drew 3 tiles: 18 could be drawn before, 15 now." in english(found.lines)
    assert "The open ends were W shows 6 and E shows 6." in english(found.lines)


def test_draw_with_a_reserve_says_what_is_kept() -> None:
    data = duo_blocked({"Ann": 32, "Bob": 32}, {"boneyard_reserve": 4}, drawn=6)
    found = explain(game_of(data), 11)
    assert found.kind == "draw"
    assert (
        "Ann drew 6 tiles: 6 could be drawn before, 0 now "
        "(4 kept in reserve, house rule boneyard_reserve: 4)."
    ) in english(found.lines)


def test_pass_then_the_pass_that_blocks_the_hand() -> None:
    game = game_of(duo_blocked({"Ann": 62, "Bob": 28}))
    first, second = explain(game, 12), explain(game, 13)
    assert (first.kind, str(first.summary)) == ("pass", "Ann passed; Bob's turn.")
    assert "Passes in a row: 1 of 2." in english(first.lines)
    assert str(second.summary) == "Bob passed; the hand is blocked."
    assert any("the hand is blocked" in line for line in english(second.lines))


# -- new hands -------------------------------------------------------------------------------


def led_by(data: dict[str, Any], way: str, number: int = 0) -> dict[str, Any]:
    """The record with hand ``number`` (from 0) saying how its leader was chosen."""
    data["hands"][number]["lead_by"] = way
    return data


def test_first_hand_says_how_its_leader_was_chosen() -> None:
    by_lot = explain(game_of(led_by(duo_domino(), "lot")), 0)
    assert english(by_lot.lines)[0] == (
        "Ann leads the first hand, chosen by lot: the app picked a player at random "
        "(house rule lead: lots)."
    )
    assert str(by_lot.summary) == "Hand 1 begins: Ann leads, chosen by lot."
    by_draw = explain(game_of(led_by(duo_domino(preset="fives-up"), "draw")), 0)
    assert english(by_draw.lines)[0] == (
        "Ann leads the first hand, chosen by the draw for the lead: each player drew a tile, "
        "the highest pip total leading (house rule lead: draw-highest)."
    )
    assert str(by_draw.summary) == "Hand 1 begins: Ann leads, chosen by the draw for the lead."
    at_table = explain(game_of(led_by(duo_domino(), "table")), 0)
    assert english(at_table.lines)[0] == (
        "Ann leads the first hand, chosen at the table: the players agreed who leads."
    )
    assert str(at_table.summary) == "Hand 1 begins: Ann leads, chosen at the table."


def test_a_way_other_than_the_house_rule_is_named_without_the_rule() -> None:
    drawn = explain(game_of(led_by(duo_domino(), "draw")), 0)
    assert "house rule" not in english(drawn.lines)[0]
    assert "by the draw for the lead" in english(drawn.lines)[0]


def test_a_leader_chosen_in_an_unrecorded_way_is_not_guessed() -> None:
    found = explain(game_of(duo_domino()), 0)
    assert english(found.lines)[0] == (
        "Ann leads the first hand; how the leader was chosen was not recorded "
        "(house rule lead: lots, by lot)."
    )
    assert str(found.summary) == "Hand 1 begins: Ann leads."


def test_next_hand_is_led_by_who_dominoed() -> None:
    game = game_of(duo_domino(more_hands=[hand("Ann", [])]))
    assert english(explain(game, 12).lines)[0] == "Ann dominoed in hand 1, so Ann leads hand 2."
    assert str(explain(game, 12).summary) == "Hand 2 begins: Ann leads (dominoed in hand 1)."


def test_after_a_blocked_hand_an_unrecorded_choice_is_not_guessed() -> None:
    game = game_of(duo_blocked({"Ann": 62, "Bob": 28}, more_hands=[hand("Bob", [])]))
    assert english(explain(game, 15).lines)[0] == (
        "Hand 1 was blocked, so the leader of hand 2 was chosen again: Bob; how the leader "
        "was chosen was not recorded (house rule lead: lots, by lot)."
    )


def test_after_a_blocked_hand_the_leader_is_chosen_again() -> None:
    game = game_of(
        duo_blocked({"Ann": 62, "Bob": 28}, more_hands=[{**hand("Bob", []), "lead_by": "table"}])
    )
    assert english(explain(game, 15).lines)[0] == (
        "Hand 1 was blocked, so the leader of hand 2 was chosen again, "
        "at the table: the players agreed who leads: Bob."
    )
    assert str(explain(game, 15).summary) == "Hand 2 begins: Bob leads, chosen at the table."


# -- settlements -----------------------------------------------------------------------------


def settle_lines(data: dict[str, Any]) -> tuple[str, ...]:
    """The explanation lines of the first hand's settlement."""
    game = game_of(data)
    index = next(i for i, e in enumerate(explain_all(game)) if e.kind == "settle")
    return english(explain(game, index).lines)


def test_deduct_own_names_each_players_pips_and_rounding() -> None:
    lines = settle_lines(duo_domino())
    assert "Ann dominoed and holds 0: nothing off" in lines
    assert "Bob holds 5-4 5-3 4-2 2-1 = 26, rounds to 25: -25" in lines
    assert "Changes: Ann 0, Bob -25." in lines
    assert "Scores: Ann 15 -> 15, Bob 25 -> 0." in lines
    assert lines[-1] == "nobody has reached 250 (highest 15): another hand"


def test_deduct_own_a_pip_total() -> None:
    assert "Bob holds 13, rounds to 15: -15" in settle_lines(duo_domino({"Bob": 13}))


def test_deduct_own_partners_are_rounded_separately() -> None:
    lines = settle_lines(quad_domino())
    assert "Bob holds 2-1 = 3, rounds to 5: -5 for Bob & Dee" in lines
    assert "Dee holds 3-0 = 3, rounds to 5: -5 for Bob & Dee" in lines
    assert "Cy holds 4-1 = 5, rounds to 5: -5 for Ann & Cy" in lines
    assert "Changes: Ann & Cy -5, Bob & Dee -10." in lines


def test_winner_collects_in_fives() -> None:
    lines = settle_lines(duo_domino(preset="fives-up"))
    assert "Ann dominoed and collects." in lines
    assert "The other sides hold 26 (Bob 26); less Ann's own 0: 26." in lines
    assert "26 rounds to 25." in lines
    assert "In fives (house rule bonus_in_fives: yes): 25 / 5 = 5." in lines
    assert "Ann collects +5." in lines
    assert "Scores: Ann 15 -> 20, Bob 25 -> 25." in lines


def test_winner_collects_in_full_in_a_blocked_hand() -> None:
    lines = settle_lines(duo_blocked({"Ann": 62, "Bob": 28}, {"settlement": "winner-collects"}))
    assert "The hand was blocked: Bob holds the fewest pips (28) and collects." in lines
    assert "The other sides hold 62 (Ann 62); less Bob's own 28: 34." in lines
    assert "34 rounds to 35." in lines
    assert not any("In fives" in line for line in lines)
    assert "Bob collects +35." in lines


def test_winner_collects_tie_for_fewest_nobody_collects() -> None:
    options = {"settlement": "winner-collects", "boneyard_reserve": 4}
    lines = settle_lines(duo_blocked({"Ann": 32, "Bob": 32}, options, drawn=6))
    assert "The hand was blocked: Ann and Bob tie for the fewest pips (32): nobody collects." in (
        lines
    )
    assert "Changes: Ann 0, Bob 0." in lines


def test_winner_collects_a_partner_neither_adds_nor_subtracts() -> None:
    lines = settle_lines(quad_domino(options={"settlement": "winner-collects"}))
    assert "The other sides hold 6 (Bob 3 and Dee 3); less Ann's own 0: 6." in lines
    assert "Cy is Ann's partner: their 5 neither adds nor subtracts." in lines
    assert "Ann collects +5 for Ann & Cy." in lines


# -- the target -------------------------------------------------------------------------------


def test_the_settlement_that_decides_the_game() -> None:
    game = game_of(duo_domino({"Bob": 7}, options={"target": 10}))
    found = explain(game, 11)
    assert found.winner == 1
    assert english(found.lines)[-1] == "Bob 20 >= 10: wins"
    assert str(found.summary).endswith("Bob wins the game with 20.")


def test_a_tie_at_the_target_plays_another_hand() -> None:
    found = explain(game_of(duo_domino({"Bob": 12}, options={"target": 15})), 11)
    assert found.winner is None
    assert english(found.lines)[-1] == "Ann and Bob tied at 15 (target 15): another hand"


def test_a_team_wins_by_settlement() -> None:
    data = quad_domino(options={"settlement": "winner-collects", "target": 5})
    found = explain(game_of(data), 18)
    assert (found.kind, found.winner) == ("settle", 0)
    assert english(found.lines)[-1] == "Ann & Cy 5 >= 5: wins"
    assert str(found.summary).endswith("Ann & Cy win the game with 5.")


def test_an_immediate_win_on_a_play() -> None:
    events = duo_domino_events()[:3]
    data = record(DUO, [hand("Ann", events)], options={"target": 15, "win_check": "immediate"})
    game = game_of(data)
    found = explain(game, 3)
    assert isinstance(game.events[3], Play)
    assert (found.kind, found.winner) == ("play", 1)
    assert english(found.lines)[-1] == (
        "Bob 15 >= 15: wins at once (house rule win_check: immediate); the hand stops unsettled"
    )
    assert str(found.summary).endswith("Bob wins the game.")


@pytest.mark.parametrize("seed", range(4))
def test_every_event_of_a_simulated_game_is_explained(seed: int) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"][: 2 + seed % 3]
    game = play_game(Setup.create(players, PRESETS[seed % 3]), random.Random(seed))
    found = explain_all(game)
    assert [e.index for e in found] == list(range(len(game.events)))
    plays = [p for h in game.hands for p in h.plays]
    decided = [e for e in found if e.winner is not None]
    assert len(decided) == 1 and decided[0].winner == game.winner
    assert len([e for e in found if e.kind == "play"]) == len(plays)
    for explained, scored in zip([e for e in found if e.kind == "play"], plays, strict=True):
        total = next(line for line in english(explained.lines) if line.startswith("total"))
        assert total.startswith(f"total {scored.count}")
        assert total.endswith(f": +{scored.points}" if scored.points else "no score")
