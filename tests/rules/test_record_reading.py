"""Reading records: a finished hand needs its settlement, unless the reader allows a pause."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordRefusal
from scorekeeper.rules.record import read_record, write_record
from tests.rules.helpers import duo_domino


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
