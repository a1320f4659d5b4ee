"""A night's standings, added up from its tables' games (docs/nights.md).

Nothing here is stored: every figure comes from the facts of the games played at the tables
(:class:`~scorekeeper.rules.stats.GameFacts`, computed from their event logs), so the standings
cannot drift from the games. The rules:

- A table's **match** is its first game, or with the best 2 of 3 that game and its rematches
  until a side has won two (or three were played; the most games won then, the most points
  in them after that). A match the director ended is decided as it stood: the most games won,
  then the higher score in the game being played, then the most points in the match.
- A game that ends after the round's time was called (docs/rules.md 8f) ends its match too:
  the most games won, then the most points in the match.
- **Match points**: a match won is 2 for each player of the winning side, a match the director
  ended level is 1 for each player of the sides level at the top, a bye is 2; a match lost is 0.
- **Points for** are the side's scores in the table's finished games (and in the game the
  director ended, as it stood); **points against** the best score of another side in each of
  those games. Counted as each game ends, before the match is over.
- **Tie-breaks**, in the order the director chose: points for minus points against
  (``difference``), points for (``total``), and the match points won in matches between the
  players still level (``head-to-head``). Players level on everything share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from scorekeeper.rules.names import name_key
from scorekeeper.rules.nights.format import NightFormat, TieBreak
from scorekeeper.rules.nights.seating import sides_of
from scorekeeper.rules.stats import GameFacts

WIN = 2
DRAW = 1
BYE = 2


@dataclass(frozen=True)
class TableGames:
    """One table of one round: its seats, the facts of its games (the first and its
    rematches, in order; the last may be unfinished), and whether the director ended it."""

    round: int
    seats: tuple[str, ...]
    games: tuple[GameFacts, ...]
    ended: bool = False


@dataclass(frozen=True)
class MatchResult:
    """What a table's match amounts to: over or not, and each side's match points and
    points for and against (seat by seat, as the table's sides are)."""

    over: bool
    match_points: tuple[int, ...]
    points_for: tuple[int, ...]
    points_against: tuple[int, ...]
    games_won: tuple[int, ...]


def match_result(table: TableGames, night: NightFormat) -> MatchResult:
    """The match at ``table`` as its games stand."""
    count = len(sides_of(table.seats, night.partners))
    finished = [facts for facts in table.games if facts.winner is not None]
    current = table.games[-1] if table.games and table.games[-1].winner is None else None
    # The game in play when the director ended the table counts as it stands.
    stopped = current if table.ended else None
    won = [0] * count
    for facts in finished:
        won[facts.winner] += 1  # type: ignore[index]
    counted = finished if stopped is None else [*finished, stopped]
    points_for, against = _points(counted, count)
    needed = (night.games_per_match + 1) // 2
    # A game finished after the round's time was called is the match's last (docs/rules.md
    # 8f): it is decided as it stands, by games won and then the points in them.
    timed = any(facts.time_called for facts in finished)
    over = (
        table.ended
        or timed
        or max(won, default=0) >= needed
        or len(finished) >= night.games_per_match
    )
    points = [0] * count
    if over:
        standing = [0] * count if stopped is None else stopped.scores
        points = _decided([(won[s], standing[s], points_for[s]) for s in range(count)])
    return MatchResult(over, tuple(points), tuple(points_for), tuple(against), tuple(won))


def _points(counted: Iterable[GameFacts], count: int) -> tuple[list[int], list[int]]:
    """Each side's points for, and against (the best other side's score), over ``counted``."""
    points_for = [0] * count
    against = [0] * count
    for facts in counted:
        for side in range(count):
            points_for[side] += facts.scores[side]
            against[side] += max(s for other, s in enumerate(facts.scores) if other != side)
    return points_for, against


def _decided(keys: list[tuple[int, int, int]]) -> list[int]:
    """The match points of a match that is over, each side ranked by ``keys``: a win for
    the one side on top, a draw for each side level on top."""
    top = max(keys)
    leaders = [side for side, key in enumerate(keys) if key == top]
    return [
        (WIN if len(leaders) == 1 else DRAW) if side in leaders else 0 for side in range(len(keys))
    ]


@dataclass
class NightStanding:
    """One player's line of the night's standings."""

    name: str
    place: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    head_to_head: int = 0
    opponents: dict[str, int] = field(default_factory=dict)
    """Match points won in matches against each opponent (by name key)."""

    @property
    def difference(self) -> int:
        """Points for minus points against."""
        return self.points_for - self.points_against

    @property
    def total(self) -> int:
        """Points for."""
        return self.points_for


def _key(name: str) -> str:
    return name_key(name)


def night_standings(
    players: Iterable[str],
    tables: Iterable[TableGames],
    byes: Iterable[tuple[int, str]],
    night: NightFormat,
    after_round: int | None = None,
) -> list[list[NightStanding]]:
    """The standings: groups of players level on everything, best first (each player in
    one group; a group of one has a place of its own). ``after_round`` counts only the
    rounds up to it."""
    lines = {_key(name): NightStanding(name) for name in players}

    def line(name: str) -> NightStanding:
        return lines.setdefault(_key(name), NightStanding(name))

    for number, name in byes:
        if after_round is None or number <= after_round:
            entry = line(name)
            entry.byes += 1
            entry.match_points += BYE
    for table in tables:
        if after_round is not None and table.round > after_round:
            continue
        _add_table(table, night, line)
    groups = _ranked(list(lines.values()), night.tie_breaks)
    place = 1
    for group in groups:
        for entry in group:
            entry.place = place
        place += len(group)
    return groups


def _add_table(table: TableGames, night: NightFormat, line: Callable[[str], NightStanding]) -> None:
    result = match_result(table, night)
    sides = sides_of(table.seats, night.partners)
    for index, side in enumerate(sides):
        for name in side:
            entry = line(name)
            entry.points_for += result.points_for[index]
            entry.points_against += result.points_against[index]
            if not result.over:
                continue
            entry.played += 1
            entry.match_points += result.match_points[index]
            best = max(result.match_points)
            if result.match_points[index] == WIN:
                entry.won += 1
            elif result.match_points[index] == DRAW and best == DRAW:
                entry.drawn += 1
            else:
                entry.lost += 1
            for other_index, other in enumerate(sides):
                if other_index == index:
                    continue
                for rival in other:
                    key = _key(rival)
                    entry.opponents[key] = entry.opponents.get(key, 0) + result.match_points[index]


def _ranked(
    entries: list[NightStanding], tie_breaks: Sequence[TieBreak]
) -> list[list[NightStanding]]:
    groups = [sorted(entries, key=lambda e: e.name.casefold())]
    criteria: list[str] = ["match_points", *tie_breaks]
    for criterion in criteria:
        refined: list[list[NightStanding]] = []
        for group in groups:
            refined.extend(_split(group, criterion))
        groups = refined
    return groups


def _split(group: list[NightStanding], criterion: str) -> list[list[NightStanding]]:
    if len(group) < 2:
        return [group]
    if criterion == "head-to-head":
        keys = {_key(e.name) for e in group}
        for entry in group:
            entry.head_to_head = sum(v for k, v in entry.opponents.items() if k in keys)
        value: Callable[[NightStanding], int] = lambda e: e.head_to_head  # noqa: E731
    elif criterion == "difference":
        value = lambda e: e.difference  # noqa: E731
    elif criterion == "total":
        value = lambda e: e.total  # noqa: E731
    else:
        value = lambda e: e.match_points  # noqa: E731
    by_value: dict[int, list[NightStanding]] = {}
    for entry in group:
        by_value.setdefault(value(entry), []).append(entry)
    return [by_value[v] for v in sorted(by_value, reverse=True)]


def flat(groups: Sequence[Sequence[NightStanding]]) -> list[NightStanding]:
    """The standings' lines in order."""
    return [entry for group in groups for entry in group]
