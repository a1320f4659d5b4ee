"""The score sheet: header, one row per hand with running totals, the tally marks and CSV."""

from __future__ import annotations

import csv
import io
import random
from datetime import date

import pytest

from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.sheet import Tally, score_sheet, sheet_csv, tally
from scorekeeper.rules.simulate import play_game
from tests.rules.helpers import (
    DUO,
    duo_blocked,
    duo_domino,
    duo_domino_events,
    game_of,
    hand,
    record,
)


def simulated(players: list[str], preset: str, seed: int, **options: object) -> Game:
    """A whole simulated game."""
    setup = Setup.create(players, preset, options or None)
    return play_game(setup, random.Random(seed))


# -- rows and running totals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "preset", "seed"),
    [
        (["Ann", "Bob"], "all-fives", 1),
        (["Ann", "Bob", "Cy"], "fives-up", 2),
        (["Ann", "Bob", "Cy", "Dee"], "all-fives", 3),
        (["Ann", "Bob", "Cy", "Dee"], "totally-fives", 4),
    ],
)
def test_rows_add_up_to_the_games_scores(players: list[str], preset: str, seed: int) -> None:
    game = simulated(players, preset, seed)
    sheet = score_sheet(game)
    assert len(sheet.rows) == len(game.hands) > 1
    running = [0] * len(game.sides)
    for row, played in zip(sheet.rows, game.hands, strict=True):
        assert row.leader_name == players[played.leader]
        for side in range(len(running)):
            settled = 0 if row.settlement is None else row.settlement[side]
            running[side] += row.plays[side] + settled
        assert list(row.totals) == running
    assert list(sheet.scores) == game.scores == running
    assert sheet.winner == game.winner is not None
    assert sheet.winner_name == game.sides[game.winner]


def test_a_row_per_hand_with_plays_settlement_and_totals() -> None:
    second = hand("Ann", duo_domino_events()[:3])
    sheet = score_sheet(game_of(duo_domino(more_hands=[second])))
    first, current = sheet.rows
    assert (first.number, first.leader, first.result, str(first.ended)) == (
        1,
        0,
        "domino",
        "Ann dominoed",
    )
    assert (first.plays, first.settlement, first.totals) == ((15, 25), (0, -25), (15, 0))
    assert (current.number, current.result, str(current.ended)) == (2, "open", "in play")
    assert (current.plays, current.settlement, current.totals) == ((0, 15), None, (15, 15))
    assert sheet.winner is None and sheet.winner_name is None


def test_a_blocked_hand_row() -> None:
    row = score_sheet(game_of(duo_blocked({"Ann": 62, "Bob": 28}))).rows[0]
    assert (row.result, str(row.ended), row.went_out) == ("blocked", "blocked", None)
    assert (row.plays, row.settlement, row.totals) == ((5, 0), (-60, -30), (-55, -30))


def test_a_hand_won_at_once_is_not_settled() -> None:
    events = duo_domino_events()[:3]
    data = record(DUO, [hand("Ann", events)], options={"target": 15, "win_check": "immediate"})
    sheet = score_sheet(game_of(data))
    row = sheet.rows[0]
    assert (row.result, str(row.ended), row.settlement, row.totals) == (
        "won",
        "won by Bob",
        None,
        (0, 15),
    )
    assert sheet.winner_name == "Bob"


# -- the header --------------------------------------------------------------------------------


def test_header_lists_players_sides_preset_rules_and_target() -> None:
    setup = Setup.create(
        ["Ann", "Bob", "Cy", "Dee"], "all-fives", {"spinners": "none", "target": 150}
    )
    header = score_sheet(Game(setup), played_on=date(2024, 5, 1)).header
    assert header.players == ("Ann", "Bob", "Cy", "Dee")
    assert header.sides == ("Ann & Cy", "Bob & Dee")
    assert (header.partners, header.partners_differ) == (True, False)
    assert (header.preset, header.target, header.played_on) == ("all-fives", 150, date(2024, 5, 1))
    rules = {rule.name: rule for rule in header.rules}
    assert (rules["spinners"].value, rules["spinners"].preset_value) == ("none", "first")
    assert [rule.name for rule in header.rules if rule.differs] == ["spinners", "target"]
    assert rules["target"].preset_value == "200"


def test_header_partners_differ_from_the_preset() -> None:
    setup = Setup.create(["Ann", "Bob", "Cy", "Dee"], "all-fives", None, False)
    header = score_sheet(Game(setup)).header
    assert header.sides == ("Ann", "Bob", "Cy", "Dee")
    assert (header.partners, header.partners_differ) == (False, True)


# -- tally marks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "houses", "circles", "strokes"),
    [
        (0, 0, 0, 0),
        (5, 0, 0, 1),
        (10, 0, 1, 0),
        (45, 0, 4, 1),
        (50, 1, 0, 0),
        (65, 1, 1, 1),
        (135, 2, 3, 1),
        (250, 5, 0, 0),
    ],
)
def test_tally_houses_circles_and_strokes(
    score: int, houses: int, circles: int, strokes: int
) -> None:
    marks = tally(score)
    assert (marks.negative, marks.houses, marks.circles, marks.strokes, marks.rest) == (
        False,
        houses,
        circles,
        strokes,
        0,
    )
    assert marks.value == score
    assert marks.marks == ("house",) * houses + ("circle",) * circles + ("stroke",) * strokes


def test_tally_draws_10_as_a_circle_as_s2_does() -> None:
    # S2: "each line representing 5 points and a circle representing 10".
    assert tally(35).marks == ("circle", "circle", "circle", "stroke")
    assert tally(10).marks == ("circle",)
    assert tally(115).marks == ("house", "house", "circle", "stroke")


def test_tally_of_a_negative_score() -> None:
    assert tally(-65) == Tally(True, 1, 1, 1, 0)
    assert tally(-65).value == -65


def test_tally_of_a_score_counted_in_fives_keeps_the_rest() -> None:
    # With bonus_in_fives a hand can pay 6: 66 is one house, one circle, one stroke and 1.
    assert tally(66) == Tally(False, 1, 1, 1, 1)
    assert tally(66).marks == ("house", "circle", "stroke")


# -- CSV ---------------------------------------------------------------------------------------


def test_csv_columns_and_rows() -> None:
    second = hand("Ann", duo_domino_events()[:3])
    sheet = score_sheet(game_of(duo_domino(more_hands=[second])))
    rows = list(csv.reader(io.StringIO(sheet_csv(sheet))))
    assert rows == [
        [
            "hand",
            "leader",
            "result",
            "Ann plays",
            "Ann settlement",
            "Ann total",
            "Bob plays",
            "Bob settlement",
            "Bob total",
        ],
        ["1", "Ann", "Ann dominoed", "15", "0", "15", "25", "-25", "0"],
        ["2", "Ann", "in play", "0", "", "15", "15", "", "15"],
    ]


def test_csv_of_a_team_game_has_one_row_per_hand() -> None:
    game = simulated(["Ann", "Bob", "Cy", "Dee"], "all-fives", 5)
    rows = list(csv.DictReader(io.StringIO(sheet_csv(score_sheet(game)))))
    assert len(rows) == len(game.hands)
    assert int(rows[-1]["Ann & Cy total"]) == game.scores[0]
    assert int(rows[-1]["Bob & Dee total"]) == game.scores[1]
