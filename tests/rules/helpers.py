"""Small builders for ``all-fives/1`` records, and the hands the hand-written rules tests share.

Every hand here was played out at a simulated table by hand: the comments say what each
player holds, so that every draw, pass and remainder is one a real table could produce.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.rules.errors import RecordRefusal, Refusal
from scorekeeper.rules.events import Event
from scorekeeper.rules.game import Game
from scorekeeper.rules.messages import Message
from scorekeeper.rules.record import read_record, replay_result, write_record

Record = dict[str, Any]
Entry = dict[str, Any]

DUO = ["Ann", "Bob"]
QUAD = ["Ann", "Bob", "Cy", "Dee"]


def play(player: str, tile: str, end: str | None = None) -> Entry:
    """A play event; ``end`` is left out when None."""
    entry: Entry = {"player": player, "play": tile}
    if end is not None:
        entry["end"] = end
    return entry


def draw(player: str, count: int = 1) -> Entry:
    """A draw event."""
    return {"player": player, "draw": count}


def passes(player: str) -> Entry:
    """A pass event."""
    return {"player": player, "pass": True}


def claim(player: str) -> Entry:
    """A Muggins claim of the count the play just before it missed (docs/rules.md 8b)."""
    return {"player": player, "muggins": True}


def adjust(player: str, points: int, reason: str = "agreed at the table") -> Entry:
    """An adjustment agreed at the table (docs/rules.md 8c)."""
    return {"player": player, "adjust": points, "reason": reason}


def amended(
    events: list[Entry],
    called: dict[int, int] | None = None,
    after: dict[int, list[Entry]] | None = None,
) -> list[Entry]:
    """``events`` with calls given by event number (from 1) in ``called``, and the entries of
    ``after`` inserted after the event of that number (0: before the first)."""
    inserted = after or {}
    out: list[Entry] = list(inserted.get(0, []))
    for number, event in enumerate(events, 1):
        event = dict(event)
        if called and number in called:
            event["called"] = called[number]
        out.append(event)
        out.extend(inserted.get(number, []))
    return out


def hand(lead: str, events: list[Any], remaining: dict[str, Any] | None = None) -> Entry:
    """One hand of a record; ``remaining`` is left out when None."""
    entry: Entry = {"lead": lead, "events": events}
    if remaining is not None:
        entry["remaining"] = remaining
    return entry


def record(
    players: list[str],
    hands: list[Entry],
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    partners: bool | None = None,
) -> Record:
    """A whole record; header fields left as None are left out."""
    data: Record = {"format": "all-fives/1"}
    if preset is not None:
        data["preset"] = preset
    if options is not None:
        data["options"] = options
    data["players"] = list(players)
    if partners is not None:
        data["partners"] = partners
    data["hands"] = hands
    return data


Move = tuple[str, str | None]
"""A play in a worked example: the tile and the end it goes on (None for the lead)."""

FOUR_ENDS_TWENTY: list[Move] = [
    ("3-3", None),
    ("3-5", "W"),
    ("3-4", "E"),
    ("3-2", "N"),
    ("3-1", "S"),
    ("2-5", "N"),
    ("1-6", "S"),
]
"""docs/rules.md section 6: four ends showing 5, 5, 6 and 4 count 20."""

FOUR_ENDS_FIFTEEN: list[Move] = [
    ("4-4", None),
    ("4-2", "W"),
    ("4-5", "E"),
    ("4-3", "N"),
    ("4-1", "S"),
    ("1-5", "S"),
]
"""docs/rules.md section 6: four ends showing 2, 5, 3 and 5 count 15."""


def alternate(moves: list[Move], options: dict[str, Any] | None = None) -> Record:
    """A record in which Ann and Bob take turns playing ``moves`` (tile, end), Ann leading."""
    events = [play(DUO[i % 2], tile, end) for i, (tile, end) in enumerate(moves)]
    return record(DUO, [hand("Ann", events)], options=options)


def game_of(data: Record) -> Game:
    """The game a legal record describes (fails the test if it is refused)."""
    return read_record(copy.deepcopy(data))


def english(messages: tuple[Message, ...]) -> tuple[str, ...]:
    """What the referee said, in English, as the record and the replay output give it."""
    return tuple(str(message) for message in messages)


def result_of(data: Record) -> dict[str, Any]:
    """The replay output of a legal record."""
    return replay_result(game_of(data))


def refusal_of(data: object) -> RecordRefusal:
    """The refusal a record draws (fails the test if it is accepted)."""
    with pytest.raises(RecordRefusal) as caught:
        read_record(copy.deepcopy(data))
    return caught.value


def assert_refused(data: object, rule: str, hand_no: int | None, event: int | None) -> None:
    """The record is refused by ``rule``, located at hand ``hand_no`` and event ``event``."""
    refusal = refusal_of(data)
    assert (refusal.rule, refusal.hand, refusal.event) == (rule, hand_no, event), refusal.message


def game_to(data: Record, events: int) -> Game:
    """The game after the first ``events`` events of the record's last hand, not settled."""
    cut = copy.deepcopy(data)
    cut["hands"][-1]["events"] = cut["hands"][-1]["events"][:events]
    cut["hands"][-1].pop("remaining", None)
    return read_record(cut, unsettled_last_hand=True)


def refused_unchanged(game: Game, event: Event, rule: str) -> str:
    """Push ``event``: it is refused with ``rule`` and nothing changes (events, scores and
    all a user sees); return the refusal's message."""
    before, events, scores = snapshot(game), list(game.events), list(game.scores)
    with pytest.raises(Refusal) as caught:
        game.push(event)
    assert caught.value.rule == rule, caught.value.message
    assert game.events == events and game.scores == scores
    assert snapshot(game) == before
    return caught.value.message


def counts(data: Record, hand_no: int = 1) -> list[int]:
    """The count after every play of a hand."""
    return [p["count"] for p in result_of(data)["hands"][hand_no - 1]["plays"]]


def points(data: Record, hand_no: int = 1) -> list[int]:
    """The points every play of a hand scored."""
    return [p["points"] for p in result_of(data)["hands"][hand_no - 1]["plays"]]


def snapshot(game: Game) -> tuple[Record, dict[str, Any], str, int | None]:
    """Everything a user can see of a game: its record, its replay, its phase and whose turn."""
    turn = game.hand.turn if game.hand is not None else None
    return write_record(game), replay_result(game), game.phase, turn


def duo_domino_events() -> list[Entry]:
    """Two players, 5 tiles each (deal five-each), spinners first; Ann dominoes with event 10.

    Ann holds 6-6 6-1 6-4 6-5 5-5 and plays them all. Bob holds 3-3 1-0 3-2 plus two tiles
    without a six, so he draws three (4-2, 2-1, then the playable 6-3) against the 6-6.
    Counts 12 15 4 7 11 10 15 11 16; Bob scores 15 and 10, Ann 15: Ann 15, Bob 25 before
    settling. Bob keeps 4 tiles (26 pips if they are 5-4 5-3 4-2 2-1); the boneyard keeps 15.
    """
    return [
        play("Ann", "6-6"),
        draw("Bob", 3),
        play("Bob", "6-3", "W"),
        play("Ann", "6-1", "E"),
        play("Bob", "3-3", "W"),
        play("Ann", "6-4", "N"),
        play("Bob", "1-0", "E"),
        play("Ann", "6-5", "S"),
        play("Bob", "3-2", "W"),
        play("Ann", "5-5", "S"),
    ]


DUO_DOMINO_OPTIONS: dict[str, Any] = {"deal": "five-each"}


def duo_domino(
    remaining: dict[str, Any] | None = None,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    more_hands: list[Entry] | None = None,
) -> Record:
    """A record of the two-player domino hand, settled with ``remaining`` (Bob's 26 by default)."""
    held = {"Bob": ["5-4", "5-3", "4-2", "2-1"]} if remaining is None else remaining
    return record(
        DUO,
        [hand("Ann", duo_domino_events(), held), *(more_hands or [])],
        preset=preset,
        options={**DUO_DOMINO_OPTIONS, **(options or {})},
    )


def duo_blocked_events(drawn: int = 10) -> list[Entry]:
    """Two players, 9 tiles each, no spinner; every six ends on the table and both ends show 6.

    The line reads 6-2 2-0 0-6 6-6 6-5 5-4 4-6 6-3 3-1 1-6 (78 pips; the 90 other pips are
    the 18 tiles without a six except 2-0, 5-4 and 3-1). Nobody can play on 6, so Ann draws
    ``drawn`` tiles (all the boneyard can give) without finding one, and both pass. Only
    Ann's 6-0 scores (5). Ann holds 4 + ``drawn`` tiles, Bob 4.
    """
    return [
        play("Ann", "6-6"),
        play("Bob", "6-5", "E"),
        play("Ann", "6-0", "W"),
        play("Bob", "5-4", "E"),
        play("Ann", "2-0", "W"),
        play("Bob", "6-4", "E"),
        play("Ann", "6-2", "W"),
        play("Bob", "6-3", "E"),
        play("Ann", "3-1", "E"),
        play("Bob", "6-1", "E"),
        draw("Ann", drawn),
        passes("Ann"),
        passes("Bob"),
    ]


def duo_blocked(
    remaining: dict[str, Any] | None,
    options: dict[str, Any] | None = None,
    preset: str | None = None,
    drawn: int = 10,
    more_hands: list[Entry] | None = None,
) -> Record:
    """A record of the blocked two-player hand (spinners none) settled with ``remaining``."""
    return record(
        DUO,
        [hand("Ann", duo_blocked_events(drawn), remaining), *(more_hands or [])],
        preset=preset,
        options={"spinners": "none", **(options or {})},
    )


def quad_domino_events() -> list[Entry]:
    """Four players, 5 tiles each, spinner 6-6; nobody draws and Ann dominoes with event 17.

    Ann plays 6-6 6-2 2-2 2-0 6-0; Bob 6-5 5-5 5-1 1-1; Cy 6-4 4-4 4-0 0-0; Dee 6-3 3-3 3-1
    6-1. No count is a multiple of five, so nobody scores. Bob, Cy and Dee keep one tile each
    (for instance 2-1, 4-1 and 3-0); 109 pips are on the table and 8 tiles in the boneyard.
    """
    return [
        play("Ann", "6-6"),
        play("Bob", "6-5", "W"),
        play("Cy", "6-4", "E"),
        play("Dee", "6-3", "N"),
        play("Ann", "6-2", "S"),
        play("Bob", "5-5", "W"),
        play("Cy", "4-4", "E"),
        play("Dee", "3-3", "N"),
        play("Ann", "2-2", "S"),
        play("Bob", "5-1", "W"),
        play("Cy", "4-0", "E"),
        play("Dee", "3-1", "N"),
        play("Ann", "2-0", "S"),
        play("Bob", "1-1", "W"),
        play("Cy", "0-0", "E"),
        play("Dee", "6-1", "N"),
        play("Ann", "6-0", "S"),
    ]


def quad_domino(
    remaining: dict[str, Any] | None = None,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    partners: bool | None = None,
) -> Record:
    """A record of the four-player domino hand; by default Bob 2-1, Cy 4-1, Dee 3-0 remain."""
    held = {"Bob": ["2-1"], "Cy": ["4-1"], "Dee": ["3-0"]} if remaining is None else remaining
    return record(
        QUAD,
        [hand("Ann", quad_domino_events(), held)],
        preset=preset,
        options=options,
        partners=partners,
    )
