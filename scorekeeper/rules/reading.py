"""Reading one entry of a record's hand: an event (a play, a draw, a pass, a claim, an
adjustment, a guess, time called), or what the players still hold at its end. Only the form is checked here, every
field of it (rule ``record``); whether the entry may stand is the referee's to say when it is
pushed (:mod:`scorekeeper.rules.record` reads a whole record)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.events import (
    LEAD_WAYS,
    Adjust,
    Claim,
    Draw,
    Event,
    Guess,
    Held,
    LeadWay,
    Pass,
    Play,
    TimeCalled,
    is_whole,
)
from scorekeeper.rules.house_rule import one_of
from scorekeeper.rules.layout import is_arm_name, not_an_end
from scorekeeper.rules.messages import say
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import tile

_ACTIONS = ("play", "draw", "pass", "muggins", "adjust", "guess", "time")
_EVENT_FIELDS = {
    "play": ("player", "play", "end", "called", "at"),
    "draw": ("player", "draw", "at"),
    "pass": ("player", "pass", "at"),
    "muggins": ("player", "muggins", "at"),
    "adjust": ("player", "adjust", "reason", "at"),
    "guess": ("player", "guess", "at"),
    "time": ("time", "at"),
}
_ACTIONS_TEXT = ", ".join(f'"{action}"' for action in _ACTIONS)
_EVENT_KEYS = {action: frozenset(fields) for action, fields in _EVENT_FIELDS.items()}
_SPELLINGS = {f"{a}-{b}": (tile(a, b), a < b) for a in range(7) for b in range(7)}


def unknown_key(obj: Mapping[str, object], allowed: tuple[str, ...]) -> str | None:
    """The first field of ``obj`` not in ``allowed``, or None."""
    return next((key for key in obj if key not in allowed), None)


def parse_event(obj: object, setup: Setup) -> Event:
    """One event of a hand, every field read and checked for form (rule ``record``); its
    time (``at``) is read by :func:`_time_in`, beside the event. The action's own fields are
    read by its reader in :data:`_READERS`."""
    if not isinstance(obj, dict):
        raise MalformedInput(
            say(
                "An event is an object such as %(example)s.",
                example='{"player": "Ann", "play": "6-4"}',
            )
        )
    actions = [key for key in _ACTIONS if key in obj]
    if not actions:
        raise MalformedInput(
            say(
                "An event has exactly one of %(actions)s; this one has none.",
                actions=_ACTIONS_TEXT,
            )
        )
    if len(actions) > 1:
        raise MalformedInput(
            say(
                "An event has exactly one of %(actions)s; this one has %(found)s.",
                actions=_ACTIONS_TEXT,
                found=", ".join(f'"{action}"' for action in actions),
            )
        )
    action = actions[0]
    if not obj.keys() <= _EVENT_KEYS[action]:
        fields = _EVENT_FIELDS[action]
        raise MalformedInput(
            say(
                'An event has an unknown field "%(field)s"; its fields are %(fields)s.',
                field=str(unknown_key(obj, fields)),
                fields=", ".join(fields),
            )
        )
    if action == "time":  # entered by the server at a club night's time limit: no player
        return _read_time(obj)
    if "player" not in obj:
        raise MalformedInput(say('An event names its "player".'))
    return _READERS[action](obj, setup.seat_of(obj["player"]), setup)


def _read_play(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """A play: the tile as written (its spelling says which half is first), its end, its call."""
    spelled = obj["play"]
    tiles = setup.rules.tile_set
    if isinstance(spelled, str) and spelled in _SPELLINGS:
        played, flipped = _SPELLINGS[spelled]
    else:
        a, b = tiles.parse_halves(spelled)
        played, flipped = tile(a, b), a < b
    end = obj.get("end")
    if end is not None and (not isinstance(end, str) or not is_arm_name(end, tiles.top)):
        raise MalformedInput(not_an_end(json.dumps(end), end, tiles))
    called = obj.get("called")
    if "called" in obj and not is_whole(called, 0):
        raise MalformedInput(
            say(
                '"called" is the points the player called, a whole number from 0 up '
                "(0: nothing called); not %(given)s.",
                given=json.dumps(called),
            )
        )
    return Play(seat, played, end, flipped, called)


def _read_draw(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """A draw of one or more tiles."""
    count = obj["draw"]
    if not is_whole(count, 1):
        raise MalformedInput(
            say(
                '"draw" is how many tiles were drawn, 1 or more; not %(given)s.',
                given=json.dumps(count),
            )
        )
    return Draw(seat, count)


def _read_pass(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """A pass."""
    if obj["pass"] is not True:
        raise MalformedInput(
            say(
                "A pass is written %(example)s, not %(given)s.",
                example='"pass": true',
                given=json.dumps(obj["pass"]),
            )
        )
    return Pass(seat)


def _read_muggins(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """A claim of a missed count."""
    if obj["muggins"] is not True:
        raise MalformedInput(
            say(
                "A claim of a missed count is written %(example)s, not %(given)s.",
                example='"muggins": true',
                given=json.dumps(obj["muggins"]),
            )
        )
    return Claim(seat)


def _read_guess(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """A guess of the count of the play just before (practice mode)."""
    points = obj["guess"]
    if not is_whole(points, 0):
        raise MalformedInput(
            say(
                '"guess" is the count the table guessed, in points: 0 (no score) or a '
                "multiple of 5; not %(given)s.",
                given=json.dumps(points),
            )
        )
    return Guess(seat, points)


def _read_adjust(obj: Mapping[str, Any], seat: int, setup: Setup) -> Event:
    """An adjustment and its reason."""
    points = obj["adjust"]
    if not is_whole(points):
        raise MalformedInput(
            say(
                '"adjust" is the points the side gains, a whole number (below 0: a loss); '
                "not %(given)s.",
                given=json.dumps(points),
            )
        )
    reason = obj.get("reason")
    if not isinstance(reason, str):
        raise MalformedInput(
            say(
                'An adjustment gives its "reason" in words, such as %(example)s.',
                example='"reason": "drew while able to play"',
            )
        )
    return Adjust(seat, points, reason)


def _read_time(obj: Mapping[str, Any]) -> Event:
    """Time called at a club night's time limit, and what the night does then."""
    rule = obj["time"]
    if rule not in ("finish-hand", "to-target"):
        raise MalformedInput(
            say(
                '"time" is what the night does at its time limit, "finish-hand" or '
                '"to-target"; not %(given)s.',
                given=json.dumps(rule),
            )
        )
    return TimeCalled(rule)


_READERS: dict[str, Callable[[Mapping[str, Any], int, Setup], Event]] = {
    "play": _read_play,
    "draw": _read_draw,
    "pass": _read_pass,
    "muggins": _read_muggins,
    "adjust": _read_adjust,
    "guess": _read_guess,
}
"""How each action of a record's event is read."""


def parse_remaining(obj: object, setup: Setup) -> dict[int, Held]:
    """A hand's ``remaining``: each player's pip total or list of tiles (form only)."""
    if not isinstance(obj, dict):
        raise MalformedInput(
            say(
                "remaining maps players to their pip total or their tiles, such as %(example)s.",
                example='{"Bob": 7}',
            )
        )
    parsed: dict[int, Held] = {}
    for name, value in obj.items():
        seat = setup.seat_of(name)
        if is_whole(value):
            parsed[seat] = value
        elif isinstance(value, list):
            parsed[seat] = tuple(setup.rules.tile_set.parse(text) for text in value)
        else:
            raise MalformedInput(
                say(
                    "%(player)s's remaining is a pip total or a list of tiles, not %(given)s.",
                    player=name,
                    given=json.dumps(value),
                )
            )
    return parsed


def lead_by_of(hand: Mapping[str, Any], number: int) -> LeadWay | None:
    """How a hand's leader was chosen (``lead_by``), if the record says."""
    if "lead_by" not in hand:
        return None
    way = one_of(hand["lead_by"], LEAD_WAYS)
    if way is None:
        raise MalformedInput(
            say(
                "Hand %(hand)s's lead_by is one of %(ways)s, not %(given)s.",
                hand=number,
                ways=", ".join(f'"{w}"' for w in LEAD_WAYS),
                given=json.dumps(hand["lead_by"]),
            )
        )
    return way


def redraws_of(hand: Mapping[str, Any], number: int) -> int:
    """How many times everyone drew one more tile before the lead (``redraws``), 0 if left out."""
    redraws = hand.get("redraws", 0)
    if not is_whole(redraws, 0):
        raise MalformedInput(
            say(
                "Hand %(hand)s's redraws is a whole number from 0 up, not %(given)s.",
                hand=number,
                given=json.dumps(redraws),
            )
        )
    return redraws
