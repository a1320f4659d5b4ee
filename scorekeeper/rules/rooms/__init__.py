"""The referee's rooms: each kind of entry is checked, applied and stored by a module of its own.

A room's ``enter`` checks its entry against the game's state (:mod:`scorekeeper.rules.state`)
and applies it whole, or raises a :class:`~scorekeeper.rules.errors.Refusal` having changed
nothing; its ``store`` and ``restore`` write the entry as a row of the event table and read it
back (:mod:`scorekeeper.rules.stored`). :meth:`Game.push <scorekeeper.rules.game.Game.push>`
finds the room of an entry in :data:`KINDS`. The rooms read and change the state; the state
knows no room.

A new kind of entry, the checklist:

1. its event, a frozen dataclass in :mod:`scorekeeper.rules.events` (and in ``Event``);
2. its room here: ``enter``, ``store`` and ``restore``, and its row in :data:`KINDS`;
3. what the Why? says of it: a module in :mod:`scorekeeper.rules.explain` and its row in
   ``TELLING`` there (the explanation reads the whole game, so it sits above
   :class:`~scorekeeper.rules.game.Game`, which needs this table: one table cannot hold both);
4. how the game record writes and reads it (:mod:`scorekeeper.rules.record`, ``_WRITERS``,
   and :mod:`scorekeeper.rules.reading`, ``_READERS``), the public ``all-fives/1`` format.

``tests/rules/test_kinds.py`` fails, naming what is missing, until every kind has all four.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scorekeeper.rules.events import (
    Adjust,
    Claim,
    Draw,
    Event,
    Guess,
    NewHand,
    Pass,
    Play,
    Settle,
    TimeCalled,
)
from scorekeeper.rules.rooms import adjust, claim, draw, guess, lead, play, settle, time
from scorekeeper.rules.state import GameState

StoredKind = Literal[
    "play", "draw", "pass", "new_hand", "settle", "muggins", "adjust", "guess", "time"
]
"""An event's kind as the event table stores it: fixed, since stored rows never change."""


@dataclass(frozen=True)
class Kind:
    """One kind of entry: its event type, its stored name, and its room's three doors."""

    event: type
    stored: StoredKind
    enter: Callable[[GameState, Any], None]
    """Check an entry of this kind and apply it, or refuse it changing nothing."""
    store: Callable[[Any], dict[str, Any]]
    """The entry as its stored row's data (JSON)."""
    restore: Callable[[Mapping[str, Any]], Event]
    """The entry a stored row's data holds."""


KINDS: tuple[Kind, ...] = (
    Kind(NewHand, "new_hand", lead.enter, lead.store, lead.restore),
    Kind(Play, "play", play.enter, play.store, play.restore),
    Kind(Draw, "draw", draw.enter_draw, draw.store_draw, draw.restore_draw),
    Kind(Pass, "pass", draw.enter_pass, draw.store_pass, draw.restore_pass),
    Kind(Settle, "settle", settle.enter, settle.store, settle.restore),
    Kind(Claim, "muggins", claim.enter, claim.store, claim.restore),
    Kind(Adjust, "adjust", adjust.enter, adjust.store, adjust.restore),
    Kind(Guess, "guess", guess.enter, guess.store, guess.restore),
    Kind(TimeCalled, "time", time.enter, time.store, time.restore),
)
"""Every kind of entry, a row each."""

KIND_OF: dict[type, Kind] = {kind.event: kind for kind in KINDS}
"""The kind of an entry, by the entry's exact type."""

STORED_AS: dict[str, Kind] = {kind.stored: kind for kind in KINDS}
"""The kind of a stored row, by the row's kind."""
