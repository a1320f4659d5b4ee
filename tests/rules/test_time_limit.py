"""docs/rules.md 8f, a club night's time limit: time called once in a game; with finish-hand
the hand being played is the last and the side ahead then wins, between hands at once, level
sides playing on; with to-target it is only noted.

Worked on the two-player domino hand of the helpers (all-fives, target 250): before its
settlement Ann has 15 and Bob 25; Ann dominoes. Bob holding 26 pips (25 off): Ann 15, Bob 0.
Bob holding 10 pips (10 off): both 15, level.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from scorekeeper.rules import Adjust, Game, NewHand, Refusal, Settle, Setup, TimeCalled
from scorekeeper.rules.events import TIME_RULES
from scorekeeper.rules.explain import explain_all
from scorekeeper.rules.nights.format import NightFormat
from scorekeeper.rules.nights.standings import TableGames, match_result
from scorekeeper.rules.record import load_record, replay_result, write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.stats import GameFacts, game_facts
from tests.rules.helpers import (
    DUO_DOMINO_OPTIONS,
    amended,
    duo_domino_events,
    game_of,
    game_to,
    hand,
    record,
    refused_unchanged,
    result_of,
)
from tests.rules.test_nights import won

BOB_26 = {"Bob": ["5-4", "5-3", "4-2", "2-1"]}
FINISH: dict[str, Any] = {"time": "finish-hand"}
TO_TARGET: dict[str, Any] = {"time": "to-target"}


def duo(after: dict[int, list[Any]], remaining: dict[str, Any] | None = BOB_26) -> Any:
    """The domino hand with entries inserted after event numbers (from 1), settled with
    ``remaining`` (unsettled when None)."""
    return record(
        ["Ann", "Bob"],
        [hand("Ann", amended(duo_domino_events(), after=after), remaining)],
        options=dict(DUO_DOMINO_OPTIONS),
    )


def settled_then(entry: dict[str, Any], remaining: dict[str, Any] = BOB_26) -> Any:
    """The domino hand settled, then ``entry`` before any next lead."""
    data = duo({}, remaining)
    data["hands"][0]["after_settlement"] = [entry]
    return data


def test_time_mid_hand_makes_it_the_last_and_the_side_ahead_wins_below_the_target() -> None:
    data = duo({3: [FINISH]})
    before = game_to(data, 4)
    assert before.time == "finish-hand" and before.winner is None and before.phase == "play"
    game = game_of(data)
    assert game.scores == [15, 0] and game.rules.target == 250
    assert game.winner == 0 and game.won_at_time and game.phase == "over"
    result = result_of(data)
    assert result["winner"] == "Ann"
    assert result["time"] == "finish-hand" and result["won_at_time"] is True
    assert result["hands"][0]["next_lead"] is None
    message = refused_unchanged(game, NewHand(0), "game-over")
    assert "time was called" in message and "Ann won at the time limit with 15" in message


def test_time_between_hands_ends_the_game_at_once() -> None:
    game = game_of(duo({}))
    assert game.winner is None and game.phase == "lead"
    game.push(TimeCalled("finish-hand"))
    assert game.winner == 0 and game.won_at_time and game.phase == "over"
    written = write_record(game)
    assert written["hands"][0]["after_settlement"] == [FINISH]
    assert "time" not in json.dumps(written["hands"][0]["events"])
    again = load_record(json.dumps(written))
    assert again.winner == 0 and again.won_at_time and again.events == game.events


def test_level_sides_play_on_one_hand_at_a_time() -> None:
    """Level at 15 when the last hand is settled: no winner, the next hand is led; it is the
    last again (an adjustment during it decides nothing), and an adjustment between hands
    that puts a side ahead ends the game at once."""
    game = game_of(duo({3: [FINISH]}, {"Bob": 10}))
    assert game.scores == [15, 15] and game.winner is None and game.phase == "lead"
    summaries = [str(told.summary) for told in explain_all(game)]
    assert summaries[4] == "Time called: this hand is the last."
    assert any("level at 15 at the time limit" in str(line) for line in explain_all(game)[-1].lines)
    game.push(NewHand(0))
    game.push(Adjust(1, 5, "agreed at the table"))
    assert game.winner is None and game.phase == "play"
    level = game_of(settled_then(FINISH, {"Bob": 10}))
    assert level.winner is None and level.phase == "lead"
    level.push(Adjust(1, 5, "Ann drew while able to play"))
    assert level.winner == 1 and level.won_at_time


def test_to_target_is_only_noted() -> None:
    game = game_of(duo({3: [TO_TARGET]}))
    assert game.time == "to-target" and game.winner is None and game.phase == "lead"
    told = explain_all(game)[4]
    assert told.kind == "time"
    assert str(told.summary) == "Time called; play goes on to the target."
    assert result_of(duo({3: [TO_TARGET]}))["won_at_time"] is False


def test_refusals_name_the_time_rule_and_change_nothing() -> None:
    game = game_to(duo({3: [FINISH]}), 4)
    assert "called once" in refused_unchanged(game, TimeCalled("to-target"), "time")
    fresh = Game(game.setup)
    assert "Hand 1 has not begun" in refused_unchanged(fresh, TimeCalled("finish-hand"), "time")
    over = game_of(duo({3: [FINISH]}))
    refused_unchanged(over, TimeCalled("finish-hand"), "game-over")
    refused_unchanged(game_to(duo({}), 2), TimeCalled("finish-hour"), "record")  # type: ignore[arg-type]


def test_undo_takes_time_back_only_with_its_own_entry() -> None:
    game = game_of(duo({3: [FINISH]}, {"Bob": 10}))
    game.push(NewHand(0))
    game.pop()  # the next lead
    assert game.time == "finish-hand"
    settlement = game.pop()
    assert isinstance(settlement, Settle) and game.time == "finish-hand"
    while not isinstance(game.pop(), TimeCalled):
        assert game.time == "finish-hand"
    assert game.time is None and game.time_at is None
    fork = game_of(duo({}))
    fork.push(TimeCalled("finish-hand"))
    assert fork.winner == 0
    fork.pop()
    assert fork.winner is None and not fork.won_at_time and fork.time is None


def test_a_record_with_time_reads_back_to_the_same_result() -> None:
    data = duo({5: [FINISH]})
    game = game_of(data)
    written = write_record(game)
    assert written["hands"][0]["events"][5] == FINISH
    assert result_of(written) == result_of(data)


def test_a_best_of_three_cut_short_by_time_is_decided_by_games_then_points() -> None:
    """Ann wins game 1 to the target, Bo game 2 at the time limit: one game each, and no game
    3 is played. The match is over, and Ann's 250 + 90 beat Bo's 60 + 120."""
    night = NightFormat(2, 1, 30, "best-of-3", "finish-hand", ("difference",))
    seats = ("Ann", "Bo")
    untimed = TableGames(1, seats, (won((250, 60)), won((90, 120))))
    assert not match_result(untimed, night).over, "without time a third game decides"
    timed = TableGames(1, seats, (won((250, 60)), won((90, 120), time_called=True)))
    result = match_result(timed, night)
    assert result.over and result.games_won == (1, 1)
    assert result.points_for == (340, 180) and result.match_points == (2, 0)
    ahead = TableGames(1, seats, (won((200, 250)), won((90, 80), time_called=True)))
    assert match_result(ahead, night).match_points == (0, 2), "Bo's 330 beat Ann's 290"
    level = TableGames(1, seats, (won((200, 250)), won((150, 100), time_called=True)))
    assert match_result(level, night).match_points == (1, 1), "350 each: a drawn match"


def test_a_game_with_time_called_says_so_in_its_facts() -> None:
    facts = game_facts(game_of(duo({3: [FINISH]})))
    assert facts.time_called and facts.winner == 0
    assert GameFacts.from_json(facts.to_json()) == facts
    assert not game_facts(game_of(duo({}))).time_called


@pytest.mark.parametrize("seed", range(12))
def test_time_anywhere_in_a_simulated_game_ends_it_as_the_rule_says(seed: int) -> None:
    """Time called after any entry of a whole simulated game (after hand 1 is led): with
    finish-hand the game is won by the end of that hand, or a later one only while the sides
    are level; with to-target it ends as it would have. Written and read back, each game
    replays to the same result."""
    rng = random.Random(seed)
    players = ["Ann", "Bob", "Cy", "Dee"][: 2 + seed % 3]
    whole = play_game(Setup.create(players, "all-fives"), rng)
    at = rng.randrange(1, len(whole.events) + 1)
    for rule in TIME_RULES:
        game = Game(whole.setup, whole.events[:at])
        if game.winner is not None:
            continue
        game.push(TimeCalled(rule))
        called_in = len(game.hands)
        for event in whole.events[at:]:
            try:
                game.push(event)
            except Refusal as refusal:
                assert rule == "finish-hand" and refusal.rule == "game-over"
                break
        if rule == "to-target":
            assert (game.winner, game.scores) == (whole.winner, whole.scores)
        elif game.winner is not None:
            for hand in game.hands[called_in - 1 : -1]:  # each hand played on: level after it
                after = game.scores_after(hand)
                assert after.count(max(after)) > 1
        again = load_record(json.dumps(write_record(game)))
        assert again.events == game.events
        assert replay_result(again) == replay_result(game)
