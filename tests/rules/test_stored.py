"""Events as the database stores them: every event reads back as itself, through JSON."""

from __future__ import annotations

import json
import random

import pytest

from scorekeeper.rules import (
    PRESETS,
    Adjust,
    Claim,
    Draw,
    Game,
    MalformedInput,
    NewHand,
    Play,
    Settle,
    Setup,
    tile,
)
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.stored import event_of, stored_event


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_event_of_a_game_reads_back_as_itself(preset: str) -> None:
    game = play_game(Setup.create(["Ann", "Bob", "Cy"], preset, {}, None), random.Random(7))
    assert len(game.events) > 20
    for event in game.events:
        kind, data = stored_event(event)
        assert event_of(kind, json.loads(json.dumps(data))) == event


def test_the_stored_shape_is_fixed() -> None:
    """Rows already in databases have this shape: it cannot change without a migration."""
    assert stored_event(Play(1, tile(6, 4), "W", True)) == (
        "play",
        {"player": 1, "tile": "6-4", "end": "W", "flipped": True},
    )
    assert stored_event(NewHand(2, "draw")) == ("new_hand", {"leader": 2, "chosen": "draw"})
    assert stored_event(NewHand(0)) == ("new_hand", {"leader": 0})
    assert stored_event(NewHand(1, "double", 2)) == (
        "new_hand",
        {"leader": 1, "chosen": "double", "redraws": 2},
    )
    assert stored_event(Settle({1: 7, 0: (tile(2, 1),)})) == (
        "settle",
        {"remaining": {"0": ["2-1"], "1": 7}},
    )


def test_redraws_read_back_and_a_row_without_them_has_none() -> None:
    assert event_of("new_hand", {"leader": 1, "chosen": "double", "redraws": 2}) == NewHand(
        1, "double", 2
    )
    assert event_of("new_hand", {"leader": 1}).redraws == 0


def test_an_unknown_kind_is_refused_as_malformed() -> None:
    with pytest.raises(MalformedInput) as refused:
        event_of("shuffle", {})
    assert refused.value.rule == "record"


def test_calls_claims_and_adjustments_read_back_as_themselves() -> None:
    """A game with calls (right, short, 0), claims and adjustments: every row reads back."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"deal": "five-each", "muggins": "yes"})
    events = [
        NewHand(0, "lot"),
        Adjust(0, -10, "misdeal: Ann was dealt six tiles"),
        Play(0, tile(6, 6)),
        Draw(1, 3),
        Play(1, tile(6, 3), "W", called=10),
        Claim(0),
        Play(0, tile(6, 1), "E", called=0),
        Adjust(1, 5, "Ann played out of turn ✋"),
    ]
    game = Game(setup, events)
    assert game.scores == [5, 5]  # Ann -10 + 15 (her claim), Bob 0 + 5
    for event in game.events:
        kind, data = stored_event(event)
        assert event_of(kind, json.loads(json.dumps(data))) == event


def test_the_stored_shape_of_calls_claims_and_adjustments() -> None:
    """A call is stored only when given; a claim and an adjustment have kinds of their own."""
    assert stored_event(Play(1, tile(6, 3), "W", called=10)) == (
        "play",
        {"player": 1, "tile": "6-3", "end": "W", "flipped": False, "called": 10},
    )
    assert stored_event(Play(1, tile(6, 1), "E", called=0))[1]["called"] == 0
    assert "called" not in stored_event(Play(1, tile(6, 3), "W"))[1]
    assert stored_event(Claim(0)) == ("muggins", {"player": 0})
    assert stored_event(Adjust(1, -5, "drew while able to play")) == (
        "adjust",
        {"player": 1, "points": -5, "reason": "drew while able to play"},
    )
    # A row stored before muggins existed reads as a play called right.
    assert event_of("play", {"player": 1, "tile": "6-3", "end": "W", "flipped": False}) == Play(
        1, tile(6, 3), "W"
    )
