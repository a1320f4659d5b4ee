"""Pushes, pops and forks in any order leave a game exactly as a full replay of its events.

:meth:`Game.pop` replays only the current hand from its snapshot and :meth:`Game.fork` shares
the past hands, so these tests compare every field of every hand, not only what the table
shows, with a game built from scratch from the same events.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events import Event
from scorekeeper.rules.game import Game, Hand, Setup
from scorekeeper.rules.layout import Layout
from scorekeeper.rules.options import PRESETS
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.tiles import ALL_TILES

NAMES = ("Ann", "Bob", "Cy", "Dee")


def layout_state(layout: Layout) -> tuple[object, ...]:
    """Every field of a layout, arms in their order."""
    return (
        layout.spinner_mode,
        layout.spinner_counts,
        layout.lead,
        tuple(
            (name, arm.name, arm.base, arm.from_spinner_end, tuple(arm.tiles), arm.value)
            for name, arm in layout.arms.items()
        ),
        tuple((s.tile, s.arm, s.position, s.ends, s.opened) for s in layout.spinners),
        tuple(sorted(map(str, layout.on_table))),
        layout.pips,
        layout.count(),
        tuple(layout.contributions()),
    )


def hand_state(hand: Hand) -> tuple[object, ...]:
    """Every field of a hand."""
    return (
        hand.number,
        hand.leader,
        layout_state(hand.layout),
        tuple(hand.held),
        hand.boneyard,
        hand.turn,
        tuple(hand.scores_before),
        tuple(hand.drawn),
        hand.passes,
        tuple(hand.plays),
        hand.result,
        hand.went_out,
        hand.settlement,
        tuple(sorted((str(t), seat) for t, seat in hand.played_by.items())),
    )


def state(game: Game) -> tuple[object, ...]:
    """Everything the game knows, every hand included."""
    return (
        tuple(game.events),
        tuple(hand_state(hand) for hand in game.hands),
        tuple(game.scores),
        game.winner,
        tuple(game.on_target()),
        game.phase,
        game.next_leader,
        game.drawable(),
        tuple(tuple(game.fits(t)) for t in ALL_TILES),
    )


def replayed(game: Game) -> tuple[object, ...]:
    """The state of a game built from scratch from ``game``'s events."""
    return state(Game(game.setup, game.events))


@st.composite
def simulated(draw: st.DrawFn) -> tuple[Setup, list[Event]]:
    """A whole simulated game: any preset, 2 to 4 players, up to 8 hands; some to a small
    exact target in fives, where sides meet on the target and the first there wins."""
    players = draw(st.integers(2, 4))
    preset = draw(st.sampled_from(PRESETS))
    options: dict[str, str | int] = {}
    if draw(st.booleans()):
        options = {"exact_target": "yes", "units": "fives", "target": draw(st.integers(2, 12))}
        options["settlement"] = draw(st.sampled_from(("deduct-own", "winner-collects")))
    setup = Setup.create(list(NAMES[:players]), preset, options)
    seed = draw(st.integers(0, 2**32 - 1))
    game = play_game(setup, random.Random(seed), max_hands=draw(st.integers(1, 8)))
    return setup, list(game.events)


STEPS = st.lists(
    st.tuples(st.sampled_from(("push", "pop", "rewind", "fork")), st.integers(1, 40)),
    max_size=30,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_events=simulated(), steps=STEPS)
def test_any_pushes_pops_and_forks_equal_a_full_replay(
    game_events: tuple[Setup, list[Event]], steps: list[tuple[str, int]]
) -> None:
    """After every step (pushes, pops, rewinds, forks), the game equals a replay of its events; a fork leaves its source be."""
    setup, events = game_events
    game = Game(setup)
    for action, count in steps:
        if action == "push":
            for event in events[len(game.events) : len(game.events) + count]:
                game.push(event)
        elif action == "pop":
            for _ in range(min(count, len(game.events))):
                expected = game.events[-1]
                assert game.pop() == expected
        elif action == "rewind":
            length = max(0, len(game.events) - count * 3)
            gone = game.events[length:]
            assert game.rewind(length) == gone
        else:
            source = game
            before = state(source)
            game = source.fork()
            assert state(game) == before
            for _ in range(min(count // 2, len(game.events))):
                game.pop()
            for event in events[len(game.events) : len(game.events) + count]:
                game.push(event)
            assert state(source) == before
        assert state(game) == replayed(game)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_events=simulated())
def test_popping_a_whole_game_one_event_at_a_time_passes_every_state(
    game_events: tuple[Setup, list[Event]],
) -> None:
    """Undo all the way back: each state on the way equals the replay of that many events."""
    setup, events = game_events
    game = Game(setup, events)
    for length in range(len(events) - 1, -1, -1):
        game.pop()
        assert state(game) == state(Game(setup, events[:length]))
