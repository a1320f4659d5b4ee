"""What a play costs the referee with a double-twelve set and 8 players, against a double-six
set and 4 players, at the same point of a hand.

Run from the repository root: ``.venv/bin/python -m bench.larger_sets`` (about 30 s;
``--positions N``, ``--repeats N``, ``--runs N``). Target (issue 24): a play in a
double-twelve game of 8 players costs no more than 1.5x a double-six play.

What is timed is the engine's part of an entry, as the site does it per request
(``scorekeeper/web/data/games.py``): the cached game is forked (:meth:`Game.fork` copies the
current hand) and the play is pushed onto the fork (:meth:`Game.push`: every check, then the
layout, the count and the score). The push alone, an undo (fork, then :meth:`Game.pop`,
which replays the current hand) and the tray's question (:meth:`Game.fits` for every tile of
the set: 28 or 91 tiles, what a page asks for its tile buttons) are timed too, for what they
tell; only "fork + push" is held to the target.

The positions: simulated games (``scorekeeper.rules.simulate``, fixed seeds, All Fives with
its defaults), each cut in hand 1 just before the first play that follows the hand's 10th,
so the next event is a play and the layout holds 10 tiles in both arms; ``--positions`` of
them per arm. Each measure is the CPU time of this process (``time.process_time``) for
``--repeats`` repetitions of the operation on one position, divided by them: a median over
the positions gives an arm's figure. The two arms take turns position by position, so a burst
of other work on the machine slows both alike; ``--runs`` runs, the median and the spread of
their ratios printed.

Figures, not a test: it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper.rules import Game, Play, Setup
from scorekeeper.rules.simulate import play_game

TARGET = 1.5
AFTER_PLAYS = 10
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True)
class Arm:
    """One side of the comparison: a set and a number of players."""

    label: str
    players: int
    set_name: str

    def setup(self) -> Setup:
        """All Fives with this set and these players (no partners: a side a player)."""
        return Setup.create(list(NAMES[: self.players]), "all-fives", {"set": self.set_name}, False)


BASELINE = Arm("double-six, 4 players", 4, "double-six")
LARGER = Arm("double-twelve, 8 players", 8, "double-twelve")


@dataclass(frozen=True)
class Position:
    """A game cut in hand 1 after its 10th play, and the play that comes next."""

    game: Game
    play: Play


def positions(arm: Arm, count: int) -> list[Position]:
    """``count`` positions of ``arm``, from simulated games with seeds 0, 1, 2, ..."""
    found: list[Position] = []
    setup = arm.setup()
    seed = 0
    while len(found) < count:
        whole = play_game(setup, random.Random(seed), max_hands=1)
        seed += 1
        game = Game(setup)
        for event in whole.events:
            hand = game.hand
            if isinstance(event, Play) and hand is not None and len(hand.plays) >= AFTER_PLAYS:
                found.append(Position(game, event))
                break
            game.push(event)
    return found


def fork_and_push(position: Position) -> None:
    """An entry, as the site makes it: a fork of the cached game, the play pushed onto it."""
    position.game.fork().push(position.play)


def undo(position: Position) -> None:
    """An undo, as the site makes it: a fork, its last event popped (the hand replayed)."""
    position.game.fork().pop()


def tray(position: Position) -> None:
    """Which ends every tile of the set fits: what a page asks for its tray."""
    game = position.game
    for tile in game.rules.tile_set.tiles:
        game.fits(tile)


def cpu_per_call(operation: Callable[[Position], None], position: Position, repeats: int) -> float:
    """The CPU time of one ``operation`` on ``position``, in microseconds."""
    start = time.process_time()
    for _ in range(repeats):
        operation(position)
    return (time.process_time() - start) / repeats * 1e6


def push_only(positions_: list[Position], repeats: int) -> list[float]:
    """The push alone, each onto a fork made outside the timing: µs per push, per position."""
    figures = []
    for position in positions_:
        forks = [position.game.fork() for _ in range(repeats)]
        start = time.process_time()
        for fork in forks:
            fork.push(position.play)
        figures.append((time.process_time() - start) / repeats * 1e6)
    return figures


MEASURES: dict[str, Callable[[Position], None]] = {
    "fork + push (an entry)": fork_and_push,
    "fork + pop (an undo)": undo,
    "fits for every tile (the tray)": tray,
}


def run(pairs: list[tuple[Position, Position]], repeats: int) -> dict[str, tuple[float, float]]:
    """Each measure's median (µs) over the positions, for the baseline and the larger arm,
    the arms taking turns position by position."""
    results: dict[str, tuple[float, float]] = {}
    for name, operation in MEASURES.items():
        base, large = [], []
        for small, big in pairs:
            base.append(cpu_per_call(operation, small, repeats))
            large.append(cpu_per_call(operation, big, repeats))
        results[name] = (statistics.median(base), statistics.median(large))
    base_push, large_push = [], []
    for small, big in pairs:
        base_push += push_only([small], repeats)
        large_push += push_only([big], repeats)
    results["push alone"] = (statistics.median(base_push), statistics.median(large_push))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=150)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    began = time.perf_counter()
    pairs = list(
        zip(positions(BASELINE, args.positions), positions(LARGER, args.positions), strict=True)
    )
    events = [(len(a.game.events), len(b.game.events)) for a, b in pairs]
    print(
        f"{len(pairs)} positions per arm, hand 1 after {AFTER_PLAYS} plays (events before the "
        f"play: {statistics.median(e[0] for e in events):.0f} and "
        f"{statistics.median(e[1] for e in events):.0f} at the median); {args.repeats} "
        f"repetitions each; CPU of this process, µs per operation, medians over the positions."
    )
    ratios: dict[str, list[float]] = {}
    for number in range(1, args.runs + 1):
        results = run(pairs, args.repeats)
        print(f"run {number}:")
        for name, (base, large) in results.items():
            ratio = large / base
            ratios.setdefault(name, []).append(ratio)
            print(
                f"  {name:<32} {BASELINE.label} {base:8.1f}   {LARGER.label} {large:8.1f}"
                f"   {ratio:.2f}x"
            )
    print("Ratios over the runs (median, spread):")
    for name, found in ratios.items():
        print(f"  {name:<32} {statistics.median(found):.2f}x ({min(found):.2f}-{max(found):.2f})")
    entry = statistics.median(ratios["fork + push (an entry)"])
    verdict = "met" if entry <= TARGET else "MISSED"
    print(
        f"Target: a play with {LARGER.label} at most {TARGET}x one with {BASELINE.label}: "
        f"{entry:.2f}x, {verdict}. {time.perf_counter() - began:.0f} s; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
