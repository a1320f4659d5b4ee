"""A game as a whole: winning, the next leader, blocked hands, counting tiles held, undo.

The two-player domino hand (see helpers) stands at Ann 15, Bob 25 before it is settled; Bob's
6-3 (event 3) scores 15 and his 1-0 (event 7) scores 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.errors import Refusal
from scorekeeper.rules.events import Draw, Event, NewHand, Pass, Play, Settle
from scorekeeper.rules.game import Game
from scorekeeper.rules.tiles import tile
from tests.rules.helpers import (
    DUO,
    Record,
    duo_blocked,
    duo_domino,
    duo_domino_events,
    game_of,
    hand,
    play,
    quad_domino,
    record,
    result_of,
    snapshot,
)
from tests.support.referee import check

DOMINO = duo_domino_events()
ANN, BOB = 0, 1


def duo(events: list[Any], options: dict[str, Any] | None = None, **hand_fields: Any) -> Record:
    """Ann and Bob, five tiles each, one hand led by Ann."""
    return record(
        DUO, [hand("Ann", events, **hand_fields)], options={"deal": "five-each", **(options or {})}
    )


def unsettled(data: Record) -> Game:
    """The game of a settled record, without its last event (the settlement)."""
    full = game_of(data)
    return Game(full.setup, full.events[:-1])


# -- winning ------------------------------------------------------------------------------


def test_immediate_win_stops_the_hand_unsettled() -> None:
    data = duo(DOMINO[:3], {"target": 15, "win_check": "immediate"})
    result = result_of(data)
    assert result["winner"] == "Bob"
    assert result["scores"] == {"Ann": 0, "Bob": 15}
    only = result["hands"][0]
    assert only["result"] == "won"
    assert only["settlement"] == {"Ann": 0, "Bob": 0}
    assert only["next_lead"] is None
    game = game_of(data)
    assert game.phase == "over"
    assert game.winner == BOB
    assert game.next_leader is None


def test_immediate_win_comes_with_the_first_play_that_reaches_the_target() -> None:
    # 15 at event 3 is short of 20; the 10 at event 7 makes 25.
    result = result_of(duo(DOMINO[:7], {"target": 20, "win_check": "immediate"}))
    assert result["winner"] == "Bob"
    assert result["hands"][0]["result"] == "won"
    assert len(result["hands"][0]["plays"]) == 6
    assert result["scores"] == {"Ann": 0, "Bob": 25}


def test_immediate_win_is_not_reached_before_the_target() -> None:
    game = game_of(duo(DOMINO[:6], {"target": 20, "win_check": "immediate"}))
    assert game.winner is None
    assert game.phase == "play"


def test_end_of_hand_reaching_the_target_mid_hand_does_not_stop_it() -> None:
    game = game_of(duo(DOMINO[:3], {"target": 15}))
    assert game.winner is None
    assert game.phase == "play"
    assert game.scores == [0, 15]


def test_immediate_also_checks_the_target_after_settling() -> None:
    # Ann collects 25 for Bob's 26 (bonus not in fives) and reaches 40 at the end of the hand.
    options = {"target": 40, "win_check": "immediate", "bonus_in_fives": "no"}
    data = duo_domino(preset="totally-fives", options=options)
    result = result_of(data)
    assert result["hands"][0]["result"] == "domino"
    assert result["winner"] == "Ann"
    assert result["scores"] == {"Ann": 40, "Bob": 25}


def test_tie_at_the_target_after_a_hand_plays_another_hand() -> None:
    # Bob holds 12 -> 10: Ann 15, Bob 15, both at the target 15 and tied for highest.
    data = duo_domino(remaining={"Bob": 12}, options={"target": 15})
    result = result_of(data)
    assert result["scores"] == {"Ann": 15, "Bob": 15}
    assert result["winner"] is None
    assert result["hands"][0]["next_lead"] == "Ann"
    game = game_of(data)
    assert game.phase == "lead"
    game.push(NewHand(ANN))
    game.push(Play(ANN, tile(4, 4)))
    assert game.phase == "play"


def test_tie_above_the_target_then_the_next_hand_decides() -> None:
    second = hand("Ann", [play("Ann", "5-5")])
    data = duo_domino(remaining={"Bob": 12}, options={"target": 10}, more_hands=[second])
    result = result_of(data)
    assert result["hands"][0]["scores"] == {"Ann": 15, "Bob": 15}
    assert result["scores"] == {"Ann": 25, "Bob": 15}
    assert result["winner"] is None


def test_end_of_hand_the_highest_wins_when_several_reach_the_target() -> None:
    # Bob holds 7 -> 5: Ann 15, Bob 20; both reach 10 and Bob is highest.
    data = duo_domino(remaining={"Bob": 7}, options={"target": 10})
    result = result_of(data)
    assert result["scores"] == {"Ann": 15, "Bob": 20}
    assert result["winner"] == "Bob"
    assert result["hands"][0]["next_lead"] is None
    assert game_of(data).phase == "over"


def test_end_of_hand_a_side_below_the_target_does_not_win() -> None:
    data = duo_domino(remaining={"Bob": 7}, options={"target": 20})
    assert result_of(data)["winner"] == "Bob"
    data = duo_domino(remaining={"Bob": 7}, options={"target": 25})
    assert result_of(data)["winner"] is None


def test_default_targets() -> None:
    assert game_of(duo_domino()).rules.target == 250
    assert game_of(quad_domino()).rules.target == 200
    assert game_of(duo_domino(preset="fives-up")).rules.target == 100
    assert game_of(duo_domino(preset="totally-fives")).rules.target == 200


# -- the next leader and blocked hands --------------------------------------------------------


def test_next_lead_is_the_player_who_dominoed() -> None:
    game = game_of(quad_domino())
    assert game.next_leader == ANN
    assert result_of(quad_domino())["hands"][0]["next_lead"] == "Ann"


def test_next_lead_is_by_lot_after_a_blocked_hand() -> None:
    data = duo_blocked({"Ann": 62, "Bob": 28})
    assert game_of(data).next_leader is None
    result = result_of(data)
    assert result["hands"][0]["result"] == "blocked"
    assert result["hands"][0]["next_lead"] is None


def test_blocked_takes_as_many_consecutive_passes_as_players() -> None:
    both = unsettled(duo_blocked({"Ann": 62, "Bob": 28}))
    one_pass = Game(both.setup, both.events[:-1])
    assert one_pass.phase == "play"
    assert one_pass.hand is not None and one_pass.hand.turn == BOB
    assert both.phase == "settle"
    assert both.hand is not None and both.hand.result == "blocked"


def test_pass_allowed_once_only_the_reserve_is_left() -> None:
    data = duo_blocked({"Ann": 40, "Bob": 30}, options={"boneyard_reserve": 4}, drawn=6)
    game = game_of(data)
    assert game.hands[0].result == "blocked"
    assert game.hands[0].boneyard == 4
    assert game.drawable() == 0


# -- tiles held ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "held", "boneyard"),
    [
        ([], [5, 5], 18),
        (DOMINO[:1], [4, 5], 18),
        (DOMINO[:2], [4, 8], 15),
        (DOMINO[:3], [4, 7], 15),
    ],
)
def test_held_is_dealt_plus_drawn_minus_played(
    events: list[Any], held: list[int], boneyard: int
) -> None:
    game = game_of(duo(events))
    assert game.hand is not None
    assert (game.hand.held, game.hand.boneyard) == (held, boneyard)


def test_held_at_the_end_of_the_domino_hand() -> None:
    game = unsettled(duo_domino())
    assert game.hand is not None
    assert (game.hand.held, game.hand.boneyard) == ([0, 4], 15)


def test_held_after_the_blocked_hand() -> None:
    game = game_of(duo_blocked({"Ann": 62, "Bob": 28}))
    assert (game.hands[0].held, game.hands[0].boneyard) == ([14, 4], 0)


# -- undo and refusals change exactly what they should ----------------------------------------


def seen(game: Game) -> tuple[object, ...]:
    """What a user can see of a game, plus the tile counts the referee keeps."""
    current = game.hand
    counted = (list(current.held), current.boneyard) if current else None
    return (*snapshot(game), counted, game.drawable(), game.winner, list(game.scores))


GAMES = {
    "two hands": duo_domino(
        more_hands=[hand("Ann", [play("Ann", "4-4"), play("Bob", "4-1", "W"), play("Ann", "1-1")])]
    ),
    "blocked": duo_blocked({"Ann": 62, "Bob": 28}, more_hands=[hand("Bob", [])]),
    "immediate win": duo(DOMINO[:7], {"target": 20, "win_check": "immediate"}),
    "partners": quad_domino(),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_pop_restores_the_exact_previous_state(name: str) -> None:
    full = game_of(GAMES[name])
    events = list(full.events)
    for k in range(len(events)):
        game = Game(full.setup, events[:k])
        before = seen(game)
        game.push(events[k])
        assert seen(game) != before
        assert game.pop() == events[k]
        assert seen(game) == before


def test_pop_undoes_an_immediate_win() -> None:
    game = game_of(GAMES["immediate win"])
    assert game.winner == BOB
    game.pop()
    assert game.winner is None
    assert game.phase == "play"
    assert game.scores == [0, 15]


def test_pop_with_nothing_to_undo() -> None:
    game = Game(game_of(duo_domino()).setup)
    with pytest.raises(IndexError):
        game.pop()


def refused_in_play() -> list[tuple[Event, str]]:
    """Entries refused after the first three events of the domino hand (Ann to play)."""
    return [
        (Play(BOB, tile(3, 3), "W"), "turn"),
        (Play(ANN, tile(6, 3), "W"), "tile-unique"),
        (Play(ANN, tile(6, 2), "3-3:N"), "end-unknown"),
        (Play(ANN, tile(6, 2), "N"), "spinner-sides"),
        (Play(ANN, tile(5, 4), "E"), "match"),
        (Play(ANN, tile(5, 4)), "match"),
        (Play(ANN, tile(6, 2), "Q"), "record"),
        (Play(7, tile(6, 2), "E"), "record"),
        (Draw(ANN, 16), "draw-empty"),
        (Draw(ANN, 0), "record"),
        (Pass(ANN), "pass-boneyard"),
        (NewHand(ANN), "record"),
        (Settle({BOB: 20}), "remaining"),
    ]


@pytest.mark.parametrize(("event", "rule"), refused_in_play())
def test_a_refused_push_changes_nothing(event: Event, rule: str) -> None:
    game = game_of(duo(DOMINO[:3]))
    before = seen(game)
    with pytest.raises(Refusal) as checked:
        check(game, event)
    assert checked.value.rule == rule
    assert seen(game) == before
    with pytest.raises(Refusal) as pushed:
        game.push(event)
    assert pushed.value.rule == rule
    assert seen(game) == before
    game.push(Play(ANN, tile(6, 1), "E"))
    assert seen(game) == seen(game_of(duo(DOMINO[:4])))


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        (Settle({}), "remaining"),
        (Settle({BOB: 34}), "remaining"),
        (Settle({ANN: 1, BOB: 26}), "remaining"),
        (Settle({BOB: (tile(6, 6), tile(5, 3), tile(4, 2), tile(2, 1))}), "remaining"),
        (NewHand(ANN), "remaining"),
        (Play(BOB, tile(4, 2), "N"), "hand-over"),
    ],
)
def test_a_refused_entry_at_the_end_of_a_hand_changes_nothing(event: Event, rule: str) -> None:
    game = unsettled(duo_domino())
    before = seen(game)
    with pytest.raises(Refusal) as caught:
        game.push(event)
    assert caught.value.rule == rule
    assert seen(game) == before
    game.push(Settle({BOB: 26}))
    assert seen(game) == seen(game_of(duo_domino(remaining={"Bob": 26})))


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        (NewHand(BOB), "game-over"),
        (Play(ANN, tile(6, 5), "S"), "game-over"),
        (Settle({ANN: 30, BOB: 20}), "game-over"),
    ],
)
def test_a_refused_entry_after_the_game_is_won_changes_nothing(event: Event, rule: str) -> None:
    game = game_of(GAMES["immediate win"])
    before = seen(game)
    with pytest.raises(Refusal) as caught:
        game.push(event)
    assert caught.value.rule == rule
    assert seen(game) == before


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        (NewHand(BOB), "lead"),
        (NewHand(5), "record"),
        (Settle({BOB: 26}), "remaining"),
    ],
)
def test_a_refused_entry_between_hands_changes_nothing(event: Event, rule: str) -> None:
    game = game_of(duo_domino())
    before = seen(game)
    with pytest.raises(Refusal) as caught:
        game.push(event)
    assert caught.value.rule == rule
    assert seen(game) == before
    game.push(NewHand(ANN))
    assert game.phase == "play"


def test_phases_of_a_game() -> None:
    game = Game(game_of(duo_domino()).setup)
    assert game.phase == "lead"
    game.push(NewHand(ANN))
    assert game.phase == "play"
    for event in unsettled(duo_domino()).events[1:]:
        game.push(event)
    assert game.phase == "settle"
    game.push(Settle({BOB: 26}))
    assert game.phase == "lead"


@pytest.mark.parametrize("event", [Play(BOB, tile(4, 4)), Draw(BOB), Pass(BOB)])
def test_hand_over_an_action_after_the_hand_is_settled(event: Event) -> None:
    game = game_of(duo_domino())
    with pytest.raises(Refusal) as caught:
        game.push(event)
    assert caught.value.rule == "hand-over"
