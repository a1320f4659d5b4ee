"""The layout on the table: the line, the spinners and their arms, the open ends and the count.

The lead tile starts the line; its ends are the arms ``W`` and ``E`` (for a lead ``a-b`` as
entered, ``W`` shows ``a``). A tile is played against the open end at the tip of an arm.
A spinner is laid crosswise and takes four tiles: its two sides continue the line, and its
two ends open new arms (``N`` and ``S`` for the first spinner, ``d-d:N`` and ``d-d:S`` for a
later one) once both sides are covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.rules.house_rule import SpinnerCounts, SpinnerMode
from scorekeeper.rules.messages import Fact, Message, say
from scorekeeper.rules.tiles import DOUBLE_SIX, LARGEST, Tile, TileSet

ARM_NAMES = frozenset(
    ["W", "E", "N", "S"] + [f"{d}-{d}:{side}" for d in range(13) for side in "NS"]
)
"""Every arm name of any set (a double-twelve's later spinners reach 12-12:N)."""
_ORDER = {"W": 0, "E": 1, "N": 2, "S": 3}


def _reading_order(name: str) -> tuple[int, int, str]:
    """W, E, N, S, then later spinners' arms by the double's number (3-3:N before 12-12:N,
    which text order would turn round), N before S."""
    if name in _ORDER:
        return (_ORDER[name], 0, name)
    return (4, int(name.split("-", 1)[0]), name)


def is_arm_name(name: str, top: int = 6) -> bool:
    """Whether ``name`` is spelled as an arm: ``W``, ``E``, ``N``, ``S``, ``d-d:N`` or ``d-d:S``
    with ``d`` a number of the set (0 to ``top``)."""
    if name not in ARM_NAMES:
        return False
    return len(name) == 1 or int(name.split("-", 1)[0]) <= top


END_NAMES: dict[str, Fact] = {
    "west": "W",
    "east": "E",
    "north": "N",
    "south": "S",
    "later_north": "d-d:N",
    "later_south": "d-d:S",
    "later": "d-d",
}
"""The ends' names as a message's facts: what a player types, never translated."""


def not_an_end(shown: str, name: object = None, tiles: TileSet = DOUBLE_SIX) -> Message:
    """The refusal of ``shown`` (a value as the entry gave it) as an end's name; ``name`` is
    the value itself: a later spinner's arm of a double the game's ``tiles`` lack is said so."""
    if isinstance(name, str) and is_arm_name(name, LARGEST):
        top = tiles.top
        return say(
            "%(end)s is not an end: a %(set)s set has no %(double)s, its doubles go up to %(top)s.",
            end=shown,
            set=tiles.spoken,
            double=name.split(":", 1)[0],
            top=f"{top}-{top}",
        )
    return say(
        "%(end)s is not an end: the ends are %(west)s, %(east)s, %(north)s, %(south)s, and "
        "%(later_north)s or %(later_south)s for a later spinner %(later)s.",
        end=shown,
        **END_NAMES,
    )


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the table: ``outer`` is the number it shows away from where it was played."""

    tile: Tile
    outer: int
    spinner: bool


@dataclass(slots=True)
class Arm:
    """A line of tiles growing outward from the lead or from a spinner's end.

    ``value`` is the number shown at the open end at the arm's tip: ``base`` while empty.
    """

    name: str
    base: int
    from_spinner_end: bool
    tiles: list[Placed] = field(default_factory=list)
    value: int = -1

    def __post_init__(self) -> None:
        self.value = self.tiles[-1].outer if self.tiles else self.base

    def append(self, placed: Placed) -> None:
        """Lay ``placed`` at the tip."""
        self.tiles.append(placed)
        self.value = placed.outer


@dataclass(slots=True)
class Spinner:
    """A spinner: the arm it lies in (None for the lead), its place there, and its two ends."""

    tile: Tile
    arm: str | None
    position: int
    ends: tuple[str, str]
    opened: bool = False


@dataclass(frozen=True, slots=True)
class End:
    """An open end: the arm's name and the number it shows."""

    name: str
    shows: int


class Layout:
    """The tiles on the table and what they add up to."""

    def __init__(
        self, spinners: SpinnerMode = "first", spinner_counts: SpinnerCounts = "yes"
    ) -> None:
        self.spinner_mode = spinners
        self.spinner_counts = spinner_counts
        self.lead: Placed | None = None
        self.arms: dict[str, Arm] = {}
        self.spinners: list[Spinner] = []
        self.on_table: set[Tile] = set()
        self.pips = 0

    def copy(self) -> Layout:
        """An independent copy."""
        other = Layout(self.spinner_mode, self.spinner_counts)
        other.lead = self.lead
        other.arms = {
            name: Arm(arm.name, arm.base, arm.from_spinner_end, list(arm.tiles))
            for name, arm in self.arms.items()
        }
        other.spinners = [
            Spinner(s.tile, s.arm, s.position, s.ends, s.opened) for s in self.spinners
        ]
        other.on_table = set(self.on_table)
        other.pips = self.pips
        return other

    def __len__(self) -> int:
        return len(self.on_table)

    # -- what is open -------------------------------------------------------------------

    def ends(self) -> list[End]:
        """The open ends in reading order: W, E, N, S, then later spinners' arms."""
        return [End(name, arm.value) for name, arm in self.arms.items()]

    def fits(self, tile: Tile) -> list[str]:
        """The open ends ``tile`` can be played on, in reading order."""
        high, low = tile.high, tile.low
        return [name for name, arm in self.arms.items() if arm.value in (high, low)]

    def closed_spinner(self, name: str) -> Spinner | None:
        """The spinner whose end ``name`` is, while that end is not yet open."""
        for spinner in self.spinners:
            if not spinner.opened and name in spinner.ends:
                return spinner
        return None

    def spinner_sides_covered(self, spinner: Spinner) -> int:
        """How many of the spinner's two sides have a tile against them."""
        if spinner.arm is None:
            return sum(1 for name in ("W", "E") if self.arms[name].tiles)
        arm = self.arms[spinner.arm]
        return 1 + (len(arm.tiles) > spinner.position + 1)

    def spinner_side_arms(self, spinner: Spinner) -> list[str]:
        """The arms whose tips are the spinner's uncovered sides."""
        if spinner.arm is None:
            return [name for name in ("W", "E") if not self.arms[name].tiles]
        return [spinner.arm]

    # -- placing tiles ----------------------------------------------------------------------

    def _makes_spinner(self, tile: Tile) -> bool:
        if not tile.is_double or self.spinner_mode == "none":
            return False
        return self.spinner_mode == "all" or not self.spinners

    def _spinner_ends(self, tile: Tile) -> tuple[str, str]:
        if not self.spinners:
            return ("N", "S")
        return (f"{tile}:N", f"{tile}:S")

    def place_lead(self, tile: Tile, flipped: bool = False) -> None:
        """Start the line with ``tile``; ``flipped`` puts its low half on W."""
        spinner = self._makes_spinner(tile)
        west, east = (tile.low, tile.high) if flipped else (tile.high, tile.low)
        if spinner:
            self.spinners.append(Spinner(tile, None, 0, self._spinner_ends(tile)))
        self.lead = Placed(tile, east, spinner)
        self.arms = {"W": Arm("W", west, False), "E": Arm("E", east, False)}
        self.on_table.add(tile)
        self.pips += tile.pips

    def place(self, tile: Tile, end: str) -> None:
        """Play ``tile`` on the open end ``end``; the caller has checked that it fits."""
        arm = self.arms[end]
        spinner = self._makes_spinner(tile)
        if spinner:
            self.spinners.append(Spinner(tile, end, len(arm.tiles), self._spinner_ends(tile)))
        arm.append(Placed(tile, tile.other(arm.value), spinner))
        self.on_table.add(tile)
        self.pips += tile.pips
        opened = False
        for waiting in self.spinners:
            if waiting.opened:
                continue
            if self.spinner_sides_covered(waiting) == 2:
                waiting.opened = opened = True
                number = waiting.tile.high
                for name in waiting.ends:
                    self.arms[name] = Arm(name, number, True)
        if opened:
            names = sorted(self.arms, key=_reading_order)
            self.arms = {name: self.arms[name] for name in names}

    # -- the count --------------------------------------------------------------------------

    def _tip_value(self, placed: Placed, shows: int) -> int:
        if not placed.tile.is_double:
            return shows
        if placed.spinner and self.spinner_counts == "no":
            return 0
        return placed.tile.pips

    def _empty_end_value(self, arm: Arm) -> int:
        """What an open spinner end with nothing on it adds: its spinner's number with
        ``spinner_counts: open-ends`` (Sniff), else nothing."""
        return arm.base if self.spinner_counts == "open-ends" else 0

    def contributions(self) -> list[tuple[str, Placed | None, int]]:
        """Each open end's share of the count: (arm, tile at its tip or None if empty, pips).

        A lone lead tile is counted once, under ``W``.
        """
        if self.lead is None:
            return []
        if len(self.on_table) == 1:
            return [("W", self.lead, self._tip_value(self.lead, self.lead.tile.pips))]
        shares: list[tuple[str, Placed | None, int]] = []
        for end in self.ends():
            arm = self.arms[end.name]
            if arm.tiles:
                tip = arm.tiles[-1]
            elif arm.from_spinner_end:
                shares.append((end.name, None, self._empty_end_value(arm)))
                continue
            else:
                tip = self.lead
            shares.append((end.name, tip, self._tip_value(tip, end.shows)))
        return shares

    def count(self) -> int:
        """The sum of the open ends after the last play (section 6 of the rules)."""
        lead = self.lead
        if lead is None:
            return 0
        if len(self.on_table) == 1:
            return self._tip_value(lead, lead.tile.pips)
        counts = self.spinner_counts != "no"
        open_ends = self.spinner_counts == "open-ends"
        total = 0
        for arm in self.arms.values():
            tiles = arm.tiles
            if tiles:
                tip = tiles[-1]
            elif arm.from_spinner_end:
                if open_ends:
                    total += arm.base
                continue
            else:
                tip = lead
            tile = tip.tile
            if tile.high != tile.low:
                total += arm.value
            elif counts or not tip.spinner:
                total += tile.high * 2
        return total
