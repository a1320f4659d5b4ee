"""How players say a tile's name aloud, in the reader's language: "six-four", "double five".

The tile tray, the held tiles and the layout picture all give a tile's name to screen
readers; one table of names serves them all.
"""

from __future__ import annotations

from scorekeeper.rules.tiles import Tile
from scorekeeper.web.languages import lazy_gettext as _l

_NUMBERS = (_l("blank"), _l("one"), _l("two"), _l("three"), _l("four"), _l("five"), _l("six"))
"""The numbers of a tile's halves as players say them ("six-four"), by number."""
_DOUBLES = (
    _l("double blank"),
    _l("double one"),
    _l("double two"),
    _l("double three"),
    _l("double four"),
    _l("double five"),
    _l("double six"),
)
"""The doubles as players say them, by number."""


def tile_spoken(tile: Tile) -> str:
    """The name players say aloud, in the reader's language: "six-four", "double five"."""
    if tile.high > 6:  # stopgap until i24-tray names 7 to 12
        return str(tile)
    if tile.is_double:
        return str(_DOUBLES[tile.high])
    return f"{_NUMBERS[tile.high]}-{_NUMBERS[tile.low]}"
