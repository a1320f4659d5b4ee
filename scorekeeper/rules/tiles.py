"""Domino tiles and sets: a double-six set holds the 28 pairs ``a-b`` with 0 <= a <= b <= 6,
a double-nine 55 and a double-twelve 91 (house rule ``set``); a tile is written high number
first. With a larger set a tile is always written with a separator (``12-7``): ``127`` could
be 12-7 or 1-27."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import Message, say

TOTAL_PIPS = 168
"""The pips of a double-six set."""
LARGEST = 12
"""The highest number on a tile of any set the app knows (double-twelve)."""
_SPELLING = re.compile(r"^\s*([0-6])\s*[-|: ]?\s*([0-6])\s*$")
_SEPARATED = re.compile(r"^\s*(\d{1,2})\s*[-|: ]\s*(\d{1,2})\s*$")


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
        return self.high * 16 + self.low

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


_TILES = {
    (a, b): Tile(max(a, b), min(a, b)) for a in range(LARGEST + 1) for b in range(LARGEST + 1)
}


def _set_of(top: int) -> tuple[Tile, ...]:
    """Every tile with halves from 0 to ``top``, highest first."""
    return tuple(_TILES[(a, b)] for a in range(top, -1, -1) for b in range(a, -1, -1))


ALL_TILES: tuple[Tile, ...] = _set_of(6)
"""The 28 tiles of a double-six set, highest first."""


@dataclass(frozen=True)
class TileSet:
    """A set of dominoes: every pair of numbers from 0 to ``top``, each once."""

    name: str
    top: int

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the set, highest first."""
        return _SETS_TILES[self.top]

    @property
    def size(self) -> int:
        """How many tiles the set holds: 28, 55 or 91."""
        return (self.top + 1) * (self.top + 2) // 2

    @property
    def total_pips(self) -> int:
        """All the set's pips: 168, 495 or 1,092."""
        return self.top * self.size

    @property
    def spoken(self) -> Message:
        """The set's name as a message's fact: the house-rule value in English, said in the
        reader's own words elsewhere (sv *dubbel-9*), as a sentence around it is."""
        return SET_NAMES[self.name]

    def holds(self, t: Tile) -> bool:
        """Whether ``t`` is a tile of this set."""
        return t.high <= self.top

    def parse(self, text: object) -> Tile:
        """The tile of this set named by ``text`` (``6-4``, ``4 6``; ``46`` only in double-six)."""
        a, b = self.parse_halves(text)
        return _TILES[(a, b)]

    def parse_halves(self, text: object) -> tuple[int, int]:
        """The two halves of a tile of this set, in the order written."""
        if self.top == 6:
            return parse_halves(text)
        text = _as_text(text, "12-7")
        match = _SEPARATED.match(text)
        if match is None or max(int(match.group(1)), int(match.group(2))) > self.top:
            raise MalformedInput(
                say(
                    '"%(given)s" is not a %(set)s tile: write two numbers from 0 to %(top)s '
                    'with a dash between them, such as "%(example)s".',
                    given=text,
                    set=self.spoken,
                    top=self.top,
                    example=f"{self.top}-7",
                )
            )
        return int(match.group(1)), int(match.group(2))


_SETS_TILES = {top: _set_of(top) for top in (6, 9, 12)}
SET_NAMES: dict[str, Message] = {
    "double-six": say("double-six"),
    "double-nine": say("double-nine"),
    "double-twelve": say("double-twelve"),
}
"""The sets' names in words, by their house-rule name: a sentence names the set in the
reader's language (``%(set)s``), as it names a tile's double."""
DOUBLE_SIX = TileSet("double-six", 6)
TILE_SETS: dict[str, TileSet] = {
    s.name: s for s in (DOUBLE_SIX, TileSet("double-nine", 9), TileSet("double-twelve", 12))
}
"""The sets by their house-rule name."""


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in either order (any number from 0 to 12)."""
    try:
        return _TILES[(a, b)]
    except KeyError:
        raise MalformedInput(say("%(tile)s is not a double-six tile.", tile=f"{a}-{b}")) from None


def _as_text(text: object, example: str) -> str:
    """``text``, which must be a string; else the refusal, with ``example`` of a set's tile."""
    if not isinstance(text, str):
        raise MalformedInput(
            say(
                'A tile is written as text such as "%(example)s", not %(given)s.',
                example=example,
                given=repr(text),
            )
        )
    return text


_PLAIN = {f"{a}-{b}": (a, b) for a in range(7) for b in range(7)}


def parse_halves(text: object) -> tuple[int, int]:
    """The two halves of a double-six tile written as ``6-4``, ``4-6``, ``4 6`` or ``46``, in
    the order written."""
    if isinstance(text, str) and text in _PLAIN:
        return _PLAIN[text]
    text = _as_text(text, "6-4")
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
    """The double-six tile named by ``text`` in any accepted spelling."""
    a, b = parse_halves(text)
    return _TILES[(a, b)]


def stored_tile(text: str) -> Tile:
    """A tile as the app writes it (``12-7``), of any set: what the database keeps."""
    match = _SEPARATED.match(text)
    if match is None or max(int(match.group(1)), int(match.group(2))) > LARGEST:
        raise MalformedInput(say("%(given)s is not a tile.", given=repr(text)))
    return _TILES[(int(match.group(1)), int(match.group(2)))]
