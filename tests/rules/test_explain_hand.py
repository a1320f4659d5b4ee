"""Why, one hand at a time: :func:`explain_hand` gives exactly the hand's slice of
:func:`explain_all`, for the cost of that hand, and leaves the game it explains untouched."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules import PRESETS, Game, NewHand, Play, Setup
from scorekeeper.rules.explain import explain_all, explain_hand, hand_spans
from scorekeeper.rules.simulate import play_game
from tests.rules.helpers import english
from tests.support.referee import event_position

TABLES = [
    (["Ann", "Bob"], "all-fives", {}),
    (["Ann", "Bob", "Cy"], "fives-up", {}),
    (["Ann", "Bob", "Cy", "Dee"], "totally-fives", {"spinners": "all", "boneyard_reserve": 2}),
    (["Ann", "Bob", "Cy", "Dee"], "all-fives", {"win_check": "immediate", "target": 100}),
    (["Ann", "Bob"], "fives-up", {"settlement": "winner-collects", "bonus_in_fives": "yes"}),
]


def simulated(table: int, seed: int) -> Game:
    """A whole simulated game at one of :data:`TABLES`."""
    players, preset, options = TABLES[table]
    assert preset in PRESETS
    return play_game(Setup.create(players, preset, options), random.Random(seed))


@pytest.mark.parametrize("table", range(len(TABLES)))
@pytest.mark.parametrize("seed", range(3))
def test_each_hand_explained_alone_is_that_hand_of_the_whole_log(table: int, seed: int) -> None:
    game = simulated(table, seed)
    whole = explain_all(game)
    assert len(game.hands) >= 2, "a game of one hand would not test the snapshots"
    by_hand = [explain_hand(game, number) for number in range(1, len(game.hands) + 1)]
    for number, explained in enumerate(by_hand, start=1):
        assert explained == [e for e in whole if e.hand == number]
    assert [e for hand in by_hand for e in hand] == whole


@pytest.mark.parametrize("seed", range(3))
def test_a_hand_still_in_play_is_explained_as_far_as_it_has_gone(seed: int) -> None:
    full = simulated(0, seed)
    spans = hand_spans(full)
    last = spans[-1]
    for cut in (spans[1].start + 1, spans[1].stop - 1, last.start + 3, len(full.events) - 1):
        game = Game(full.setup, full.events[:cut])
        whole = explain_all(game)
        current = len(game.hands)
        assert explain_hand(game, current) == [e for e in whole if e.hand == current]
        assert explain_hand(game, 1) == [e for e in whole if e.hand == 1]


def test_the_game_that_won_at_once_explains_its_unsettled_last_hand() -> None:
    game = simulated(3, 0)
    assert game.winner is not None and game.hands[-1].result == "won"
    last = explain_hand(game, len(game.hands))
    assert last[-1].winner == game.winner and last[-1].kind == "play"
    assert "wins at once" in " ".join(english(last[-1].lines))


def test_explaining_a_hand_leaves_the_game_as_it_was() -> None:
    game = simulated(2, 1)
    events, hands, scores, winner = list(game.events), list(game.hands), game.scores, game.winner
    current = game.hands[-1]
    layout_ends = [(end.name, end.shows) for end in current.layout.ends()]
    for number in (1, len(game.hands) // 2, len(game.hands)):
        explain_hand(game, number)
    assert game.events == events and game.hands == hands
    assert all(a is b for a, b in zip(game.hands, hands, strict=True))
    assert game.scores == scores and game.winner == winner
    assert [(end.name, end.shows) for end in game.hands[-1].layout.ends()] == layout_ends


def test_a_hand_costs_its_own_events_not_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    game = play_game(setup, random.Random(7), max_hands=25)
    assert len(game.hands) == 25
    pushed: list[object] = []
    push = Game.push

    def counting(self: Game, event: object) -> None:
        pushed.append(event)
        push(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "push", counting)
    for number in (1, 13, 25):
        pushed.clear()
        span = hand_spans(game)[number - 1]
        explain_hand(game, number)
        assert pushed == game.events[span.start : span.stop]


def test_hand_spans_cover_every_event_once_each_from_its_new_hand() -> None:
    game = simulated(1, 2)
    spans = hand_spans(game)
    assert len(spans) == len(game.hands)
    assert [i for span in spans for i in span] == list(range(len(game.events)))
    for number, span in enumerate(spans, start=1):
        assert isinstance(game.events[span.start], NewHand)
        assert all(event_position(game, i)[0] == number for i in span)
    assert hand_spans(Game(game.setup)) == []


def test_the_hand_starts_the_engine_keeps_follow_pops_rewinds_and_forks() -> None:
    game = simulated(0, 1)

    def searched(g: Game) -> tuple[int, ...]:
        return tuple(i for i, event in enumerate(g.events) if isinstance(event, NewHand))

    assert game.hand_starts == searched(game) and len(game.hand_starts) == len(game.hands)
    second = hand_spans(game)[1]
    other = game.fork()
    other.rewind(second.start + 1)  # hand 2's new hand alone is left of it
    assert other.hand_starts == searched(other) == game.hand_starts[:2]
    other.pop()  # and now not even that
    assert other.hand_starts == searched(other) == game.hand_starts[:1]
    for event in game.events[second.start : second.stop]:
        other.push(event)
    assert other.hand_starts == game.hand_starts[:2]
    assert game.hand_starts == searched(game)


def test_a_hand_that_is_not_in_the_game_is_an_index_error() -> None:
    game = simulated(0, 0)
    for number in (0, -1, len(game.hands) + 1):
        with pytest.raises(IndexError, match=f"no hand {number}"):
            explain_hand(game, number)
    with pytest.raises(IndexError):
        explain_hand(Game(game.setup), 1)
    lead_only = Game(game.setup, game.events[:2])
    assert isinstance(lead_only.events[1], Play)
    assert [e.kind for e in explain_hand(lead_only, 1)] == ["new-hand", "play"]
