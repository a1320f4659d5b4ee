"""A club's standings: its finished games' facts added up player by player.

Everything here is computed from :class:`~scorekeeper.rules.stats.GameFacts`, which come
from the games' event logs; nothing is kept that could drift from them. Players are told
apart by :func:`~scorekeeper.rules.names.name_key` (case and surrounding spaces do not make
another player) and shown with the spelling the club's roster gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import TypeVar

from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import name_key
from scorekeeper.rules.stats import GameFacts


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game of the club: its players in seat order, its facts, when it began."""

    players: tuple[str, ...]
    facts: GameFacts
    when: datetime


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` as a whole percent, a half rounded up (1 of 8 is 13)."""
    return (200 * part + whole) // (2 * whole) if whole else 0


def tenths(total: int, count: int) -> float:
    """``total / count`` to one decimal place, a half rounded up; 0.0 when count is 0."""
    return (20 * total + count) // (2 * count) / 10 if count else 0.0


@dataclass
class PlayerStanding:
    """One player's row of the standings."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    best_play: int = 0
    dominoes: int = 0
    hands: int = 0
    settled: int = 0
    pips_left: int = 0
    blocked_won: int = 0
    muggins: int = 0

    @property
    def win_rate(self) -> int:
        """Games won, as a whole percent of games played."""
        return percent(self.wins, self.games)

    @property
    def points_per_hand(self) -> float:
        """Points from their own plays per hand played, to one decimal."""
        return tenths(self.points, self.hands)

    @property
    def pips_per_hand(self) -> float:
        """The pips they held at a settled hand's end, on average, to one decimal."""
        return tenths(self.pips_left, self.settled)

    def stat(self, name: str) -> int | float | str:
        """The value of column ``name`` (a ``data-stat`` name, see :data:`PLAYER_STATS`)."""
        return PLAYER_STATS[name].value(self)


@dataclass
class PairStanding:
    """Two players who played as partners, and how their side did."""

    names: tuple[str, str]
    games: int = 0
    wins: int = 0
    points: int = 0

    @property
    def win_rate(self) -> int:
        """Games won together, as a whole percent of games played together."""
        return percent(self.wins, self.games)

    def stat(self, name: str) -> int | float | str:
        """The value of column ``name`` (see :data:`PAIR_STATS`)."""
        return PAIR_STATS[name].value(self)


@dataclass(frozen=True)
class Column:
    """A column of a standings table: its ``data-stat`` name, heading, and how to read it."""

    name: str
    heading: Message
    title: Message
    value: Callable[[object], int | float | str]
    descending: bool = True


def _player_column(
    name: str, heading: Message, title: Message, read: Callable[[PlayerStanding], int | float | str]
) -> Column:
    return Column(name, heading, title, lambda row: read(_as_player(row)), name != "player")


def _as_player(row: object) -> PlayerStanding:
    assert isinstance(row, PlayerStanding)
    return row


def _as_pair(row: object) -> PairStanding:
    assert isinstance(row, PairStanding)
    return row


PLAYER_COLUMNS = (
    _player_column("player", say("Player"), say("Name"), lambda r: r.name),
    _player_column("games", say("Games"), say("Finished games played"), lambda r: r.games),
    _player_column("wins", say("Wins"), say("Games their side won"), lambda r: r.wins),
    _player_column(
        "win-rate", say("Win %"), say("Wins as a percent of games"), lambda r: r.win_rate
    ),
    _player_column(
        "points", say("Points"), say("Points scored by their own plays"), lambda r: r.points
    ),
    _player_column(
        "best-play", say("Best"), say("Their highest single play"), lambda r: r.best_play
    ),
    _player_column(
        "dominoes", say("Out"), say("Hands they went out in (dominoed)"), lambda r: r.dominoes
    ),
    _player_column("hands", say("Hands"), say("Hands played"), lambda r: r.hands),
    _player_column(
        "points-per-hand",
        say("Pts/hand"),
        say("Points from plays per hand"),
        lambda r: r.points_per_hand,
    ),
    _player_column(
        "pips-left",
        say("Pips left"),
        say("Pips held at a hand's end, on average"),
        lambda r: r.pips_per_hand,
    ),
    _player_column(
        "blocked-won",
        say("Blocks won"),
        say("Blocked hands in which they held the fewest pips"),
        lambda r: r.blocked_won,
    ),
    _player_column(
        "muggins",
        say("Muggins"),
        say("Missed counts they claimed by crying Muggins!"),
        lambda r: r.muggins,
    ),
)
PLAYER_STATS = {column.name: column for column in PLAYER_COLUMNS}

PAIR_COLUMNS = (
    Column(
        "pair",
        say("Partners"),
        say("The two partners"),
        lambda r: " & ".join(_as_pair(r).names),
        False,
    ),
    Column(
        "games", say("Games"), say("Finished games played together"), lambda r: _as_pair(r).games
    ),
    Column("wins", say("Wins"), say("Games won together"), lambda r: _as_pair(r).wins),
    Column(
        "win-rate", say("Win %"), say("Wins as a percent of games"), lambda r: _as_pair(r).win_rate
    ),
    Column(
        "points",
        say("Points"),
        say("Points scored by the pair's plays"),
        lambda r: _as_pair(r).points,
    ),
)
PAIR_STATS = {column.name: column for column in PAIR_COLUMNS}

DEFAULT_SORT = "wins"


Row = TypeVar("Row", PlayerStanding, PairStanding)


def sort_rows(rows: Iterable[Row], columns: Mapping[str, Column], by: str) -> list[Row]:
    """``rows`` ordered by column ``by`` (highest first for numbers, A to Z for names), ties
    by win rate, then wins, then name; an unknown column sorts by wins."""
    column = columns.get(by) or columns[DEFAULT_SORT]
    first = next(iter(columns.values()))
    ordered = sorted(rows, key=lambda row: str(first.value(row)).casefold())
    for tie in (columns["wins"], columns["win-rate"]):
        ordered.sort(key=tie.value, reverse=True)
    ordered.sort(key=column.value, reverse=column.descending)
    return ordered


@dataclass
class Standings:
    """Everything the club page shows about its finished games."""

    players: list[PlayerStanding]
    pairs: list[PairStanding]
    head_to_head: dict[tuple[str, str], int]
    """Wins of the first player over the second in two-player games."""
    rivals: list[str]
    """The players of two-player games, in the order the grid shows them."""
    games: int
    wins_over_time: dict[str, list[int]] = field(default_factory=dict)
    """Each player's wins so far after each of the club's finished games, oldest first."""

    def versus(self, winner: str, loser: str) -> int:
        """How many two-player games ``winner`` won against ``loser``."""
        return self.head_to_head.get((winner, loser), 0)


def standings(games: Sequence[Played], roster: Mapping[str, str] = {}) -> Standings:
    """The standings of ``games`` (finished ones; others are left out).

    ``roster`` maps :func:`name_key` to the name to show; a name not in it is shown as its
    first game spells it.
    """
    players: dict[str, PlayerStanding] = {}
    pairs: dict[tuple[str, str], PairStanding] = {}
    head: dict[tuple[str, str], int] = {}
    rivals: dict[str, None] = {}
    finished = sorted((g for g in games if g.facts.winner is not None), key=lambda g: g.when)
    over_time: dict[str, list[int]] = {}

    def shown(name: str) -> str:
        return roster.get(name_key(name), name.strip())

    for number, game in enumerate(finished):
        facts = game.facts
        names = [shown(name) for name in game.players]
        for seat, name in enumerate(names):
            seat_facts = facts.seats[seat]
            row = players.setdefault(name, PlayerStanding(name))
            row.games += 1
            won = facts.side_of[seat] == facts.winner
            row.wins += won
            row.points += seat_facts.points
            row.best_play = max(row.best_play, seat_facts.best_play)
            row.dominoes += seat_facts.dominoes
            row.hands += facts.hands
            row.settled += facts.settled
            row.pips_left += seat_facts.pips_left
            row.blocked_won += seat_facts.blocked_won
            row.muggins += seat_facts.muggins
            history = over_time.setdefault(name, [0] * number)
            history.append((history[-1] if history else 0) + won)
        for history in over_time.values():
            if len(history) < number + 1:
                history.append(history[-1] if history else 0)
        if facts.partners:
            for side in range(2):
                seats = [s for s in range(len(names)) if facts.side_of[s] == side]
                pair = (names[seats[0]], names[seats[1]])
                pair = (
                    (pair[0], pair[1]) if pair[0].casefold() <= pair[1].casefold() else pair[::-1]
                )
                together = pairs.setdefault(pair, PairStanding(pair))
                together.games += 1
                together.wins += facts.winner == side
                together.points += sum(facts.seats[s].points for s in seats)
        if len(names) == 2 and facts.winner is not None:
            for name in names:
                rivals[name] = None
            won_lost = (names[facts.winner], names[1 - facts.winner])
            head[won_lost] = head.get(won_lost, 0) + 1
    ordered_rivals = sorted(rivals, key=str.casefold)
    for a, b in combinations(ordered_rivals, 2):
        head.setdefault((a, b), 0)
        head.setdefault((b, a), 0)
    return Standings(
        players=list(players.values()),
        pairs=list(pairs.values()),
        head_to_head=head,
        rivals=ordered_rivals,
        games=len(finished),
        wins_over_time=over_time,
    )
