"""What a club's ratings cost: OpenSkill over many games, and the club page with them.

Run from the repository root: ``.venv/bin/python -m bench.ratings`` (``--games N`` for the
OpenSkill part, ``--club-games N`` for the page, ``--repeats N``).

- **rate**: ``rules.ratings.rate`` over ``--games`` finished games of 2 to 4 of 40 players
  (random sides, scores and winners from a fixed seed: OpenSkill's cost does not depend on how
  the game went), in ms and per game, best of 3.
- **club page**: a club on a new SQLite database with ``--club-games`` finished games imported
  in one batch (bench/club_page.py's games), its facts cached by a first view; then, as
  medians of ``--repeats`` runs, the page with the ratings computed afresh (the process's kept
  ratings emptied before each view: what the first view after a game ends costs) and with the
  ratings kept (every later view), and the query that reads when each game ended.

Figures, not a test: it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from bench.club_page import finished_records
from scorekeeper.rules.ratings import RatedGame, rate
from scorekeeper.web.data import clubs
from scorekeeper.web.data import ratings as kept_ratings
from scorekeeper.web.data.ratings import ended_at
from tests.support.server import migrated_app

PLAYERS = [f"Player {number}" for number in range(40)]


def synthetic(count: int) -> list[RatedGame]:
    """``count`` finished games of 2 to 4 of 40 players (4 as partners), an hour apart."""
    rng = random.Random(1)
    games = []
    start = datetime(2026, 1, 1, 19, 0)
    for number in range(count):
        seats = rng.choice((2, 3, 4))
        players = tuple(rng.sample(PLAYERS, seats))
        side_of = (0, 1, 0, 1) if seats == 4 else tuple(range(seats))
        sides = 2 if seats == 4 else seats
        scores = tuple(rng.randrange(0, 250, 5) for _ in range(sides))
        games.append(
            RatedGame(
                number,
                players,
                side_of,
                scores,
                rng.randrange(sides),
                start + timedelta(hours=number),
            )
        )
    return games


def timed_ms(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--club-games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()

    games = synthetic(args.games)
    best = min(timed_ms(lambda: rate(games)) for _ in range(3))
    print(f"rate {args.games} games: {best:.0f} ms, {1000 * best / args.games:.0f} us a game")

    with tempfile.TemporaryDirectory() as folder:
        app = migrated_app(
            Path(folder) / "bench.sqlite", RATELIMIT_ENABLED=False, WTF_CSRF_ENABLED=False
        )
        client = app.test_client()
        club = client.post("/clubs/new", data={"name": "Bench club"}).headers["Location"]
        records = finished_records(args.club_games)
        imported = client.post(f"{club}/import", data={"text": "\n".join(records)})
        assert imported.status_code == 303, imported.status_code
        client.get(club)  # the facts replayed and cached once
        afresh, kept, ended = [], [], []
        for _ in range(args.repeats):
            kept_ratings._kept.clear()
            afresh.append(timed_ms(lambda: client.get(club)))
            kept.append(timed_ms(lambda: client.get(club)))
            with app.test_request_context():
                rows = clubs.club_games(clubs.find_club(club.rsplit("/", 1)[1]).club)
                ended.append(timed_ms(lambda rows=rows: ended_at(rows)))
    print(f"club page, {args.club_games} games:")
    print(f"  ratings computed afresh  {statistics.median(afresh):7.1f} ms")
    print(f"  ratings kept             {statistics.median(kept):7.1f} ms")
    print(f"  when each game ended     {statistics.median(ended):7.1f} ms (the query alone)")


if __name__ == "__main__":
    main()
