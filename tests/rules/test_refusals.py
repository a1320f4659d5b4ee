"""Every rule id of docs/rules.md section 9: records the referee refuses, and where it says the
fault is.

Each case is a whole record read with :func:`read_record`; the refusal must name the rule id and
point at the hand and event (counted from 1; None for a header, a hand's lead or remaining).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scorekeeper.rules import errors
from scorekeeper.rules.errors import RULE_IDS, RecordRefusal
from scorekeeper.rules.record import load_record, replay
from tests.rules.helpers import (
    DUO,
    QUAD,
    Record,
    assert_refused,
    draw,
    duo_blocked,
    duo_domino,
    duo_domino_events,
    game_of,
    hand,
    passes,
    play,
    quad_domino,
    record,
    refusal_of,
)

DOMINO = duo_domino_events()


def duo(
    events: list[Any],
    options: dict[str, Any] | None = None,
    remaining: dict[str, Any] | None = None,
    lead: str = "Ann",
    preset: str | None = None,
) -> Record:
    """Ann and Bob, five tiles each unless ``options`` say otherwise, one hand."""
    return record(
        DUO,
        [hand(lead, events, remaining)],
        preset=preset,
        options={"deal": "five-each", **(options or {})},
    )


def header(**changes: Any) -> Record:
    """The legal two-player domino record with header fields changed (None removes one)."""
    data = duo_domino()
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def with_event(index: int, entry: Any, events: list[Any] | None = None) -> Record:
    """The first ``index - 1`` events of the domino hand, then ``entry`` as event ``index``."""
    return duo([*(events or DOMINO)[: index - 1], entry])


IMMEDIATE_15 = {"target": 15, "win_check": "immediate"}
"""With these, Bob's 6-3 (event 3 of the domino hand) scores 15 and wins at once."""


def test_every_rule_id_is_listed_in_precedence_order() -> None:
    assert RULE_IDS == (
        "record",
        "game-over",
        "hand-over",
        "lead",
        "turn",
        "tile-unique",
        "end-unknown",
        "spinner-sides",
        "match",
        "end-ambiguous",
        "draw-empty",
        "pass-boneyard",
        "remaining",
        "call",
        "guess",
        "time",
    )


def test_the_module_that_names_the_rule_ids_explains_each_in_that_order() -> None:
    """A reader of ``errors.py`` finds every rule id a refusal can cite, in precedence order."""
    listed = re.findall(r"^``([a-z-]+)``", errors.__doc__ or "", re.MULTILINE)
    assert tuple(listed) == RULE_IDS


def test_the_shared_hands_are_legal() -> None:
    for data in (duo_domino(), quad_domino(), duo_blocked({"Ann": 62, "Bob": 28})):
        assert game_of(data).hand is not None


# -- record -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["{", "", "not json", '{"format": "all-fives/1",}', "NaN"])
def test_record_text_that_is_not_json(text: str) -> None:
    with pytest.raises(RecordRefusal) as caught:
        load_record(text)
    assert (caught.value.rule, caught.value.hand, caught.value.event) == ("record", None, None)
    output, ok = replay(text)
    assert not ok
    assert output["ok"] is False
    assert output["error"]["rule"] == "record"


def test_record_with_a_key_twice_is_malformed() -> None:
    text = '{"format": "all-fives/1", "format": "all-fives/1", "players": ["A", "B"], "hands": []}'
    output, ok = replay(text)
    assert (ok, output["error"]["rule"]) == (False, "record")


@pytest.mark.parametrize("data", [[], "all-fives/1", 7, None, [duo_domino()]])
def test_record_that_is_not_an_object(data: object) -> None:
    assert_refused(data, "record", None, None)


HEADER_FAULTS = [
    pytest.param({"format": None}, id="no format"),
    pytest.param({"format": "all-fives/2"}, id="wrong format"),
    pytest.param({"players": None}, id="no players"),
    pytest.param({"hands": None}, id="no hands"),
    pytest.param({"players": "Ann, Bob"}, id="players not a list"),
    pytest.param({"players": ["Ann"]}, id="one player"),
    pytest.param({"players": ["A", "B", "C", "D", "E"]}, id="five players"),
    pytest.param({"players": ["Ann", "Ann"]}, id="same name twice"),
    pytest.param({"players": ["Ann", ""]}, id="empty name"),
    pytest.param({"players": ["Ann", 2]}, id="name not text"),
    pytest.param({"hands": {"lead": "Ann"}}, id="hands not a list"),
    pytest.param({"preset": "all-sevens"}, id="unknown preset"),
    pytest.param({"partners": True}, id="partners with two players"),
    pytest.param({"partners": "yes"}, id="partners not a boolean"),
    pytest.param({"options": ["deal"]}, id="options not an object"),
    pytest.param({"options": {"spinner": "none"}}, id="unknown option name"),
    pytest.param({"options": {"spinners": "some"}}, id="unknown option value"),
    pytest.param({"options": {"spinner_counts": "maybe"}}, id="yes-no option not yes or no"),
    pytest.param({"options": {"target": 102}}, id="target not a multiple of 5"),
    pytest.param({"options": {"target": 0}}, id="target below 5"),
    pytest.param({"options": {"target": 1005}}, id="target above 1000"),
    pytest.param({"options": {"target": "100"}}, id="target as text"),
    pytest.param({"options": {"boneyard_reserve": 5}}, id="reserve above 4"),
    pytest.param({"options": {"boneyard_reserve": True}}, id="reserve as a boolean"),
    pytest.param({"notes": "friendly game"}, id="unknown header key"),
]


@pytest.mark.parametrize("changes", HEADER_FAULTS)
def test_record_header_faults(changes: dict[str, Any]) -> None:
    assert_refused(header(**changes), "record", None, None)


@pytest.mark.parametrize("key", ["options", "partners", "preset"])
def test_record_header_null_is_not_left_out(key: str) -> None:
    data = duo_domino()
    data[key] = None
    assert_refused(data, "record", None, None)


@pytest.mark.parametrize(
    "options",
    [
        {"spinner_counts": False},
        {"bonus_in_fives": True},
        {"target": 1000},
        {"boneyard_reserve": 4},
        {"settlement": "winner-collects"},
    ],
)
def test_record_accepts_option_values_as_written_in_the_rules(options: dict[str, Any]) -> None:
    assert game_of(duo_domino(options=options)).hand is not None


HAND_FAULTS = [
    pytest.param(["Ann"], id="hand not an object"),
    pytest.param({"events": DOMINO}, id="no lead"),
    pytest.param({"lead": "Ann"}, id="no events"),
    pytest.param({"lead": "Zed", "events": []}, id="lead not a player"),
    pytest.param({"lead": 0, "events": []}, id="lead as a seat number"),
    pytest.param({"lead": "Ann", "events": "6-6"}, id="events not a list"),
    pytest.param({"lead": "Ann", "events": [], "winner": "Ann"}, id="unknown hand key"),
]


@pytest.mark.parametrize("bad_hand", HAND_FAULTS)
def test_record_hand_faults(bad_hand: Any) -> None:
    assert_refused(record(DUO, [bad_hand]), "record", 1, None)


EVENT_FAULTS = [
    pytest.param("Ann plays 6-6", id="event not an object"),
    pytest.param({"player": "Zed", "play": "6-6"}, id="unknown player"),
    pytest.param({"play": "6-6"}, id="no player"),
    pytest.param({"player": "Ann"}, id="no action"),
    pytest.param({"player": "Ann", "play": "6-6", "draw": 1}, id="two actions"),
    pytest.param({"player": "Ann", "play": "7-1"}, id="tile above six"),
    pytest.param({"player": "Ann", "play": "6"}, id="half a tile"),
    pytest.param({"player": "Ann", "play": "6-4-2"}, id="three numbers"),
    pytest.param({"player": "Ann", "play": "six-four"}, id="words"),
    pytest.param({"player": "Ann", "play": 64}, id="tile as a number"),
    pytest.param({"player": "Ann", "play": ["6", "4"]}, id="tile as a list"),
    pytest.param({"player": "Ann", "play": "6-6", "end": 5}, id="end not text"),
    pytest.param({"player": "Ann", "play": "6-6", "end": "X"}, id="end not an arm name"),
    pytest.param({"player": "Ann", "play": "6-6", "end": "7-7:N"}, id="arm of no tile"),
    pytest.param({"player": "Ann", "play": "6-6", "note": "x"}, id="unknown event key"),
]


@pytest.mark.parametrize("entry", EVENT_FAULTS)
def test_record_event_faults_on_the_lead(entry: Any) -> None:
    assert_refused(duo([entry]), "record", 1, 1)


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"player": "Bob", "draw": "2"}, id="draw as text"),
        pytest.param({"player": "Bob", "draw": 0}, id="draw of nothing"),
        pytest.param({"player": "Bob", "draw": -1}, id="negative draw"),
        pytest.param({"player": "Bob", "draw": 1.5}, id="draw not whole"),
        pytest.param({"player": "Bob", "draw": True}, id="draw as a boolean"),
        pytest.param({"player": "Bob", "draw": 1, "end": "W"}, id="end on a draw"),
        pytest.param({"player": "Bob", "pass": False}, id="pass false"),
        pytest.param({"player": "Bob", "pass": "yes"}, id="pass as text"),
        pytest.param({"player": "Bob", "pass": True, "draw": 1}, id="pass and draw"),
    ],
)
def test_record_draw_and_pass_faults(entry: dict[str, Any]) -> None:
    assert_refused(with_event(2, entry), "record", 1, 2)


@pytest.mark.parametrize(
    "remaining",
    [
        pytest.param({"Bob": 26, "Zed": 3}, id="unknown player"),
        pytest.param({"Bob": "26"}, id="pips as text"),
        pytest.param({"Bob": 25.5}, id="pips not whole"),
        pytest.param({"Bob": ["5-4", "5-3", "4-2", "2-7"]}, id="not a tile"),
        pytest.param({"Bob": ["5-4", "5-3", "4-2", 21]}, id="tile as a number"),
        pytest.param([26], id="not an object"),
    ],
)
def test_record_remaining_faults(remaining: Any) -> None:
    assert_refused(duo_domino(remaining=remaining), "record", 1, None)


def test_record_a_hand_after_an_unfinished_one() -> None:
    data = record(DUO, [hand("Ann", DOMINO[:3]), hand("Ann", [])], options={"deal": "five-each"})
    assert_refused(data, "record", 2, None)


# -- game-over ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [play("Ann", "6-1", "E"), draw("Ann"), passes("Ann"), play("Bob", "3-3", "W")],
    ids=["play", "draw", "pass", "out of turn"],
)
def test_game_over_event_after_an_immediate_win(entry: dict[str, Any]) -> None:
    assert_refused(duo([*DOMINO[:3], entry], options=IMMEDIATE_15), "game-over", 1, 4)


def test_game_over_remaining_after_an_immediate_win() -> None:
    data = duo(DOMINO[:3], options=IMMEDIATE_15, remaining={"Ann": 40, "Bob": 30})
    assert_refused(data, "game-over", 1, None)


def test_game_over_hand_after_an_immediate_win() -> None:
    data = record(
        DUO,
        [hand("Ann", DOMINO[:3]), hand("Bob", [play("Bob", "6-6")])],
        options={"deal": "five-each", **IMMEDIATE_15},
    )
    assert_refused(data, "game-over", 2, None)


@pytest.mark.parametrize("leader", ["Ann", "Bob"])
def test_game_over_hand_after_the_game_was_won_at_the_end_of_a_hand(leader: str) -> None:
    # Ann 15, Bob 25 - 5 = 20: both reach 10 and Bob, the highest, wins.
    data = duo_domino(remaining={"Bob": 7}, options={"target": 10}, more_hands=[hand(leader, [])])
    assert_refused(data, "game-over", 2, None)


# -- hand-over ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [play("Bob", "4-2", "N"), draw("Bob"), passes("Bob"), play("Ann", "4-2", "N")],
    ids=["play", "draw", "pass", "the player who went out"],
)
def test_hand_over_after_a_domino(entry: dict[str, Any]) -> None:
    data = duo([*DOMINO, entry], remaining={"Bob": 26})
    assert_refused(data, "hand-over", 1, 11)


@pytest.mark.parametrize("entry", [play("Ann", "5-0"), draw("Ann"), passes("Ann")])
def test_hand_over_after_a_blocked_hand(entry: dict[str, Any]) -> None:
    data = duo_blocked({"Ann": 62, "Bob": 28})
    data["hands"][0]["events"].append(entry)
    assert_refused(data, "hand-over", 1, 14)


# -- lead -----------------------------------------------------------------------------------


def test_lead_hand_two_must_be_led_by_who_dominoed() -> None:
    assert_refused(duo_domino(more_hands=[hand("Bob", [])]), "lead", 2, None)


def test_lead_hand_two_led_by_who_dominoed_is_accepted() -> None:
    game = game_of(duo_domino(more_hands=[hand("Ann", [play("Ann", "4-4")])]))
    assert game.hand is not None and game.hand.number == 2


@pytest.mark.parametrize("entry", [draw("Ann"), draw("Ann", 3), passes("Ann")])
def test_lead_first_action_of_the_leader_is_not_a_play(entry: dict[str, Any]) -> None:
    assert_refused(duo([entry]), "lead", 1, 1)


@pytest.mark.parametrize("entry", [play("Bob", "6-6"), draw("Bob"), passes("Bob")])
def test_lead_another_player_acts_first(entry: dict[str, Any]) -> None:
    assert_refused(duo([entry]), "lead", 1, 1)


def test_lead_another_player_acts_first_in_hand_two() -> None:
    data = duo_domino(more_hands=[hand("Ann", [play("Bob", "4-4")])])
    assert_refused(data, "lead", 2, 1)


def test_lead_leader_chosen_by_lot_after_a_blocked_hand() -> None:
    for leader in DUO:
        data = duo_blocked({"Ann": 62, "Bob": 28}, more_hands=[hand(leader, [play(leader, "3-3")])])
        assert game_of(data).hand is not None


# -- turn -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), play("Ann", "6-3", "W")], 2, id="leader plays twice"),
        pytest.param([*DOMINO[:3], play("Bob", "3-3", "W")], 4, id="same player again"),
        pytest.param([*DOMINO[:2], play("Ann", "6-1", "E")], 3, id="after the other drew"),
        pytest.param([*DOMINO[:3], draw("Bob")], 4, id="draw out of turn"),
        pytest.param([*DOMINO[:3], passes("Bob")], 4, id="pass out of turn"),
    ],
)
def test_turn_not_this_players_turn(events: list[Any], bad_event: int) -> None:
    assert_refused(duo(events), "turn", 1, bad_event)


def test_turn_follows_the_seats_with_four_players() -> None:
    events = [*quad_domino()["hands"][0]["events"][:2], play("Dee", "6-4", "E")]
    assert_refused(record(QUAD, [hand("Ann", events)]), "turn", 1, 3)


# -- tile-unique ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), play("Bob", "6-6", "W")], 2, id="the lead again"),
        pytest.param([play("Ann", "6-4"), play("Bob", "4-6")], 2, id="other spelling"),
        pytest.param([*DOMINO[:9], play("Ann", "6-4", "N")], 10, id="played long before"),
    ],
)
def test_tile_unique_tile_already_on_the_table(events: list[Any], bad_event: int) -> None:
    assert_refused(duo(events), "tile-unique", 1, bad_event)


def test_tile_unique_is_per_hand() -> None:
    data = duo_domino(more_hands=[hand("Ann", [play("Ann", "6-6"), play("Bob", "6-3", "W")])])
    assert game_of(data).hand is not None


# -- end-unknown ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "options", "bad_event"),
    [
        pytest.param(
            [play("Ann", "5-5"), play("Bob", "5-1", "N")],
            {"spinners": "none"},
            2,
            id="N with no spinner",
        ),
        pytest.param(
            [play("Ann", "6-6"), play("Bob", "6-3", "W"), play("Ann", "6-1", "S")],
            {"spinners": "none"},
            3,
            id="S with no spinner",
        ),
        pytest.param(
            [play("Ann", "6-4"), play("Bob", "4-1", "N")], {}, 2, id="N before any double"
        ),
        pytest.param(
            [*DOMINO[:5], play("Ann", "3-2", "3-3:N")],
            {},
            6,
            id="d-d:N under spinners=first",
        ),
        pytest.param(
            [play("Ann", "6-6"), play("Bob", "6-3", "W"), play("Ann", "5-3", "5-5:N")],
            {"spinners": "all"},
            3,
            id="later spinner not on the table",
        ),
        pytest.param(
            [*DOMINO[:4], play("Bob", "6-2", "6-6:S")],
            {"spinners": "all"},
            5,
            id="the first spinner's ends are N and S",
        ),
    ],
)
def test_end_unknown(events: list[Any], options: dict[str, Any], bad_event: int) -> None:
    assert_refused(duo(events, options), "end-unknown", 1, bad_event)


# -- spinner-sides --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "options", "bad_event"),
    [
        pytest.param(
            [play("Ann", "6-6"), play("Bob", "6-3", "N")], {}, 2, id="lead spinner, no side"
        ),
        pytest.param(
            [play("Ann", "6-6"), play("Bob", "6-3", "W"), play("Ann", "6-1", "S")],
            {},
            3,
            id="lead spinner, one side",
        ),
        pytest.param(
            [play("Ann", "4-2"), play("Bob", "2-2", "E"), play("Ann", "2-1", "N")],
            {},
            3,
            id="spinner laid on the line",
        ),
        pytest.param(
            [play("Ann", "2-4"), play("Bob", "2-2", "W"), play("Ann", "2-1", "S")],
            {},
            3,
            id="spinner laid on W of a lead written low first",
        ),
        pytest.param(
            [*DOMINO[:5], play("Ann", "3-2", "3-3:N")],
            {"spinners": "all"},
            6,
            id="later spinner under spinners=all",
        ),
    ],
)
def test_spinner_sides(events: list[Any], options: dict[str, Any], bad_event: int) -> None:
    assert_refused(duo(events, options), "spinner-sides", 1, bad_event)


def test_spinner_laid_on_the_line_opens_after_one_more_side() -> None:
    events = [play("Ann", "4-2"), play("Bob", "2-2", "E"), play("Ann", "2-5", "E")]
    assert game_of(duo([*events, play("Bob", "2-1", "N")])).hand is not None


# -- match ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), play("Bob", "5-4", "W")], 2, id="named end"),
        pytest.param([play("Ann", "6-6"), play("Bob", "5-4")], 2, id="fits no end"),
        pytest.param([play("Ann", "6-4"), play("Bob", "6-1", "E")], 2, id="fits the other end"),
        pytest.param([*DOMINO[:4], play("Bob", "5-4", "N")], 5, id="empty spinner arm"),
        pytest.param([*DOMINO[:5], play("Ann", "2-0", "W")], 6, id="double at the tip"),
    ],
)
def test_match(events: list[Any], bad_event: int) -> None:
    assert_refused(duo(events), "match", 1, bad_event)


# -- end-ambiguous --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), play("Bob", "6-3")], 2, id="both sides of a double"),
        pytest.param([*DOMINO[:4], play("Bob", "6-2")], 5, id="N and S"),
        pytest.param(
            [play("Ann", "6-4"), play("Bob", "4-1", "E"), play("Ann", "6-1")],
            3,
            id="W and E of a line",
        ),
    ],
)
def test_end_ambiguous(events: list[Any], bad_event: int) -> None:
    assert_refused(duo(events), "end-ambiguous", 1, bad_event)


def test_end_ambiguous_with_no_spinner() -> None:
    events = [play("Ann", "5-5"), play("Bob", "5-1")]
    assert_refused(duo(events, {"spinners": "none"}), "end-ambiguous", 1, 2)


def test_no_end_needed_when_the_tile_fits_one_end() -> None:
    result = game_of(duo([play("Ann", "6-4"), play("Bob", "4-1")]))
    assert result.hand is not None and result.hand.plays[-1].end == "E"


# -- draw-empty -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "options", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), draw("Bob", 19)], {}, 2, id="more than the boneyard"),
        pytest.param(
            [play("Ann", "6-6"), draw("Bob", 18), draw("Bob")], {}, 3, id="empty boneyard"
        ),
        pytest.param(
            [play("Ann", "6-6"), draw("Bob", 9)],
            {"deal": "standard", "boneyard_reserve": 2},
            2,
            id="into the reserve",
        ),
        pytest.param(
            [play("Ann", "6-6"), draw("Bob", 8), draw("Bob")],
            {"deal": "standard", "boneyard_reserve": 2},
            3,
            id="only the reserve left",
        ),
    ],
)
def test_draw_empty(events: list[Any], options: dict[str, Any], bad_event: int) -> None:
    assert_refused(duo(events, options), "draw-empty", 1, bad_event)


# -- pass-boneyard --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "options", "bad_event"),
    [
        pytest.param([play("Ann", "6-6"), passes("Bob")], {}, 2, id="full boneyard"),
        pytest.param(
            [play("Ann", "6-6"), draw("Bob", 17), passes("Bob")], {}, 3, id="one tile left"
        ),
        pytest.param(
            [play("Ann", "6-6"), draw("Bob", 7), passes("Bob")],
            {"deal": "standard", "boneyard_reserve": 2},
            3,
            id="one tile above the reserve",
        ),
    ],
)
def test_pass_boneyard(events: list[Any], options: dict[str, Any], bad_event: int) -> None:
    assert_refused(duo(events, options), "pass-boneyard", 1, bad_event)


# -- remaining ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "remaining",
    [
        pytest.param({}, id="missing player"),
        pytest.param({"Ann": 0}, id="only the one who went out"),
        pytest.param({"Ann": 3, "Bob": 26}, id="dominoed player holds pips"),
        pytest.param({"Ann": ["0-0"], "Bob": 26}, id="dominoed player holds a tile"),
        pytest.param({"Bob": 6}, id="below the four lowest"),
        pytest.param({"Bob": -1}, id="negative"),
        pytest.param({"Bob": 34}, id="above the four highest"),
        pytest.param({"Bob": ["6-6", "5-3", "4-2", "2-1"]}, id="tile on the table"),
        pytest.param({"Bob": ["5-4", "5-4", "4-2", "2-1"]}, id="tile named twice"),
        pytest.param({"Bob": ["5-3", "3-5", "4-2", "2-1"]}, id="tile named twice, spelled apart"),
        pytest.param({"Bob": ["5-4", "5-3", "4-2"]}, id="too few tiles"),
        pytest.param({"Bob": ["5-4", "5-3", "4-2", "2-1", "0-0"]}, id="too many tiles"),
    ],
)
def test_remaining_after_a_domino(remaining: dict[str, Any]) -> None:
    # Bob holds 4 tiles: the four lowest not on the table (0-0 1-1 2-0 2-1) make 7 pips,
    # the four highest (5-4 5-3 6-2 4-4) make 33.
    assert_refused(duo_domino(remaining=remaining), "remaining", 1, None)


@pytest.mark.parametrize(
    "remaining",
    [{"Bob": 7}, {"Bob": 33}, {"Ann": 0, "Bob": 20}, {"Ann": [], "Bob": 20}],
)
def test_remaining_at_the_limits_is_accepted(remaining: dict[str, Any]) -> None:
    assert game_of(duo_domino(remaining=remaining)).hand is not None


def test_remaining_tile_named_for_two_players() -> None:
    data = quad_domino(remaining={"Bob": ["2-1"], "Cy": ["4-1"], "Dee": ["2-1"]})
    assert_refused(data, "remaining", 1, None)


@pytest.mark.parametrize(
    ("remaining", "options", "drawn"),
    [
        # Ann holds 14 tiles (57 to 84 pips), Bob 4 (6 to 33); together exactly 90.
        pytest.param({"Ann": 56, "Bob": 34}, {}, 10, id="below the k lowest"),
        pytest.param({"Ann": 85, "Bob": 5}, {}, 10, id="above the k highest"),
        pytest.param({"Ann": 62, "Bob": 27}, {}, 10, id="not all pips with an empty boneyard"),
        pytest.param({"Ann": 62, "Bob": 29}, {}, 10, id="more than all pips"),
        pytest.param({"Ann": 62}, {}, 10, id="missing player after a block"),
        # With 4 tiles kept in reserve Ann holds 10 tiles (32 to 68 pips): at most 90 together.
        pytest.param(
            {"Ann": 60, "Bob": 31}, {"boneyard_reserve": 4}, 6, id="sum above 168 less the table"
        ),
    ],
)
def test_remaining_after_a_block(
    remaining: dict[str, Any], options: dict[str, Any], drawn: int
) -> None:
    data = duo_blocked(remaining, options=options, drawn=drawn)
    assert_refused(data, "remaining", 1, None)


def test_remaining_below_the_total_is_fine_while_tiles_stay_in_the_boneyard() -> None:
    data = duo_blocked({"Ann": 40, "Bob": 30}, options={"boneyard_reserve": 4}, drawn=6)
    assert game_of(data).hand is not None


def test_remaining_missing_once_the_hand_is_over() -> None:
    data = duo(DOMINO)
    assert_refused(data, "remaining", 1, None)
    data["hands"].append(hand("Ann", []))
    assert_refused(data, "remaining", 1, None)


def test_remaining_for_a_hand_that_is_not_over() -> None:
    assert_refused(duo(DOMINO[:5], remaining={"Bob": 20}), "remaining", 1, None)


# -- precedence: when several rules apply, the first listed is named -------------------------


@pytest.mark.parametrize(
    ("data", "rule", "where"),
    [
        pytest.param(
            with_event(2, {"player": "Ann", "play": "7-1"}),
            "record",
            (1, 2),
            id="malformed tile and out of turn",
        ),
        pytest.param(
            with_event(2, {"player": "Ann", "play": "6-5", "why": "x"}),
            "record",
            (1, 2),
            id="unknown key and out of turn",
        ),
        pytest.param(
            duo([{"player": "Bob", "play": "9-9"}]),
            "record",
            (1, 1),
            id="malformed and not the leader",
        ),
        pytest.param(
            duo([*DOMINO[:3], {"player": "Bob", "draw": 0}], options=IMMEDIATE_15),
            "record",
            (1, 4),
            id="malformed after the game was won",
        ),
        pytest.param(
            duo([*DOMINO[:3], play("Ann", "6-6", "Q")], options=IMMEDIATE_15),
            "record",
            (1, 4),
            id="bad end after the game was won",
        ),
        pytest.param(
            duo([*DOMINO[:3], play("Bob", "6-6")], options=IMMEDIATE_15),
            "game-over",
            (1, 4),
            id="game over, out of turn and tile on the table",
        ),
        pytest.param(
            duo([*DOMINO, play("Ann", "5-5", "S")], remaining={"Bob": 26}),
            "hand-over",
            (1, 11),
            id="hand over, out of turn and tile on the table",
        ),
        pytest.param(
            duo([play("Bob", "6-6"), play("Ann", "6-6")]),
            "lead",
            (1, 1),
            id="not the leader, and a later fault",
        ),
        pytest.param(
            duo([draw("Ann", 40)]), "lead", (1, 1), id="leader draws more than the boneyard"
        ),
        pytest.param(
            duo([play("Ann", "6-6"), play("Ann", "6-6")]),
            "turn",
            (1, 2),
            id="out of turn and tile on the table",
        ),
        pytest.param(
            duo([play("Ann", "6-6"), play("Ann", "5-4", "N")]),
            "turn",
            (1, 2),
            id="out of turn and closed spinner end",
        ),
        pytest.param(
            duo([play("Ann", "5-5"), play("Bob", "5-5", "N")], {"spinners": "none"}),
            "tile-unique",
            (1, 2),
            id="tile on the table and unknown end",
        ),
        pytest.param(
            duo([play("Ann", "6-6"), play("Bob", "6-6", "N")]),
            "tile-unique",
            (1, 2),
            id="tile on the table and closed spinner end",
        ),
        pytest.param(
            duo([play("Ann", "5-5"), play("Bob", "4-3", "N")], {"spinners": "none"}),
            "end-unknown",
            (1, 2),
            id="unknown end and no match",
        ),
        pytest.param(
            duo([play("Ann", "6-6"), play("Bob", "5-4", "S")]),
            "spinner-sides",
            (1, 2),
            id="closed spinner end and no match",
        ),
        pytest.param(
            duo([play("Ann", "6-6"), play("Bob", "6-6", "W"), {"player": "Zed"}, "junk"]),
            "tile-unique",
            (1, 2),
            id="first fault wins: later faults are not looked at",
        ),
    ],
)
def test_precedence(data: Record, rule: str, where: tuple[int, int]) -> None:
    assert_refused(data, rule, *where)


def test_refused_replay_output_names_rule_hand_and_event() -> None:
    output, ok = replay(json.dumps(duo([play("Ann", "6-6"), play("Bob", "5-4", "W")])))
    assert not ok
    error = output["error"]
    assert output["ok"] is False
    assert (error["rule"], error["hand"], error["event"]) == ("match", 1, 2)
    assert isinstance(error["message"], str) and error["message"]


def test_refusal_message_is_plain_words() -> None:
    refusal = refusal_of(duo([play("Ann", "6-6"), play("Bob", "5-4", "W")]))
    assert "5-4" in refusal.message
