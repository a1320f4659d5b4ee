"""docs/rules.md 8c, corrections agreed at the table: an adjustment changes a side's score by whole
points with a reason; it is not a turn, the other rules ignore it, and the win is checked
after it as after a settlement.

Worked examples on the two-player domino hand of the helpers (all-fives, deal five-each):
Bob's 6-3 (event 3) scores 15, his 1-0 (event 7) 10, Ann's 6-5 (event 8) 15, Ann dominoes
with event 10 and Bob's 26 pips (rounded 25) are deducted: Ann 15, Bob 15 + 10 - 25 = 0.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import Adjust, Game, NewHand, Play, Reached, Settle, tile
from scorekeeper.rules.errors import RecordRefusal
from scorekeeper.rules.record import load_record, write_record
from tests.rules.helpers import (
    DUO_DOMINO_OPTIONS,
    Entry,
    Record,
    adjust,
    amended,
    duo_domino_events,
    game_of,
    game_to,
    hand,
    play,
    record,
    refused_unchanged,
    result_of,
    snapshot,
)

BOB_26 = {"Bob": ["5-4", "5-3", "4-2", "2-1"]}
REASON = "Bob drew while holding a tile that fitted"


def duo(
    after: dict[int, list[Entry]],
    options: dict[str, Any] | None = None,
    settled: bool = True,
    more_hands: list[Entry] | None = None,
) -> Record:
    """The domino hand with entries inserted after event numbers, settled with Bob's 26."""
    return record(
        ["Ann", "Bob"],
        [
            hand("Ann", amended(duo_domino_events(), after=after), BOB_26 if settled else None),
            *(more_hands or []),
        ],
        options={**DUO_DOMINO_OPTIONS, **(options or {})},
    )


def refused(game: Game, event: Adjust, rule: str = "record") -> str:
    """The adjustment is refused with ``rule`` (record unless given) and changes nothing."""
    return refused_unchanged(game, event, rule)


# -- before and after a settlement -----------------------------------------------------------


def test_an_adjustment_after_the_last_play_before_the_settlement() -> None:
    """After Ann's domino the table takes 10 from Bob: Ann 15, Bob 25 - 10 = 15; then the
    settlement deducts Bob's 25 as usual: Bob -10. Not a turn: the hand waits for its
    settlement as before."""
    data = duo({10: [adjust("Bob", -10, REASON)]})
    game = game_to(data, 11)
    assert game.phase == "settle" and game.winner is None
    assert game.scores == [15, 15]
    assert game.adjusted(game.hands[0]) == (0, -10)
    assert game.play_points(game.hands[0]) == (15, 25)  # the adjustment is not a play's
    result = result_of(data)
    first = result["hands"][0]
    assert first["adjustments"] == [
        {"player": "Bob", "side": "Bob", "points": -10, "reason": REASON}
    ]
    assert first["settlement"] == {"Ann": 0, "Bob": -25}
    assert first["scores"] == result["scores"] == {"Ann": 15, "Bob": -10}
    assert first["result"] == "domino" and first["next_lead"] == "Ann"


def test_an_adjustment_in_the_next_hand_before_its_lead_play() -> None:
    """Hand 1 ends Ann 15, Bob 0. Hand 2, led by Ann (she dominoed), begins with the table
    giving Ann 20 for a misdeal: Ann 35, Bob 0, shown in hand 2, which is still open."""
    second = hand("Ann", [adjust("Ann", 20, "misdeal: Bob was dealt six tiles")])
    data = duo({}, more_hands=[second])
    result = result_of(data)
    assert "adjustments" not in result["hands"][0]
    assert result["hands"][0]["scores"] == {"Ann": 15, "Bob": 0}
    assert result["hands"][1]["adjustments"] == [
        {"player": "Ann", "side": "Ann", "points": 20, "reason": "misdeal: Bob was dealt six tiles"}
    ]
    assert result["hands"][1]["result"] == "open" and result["hands"][1]["plays"] == []
    assert result["hands"][1]["scores"] == result["scores"] == {"Ann": 35, "Bob": 0}
    game = game_of(data)
    assert game.phase == "play" and game.hands[1].turn == 0  # Ann still leads hand 2
    game.push(Play(0, tile(5, 5)))
    assert game.scores == [45, 0]  # lead 5-5 counts 10: 35 + 10


def between_hands(after: list[Entry], options: dict[str, Any] | None = None) -> Record:
    """The domino hand, settled (Ann 15, Bob 0), then ``after`` agreed before hand 2's lead."""
    data = duo({}, options=options)
    data["hands"][0]["after_settlement"] = after
    return data


def test_an_adjustment_between_a_settlement_and_the_next_lead_counts_there() -> None:
    """docs/rules.md 8c, "at any time before the game is won": hand 1 is settled (Ann 15,
    Bob 0) and hand 2 not led; the table gives Bob 20. It is hand 1's, after its settlement:
    the scores after hand 1 are 15 and 20, and hand 2 begins from them."""
    game = game_of(duo({}))
    assert game.phase == "lead"
    game.push(Adjust(1, 20, "misdeal"))
    assert game.scores == [15, 20] and game.phase == "lead" and game.winner is None
    assert game.adjusted(game.hands[0]) == (0, 20)
    assert game.scores_after(game.hands[0]) == (15, 20)
    game.push(NewHand(0))
    assert game.hands[1].scores_before == [15, 20]
    assert game.pop() == NewHand(0)
    assert game.pop() == Adjust(1, 20, "misdeal")
    assert game.scores == [15, 0] and game.phase == "lead"


def test_the_record_keeps_it_after_the_settlement_and_replays_to_the_same_scores() -> None:
    """An export taken between the adjustment and the next lead reads back to the scores the
    table shows: the adjustment is written in the hand's ``after_settlement``, after its
    ``remaining``, never among its events (where it would come before the settlement)."""
    data = between_hands([adjust("Bob", 20, "misdeal")])
    game = game_of(data)
    assert game.scores == [15, 20] and game.phase == "lead"
    written = write_record(game)
    assert written["hands"][0]["after_settlement"] == [
        {"player": "Bob", "adjust": 20, "reason": "misdeal"}
    ]
    assert all("adjust" not in event for event in written["hands"][0]["events"])
    assert written == {**data, "preset": "all-fives"}
    result = result_of(data)
    assert result["scores"] == {"Ann": 15, "Bob": 20}
    assert result["hands"][0]["scores"] == {"Ann": 15, "Bob": 20}
    assert result["hands"][0]["adjustments"] == [
        {"player": "Bob", "side": "Bob", "points": 20, "reason": "misdeal"}
    ]


@pytest.mark.parametrize("win_check", ["end-of-hand", "immediate"])
def test_an_adjustment_between_hands_to_the_target_wins_at_once(win_check: str) -> None:
    """Target 30: hand 1 is settled (Ann 15, Bob 0); its end has come, so the win is checked
    after an adjustment at once under either win check: Ann + 15 = 30 wins, and the next
    lead is refused (game-over)."""
    data = between_hands(
        [adjust("Ann", 15, "Bob misdealt")], options={"target": 30, "win_check": win_check}
    )
    game = game_of(data)
    assert game.winner == 0 and game.phase == "over" and game.scores == [30, 0]
    assert game.hands[0].result == "domino"  # the hand ended as it did; the game is won after
    refused_unchanged(game, NewHand(1), "game-over")
    refused_unchanged(game, Adjust(1, 5, "too late"), "game-over")
    assert result_of(data)["winner"] == "Ann"


def test_with_exact_target_an_adjustment_between_hands_onto_it_wins_and_says_when() -> None:
    """Exact target 30: Bob's 20 after hand 1's settlement (15, 0) does not reach it; a second
    of 10 brings him onto it alone: he wins, having reached it by an adjustment in hand 1."""
    options = {"target": 30, "exact_target": "yes"}
    game = game_of(between_hands([adjust("Bob", 20, "misdeal")], options=options))
    assert game.winner is None
    game.push(Adjust(1, 10, "misdeal, the rest"))
    assert game.winner == 1 and game.scores == [15, 30]
    (reached,) = game.on_target()
    assert (reached.side, reached.hand, reached.settled) == (1, 1, True)
    assert reached.move is not None
    assert game.hands[0].moves[reached.move].reason == "misdeal, the rest"


def test_exact_target_orders_a_move_after_the_settlement_after_it() -> None:
    """When a side came onto the target: the moves before the settlement, the settlement, the
    moves after it, in that order (Reached.order)."""
    before = Reached(0, 1, 5, 0)
    settlement = Reached(1, 1, None, 1)
    after = Reached(0, 1, 0, 0, settled=True)
    assert sorted([after, settlement, before], key=lambda r: r.order) == [
        before,
        settlement,
        after,
    ]


@pytest.mark.parametrize(
    ("after", "remaining", "rule", "said"),
    [
        ([play("Bob", "3-3")], True, "record", "Only adjustments come after a hand's settlement"),
        ({"player": "Bob", "adjust": 5, "reason": "x"}, True, "record", "a list of adjustments"),
        ([adjust("Bob", 5, "x")], False, "remaining", '"remaining" must give'),
    ],
)
def test_a_broken_after_settlement_is_refused_with_its_rule(
    after: Any, remaining: bool, rule: str, said: str
) -> None:
    """Only adjustments, in a list, after a settled hand: else rule record; a hand over but
    not settled is refused for that first (rule remaining)."""
    data = between_hands(after)
    if not remaining:
        data["hands"][0].pop("remaining")
    with pytest.raises(RecordRefusal) as refused_record:
        load_record(json.dumps(data))
    assert refused_record.value.rule == rule and said in str(refused_record.value)


def test_no_adjustment_before_hand_1_is_led() -> None:
    game = Game(game_of(duo({})).setup)
    assert "once hand 1 is led" in refused(game, Adjust(0, 20, "misdeal"), "lead")


def test_an_adjustment_is_shared_by_partners() -> None:
    """Four players in partnership: Cy's adjustment is his side's, Ann & Cy."""
    data = record(
        ["Ann", "Bob", "Cy", "Dee"],
        [hand("Ann", [play("Ann", "5-5"), adjust("Cy", -15, "looked at the boneyard")])],
    )
    result = result_of(data)
    assert result["scores"] == {"Ann & Cy": -5, "Bob & Dee": 0}  # 10 - 15
    assert result["hands"][0]["adjustments"] == [
        {"player": "Cy", "side": "Ann & Cy", "points": -15, "reason": "looked at the boneyard"}
    ]


# -- winning by an adjustment ----------------------------------------------------------------


def test_with_end_of_hand_an_adjustment_to_the_target_wins_at_the_settlement() -> None:
    """Target 30, end-of-hand: after Ann's domino the table gives her 15: 15 + 15 = 30. She
    is on the target but has not won yet: the hand waits for its settlement. Settled (Bob
    25 - 25 = 0), Ann wins with 30."""
    data = duo({10: [adjust("Ann", 15, "Bob misdealt")]}, options={"target": 30})
    game = game_to(data, 11)
    assert game.scores == [30, 25]
    assert game.phase == "settle" and game.winner is None
    game.push(Settle({1: 26}))
    assert game.winner == 0 and game.phase == "over"
    result = result_of(data)
    assert result["winner"] == "Ann"
    assert result["scores"] == {"Ann": 30, "Bob": 0}
    assert result["hands"][0]["result"] == "domino"
    assert result["hands"][0]["next_lead"] is None


def test_with_immediate_win_check_an_adjustment_to_the_target_wins_at_once() -> None:
    """Target 30, immediate: after Ann's 6-1 (event 4) the table gives her 30: 0 + 30 = 30,
    she wins at once; Bob has 15. The hand stops there unsettled (result won); nothing more
    is entered, not even a settlement."""
    options = {"target": 30, "win_check": "immediate"}
    data = duo({4: [adjust("Ann", 30, "Bob conceded")]}, options=options, settled=False)
    data["hands"][0]["events"] = data["hands"][0]["events"][:5]
    game = game_of(data)
    assert game.winner == 0 and game.phase == "over"
    assert game.scores == [30, 15]
    assert game.hands[0].result == "won" and game.hands[0].settlement is None
    refused_unchanged(game, Play(1, tile(3, 3), "W"), "game-over")
    refused_unchanged(game, Settle({1: 40}), "game-over")
    result = result_of(data)
    assert result["winner"] == "Ann"
    assert result["hands"][0]["result"] == "won"
    assert result["hands"][0]["settlement"] == {"Ann": 0, "Bob": 0}
    assert result["hands"][0]["next_lead"] is None


def test_with_immediate_win_check_an_adjustment_after_the_domino_wins_before_settling() -> None:
    """Target 30, immediate: after Ann's domino (Ann 15, Bob 25) the table gives her 15: she
    wins at once with 30, and the hand, over but not settled, is won: no settlement."""
    options = {"target": 30, "win_check": "immediate"}
    data = duo({10: [adjust("Ann", 15, "Bob misdealt")]}, options=options, settled=False)
    game = game_of(data)
    assert game.winner == 0 and game.hands[0].result == "won"
    assert game.scores == [30, 25]
    assert result_of(data)["hands"][0]["result"] == "won"


def test_an_adjustment_short_of_the_target_wins_nothing() -> None:
    options = {"target": 30, "win_check": "immediate"}
    game = game_to(duo({}, options=options), 4)
    game.push(Adjust(0, 25, "Bob misdealt"))
    assert game.winner is None and game.phase == "play" and game.scores == [25, 15]


# -- negative, in fives, and the rules it does not touch ---------------------------------------


def test_a_negative_adjustment_may_take_a_score_below_zero() -> None:
    """Before the lead is played Ann loses 20: -20; her 6-5 later brings her to -5."""
    data = duo({0: [adjust("Ann", -20, "played out of turn last hand")]})
    game = game_to(data, 1)
    assert game.scores == [-20, 0]
    assert result_of(data)["scores"] == {"Ann": -5, "Bob": 0}


def test_in_fives_an_adjustment_is_any_whole_number() -> None:
    """units fives: Bob's 15 and 10 are 3 and 2, Ann's 15 is 3. The table gives Ann 7 and
    takes 1 from Bob: Ann 3 + 7 = 10, Bob 5 - 1 - 25 / 5 = -1."""
    data = duo(
        {10: [adjust("Ann", 7, "agreed"), adjust("Bob", -1, "agreed")]},
        options={"units": "fives"},
    )
    assert result_of(data)["scores"] == {"Ann": 10, "Bob": -1}


def test_get_in_ignores_an_adjustment() -> None:
    """get_in 25: no play of the hand scores 25, so nobody gets in and no play scores. An
    adjustment of 10 counts for Ann all the same, and does not get her in: her 6-5 (15)
    still scores nothing. Ann 10, Bob 0 - 25 = -25."""
    data = duo({0: [adjust("Ann", 10, "agreed")]}, options={"get_in": 25})
    game = game_of(data)
    assert game.sides_in == [False, False]
    assert game.scores == [10, -25]
    assert game.hands[0].plays[6].voided == "not-in"


def test_an_adjustment_may_pass_an_exact_target() -> None:
    """exact_target, target 20: Bob's 6-3 takes him to 15, his 1-0 would pass 20 and scores
    0; Ann's 6-5 takes her to 15. After the domino the table gives Ann 10: 25, past the
    target, which exact_target does not stop. Bob 15 - 25 = -10. Checked after the
    settlement, Ann is the one side at or above 20 and wins (docs/rules.md 8)."""
    data = duo({10: [adjust("Ann", 10, "agreed")]}, options={"exact_target": "yes", "target": 20})
    assert game_to(data, 11).scores == [25, 15]
    result = result_of(data)
    assert result["scores"] == {"Ann": 25, "Bob": -10}
    assert result["winner"] == "Ann"


# -- refusals ----------------------------------------------------------------------------------


def test_malformed_adjustments_are_refused_with_record() -> None:
    """0, a non-multiple of 5 in points, a blank reason, 201 characters, not a number."""
    game = game_to(duo({}), 3)
    assert "other than 0" in refused(game, Adjust(0, 0, "agreed"))
    message = refused(game, Adjust(0, 7, "agreed"))
    assert "multiple of 5" in message and "5 or 10, not 7" in message
    assert "-10 or -5, not -7" in refused(game, Adjust(0, -7, "agreed"))
    assert "says why" in refused(game, Adjust(0, 10, "   "))
    assert "says why" in refused(game, Adjust(0, 10, ""))
    message = refused(game, Adjust(0, 10, "x" * 201))
    assert "at most 200 characters; this one has 201" in message
    game.push(Adjust(0, 10, "x" * 200))  # 200 are allowed
    game.pop()
    assert "whole number" in refused(game, Adjust(0, "ten", "agreed"))  # type: ignore[arg-type]
    assert "whole number" in refused(game, Adjust(0, 10.0, "agreed"))  # type: ignore[arg-type]
    assert "whole number" in refused(game, Adjust(0, True, "agreed"))
    refused(game, Adjust(7, 10, "agreed"))  # no seat 8
    refused(game, Adjust(0, 10, None))  # type: ignore[arg-type]


def test_an_adjustment_after_the_game_is_won_is_refused_with_game_over() -> None:
    data = duo({}, options={"target": 15})  # Ann wins with 15 at the end of the hand
    game = game_of(data)
    assert game.winner == 0
    message = refused(game, Adjust(1, 10, "agreed"), "game-over")
    assert "Ann won with 15" in message
    # A malformed one is still record: that rule is named first.
    refused(game, Adjust(1, 7, "agreed"), "record")


# -- undo ------------------------------------------------------------------------------------


def test_undo_takes_an_adjustment_back() -> None:
    data = duo({4: [adjust("Ann", 30, "Bob conceded")]}, options={"target": 30}, settled=False)
    data["hands"][0]["events"] = data["hands"][0]["events"][:5]
    game = game_of(data)
    before = snapshot(game_to(data, 4))
    assert game.pop() == Adjust(0, 30, "Bob conceded")
    assert snapshot(game) == before and game.scores == [0, 15]
    # With immediate, undoing the adjustment that won takes the win back too.
    immediate = {"target": 30, "win_check": "immediate"}
    won = duo({4: [adjust("Ann", 30, "Bob conceded")]}, options=immediate, settled=False)
    won["hands"][0]["events"] = won["hands"][0]["events"][:5]
    game = game_of(won)
    assert game.winner == 0
    game.pop()
    assert game.winner is None and game.phase == "play" and game.hands[0].result == "open"
    assert snapshot(game) == snapshot(game_to(won, 4))
    game.push(Adjust(0, 30, "Bob conceded"))
    assert game.winner == 0
    assert write_record(game) == {**won, "preset": "all-fives"}
