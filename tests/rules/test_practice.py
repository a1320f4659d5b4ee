"""docs/rules.md 8e, practice mode: each play's count hidden until the table guesses it.

Worked on the two-player domino hand of the helpers (all-fives, deal five-each, spinner 6-6),
whose events are, by number:

    1 Ann 6-6 (12)   2 Bob draws 3   3 Bob 6-3 W (15: 15)   4 Ann 6-1 E (4)   5 Bob 3-3 W (7)
    6 Ann 6-4 N (11)   7 Bob 1-0 E (10: 10)   8 Ann 6-5 S (15: 15)   9 Bob 3-2 W (11)
    10 Ann 5-5 S (16), Ann dominoes; Bob keeps 26 pips, rounded 25.

Scores without the house rule: Ann 15, Bob 15 + 10 - 25 = 0; with it, the same. The table
guesses after events 1 (0 for Ann's 12: right, 12 is no score), 3 (15 for Bob: right), 4 (5
for Ann's 4: wrong, 4 is no score), 7 (10 for Bob: right) and 8 (10 for Ann's 15: wrong);
plays 5, 6, 9 and 10 go unguessed. Ann: 1 of 5 counts guessed right; Bob: 2 of 4.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Game, Guess, Hand, Play, Setup, tile
from scorekeeper.rules.errors import RecordRefusal
from scorekeeper.rules.explain import explain, explain_all
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.practice import Guessed, guess_choices, guesses, hidden_play
from scorekeeper.rules.record import read_record, replay_result, write_record
from scorekeeper.rules.simulate import play_game
from tests.rules.helpers import (
    Entry,
    Record,
    amended,
    duo_domino,
    duo_domino_events,
    game_of,
    game_to,
    hand,
    record,
    refused_unchanged,
    result_of,
)
from tests.rules.test_properties import seeds, setups

PRACTICE = {"deal": "five-each", "practice": "yes"}
BOB_26 = {"Bob": ["5-4", "5-3", "4-2", "2-1"]}


def guess(player: str, points: Any) -> Entry:
    """A guess of the count of the play just before (docs/rules.md 8e)."""
    return {"player": player, "guess": points}


GUESSED = {
    1: [guess("Ann", 0)],
    3: [guess("Bob", 15)],
    4: [guess("Ann", 5)],
    7: [guess("Bob", 10)],
    8: [guess("Ann", 10)],
}
"""The table's guesses, after the event of each number."""


def practice(after: dict[int, list[Entry]] | None = None, settled: bool = True) -> Record:
    """The domino hand in practice mode with the guesses of ``after`` (GUESSED by default)."""
    events = amended(duo_domino_events(), after=GUESSED if after is None else after)
    return record(
        ["Ann", "Bob"], [hand("Ann", events, BOB_26 if settled else None)], options=PRACTICE
    )


def current(game: Game) -> Hand:
    """The hand in play (every game here has begun one)."""
    assert game.hand is not None
    return game.hand


def test_guesses_change_no_score_and_the_tallies_count_unguessed_plays_as_not_right() -> None:
    result = result_of(practice())
    plain = result_of(duo_domino())
    assert result["scores"] == plain["scores"] == {"Ann": 15, "Bob": 0}
    plays = result["hands"][0]["plays"]
    assert [p["guessed"] for p in plays] == [0, 15, 5, None, None, 10, 10, None, None]
    assert [p["points"] for p in plays] == [p["points"] for p in plain["hands"][0]["plays"]]
    # The replay output without the rule is as it always was: no "guessed" anywhere.
    assert all("guessed" not in p for p in plain["hands"][0]["plays"])
    assert guesses(game_of(practice())) == (Guessed(0, 1, 5), Guessed(1, 2, 4))


def test_a_guess_is_not_a_turn_and_shows_the_count() -> None:
    data = practice()
    hidden = game_to(data, 4)  # Bob's 6-3, its count hidden
    assert hidden_play(hidden) is current(hidden).plays[-1]
    assert current(hidden).turn == 0
    assert guess_choices(hidden) == (0, 5, 10, 15, 20)  # two ends: up to 12 + 10
    shown = game_to(data, 5)  # the guess of 15
    assert hidden_play(shown) is None and guess_choices(shown) == ()
    assert current(shown).plays[-1].guessed == 15
    assert shown.scores == hidden.scores == [0, 15]
    assert current(shown).turn == 0  # still Ann's turn
    # Four open ends once the spinner's sides are covered: up to 12 + 10 + 8 + 6, in fives.
    assert guess_choices(game_to(data, 6)) == tuple(range(0, 36, 5))


def test_the_next_entry_shows_the_count_and_an_unguessed_play_is_not_right() -> None:
    data = practice()
    game = game_to(data, 8)  # Bob's 3-3, not guessed
    assert hidden_play(game) is not None
    game.push(Play(0, tile(6, 4), "N"))
    hidden = hidden_play(game)
    assert hidden is not None and hidden.tile == tile(6, 4)
    assert guesses(game) == (Guessed(0, 1, 2), Guessed(1, 1, 2))


def test_the_domino_play_can_be_guessed_before_the_settlement() -> None:
    data = practice(after={**GUESSED, 10: [guess("Ann", 0)]})
    game = game_to(data, 16)  # the hand is over: Ann dominoed with 5-5 (16)
    assert game.phase == "settle" and hidden_play(game) is None
    assert current(game).plays[-1].guessed == 0
    assert result_of(data)["scores"] == {"Ann": 15, "Bob": 0}


def test_undo_of_a_guess_hides_the_count_again() -> None:
    game = game_to(practice(), 5)
    assert hidden_play(game) is None
    undone = game.pop()
    assert undone == Guess(1, 15)
    assert hidden_play(game) is current(game).plays[-1] and current(game).plays[-1].guessed is None


# -- refusals: rule guess, nothing stored ------------------------------------------------------


def test_a_guess_without_practice_mode_is_refused() -> None:
    game = game_to(duo_domino(), 3)
    message = refused_unchanged(game, Guess(1, 15), "guess")
    assert "house rule practice: no" in message


def test_a_second_guess_of_one_count_is_refused() -> None:
    game = game_to(practice(), 5)
    message = refused_unchanged(game, Guess(1, 10), "guess")
    assert message == "The count of Bob's 6-3 is already guessed (15): a count is guessed once."


def test_a_stale_guess_after_the_next_entry_is_refused() -> None:
    """Bob's draw (event 2) came after Ann's lead: its count is shown, nothing is hidden."""
    game = game_to(practice(after={}), 2)
    message = refused_unchanged(game, Guess(0, 0), "guess")
    assert message.startswith("No count is hidden now")
    # Another play came between: the guess for Bob's 6-3 is for a play no longer last.
    later = game_to(practice(after={}), 4)
    message = refused_unchanged(later, Guess(1, 15), "guess")
    assert message == ("The count of Ann's 6-1 is guessed for Ann, who played it, not for Bob.")


@pytest.mark.parametrize("points", [7, 25, 50])
def test_a_guess_out_of_range_is_refused(points: int) -> None:
    """Two open ends of a double-six set make at most 12 + 10: 0, 5, ..., 20; not 7, 25 or 50."""
    game = game_to(practice(after={}), 3)
    message = refused_unchanged(game, Guess(1, points), "guess")
    assert "up to 20" in message and str(points) in message


@pytest.mark.parametrize("points", [-5, "15", True, 2.5])
def test_a_guess_that_is_no_count_is_refused_as_malformed(points: Any) -> None:
    game = game_to(practice(after={}), 3)
    refused_unchanged(game, Guess(1, points), "record")


def test_a_guess_after_the_game_is_won_is_refused() -> None:
    """Target 15, checked at once: Bob's 6-3 (15) wins the game, and its count is shown."""
    data = practice(after={}, settled=False)
    data["options"] = {**PRACTICE, "target": 15, "win_check": "immediate"}
    game = game_to(data, 3)
    assert game.winner == 1 and hidden_play(game) is None
    refused_unchanged(game, Guess(1, 15), "game-over")


def test_practice_mode_does_not_go_with_muggins() -> None:
    data = practice()
    data["options"] = {**PRACTICE, "muggins": "yes"}
    with pytest.raises(RecordRefusal) as caught:
        read_record(copy.deepcopy(data))
    assert caught.value.rule == "record"
    assert "practice: yes" in caught.value.message and "muggins: yes" in caught.value.message


# -- the record and the Why? ----------------------------------------------------------------


def test_the_record_keeps_the_guesses_and_reads_back_the_same_game() -> None:
    game = game_of(practice())
    written = write_record(game)
    events = written["hands"][0]["events"]
    assert events[1] == {"player": "Ann", "guess": 0}
    assert events[4] == {"player": "Bob", "guess": 15}
    again = read_record(written)
    assert again.events == game.events and again.scores == game.scores


def test_the_record_refuses_a_guess_that_is_not_a_count() -> None:
    data = practice(after={3: [guess("Bob", "fifteen")]})  # the record's event 4
    with pytest.raises(RecordRefusal) as caught:
        read_record(data)
    assert (caught.value.rule, caught.value.hand, caught.value.event) == ("record", 1, 4)


def test_the_why_of_a_guess_says_right_or_wrong_and_each_players_tally() -> None:
    game = game_of(practice())
    told = explain_all(game)
    kinds = [t.kind for t in told]
    assert kinds.count("guess") == 5
    right = explain(game, 5)  # Bob's guess of 15 (event 0 is the new hand)
    assert str(right.summary) == "The count of Bob's 6-3 guessed 15: right, the count was 15."
    assert [str(line) for line in right.lines[1:]] == [
        "Ann: 1 of 1 counts guessed right.",
        "Bob: 1 of 1 counts guessed right.",
    ]
    wrong = explain(game, 7)  # Ann's guess of 5 for 6-1 (4)
    assert str(wrong.summary) == (
        "The count of Ann's 6-1 guessed 5: wrong, the count was 4 (0 points)."
    )
    assert wrong.hand == 1 and wrong.event == 7


def test_a_game_without_the_rule_hides_nothing() -> None:
    game: Game = game_to(duo_domino(), 3)
    assert hidden_play(game) is None and guess_choices(game) == () and guesses(game) == ()


# -- any table: a guess never changes a score ---------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(setup=setups(), seed=seeds, data=st.data())
def test_on_any_table_guesses_change_nothing_but_what_the_table_is_shown(
    setup: Setup, seed: int, data: st.DataObject
) -> None:
    """A simulated game played again in practice mode, a guess (any of those offered) after
    some plays: after every entry the scores, the phase and the winner are those of the game
    without the house rule; every right guess is one of its player's counts guessed right;
    the record reads back the same game, and the replay output differs only by ``guessed``."""
    plain = play_game(setup, random.Random(seed), max_hands=8)
    options = {**setup.options, "practice": "yes"}
    practising = Game(Setup.create(list(setup.players), setup.preset, options, setup.partners))
    replayed = Game(setup)
    right = [0] * len(setup.players)
    for event in plain.events:
        replayed.push(event)
        practising.push(event)
        choices = guess_choices(practising)
        if choices and data.draw(st.booleans()):
            hidden = hidden_play(practising)
            assert hidden is not None and play_points(hidden.count) in choices
            guessed = data.draw(st.sampled_from(choices))
            practising.push(Guess(hidden.player, guessed))
            right[hidden.player] += guessed == play_points(hidden.count)
        assert practising.scores == replayed.scores
        assert (practising.phase, practising.winner) == (replayed.phase, replayed.winner)
    shown = [g.right for g in guesses(practising)]
    assert shown == right
    again = read_record(write_record(practising))
    assert again.events == practising.events
    result = replay_result(practising)
    for told in result["hands"]:
        for play in told["plays"]:
            play.pop("guessed")
    assert result == replay_result(plain)
