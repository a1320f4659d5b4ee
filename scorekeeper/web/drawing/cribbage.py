"""The scores as a cribbage board: holes in streets of five-hole groups, two pegs per side.

A game kept in fives to 61 is what a cribbage board is made for: each side's track has 60
holes, 30 out and 30 back, in groups of five, and the game hole at the end; a side moves its
front peg to its new score and leaves the back peg where the front one was, so the board
always shows the last gain as the gap between the two. For other targets the same board
fits the target: one hole per point in fives, one hole per five points otherwise (scores in
points are multiples of five), streets of 30 holes as many as needed.

The board is computed here as data (every hole's place, every peg's hole) and drawn by
``templates/_cribbage.html``. A score below zero (deduct-own can take one there) keeps its
pegs in the start hole, and the board's text says the score. A score past the target (it can
be, without an exact target) puts the peg in the game hole.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from scorekeeper.rules import Game
from scorekeeper.web.languages import gettext as _

STREET = 30
"""Holes in a street (six groups of five), as on a cribbage board."""
GROUP = 5
PITCH = 10
"""The distance between two holes of a group, in SVG units."""
GROUP_GAP = 6
"""The extra space between two groups of five."""
LANE = 13
"""The height of one side's lane in a street."""
STREET_GAP = 12
"""The space between two streets."""
MARGIN = 14
"""The board's edge, where the start holes sit at the first street's beginning."""


@dataclass(frozen=True, slots=True)
class Hole:
    """One hole of a side's track: its number (0 is the start, ``holes`` the game hole)."""

    number: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Track:
    """One side's track and pegs: ``front`` and ``back`` are hole numbers."""

    side: int
    name: str
    score: int
    previous: int
    front: int
    back: int
    holes: tuple[Hole, ...]

    @property
    def front_hole(self) -> Hole:
        """The hole the front peg is in."""
        return self.holes[self.front]

    @property
    def back_hole(self) -> Hole:
        """The hole the back peg is in."""
        return self.holes[self.back]


@dataclass(frozen=True, slots=True)
class Board:
    """A cribbage board for ``target`` (in the game's units), each side a track."""

    target: int
    per_hole: int
    holes: int
    streets: int
    width: float
    height: float
    tracks: tuple[Track, ...]
    unit: str
    """What the target counts, as data (the template and :attr:`summary` word it): "in fives",
    "points" (a hole for every five points) or "" (a hole for every point)."""

    @property
    def game_hole(self) -> tuple[float, float]:
        """Where the game hole is (shared by every side, at the end of the last street)."""
        return self._game_hole(self.streets, len(self.tracks))

    @staticmethod
    def _game_hole(streets: int, sides: int) -> tuple[float, float]:
        last = streets - 1
        x = MARGIN + _street_length() + PITCH if last % 2 == 0 else MARGIN - PITCH
        y = _street_top(last, sides) + sides * LANE / 2
        return x, y

    @property
    def summary(self) -> str:
        """The board in words, for those who cannot see it (in the reader's language)."""
        parts = "; ".join(_side_words(t) for t in self.tracks)
        if self.unit == "in fives":
            return _(
                "Cribbage board to %(target)s in fives: %(sides)s.", target=self.target, sides=parts
            )
        if self.unit == "points":
            return _(
                "Cribbage board to %(target)s points: %(sides)s.", target=self.target, sides=parts
            )
        return _("Cribbage board to %(target)s: %(sides)s.", target=self.target, sides=parts)


def _side_words(track: Track) -> str:
    """A side on the board in words: "Ann 35 (before: 20)"."""
    facts = {"name": track.name, "score": track.score, "previous": track.previous}
    if track.score < 0:
        return _("%(name)s %(score)s (before: %(previous)s), pegs at the start", **facts)
    return _("%(name)s %(score)s (before: %(previous)s)", **facts)


def _street_length() -> float:
    return (STREET - 1) * PITCH + (STREET // GROUP - 1) * GROUP_GAP


def _street_top(street: int, sides: int) -> float:
    return MARGIN + street * (sides * LANE + STREET_GAP)


def _hole_x(index: int, street: int) -> float:
    """The x of the ``index``-th hole (0-based) along a street; odd streets run back."""
    along = index * PITCH + (index // GROUP) * GROUP_GAP
    return MARGIN + (along if street % 2 == 0 else _street_length() - along)


@lru_cache(maxsize=64)
def track_holes(holes: int, sides: int, side: int) -> tuple[Hole, ...]:
    """Every hole of side ``side``'s track: the start, ``holes - 1`` holes, the game hole."""
    streets = max(1, -(-(holes - 1) // STREET))
    lane_y = LANE / 2 + side * LANE
    start = Hole(0, MARGIN - PITCH, _street_top(0, sides) + lane_y)
    placed = [start]
    for number in range(1, holes):
        street, index = divmod(number - 1, STREET)
        placed.append(Hole(number, _hole_x(index, street), _street_top(street, sides) + lane_y))
    x, y = Board._game_hole(streets, sides)
    placed.append(Hole(holes, x, y))
    return tuple(placed)


def hole_of(score: int, per_hole: int, holes: int) -> int:
    """The hole a peg for ``score`` goes in: the start below zero, the game hole past it."""
    return max(0, min(holes, score // per_hole))


def previous_scores(game: Game) -> list[int]:
    """Each side's score before its latest change (a play or a claim that scored, an
    adjustment, a settlement that moved it): where a cribbage board's back peg stands. Hands
    are searched from the current one back, each from the scores it began with, until every
    side's latest change is found: a hand or two, however long the game."""
    sides = len(game.sides)
    previous: list[int | None] = [None] * sides
    for hand in reversed(game.hands):
        running = list(hand.scores_before)
        last: list[int | None] = [None] * sides
        for move in hand.moves:  # its plays, claims and adjustments, in order
            if move.points:
                last[move.side] = running[move.side]
                running[move.side] += move.points
        if hand.settlement is not None:
            for side, change in enumerate(hand.settlement.changes):
                if change:
                    last[side] = running[side]
                    running[side] += change
        for side in range(sides):
            if previous[side] is None:
                previous[side] = last[side]
        if all(p is not None for p in previous):
            break
    return [0 if p is None else p for p in previous]


def board(game: Game) -> Board:
    """The cribbage board of ``game`` as it stands."""
    rules = game.rules
    per_hole = 1 if rules.in_fives or rules.target % 5 else 5
    holes = max(2, -(-rules.target // per_hole))
    sides = len(game.sides)
    streets = max(1, -(-(holes - 1) // STREET))
    previous = previous_scores(game)
    tracks = tuple(
        Track(
            side,
            name,
            game.scores[side],
            previous[side],
            hole_of(game.scores[side], per_hole, holes),
            hole_of(previous[side], per_hole, holes),
            track_holes(holes, sides, side),
        )
        for side, name in enumerate(game.sides)
    )
    width = 2 * MARGIN + _street_length() + PITCH
    height = _street_top(streets, sides)
    unit = "in fives" if rules.in_fives else ("points" if per_hole == 5 else "")
    return Board(rules.target, per_hole, holes, streets, width, height, tracks, unit)
