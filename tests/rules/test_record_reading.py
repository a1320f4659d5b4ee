"""Reading records: a finished hand needs its settlement, unless the reader allows a pause;
calls, claims and adjustments are written back as read."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import RecordRefusal
from scorekeeper.rules.record import load_record, read_record, write_record
from tests.rules.helpers import (
    DUO,
    DUO_DOMINO_OPTIONS,
    adjust,
    amended,
    claim,
    duo_domino,
    duo_domino_events,
    hand,
    play,
    record,
)


def unsettled() -> dict:
    data = duo_domino()
    del data["hands"][-1]["remaining"]
    return data


def test_a_finished_hand_without_remaining_is_refused() -> None:
    with pytest.raises(RecordRefusal) as caught:
        read_record(unsettled())
    assert (caught.value.rule, caught.value.hand, caught.value.event) == ("remaining", 1, None)


def test_the_last_hand_may_wait_for_its_settlement_when_allowed() -> None:
    game = read_record(unsettled(), unsettled_last_hand=True)
    assert game.phase == "settle"
    assert write_record(game)["hands"] == unsettled()["hands"]


def test_only_the_last_hand_may_wait_for_its_settlement() -> None:
    data = unsettled()
    data["hands"].append({"lead": data["hands"][0]["lead"], "events": []})
    with pytest.raises(RecordRefusal) as caught:
        read_record(data, unsettled_last_hand=True)
    assert (caught.value.rule, caught.value.hand, caught.value.event) == ("remaining", 1, None)


def test_calls_claims_and_adjustments_are_written_back_as_read() -> None:
    """write_record(read_record(...)) keeps a call (also 0), a claim, adjustments (negative,
    with any text as reason) wherever they stand, over two hands."""
    events = amended(
        duo_domino_events(),
        called={3: 10, 4: 0, 7: 5},
        after={
            0: [adjust("Bob", 5, "Ann looked at the boneyard")],
            3: [claim("Ann")],
            10: [adjust("Ann", -15, 'drew while able to play: "6-2" fitted ✓')],
        },
    )
    data = record(
        DUO,
        [
            hand("Ann", events, {"Bob": 26}),
            hand("Ann", [play("Ann", "5-5", None), adjust("Bob", 10, "agreed")]),
        ],
        preset="all-fives",
        options={**DUO_DOMINO_OPTIONS, "muggins": "yes"},
    )
    game = read_record(data)
    # Ann: 15 (claim) + 15 (6-5) - 15 + 10 (5-5) = 25; Bob: 5 + 0 (short) + 0 (short 1-0,
    # unclaimed) - 25 + 10 = -10.
    assert game.scores == [25, -10]
    written = write_record(game)
    assert written == data
    assert write_record(load_record(json.dumps(written))) == data


def test_an_unknown_field_on_a_claim_or_an_adjustment_is_refused() -> None:
    data = duo_domino()
    data["hands"][0]["events"].insert(3, {"player": "Ann", "muggins": True, "points": 15})
    with pytest.raises(RecordRefusal) as caught:
        read_record(data)
    assert (caught.value.rule, caught.value.event) == ("record", 4)
    data = duo_domino()
    data["hands"][0]["events"].insert(3, {**adjust("Ann", 5), "side": "Ann"})
    with pytest.raises(RecordRefusal) as caught:
        read_record(data)
    assert (caught.value.rule, caught.value.event) == ("record", 4)
    data = duo_domino(options={"muggins": "yes"})
    data["hands"][0]["events"].insert(3, {"player": "Ann", "muggins": False})
    with pytest.raises(RecordRefusal) as caught:
        read_record(data)
    assert (caught.value.rule, caught.value.event) == ("record", 4)
