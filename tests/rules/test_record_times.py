"""A record's times: read where they stand, refused with ``record`` when malformed, written
back as read, and never part of the game: the replay output is the same without them."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import NewHand, Settle
from scorekeeper.rules.record import load_timed, read_record, read_timed, replay, write_record
from scorekeeper.rules.times import LONGEST_TIME, Times, parse_time, write_time

DATA = Path(__file__).resolve().parents[1] / "data"
TIMED = "hand_adjust_before_settlement_timed"
"""hand_adjust_before_settlement with every time an export carries, some with an offset."""


def corpus(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text("utf-8"))
    return loaded


def bare(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its times."""
    out = copy.deepcopy(record)
    for field in ("started", "finished"):
        out.pop(field, None)
    for hand in out["hands"]:
        hand.pop("settled_at", None)
        for event in hand["events"]:
            event.pop("at", None)
    return out


def test_the_timed_record_is_the_untimed_one_with_times() -> None:
    assert bare(corpus(TIMED)) == corpus("hand_adjust_before_settlement")


def test_times_change_nothing_in_the_replay_output() -> None:
    timed = replay(json.dumps(corpus(TIMED)))
    untimed = replay(json.dumps(corpus("hand_adjust_before_settlement")))
    assert timed == untimed and timed[1] is True


def test_times_are_written_back_as_read() -> None:
    data = corpus(TIMED)
    found = read_timed(copy.deepcopy(data))
    assert write_record(found.game, found.times) == data
    assert write_record(found.game) == bare(data)  # without times, the record of old
    assert write_record(read_record(copy.deepcopy(data))) == bare(data)


def test_the_times_run_beside_the_events() -> None:
    data = corpus(TIMED)
    found = read_timed(data)
    times = found.times
    assert len(times.entries) == len(found.game.events)
    assert times.started == datetime(2026, 11, 28, 17, 39, 4, tzinfo=UTC)
    for event, moment in zip(found.game.events, times.entries, strict=True):
        if isinstance(event, NewHand):
            assert moment is None  # a record has no time for a hand's start
        else:
            assert moment is not None
    settles = [i for i, event in enumerate(found.game.events) if isinstance(event, Settle)]
    assert times.entry(settles[0]) == datetime.fromisoformat(data["hands"][0]["settled_at"])


def test_an_offset_is_the_same_instant() -> None:
    assert parse_time("2026-11-28T18:39:04+01:00", "at") == parse_time("2026-11-28T17:39:04Z", "at")
    assert parse_time("2026-11-28T12:09:04.250-05:30", "at") == datetime(
        2026, 11, 28, 17, 39, 4, 250000, tzinfo=UTC
    )
    assert write_time(datetime(2026, 11, 28, 17, 39, 4, tzinfo=UTC)) == "2026-11-28T17:39:04Z"
    plus_one = timezone(timedelta(hours=1))
    assert write_time(datetime(2026, 11, 28, 18, 39, 4, tzinfo=plus_one)) == (
        "2026-11-28T18:39:04+01:00"
    )


MALFORMED = [
    "2026-11-28T17:39:04",  # no offset: no one knows the instant
    "2026-11-28",
    "17:39:04Z",
    "2026-11-28 17:39:04Z",
    "2026-11-28t17:39:04z",
    "2026-02-30T17:39:04Z",  # no such day
    "2026-11-28T24:00:00Z",
    "2026-11-28T17:39:04+24:00",
    "2026-11-28T17:39:04+0100",
    "2026-11-28T17:39:04.1234567Z",
    "+12026-11-28T17:39:04Z",
    "\uff12\uff10\uff12\uff16-11-28T17:39:04Z",  # full-width digits: digits, but not ASCII
    "\u0662\u0660\u0662\u0666-11-28T17:39:04Z",  # Arabic-Indic digits
    "2026-11-28T17:39:04Z ",
    "",
    1764351544,
    17.5,
    True,
    None,
    ["2026-11-28T17:39:04Z"],
    {"at": "2026-11-28T17:39:04Z"},
]


@pytest.mark.parametrize("value", MALFORMED, ids=[repr(v)[:30] for v in MALFORMED])
def test_a_malformed_time_is_refused(value: object) -> None:
    for field in ("started", "finished", "at", "settled_at"):
        with pytest.raises(MalformedInput) as caught:
            parse_time(value, field)
        assert getattr(caught.value, "rule", None) == "record"
        assert f'"{field}"' in str(caught.value)


@pytest.mark.parametrize(
    ("where", "hand", "event"),
    [("started", None, None), ("finished", None, None), ("settled_at", 2, None), ("at", 2, 1)],
)
def test_a_malformed_time_is_refused_where_it_stands(
    where: str, hand: int | None, event: int | None
) -> None:
    data = corpus(TIMED)
    if where in ("started", "finished"):
        data[where] = "yesterday"
    elif where == "settled_at":
        data["hands"][1]["settled_at"] = "2026-11-28T17:39:04"
    else:
        data["hands"][1]["events"][0]["at"] = 20261128
    output, legal = replay(json.dumps(data))
    assert not legal
    error = output["error"]
    assert (error["rule"], error["hand"], error["event"]) == ("record", hand, event)


def test_an_event_time_is_read_before_any_rule_is_applied_to_the_event() -> None:
    """Bob's 5-0 out of turn with a malformed time: the time is what is refused."""
    data = corpus(TIMED)
    events = data["hands"][0]["events"]
    events.insert(1, {"player": "Ann", "play": "5-0", "end": "E", "at": "noon"})
    output, _ = replay(json.dumps(data))
    assert (output["error"]["rule"], output["error"]["event"]) == ("record", 2)
    events[1]["at"] = "2026-11-28T17:40:00Z"
    output, _ = replay(json.dumps(data))
    assert output["error"]["rule"] == "turn"


def test_a_huge_time_is_refused_quickly_and_quoted_short() -> None:
    data = corpus(TIMED)
    data["started"] = "2026-11-28T17:39:04Z" + "9" * 1_000_000
    output, legal = replay(json.dumps(data))
    assert not legal and output["error"]["rule"] == "record"
    assert len(output["error"]["message"]) < 200
    assert len("2026-11-28T18:39:04.123456+01:00") == LONGEST_TIME


def test_times_where_nothing_happened_are_read_and_not_kept() -> None:
    """``settled_at`` on a hand not settled and ``finished`` on a game not over say nothing:
    read (their form checked), kept nowhere, the game unchanged."""
    data = corpus("hand_first_spinner_counts")  # an open hand
    data["hands"][0]["settled_at"] = "2026-11-28T17:39:04Z"
    data["finished"] = "2026-11-28T18:00:00Z"
    found = read_timed(data)
    assert all(moment is None for moment in found.times.entries)
    assert "settled_at" not in write_record(found.game, found.times)["hands"][0]
    first, entered, last = found.times.filled(len(found.game.events), False, NOW)
    assert (first, last) == (NOW, NOW) and set(entered) == {NOW}


NOW = datetime(2027, 1, 1, 12, 0, tzinfo=UTC)
T0 = datetime(2026, 11, 28, 17, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_filled_without_times_is_the_moment_of_the_import() -> None:
    assert Times().filled(3, True, NOW) == (NOW, [NOW] * 3, NOW)


def test_filled_takes_a_missing_time_from_the_time_before() -> None:
    times = Times(at(0), None, (None, at(1), None, at(5), None))
    assert times.filled(5, False, NOW) == (at(0), [at(0), at(1), at(1), at(5), at(5)], at(5))


def test_filled_without_started_begins_at_the_first_time_known() -> None:
    times = Times(None, None, (None, None, at(3), at(2)))
    assert times.filled(4, False, NOW) == (at(2), [at(2), at(2), at(3), at(2)], at(3))


def test_filled_ends_a_finished_game_when_it_finished() -> None:
    times = Times(at(0), at(9), (None, at(1), None))
    assert times.filled(3, True, NOW) == (at(0), [at(0), at(1), at(9)], at(9))
    assert times.filled(3, False, NOW) == (at(0), [at(0), at(1), at(1)], at(1))
    only_finished = Times(None, at(9), ())
    assert only_finished.filled(2, True, NOW) == (at(9), [at(9), at(9)], at(9))


def test_load_timed_reads_text() -> None:
    text = json.dumps(corpus(TIMED))
    assert load_timed(text).times == read_timed(json.loads(text)).times
