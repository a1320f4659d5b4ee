"""Referee notes: draws and passes that the tiles held at the end show could not have happened.

The hands are the shared ones of ``helpers`` or small variations of them; each comment says
what the offending player holds and when.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.rules.game import Setup
from scorekeeper.rules.layout import End
from scorekeeper.rules.notes import referee_notes
from scorekeeper.rules.options import PRESETS
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.tiles import ALL_TILES, parse_tile
from tests.rules.helpers import (
    DUO,
    DUO_DOMINO_OPTIONS,
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
)
from tests.support.referee import all_referee_notes

NO_SIX = [str(t) for t in ALL_TILES if not t.has(6)]
SIXES = ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]


def lead_then_everyone_passes(remaining: dict[str, Any]) -> dict[str, Any]:
    """Ann leads 6-6, Bob draws the whole boneyard (10) and passes, Ann passes: blocked."""
    events = [play("Ann", "6-6"), draw("Bob", 10), passes("Bob"), passes("Ann")]
    return record(DUO, [hand("Ann", events, remaining)])


def test_a_pass_while_holding_a_fitting_tile() -> None:
    # Ann keeps every six but 6-6 (she led it) and two tiles without a six; Bob, who drew
    # the whole boneyard, holds only tiles without a six.
    data = lead_then_everyone_passes({"Ann": [*SIXES, *NO_SIX[:2]], "Bob": NO_SIX[2:]})
    notes = referee_notes(game_of(data), 1)
    assert [(n.event, n.player, n.action, str(n.tile)) for n in notes] == [
        (4, 0, "pass", six) for six in SIXES
    ]
    first = notes[0]
    assert first.index == 4 and first.hand == 1
    assert first.ends == (End("W", 6), End("E", 6))
    assert (
        str(first.message)
        == "Event 4: Ann passed while holding 6-5, which fitted W (shows 6) and E (shows 6)."
    )


def test_a_draw_with_no_later_draw_while_holding_a_fitting_tile() -> None:
    # Bob draws three against the lead 6-6 and never draws again; he keeps 6-2.
    data = duo_domino({"Bob": ["6-2", "5-3", "4-2", "2-1"]})
    notes = referee_notes(game_of(data), 1)
    assert len(notes) == 1
    note = notes[0]
    assert (note.index, note.event, note.player, note.action) == (2, 2, 1, "draw")
    assert note.tile == parse_tile("6-2")
    assert note.ends == (End("W", 6), End("E", 6))
    assert str(note.message) == (
        "Event 2: Bob drew while holding 6-2 (or drew it then and did not play it at once), "
        "which fitted W (shows 6) and E (shows 6)."
    )


def test_both_the_last_draw_and_the_pass_are_noted() -> None:
    # Bob drew the whole boneyard and passed while holding 6-1: both entries are noted.
    bob = ["6-1", *NO_SIX[:18]]
    ann = [t for t in [*SIXES, *NO_SIX] if t not in bob]
    notes = referee_notes(game_of(lead_then_everyone_passes({"Ann": ann, "Bob": bob})), 1)
    bobs = [(n.event, n.action, str(n.tile)) for n in notes if n.player == 1]
    assert bobs == [(2, "draw", "6-1"), (3, "pass", "6-1")]


def two_draws(bob: list[str]) -> dict[str, Any]:
    """The domino hand, but Bob draws two (not three) against 6-6 and one more before his 3-2.

    At that second draw the ends show W 3 (the double 3-3), E 0, N 4 and S 5. Bob keeps
    four tiles, ``bob``.
    """
    events = duo_domino_events()
    events[1] = draw("Bob", 2)
    events.insert(8, draw("Bob", 1))
    return record(DUO, [hand("Ann", events, {"Bob": bob})], options=DUO_DOMINO_OPTIONS)


def test_a_draw_followed_by_a_later_draw_is_not_noted() -> None:
    # Bob keeps 6-2, which fitted 6-6 at his first draw, but may have drawn it at his second,
    # when it fitted nothing: neither draw is noted.
    assert referee_notes(game_of(two_draws(["6-2", "2-2", "2-1", "1-1"])), 1) == []


def test_the_last_of_several_draws_is_checked() -> None:
    # Bob keeps 5-2, which fitted S (shows 5) at his second and last draw, event 9.
    notes = referee_notes(game_of(two_draws(["6-2", "5-2", "2-1", "1-1"])), 1)
    assert [(n.index, n.event, n.action, str(n.tile), n.ends) for n in notes] == [
        (9, 9, "draw", "5-2", (End("S", 5),))
    ]


def test_a_clean_domino_hand_has_no_notes() -> None:
    assert referee_notes(game_of(duo_domino()), 1) == []
    assert referee_notes(game_of(quad_domino()), 1) == []


def test_a_clean_blocked_hand_has_no_notes() -> None:
    # Every six is on the table: nothing Ann drew or either player kept could fit.
    off_table = {"2-0", "5-4", "3-1"}
    free = [t for t in NO_SIX if t not in off_table]
    data = duo_blocked({"Ann": free[:14], "Bob": free[14:]})
    assert referee_notes(game_of(data), 1) == []


def test_pip_totals_give_nothing_to_check() -> None:
    assert referee_notes(game_of(lead_then_everyone_passes({"Ann": 48, "Bob": 108})), 1) == []
    assert referee_notes(game_of(duo_domino({"Bob": 19})), 1) == []


def test_only_the_players_who_named_tiles_are_checked() -> None:
    # Ann names her tiles (every six: noted); Bob only gives his total.
    ann = [*SIXES, *NO_SIX[:2]]
    bob_pips = sum(parse_tile(t).pips for t in NO_SIX[2:])
    notes = referee_notes(game_of(lead_then_everyone_passes({"Ann": ann, "Bob": bob_pips})), 1)
    assert {n.player for n in notes} == {0}


def test_an_unsettled_or_missing_hand_has_no_notes() -> None:
    events = [play("Ann", "6-6"), draw("Bob", 10), passes("Bob")]
    game = game_of(record(DUO, [hand("Ann", events)]))
    assert referee_notes(game, 1) == []
    assert referee_notes(game, 2) == []
    assert referee_notes(game, 0) == []


def test_notes_in_a_later_hand_count_events_within_that_hand() -> None:
    second = hand("Ann", duo_domino_events(), {"Bob": ["6-2", "5-3", "4-2", "2-1"]})
    game = game_of(duo_domino(more_hands=[second]))
    assert referee_notes(game, 1) == []
    notes = referee_notes(game, 2)
    assert [(n.index, n.hand, n.event) for n in notes] == [(14, 2, 2)]
    assert str(notes[0].message).startswith("Event 2: Bob drew while holding 6-2")
    assert all_referee_notes(game) == notes


@pytest.mark.parametrize("seed", range(6))
def test_a_table_that_keeps_the_rules_gets_no_notes(seed: int) -> None:
    # The simulated table draws only when nothing fits and plays a drawn tile that fits at
    # once; it settles with the tiles about half the time.
    players = ["Ann", "Bob", "Cy", "Dee"][: 2 + seed % 3]
    setup = Setup.create(players, PRESETS[seed % 3], {"boneyard_reserve": seed % 2})
    game = play_game(setup, random.Random(seed))
    assert len(game.hands) > 1
    assert all_referee_notes(game) == []
