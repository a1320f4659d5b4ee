"""Every kind of entry has all it needs: a room that checks, applies and stores it, what the
Why? says of it, and its place in the game record (the checklist of ``rules/rooms``)."""

from __future__ import annotations

from typing import get_args

import pytest

from scorekeeper.rules import Setup
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
from scorekeeper.rules.explain import TELLING
from scorekeeper.rules.reading import parse_event
from scorekeeper.rules.record import _WRITERS
from scorekeeper.rules.rooms import KIND_OF, KINDS, STORED_AS
from scorekeeper.rules.stored import event_of, stored_event
from scorekeeper.rules.tiles import Tile

ONE_OF_EACH: dict[type, Event] = {
    NewHand: NewHand(1, "double", 2),
    Play: Play(0, Tile(6, 4), "N", True, 5),
    Draw: Draw(1, 3),
    Pass: Pass(2),
    Settle: Settle({0: 0, 1: 12, 2: (Tile(6, 6), Tile(1, 0))}),
    Claim: Claim(1),
    Adjust: Adjust(2, -10, "drew while able to play"),
    Guess: Guess(2, 15),
    TimeCalled: TimeCalled("to-target"),
}
"""An entry of every kind, each field away from its default."""

SETUP = Setup.create(["Ann", "Bob", "Cy"], "all-fives")


def test_every_event_type_has_one_room_and_one_stored_name() -> None:
    assert set(KIND_OF) == set(get_args(Event)) == set(ONE_OF_EACH)
    assert len(STORED_AS) == len(KINDS)


def test_every_kind_is_explained() -> None:
    assert set(TELLING) == set(KIND_OF), "a kind the Why? cannot explain"


def test_every_entry_of_a_hand_has_its_place_in_the_record() -> None:
    """A new hand and a settlement are parts of a hand's object; every other kind is one of
    its events, written by a writer and read back by the reader of its action."""
    assert set(_WRITERS) | {NewHand, Settle} == set(KIND_OF)
    names = tuple(SETUP.players)
    for kind, write in _WRITERS.items():
        event = ONE_OF_EACH[kind]
        written = write(event, names)
        read = parse_event(written, SETUP)
        assert read == event


@pytest.mark.parametrize("event", ONE_OF_EACH.values(), ids=lambda event: type(event).__name__)
def test_every_kind_stored_reads_back_as_it_was(event: Event) -> None:
    kind, data = stored_event(event)
    assert event_of(kind, data) == event
