"""How fast the rules engine replays games: records from JSON text, events pushed, one game.

Run from the repository root: ``.venv/bin/python -m bench.replay_speed`` (``--profile`` to see
the engine's hot spots even when the target is met, ``--games N`` for a different batch).
Every game comes from the simulated table with a fixed seed, so runs are comparable.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper.rules.events import Event
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.options import PRESETS
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.simulate import play_game

TARGET_MS = 5.0
"""One complete 2-player All Fives game to 250 must replay from its record in under this."""

NAMES = ("Ann", "Bob", "Cy", "Dee")


@dataclass(frozen=True)
class Simulated:
    """One game of the batch: its setup, its events, its record as JSON text."""

    setup: Setup
    events: tuple[Event, ...]
    text: str


def batch_setup(seed: int) -> Setup:
    """The table for game ``seed`` of the batch: every preset with 2, 3 and 4 players in turn."""
    players = 2 + seed % 3
    preset = PRESETS[(seed // 3) % len(PRESETS)]
    return Setup.create(list(NAMES[:players]), preset)


def simulate(setup: Setup, seed: int) -> Simulated:
    """Play one game at the simulated table and write its record."""
    game = play_game(setup, random.Random(seed))
    return Simulated(setup, tuple(game.events), json.dumps(write_record(game)))


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of ``runs`` timings of ``work``, in seconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def replay_texts(games: list[Simulated]) -> None:
    """Read every record from its JSON text (parse, check, apply: what replay does)."""
    for game in games:
        load_record(game.text)


def push_events(games: list[Simulated]) -> None:
    """Push every game's already parsed events through a fresh Game."""
    for game in games:
        Game(game.setup, game.events)


def median_ms(repeats: int, work: Callable[[], object]) -> float:
    """The median of ``repeats`` timings of ``work``, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def typical_two_player_game() -> Simulated:
    """The 2-player All Fives game to 250 of median length among 41 fixed seeds."""
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    games = [simulate(setup, 10_000 + seed) for seed in range(41)]
    games.sort(key=lambda g: len(g.events))
    return games[len(games) // 2]


def peak_memory_mb(games: list[Simulated]) -> float:
    """Peak memory traced while the whole batch is read from JSON and kept in memory."""
    gc.collect()
    tracemalloc.start()
    kept = [load_record(game.text) for game in games]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return peak / 1e6


def profile(game: Simulated, repeats: int = 200) -> str:
    """The engine's hot spots while replaying ``game`` from its record."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        load_record(game.text)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main() -> None:
    """Simulate the batch, time the replays, report against the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games in the batch")
    parser.add_argument("--repeats", type=int, default=301, help="timings of the one game")
    parser.add_argument("--profile", action="store_true", help="always print the hot spots")
    args = parser.parse_args()

    start = time.perf_counter()
    games = [simulate(batch_setup(seed), seed) for seed in range(args.games)]
    simulated = time.perf_counter() - start
    events = sum(len(g.events) for g in games)
    hands = sum(json.loads(g.text)["hands"].__len__() for g in games)
    size = sum(len(g.text.encode()) for g in games)
    print(f"batch: {len(games)} games, {hands} hands, {events} events, {size / 1e6:.1f} MB JSON")
    print(f"  simulated in {simulated:.1f} s")

    from_text = best_of(3, lambda: replay_texts(games))
    pushed = best_of(3, lambda: push_events(games))
    print(f"replay from JSON text (load_record): {events / from_text:,.0f} events/s ", end="")
    print(f"({from_text * 1000 / len(games):.2f} ms per game)")
    print(f"push parsed events through Game:     {events / pushed:,.0f} events/s ", end="")
    print(f"({pushed * 1000 / len(games):.2f} ms per game)")
    print(f"peak memory, whole batch read and kept: {peak_memory_mb(games):.1f} MB (tracemalloc)")

    one = typical_two_player_game()
    hands_one = len(json.loads(one.text)["hands"])
    load_ms = median_ms(args.repeats, lambda: load_record(one.text))
    push_ms = median_ms(args.repeats, lambda: Game(one.setup, one.events))
    print(
        f"one 2-player all-fives game to 250 ({hands_one} hands, {len(one.events)} events), "
        f"median of {args.repeats}:"
    )
    print(f"  from its JSON record: {load_ms:.2f} ms; events pushed: {push_ms:.2f} ms")
    met = load_ms < TARGET_MS
    print(f"target: one complete game under {TARGET_MS:.0f} ms -> {'met' if met else 'MISSED'}")
    if args.profile or not met:
        print("\nhot spots (cProfile, by own time) replaying that game 200 times:")
        print(profile(one))


if __name__ == "__main__":
    main()
