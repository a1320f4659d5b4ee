"""Larger sets (docs/rules.md 1a): double-nine and double-twelve, 2 to 8 players, worked by hand.

Everything the referee counts with a set's own numbers is played out here: counts with
two-digit ends, a later spinner 12-12, the deal and the boneyard of every row of 1a's table,
settlements of more than 100 pips, the remaining-pips checks with the set's pips, and every
refusal a set adds. Each number was worked out by hand from the rulebook first; the comments
show the working. As in :mod:`tests.rules.helpers`, every hand could happen at a real table:
the comments say what each player holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.errors import IllegalEntry, MalformedInput, Refusal
from scorekeeper.rules.events import Draw, Event, NewHand, Play, Settle
from scorekeeper.rules.explain import explain_all
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.record import read_record
from scorekeeper.rules.settlement import check_remaining
from scorekeeper.rules.sheet import score_sheet
from scorekeeper.rules.tiles import TILE_SETS, tile
from tests.rules.helpers import (
    DUO,
    Move,
    alternate,
    assert_refused,
    counts,
    draw,
    english,
    game_of,
    hand,
    passes,
    play,
    points,
    record,
    refusal_of,
    result_of,
    snapshot,
)

NINE: dict[str, Any] = {"set": "double-nine"}
TWELVE: dict[str, Any] = {"set": "double-twelve"}
EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
"""Up to eight players, in seat order."""


def ends_after(moves: list[Move], options: dict[str, Any]) -> list[tuple[str, int]]:
    """The open ends (name, number shown) after Ann and Bob take turns playing ``moves``."""
    current = game_of(alternate(moves, options)).hand
    assert current is not None
    return [(end.name, end.shows) for end in current.layout.ends()]


def assert_unchanged_by(game: Game, event: Event, rule: str) -> None:
    """Pushing ``event`` onto ``game`` is refused by ``rule`` and stores nothing."""
    before = snapshot(game)
    with pytest.raises(Refusal) as refused:
        game.push(event)
    assert refused.value.rule == rule, refused.value.message
    assert snapshot(game) == before


# -- the count with two-digit ends (sections 6 and 7) --------------------------------------------
# Two players take nine tiles each with a double-nine set and twelve with a double-twelve, so
# nobody goes out in these short exchanges.


def test_a_twelve_twelve_at_a_tip_counts_twenty_four() -> None:
    # Lead 12-1: 12 + 1 = 13. 12-12 on W becomes the spinner, laid onto the line: its side
    # against 12-1 is covered, so it is at the tip of W and counts both halves, 24: W 24 + E 1
    # = 25, Bob scores 25. 12-3 on its far side covers both sides: N and S open empty, and only
    # the tiles against it count: W 3 + E 1 = 4.
    moves: list[Move] = [("12-1", None), ("12-12", "W"), ("12-3", "W")]
    data = alternate(moves, TWELVE)
    assert counts(data) == [13, 25, 4]
    assert points(data) == [0, 25, 0]
    assert ends_after(moves, TWELVE) == [("W", 3), ("E", 1), ("N", 12), ("S", 12)]


def test_a_twelve_twelve_at_a_tip_without_spinners() -> None:
    # No spinner: 12-12 is an ordinary double, at the tip of W it counts 24 (12-1 lead: 13;
    # then 24 + 1 = 25), and 12-3 on it leaves W showing 3: 3 + 1 = 4.
    options = {**TWELVE, "spinners": "none"}
    moves: list[Move] = [("12-1", None), ("12-12", "W"), ("12-3", "W")]
    assert counts(alternate(moves, options)) == [13, 25, 4]
    assert ends_after(moves, options) == [("W", 3), ("E", 1)]


def test_open_ends_twelve_nine_and_four_count_twenty_five() -> None:
    # Lead 8-8, the spinner: 16. 8-12 on W: W 12 + E the spinner at its tip 16 = 28. 8-9 on
    # E covers its second side: N and S open, empty: 12 + 9 = 21. 8-4 on N: 12 + 9 + 4 + S
    # empty 0 = 25, and Bob scores 25.
    moves: list[Move] = [("8-8", None), ("8-12", "W"), ("8-9", "E"), ("8-4", "N")]
    data = alternate(moves, TWELVE)
    assert counts(data) == [16, 28, 21, 25]
    assert points(data) == [0, 0, 0, 25]
    assert ends_after(moves, TWELVE) == [("W", 12), ("E", 9), ("N", 4), ("S", 8)]
    assert game_of(data).scores == [0, 25]


def test_a_double_nine_spinner_at_the_tip_of_the_line() -> None:
    # Lead 9-9: 18. 9-7 on W: W 7 + E the spinner 18 = 25, Bob scores 25. 7-7 on W: a double
    # at the tip of W, 14 + 18 = 32.
    moves: list[Move] = [("9-9", None), ("9-7", "W"), ("7-7", "W")]
    data = alternate(moves, NINE)
    assert counts(data) == [18, 25, 32]
    assert points(data) == [0, 25, 0]


LATER_TWELVE: list[Move] = [
    ("6-6", None),
    ("6-12", "W"),
    ("6-3", "E"),
    ("12-12", "W"),
    ("12-10", "W"),
    ("12-11", "12-12:N"),
    ("12-1", "12-12:S"),
]
"""With every double a spinner, 12-12 laid on W after the first spinner 6-6 opens arms of its
own once both its sides are covered."""


def test_a_later_spinner_twelve_twelve_opens_its_own_arms() -> None:
    # spinners: all. Lead 6-6: 12. 6-12 on W: W 12 + E the spinner 12 = 24. 6-3 on E covers
    # 6-6's second side (N and S open, empty): 12 + 3 = 15, Bob +15. 12-12 on W, a later
    # spinner at the tip of W: 24 + 3 = 27. 12-10 on its far side: both its sides covered, so
    # 12-12:N and 12-12:S open, empty: W 10 + E 3 = 13. 12-11 on 12-12:N: 10 + 3 + 11 = 24.
    # 12-1 on 12-12:S: 10 + 3 + 11 + 1 = 25, Ann +25.
    options = {**TWELVE, "spinners": "all"}
    data = alternate(LATER_TWELVE, options)
    assert counts(data) == [12, 24, 15, 27, 13, 24, 25]
    assert points(data) == [0, 0, 15, 0, 0, 0, 25]
    assert ends_after(LATER_TWELVE[:5], options) == [
        ("W", 10),
        ("E", 3),
        ("N", 6),
        ("S", 6),
        ("12-12:N", 12),
        ("12-12:S", 12),
    ]
    assert ends_after(LATER_TWELVE, options)[-2:] == [("12-12:N", 11), ("12-12:S", 1)]


def test_a_later_spinners_arms_wait_for_both_its_sides() -> None:
    # Before 12-10 covers its far side, 12-12:N is an end of a spinner that has not opened.
    options = {**TWELVE, "spinners": "all"}
    data = alternate([*LATER_TWELVE[:4], ("12-11", "12-12:N")], options)
    assert_refused(data, "spinner-sides", 1, 5)


def test_later_spinners_arms_are_read_in_the_order_of_their_numbers() -> None:
    # spinners: all. Lead 6-6: 12. 6-3 on W: 3 + 12 = 15. 6-12 on E opens N and S: 3 + 12 =
    # 15. 3-3 on W, a later spinner at a tip: 6 + 12 = 18. 3-1 on W opens 3-3:N and 3-3:S:
    # 1 + 12 = 13. 12-12 on E, a later spinner at a tip: 1 + 24 = 25. 12-0 on E opens
    # 12-12:N and 12-12:S: 1 + 0 = 1. The arms of 3-3 come before those of 12-12, as 3-3's
    # come before 6-6's in a double-six game (they were read as text: "12-12:N" < "3-3:N").
    options = {**TWELVE, "spinners": "all"}
    moves: list[Move] = [
        ("6-6", None),
        ("6-3", "W"),
        ("6-12", "E"),
        ("3-3", "W"),
        ("3-1", "W"),
        ("12-12", "E"),
        ("12-0", "E"),
    ]
    data = alternate(moves, options)
    assert counts(data) == [12, 15, 15, 18, 13, 25, 1]
    assert points(data) == [0, 15, 15, 0, 0, 25, 0]
    assert ends_after(moves, options) == [
        ("W", 1),
        ("E", 0),
        ("N", 6),
        ("S", 6),
        ("3-3:N", 3),
        ("3-3:S", 3),
        ("12-12:N", 12),
        ("12-12:S", 12),
    ]


@pytest.mark.parametrize(
    ("options", "lead", "count"),
    [
        # A layout of one tile counts that tile once: 12 + 12 = 24, 9 + 9 = 18.
        pytest.param(TWELVE, "12-12", 24, id="12-12"),
        pytest.param(NINE, "9-9", 18, id="9-9"),
        pytest.param(TWELVE, "12-11", 23, id="12-11"),
        # spinner_counts: no: the lead spinner's own pips never count.
        pytest.param({**TWELVE, "spinner_counts": "no"}, "12-12", 0, id="12-12, spinner_counts no"),
        pytest.param({**NINE, "spinner_counts": "no"}, "9-9", 0, id="9-9, spinner_counts no"),
        # Without spinners 12-12 is no spinner: it counts whatever spinner_counts says.
        pytest.param(
            {**TWELVE, "spinners": "none", "spinner_counts": "no"}, "12-12", 24, id="no spinner"
        ),
    ],
)
def test_the_lead_alone(options: dict[str, Any], lead: str, count: int) -> None:
    data = alternate([(lead, None)], options)
    assert counts(data) == [count]
    assert points(data) == [0]


def test_spinner_counts_no_with_a_twelve_twelve_lead() -> None:
    # Lead 12-12 counts 0 (spinner_counts: no). 12-5 on W: W 5 + E the spinner, not counted,
    # 0 = 5, Bob +5. 12-3 on E: 5 + 3 = 8.
    options = {**TWELVE, "spinner_counts": "no"}
    data = alternate([("12-12", None), ("12-5", "W"), ("12-3", "E")], options)
    assert counts(data) == [0, 5, 8]
    assert points(data) == [0, 5, 0]


# -- settlement with more than 100 pips (section 8) ----------------------------------------------


def twelve_duo_events() -> list[Any]:
    """Double-twelve, Ann and Bob, five tiles each (deal five-each); Ann dominoes at event 10.

    Ann holds 12-12 12-8 12-3 12-0 8-3 and plays them all. Bob holds 12-5 5-5 8-2 12-11
    11-10. The spinner 12-12 opens N and S once 12-5 (W) and 12-8 (E) cover its sides. At
    event 8 the ends show W 5, E 2, N 3, S 0 and Bob's 12-11 and 11-10 fit none, so he draws
    10-9 9-8 8-7 7-6 6-4 (none fits either) and then 7-2, which he plays on E at once.
    Counts: 24; W 5 + E 24 = 29; W 5 + E 8 = 13; W 5-5 10 + 8 = 18; 10 + 8 + N 3 = 21;
    10 + E 2 + 3 = 15 (Bob +15); 10 + 2 + 3 + S 0 = 15 (Ann +15); 10 + E 7 + 3 + 0 = 20
    (Bob +20); 10 + 7 + N 8 + 0 = 25 (Ann +25). Ann 40, Bob 35 before settling.
    Bob keeps 7 tiles, 12-11 11-10 10-9 9-8 8-7 7-6 6-4: 23+21+19+17+15+13+10 = 118 pips.
    """
    return [
        play("Ann", "12-12"),
        play("Bob", "12-5", "W"),
        play("Ann", "12-8", "E"),
        play("Bob", "5-5", "W"),
        play("Ann", "12-3", "N"),
        play("Bob", "8-2", "E"),
        play("Ann", "12-0", "S"),
        draw("Bob", 6),
        play("Bob", "7-2", "E"),
        play("Ann", "8-3", "N"),
    ]


BOB_118 = ["12-11", "11-10", "10-9", "9-8", "8-7", "7-6", "6-4"]


def twelve_duo(
    remaining: dict[str, Any] | None = None,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The double-twelve domino hand, settled with Bob's 118 pips unless said otherwise."""
    held = {"Bob": BOB_118} if remaining is None else remaining
    return record(
        DUO,
        [hand("Ann", twelve_duo_events(), held)],
        preset=preset,
        options={**TWELVE, "deal": "five-each", **(options or {})},
    )


def test_the_twelve_twelve_hand_counts() -> None:
    data = twelve_duo()
    assert counts(data) == [24, 29, 13, 18, 21, 15, 15, 20, 25]
    assert points(data) == [0, 0, 0, 0, 0, 15, 15, 20, 25]
    game = game_of(data)
    assert game.hand is not None
    # 91 tiles, 10 dealt: a boneyard of 81, less Bob's 6.
    assert game.hand.boneyard == 75


def test_deduct_own_takes_off_more_than_a_hundred() -> None:
    # all-fives: Bob's 118 rounds to 120 and comes off his score: 35 - 120 = -85.
    result = result_of(twelve_duo())
    settled = result["hands"][0]
    assert settled["result"] == "domino"
    assert settled["settlement"] == {"Ann": 0, "Bob": -120}
    assert result["scores"] == {"Ann": 40, "Bob": -85}
    assert result["winner"] is None


def test_winner_collects_more_than_a_hundred_in_fives() -> None:
    # fives-up: Ann dominoed and collects Bob's 118 -> 120, divided by 5: 24. Ann 64, Bob 35.
    result = result_of(twelve_duo(preset="fives-up"))
    assert result["hands"][0]["settlement"] == {"Ann": 24, "Bob": 0}
    assert result["scores"] == {"Ann": 64, "Bob": 35}
    assert result["winner"] is None


def test_winner_collects_more_than_a_hundred_and_wins() -> None:
    # fives-up, bonus_in_fives: no: Ann collects 120 in points, 40 + 120 = 160 >= 100: she wins.
    result = result_of(twelve_duo(preset="fives-up", options={"bonus_in_fives": "no"}))
    assert result["hands"][0]["settlement"] == {"Ann": 120, "Bob": 0}
    assert result["scores"] == {"Ann": 160, "Bob": 35}
    assert result["winner"] == "Ann"


def test_settled_with_a_pip_total_or_with_the_tiles_alike() -> None:
    assert result_of(twelve_duo({"Bob": 118})) == result_of(twelve_duo())


# -- the deal and the boneyard (docs/rules.md 1a) --------------------------------------------------

DEALS = [
    # double-nine, 55 tiles: 9 each for 2-4 players, 7 for 5-6, 6 for 7-8.
    ("double-nine", 2, 9, 55 - 18),
    ("double-nine", 3, 9, 55 - 27),
    ("double-nine", 4, 9, 55 - 36),
    ("double-nine", 5, 7, 55 - 35),
    ("double-nine", 6, 7, 55 - 42),
    ("double-nine", 7, 6, 55 - 42),
    ("double-nine", 8, 6, 55 - 48),
    # double-twelve, 91 tiles: 12 each for 2-4 players, 11 for 5-6, 9 for 7-8.
    ("double-twelve", 2, 12, 91 - 24),
    ("double-twelve", 3, 12, 91 - 36),
    ("double-twelve", 4, 12, 91 - 48),
    ("double-twelve", 5, 11, 91 - 55),
    ("double-twelve", 6, 11, 91 - 66),
    ("double-twelve", 7, 9, 91 - 63),
    ("double-twelve", 8, 9, 91 - 72),
]
"""Every row of docs/rules.md 1a's table: set, players, tiles each, the boneyard."""


def first_hand(setup: Setup) -> Game:
    """The game once seat 1 is to lead its first hand."""
    game = Game(setup)
    game.push(NewHand(0))
    return game


@pytest.mark.parametrize("preset", ["all-fives", "fives-up", "totally-fives"])
@pytest.mark.parametrize(("set_name", "players", "each", "boneyard"), DEALS)
def test_the_standard_deal_of_a_larger_set(
    preset: str, set_name: str, players: int, each: int, boneyard: int
) -> None:
    # The preset's own standard deal (9/7/5 or 7/5/5) is a double-six one: a larger set deals
    # by its own row of 1a's table, whatever the preset.
    setup = Setup.create(EIGHT[:players], preset, {"set": set_name})
    assert (setup.rules.hand_size, setup.rules.boneyard_size) == (each, boneyard)
    game = first_hand(setup)
    assert game.hand is not None
    assert (game.hand.held, game.hand.boneyard) == ([each] * players, boneyard)
    assert game.drawable() == boneyard


@pytest.mark.parametrize(("set_name", "size"), [("double-nine", 55), ("double-twelve", 91)])
@pytest.mark.parametrize("players", range(2, 9))
def test_five_each_and_seven_five_with_a_larger_set(set_name: str, size: int, players: int) -> None:
    # five-each deals 5 whatever the number of players; seven-five 7 with 2 players, else 5.
    five = Setup.create(EIGHT[:players], "all-fives", {"set": set_name, "deal": "five-each"})
    assert (five.rules.hand_size, five.rules.boneyard_size) == (5, size - 5 * players)
    seven = Setup.create(EIGHT[:players], "all-fives", {"set": set_name, "deal": "seven-five"})
    each = 7 if players == 2 else 5
    assert (seven.rules.hand_size, seven.rules.boneyard_size) == (each, size - each * players)
    game = first_hand(seven)
    assert game.hand is not None and game.hand.boneyard == size - each * players


@pytest.mark.parametrize(("set_name", "players", "each", "boneyard"), DEALS)
def test_the_whole_boneyard_can_be_drawn_and_no_more(
    set_name: str, players: int, each: int, boneyard: int
) -> None:
    # Ann leads her top double (every set has 6-6); Bob draws the whole boneyard in one go.
    # One tile more is refused (draw-empty) and changes nothing.
    setup = Setup.create(EIGHT[:players], "all-fives", {"set": set_name})
    game = first_hand(setup)
    game.push(Play(0, tile(6, 6)))
    assert_unchanged_by(game, Draw(1, boneyard + 1), "draw-empty")
    game.push(Draw(1, boneyard))
    assert game.hand is not None and game.hand.boneyard == 0
    assert game.hand.held[1] == each + boneyard


@pytest.mark.parametrize(("set_name", "players", "each", "boneyard"), DEALS)
def test_the_hand_begins_line_says_the_sets_deal(
    set_name: str, players: int, each: int, boneyard: int
) -> None:
    game = first_hand(Setup.create(EIGHT[:players], "all-fives", {"set": set_name}))
    lines = english(explain_all(game)[0].lines)
    assert f"Each player takes {each} tiles; {boneyard} tiles stay face down in the boneyard." in (
        lines
    )


def test_highest_double_redraws_with_a_larger_set() -> None:
    # double-twelve, 8 players: 9 each, a boneyard of 19. Each redraw takes 8 tiles: two
    # redraws leave 3, a third would need 24 (draw-empty).
    setup = Setup.create(EIGHT, "all-fives", {**TWELVE, "lead": "highest-double"})
    assert setup.rules.most_redraws == 2
    game = Game(setup)
    assert_unchanged_by(game, NewHand(0, "double", 3), "draw-empty")
    game.push(NewHand(0, "double", 2))
    assert game.hand is not None
    assert (game.hand.held, game.hand.boneyard) == ([11] * 8, 3)


# -- the remaining pips, with the set's pips (section 8) ------------------------------------------


def test_remaining_bounds_are_the_lowest_and_highest_tiles_of_the_set() -> None:
    # Bob holds 7 tiles. Not on the table, the seven lowest are 0-0 1-0 1-1 2-0 2-1 3-0 and a
    # tile of 4 (2-2, 3-1 or 4-0): 0+1+2+2+3+3+4 = 15. The seven highest are 12-11 12-10
    # 11-11 12-9 11-10 and two of 20 (11-9, 10-10; 12-8 is on the table): 23+22+22+21+21+20+20
    # = 149. (With a double-six set 7 tiles could never make more than 12+11+10+10+9+9+8 = 69.)
    for pips in (15, 118, 149):
        assert game_of(twelve_duo({"Bob": pips})).hand is not None
    for pips in (14, 150):
        assert_refused(twelve_duo({"Bob": pips}), "remaining", 1, None)


def nine_duo_events() -> list[Any]:
    """Double-nine, Ann and Bob, nine tiles each, no spinner; Ann dominoes at event 18 with
    the boneyard drawn empty.

    Ann holds 9-9 and 9-0 to 9-7; Bob holds nine tiles without a nine, and the one nine left,
    9-8, lies at the bottom of the boneyard. Against the lead 9-9 Bob draws all 37 tiles and
    plays the last, 9-8. From then on Bob holds every tile without a nine: he plays what
    Ann's next nine fits, and passes while both ends show 9.
    Counts: 18; W 8 + E 9-9 18 = 26; 8 + E 0 = 8; W 1 + 0 = 1; 9 + 0 = 9; 9 + E 2 = 11;
    9 + 9 = 18; (pass) W 3 + 9 = 12; 4 + 9 = 13; 9 + 9 = 18; (pass) 9 + E 5 = 14; 9 + 6 =
    15 (Bob +15); 9 + 9 = 18; (pass) W 7 + 9 = 16.
    """
    return [
        play("Ann", "9-9"),
        draw("Bob", 37),
        play("Bob", "9-8", "W"),
        play("Ann", "9-0", "E"),
        play("Bob", "8-1", "W"),
        play("Ann", "9-1", "W"),
        play("Bob", "2-0", "E"),
        play("Ann", "9-2", "E"),
        passes("Bob"),
        play("Ann", "9-3", "W"),
        play("Bob", "4-3", "W"),
        play("Ann", "9-4", "W"),
        passes("Bob"),
        play("Ann", "9-5", "E"),
        play("Bob", "6-5", "E"),
        play("Ann", "9-6", "E"),
        passes("Bob"),
        play("Ann", "9-7", "W"),
    ]


def nine_duo(remaining: dict[str, Any]) -> dict[str, Any]:
    """The double-nine hand drawn empty, settled with ``remaining``."""
    options = {**NINE, "spinners": "none"}
    return record(DUO, [hand("Ann", nine_duo_events(), remaining)], options=options)


def test_an_empty_boneyard_leaves_every_pip_off_the_table() -> None:
    # A double-nine set has 495 pips. The ten nines, 9-0 to 9-9, have 9 x 10 + 45 = 135; Bob's
    # 8-1 2-0 4-3 6-5 have 9 + 2 + 7 + 11 = 29: 164 on the table, so Bob's 41 tiles hold
    # 495 - 164 = 331 exactly (the double-eight tiles, 360, less his 29). deduct-own: 331
    # rounds to 330, and Bob's 15 becomes -315.
    data = nine_duo({"Bob": 331})
    assert counts(data) == [18, 26, 8, 1, 9, 11, 18, 12, 13, 18, 14, 15, 18, 16]
    assert points(data) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 0, 0]
    result = result_of(data)
    assert result["hands"][0]["settlement"] == {"Ann": 0, "Bob": -330}
    assert result["scores"] == {"Ann": 0, "Bob": -315}
    for pips in (330, 332):
        assert_refused(nine_duo({"Bob": pips}), "remaining", 1, None)


def test_remaining_totals_are_checked_with_the_sets_pips() -> None:
    # Double-nine, only 9-9 on the table: 495 - 18 = 477 pips off it. Bob and Cy hold 20
    # tiles each, 14 stay in the boneyard. The 20 highest tiles not on the table make 262
    # (9-8 17, 9-7 and 8-8 16, two of 15, three of 14, three of 13, four of 12, four of 11,
    # 9-1 10), so each may say up to 262 but both together at most 477.
    on_table, held, names = {tile(9, 9)}, [0, 20, 20], ["Ann", "Bob", "Cy"]
    nine = TILE_SETS["double-nine"]
    assert check_remaining({1: 262, 2: 215}, held, on_table, 14, names, nine) == {
        0: 0,
        1: 262,
        2: 215,
    }
    with pytest.raises(IllegalEntry) as refused:
        check_remaining({1: 262, 2: 216}, held, on_table, 14, names, nine)
    assert refused.value.rule == "remaining"
    assert "only 477 are not on the table" in str(refused.value.message)
    # Above the 20 highest tiles, alone.
    with pytest.raises(IllegalEntry):
        check_remaining({1: 263, 2: 100}, held, on_table, 14, names, nine)


def test_remaining_with_an_empty_boneyard_is_exactly_the_sets_pips_less_the_table() -> None:
    # Double-nine, 9-9 on the table, Bob and Cy hold the other 54 tiles, 27 each: 477 pips
    # together. The 27 highest make 329 (the 20 above, 262, and 8-2 7-3 6-4 5-5 of 10, 9-0
    # 8-1 7-2 of 9), so the 27 lowest make 477 - 329 = 148: 240 and 237 are both possible
    # alone, and together 477 exactly; 240 and 236 leave a pip unaccounted for.
    on_table, held, names = {tile(9, 9)}, [0, 27, 27], ["Ann", "Bob", "Cy"]
    nine = TILE_SETS["double-nine"]
    assert check_remaining({1: 240, 2: 237}, held, on_table, 0, names, nine)[2] == 237
    assert check_remaining({1: 329, 2: 148}, held, on_table, 0, names, nine)[1] == 329
    with pytest.raises(IllegalEntry) as refused:
        check_remaining({1: 240, 2: 236}, held, on_table, 0, names, nine)
    assert "The boneyard is empty" in str(refused.value.message)
    with pytest.raises(IllegalEntry):
        check_remaining({1: 330, 2: 147}, held, on_table, 0, names, nine)


# -- refusals: each names its rule and stores nothing (section 9) --------------------------------


@pytest.mark.parametrize(
    ("options", "spelled"),
    [
        # A double-six set has no 7, 8 or 9: 9-7 is not a tile of the game.
        pytest.param({}, "9-7", id="9-7 in double-six"),
        pytest.param({}, "6-7", id="6-7 in double-six"),
        # A double-nine set stops at 9.
        pytest.param(NINE, "10-3", id="10-3 in double-nine"),
        pytest.param(NINE, "12-12", id="12-12 in double-nine"),
        # With a larger set a tile has its dash: 127 could be 12-7 or 1-27, 64 is 6-4 or 64.
        pytest.param(TWELVE, "127", id="127 in double-twelve"),
        pytest.param(NINE, "64", id="64 in double-nine"),
        pytest.param(TWELVE, "13-2", id="13-2 in double-twelve"),
        pytest.param(TWELVE, "12-7-1", id="three numbers"),
    ],
)
def test_a_tile_outside_the_set_is_malformed(options: dict[str, Any], spelled: str) -> None:
    # Event 2 is Bob's answer to Ann's lead 6-6: a tile that is not a tile of the game's set
    # is malformed input, rule record, whatever else may be wrong with it.
    data = record(DUO, [hand("Ann", [play("Ann", "6-6"), play("Bob", spelled)])], options=options)
    assert_refused(data, "record", 1, 2)


@pytest.mark.parametrize(
    ("options", "lead", "spelled", "shown"),
    [
        pytest.param(TWELVE, "12-12", "12-7", "12-7", id="12-7"),
        pytest.param(TWELVE, "12-12", "12 7", "12-7", id="12 7"),
        pytest.param(TWELVE, "12-12", "7-12", "12-7", id="7-12"),
        pytest.param(TWELVE, "12-12", "7 12", "12-7", id="7 12"),
        pytest.param(TWELVE, "12-12", " 12 - 10 ", "12-10", id="spaces around"),
        pytest.param(NINE, "9-9", "3-9", "9-3", id="3-9 in double-nine"),
        pytest.param(NINE, "6-6", "6-4", "6-4", id="6-4 in double-nine"),
        pytest.param({}, "6-6", "64", "6-4", id="64 in double-six"),
        pytest.param({}, "6-6", "46", "6-4", id="46 in double-six"),
    ],
)
def test_the_spellings_a_set_reads(
    options: dict[str, Any], lead: str, spelled: str, shown: str
) -> None:
    data = record(DUO, [hand("Ann", [play("Ann", lead), play("Bob", spelled, "W")])])
    data["options"] = options
    assert result_of(data)["hands"][0]["plays"][1]["tile"] == shown


def test_a_play_of_a_tile_outside_the_set_changes_nothing() -> None:
    # Pushed directly (as a page would), 10-3 in a double-nine game and 7-1 in a double-six
    # game are refused as malformed, before whose turn it is is even looked at.
    nine = game_of(alternate([("9-9", None)], NINE))
    assert_unchanged_by(nine, Play(1, tile(10, 3), "W"), "record")
    assert_unchanged_by(nine, Play(0, tile(10, 3), "W"), "record")  # also out of turn
    six = game_of(alternate([("6-6", None)]))
    assert_unchanged_by(six, Play(1, tile(7, 1), "W"), "record")


@pytest.mark.parametrize(
    ("players", "options", "partners"),
    [
        # A double-six set is for 2 to 4 players.
        pytest.param(EIGHT[:5], None, None, id="5 players, double-six"),
        pytest.param(EIGHT[:8], {"set": "double-six"}, None, id="8 players, double-six"),
        # No set takes more than 8 players.
        pytest.param([*EIGHT, "Ivy"], TWELVE, None, id="9 players, double-twelve"),
        pytest.param([*EIGHT, "Ivy"], None, None, id="9 players"),
        # Partnerships exist only with 4 players.
        pytest.param(EIGHT[:6], NINE, True, id="partners with 6"),
        pytest.param(EIGHT[:8], TWELVE, True, id="partners with 8"),
        # An unknown set.
        pytest.param(EIGHT[:2], {"set": "double-fifteen"}, None, id="double-fifteen"),
        pytest.param(EIGHT[:2], {"set": 9}, None, id="set 9"),
        pytest.param(EIGHT[:2], {"set": "Double-Nine"}, None, id="set in capitals"),
    ],
)
def test_a_table_the_set_does_not_allow_is_refused_in_the_header(
    players: list[str], options: dict[str, Any] | None, partners: bool | None
) -> None:
    data = record(players, [hand("Ann", [play("Ann", "6-6")])], options=options, partners=partners)
    assert_refused(data, "record", None, None)
    with pytest.raises(MalformedInput):
        Setup.create(players, "all-fives", options, partners)


def test_players_not_given_as_a_list_are_told_the_larger_tables_too() -> None:
    data = record(DUO, [hand("Ann", [play("Ann", "6-6")])])
    data["players"] = "Ann, Bob"
    refusal = refusal_of(data)
    assert (refusal.rule, refusal.hand, refusal.event) == ("record", None, None)
    assert str(refusal.message) == (
        "players lists 2 to 4 names in seat order (up to 8 with a larger set)."
    )


def test_the_tables_a_larger_set_allows() -> None:
    for players in range(2, 9):
        for options in (NINE, TWELVE):
            data = record(EIGHT[:players], [hand("Ann", [play("Ann", "6-6")])], options=options)
            assert game_of(data).players == tuple(EIGHT[:players])
    partnered = Setup.create(EIGHT[:4], "fives-up", TWELVE, True)
    assert partnered.sides == ("Ann & Cy", "Bob & Dee")


@pytest.mark.parametrize(
    ("options", "end", "rule"),
    [
        # GAME_RECORD.md: "Text that is not an arm name at all is malformed, rule record; an
        # arm name that is not open in this layout is rule end-unknown." A double-six set has
        # no 9-9, so 9-9:N can never name an arm of a double-six game: it is no more an arm
        # name there than 5-4:N (a tile that is no double) is in any game. So it is malformed,
        # rule record, like the tile 9-7 in that game, and a double-twelve arm in a
        # double-nine game likewise.
        pytest.param({"spinners": "all"}, "9-9:N", "record", id="9-9:N in double-six"),
        pytest.param({**NINE, "spinners": "all"}, "12-12:S", "record", id="12-12:S in double-nine"),
        pytest.param({**NINE, "spinners": "all"}, "10-10:N", "record", id="10-10:N in double-nine"),
        # In a double-nine game 9-9:N is an arm name, of a 9-9 that is not on the table.
        pytest.param(
            {**NINE, "spinners": "all"}, "9-9:N", "end-unknown", id="9-9:N in double-nine"
        ),
        pytest.param(
            {**TWELVE, "spinners": "all"}, "12-12:N", "end-unknown", id="12-12:N in double-twelve"
        ),
    ],
)
def test_an_arm_of_a_double_outside_the_set(options: dict[str, Any], end: str, rule: str) -> None:
    # Lead 6-6, 6-3 on W and 6-1 on E open N and S; then Bob names ``end`` for 6-4.
    moves = [play("Ann", "6-6"), play("Bob", "6-3", "W"), play("Ann", "6-1", "E")]
    data = record(DUO, [hand("Ann", [*moves, play("Bob", "6-4", end)])], options=options)
    assert_refused(data, rule, 1, 4)
    game = game_of(record(DUO, [hand("Ann", moves)], options=options))
    assert_unchanged_by(game, Play(1, tile(6, 4), end), rule)


def test_an_arm_outside_the_set_is_refused_in_words_that_say_so() -> None:
    # The refusal names the set's highest double instead of offering d-d:N for any d.
    moves = [play("Ann", "6-6"), play("Bob", "6-3", "W"), play("Ann", "6-1", "E")]
    data = record(DUO, [hand("Ann", [*moves, play("Bob", "6-4", "9-9:N")])])
    assert str(refusal_of(data).message) == (
        '"9-9:N" is not an end: a double-six set has no 9-9, its doubles go up to 6-6.'
    )
    game = game_of(record(DUO, [hand("Ann", moves)], options=NINE))
    with pytest.raises(MalformedInput) as refused:
        game.push(Play(1, tile(6, 4), "12-12:S"))
    assert str(refused.value.message) == (
        "'12-12:S' is not an end: a double-nine set has no 12-12, its doubles go up to 9-9."
    )
    # Text that is no arm name in any set is refused as before.
    data = record(DUO, [hand("Ann", [*moves, play("Bob", "6-4", "5-4:N")])])
    assert str(refusal_of(data).message).startswith('"5-4:N" is not an end: the ends are W, E')


def test_remaining_naming_a_tile_outside_the_set() -> None:
    # In the record a tile of another set is text the game cannot read: rule record, in the
    # hand's remaining (event null), as "2-7" is in a double-six game.
    assert_refused(nine_duo({"Bob": ["10-3"]}), "record", 1, None)
    assert_refused(twelve_duo({"Bob": ["13-1", *BOB_118[1:]]}), "record", 1, None)
    # Given to the referee as tiles (what a page reads from the tiles a player taps), a tile
    # outside the set is one Bob cannot hold: rule remaining (section 8: "tiles named as held
    # must be real tiles"). Bob's 41 tiles are every tile without a nine but the four he
    # played; one of them replaced by 10-3 is refused, and the game is unchanged.
    unsettled = nine_duo({})
    del unsettled["hands"][0]["remaining"]
    game = read_record(unsettled, unsettled_last_hand=True)
    played = {tile(8, 1), tile(2, 0), tile(4, 3), tile(6, 5)}
    bobs = [t for t in TILE_SETS["double-nine"].tiles if t.high < 9 and t not in played]
    assert len(bobs) == 41 and sum(t.pips for t in bobs) == 331
    assert_unchanged_by(game, Settle({1: (tile(10, 3), *bobs[1:])}), "remaining")
    game.push(Settle({1: tuple(bobs)}))
    assert game.scores == [0, -315]


# -- the referee's words with a larger set: Why?, the score sheet --------------------------------


def test_why_counts_two_digit_ends_and_a_settlement_over_a_hundred() -> None:
    game = game_of(twelve_duo())
    said = [(str(e.summary), english(e.lines)) for e in explain_all(game)]
    assert said[0][1][1] == "Each player takes 5 tiles; 81 tiles stay face down in the boneyard."
    assert said[2] == (
        "Bob played 12-5 on W: W 5 + E 24 = 29, no score.",
        (
            "W 5",
            "E 12-12, the spinner at the tip, 24",
            "total 29, not a multiple of five: no score",
        ),
    )
    assert said[8][1][1] == "Bob drew 6 tiles: 81 could be drawn before, 75 now."
    assert said[-1][1][2] == "Bob holds 12-11 11-10 10-9 9-8 8-7 7-6 6-4 = 118, rounds to 120: -120"


def test_the_score_sheet_names_the_set() -> None:
    header = score_sheet(game_of(twelve_duo())).header
    differing = {
        rule.name: (rule.value, rule.preset_value) for rule in header.rules if rule.differs
    }
    assert differing == {"deal": ("five-each", "standard"), "set": ("double-twelve", "double-six")}
