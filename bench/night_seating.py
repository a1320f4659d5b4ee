"""How long seating a club night's round takes, the worst round of whole nights.

Run from the repository root: ``.venv/bin/python -m bench.night_seating`` (``--rounds N``).

For each night (players, table size) it seats ``--rounds`` rounds with
``scorekeeper.rules.nights.seating.seat_round``, the standing order drawn at random in groups of
four (seed 2) as a night's results would leave it, and prints the slowest round, the repeated
opponents and partners the night ended with, and the most byes one player had. The long
nights (17 players for 20 rounds) run past the point where every opponent has been met, where
the search for the fewest repeats is bounded by ``SEARCH_BUDGET``.

Target: the worst round under 1 s (a director taps "Seat round" once a round). Figures, not a
test: it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import random
import time

from scorekeeper.rules.nights.format import TableSize
from scorekeeper.rules.nights.seating import History, Seating, seat_round

NIGHTS: tuple[tuple[int, TableSize], ...] = (
    (9, 2),
    (17, 2),
    (41, 2),
    (120, 2),
    (17, 3),
    (120, 3),
    (17, 4),
    (40, 4),
    (120, 4),
)


def night(players: int, size: TableSize, rounds: int) -> tuple[float, int, int, int]:
    """The worst round's seconds, opponents met again, partners again, most byes."""
    names = [f"P{n}" for n in range(players)]
    rng = random.Random(2)
    seatings: list[Seating] = []
    worst = 0.0
    for number in range(rounds):
        history = History.of(seatings, size)
        order = names[:]
        rng.shuffle(order)
        groups = [order[i : i + 4] for i in range(0, players, 4)]
        began = time.perf_counter()
        seatings.append(seat_round(groups, size, history, number))
        worst = max(worst, time.perf_counter() - began)
    history = History.of(seatings, size)
    again = sum(times - 1 for times in history.opponents.values() if times > 1)
    partners = sum(times - 1 for times in history.partners.values() if times > 1)
    return worst, again, partners, max(history.byes.values(), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print(
        f"{'players':>7} {'table':>5} {'worst round':>12} {'opp. again':>10} "
        f"{'partners again':>14} {'most byes':>9}"
    )
    for players, size in NIGHTS:
        worst, again, partners, byes = night(players, size, args.rounds)
        print(
            f"{players:>7} {size:>5} {worst * 1000:>9.0f} ms {again:>10} {partners:>14} {byes:>9}"
        )


if __name__ == "__main__":
    main()
