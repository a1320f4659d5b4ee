"""What a game is at a moment: its hands, the scores, the winner, and what the table asks of them.

:class:`GameState` holds the state that :class:`~scorekeeper.rules.game.Game` derives from its
events, and the queries on it. Each kind of entry is checked and applied by a room of its own
(``scorekeeper.rules.rooms``), which reads and changes this state; nothing here knows the rooms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from scorekeeper.rules.events import Event, TimeRule
from scorekeeper.rules.gains import Voided, starts_in
from scorekeeper.rules.layout import Layout
from scorekeeper.rules.settlement import Settlement
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import Tile

Phase = Literal["lead", "play", "settle", "over"]
"""Where a game is: a hand is to be led, played, or settled, or the game is over."""
HandResult = Literal["open", "domino", "blocked", "won"]
"""How a hand ended: not yet (``open``), a player went out, every player passed, or a side
reached the target during play (with ``win_check: immediate``)."""
Turn = Literal["play", "draw", "pass"]
"""What a player does in their turn."""


@dataclass(frozen=True, slots=True)
class Scored:
    """A play and what it made: the end it went on (None for the lead), the count, the points."""

    player: int
    tile: Tile
    end: str | None
    count: int
    points: int
    voided: Voided | None = None
    """Why a count that is a multiple of five scored nothing (house rules get_in and
    exact_target), or None."""
    earned: int = 0
    """What the count was worth in the game's units before get_in and exact_target."""
    called: int | None = None
    """With house rule muggins: the points its player called (the count's points when the
    call was right or left out); None without it."""
    missed: int = 0
    """With house rule muggins: the points (as counted) a call short of them missed; the
    play then scored nothing and an opponent may claim them."""
    claimed_by: int | None = None
    """The seat of the opponent who claimed the missed points ("Muggins!"), or None."""
    claimed: int = 0
    """What the claim scored its side, in the game's units (after get_in, exact_target)."""
    claim_voided: Voided | None = None
    """Why a claim scored nothing (get_in, exact_target), or None."""
    guessed: int | None = None
    """With house rule practice: the points the table guessed its count to be, or None
    while it is not guessed."""


MoveKind = Literal["play", "claim", "adjust"]
"""What changed a score during a hand: a play, a claim of a missed count, an adjustment."""


@dataclass(frozen=True, slots=True)
class Move:
    """One entry of a hand that can change a score, in the order entered: every play (one
    scoring nothing too), every claim and every adjustment. A hand's settlement is not one.

    ``seat`` made it (the player, the claimant, the player an adjustment names) for
    ``side``; ``points`` is what it changed, in the game's units. ``play`` is the index in
    the hand's plays of the play it is or claims; for an adjustment, how many plays came
    before it. ``reason`` is an adjustment's, "" otherwise.
    """

    kind: MoveKind
    seat: int
    side: int
    points: int
    play: int
    reason: str = ""
    settled: bool = False
    """Made after the hand's settlement (an adjustment agreed before the next lead)."""


@dataclass(frozen=True, slots=True)
class Reached:
    """When a side came onto an exact target and stayed there (house rule exact_target).

    In hand ``hand`` (from 1): by the move ``move`` of its moves (from 0: a play, a claim,
    an adjustment), or, with ``move`` None, by the hand's settlement; ``settled`` when that
    move came after the settlement (an adjustment between hands). ``turn`` is where the
    player who made that move (for a settlement, the side's first player) sits in that
    hand's turn order, the leader being 0: it orders sides that one settlement brought onto
    the target together (only ``blocked_tie: split`` can).
    """

    side: int
    hand: int
    move: int | None
    turn: int
    settled: bool = False

    @property
    def order(self) -> tuple[int, int, int, int]:
        """Earlier first: by hand, then the moves in order, the settlement after the moves
        made before it, and within one settlement the turn order from the hand's leader."""
        if self.move is None:
            return (self.hand, 1, 0, self.turn)
        return (self.hand, 2 if self.settled else 0, self.move, 0)


@dataclass
class Hand:
    """One hand: the layout, who holds how many tiles, the plays and how it ended."""

    number: int
    leader: int
    layout: Layout
    held: list[int]
    boneyard: int
    turn: int
    scores_before: list[int]
    in_before: list[bool] = field(default_factory=list)
    """Which sides were in (house rule get_in) when the hand began."""
    drawn: list[int] = field(default_factory=list)
    passes: int = 0
    plays: list[Scored] = field(default_factory=list)
    result: HandResult = "open"
    went_out: int | None = None
    settlement: Settlement | None = None
    played_by: dict[Tile, int] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    """Every play, claim and adjustment, in the order entered (see :class:`Move`)."""
    redraws: int = 0
    """How many times every player drew one more tile before the lead (highest-double)."""
    double_lead: bool = False
    """Whether house rule ``lead: highest-double`` names this hand's lead: the highest double
    held (the first hand, and a hand after a blocked one)."""

    @property
    def is_over(self) -> bool:
        """Whether no more tiles can be played in this hand."""
        return self.result != "open"

    def copy(self) -> Hand:
        """An independent copy (settlements, plays and tiles are immutable and shared)."""
        return Hand(
            number=self.number,
            leader=self.leader,
            layout=self.layout.copy(),
            held=list(self.held),
            boneyard=self.boneyard,
            turn=self.turn,
            scores_before=list(self.scores_before),
            in_before=list(self.in_before),
            drawn=list(self.drawn),
            passes=self.passes,
            plays=list(self.plays),
            result=self.result,
            went_out=self.went_out,
            settlement=self.settlement,
            played_by=dict(self.played_by),
            moves=list(self.moves),
            redraws=self.redraws,
            double_lead=self.double_lead,
        )


class GameState:
    """A game's state: its setup, the hands begun, each side's score and whether it is in, the
    winner, and where each hand's events begin. :class:`~scorekeeper.rules.game.Game` pushes
    entries onto it; the rooms that check and apply them read and change it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.sides = setup.sides
        self.side_of_seat = [setup.side_of(seat) for seat in range(len(setup.players))]
        """The side each seat scores for, in seat order."""
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.scores = [0] * len(self.sides)
        self.sides_in = [starts_in(self.rules)] * len(self.sides)
        """Which sides are in (house rule get_in: a side scores once a play got it in)."""
        self.winner: int | None = None
        self.time: TimeRule | None = None
        """A club night's time limit, once called in this game (docs/rules.md 8f)."""
        self.time_at: int | None = None
        """Where the time entry is in ``events``: what an undo past it takes back."""
        self.won_at_time = False
        """Whether the time limit decided the winner (no side had reached the target)."""
        self.starts: list[int] = []
        """Where each hand's NewHand is in ``events``: what an undo replays from."""

    # -- what the table sees ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self.setup.players

    def side_of(self, seat: int) -> int:
        """The side that seat ``seat`` scores for."""
        return self.side_of_seat[seat]

    @property
    def hand(self) -> Hand | None:
        """The current (last begun) hand."""
        return self.hands[-1] if self.hands else None

    @property
    def phase(self) -> Phase:
        """``over``, ``lead`` (a hand is to be led), ``play`` or ``settle``."""
        hand = self.hand
        if self.winner is not None:
            return "over"
        if hand is None or hand.settlement is not None:
            return "lead"
        if hand.result == "open":
            return "play"
        return "settle"

    @property
    def next_leader(self) -> int | None:
        """The seat that must lead the next hand, or None when it is chosen by lot."""
        hand = self.hand
        if hand is None or self.winner is not None or hand.result != "domino":
            return None
        return hand.went_out

    def scores_after_hands(self) -> list[tuple[int, ...]]:
        """Each side's score after each hand, in hand order; the current hand's is the score now.

        Every hand keeps the scores as they were when it began, which are the scores after
        the hand before it, so this reads snapshots and adds nothing up again.
        """
        return [self.scores_after(hand) for hand in self.hands]

    def scores_after(self, hand: Hand) -> tuple[int, ...]:
        """Each side's score after ``hand``: what the next hand began with, or the score now
        for the current hand (read from snapshots, nothing added up)."""
        if hand.number < len(self.hands):
            return tuple(self.hands[hand.number].scores_before)
        return tuple(self.scores)

    def play_points(self, hand: Hand) -> tuple[int, ...]:
        """What each side scored by plays in ``hand``, its claims of missed counts included
        (neither its settlement nor its adjustments)."""
        points = [0] * len(self.sides)
        for move in hand.moves:
            if move.kind != "adjust":
                points[move.side] += move.points
        return tuple(points)

    def adjusted(self, hand: Hand) -> tuple[int, ...]:
        """What adjustments in ``hand`` changed each side's score by."""
        points = [0] * len(self.sides)
        for move in hand.moves:
            if move.kind == "adjust":
                points[move.side] += move.points
        return tuple(points)

    def on_target(self) -> list[Reached]:
        """The sides standing on the target with ``exact_target``, and when each came onto it:
        the first to reach it first (docs/rules.md 8a). Empty without the house rule.

        Derived from the hands, nothing is kept for it (an undo has nothing more to restore).
        A side's stay on the target begins with the last event that brought its score there:
        a deduction (``deduct-own``) can take it off again, and reaching it again counts anew.
        """
        rules = self.rules
        if not rules.exact_target:
            return []
        standing = [side for side, score in enumerate(self.scores) if score == rules.target]
        return sorted((self._reached(side) for side in standing), key=lambda r: r.order)

    def _reached(self, side: int) -> Reached:
        """When ``side``, on the target now, came onto it: see :meth:`on_target`."""
        target = self.rules.target
        for hand in reversed(self.hands):
            # The side stands on the target at the end of ``hand`` (or now, in the current one).
            # The last change of its score that left it there brought it there, in the order
            # they were made: the moves before the settlement, the settlement, the moves after
            # it (plays and claims never pass the target; an adjustment may, and another bring
            # it back).
            score = hand.scores_before[side]
            reached: Reached | None = None
            for change, points in self._changes_of(hand, side):
                score += points
                reached = change if score == target else None
            if reached is not None:
                return reached
            if score != target or hand.scores_before[side] != target:
                break
            # it stood there when this hand began and nothing in it moved it
        raise AssertionError(f"side {side} is not on the target {target}")

    def _changes_of(self, hand: Hand, side: int) -> list[tuple[Reached, int]]:
        """Every change of ``side``'s score in ``hand``, in the order made, each with the
        :class:`Reached` it would be if it brought the side onto the target."""
        changes: list[tuple[Reached, int]] = []
        settlement, settled = hand.settlement, False
        for index, move in enumerate(hand.moves):
            if move.settled and settlement is not None and not settled:
                changes.append((self._settled_reached(hand, side), settlement.changes[side]))
                settled = True
            if move.side == side and move.points:
                turn = (move.seat - hand.leader) % len(hand.held)
                changes.append((Reached(side, hand.number, index, turn, move.settled), move.points))
        if settlement is not None and not settled:
            changes.append((self._settled_reached(hand, side), settlement.changes[side]))
        return [(found, points) for found, points in changes if points]

    def _settled_reached(self, hand: Hand, side: int) -> Reached:
        return Reached(side, hand.number, None, self._turn_of_side(hand, side))

    def _turn_of_side(self, hand: Hand, side: int) -> int:
        """Where the first of ``side``'s players sits in ``hand``'s turn order (leader: 0)."""
        players = len(hand.held)
        return min(
            (seat - hand.leader) % players
            for seat in range(players)
            if self.side_of_seat[seat] == side
        )

    def drawable(self) -> int:
        """Tiles that may still be drawn in the current hand (the reserve is never drawn)."""
        hand = self.hand
        if hand is None:
            return 0
        return max(0, hand.boneyard - self.rules.boneyard_reserve)

    def fits(self, tile: Tile) -> list[str]:
        """The open ends of the current layout that ``tile`` fits."""
        hand = self.hand
        return [] if hand is None else hand.layout.fits(tile)

    @property
    def hand_start(self) -> int:
        """Where the current hand's NewHand is in ``events`` (0 before the first hand)."""
        return self.starts[-1] if self.starts else 0

    @property
    def hand_starts(self) -> tuple[int, ...]:
        """Where each hand's NewHand is in ``events``, hand 1's first (kept, not searched for)."""
        return tuple(self.starts)
