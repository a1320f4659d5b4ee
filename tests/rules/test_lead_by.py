"""How a hand's leader was chosen (lot, the draw for the lead, or at the table) is kept with
the hand: in the event, in the record's optional ``lead_by``, and nowhere guessed."""

from __future__ import annotations

import pytest

from scorekeeper.rules import LEAD_WAYS, Game, MalformedInput, NewHand, Setup
from scorekeeper.rules.record import write_record
from tests.rules.helpers import assert_refused, duo_blocked, duo_domino, game_of, hand


def test_every_way_round_trips_through_the_record() -> None:
    for way in LEAD_WAYS:
        data = duo_domino()
        data["hands"][0]["lead_by"] = way
        game = game_of(data)
        assert game.events[0] == NewHand(0, way)
        assert write_record(game)["hands"][0]["lead_by"] == way


def test_a_record_without_lead_by_is_written_without_it() -> None:
    game = game_of(duo_domino())
    assert game.events[0] == NewHand(0, None)
    assert "lead_by" not in write_record(game)["hands"][0]


@pytest.mark.parametrize("way", ["random", "", 1, None, ["lot"]])
def test_an_unknown_way_is_refused_as_malformed(way: object) -> None:
    data = duo_domino()
    data["hands"][0]["lead_by"] = way
    assert_refused(data, "record", 1, None)


def test_a_hand_after_a_domino_has_no_chosen_leader() -> None:
    data = duo_domino(more_hands=[{**hand("Ann", []), "lead_by": "lot"}])
    assert_refused(data, "record", 2, None)


def test_a_hand_after_a_blocked_hand_keeps_how_its_leader_was_chosen() -> None:
    data = duo_blocked({"Ann": 62, "Bob": 28}, more_hands=[{**hand("Bob", []), "lead_by": "draw"}])
    game = game_of(data)
    assert game.events[-1] == NewHand(1, "draw")
    assert write_record(game)["hands"][1]["lead_by"] == "draw"


def test_the_engine_refuses_an_unknown_way_and_changes_nothing() -> None:
    game = Game(Setup.create(["Ann", "Bob"], "all-fives"))
    with pytest.raises(MalformedInput):
        game.push(NewHand(0, "coin"))
    assert game.events == []
    game.push(NewHand(1, "table"))
    assert game.hand is not None and game.hand.leader == 1
