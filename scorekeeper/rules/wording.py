"""How the referee words what it says, in one place: a list of names, a number of tiles, a
score change with its sign, a side that wins. Every message of the rules and of the site is
built from these, so that one table reads the same on the page, in the log and in a record."""

from __future__ import annotations

from collections.abc import Sequence


def listed(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def tile_count(count: int) -> str:
    """ "1 tile", "7 tiles"."""
    return f"{count} tile{'' if count == 1 else 's'}"


def signed(points: int) -> str:
    """A score change with its sign: "+15", "-10", "0"."""
    return f"{points:+d}" if points else "0"


def wins(side: str) -> str:
    """ "Ann wins", "Ann & Cy win": a partnership is two players."""
    return f"{side} win" if " & " in side else f"{side} wins"
