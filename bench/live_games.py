"""Many live tables in one worker: what each kept game takes in memory, and whether a changed
view costs more when the worker keeps 1,000 games than when it keeps 10.

Run from the repository root: ``.venv/bin/python -m bench.live_games`` (``--games N``,
``--changes N``, ``--runs N``).

Every worker process keeps the games it serves replayed (``scorekeeper/web/data/replayed.py``,
as many as the setting ``LIVE_GAMES``). The bench stores ``--games`` games cut from long
simulated 2-player games at points spread over their length (hand 1 to the end), as the live
tables of a club server are, with ``LIVE_GAMES`` above that number:

- **memory**: ``tracemalloc`` around opening every game once (which replays and keeps it),
  the kept games' events counted; per game and per event;
- **a changed view with 10 or with N live games**: the worker first opens 10 games or all N
  (each kept), then a game of its own is entered event by event from its start while a
  watcher polls its watch link after every change (the new table, rendered). The CPU time of
  this process for each such poll; the median over ``--changes``. Each arm runs in a process
  of its own (a fresh heap), the arms taking turns, ``--runs`` times. The target (issue 20):
  with 1,000 games at most 1.2x the cost with 10.

Figures, not a test: it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from flask import Flask

from bench.calibration import calibrate_in_process
from scorekeeper.rules import Event, Setup
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import games, replayed
from tests.support.server import migrated_app

TARGET = 1.2
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br, zstd"}


def long_games(count: int) -> list[tuple[Setup, list[Event]]]:
    """``count`` simulated 2-player All Fives games to 250, each cut at a point of its own."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {})
    rng = random.Random(7)
    found = []
    for seed in range(count):
        events = list(play_game(setup, random.Random(seed)).events)
        found.append((setup, events[: rng.randint(2, len(events))]))
    return found


def make_app(folder: Path, live: int) -> Flask:
    """The app on a migrated SQLite file in ``folder``, keeping ``live`` games and a few more."""
    return migrated_app(folder / "bench.sqlite", RATELIMIT_ENABLED=False, LIVE_GAMES=live + 10)


def store(app: Flask, cut: list[tuple[Setup, list[Event]]]) -> list[str]:
    """Store the games; their edit keys."""
    with app.app_context():
        return [games.create(setup, events).row.edit_key for setup, events in cut]


def arm(live: int, changes: int) -> float:
    """In this process: the median CPU (ms) of a changed view with ``live`` games kept."""
    folder = Path(tempfile.mkdtemp())
    app = make_app(folder, live)
    keys = store(app, long_games(live))
    setup = Setup.create(["Ann", "Bob"], "all-fives", {})
    events = list(play_game(setup, random.Random(999)).events)
    with app.app_context():
        for key in keys:
            games.load(key)  # kept, as a table's first request keeps it
        row = games.create(setup, events[:1]).row
        edit, watch = row.edit_key, f"/watch/{row.watch_key}/live"
    assert len(replayed.games) >= live, len(replayed.games)
    phone = app.test_client()
    etag = phone.get(watch, headers=HTMX).headers["ETag"]
    entered, costs = 1, []
    while len(costs) < changes and entered < len(events):
        with app.app_context():
            loaded = games.load(edit)
            entered = len(games.append(edit, loaded.version, [events[entered]], loaded).game.events)
        start = time.process_time()
        answer = phone.get(watch, headers=dict(HTMX, **{"If-None-Match": etag}))
        answer.get_data()
        costs.append((time.process_time() - start) * 1000)
        assert answer.status_code == 200, answer.status_code
        etag = answer.headers["ETag"]
    return statistics.median(costs)


def memory(count: int) -> tuple[int, int, float]:
    """Games kept, their events, and the bytes the kept games take (tracemalloc)."""
    folder = Path(tempfile.mkdtemp())
    app = make_app(folder, count)
    keys = store(app, long_games(count))
    replayed.games.clear()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    events = 0
    with app.app_context():
        for key in keys:
            events += len(games.load(key).game.events)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return len(keys), events, used


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=150)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--arm", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.arm is not None:
        print(json.dumps(arm(args.arm, args.changes)))
        return 0
    calibrated = calibrate_in_process(make_app(Path(tempfile.mkdtemp()), 10))
    print(calibrated.line("in this process, through the test client"))
    kept, events, used = memory(min(args.games, 300))
    print(
        f"Memory: {kept} games kept, {events} events: {used / 1e6:.1f} MB, "
        f"{used / kept / 1e3:.0f} KB a game, {used / events:.0f} bytes an event"
    )
    print(f"A changed view (a watcher's poll after each change), median of {args.changes}:")
    ratios = []
    for run in range(1, args.runs + 1):
        figures = {}
        for live in (10, args.games):
            command = [sys.executable, "-m", "bench.live_games", "--arm", str(live)]
            command += ["--changes", str(args.changes)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            figures[live] = json.loads(out.strip().splitlines()[-1])
        ratio = figures[args.games] / figures[10]
        ratios.append(ratio)
        print(
            f"  run {run}: 10 games kept {figures[10]:.2f} ms, {args.games} games kept "
            f"{figures[args.games]:.2f} ms ({figures[args.games] / calibrated.floor_ms:.2f}"
            f" floors): {ratio:.2f}x"
        )
    median = statistics.median(ratios)
    verdict = "met" if median <= TARGET else "MISSED"
    print(
        f"Target: with {args.games} games at most {TARGET}x with 10: median {median:.2f}x "
        f"(spread {max(ratios) - min(ratios):.2f}), {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
