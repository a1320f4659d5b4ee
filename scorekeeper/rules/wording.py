"""How the referee words what it says in English, in one place: a list of names, a score change
with its sign, whether a side is a partnership, so that one table reads the same on the
page, in the log and in a record.

These are English (:mod:`scorekeeper.rules.messages` says English with :func:`listed`, so this
module cannot use messages in turn). A sentence for a reader of any language is a message
whose facts are names, tiles and numbers: its words for a number of tiles or a side that wins
are written where it is said (``"%(count)s tile"`` in :mod:`scorekeeper.rules.explain`), and
:func:`partnership` tells which of a message's two texts a side takes ("wins" or "win")."""

from __future__ import annotations

from collections.abc import Sequence


def listed(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def signed(points: int) -> str:
    """A score change with its sign: "+15", "-10", "0"."""
    return f"{points:+d}" if points else "0"


def partnership(side: str) -> bool:
    """Whether a side's name is a partnership's, two players ("Ann & Cy"): a plural subject."""
    return " & " in side
