"""How players say a tile's name aloud, in the reader's language: "six-four", "double five",
"twelve-seven".

The tile tray, the held tiles and the layout picture all give a tile's name to screen
readers; one table of names serves them all, up to the double-twelve set's twelve.
"""

from __future__ import annotations

from scorekeeper.rules.tiles import Tile
from scorekeeper.web.languages import lazy_gettext as _l

_NUMBERS = (
    _l("blank"),
    _l("one"),
    _l("two"),
    _l("three"),
    _l("four"),
    _l("five"),
    _l("six"),
    _l("seven"),
    _l("eight"),
    _l("nine"),
    _l("ten"),
    _l("eleven"),
    _l("twelve"),
)
"""The numbers of a tile's halves as players say them ("six-four"), by number."""
_DOUBLES = (
    _l("double blank"),
    _l("double one"),
    _l("double two"),
    _l("double three"),
    _l("double four"),
    _l("double five"),
    _l("double six"),
    _l("double seven"),
    _l("double eight"),
    _l("double nine"),
    _l("double ten"),
    _l("double eleven"),
    _l("double twelve"),
)
"""The doubles as players say them, by number."""


def tile_spoken(tile: Tile) -> str:
    """The name players say aloud, in the reader's language: "six-four", "double five"."""
    if tile.is_double:
        return str(_DOUBLES[tile.high])
    return f"{_NUMBERS[tile.high]}-{_NUMBERS[tile.low]}"
