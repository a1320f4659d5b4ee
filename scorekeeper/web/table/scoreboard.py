"""The table page's scoreboard and hands table, as data and words: the sides and seats, the
flash of what the last entry scored, and a row per hand (kept as each hand ends)."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import Adjust, Claim, Game, Guess, Hand, Play, Settle
from scorekeeper.rules.entering import undo_steps
from scorekeeper.rules.practice import guessed_right, hidden_play
from scorekeeper.rules.wording import signed
from scorekeeper.web import languages
from scorekeeper.web.bounded import Derived
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.table.controls import describe_play


@dataclass(frozen=True)
class SeatView:
    """One player on the scoreboard."""

    seat: int
    name: str
    tiles: int
    to_play: bool


@dataclass(frozen=True)
class SideView:
    """One side on the scoreboard: its name, score and players."""

    index: int
    name: str
    score: int
    seats: tuple[SeatView, ...]
    to_play: bool
    winner: bool


@dataclass(frozen=True)
class HandSummary:
    """One row of the hands table: how a hand ended and what each side made of it."""

    number: int
    leader: str
    ending: str
    play_points: tuple[int, ...]
    settlement: tuple[int, ...]
    scores: tuple[int, ...]
    adjusted: tuple[int, ...] = ()
    """What adjustments agreed at the table changed each side's score by in the hand."""

    @property
    def points(self) -> tuple[int, ...]:
        """What each side made of the hand: its plays, adjustments and settlement together."""
        adjusted = self.adjusted or (0,) * len(self.play_points)
        return tuple(
            p + a + s for p, a, s in zip(self.play_points, adjusted, self.settlement, strict=True)
        )


@dataclass(frozen=True)
class LastScore:
    """What the last entry scored, for the flash by the scoreboard: "+15 Ann" or "no score".

    ``what`` names the entry ("Ann's 6-4 on W", "Hand 2 settled"); ``changes`` holds each
    side that gained or lost points with it, by the name the scoreboard gives the side.
    """

    what: str
    changes: tuple[tuple[str, int], ...]
    hidden: bool = False
    """A play whose count is hidden until the table guesses it (practice mode): what it
    scored is not said either."""

    @property
    def text(self) -> str:
        """The flash: "+15 Ann", "-5 Ann, -15 Bob", "no score", or "count hidden"."""
        if self.hidden:
            return _("count hidden")
        scored = ", ".join(f"{signed(points)} {side}" for side, points in self.changes)
        return scored or _("no score")

    @property
    def spoken(self) -> str:
        """What screen readers announce: the entry and what it scored."""
        return f"{self.what}: {self.text}"


def last_score(game: Game) -> LastScore | None:
    """What the last entry (as one undo would remove it) scored, side by side.

    A play scores for its player's side, maybe nothing; a settlement changes any side's
    score. Other entries (draws, passes, a new hand) score nothing and say nothing.
    """
    steps = undo_steps(game)
    if steps == 0:
        return None
    event = game.events[-steps]
    hand = game.hands[-steps]
    if isinstance(event, Play):
        scored = hand.plays[-1]
        what = describe_play(game, event, scored.end)
        if scored.missed:  # house rule muggins: called short, it scored nothing
            what = _(
                "%(play)s, called %(called)s of %(points)s",
                play=what,
                called=scored.called or 0,
                points=scored.missed,
            )
        if hidden_play(game) is not None:  # practice mode: not a word of it until guessed
            return LastScore(what, (), hidden=True)
        side = game.sides[game.side_of(scored.player)]
        return LastScore(what, ((side, scored.points),) if scored.points else ())
    if isinstance(event, Guess):
        # The guess shows the count, and with it what the play scored.
        scored = hand.plays[-1]
        facts = {
            "player": game.players[scored.player],
            "guessed": event.points,
            "count": scored.count,
        }
        if guessed_right(scored):
            what = _("%(player)s's count guessed %(guessed)s: right", **facts)
        else:
            what = _("%(player)s's count guessed %(guessed)s: wrong, it was %(count)s", **facts)
        side = game.sides[game.side_of(scored.player)]
        return LastScore(what, ((side, scored.points),) if scored.points else ())
    if isinstance(event, Claim):
        scored = hand.plays[-1]
        what = _("%(player)s's Muggins!", player=game.players[event.player])
        side = game.sides[game.side_of(event.player)]
        return LastScore(what, ((side, scored.claimed),) if scored.claimed else ())
    if isinstance(event, Adjust):
        side = game.sides[game.side_of(event.player)]
        return LastScore(_("Adjusted: %(reason)s", reason=event.reason), ((side, event.points),))
    if isinstance(event, Settle) and hand.settlement is not None:
        changes = tuple(
            (side, points)
            for side, points in zip(game.sides, hand.settlement.changes, strict=True)
            if points
        )
        return LastScore(_("Hand %(number)s settled", number=hand.number), changes)
    return None


def hand_ending(game: Game, hand: Hand) -> str:
    """How a hand ended, in words."""
    if hand.result == "domino" and hand.went_out is not None:
        return _("%(player)s dominoed", player=game.players[hand.went_out])
    if hand.result == "blocked":
        return _("Blocked: every player passed")
    if hand.result == "won":
        return _("Won during play")
    return _("In play")


SUMMARIES_KEPT = 1024
"""How many games' lists of finished hands are kept, per language (one entry per game and
number of hands; the least recently used go first): a few hundred bytes a hand."""

_SUMMARIES: Derived[Hand, tuple[HandSummary, ...]] = Derived(SUMMARIES_KEPT)


def hand_summaries(game: Game) -> tuple[HandSummary, ...]:
    """Each hand: leader, ending, points in play and at the end per side, totals after.

    The finished hands' rows are made once, as each hand ends, and kept: a request in hand 25
    makes one row, not 25.
    """
    sides = len(game.sides)

    def summary(hand: Hand) -> HandSummary:
        return HandSummary(
            hand.number,
            game.players[hand.leader],
            hand_ending(game, hand),
            game.play_points(hand),
            hand.settlement.changes if hand.settlement else (0,) * sides,
            game.scores_after(hand),
            game.adjusted(hand),
        )

    def add(rows: tuple[HandSummary, ...], hand: Hand) -> tuple[HandSummary, ...]:
        return (*rows, summary(hand))

    if not game.hands:
        return ()
    done = _SUMMARIES.grown(game.hands[:-1], (), add, also=languages.current())
    return (*done, summary(game.hands[-1]))
