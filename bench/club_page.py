"""How long a club page with 500 finished games takes, against a trivial request.

Run from the repository root: ``.venv/bin/python -m bench.club_page`` (``--games N``,
``--repeats N``).

A club on a new SQLite database gets ``--games`` finished games of 2 to 4 players (simulated
with fixed seeds and imported through the club's own import, all in one batch). Through the
test client with every hook of the app it times, as medians of ``--repeats`` interleaved runs:

- **club page (cold)**: the first view after the import, when each game's facts are replayed
  from its events and cached (once);
- **club page**: every later view (standings, partnerships, head to head, chart, games list),
  reading the cached facts;
- **club page sorted**: the same, sorted by another column;
- **trivial**: a route that renders a page of the same size from a template and reads nothing.

Target: the club page under 300 ms on this machine. Figures, not a test: it exits 0 whatever
they are.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flask import render_template_string

from scorekeeper.rules import Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from tests.support.server import migrated_app

TARGET_MS = 300.0
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def finished_records(count: int) -> list[str]:
    """``count`` finished games as record lines (2 to 4 of eight players, presets varying)."""
    lines: list[str] = []
    seed = 0
    while len(lines) < count:
        rng = random.Random(seed)
        players = rng.sample(NAMES, 2 + seed % 3)
        preset = ("fives-up", "totally-fives")[seed % 2]
        partners = True if len(players) == 4 else None
        game = play_game(Setup.create(players, preset, {}, partners), rng, 40)
        seed += 1
        if game.winner is not None:
            lines.append(json.dumps(write_record(game)))
    return lines


def timer(request: Callable[[], object]) -> float:
    start = time.perf_counter()
    request()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = migrated_app(
            Path(folder) / "bench.sqlite", RATELIMIT_ENABLED=False, WTF_CSRF_ENABLED=False
        )
        filler = {"size": 0}

        @app.get("/bench/trivial")
        def trivial() -> str:
            return render_template_string(
                "<!doctype html><html><body><p>{{ 'x' * size }}</p></body></html>",
                size=filler["size"],
            )

        client = app.test_client()
        started = time.perf_counter()
        records = finished_records(args.games)
        simulated = time.perf_counter() - started
        club = client.post("/clubs/new", data={"name": "Bench club"}).headers["Location"]
        body = "\n".join(records).encode()
        started = time.perf_counter()
        imported = client.post(f"{club}/import", data={"text": body.decode()})
        import_s = time.perf_counter() - started
        assert imported.status_code == 303, imported.status_code
        cold = timer(lambda: client.get(club))
        page = client.get(club)
        filler["size"] = len(page.data)
        pages, sorted_pages, trivials = [], [], []
        for _ in range(args.repeats):
            pages.append(timer(lambda: client.get(club)))
            sorted_pages.append(timer(lambda: client.get(f"{club}?sort=points")))
            trivials.append(timer(lambda: client.get("/bench/trivial")))
        warm, sort, floor = (statistics.median(x) for x in (pages, sorted_pages, trivials))
    print(
        f"{args.games} finished games ({simulated:.1f} s to simulate, {import_s:.1f} s to import)"
    )
    print(f"club page: {len(page.data) / 1024:.0f} KB")
    print(f"{'club page (cold)':<22}{cold:9.1f} ms")
    print(f"{'club page':<22}{warm:9.1f} ms   {warm / floor:6.1f}x trivial")
    print(f"{'club page sorted':<22}{sort:9.1f} ms   {sort / floor:6.1f}x trivial")
    print(f"{'trivial':<22}{floor:9.1f} ms")
    verdict = "meets" if warm < TARGET_MS else "misses"
    print(f"target: under {TARGET_MS:.0f} ms: {verdict} it")


if __name__ == "__main__":
    main()
