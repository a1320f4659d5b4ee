"""What a player still holds at the end of a hand, as the settlement form sends it.

Each player has a text field, ``held-<seat>`` (a pip total such as ``13``, or tiles such as
``6-1 0-0``, with a larger set ``12-7 9-0``), and a tray of the tiles not on the table to tap instead: checkboxes named
``tiles-<seat>``. With JavaScript the tray writes the tiles tapped into the field; without it
only the boxes are sent. Either way the referee gets one answer per player, or a refusal
(rule ``remaining``) when the field and the tray disagree, worded as the referee's messages
are (said in the reader's language, English in the record).
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.rules import Held, MalformedInput, Refusal, Tile
from scorekeeper.rules.entering import parse_held
from scorekeeper.rules.messages import say
from scorekeeper.rules.tiles import DOUBLE_SIX, TILE_SETS, TileSet

MAX_TICKED = max(tiles.size for tiles in TILE_SETS.values())
"""No hand holds more tiles than the largest set has; more boxes than that are not read."""


def tiles_named(text: str, tiles: TileSet = DOUBLE_SIX) -> tuple[Tile, ...]:
    """The tiles of ``tiles`` a field names ("6-1 0-0", "12-7 9-0"); none when it holds a pip
    total, blank or typos."""
    try:
        held = parse_held("", text, tiles)
    except Refusal:
        return ()
    return held if isinstance(held, tuple) else ()


def _ticked_tiles(name: str, ticked: Sequence[str], tiles: TileSet) -> tuple[Tile, ...]:
    found: list[Tile] = []
    for value in ticked[:MAX_TICKED]:
        try:
            found.append(tiles.parse(value))
        except MalformedInput:
            if tiles.top == DOUBLE_SIX.top:
                why = say(
                    '%(player)s: "%(value)s" tapped on the tray is not a double-six tile.',
                    player=name,
                    value=value,
                )
            else:
                why = say(
                    '%(player)s: "%(value)s" tapped on the tray is not a tile of a %(set)s set.',
                    player=name,
                    value=value,
                    set=tiles.spoken,
                )
            raise Refusal("remaining", why) from None
    return tuple(found)


def held_of(
    name: str, text: str, ticked: Sequence[str], tiles: TileSet = DOUBLE_SIX
) -> Held | None:
    """One player's answer from the field and the tiles tapped; None when both are empty.

    The tiles tapped are taken when the field is blank, or when it says the same: the same
    tiles, or their pip total. A field that says something else is refused, so that nothing
    is settled on an answer the scorekeeper did not mean.
    """
    typed = parse_held(name, text, tiles)
    tapped = _ticked_tiles(name, ticked, tiles)
    if not tapped:
        return typed
    if typed is None:
        return tapped
    pips = sum(t.pips for t in tapped)
    if isinstance(typed, int) and typed == pips:
        return tapped
    if isinstance(typed, tuple) and sorted(typed, key=str) == sorted(tapped, key=str):
        return tapped
    shown = " ".join(str(t) for t in tapped)
    raise Refusal(
        "remaining",
        say(
            '%(player)s: the field says "%(typed)s" but the tiles tapped (%(tiles)s) hold '
            "%(pips)s pips. Clear the field or untap the tiles, so that one answer is left.",
            player=name,
            typed=text.strip(),
            tiles=shown,
            pips=pips,
        ),
    )
