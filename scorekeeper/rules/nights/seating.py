"""The seats of a round: who sits at which table, from the night so far and the round's seed.

Everything here is a function of its arguments: the players present (in standing order for a
night of twos), the seats of the rounds before, and the round's seed, which is stored with the
round. The same night seats the same way again, so a night replays (docs/nights.md).

Why not ``pairing-core``: it was read (0.4.1). It pairs chess, one round at a time, under FIDE's
rules: colours, floats and a bye rule that are not ours, and it pairs only two-player boards,
while a night of fours needs the same "not twice while it can be avoided" for partners and
opponents. The search below is one routine, :func:`_matching`, used three ways: opponents for
a night of twos, partners for a night of fours, and which partnerships meet. It finds a
matching with the fewest repeats there are (proved by trying every one, within a bound of work
a night only passes once repeats are forced anyway), and among those the first in the order
given.

The rules, in short:

- **Twos** (Swiss, adjacent pairing): players in standing order, equals in the seed's order.
  The highest-placed player meets the next highest they have not met, and so on down, with the
  fewest rematches possible (none while another pairing exists). With an odd count one player
  has a bye: the bye is one more "player" at the bottom, whom only those with the fewest byes
  may meet, so it goes to the lowest-placed of them that the pairing allows.
- **Fours** (partners drawn): a count that four does not divide seats the rest at tables of
  three (12 players: three fours; 13: a four and three threes; 5: a three and a two), so that
  everyone plays; the smaller tables go first to those who have sat at one the fewest times.
  At the fours, partners are drawn in the seed's order so that nobody partners the same player
  twice while it can be avoided, then the partnerships are matched to meet the fewest
  opponents met before.
- **Threes** (each for themselves): a count three does not divide has one or two tables of
  four (each for themselves too): 7 players a four and a three, 8 two fours. Tables are drawn
  to meet the fewest opponents met before (the best of several draws from the seed).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypeVar

from scorekeeper.rules.nights.format import TableSize

T = TypeVar("T")

SEARCH_BUDGET = 300_000
"""The most candidates one search for a matching looks at (a few tenths of a second) before
it settles for the cheapest partner left, item by item."""
DRAWS = 40
"""How many draws (from the seed) the tables of a night of threes are chosen from."""


@dataclass(frozen=True)
class Seating:
    """A round's seats: each table's players in seat order, and who has a bye.

    At a table of four in a night of fours, seats 1 and 3 are partners against seats 2 and 4.
    """

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def seated(self) -> list[str]:
        """Everyone in the round, at a table or with a bye."""
        return [name for table in self.tables for name in table] + list(self.byes)

    def to_json(self) -> dict[str, Any]:
        """As stored with the round."""
        return {"tables": [list(table) for table in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seating:
        """The seating :meth:`to_json` wrote."""
        return cls(
            tuple(tuple(str(n) for n in table) for table in data.get("tables", [])),
            tuple(str(n) for n in data.get("byes", [])),
        )


def partnered(table: Sequence[str], partners: bool) -> bool:
    """Whether ``table`` plays in partnership: a four in a night of fours."""
    return partners and len(table) == 4


def sides_of(table: Sequence[str], partners: bool) -> list[tuple[str, ...]]:
    """The sides at ``table``: two partnerships (seats 1 and 3, 2 and 4) or each player."""
    if partnered(table, partners):
        return [(table[0], table[2]), (table[1], table[3])]
    return [(name,) for name in table]


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


@dataclass
class History:
    """What the rounds before did: who met whom, who partnered whom, byes, small tables."""

    opponents: Counter[frozenset[str]] = field(default_factory=Counter)
    partners: Counter[frozenset[str]] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)
    small: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[Seating], size: TableSize) -> History:
        """The history of ``rounds`` in a night of tables of ``size``."""
        history = cls()
        for seating in rounds:
            history.add(seating, size)
        return history

    def add(self, seating: Seating, size: TableSize) -> None:
        """Count one more round."""
        self.byes.update(seating.byes)
        for table in seating.tables:
            if len(table) < size:
                self.small.update(table)
            sides = sides_of(table, size == 4)
            for side in sides:
                for a, b in combinations(side, 2):
                    self.partners[_pair(a, b)] += 1
            for one, other in combinations(sides, 2):
                for a in one:
                    for b in other:
                        self.opponents[_pair(a, b)] += 1

    def met(self, a: str, b: str) -> int:
        """How many times ``a`` and ``b`` sat on opposite sides."""
        return self.opponents[_pair(a, b)]

    def partnered(self, a: str, b: str) -> int:
        """How many times ``a`` and ``b`` were partners."""
        return self.partners[_pair(a, b)]


class _OutOfBudget(Exception):
    pass


Table = list[list["int | None"]]


def _search(count: int, cost: Table, allowed: int, budget: list[int]) -> list[int] | None:
    """The first perfect matching of items ``0 .. count - 1`` in that order whose cost
    (``cost[a][b]``) is at most ``allowed``, as a list of partners; None when there is none;
    _OutOfBudget once ``budget`` candidates have been looked at."""
    partner = [-1] * count

    def walk(left: int) -> bool:
        first = next((i for i in range(count) if partner[i] < 0), None)
        if first is None:
            return True
        partner[first] = first
        row = cost[first]
        for other in range(first + 1, count):
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            spent = row[other]
            if partner[other] >= 0 or spent is None or spent > left:
                continue
            partner[first], partner[other] = other, first
            if walk(left - spent):
                return True
            partner[other] = -1
        partner[first] = -1
        return False

    return partner if walk(allowed) else None


def _cheapest_first(order: list[int], cost: Table) -> list[tuple[int, int]]:
    """Each item of ``order`` in turn takes the cheapest partner left (the first among
    equals): the matching when the search ran out of steps."""
    left = list(order)
    pairs = []
    while left:
        first = left.pop(0)
        allowed = [o for o in left if cost[first][o] is not None]
        other = min(allowed, key=lambda o: cost[first][o] or 0)
        left.remove(other)
        pairs.append((min(first, other), max(first, other)))
    return sorted(pairs)


def _matching(items: list[T], price: Callable[[T, T], int | None]) -> tuple[list[tuple[T, T]], int]:
    """A perfect matching of ``items`` (an even count) with the least total cost (each unit a
    repeat; None: never), the first in their order among those; and that cost. Exact unless
    the search looks at more than :data:`SEARCH_BUDGET` candidates in all: then each item,
    those with the fewest possible partners first, takes the cheapest partner left."""
    count = len(items)
    cost: Table = [
        [None if a == b else price(items[a], items[b]) for b in range(count)] for a in range(count)
    ]
    budget = [SEARCH_BUDGET]
    most = count // 2 * max((c or 0 for row in cost for c in row), default=0)
    pairs: list[tuple[int, int]] | None = None
    for allowed in range(most + 1):
        try:
            partner = _search(count, cost, allowed, budget)
        except _OutOfBudget:
            break
        if partner is not None:
            pairs = [(a, partner[a]) for a in range(count) if a < partner[a]]
            break
    if pairs is None:
        order = sorted(range(count), key=lambda a: -sum(c is None for c in cost[a]))
        pairs = _cheapest_first(order, cost)
    total = sum(cost[a][b] or 0 for a, b in pairs)
    return [(items[a], items[b]) for a, b in pairs], total


def table_sizes(count: int, size: TableSize) -> tuple[list[int], int]:
    """The tables a round of ``count`` players has in a night of ``size``, and its byes."""
    if count < 2:
        return [], count
    if size == 2:
        return [2] * (count // 2), count % 2
    if count in (2, 3, 4) and count <= size + 1:
        return [count], 0
    if count == 5:
        return [3, 2], 0
    if size == 4:
        threes = (-count) % 4
        return [4] * ((count - 3 * threes) // 4) + [3] * threes, 0
    fours = {0: 0, 1: 1, 2: 2}[count % 3]
    return [4] * fours + [3] * ((count - 4 * fours) // 3), 0


def _drawn(names: Iterable[str], rng: random.Random) -> list[str]:
    """``names`` in an order drawn by ``rng`` (sorted first, so only the seed decides)."""
    order = sorted(names)
    rng.shuffle(order)
    return order


def seat_round(
    ranked: Sequence[Sequence[str]], size: TableSize, history: History, seed: int
) -> Seating:
    """The seats of a round: ``ranked`` is everyone to seat, in groups of equal standing,
    the best first (one group in the first round); ``history`` the rounds before."""
    rng = random.Random(seed)
    order = [name for group in ranked for name in _drawn(group, rng)]
    if len(set(order)) != len(order):
        raise ValueError("a player is in the round twice")
    if size == 2:
        return _swiss(order, history)
    sizes, byes = table_sizes(len(order), size)
    drawn = _drawn(order, rng)
    if byes:
        return Seating((), tuple(drawn))
    if size == 4:
        return _fours(drawn, sizes, history, rng)
    return Seating(_groups(drawn, sizes, history, rng))


BYE = ""
"""The bye, as one more "player" of the matching (no player's name is empty)."""


def _swiss(order: list[str], history: History) -> Seating:
    """Twos: adjacent pairing in standing order, the fewest rematches, a spread bye (the bye
    is the last "player": only those with the fewest byes may meet it)."""
    fewest = min(history.byes[name] for name in order)

    def met(a: str, b: str) -> int | None:
        if BYE in (a, b):
            return 0 if history.byes[a or b] == fewest else None
        return history.met(a, b)

    items = [*order, BYE] if len(order) % 2 else order
    pairs, _ = _matching(items, met)
    tables = tuple(pair for pair in pairs if BYE not in pair)
    byes = tuple(a or b for a, b in pairs if BYE in (a, b))
    return Seating(tables, byes)


def _fours(drawn: list[str], sizes: list[int], history: History, rng: random.Random) -> Seating:
    """Fours: the smaller tables to those who sat at one least, partners drawn, then the
    partnerships matched to meet the fewest opponents met before."""
    small = [n for n in sizes if n < 4]
    seats_small = sum(small)
    by_small = sorted(drawn, key=lambda name: history.small[name])
    at_small = set(by_small[:seats_small])
    fours = [name for name in drawn if name not in at_small]
    pairs, _ = _matching(fours, history.partnered)

    def meets(one: tuple[str, str], other: tuple[str, str]) -> int:
        return sum(history.met(a, b) for a in one for b in other)

    tables = [(a, c, b, d) for (a, b), (c, d) in _matching(pairs, meets)[0]]
    smaller = _groups([n for n in drawn if n in at_small], small, history, rng)
    return Seating(tuple(tables) + smaller)


def _groups(
    drawn: list[str], sizes: list[int], history: History, rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """Tables of ``sizes`` (each for themselves) meeting the fewest opponents met before: the
    best of :data:`DRAWS` greedy draws, the first draw being ``drawn`` itself."""
    best: tuple[int, tuple[tuple[str, ...], ...]] | None = None
    order = list(drawn)
    for _ in range(DRAWS):
        repeats, tables = _greedy(order, sizes, history)
        if best is None or repeats < best[0]:
            best = (repeats, tables)
        if repeats == 0:
            break
        rng.shuffle(order)
    return best[1] if best is not None else ()


def _greedy(
    order: list[str], sizes: list[int], history: History
) -> tuple[int, tuple[tuple[str, ...], ...]]:
    left = list(order)
    tables: list[tuple[str, ...]] = []
    repeats = 0
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda name: sum(history.met(name, t) for t in table))
            repeats += sum(history.met(pick, t) for t in table)
            left.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return repeats, tuple(tables)


def swap(seating: Seating, one: str, other: str) -> Seating:
    """``seating`` with the seats of ``one`` and ``other`` exchanged (a bye too)."""
    seated = seating.seated()
    if one not in seated or other not in seated or one == other:
        raise ValueError("swap two different players of the round")

    def moved(name: str) -> str:
        return other if name == one else one if name == other else name

    return Seating(
        tuple(tuple(moved(n) for n in table) for table in seating.tables),
        tuple(moved(n) for n in seating.byes),
    )
