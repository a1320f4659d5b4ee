"""A game of All Fives: its setup, the hands played, the scores and the winner.

The state is derived from the ordered list of events. :meth:`Game.push` applies an event
completely or refuses it with a :class:`~scorekeeper.rules.errors.Refusal`, changing
nothing; :meth:`Game.pop` undoes the last one.

Continuing a game costs only the new events, and undoing one costs one hand, never the whole
game. Every hand keeps a snapshot of what the game was when it began (``scores_before``; a
hand only begins while nobody has won) and the game keeps where each hand's events begin, so
:meth:`Game.pop` restores the current hand's snapshot and pushes that hand's events again,
all but the last. Past hands never change once the next hand has begun: :meth:`Game.fork`
shares them and copies only the current hand, so a copy to continue from is cheap too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import (
    LEAD_WAYS,
    REASON_LENGTH,
    Adjust,
    Claim,
    Draw,
    Event,
    NewHand,
    Pass,
    Play,
    Settle,
    is_whole,
)
from scorekeeper.rules.gains import Voided, gets_in, play_gain, play_points, starts_in
from scorekeeper.rules.layout import Layout, is_arm_name, not_an_end
from scorekeeper.rules.messages import Fact, Listed, Message, say, say_list, say_n
from scorekeeper.rules.settlement import Settlement, check_remaining, settle
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


@dataclass(frozen=True, slots=True)
class Reached:
    """When a side came onto an exact target and stayed there (house rule exact_target).

    In hand ``hand`` (from 1): by the move ``move`` of its moves (from 0: a play, a claim,
    an adjustment), or, with ``move`` None, by the hand's settlement. ``turn`` is where the
    player who made that move (for a settlement, the side's first player) sits in that
    hand's turn order, the leader being 0: it orders sides that one settlement brought onto
    the target together (only ``blocked_tie: split`` can).
    """

    side: int
    hand: int
    move: int | None
    turn: int

    @property
    def order(self) -> tuple[int, int, int, int]:
        """Earlier first: by hand, then the moves in order, the settlement after them, and
        within one settlement the turn order from the hand's leader."""
        if self.move is None:
            return (self.hand, 1, 0, self.turn)
        return (self.hand, 0, self.move, 0)


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


class Game:
    """A game derived from its setup and events; push to apply, pop to undo."""

    def __init__(self, setup: Setup, events: Iterable[Event] = ()) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.sides = setup.sides
        self._side_of = [setup.side_of(seat) for seat in range(len(setup.players))]
        self._reset()
        for event in events:
            self.push(event)

    def _reset(self) -> None:
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.scores = [0] * len(self.sides)
        self.sides_in = [starts_in(self.rules)] * len(self.sides)
        """Which sides are in (house rule get_in: a side scores once a play got it in)."""
        self.winner: int | None = None
        self._starts: list[int] = []
        """Where each hand's NewHand is in ``events``: what :meth:`pop` replays from."""

    def fork(self) -> Game:
        """An independent copy of this game to push onto and pop from.

        It costs the current hand and a list of references, not a replay: past hands are
        never changed again (a pop back into one builds it anew), so they are shared.
        """
        other = Game.__new__(Game)
        other.setup = self.setup
        other.rules = self.rules
        other.sides = self.sides
        other._side_of = self._side_of
        other.events = list(self.events)
        other.hands = list(self.hands)
        if other.hands:
            other.hands[-1] = self.hands[-1].copy()
        other.scores = list(self.scores)
        other.sides_in = list(self.sides_in)
        other.winner = self.winner
        other._starts = list(self._starts)
        return other

    # -- what the table sees ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self.setup.players

    def side_of(self, seat: int) -> int:
        """The side that seat ``seat`` scores for."""
        return self._side_of[seat]

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
        the first to reach it first (RULES.md 9a). Empty without the house rule.

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
            settlement = hand.settlement
            if settlement is not None and settlement.changes[side]:
                return Reached(side, hand.number, None, self._turn_of_side(hand, side))
            # The last move of the side that left it on the target brought it there (plays
            # and claims never pass the target; an adjustment may, and another bring it back).
            score = hand.scores_before[side]
            reached: Reached | None = None
            for index, move in enumerate(hand.moves):
                if move.side == side and move.points:
                    score += move.points
                    if score == target:
                        turn = (move.seat - hand.leader) % len(hand.held)
                        reached = Reached(side, hand.number, index, turn)
                    else:
                        reached = None
            if reached is not None:
                return reached
            if score != target or hand.scores_before[side] != target:
                break
            # it stood there when this hand began and nothing in it moved it
        raise AssertionError(f"side {side} is not on the target {target}")

    def _turn_of_side(self, hand: Hand, side: int) -> int:
        """Where the first of ``side``'s players sits in ``hand``'s turn order (leader: 0)."""
        players = len(hand.held)
        return min(
            (seat - hand.leader) % players for seat in range(players) if self._side_of[seat] == side
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

    # -- entering events ----------------------------------------------------------------

    def push(self, event: Event) -> None:
        """Apply ``event``, or raise a Refusal and change nothing."""
        if isinstance(event, Play):
            end = self._check_play(event)
            self._check_call(event, end)
            self._apply_play(event, end)
        elif isinstance(event, Draw):
            self._check_draw(event)
            self._apply_draw(event)
        elif isinstance(event, Pass):
            self._check_pass(event)
            self._apply_pass(event)
        elif isinstance(event, NewHand):
            self._check_new_hand(event)
            self._apply_new_hand(event)
            self._starts.append(len(self.events))
        elif isinstance(event, Settle):
            self._apply_settle(event, self._check_settle(event))
        elif isinstance(event, Claim):
            self._apply_claim(event, self._check_claim(event))
        elif isinstance(event, Adjust):
            self._check_adjust(event)
            self._apply_adjust(event)
        else:
            raise MalformedInput(say("%(event)s is not an event.", event=repr(event)))
        self.events.append(event)

    def pop(self) -> Event:
        """Undo the last event and return it; this replays the current hand, not the game."""
        if not self.events:
            raise IndexError("no event to undo")
        return self.rewind(len(self.events) - 1)[0]

    def rewind(self, length: int) -> list[Event]:
        """Undo events until ``length`` remain; return those undone, oldest first.

        The game goes back to the snapshot of the hand the last kept event belongs to (its
        ``scores_before``: a hand only begins while nobody has won) and pushes that hand's
        kept events again, so it costs one hand at most, however long the game.
        """
        if not 0 <= length <= len(self.events):
            raise IndexError(f"cannot keep {length} of {len(self.events)} events")
        undone = self.events[length:]
        if not undone:
            return []
        index = bisect_left(self._starts, length)
        if index == len(self._starts) or self._starts[index] != length:
            index -= 1  # the kept events end inside hand ``index``: replay its kept events
        start = self._starts[index]
        self.scores = list(self.hands[index].scores_before)
        self.sides_in = list(self.hands[index].in_before)
        self.winner = None
        again = self.events[start:length]
        del self.events[start:], self.hands[index:], self._starts[index:]
        for event in again:
            self.push(event)
        return undone

    @property
    def hand_start(self) -> int:
        """Where the current hand's NewHand is in ``events`` (0 before the first hand)."""
        return self._starts[-1] if self._starts else 0

    @property
    def hand_starts(self) -> tuple[int, ...]:
        """Where each hand's NewHand is in ``events``, hand 1's first (kept, not searched for)."""
        return tuple(self._starts)

    # -- checks ---------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.setup.players[seat]

    def _check_seat(self, seat: object) -> None:
        if not is_whole(seat):
            raise MalformedInput(say("%(seat)s is not a seat.", seat=repr(seat)))
        if not 0 <= seat < len(self.setup.players):
            raise MalformedInput(say("There is no seat %(seat)s at this table.", seat=seat + 1))

    def _check_turn(self, seat: int, action: Turn) -> Hand:
        """Rules game-over, hand-over, lead and turn, common to plays, draws and passes."""
        self._check_seat(seat)
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is None:
            raise IllegalEntry("lead", say("Hand 1 has not begun: choose who leads it first."))
        player = self._name(seat)
        if hand.settlement is not None:
            settled: dict[str, Fact] = {
                "hand": hand.number,
                "player": player,
                "next": hand.number + 1,
            }
            raise IllegalEntry(
                "hand-over",
                _by_action(
                    action,
                    play=say(
                        "Hand %(hand)s is over and settled: %(player)s cannot play "
                        "until hand %(next)s is led.",
                        **settled,
                    ),
                    draw=say(
                        "Hand %(hand)s is over and settled: %(player)s cannot draw "
                        "until hand %(next)s is led.",
                        **settled,
                    ),
                    pass_=say(
                        "Hand %(hand)s is over and settled: %(player)s cannot pass "
                        "until hand %(next)s is led.",
                        **settled,
                    ),
                ),
            )
        if hand.is_over:
            over: dict[str, Fact] = {
                "hand": hand.number,
                "how": self._how_it_ended(hand),
                "player": player,
            }
            raise IllegalEntry(
                "hand-over",
                _by_action(
                    action,
                    play=say(
                        "Hand %(hand)s is over (%(how)s): %(player)s cannot play. "
                        "Enter what each player still holds.",
                        **over,
                    ),
                    draw=say(
                        "Hand %(hand)s is over (%(how)s): %(player)s cannot draw. "
                        "Enter what each player still holds.",
                        **over,
                    ),
                    pass_=say(
                        "Hand %(hand)s is over (%(how)s): %(player)s cannot pass. "
                        "Enter what each player still holds.",
                        **over,
                    ),
                ),
            )
        if not hand.plays:
            leads: dict[str, Fact] = {
                "leader": self._name(hand.leader),
                "hand": hand.number,
                "player": player,
            }
            if seat != hand.leader:
                raise IllegalEntry(
                    "lead",
                    _by_action(
                        action,
                        play=say(
                            "%(leader)s leads hand %(hand)s: %(player)s cannot play "
                            "before %(leader)s has led a tile.",
                            **leads,
                        ),
                        draw=say(
                            "%(leader)s leads hand %(hand)s: %(player)s cannot draw "
                            "before %(leader)s has led a tile.",
                            **leads,
                        ),
                        pass_=say(
                            "%(leader)s leads hand %(hand)s: %(player)s cannot pass "
                            "before %(leader)s has led a tile.",
                            **leads,
                        ),
                    ),
                )
            if action == "draw":
                raise IllegalEntry(
                    "lead",
                    say(
                        "%(leader)s leads hand %(hand)s and starts it by playing a tile, "
                        "not by drawing.",
                        leader=leads["leader"],
                        hand=hand.number,
                    ),
                )
            if action == "pass":
                raise IllegalEntry(
                    "lead",
                    say(
                        "%(leader)s leads hand %(hand)s and starts it by playing a tile, "
                        "not by passing.",
                        leader=leads["leader"],
                        hand=hand.number,
                    ),
                )
        if seat != hand.turn:
            raise IllegalEntry(
                "turn",
                say(
                    "It is %(turn)s's turn, not %(player)s's.",
                    turn=self._name(hand.turn),
                    player=player,
                ),
            )
        return hand

    def _check_play(self, play: Play) -> str | None:
        """Check a play; return the end it goes on (None for the lead)."""
        if not isinstance(play.tile, Tile):
            raise MalformedInput(say("%(tile)s is not a tile.", tile=repr(play.tile)))
        tiles = self.rules.tile_set
        if not tiles.holds(play.tile):
            raise MalformedInput(
                say(
                    "%(tile)s is not a tile of a %(set)s set (numbers 0 to %(top)s).",
                    tile=str(play.tile),
                    set=tiles.name,
                    top=tiles.top,
                )
            )
        if play.end is not None and (
            not isinstance(play.end, str) or not is_arm_name(play.end, tiles.top)
        ):
            raise MalformedInput(not_an_end(repr(play.end), play.end, tiles))
        if play.called is not None and not is_whole(play.called, 0):
            raise MalformedInput(
                say(
                    "A call is the points its player called, a whole number from 0 up "
                    "(0: nothing called); not %(given)s.",
                    given=repr(play.called),
                )
            )
        hand = self._check_turn(play.player, "play")
        player, tile, layout = self._name(play.player), play.tile, hand.layout
        if layout.lead is None and hand.double_lead and not tile.is_double:
            raise IllegalEntry(
                "lead",
                say(
                    "%(player)s leads hand %(hand)s with the highest double they hold "
                    "(house rule lead: highest-double): %(tile)s is not a double.",
                    player=player,
                    hand=hand.number,
                    tile=str(tile),
                ),
            )
        if tile in layout.on_table:
            by = self._name(hand.played_by[tile])
            raise IllegalEntry(
                "tile-unique",
                say(
                    "%(tile)s is already on the table (%(player)s played it in hand %(hand)s); "
                    "each tile is in the set once.",
                    tile=str(tile),
                    player=by,
                    hand=hand.number,
                ),
            )
        if layout.lead is None:
            return None
        end = play.end
        if end is not None and end not in layout.arms:
            spinner = layout.closed_spinner(end)
            if spinner is None:
                raise IllegalEntry("end-unknown", self._unknown_end_message(layout, end))
            covered = layout.spinner_sides_covered(spinner)
            sides = layout.spinner_side_arms(spinner)
            closed: dict[str, Fact] = {
                "end": end,
                "spinner": str(spinner.tile),
                "covered": covered,
                "side": sides[0],
            }
            if len(sides) == 2:
                raise IllegalEntry(
                    "spinner-sides",
                    say(
                        "%(end)s is an end of the spinner %(spinner)s, which opens only once "
                        "both its sides are covered (%(covered)s of 2 are): play on %(side)s "
                        "or %(other)s first.",
                        **closed,
                        other=sides[1],
                    ),
                )
            raise IllegalEntry(
                "spinner-sides",
                say(
                    "%(end)s is an end of the spinner %(spinner)s, which opens only once "
                    "both its sides are covered (%(covered)s of 2 are): play on %(side)s first.",
                    **closed,
                ),
            )
        if end is not None:
            shows = layout.arms[end].value
            if not tile.has(shows):
                raise IllegalEntry(
                    "match",
                    say(
                        "%(player)s's %(tile)s does not match the %(end)s end, which shows "
                        "%(shows)s. %(fits)s",
                        player=player,
                        tile=str(tile),
                        end=end,
                        shows=shows,
                        fits=self._fits_sentence(layout, layout.fits(tile)),
                    ),
                )
            return end
        fits = layout.fits(tile)
        if not fits:
            raise IllegalEntry(
                "match",
                say(
                    "%(player)s's %(tile)s fits no open end: %(ends)s.",
                    player=player,
                    tile=str(tile),
                    ends=self._ends_text(layout),
                ),
            )
        if len(fits) > 1:
            raise IllegalEntry(
                "end-ambiguous",
                say(
                    "%(player)s's %(tile)s fits %(fits)s: name the end to play it on.",
                    player=player,
                    tile=str(tile),
                    fits=self._ends_shown(layout, fits),
                ),
            )
        return fits[0]

    def _check_draw(self, draw: Draw) -> None:
        if not is_whole(draw.count, 1):
            raise MalformedInput(
                say("A draw takes 1 or more tiles, not %(given)s.", given=repr(draw.count))
            )
        hand = self._check_turn(draw.player, "draw")
        can = max(0, hand.boneyard - self.rules.boneyard_reserve)
        if draw.count > can:
            player = self._name(draw.player)
            left: Message
            if self.rules.boneyard_reserve and hand.boneyard:
                kept = min(hand.boneyard, self.rules.boneyard_reserve)
                if can:
                    left = say_n(
                        "only %(count)s tile can be drawn (%(kept)s kept in reserve)",
                        "only %(count)s tiles can be drawn (%(kept)s kept in reserve)",
                        can,
                        kept=kept,
                    )
                else:
                    left = say("the boneyard is empty (%(kept)s kept in reserve)", kept=kept)
            elif can:
                left = say_n(
                    "only %(count)s tile can be drawn", "only %(count)s tiles can be drawn", can
                )
            else:
                left = say("the boneyard is empty")
            if can:
                then = say("draw at most %(most)s", most=can)
            else:
                then = say("%(player)s must pass if no tile fits", player=player)
            raise IllegalEntry(
                "draw-empty",
                say_n(
                    "%(player)s cannot draw a tile: %(left)s; %(then)s.",
                    "%(player)s cannot draw %(count)s tiles: %(left)s; %(then)s.",
                    draw.count,
                    player=player,
                    left=left,
                    then=then,
                ),
            )

    def _check_pass(self, passing: Pass) -> None:
        hand = self._check_turn(passing.player, "pass")
        can = max(0, hand.boneyard - self.rules.boneyard_reserve)
        if can:
            raise IllegalEntry(
                "pass-boneyard",
                say_n(
                    "%(player)s cannot pass while %(count)s tile can be drawn: "
                    "draw until a tile fits.",
                    "%(player)s cannot pass while %(count)s tiles can be drawn: "
                    "draw until a tile fits.",
                    can,
                    player=self._name(passing.player),
                ),
            )

    def _check_new_hand(self, new: NewHand) -> None:
        self._check_seat(new.leader)
        if new.chosen is not None and new.chosen not in LEAD_WAYS:
            raise MalformedInput(
                say(
                    "%(given)s is not a way to choose the leader: %(ways)s (or none recorded).",
                    given=repr(new.chosen),
                    ways=", ".join(LEAD_WAYS),
                )
            )
        redraws = new.redraws
        if not is_whole(redraws, 0):
            raise MalformedInput(
                say("Redraws are a whole number from 0 up, not %(given)s.", given=repr(redraws))
            )
        if redraws and self.rules.lead != "highest-double":
            raise MalformedInput(
                say(
                    "Redraws belong to house rule lead: highest-double; this game plays "
                    "lead: %(value)s, and nobody draws before the lead.",
                    value=self.rules.lead,
                )
            )
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is not None and hand.result == "open":
            raise MalformedInput(
                say(
                    "Hand %(hand)s is not over (nobody has dominoed and it is not blocked): "
                    "hand %(next)s cannot begin.",
                    hand=hand.number,
                    next=hand.number + 1,
                )
            )
        if hand is not None and hand.settlement is None:
            raise IllegalEntry(
                "remaining",
                say(
                    "Hand %(hand)s is over (%(how)s) but not settled: "
                    "enter what each player still holds.",
                    hand=hand.number,
                    how=self._how_it_ended(hand),
                ),
            )
        expected = self.next_leader
        if expected is not None and new.leader != expected:
            assert hand is not None
            raise IllegalEntry(
                "lead",
                say(
                    "%(leader)s dominoed in hand %(hand)s and leads hand %(next)s, not %(player)s.",
                    leader=self._name(expected),
                    hand=hand.number,
                    next=hand.number + 1,
                    player=self._name(new.leader),
                ),
            )
        if expected is not None and redraws:
            assert hand is not None
            raise MalformedInput(
                say(
                    "%(leader)s dominoed in hand %(hand)s and leads hand %(next)s with any tile: "
                    "the highest double does not decide it, so nobody redraws.",
                    leader=self._name(expected),
                    hand=hand.number,
                    next=hand.number + 1,
                )
            )
        if expected is not None and new.chosen is not None:
            assert hand is not None
            raise MalformedInput(
                say(
                    "%(leader)s dominoed in hand %(hand)s, so the rules name the leader of "
                    "hand %(next)s: nobody chose it (%(given)s given).",
                    leader=self._name(expected),
                    hand=hand.number,
                    next=hand.number + 1,
                    given=repr(new.chosen),
                )
            )
        if redraws:
            count, can = len(self.setup.players), self.rules.most_redraws
            if redraws > can:
                raise IllegalEntry(
                    "draw-empty",
                    say_n(
                        "%(count)s redraw is more than the boneyard allows: its %(boneyard)s "
                        "tiles give each of the %(players)s players at most %(most)s more.",
                        "%(count)s redraws are more than the boneyard allows: its %(boneyard)s "
                        "tiles give each of the %(players)s players at most %(most)s more.",
                        redraws,
                        boneyard=self.rules.boneyard_size - self.rules.boneyard_reserve,
                        players=count,
                        most=can,
                    ),
                )

    def _check_call(self, play: Play, end: str | None) -> None:
        """A play's call (house rule muggins, RULES.md 9b): at most the points it scores."""
        called = play.called
        if called is None:
            return
        if not self.rules.muggins:
            raise IllegalEntry(
                "call",
                say(
                    "This game is played without calling the count (house rule muggins: no): "
                    "every play scores its count, so there is no call to enter."
                ),
            )
        hand = self.hand
        assert hand is not None
        layout = hand.layout.copy()
        if end is None:
            layout.place_lead(play.tile, play.flipped)
        else:
            layout.place(play.tile, end)
        count = layout.count()
        points = play_points(count)
        if called <= points:
            return
        player = self._name(play.player)
        if points:
            raise IllegalEntry(
                "call",
                say(
                    "%(player)s cannot call %(called)s: with %(tile)s the ends count %(count)s, "
                    "which scores %(points)s. A call of %(points)s scores it; a lower one "
                    "misses it.",
                    player=player,
                    called=called,
                    tile=str(play.tile),
                    count=count,
                    points=points,
                ),
            )
        raise IllegalEntry(
            "call",
            say(
                "%(player)s cannot call %(called)s: with %(tile)s the ends count %(count)s, "
                "which scores nothing, so the only call is 0.",
                player=player,
                called=called,
                tile=str(play.tile),
                count=count,
            ),
        )

    def _check_claim(self, claim: Claim) -> Scored:
        """A Muggins claim (RULES.md 9b); return the play whose missed points it takes."""
        self._check_seat(claim.player)
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        claimant = self._name(claim.player)
        if not self.rules.muggins:
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot cry Muggins: this game is played without calling the "
                    "count (house rule muggins: no), so no count is ever missed.",
                    claimant=claimant,
                ),
            )
        hand = self.hand
        last = self.events[-1] if self.events else None
        scored = hand.plays[-1] if hand is not None and hand.plays else None
        if isinstance(last, Claim) and scored is not None and scored.claimed_by is not None:
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot claim: %(first)s already took the %(points)s points "
                    "%(player)s missed with %(tile)s. A missed count is claimed once.",
                    claimant=claimant,
                    first=self._name(scored.claimed_by),
                    points=scored.missed,
                    player=self._name(scored.player),
                    tile=str(scored.tile),
                ),
            )
        if not isinstance(last, Play) or scored is None or not scored.missed:
            lost = _last_missed(hand)
            if lost is None and hand is not None and not hand.plays and len(self.hands) > 1:
                lost = _last_missed(self.hands[-2])  # lost with the hand's settlement
            if lost is not None:
                raise IllegalEntry(
                    "call",
                    say(
                        "%(claimant)s cannot claim: the %(points)s points %(player)s missed "
                        "with %(tile)s were lost when the next entry was made. A claim comes "
                        "directly after the play that missed its count.",
                        claimant=claimant,
                        points=lost.missed,
                        player=self._name(lost.player),
                        tile=str(lost.tile),
                    ),
                )
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot claim: no count has just been missed. A claim comes "
                    "directly after a play whose player called less than it scored.",
                    claimant=claimant,
                ),
            )
        if self._side_of[claim.player] == self._side_of[scored.player]:
            player = self._name(scored.player)
            if claim.player == scored.player:
                raise IllegalEntry(
                    "call",
                    say(
                        "%(claimant)s cannot claim the %(points)s points of their own %(tile)s: "
                        "only an opponent may cry Muggins.",
                        claimant=claimant,
                        points=scored.missed,
                        tile=str(scored.tile),
                    ),
                )
            raise IllegalEntry(
                "call",
                say(
                    "%(claimant)s cannot claim the %(points)s points %(player)s missed: they "
                    "play on the same side. Only an opponent may cry Muggins.",
                    claimant=claimant,
                    points=scored.missed,
                    player=player,
                ),
            )
        return scored

    def _check_adjust(self, adjust: Adjust) -> None:
        """An adjustment agreed at the table (RULES.md 9c)."""
        self._check_seat(adjust.player)
        points, in_fives = adjust.points, self.rules.in_fives
        if not is_whole(points) or points == 0:
            raise MalformedInput(
                say(
                    "An adjustment changes a score by a whole number other than 0 "
                    "(below 0: a loss); not %(given)s.",
                    given=repr(points),
                )
            )
        if not in_fives and points % 5:
            raise MalformedInput(
                say(
                    "An adjustment is a multiple of 5 points, as every score is: %(lower)s or "
                    "%(higher)s, not %(given)s.",
                    lower=points - points % 5,
                    higher=points - points % 5 + 5,
                    given=points,
                )
            )
        reason = adjust.reason
        if not isinstance(reason, str) or not reason.strip():
            raise MalformedInput(
                say(
                    "An adjustment says why, in words: what the table agreed "
                    "(1 to %(most)s characters).",
                    most=REASON_LENGTH,
                )
            )
        if len(reason) > REASON_LENGTH:
            raise MalformedInput(
                say(
                    "An adjustment's reason is at most %(most)s characters; this one has "
                    "%(count)s.",
                    most=REASON_LENGTH,
                    count=len(reason),
                )
            )
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is None:
            raise IllegalEntry(
                "lead",
                say(
                    "Hand 1 has not begun: a correction is entered during a hand, "
                    "once hand 1 is led."
                ),
            )
        if hand.settlement is not None:
            raise IllegalEntry(
                "hand-over",
                say(
                    "Hand %(hand)s is settled: a correction is entered during a hand, so enter "
                    "it once hand %(next)s is led. It counts the same.",
                    hand=hand.number,
                    next=hand.number + 1,
                ),
            )

    def _check_settle(self, settle_event: Settle) -> dict[int, int]:
        remaining = settle_event.remaining
        for seat in remaining:
            self._check_seat(seat)
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is None or hand.result == "open":
            number = hand.number if hand else 1
            raise IllegalEntry(
                "remaining",
                say(
                    "Hand %(hand)s is not over (nobody has dominoed and it is not blocked): "
                    "there is nothing to settle yet.",
                    hand=number,
                ),
            )
        if hand.settlement is not None:
            raise IllegalEntry(
                "remaining", say("Hand %(hand)s is already settled.", hand=hand.number)
            )
        return check_remaining(
            remaining,
            hand.held,
            hand.layout.on_table,
            hand.boneyard,
            self.setup.players,
            self.rules.tile_set,
        )

    # -- applying -------------------------------------------------------------------------

    def _apply_new_hand(self, new: NewHand) -> None:
        rules = self.rules
        count = len(self.setup.players)
        self.hands.append(
            Hand(
                number=len(self.hands) + 1,
                leader=new.leader,
                layout=Layout(rules.spinners, rules.spinner_counts),
                held=[rules.hand_size + new.redraws] * count,
                drawn=[0] * count,
                boneyard=rules.boneyard_size - new.redraws * count,
                redraws=new.redraws,
                double_lead=rules.lead == "highest-double" and self.next_leader is None,
                turn=new.leader,
                scores_before=list(self.scores),
                in_before=list(self.sides_in),
            )
        )

    def _apply_play(self, play: Play, end: str | None) -> None:
        hand = self.hand
        assert hand is not None
        if end is None:
            hand.layout.place_lead(play.tile, play.flipped)
        else:
            hand.layout.place(play.tile, end)
        hand.played_by[play.tile] = play.player
        count = hand.layout.count()
        side = self._side_of[play.player]
        counted = play_points(count)
        called, missed = None, 0
        if self.rules.muggins:
            called = counted if play.called is None else play.called
            missed = counted if called < counted else 0
        if missed:  # RULES.md 9b: a call short of the count scores nothing at all
            gain = play_gain(0, self.sides_in[side], self.scores[side], self.rules)
        else:
            gain = play_gain(count, self.sides_in[side], self.scores[side], self.rules)
            if gets_in(counted, self.rules):
                self.sides_in[side] = True
        points = gain.points
        self.scores[side] += points
        hand.plays.append(
            Scored(
                play.player,
                play.tile,
                end,
                count,
                points,
                gain.voided,
                gain.earned,
                called=called,
                missed=missed,
            )
        )
        hand.moves.append(Move("play", play.player, side, points, len(hand.plays) - 1))
        hand.held[play.player] -= 1
        hand.passes = 0
        hand.turn = (play.player + 1) % len(hand.held)
        # With exact_target this side is also the first on the target: a settlement that
        # leaves any side there decides the game, so nobody else stands on it now.
        if (
            points
            and self.rules.win_check == "immediate"
            and self.scores[side] >= self.rules.target
        ):
            self.winner = side
            hand.result = "won"
            if hand.held[play.player] == 0:
                hand.went_out = play.player
        elif hand.held[play.player] == 0:
            hand.result = "domino"
            hand.went_out = play.player

    def _apply_draw(self, draw: Draw) -> None:
        hand = self.hand
        assert hand is not None
        hand.held[draw.player] += draw.count
        hand.drawn[draw.player] += draw.count
        hand.boneyard -= draw.count

    def _apply_pass(self, passing: Pass) -> None:
        hand = self.hand
        assert hand is not None
        hand.passes += 1
        hand.turn = (passing.player + 1) % len(hand.held)
        if hand.passes == len(hand.held):
            hand.result = "blocked"

    def _apply_settle(self, event: Settle, pips: dict[int, int]) -> None:
        hand = self.hand
        assert hand is not None
        hand.settlement = settle(
            pips,
            hand.went_out if hand.result == "domino" else None,
            self.setup,
            self.rules,
            self.scores,
            self.sides_in,
        )
        for side, change in enumerate(hand.settlement.changes):
            self.scores[side] += change
        self._decide()

    def _apply_claim(self, claim: Claim, scored: Scored) -> None:
        hand = self.hand
        assert hand is not None
        side = self._side_of[claim.player]
        # RULES.md 9b: the claim is a gain from a play, for the claimant's side.
        gain = play_gain(scored.count, self.sides_in[side], self.scores[side], self.rules)
        if gets_in(scored.missed, self.rules):
            self.sides_in[side] = True
        self.scores[side] += gain.points
        hand.plays[-1] = replace(
            scored, claimed_by=claim.player, claimed=gain.points, claim_voided=gain.voided
        )
        hand.moves.append(Move("claim", claim.player, side, gain.points, len(hand.plays) - 1))
        if (
            gain.points
            and self.rules.win_check == "immediate"
            and self.scores[side] >= self.rules.target
        ):
            self.winner = side
            hand.result = "won"

    def _apply_adjust(self, adjust: Adjust) -> None:
        hand = self.hand
        assert hand is not None
        side = self._side_of[adjust.player]
        self.scores[side] += adjust.points
        hand.moves.append(
            Move("adjust", adjust.player, side, adjust.points, len(hand.plays), adjust.reason)
        )
        # RULES.md 9c: the win is checked as after a settlement; with end-of-hand that is at
        # the hand's settlement (an adjustment is entered before it), with immediate at once.
        if self.rules.win_check == "immediate":
            self._decide()
            if self.winner is not None:
                hand.result = "won"

    def _decide(self) -> None:
        """The win check after a settlement (RULES.md 8): the one highest side at or above
        the target wins; a tie for highest plays on, unless exact_target parts it."""
        best = max(self.scores)
        if best < self.rules.target:
            return
        leaders = [side for side, score in enumerate(self.scores) if score == best]
        if len(leaders) == 1:
            self.winner = leaders[0]
        elif self.rules.exact_target and best == self.rules.target:
            # RULES.md 9a: no score passes an exact target, so the leaders stand on it and can
            # gain nothing more (with winner-collects nothing can take them off either, and
            # another hand would never part them): the first to reach it wins. Two that one
            # settlement brought there together (a split blocked hand) go in the hand's turn
            # order, from its leader: the only order a hand puts its players in, and not
            # always the same seat first (after a blocked hand the leader is chosen by lot).
            # (An adjustment may pass an exact target: tied past it, they play on.)
            self.winner = self.on_target()[0].side

    # -- messages -------------------------------------------------------------------------

    def _game_over_message(self) -> Message:
        assert self.winner is not None
        return say(
            "The game is over: %(side)s won with %(score)s (target %(target)s). "
            "Nothing more can be entered.",
            side=self.sides[self.winner],
            score=self.scores[self.winner],
            target=self.rules.target,
        )

    def _how_it_ended(self, hand: Hand) -> Message:
        if hand.result == "domino" and hand.went_out is not None:
            return say("%(went_out)s dominoed", went_out=self._name(hand.went_out))
        if hand.result == "blocked":
            return say("it is blocked: every player passed")
        return say("it was won")

    @staticmethod
    def _ends_text(layout: Layout) -> Listed:
        return say_list(
            [say("%(end)s shows %(pips)s", end=end.name, pips=end.shows) for end in layout.ends()]
        )

    @staticmethod
    def _ends_shown(layout: Layout, fits: list[str]) -> Listed:
        return say_list(
            [
                say("%(end)s (shows %(pips)s)", end=name, pips=layout.arms[name].value)
                for name in fits
            ]
        )

    @staticmethod
    def _fits_sentence(layout: Layout, fits: list[str]) -> Message:
        if not fits:
            return say("It fits no open end.")
        return say("It fits %(fits)s.", fits=Game._ends_shown(layout, fits))

    def _unknown_end_message(self, layout: Layout, end: str) -> Message:
        ends = self._ends_text(layout)
        if end in ("N", "S"):
            if self.rules.spinners == "none":
                return say(
                    "There is no %(end)s end: this game is played without a spinner. "
                    "The open ends are %(ends)s.",
                    end=end,
                    ends=ends,
                )
            return say(
                "There is no %(end)s end: no double has been laid to be the spinner yet. "
                "The open ends are %(ends)s.",
                end=end,
                ends=ends,
            )
        if self.rules.spinners != "all":
            return say(
                "There is no %(end)s end: only with every double a spinner do doubles open "
                "arms of their own. The open ends are %(ends)s.",
                end=end,
                ends=ends,
            )
        double = end.split(":")[0]
        first = layout.spinners[0].tile if layout.spinners else None
        if first is not None and str(first) == double:
            return say(
                "There is no %(end)s end: %(double)s is the first spinner, its ends are "
                "%(north)s and %(south)s. The open ends are %(ends)s.",
                end=end,
                double=double,
                north="N",
                south="S",
                ends=ends,
            )
        return say(
            "There is no %(end)s end: %(double)s is not on the table. The open ends are %(ends)s.",
            end=end,
            double=double,
            ends=ends,
        )


def _by_action(action: Turn, *, play: Message, draw: Message, pass_: Message) -> Message:
    """The one of three whole sentences that says ``action``: a play, a draw or a pass."""
    if action == "play":
        return play
    if action == "draw":
        return draw
    return pass_


def _last_missed(hand: Hand | None) -> Scored | None:
    """The last play of ``hand`` whose missed count nobody claimed, or None."""
    if hand is None:
        return None
    for scored in reversed(hand.plays):
        if scored.missed:
            return None if scored.claimed_by is not None else scored
    return None
