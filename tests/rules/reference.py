"""A deliberately simple, independent model of the layout and its count (docs/rules.md
sections 5-6).

It is written from the rulebook alone, without the engine's layout code, and is the oracle the
property tests compare the engine with. Tiles are plain pairs of ints; the lead is given as
entered (``W`` shows its first number); every count is recomputed from the whole list of plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RefPlay = tuple[int, int, str | None]
"""One play: the two halves (for the lead in the order entered) and the end named, or None."""


class NotAllowed(Exception):
    """The reference table cannot place this play (no such end, no match, ambiguous, reused)."""


@dataclass
class _Piece:
    """A tile on the table: its halves, the number it shows outward, whether it is a spinner."""

    halves: tuple[int, int]
    shows: int
    spinner: bool

    @property
    def double(self) -> bool:
        return self.halves[0] == self.halves[1]


@dataclass
class _Branch:
    """A row of tiles growing away from the lead or from a spinner's end."""

    start: int
    grows_from_spinner_end: bool
    pieces: list[_Piece] = field(default_factory=list)

    def shows(self) -> int:
        return self.pieces[-1].shows if self.pieces else self.start


@dataclass
class _SpinnerInfo:
    """Where a spinner lies (branch and index, or None for the lead) and the names of its ends."""

    number: int
    branch: str | None
    index: int
    end_names: tuple[str, str]
    opened: bool = False


class RefTable:
    """The table built play by play, straight from the rule text."""

    def __init__(self, spinners: str, spinner_counts: str) -> None:
        if spinners not in ("first", "none", "all"):
            raise ValueError(spinners)
        if spinner_counts not in ("yes", "no", "open-ends"):
            raise ValueError(spinner_counts)
        self.mode = spinners
        self.spinner_counts = spinner_counts
        self.lead: _Piece | None = None
        self.branches: dict[str, _Branch] = {}
        self.spinners: list[_SpinnerInfo] = []
        self.used: set[tuple[int, int]] = set()

    # -- what can be seen -------------------------------------------------------------------

    def open_ends(self) -> dict[str, int]:
        """Every open end (arm name) and the number it shows."""
        return {name: branch.shows() for name, branch in self.branches.items()}

    def fits(self, a: int, b: int) -> set[str]:
        """The open ends a tile with halves ``a`` and ``b`` could go on."""
        return fits_any_of(self.open_ends(), a, b)

    def closed_spinner_ends(self) -> set[str]:
        """End names of spinners on the table whose ends have not opened yet."""
        return {name for s in self.spinners if not s.opened for name in s.end_names}

    def on_table(self) -> set[tuple[int, int]]:
        """The tiles on the table, each as (high, low)."""
        return set(self.used)

    # -- placing ----------------------------------------------------------------------------

    def _is_new_spinner(self, a: int, b: int) -> bool:
        if a != b or self.mode == "none":
            return False
        return self.mode == "all" or not self.spinners

    def _names_for_spinner(self, number: int) -> tuple[str, str]:
        if not self.spinners:
            return ("N", "S")
        return (f"{number}-{number}:N", f"{number}-{number}:S")

    def play(self, a: int, b: int, end: str | None) -> str | None:
        """Place one tile; return the end it went on (None for the lead)."""
        key = (max(a, b), min(a, b))
        if key in self.used:
            raise NotAllowed(f"{key} is already on the table")
        spinner = self._is_new_spinner(a, b)
        if self.lead is None:
            self.lead = _Piece((a, b), b, spinner)
            self.branches = {"W": _Branch(a, False), "E": _Branch(b, False)}
            if spinner:
                self.spinners.append(_SpinnerInfo(a, None, 0, self._names_for_spinner(a)))
            self.used.add(key)
            return None
        ends = self.open_ends()
        if end is None:
            matching = [name for name, n in ends.items() if n in (a, b)]
            if len(matching) != 1:
                raise NotAllowed(f"{key} fits {matching}")
            end = matching[0]
        if end not in ends:
            raise NotAllowed(f"no open end {end}")
        touching = ends[end]
        if touching not in (a, b):
            raise NotAllowed(f"{key} does not show {touching}")
        outward = b if a == touching else a
        branch = self.branches[end]
        if spinner:
            self.spinners.append(
                _SpinnerInfo(a, end, len(branch.pieces), self._names_for_spinner(a))
            )
        branch.pieces.append(_Piece((a, b), outward, spinner))
        self.used.add(key)
        self._open_spinners()
        return end

    def _sides_covered(self, s: _SpinnerInfo) -> int:
        if s.branch is None:
            return int(bool(self.branches["W"].pieces)) + int(bool(self.branches["E"].pieces))
        # Laid onto a branch: the tile it was played on covers one side, the next one the other.
        return 2 if len(self.branches[s.branch].pieces) > s.index + 1 else 1

    def _open_spinners(self) -> None:
        for s in self.spinners:
            if not s.opened and self._sides_covered(s) == 2:
                s.opened = True
                for name in s.end_names:
                    self.branches[name] = _Branch(s.number, True)

    # -- the count --------------------------------------------------------------------------

    def _tip_pips(self, piece: _Piece) -> int:
        if piece.double:
            if piece.spinner and self.spinner_counts == "no":
                return 0
            return 2 * piece.halves[0]
        return piece.shows

    def count(self) -> int:
        """The sum of the open ends (section 6)."""
        if self.lead is None:
            return 0
        if len(self.used) == 1:
            lead = self.lead
            if lead.spinner and self.spinner_counts == "no":
                return 0
            return lead.halves[0] + lead.halves[1]
        total = 0
        for branch in self.branches.values():
            if branch.pieces:
                total += self._tip_pips(branch.pieces[-1])
            elif branch.grows_from_spinner_end:
                # Section 6: an empty open end of a spinner adds its number with
                # open-ends (Sniff), nothing otherwise.
                total += branch.start if self.spinner_counts == "open-ends" else 0
            elif self.lead.double:
                total += self._tip_pips(self.lead)
            else:
                total += branch.start
        return total


def fits_any_of(open_ends: dict[str, int], a: int, b: int) -> set[str]:
    """Which of ``open_ends`` (as :meth:`RefTable.open_ends` gives them) a tile with halves
    ``a`` and ``b`` could go on."""
    return {name for name, n in open_ends.items() if n in (a, b)}


def build(plays: Iterable[RefPlay], spinners: str, spinner_counts: str) -> RefTable:
    """A fresh table with ``plays`` placed in order."""
    table = RefTable(spinners, spinner_counts)
    for a, b, end in plays:
        table.play(a, b, end)
    return table


def count_of(plays: Sequence[RefPlay], spinners: str, spinner_counts: str) -> int:
    """The count after ``plays``, recomputed from scratch."""
    return build(plays, spinners, spinner_counts).count()


def round_to_nearest_five(pips: int) -> int:
    """The multiple of five nearest to ``pips`` (never a tie for whole numbers)."""
    below = pips - pips % 5
    return below if pips - below <= 2 else below + 5
