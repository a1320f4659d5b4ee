"""The referee's rooms: each kind of entry is checked and applied by a module of its own.

A room's ``enter`` checks its entry against the game's state (:mod:`scorekeeper.rules.state`)
and applies it whole, or raises a :class:`~scorekeeper.rules.errors.Refusal` having changed
nothing. :meth:`Game.push <scorekeeper.rules.game.Game.push>` finds the room of an entry in
:data:`ENTER`, so a new kind of entry is a new module here and a row of that table. The rooms
read and change the state; the state knows no room.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.rules.events import Adjust, Claim, Draw, NewHand, Pass, Play, Settle
from scorekeeper.rules.rooms import adjust, claim, draw, lead, play, settle
from scorekeeper.rules.state import GameState

Enter = Callable[[GameState, Any], None]
"""A room's door: check an entry of its kind and apply it, or refuse it changing nothing."""

ENTER: dict[type, Enter] = {
    NewHand: lead.enter,
    Play: play.enter,
    Draw: draw.enter_draw,
    Pass: draw.enter_pass,
    Settle: settle.enter,
    Claim: claim.enter,
    Adjust: adjust.enter,
}
"""The room of each kind of entry, by the entry's type."""
