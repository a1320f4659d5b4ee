"""An event as the database stores it: its kind and a JSON object of its facts, a row each.

The game record (:mod:`scorekeeper.rules.record`) writes a whole game for people and other
programs, hand by hand with the players' names; this is the other way an event is written
down, one row of the event table per event, seats by number. Both read what they wrote back
into the same events; stored rows never change their shape (migrations would have to), so
the kinds and field names here are fixed.
"""

from __future__ import annotations

from typing import Any, Literal

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import Adjust, Claim, Draw, Event, Held, NewHand, Pass, Play, Settle
from scorekeeper.rules.messages import say
from scorekeeper.rules.tiles import stored_tile

StoredKind = Literal["play", "draw", "pass", "new_hand", "settle", "muggins", "adjust"]
"""An event's kind as the event table stores it."""


def stored_event(event: Event) -> tuple[StoredKind, dict[str, Any]]:
    """The stored kind and data of ``event``."""
    if isinstance(event, Play):
        played: dict[str, Any] = {
            "player": event.player,
            "tile": str(event.tile),
            "end": event.end,
            "flipped": event.flipped,
        }
        if event.called is not None:  # only under muggins, and only when called short
            played["called"] = event.called
        return "play", played
    if isinstance(event, Draw):
        return "draw", {"player": event.player, "count": event.count}
    if isinstance(event, Pass):
        return "pass", {"player": event.player}
    if isinstance(event, NewHand):
        begun: dict[str, Any] = {"leader": event.leader}
        if event.chosen is not None:
            begun["chosen"] = event.chosen
        if event.redraws:  # only under lead: highest-double; older rows never have it
            begun["redraws"] = event.redraws
        return "new_hand", begun
    if isinstance(event, Claim):
        return "muggins", {"player": event.player}
    if isinstance(event, Adjust):
        return "adjust", {"player": event.player, "points": event.points, "reason": event.reason}
    remaining = {
        str(seat): held if isinstance(held, int) else [str(t) for t in held]
        for seat, held in sorted(event.remaining.items())
    }
    return "settle", {"remaining": remaining}


def event_of(kind: str, data: dict[str, Any]) -> Event:
    """The event stored as ``kind`` and ``data``."""
    if kind == "play":
        return Play(
            data["player"],
            stored_tile(data["tile"]),
            data["end"],
            data["flipped"],
            data.get("called"),
        )
    if kind == "draw":
        return Draw(data["player"], data["count"])
    if kind == "pass":
        return Pass(data["player"])
    if kind == "new_hand":
        return NewHand(data["leader"], data.get("chosen"), data.get("redraws", 0))
    if kind == "muggins":
        return Claim(data["player"])
    if kind == "adjust":
        return Adjust(data["player"], data["points"], data["reason"])
    if kind == "settle":
        remaining: dict[int, Held] = {}
        for seat, held in data["remaining"].items():
            remaining[int(seat)] = (
                held if isinstance(held, int) else tuple(stored_tile(t) for t in held)
            )
        return Settle(remaining)
    raise MalformedInput(say("%(kind)s is not a stored event kind.", kind=repr(kind)))
