"""A club's ratings: each player's skill as OpenSkill estimates it from the games they finished.

OpenSkill's Plackett-Luce model (the ``openskill`` package, with its own defaults) rates every
finished game as it ended, in the order the games ended: a side is a team (a partnership is a
team of two, any other seat a team of one), and the sides are ranked by the game's result. The
winner comes first; the other sides follow by final score, and sides on the same score share
a rank. A two-player game is thus a one-against-one, a partnership game a team against a
team, and a table of 3 to 8 a ranking. A game nobody won (unfinished, abandoned) is not rated.

Nothing here is stored: the ratings are computed again from the games' facts whenever they
are shown, so they cannot drift from the records. Players are told apart by
:func:`~scorekeeper.rules.names.name_key`, as in the standings.

A rating is shown as OpenSkill's *ordinal*, ``mu - 3 * sigma``: the skill the games so far
show (``mu``) less three times how unsure they leave it (``sigma``), a figure the player's true
skill is very likely (about 99.7 %) to be above. Everyone starts at 0 (25 less 3 times 8.33), and
each game makes the estimate surer, so the uncertainty shrinks as a player plays.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.rules.names import name_key

MODEL = PlackettLuce()
"""The model every club is rated with: OpenSkill's Plackett-Luce with its defaults (a new
player's mu 25 and sigma 25/3)."""
SURE = 3.0
"""How many sigmas the shown rating (the ordinal) takes off the skill: OpenSkill's default."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game as the ratings read it: who sat where, the sides' final scores, who won, when it
    ended. ``key`` names the game (a night passes its games' keys to :meth:`Ratings.change`)."""

    key: Hashable
    players: tuple[str, ...]
    """The players in seat order."""
    side_of: tuple[int, ...]
    """The side each seat scores for."""
    scores: tuple[int, ...]
    """Each side's final score."""
    winner: int | None
    """The winning side, or None for a game nobody won (not rated)."""
    ended: datetime


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating after some games: OpenSkill's ``mu`` and ``sigma``, and how many
    rated games it comes from."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The rating shown: the skill less three times its uncertainty."""
        return self.mu - SURE * self.sigma

    @property
    def uncertainty(self) -> float:
        """How far the skill may be from ``mu`` (three sigmas): what the ordinal takes off."""
        return SURE * self.sigma


@dataclass(frozen=True, slots=True)
class Step:
    """One rated game: its key, when it ended, and its players' ratings after it (by the
    names the ratings show)."""

    key: Hashable
    ended: datetime
    after: Mapping[str, Rating]


@dataclass(frozen=True, slots=True)
class Change:
    """What some games did to a player's rating: before the first of them, after the last."""

    name: str
    before: Rating
    after: Rating
    games: int
    """How many of those games the player played."""

    @property
    def delta(self) -> float:
        """The change of the shown rating (the ordinal)."""
        return self.after.ordinal - self.before.ordinal


@dataclass(frozen=True)
class Ratings:
    """Every player's rating now, and each rated game's step, oldest first."""

    players: Mapping[str, Rating]
    steps: Sequence[Step]

    def ranked(self) -> list[tuple[str, Rating]]:
        """The players, the highest rating first (ties by name)."""
        by_name = sorted(self.players.items(), key=lambda item: item[0].casefold())
        return sorted(by_name, key=lambda item: item[1].ordinal, reverse=True)

    def history(self, name: str) -> list[float]:
        """``name``'s shown rating before any game, then after each rated game of the club
        (unchanged by the games they did not play)."""
        now = Rating().ordinal
        values = [now]
        for step in self.steps:
            rating = step.after.get(name)
            if rating is not None:
                now = rating.ordinal
            values.append(now)
        return values

    def days(self) -> list[date]:
        """The days (of the games' end times) on which rated games ended, the latest first."""
        return sorted({step.ended.date() for step in self.steps}, reverse=True)

    def ended_on(self, day: date) -> set[Hashable]:
        """The keys of the rated games that ended on ``day``."""
        return {step.key for step in self.steps if step.ended.date() == day}

    def change(self, keys: Collection[Hashable]) -> list[Change]:
        """What the games ``keys`` (a night's, an evening's) did to their players' ratings:
        each player's rating before their first of them and after their last, the biggest
        rise first. Keys of games that were not rated are left out."""
        before: dict[str, Rating] = {}
        first: dict[str, Rating] = {}
        last: dict[str, Rating] = {}
        played: dict[str, int] = {}
        for step in self.steps:
            chosen = step.key in keys
            for name, rating in step.after.items():
                if chosen:
                    first.setdefault(name, before.get(name, Rating()))
                    last[name] = rating
                    played[name] = played.get(name, 0) + 1
                before[name] = rating
        changes = [Change(name, first[name], last[name], played[name]) for name in first]
        changes.sort(key=lambda change: change.name.casefold())
        changes.sort(key=lambda change: change.delta, reverse=True)
        return changes


def ranks(game: RatedGame) -> list[int]:
    """Each side's place, 0 first: the winner, then the others by final score, a tie sharing
    a place."""
    assert game.winner is not None
    order = [(side != game.winner, -score) for side, score in enumerate(game.scores)]
    places = sorted(set(order))
    return [places.index(key) for key in order]


def teams(game: RatedGame) -> list[list[int]]:
    """Each side's seats, side by side."""
    return [
        [seat for seat, side in enumerate(game.side_of) if side == team]
        for team in range(len(game.scores))
    ]


def rate(games: Iterable[RatedGame], roster: Mapping[str, str] = {}) -> Ratings:
    """The ratings the finished ``games`` make, each rated in the order the games ended (games
    that ended at the same moment in the order given). ``roster`` maps a :func:`name_key` to
    the name shown; a name not in it is shown as it is first spelled."""
    finished = sorted(
        (game for game in games if game.winner is not None), key=lambda game: game.ended
    )
    shown: dict[str, str] = {}
    current: dict[str, Rating] = {}
    steps: list[Step] = []
    for game in finished:
        names = []
        for player in game.players:
            key = name_key(player)
            names.append(shown.setdefault(key, roster.get(key, player.strip())))
        sides = teams(game)
        now = [[current.get(names[seat], Rating()) for seat in side] for side in sides]
        model_teams = [[MODEL.rating(r.mu, r.sigma) for r in side] for side in now]
        rated: list[list[PlackettLuceRating]] = MODEL.rate(
            model_teams, ranks=[float(place) for place in ranks(game)]
        )
        after: dict[str, Rating] = {}
        for side, side_rated, side_now in zip(sides, rated, now, strict=True):
            for seat, new, old in zip(side, side_rated, side_now, strict=True):
                after[names[seat]] = Rating(new.mu, new.sigma, old.games + 1)
        current.update(after)
        steps.append(Step(game.key, game.ended, after))
    return Ratings(current, steps)
