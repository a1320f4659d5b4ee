"""Double-six tiles: the 28 pairs ``a-b`` with 0 <= a <= b <= 6, written high number first."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import say

TOTAL_PIPS = 168
_SPELLING = re.compile(r"^\s*([0-6])\s*[-|: ]?\s*([0-6])\s*$")


@dataclass(frozen=True, slots=True)
class Tile:
    """One domino; ``high`` >= ``low``. Use :func:`tile` or :func:`parse_tile` to get one."""

    high: int
    low: int

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self})"

    def __hash__(self) -> int:
        return self.high * 8 + self.low

    @property
    def pips(self) -> int:
        """Both halves added up."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """A double has two equal halves and is laid crosswise."""
        return self.high == self.low

    def has(self, number: int) -> bool:
        """Whether one half shows ``number``."""
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The half opposite the one showing ``number`` (the double's own number for a double)."""
        return self.low if self.high == number else self.high


_TILES = {(a, b): Tile(max(a, b), min(a, b)) for a in range(7) for b in range(7)}
ALL_TILES: tuple[Tile, ...] = tuple(
    sorted({t for t in _TILES.values()}, key=lambda t: (-t.high, -t.low))
)


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in either order."""
    try:
        return _TILES[(a, b)]
    except KeyError:
        raise MalformedInput(say("%(tile)s is not a double-six tile.", tile=f"{a}-{b}")) from None


_PLAIN = {f"{a}-{b}": (a, b) for a in range(7) for b in range(7)}


def parse_halves(text: object) -> tuple[int, int]:
    """The two halves of a tile written as ``6-4``, ``4-6``, ``4 6`` or ``46``, in the order written."""
    if isinstance(text, str) and text in _PLAIN:
        return _PLAIN[text]
    if not isinstance(text, str):
        raise MalformedInput(
            say(
                'A tile is written as text such as "%(example)s", not %(given)s.',
                example="6-4",
                given=repr(text),
            )
        )
    match = _SPELLING.match(text)
    if match is None:
        raise MalformedInput(
            say(
                '"%(given)s" is not a double-six tile: write two numbers from 0 to 6, '
                'such as "%(example)s".',
                given=text,
                example="6-4",
            )
        )
    return int(match.group(1)), int(match.group(2))


def parse_tile(text: object) -> Tile:
    """The tile named by ``text`` in any accepted spelling."""
    a, b = parse_halves(text)
    return _TILES[(a, b)]
