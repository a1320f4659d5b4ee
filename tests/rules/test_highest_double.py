"""House rule ``lead: highest-double`` (docs/rules.md section 3): in the first hand and after a
blocked hand the highest double leads; when nobody holds a double everyone draws one more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.rules import Game, IllegalEntry, MalformedInput, NewHand, Play, Setup
from scorekeeper.rules.explain import explain_hand
from scorekeeper.rules.notes import referee_notes
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.sheet import score_sheet
from scorekeeper.rules.tiles import tile
from tests.rules.helpers import (
    DUO,
    assert_refused,
    duo_blocked,
    duo_domino,
    english,
    game_of,
    hand,
    play,
    record,
    result_of,
)

DOUBLE = {"lead": "highest-double"}
DATA = Path(__file__).parents[1] / "data"


def _game(players: int = 2, **options: object) -> Game:
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    return Game(Setup.create(names, "all-fives", {**DOUBLE, **options}))


def test_the_first_hand_is_led_with_a_double() -> None:
    data = duo_domino(options=DOUBLE)  # Ann leads 6-6
    assert result_of(data)["hands"][0]["plays"][0]["tile"] == "6-6"


def test_a_lead_that_is_not_a_double_is_refused_and_changes_nothing() -> None:
    game = _game()
    game.push(NewHand(0, "double"))
    before = (list(game.events), game.hand.held if game.hand else None)
    with pytest.raises(IllegalEntry) as caught:
        game.push(Play(0, tile(6, 4)))
    assert caught.value.rule == "lead"
    assert "6-4 is not a double" in str(caught.value.said)
    assert (list(game.events), game.hand.held if game.hand else None) == before
    game.push(Play(0, tile(2, 2)))  # any double will do: the app cannot see who holds what
    assert game.hand is not None and game.hand.plays[0].count == 4


def test_after_a_domino_the_winner_of_the_hand_leads_any_tile() -> None:
    data = duo_domino(options=DOUBLE, more_hands=[hand("Ann", [play("Ann", "5-3")])])
    assert result_of(data)["hands"][1]["plays"][0]["count"] == 8


def test_after_a_blocked_hand_the_highest_double_leads_again() -> None:
    blocked = {"Ann": 62, "Bob": 28}
    refused = duo_blocked(blocked, DOUBLE, more_hands=[hand("Bob", [play("Bob", "5-3")])])
    assert_refused(refused, "lead", 2, 1)
    allowed = duo_blocked(blocked, DOUBLE, more_hands=[hand("Bob", [play("Bob", "3-3")])])
    assert result_of(allowed)["hands"][1]["plays"][0]["count"] == 6


def test_each_redraw_gives_every_player_one_more_tile_from_the_boneyard() -> None:
    # all-fives with 3 players: 7 tiles each, 28 - 21 = 7 in the boneyard.
    game = _game(3)
    game.push(NewHand(1, "double", 2))
    hand_now = game.hand
    assert hand_now is not None
    assert hand_now.held == [9, 9, 9] and hand_now.boneyard == 1
    assert game.drawable() == 1


@pytest.mark.parametrize(
    ("players", "reserve", "most"),
    [(2, 0, 5), (3, 0, 2), (4, 0, 2), (2, 2, 4), (4, 4, 1)],
)
def test_redraws_stop_where_the_boneyard_does(players: int, reserve: int, most: int) -> None:
    # all-fives deals 9, 7, 5: boneyards of 10, 7 and 8; a reserve is never drawn.
    _game(players, boneyard_reserve=reserve).push(NewHand(0, "double", most))
    game = _game(players, boneyard_reserve=reserve)
    with pytest.raises(IllegalEntry) as caught:
        game.push(NewHand(0, "double", most + 1))
    assert caught.value.rule == "draw-empty"
    assert game.events == [] and game.hands == []


def test_redraws_in_the_record_round_trip_and_shape_the_settlement_checks() -> None:
    data = json.loads((DATA / "hand_highest_double_redraws.json").read_text())
    game = load_record(json.dumps(data))
    assert game.events[0] == NewHand(0, None, 2)
    assert write_record(game)["hands"][0]["redraws"] == 2
    # Bob held 7 and drew 1, played 6: two tiles, at least the two lowest pips off the table.
    data["hands"][0]["remaining"] = {"Bob": 0}
    assert_refused(data, "remaining", 1, None)


@pytest.mark.parametrize("value", [-1, 1.5, "2", True, None])
def test_a_malformed_redraws_is_refused_with_record(value: object) -> None:
    data = duo_domino(options=DOUBLE)
    data["hands"][0]["redraws"] = value
    assert_refused(data, "record", 1, None)


def test_redraws_where_the_highest_double_does_not_decide_are_refused() -> None:
    without = duo_domino()
    without["hands"][0]["redraws"] = 1
    assert_refused(without, "record", 1, None)
    after_domino = duo_domino(options=DOUBLE, more_hands=[hand("Ann", [])])
    after_domino["hands"][1]["redraws"] = 1
    assert_refused(after_domino, "record", 2, None)
    with pytest.raises(MalformedInput):
        Game(Setup.create(["Ann", "Bob"], "all-fives")).push(NewHand(0, None, 1))


def test_the_why_says_how_the_leader_was_chosen_and_the_redraws() -> None:
    game = load_record((DATA / "hand_highest_double_redraws.json").read_bytes())
    lines = " ".join(english(explain_hand(game, 1)[0].lines))
    assert "Nobody held a double, so every player drew one more tile, 2 times" in lines
    assert "14 tiles stay in the boneyard" in lines
    assert "must lead a double (house rule lead: highest-double)" in lines
    second = " ".join(english(explain_hand(game, 2)[0].lines))
    assert "may lead any tile, double or not" in second


def test_a_higher_double_held_all_hand_is_noted_but_not_one_that_may_have_been_drawn() -> None:
    game = load_record((DATA / "hand_referee_notes.json").read_bytes())
    notes = referee_notes(game, 1)
    leads = [note for note in notes if note.action == "lead"]
    # Ann drew nothing and still holds 3-3; Bob holds 6-6 but drew once: it may be that tile.
    assert [(game.players[n.player], str(n.tile), n.event) for n in leads] == [("Ann", "3-3", 1)]
    assert str(leads[0].message).startswith("Event 1: Cy led 2-2 while Ann held 3-3")
    assert scores_unchanged(game)


def scores_unchanged(game: Game) -> bool:
    """Notes are for the table to talk over: the settled scores stand."""
    return tuple(game.scores) == (15, 5, 9)


def test_a_leader_holding_a_higher_double_is_noted_too() -> None:
    # Ann leads 1-1 holding no other 1; Bob draws the 6 tiles the reserve leaves and cannot
    # play either; both pass and the hand is blocked with Ann's 8 tiles named.
    held = ["6-6", "5-5", "4-4", "3-3", "2-2", "6-5", "6-4", "6-3"]
    events = [play("Ann", "1-1"), {"player": "Bob", "draw": 6}]
    events += [{"player": "Bob", "pass": True}, {"player": "Ann", "pass": True}]
    data = {
        "format": "all-fives/1",
        "options": {**DOUBLE, "boneyard_reserve": 4},
        "players": ["Ann", "Bob"],
        "hands": [hand("Ann", events, {"Ann": held, "Bob": 80})],
    }
    notes = referee_notes(game_of(data), 1)
    assert [(n.action, str(n.tile)) for n in notes] == [("lead", "6-6")]
    assert str(notes[0].message).startswith("Event 1: Ann led 1-1 while holding 6-6")


def test_a_higher_double_played_by_a_player_who_never_drew_is_noted_as_held() -> None:
    # Ann leads 4-4; Bob, who draws nothing all hand, plays 6-6 at event 4: he held it at the
    # lead. The hand is settled with a pip total only: the plays alone show it.
    game = load_record((DATA / "hand_highest_double_played.json").read_bytes())
    notes = referee_notes(game, 1)
    assert [(n.action, game.players[n.player], str(n.tile), n.event) for n in notes] == [
        ("lead", "Bob", "6-6", 1)
    ]
    assert str(notes[0].message) == (
        "Event 1: Ann led 4-4, and at event 4 Bob, having drawn nothing, played 6-6, a higher "
        "double held from the start; the highest double leads (house rule lead: highest-double)."
    )
    assert tuple(game.scores) == (5, 0)  # a note changes no score


def _notes_of(events: list[dict[str, object]], remaining: dict[str, object]) -> list[str]:
    """The referee notes of a one-hand game of Ann and Bob, five tiles each, highest double."""
    data = record(DUO, [hand("Ann", events, remaining)], options={**DOUBLE, "deal": "five-each"})
    return [str(note.message) for note in referee_notes(game_of(data), 1)]


def test_a_played_higher_double_after_a_draw_is_not_noted() -> None:
    # Bob draws before he plays 6-6: it may have come in that draw.
    events = [play("Ann", "4-4"), play("Bob", "6-4", "W"), play("Ann", "4-1", "E")]
    events += [{"player": "Bob", "draw": 1}, play("Bob", "6-6", "W"), play("Ann", "4-3", "N")]
    events += [play("Bob", "6-2", "W"), play("Ann", "1-0", "E"), play("Bob", "4-0", "S")]
    events += [play("Ann", "3-2", "N")]
    assert _notes_of(events, {"Bob": 6}) == []


def test_a_leader_who_plays_a_higher_double_later_is_noted_but_not_a_lower_double() -> None:
    # Ann leads 4-4 and plays 6-6 at event 5 without drawing; Bob's 2-2 is lower than 4-4.
    events = [play("Ann", "4-4"), play("Bob", "6-4", "W"), play("Ann", "4-1", "E")]
    events += [play("Bob", "4-2", "N"), play("Ann", "6-6", "W"), play("Bob", "2-2", "N")]
    events += [play("Ann", "6-3", "W"), play("Bob", "2-0", "N"), play("Ann", "1-0", "E")]
    assert _notes_of(events, {"Bob": 6}) == [
        "Event 1: Ann led 4-4, and at event 5, having drawn nothing, played 6-6, a higher double "
        "held from the start; the highest double leads (house rule lead: highest-double)."
    ]


def test_the_sheet_says_how_each_leader_the_rules_left_open_was_chosen() -> None:
    game = load_record((DATA / "hand_highest_double_redraws.json").read_bytes())
    rows = score_sheet(game).rows
    assert str(rows[0].chosen) == "by the highest double, 4-4, after 2 redraws"
    assert rows[1].chosen is None  # Ann dominoed: the rules named her
