"""The count (docs/rules.md section 6) and scoring during play (section 7), play by play.

Every worked count of section 6 is played out as a record between Ann and Bob (nine tiles
each, so nobody goes out): they simply take turns, and the count and points after each play
are read back from the replay output.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.helpers import (
    FOUR_ENDS_FIFTEEN,
    FOUR_ENDS_TWENTY,
    Move,
    alternate,
    counts,
    game_of,
    points,
)


def ends_after(moves: list[Move], options: dict[str, Any] | None = None) -> list[tuple[str, int]]:
    """The open ends (name, number shown) after ``moves``, in reading order."""
    current = game_of(alternate(moves, options)).hand
    assert current is not None
    return [(end.name, end.shows) for end in current.layout.ends()]


# -- the worked counts of section 6 ------------------------------------------------------------


def test_lead_five_five_counts_and_scores_ten() -> None:
    data = alternate([("5-5", None)])
    assert counts(data) == [10]
    assert points(data) == [10]


def test_lead_six_six_then_six_three_on_w_counts_fifteen() -> None:
    data = alternate([("6-6", None), ("6-3", "W")])
    assert counts(data) == [12, 15]
    assert points(data) == [0, 15]


def test_spinner_with_both_sides_covered_counts_only_the_tiles_against_it() -> None:
    data = alternate([("6-6", None), ("6-3", "W"), ("6-1", "E"), ("6-4", "N"), ("6-2", "S")])
    assert counts(data) == [12, 15, 4, 8, 10]
    assert points(data) == [0, 15, 0, 0, 10]


def test_spinner_laid_on_the_line() -> None:
    data = alternate([("4-2", None), ("2-2", "E"), ("2-5", "E"), ("2-1", "N")])
    assert counts(data) == [6, 8, 9, 10]
    assert points(data) == [0, 0, 0, 10]


def test_four_ends_showing_five_five_six_and_four_count_twenty() -> None:
    moves = FOUR_ENDS_TWENTY
    data = alternate(moves)
    assert ends_after(moves) == [("W", 5), ("E", 4), ("N", 5), ("S", 6)]
    assert counts(data) == [6, 11, 9, 11, 12, 15, 20]
    assert points(data) == [0, 0, 0, 0, 0, 15, 20]


def test_four_ends_showing_two_five_three_and_five_count_fifteen() -> None:
    moves = FOUR_ENDS_FIFTEEN
    data = alternate(moves)
    assert ends_after(moves) == [("W", 2), ("E", 5), ("N", 3), ("S", 5)]
    assert counts(data) == [8, 10, 7, 10, 11, 15]
    assert points(data) == [0, 10, 0, 10, 0, 15]


def test_no_spinner_lead_five_five_then_five_blank() -> None:
    data = alternate([("5-5", None), ("5-0", "E")], {"spinners": "none"})
    assert counts(data) == [10, 10]
    assert points(data) == [10, 10]


# -- the rest of section 6 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "count"),
    [("6-4", 10), ("4-6", 10), ("5-5", 10), ("6-6", 12), ("0-0", 0), ("5-0", 5), ("6-5", 11)],
)
def test_a_layout_of_one_tile_counts_that_tile_once(lead: str, count: int) -> None:
    data = alternate([(lead, None)])
    assert counts(data) == [count]
    assert points(data) == [count if count % 5 == 0 else 0]


def test_a_count_of_zero_scores_nothing() -> None:
    data = alternate([("2-1", None), ("2-0", "W"), ("1-0", "E")])
    assert counts(data) == [3, 1, 0]
    assert points(data) == [0, 0, 0]


def test_a_double_at_the_tip_of_an_arm_counts_both_halves() -> None:
    data = alternate([("6-6", None), ("6-3", "W"), ("6-1", "E"), ("6-4", "N"), ("4-4", "N")])
    assert counts(data) == [12, 15, 4, 8, 12]


def test_an_open_empty_spinner_arm_counts_nothing() -> None:
    moves: list[Move] = [("5-5", None), ("5-3", "W"), ("5-1", "E")]
    assert ends_after(moves) == [("W", 3), ("E", 1), ("N", 5), ("S", 5)]
    assert counts(alternate(moves)) == [10, 13, 4]


def test_a_non_spinner_double_at_the_tip_of_the_line_counts_both_halves() -> None:
    data = alternate([("6-6", None), ("6-3", "W"), ("6-1", "E"), ("3-3", "W")])
    assert counts(data) == [12, 15, 4, 7]


def test_a_double_inside_an_arm_counts_nothing() -> None:
    data = alternate([("6-6", None), ("6-3", "W"), ("6-1", "E"), ("3-3", "W"), ("3-2", "W")])
    assert counts(data) == [12, 15, 4, 7, 3]


def test_points_go_to_the_side_of_the_player_who_played() -> None:
    result = game_of(alternate([("6-6", None), ("6-3", "W"), ("6-1", "E"), ("6-4", "N")]))
    assert result.scores == [0, 15]
    data = alternate([("5-5", None), ("5-0", "E")], {"spinners": "none"})
    assert game_of(data).scores == [10, 10]


# -- house rule spinner_counts = no -------------------------------------------------------------


def test_spinner_counts_no_lead_spinner_alone_counts_nothing() -> None:
    data = alternate([("5-5", None)], {"spinner_counts": "no"})
    assert counts(data) == [0]
    assert points(data) == [0]


def test_spinner_counts_no_spinner_at_the_tip_of_the_line() -> None:
    data = alternate([("6-6", None), ("6-4", "W"), ("6-1", "E")], {"spinner_counts": "no"})
    assert counts(data) == [0, 4, 5]
    assert points(data) == [0, 0, 5]


def test_spinner_counts_no_spinner_laid_on_the_line() -> None:
    data = alternate([("4-2", None), ("2-2", "E"), ("2-5", "E")], {"spinner_counts": "no"})
    assert counts(data) == [6, 4, 9]


def test_spinner_counts_no_other_doubles_still_count() -> None:
    moves: list[Move] = [("6-6", None), ("6-4", "W"), ("6-1", "E"), ("4-4", "W")]
    assert counts(alternate(moves, {"spinner_counts": "no"})) == [0, 4, 5, 9]


def test_spinner_counts_no_without_spinners_doubles_count() -> None:
    data = alternate([("5-5", None), ("5-0", "E")], {"spinners": "none", "spinner_counts": "no"})
    assert counts(data) == [10, 10]


# -- house rule spinners = none -------------------------------------------------------------


def test_spinners_none_the_layout_is_a_line_with_two_ends() -> None:
    moves: list[Move] = [("6-6", None), ("6-3", "W"), ("6-1", "E"), ("3-3", "W")]
    data = alternate(moves, {"spinners": "none"})
    assert counts(data) == [12, 15, 4, 7]
    assert ends_after(moves, {"spinners": "none"}) == [("W", 3), ("E", 1)]


# -- house rule spinners = all --------------------------------------------------------------

ALL = {"spinners": "all"}
LATER_SPINNER: list[Move] = [
    ("6-6", None),
    ("6-3", "W"),
    ("6-1", "E"),
    ("3-3", "W"),
    ("3-5", "W"),
    ("3-2", "3-3:N"),
    ("3-0", "3-3:S"),
    ("6-2", "N"),
]


def test_spinners_all_later_spinner_counts_while_at_the_tip() -> None:
    assert counts(alternate(LATER_SPINNER[:4], ALL)) == [12, 15, 4, 7]
    assert ends_after(LATER_SPINNER[:4], ALL) == [("W", 3), ("E", 1), ("N", 6), ("S", 6)]


def test_spinners_all_later_spinner_opens_its_own_arms() -> None:
    assert ends_after(LATER_SPINNER[:5], ALL) == [
        ("W", 5),
        ("E", 1),
        ("N", 6),
        ("S", 6),
        ("3-3:N", 3),
        ("3-3:S", 3),
    ]
    assert counts(alternate(LATER_SPINNER[:5], ALL)) == [12, 15, 4, 7, 6]


def test_spinners_all_tiles_on_a_later_spinners_arms() -> None:
    data = alternate(LATER_SPINNER, ALL)
    assert counts(data) == [12, 15, 4, 7, 6, 8, 8, 10]
    assert points(data) == [0, 15, 0, 0, 0, 0, 0, 10]
    assert ends_after(LATER_SPINNER, ALL) == [
        ("W", 5),
        ("E", 1),
        ("N", 2),
        ("S", 6),
        ("3-3:N", 2),
        ("3-3:S", 0),
    ]


def test_spinners_all_with_spinner_counts_no() -> None:
    options = {"spinners": "all", "spinner_counts": "no"}
    assert counts(alternate(LATER_SPINNER[:4], options)) == [0, 3, 4, 1]


def test_spinners_first_a_later_double_opens_nothing() -> None:
    assert ends_after(LATER_SPINNER[:5]) == [("W", 5), ("E", 1), ("N", 6), ("S", 6)]
    assert counts(alternate(LATER_SPINNER[:5])) == [12, 15, 4, 7, 6]


def test_spinners_all_spinners_laid_on_both_sides_of_the_lead() -> None:
    moves: list[Move] = [
        ("6-4", None),
        ("6-6", "W"),
        ("4-4", "E"),
        ("6-3", "W"),
        ("4-2", "E"),
        ("4-1", "4-4:N"),
    ]
    data = alternate(moves, ALL)
    assert counts(data) == [10, 16, 20, 11, 5, 6]
    assert points(data) == [10, 0, 20, 0, 5, 0]
    assert ends_after(moves, ALL) == [
        ("W", 3),
        ("E", 2),
        ("N", 6),
        ("S", 6),
        ("4-4:N", 1),
        ("4-4:S", 4),
    ]
