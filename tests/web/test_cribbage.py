"""The cribbage board as data: holes laid out as on a board, pegs at the scores it shows."""

from __future__ import annotations

import html
import random
import re
from itertools import pairwise

from scorekeeper.rules import Adjust, Game, NewHand, Play, Setup, tile
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.drawing.cribbage import STREET, board, hole_of, previous_scores, track_holes
from tests.web.webtable import started


def fives_game(**options: object) -> Game:
    return Game(Setup.create(["Ann", "Bob"], "fives-up", {"units": "fives", **options}))


def test_a_61_board_has_60_holes_in_two_streets_of_groups_of_five_and_a_game_hole() -> None:
    b = board(fives_game(target=61))
    assert (b.holes, b.per_hole, b.streets) == (61, 1, 2)
    for track in b.tracks:
        assert len(track.holes) == 62  # the start, holes 1..60, the game hole
        first, second = track.holes[1:31], track.holes[31:61]
        assert len({h.y for h in first}) == 1 and len({h.y for h in second}) == 1
        assert first[0].x < first[-1].x and second[0].x > second[-1].x  # out, then back
        gaps = [b2.x - b1.x for b1, b2 in pairwise(first)]
        assert gaps.count(max(gaps)) == STREET // 5 - 1  # a wider gap after every five
    ann, bob = b.tracks
    assert ann.holes[61] == bob.holes[61]  # one game hole for both
    assert ann.holes[5].y != bob.holes[5].y  # each side its own lane


def test_pegs_stand_at_the_score_and_at_the_score_before_the_latest_change() -> None:
    game = fives_game(target=61)
    for event in (NewHand(0), Play(0, tile(5, 5)), Play(1, tile(5, 0), "W")):
        game.push(event)
    game.push(Play(0, tile(0, 0), "W"))
    assert game.scores == [4, 2]
    ann, bob = board(game).tracks
    assert (ann.front, ann.back) == (4, 2)  # 2, then 2 more
    assert (bob.front, bob.back) == (2, 0)
    assert previous_scores(game) == [2, 0]


def test_the_back_peg_follows_an_adjustment_too() -> None:
    """Ann 2 (a play), then the table takes 1 off Bob (0 -> -1) and gives Ann 3 (2 -> 5): each
    back peg stands where the side was before its latest change."""
    game = fives_game(target=61)
    for event in (NewHand(0), Play(0, tile(5, 5))):
        game.push(event)
    game.push(Adjust(1, -1, "drew while able to play"))
    game.push(Adjust(0, 3, "agreed by hand"))
    assert game.scores == [5, -1]
    assert previous_scores(game) == [2, 0]


def test_a_whole_game_won_on_61_has_the_winner_in_the_game_hole() -> None:
    setup = Setup.create(
        ["Ann", "Bob"], "fives-up", {"units": "fives", "exact_target": "yes", "target": 61}
    )
    game = play_game(setup, random.Random(2))
    ann, bob = board(game).tracks
    assert (ann.score, ann.front) == (61, 61) and ann.front_hole == ann.holes[-1]
    assert (bob.score, bob.front) == (57, 57)
    assert ann.back == ann.previous < 61


def test_a_points_board_has_a_hole_for_every_five_points() -> None:
    b = board(Game(Setup.create(["Ann", "Bob"])))  # All Fives to 250
    assert (b.per_hole, b.holes, b.streets, b.unit) == (5, 50, 2, "points")
    assert hole_of(35, 5, 50) == 7
    long = board(Game(Setup.create(["Ann", "Bob", "Cy"], "totally-fives", {"target": 1000})))
    assert (long.holes, long.streets) == (200, 7)
    assert len(long.tracks) == 3


def test_below_zero_stays_at_the_start_and_past_the_target_in_the_game_hole() -> None:
    assert hole_of(-15, 5, 50) == 0
    assert hole_of(260, 5, 50) == 50
    holes = track_holes(50, 2, 0)
    assert holes[0].number == 0 and holes[-1].number == 50


def test_the_table_page_shows_the_board_with_its_hooks(client) -> None:
    table = started(client, units="fives", target="61")
    table.play("5-5")
    page = table.page()
    assert 'class="cribbage-box" id="cribbage" open' in page
    assert 'data-peg="front" data-hole="2"' in page and 'data-side="Ann"' in page
    assert "Cribbage board to 61 in fives: Ann 2 (before: 0); Bob 0 (before: 0)." in page
    points = started(client)
    points.play("5-5")
    assert "data-cribbage-link" in points.page() and "data-peg" not in points.page()
    asked = client.get(f"{points.url}?board=pegs").get_data(as_text=True)
    assert (
        'data-peg="front" data-hole="2"' in asked and "To 250 points, a hole for every 5" in asked
    )


def test_a_table_asked_with_its_pegs_board_follows_the_game_with_it(client) -> None:
    """The live view and the event stream of ``?board=pegs`` bring the table with its pegs:
    a live update no longer drops the board the reader asked for."""
    points = started(client)
    points.play("5-5")
    asked = client.get(f"{points.url}?board=pegs").get_data(as_text=True)
    live = re.search(r'id="live" hx-get="([^"]+)"', asked)
    stream = re.search(r'data-changes="([^"]+)"', asked)
    assert live is not None and stream is not None
    assert html.unescape(live.group(1)).endswith("/live?board=pegs")
    assert html.unescape(stream.group(1)).endswith("/changes?board=pegs")
    fresh = client.get(html.unescape(live.group(1)), headers={"If-None-Match": '"v0"'})
    assert 'data-peg="front"' in fresh.get_data(as_text=True)
    plain = client.get(f"{points.url}/live", headers={"If-None-Match": '"v0"'})
    assert "data-peg" not in plain.get_data(as_text=True)
