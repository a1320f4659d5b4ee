"""Why: how the referee judged each entry of a game's log, in plain words.

:func:`explain` takes one event of ``game.events`` and says what it did: for a play, each
open end after it and what that end contributed to the count (docs/rules.md section 6) and what
the count scored (section 7); for a draw or a pass, who, how many and what was left to draw,
and whose turn is next; for a settlement, each player's pips, the rounding, the method and
each side's change (section 8); for a new hand, who leads and why. The event that decided
the game also gets the scores against the target. Every sentence is a
:class:`~scorekeeper.rules.messages.Message`; house-rule names and values, tiles and end names
are facts of it, said as they are in every language.

The engine keeps only the current state, so the state around an earlier event is rebuilt:
:func:`explain` takes a fork of the game back to just before the event (replaying at most its
hand); :func:`explain_all` explains a whole log in one replay. :func:`explain_hand` explains
one hand for the cost of that hand, however long the game: a
hand only needs the game as it was when the hand began, and the engine keeps that (each hand's
``scores_before``, the hands before it, which never change), so it goes back there with
:meth:`Game.fork` and :meth:`Game.rewind`, which replay nothing, and pushes the hand's events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

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
from scorekeeper.rules.explain import adjust, claim, draw, guess, lead, play, settle, time
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
)
from scorekeeper.rules.explain.play import count_line
from scorekeeper.rules.explain.settle import settled_cells, settled_lines
from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.messages import Message

__all__ = [
    "KINDS",
    "EventKind",
    "Explanation",
    "count_line",
    "explain",
    "explain_all",
    "explain_hand",
    "hand_spans",
    "settled_cells",
    "settled_lines",
]

EventKind = Literal[
    "new-hand", "play", "draw", "pass", "settle", "muggins", "adjust", "guess", "time"
]
"""An event's kind as the log shows it (its ``data-kind``)."""


KINDS: tuple[EventKind, ...] = get_args(EventKind)


@dataclass(frozen=True)
class Explanation:
    """How one event of a game's log was judged.

    ``index`` is the event's place in ``game.events`` (from 0); ``hand`` the hand it belongs
    to (from 1); ``event`` its number among the hand's plays, draws and passes as the record
    counts them (from 1; None for a new hand or a settlement). ``kind`` is one of
    :data:`KINDS`. ``winner`` is the side that this event made the winner of the game, or
    None when the game was not decided by it. ``summary`` (one sentence) and ``lines`` (each
    step of the judgement) are messages: ``str()`` is the English, and the site says them in
    the reader's language, their numbers, names and tiles as facts.
    """

    index: int
    hand: int
    event: int | None
    kind: EventKind
    summary: Message
    lines: tuple[Message, ...]
    winner: int | None = None
    counted: int = 0
    """How many of ``lines``, from the first, are a play's count: each open end and the total
    (what it scored); the lines after them say what followed. 0 for every other kind."""


def explain(game: Game, index: int) -> Explanation:
    """How the event at ``index`` of ``game.events`` (from 0) was judged, for the cost of the
    hand it belongs to: a fork of the game rewound to just before it (see :meth:`Game.rewind`),
    then the event pushed again."""
    if not 0 <= index < len(game.events):
        raise IndexError(f"there is no event {index} in this game's {len(game.events)} events")
    replayed = game.fork()
    event = replayed.rewind(index)[0]
    before = Before(tuple(replayed.scores), _next_event_number(replayed))
    replayed.push(event)
    told = _explain_pushed(replayed, before)
    return _followed(told, game.events[index + 1] if index + 1 < len(game.events) else None)


def explain_all(game: Game) -> list[Explanation]:
    """The explanation of every event of ``game``, in order, from a single replay."""
    return _explain_pushing(Game(game.setup), game.events)


def hand_spans(game: Game) -> list[range]:
    """Where each hand's events are in ``game.events``: hand 1's span first.

    A span runs from the hand's new hand to its last event (its settlement, if settled). The
    engine keeps where each hand begins, so this costs the number of hands, not of events.
    """
    starts = game.hand_starts
    ends = (*starts[1:], len(game.events)) if starts else ()
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]


def explain_hand(game: Game, number: int) -> list[Explanation]:
    """The explanation of every event of hand ``number`` (from 1), as :func:`explain_all`
    gives them, for the cost of that hand alone.

    The game is taken back to where the hand began (a fork rewound to the hand's new hand
    keeps the hand's snapshot, replaying nothing) and the hand's events are pushed again.
    """
    spans = hand_spans(game)
    if not 1 <= number <= len(spans):
        raise IndexError(f"there is no hand {number} in this game's {len(spans)} hands")
    span = spans[number - 1]
    replayed = game.fork()
    replayed.rewind(span.start)
    return _explain_pushing(replayed, game.events[span.start : span.stop])


def _explain_pushing(replayed: Game, events: list[Event]) -> list[Explanation]:
    """Push ``events`` onto ``replayed`` one by one, explaining each as it goes in."""
    explanations: list[Explanation] = []
    number = _next_event_number(replayed)
    for event in events:
        before = Before(tuple(replayed.scores), number)
        replayed.push(event)
        explanations.append(_explain_pushed(replayed, before))
        if isinstance(event, NewHand):
            number = 1
        elif not isinstance(event, Settle):
            number += 1
    # Each play was told as the last entry; the entry after it may have closed a Muggins! it
    # left open. The last of ``events`` is the game's last entry or a settlement (a hand's
    # events end with it once settled): nothing after it to close anything.
    return [
        _followed(told, events[i + 1]) if i + 1 < len(events) else told
        for i, told in enumerate(explanations)
    ]


def _followed(told: Explanation, after: Event | None) -> Explanation:
    """``told`` once ``after`` followed it: a count called short and left unclaimed by the next
    entry is said to be closed (a claim of it tells itself)."""
    if after is None or isinstance(after, Claim) or told.kind != "play":
        return told
    summary = play.muggins_closed(told.summary)
    return told if summary is told.summary else replace(told, summary=summary)


def _next_event_number(game: Game) -> int:
    """The hand-relative number the next play, draw or pass of the current hand gets."""
    hand = game.hand
    if hand is None:
        return 1
    number = 1
    for event in reversed(game.events):
        if isinstance(event, NewHand):
            break
        if not isinstance(event, Settle):
            number += 1
    return number


@dataclass(frozen=True, slots=True)
class _Telling:
    """How the log tells one kind of entry: its kind, whether it is numbered among the hand's
    plays, draws and passes as the record counts them, and the module that explains it."""

    kind: EventKind
    numbered: bool
    tell: Callable[[Game, Hand, Any, Before], Told]


TELLING: dict[type, _Telling] = {
    NewHand: _Telling("new-hand", False, lead.tell),
    Play: _Telling("play", True, play.tell),
    Draw: _Telling("draw", True, draw.tell_draw),
    Pass: _Telling("pass", True, draw.tell_pass),
    Settle: _Telling("settle", False, settle.tell),
    Claim: _Telling("muggins", True, claim.tell),
    Adjust: _Telling("adjust", True, adjust.tell),
    Guess: _Telling("guess", True, guess.tell),
    TimeCalled: _Telling("time", True, time.tell),
}
"""The explanation of each kind of entry, by the entry's type (as the referee's rooms are)."""


def _explain_pushed(game: Game, before: Before) -> Explanation:
    """Explain the last event of ``game``, which has just been pushed.

    Only an entry that can change a score can decide the game (a new hand, a draw or a pass
    is refused once it is decided), so ``game.winner`` is None after every other kind."""
    index = len(game.events) - 1
    event = game.events[index]
    hand = game.hand
    assert hand is not None
    telling = TELLING[type(event)]
    summary, lines, counted = telling.tell(game, hand, event, before)
    number = before.event if telling.numbered else None
    return Explanation(
        index, hand.number, number, telling.kind, summary, lines, game.winner, counted
    )
