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
from dataclasses import dataclass, field
from typing import Literal

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import LEAD_WAYS, Draw, Event, NewHand, Pass, Play, Settle
from scorekeeper.rules.gains import Voided, gets_in, play_gain, play_points, starts_in
from scorekeeper.rules.layout import Layout, is_arm_name
from scorekeeper.rules.settlement import Settlement, check_remaining, settle
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import Tile
from scorekeeper.rules.wording import listed, tile_count

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
        after = [tuple(hand.scores_before) for hand in self.hands[1:]]
        if self.hands:
            after.append(tuple(self.scores))
        return after

    def play_points(self, hand: Hand) -> tuple[int, ...]:
        """What each side scored by plays in ``hand`` (its settlement not included)."""
        points = [0] * len(self.sides)
        for scored in hand.plays:
            points[self._side_of[scored.player]] += scored.points
        return tuple(points)

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
        else:
            raise MalformedInput(f"{event!r} is not an event.")
        self.events.append(event)

    def check(self, event: Event) -> None:
        """Raise the Refusal that pushing ``event`` would raise; change nothing."""
        if isinstance(event, Play):
            self._check_play(event)
        elif isinstance(event, Draw):
            self._check_draw(event)
        elif isinstance(event, Pass):
            self._check_pass(event)
        elif isinstance(event, NewHand):
            self._check_new_hand(event)
        elif isinstance(event, Settle):
            self._check_settle(event)
        else:
            raise MalformedInput(f"{event!r} is not an event.")

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
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedInput(f"{seat!r} is not a seat.")
        if not 0 <= seat < len(self.setup.players):
            raise MalformedInput(f"There is no seat {seat + 1} at this table.")

    def _check_turn(self, seat: int, action: Turn) -> Hand:
        """Rules game-over, hand-over, lead and turn, common to plays, draws and passes."""
        self._check_seat(seat)
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is None:
            raise IllegalEntry("lead", "Hand 1 has not begun: choose who leads it first.")
        if hand.settlement is not None:
            raise IllegalEntry(
                "hand-over",
                f"Hand {hand.number} is over and settled: {self._name(seat)} cannot {action} "
                f"until hand {hand.number + 1} is led.",
            )
        if hand.is_over:
            raise IllegalEntry(
                "hand-over",
                f"Hand {hand.number} is over ({self._how_it_ended(hand)}): "
                f"{self._name(seat)} cannot {action}. Enter what each player still holds.",
            )
        if not hand.plays:
            leader = self._name(hand.leader)
            if seat != hand.leader:
                raise IllegalEntry(
                    "lead",
                    f"{leader} leads hand {hand.number}: {self._name(seat)} cannot {action} "
                    f"before {leader} has led a tile.",
                )
            if action != "play":
                raise IllegalEntry(
                    "lead",
                    f"{leader} leads hand {hand.number} and starts it by playing a tile, "
                    f"not by {'drawing' if action == 'draw' else 'passing'}.",
                )
        if seat != hand.turn:
            raise IllegalEntry(
                "turn", f"It is {self._name(hand.turn)}'s turn, not {self._name(seat)}'s."
            )
        return hand

    def _check_play(self, play: Play) -> str | None:
        """Check a play; return the end it goes on (None for the lead)."""
        if not isinstance(play.tile, Tile):
            raise MalformedInput(f"{play.tile!r} is not a tile.")
        if play.end is not None and (not isinstance(play.end, str) or not is_arm_name(play.end)):
            raise MalformedInput(
                f"{play.end!r} is not an end: the ends are W, E, N, S, and d-d:N or d-d:S "
                "for a later spinner d-d."
            )
        hand = self._check_turn(play.player, "play")
        player, tile, layout = self._name(play.player), play.tile, hand.layout
        if tile in layout.on_table:
            by = self._name(hand.played_by[tile])
            raise IllegalEntry(
                "tile-unique",
                f"{tile} is already on the table ({by} played it in hand {hand.number}); "
                "each tile is in the set once.",
            )
        if layout.lead is None:
            return None
        end = play.end
        if end is not None and end not in layout.arms:
            spinner = layout.closed_spinner(end)
            if spinner is None:
                raise IllegalEntry("end-unknown", self._unknown_end_message(layout, end))
            covered = layout.spinner_sides_covered(spinner)
            sides = " or ".join(layout.spinner_side_arms(spinner))
            raise IllegalEntry(
                "spinner-sides",
                f"{end} is an end of the spinner {spinner.tile}, which opens only once both "
                f"its sides are covered ({covered} of 2 are): play on {sides} first.",
            )
        if end is not None:
            shows = layout.arms[end].value
            if not tile.has(shows):
                raise IllegalEntry(
                    "match",
                    f"{player}'s {tile} does not match the {end} end, which shows {shows}. "
                    + self._fits_sentence(layout, layout.fits(tile)),
                )
            return end
        fits = layout.fits(tile)
        if not fits:
            raise IllegalEntry(
                "match",
                f"{player}'s {tile} fits no open end: {self._ends_text(layout)}.",
            )
        if len(fits) > 1:
            shown = listed([f"{name} (shows {layout.arms[name].value})" for name in fits])
            raise IllegalEntry(
                "end-ambiguous", f"{player}'s {tile} fits {shown}: name the end to play it on."
            )
        return fits[0]

    def _check_draw(self, draw: Draw) -> None:
        if isinstance(draw.count, bool) or not isinstance(draw.count, int) or draw.count < 1:
            raise MalformedInput(f"A draw takes 1 or more tiles, not {draw.count!r}.")
        hand = self._check_turn(draw.player, "draw")
        can = max(0, hand.boneyard - self.rules.boneyard_reserve)
        if draw.count > can:
            player = self._name(draw.player)
            asked = "a tile" if draw.count == 1 else f"{draw.count} tiles"
            left = f"only {tile_count(can)} can be drawn" if can else "the boneyard is empty"
            if self.rules.boneyard_reserve and hand.boneyard:
                left += f" ({min(hand.boneyard, self.rules.boneyard_reserve)} kept in reserve)"
            then = f"{player} must pass if no tile fits" if can == 0 else f"draw at most {can}"
            raise IllegalEntry("draw-empty", f"{player} cannot draw {asked}: {left}; {then}.")

    def _check_pass(self, passing: Pass) -> None:
        hand = self._check_turn(passing.player, "pass")
        can = max(0, hand.boneyard - self.rules.boneyard_reserve)
        if can:
            raise IllegalEntry(
                "pass-boneyard",
                f"{self._name(passing.player)} cannot pass while {tile_count(can)} "
                "can be drawn: draw until a tile fits.",
            )

    def _check_new_hand(self, new: NewHand) -> None:
        self._check_seat(new.leader)
        if new.chosen is not None and new.chosen not in LEAD_WAYS:
            raise MalformedInput(
                f"{new.chosen!r} is not a way to choose the leader: "
                f"{', '.join(LEAD_WAYS)} (or none recorded)."
            )
        if self.winner is not None:
            raise IllegalEntry("game-over", self._game_over_message())
        hand = self.hand
        if hand is not None and hand.result == "open":
            raise MalformedInput(
                f"Hand {hand.number} is not over (nobody has dominoed and it is not blocked): "
                f"hand {hand.number + 1} cannot begin."
            )
        if hand is not None and hand.settlement is None:
            raise IllegalEntry(
                "remaining",
                f"Hand {hand.number} is over ({self._how_it_ended(hand)}) but not settled: "
                "enter what each player still holds.",
            )
        expected = self.next_leader
        if expected is not None and new.leader != expected:
            assert hand is not None
            raise IllegalEntry(
                "lead",
                f"{self._name(expected)} dominoed in hand {hand.number} and leads hand "
                f"{hand.number + 1}, not {self._name(new.leader)}.",
            )
        if expected is not None and new.chosen is not None:
            assert hand is not None
            raise MalformedInput(
                f"{self._name(expected)} dominoed in hand {hand.number}, so the rules name the "
                f"leader of hand {hand.number + 1}: nobody chose it ({new.chosen!r} given)."
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
                f"Hand {number} is not over (nobody has dominoed and it is not blocked): "
                "there is nothing to settle yet.",
            )
        if hand.settlement is not None:
            raise IllegalEntry("remaining", f"Hand {hand.number} is already settled.")
        return check_remaining(
            remaining, hand.held, hand.layout.on_table, hand.boneyard, self.setup.players
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
                held=[rules.hand_size] * count,
                drawn=[0] * count,
                boneyard=rules.boneyard_size,
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
        gain = play_gain(count, self.sides_in[side], self.scores[side], self.rules)
        points = gain.points
        if gets_in(play_points(count), self.rules):
            self.sides_in[side] = True
        self.scores[side] += points
        hand.plays.append(
            Scored(play.player, play.tile, end, count, points, gain.voided, gain.earned)
        )
        hand.held[play.player] -= 1
        hand.passes = 0
        hand.turn = (play.player + 1) % len(hand.held)
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
        target = self.rules.target
        best = max(self.scores)
        leaders = [side for side, score in enumerate(self.scores) if score == best]
        if best >= target and len(leaders) == 1:
            self.winner = leaders[0]

    # -- messages -------------------------------------------------------------------------

    def _game_over_message(self) -> str:
        assert self.winner is not None
        score = self.scores[self.winner]
        return (
            f"The game is over: {self.sides[self.winner]} won with {score} "
            f"(target {self.rules.target}). Nothing more can be entered."
        )

    def _how_it_ended(self, hand: Hand) -> str:
        if hand.result == "domino" and hand.went_out is not None:
            return f"{self._name(hand.went_out)} dominoed"
        if hand.result == "blocked":
            return "it is blocked: every player passed"
        return "it was won"

    @staticmethod
    def _ends_text(layout: Layout) -> str:
        return listed([f"{end.name} shows {end.shows}" for end in layout.ends()])

    @staticmethod
    def _fits_sentence(layout: Layout, fits: list[str]) -> str:
        if not fits:
            return "It fits no open end."
        return "It fits " + listed([f"{n} (shows {layout.arms[n].value})" for n in fits]) + "."

    def _unknown_end_message(self, layout: Layout, end: str) -> str:
        open_ends = f"The open ends are {self._ends_text(layout)}."
        if end in ("N", "S"):
            if self.rules.spinners == "none":
                why = "this game is played without a spinner"
            else:
                why = "no double has been laid to be the spinner yet"
            return f"There is no {end} end: {why}. {open_ends}"
        if self.rules.spinners != "all":
            return f"There is no {end} end: only with every double a spinner do doubles open arms of their own. {open_ends}"
        double = end.split(":")[0]
        first = layout.spinners[0].tile if layout.spinners else None
        if first is not None and str(first) == double:
            return f"There is no {end} end: {double} is the first spinner, its ends are N and S. {open_ends}"
        return f"There is no {end} end: {double} is not on the table. {open_ends}"
