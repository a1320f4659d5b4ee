"""What each player did in one game: the facts a club's standings add up.

The facts are derived from a replayed :class:`~scorekeeper.rules.game.Game`, never entered:
the event log stays the only truth, and these can always be computed again from it. They
name seats, not players, so renaming a player changes nothing here.

Points are counted in points even in a game kept in fives (house rule ``units``): a play
whose count of 15 scored 3 in fives counts 15, so games in fives and in points add up
together in a club's standings. Points from plays are what each seat actually scored with
them (house rule ``muggins``): a count called short scored nothing for its player, and the
opponent who claimed it scored it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from scorekeeper.rules.game import Game, Hand

FACTS_FORMAT = 2
"""Changes whenever what :class:`GameFacts` holds or means changes, so stored copies of an
older shape are computed again instead of read. A field added with a default that every
older game has (``muggins``: no game could claim before house rule muggins existed) does not
change it: older copies read with the default."""


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat's part in a game."""

    points: int = 0
    """Points its own plays scored (in points, whatever the game's units)."""
    best_play: int = 0
    """Its highest single play, in points."""
    plays: int = 0
    """Tiles it played."""
    dominoes: int = 0
    """Hands it went out in."""
    pips_left: int = 0
    """The pips it still held at the ends of the settled hands, added up (0 when it went
    out)."""
    blocked_won: int = 0
    """Blocked hands in which it held the fewest pips (alone, or sharing a split)."""
    muggins: int = 0
    """Missed counts it claimed ("Muggins!", house rule ``muggins``); their points are in
    ``points``."""


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a finished (or unfinished) game amounts to, seat by seat."""

    seats: tuple[SeatFacts, ...]
    side_of: tuple[int, ...]
    """The side each seat scores for."""
    partners: bool
    winner: int | None
    """The winning side, or None while the game goes on."""
    scores: tuple[int, ...]
    """Each side's score now, in the game's units."""
    hands: int
    """Hands begun: every seat takes part in each."""
    settled: int
    """Hands settled: every seat's remaining pips were counted in each (what ``pips_left``
    is averaged over)."""
    time_called: bool = False
    """Whether a club night's time limit was called in the game (docs/rules.md 8f): its
    table's match ends with it. Older games had none, so the format stays."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict to store (see :meth:`from_json`)."""
        return {
            "format": FACTS_FORMAT,
            "seats": [asdict(seat) for seat in self.seats],
            "side_of": list(self.side_of),
            "partners": self.partners,
            "winner": self.winner,
            "scores": list(self.scores),
            "hands": self.hands,
            "settled": self.settled,
            "time_called": self.time_called,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameFacts | None:
        """The facts stored by :meth:`to_json`, or None when they are of another format."""
        if not isinstance(data, dict) or data.get("format") != FACTS_FORMAT:
            return None
        return cls(
            seats=tuple(SeatFacts(**seat) for seat in data["seats"]),
            side_of=tuple(data["side_of"]),
            partners=bool(data["partners"]),
            winner=data["winner"],
            scores=tuple(data["scores"]),
            hands=int(data["hands"]),
            settled=int(data["settled"]),
            time_called=bool(data.get("time_called", False)),
        )


def _fewest(hand: Hand) -> set[int]:
    """The seats that won a blocked hand's count of pips: the split seats, or the one seat
    holding strictly the fewest pips (nobody when several tie and nothing was split)."""
    settlement = hand.settlement
    if hand.result != "blocked" or settlement is None:
        return set()
    if settlement.split:
        return set(settlement.split)
    least = min(settlement.pips)
    holders = [seat for seat, pips in enumerate(settlement.pips) if pips == least]
    return set(holders) if len(holders) == 1 else set()


def game_facts(game: Game) -> GameFacts:
    """Each seat's facts in ``game``, from its replayed hands."""
    seats = len(game.players)
    per_point = 5 if game.rules.in_fives else 1
    points = [0] * seats
    best = [0] * seats
    plays = [0] * seats
    dominoes = [0] * seats
    settled = 0
    pips_left = [0] * seats
    blocked_won = [0] * seats
    muggins = [0] * seats
    for hand in game.hands:
        for scored in hand.plays:
            gained = scored.points * per_point
            points[scored.player] += gained
            best[scored.player] = max(best[scored.player], gained)
            plays[scored.player] += 1
            if scored.claimed_by is not None:
                points[scored.claimed_by] += scored.claimed * per_point
                muggins[scored.claimed_by] += 1
        if hand.went_out is not None and hand.result == "domino":
            dominoes[hand.went_out] += 1
        if hand.settlement is not None:
            settled += 1
            for seat, pips in enumerate(hand.settlement.pips):
                pips_left[seat] += pips
        for seat in _fewest(hand):
            blocked_won[seat] += 1
    return GameFacts(
        seats=tuple(
            SeatFacts(
                points=points[seat],
                best_play=best[seat],
                plays=plays[seat],
                dominoes=dominoes[seat],
                pips_left=pips_left[seat],
                blocked_won=blocked_won[seat],
                muggins=muggins[seat],
            )
            for seat in range(seats)
        ),
        side_of=tuple(game.side_of(seat) for seat in range(seats)),
        partners=game.setup.in_partnership,
        winner=game.winner,
        scores=tuple(game.scores),
        hands=len(game.hands),
        settled=settled,
        time_called=game.time is not None,
    )
