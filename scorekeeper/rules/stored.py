"""An event as the database stores it: its kind and a JSON object of its facts, a row each.

The game record (:mod:`scorekeeper.rules.record`) writes a whole game for people and other
programs, hand by hand with the players' names; this is the other way an event is written
down, one row of the event table per event, seats by number. Both read what they wrote back
into the same events; stored rows never change their shape (migrations would have to), so
the kinds and field names are fixed. Each kind's room writes and reads its own rows
(:data:`scorekeeper.rules.rooms.KINDS`).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import Event
from scorekeeper.rules.messages import say
from scorekeeper.rules.rooms import KIND_OF, STORED_AS, StoredKind

__all__ = ["StoredKind", "event_of", "stored_event"]


def stored_event(event: Event) -> tuple[StoredKind, dict[str, Any]]:
    """The stored kind and data of ``event``."""
    kind = KIND_OF[type(event)]
    return kind.stored, kind.store(event)


def event_of(kind: str, data: dict[str, Any]) -> Event:
    """The event stored as ``kind`` and ``data``."""
    found = STORED_AS.get(kind)
    if found is None:
        raise MalformedInput(say("%(kind)s is not a stored event kind.", kind=repr(kind)))
    return found.restore(data)
