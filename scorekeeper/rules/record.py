"""The ``all-fives/1`` game record: read it into a :class:`Game`, write a game back, replay it.

Reading applies the same rules as live entry, in order, and stops at the first fault with a
:class:`RecordRefusal` that says where it is: ``hand`` and ``event`` count from 1; ``event``
is None for a fault in a hand's ``lead`` or ``remaining`` or in the hand as a whole, and
both are None for a fault in the header.

A record may say when the game was played (see :mod:`scorekeeper.rules.times`): the reader
checks each time's form where it stands (a malformed one is refused with ``record`` like
any malformed field) and hands the times back beside the game (:func:`read_timed`), never
into it, so that no time can change a score, a ruling or the replay output.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.errors import MalformedInput, RecordRefusal, Refusal
from scorekeeper.rules.events import (
    Adjust,
    Claim,
    Draw,
    Guess,
    NewHand,
    Pass,
    Play,
    Settle,
    TimeCalled,
)
from scorekeeper.rules.game import Game, Hand, Scored
from scorekeeper.rules.house_rule import OptionValue
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import name_problem
from scorekeeper.rules.notes import referee_notes
from scorekeeper.rules.options import HOUSE_RULES
from scorekeeper.rules.practice_rule import SCORELESS
from scorekeeper.rules.reading import (
    lead_by_of,
    parse_event,
    parse_remaining,
    redraws_of,
    unknown_key,
)
from scorekeeper.rules.record_json import parse_json
from scorekeeper.rules.setup import MOST_PLAYERS, PARTNERS_PLAYERS, Setup
from scorekeeper.rules.times import Times, parse_time, write_time

FORMAT = "all-fives/1"
_HEADER_KEYS = (
    "format",
    "preset",
    "options",
    "players",
    "partners",
    "started",
    "finished",
    "hands",
)
_HAND_KEYS = ("lead", "lead_by", "redraws", "events", "remaining", "settled_at", "after_settlement")


def _read_setup(data: Mapping[str, Any]) -> Setup:
    unknown = unknown_key(data, _HEADER_KEYS)
    if unknown is not None:
        raise MalformedInput(
            say(
                'The record has an unknown field "%(field)s"; its fields are %(fields)s.',
                field=unknown,
                fields=", ".join(_HEADER_KEYS),
            )
        )
    if "format" not in data:
        raise MalformedInput(
            say('The record has no "format"; it must be "%(format)s".', format=FORMAT)
        )
    if data["format"] != FORMAT:
        raise MalformedInput(
            say(
                'The format %(given)s is not "%(format)s".',
                given=json.dumps(data["format"]),
                format=FORMAT,
            )
        )
    for key in ("players", "hands"):
        if key not in data:
            raise MalformedInput(say('The record has no "%(field)s".', field=key))
    if not isinstance(data["players"], list):
        raise MalformedInput(
            say(
                "players lists 2 to 4 names in seat order (up to %(most)s with a larger set).",
                most=MOST_PLAYERS,
            )
        )
    for name in data["players"]:
        problem = name_problem(name) if isinstance(name, str) else None
        if problem is not None:
            raise MalformedInput(problem)
    if not isinstance(data["hands"], list):
        raise MalformedInput(say("hands is a list of hands in the order played."))
    if "options" in data and not isinstance(data["options"], dict):
        raise MalformedInput(
            say(
                "options is an object of house rules, such as %(example)s.",
                example='{"spinners": "none"}',
            )
        )
    if "partners" in data and not isinstance(data["partners"], bool):
        raise MalformedInput(
            say("partners is true or false, not %(given)s.", given=json.dumps(data["partners"]))
        )
    return Setup.create(
        data["players"], data.get("preset", "all-fives"), data.get("options"), data.get("partners")
    )


@dataclass(frozen=True)
class Timed:
    """A game read from a record, and the times the record gives for it."""

    game: Game
    times: Times


def _time_in(obj: Mapping[str, Any], field: str) -> datetime | None:
    """The time ``obj`` gives in ``field`` (checked for form), None when it gives none."""
    return parse_time(obj[field], field) if field in obj else None


def read_record(data: object, *, unsettled_last_hand: bool = False) -> Game:
    """The game a parsed ``all-fives/1`` record describes, or a RecordRefusal.

    The format requires ``remaining`` on every finished hand. ``unsettled_last_hand`` lets
    the last hand be over but not yet settled, as a game exported mid-settlement is. The
    record's times are checked and left out (:func:`read_timed` keeps them).
    """
    return read_timed(data, unsettled_last_hand=unsettled_last_hand).game


def read_timed(data: object, *, unsettled_last_hand: bool = False) -> Timed:
    """The game a parsed record describes (as :func:`read_record` reads it) and its times.

    A time is read where it stands, in the order of the record: ``started`` and ``finished``
    with the header, a hand's ``settled_at`` with the hand's other fields (before its
    events), an event's ``at`` with the event's other fields (before any rule is applied to
    it). A ``settled_at`` on a hand that has no settlement says nothing and is not kept.
    """
    if not isinstance(data, dict):
        raise RecordRefusal("record", say("A game record is a JSON object."), None, None)
    try:
        setup = _read_setup(data)
        started, finished = _time_in(data, "started"), _time_in(data, "finished")
    except Refusal as refusal:
        raise RecordRefusal(refusal.rule, refusal.said, None, None) from None
    game = Game(setup)
    entries: list[datetime | None] = []
    for number, hand in enumerate(data["hands"], 1):
        try:
            if not isinstance(hand, dict):
                raise MalformedInput(
                    say('A hand is an object with "lead", "events" and "remaining".')
                )
            unknown = unknown_key(hand, _HAND_KEYS)
            if unknown is not None:
                raise MalformedInput(
                    say(
                        'Hand %(hand)s has an unknown field "%(field)s"; '
                        "its fields are %(fields)s.",
                        hand=number,
                        field=unknown,
                        fields=", ".join(_HAND_KEYS),
                    )
                )
            for key in ("lead", "events"):
                if key not in hand:
                    raise MalformedInput(
                        say('Hand %(hand)s has no "%(field)s".', hand=number, field=key)
                    )
            if not isinstance(hand["events"], list):
                raise MalformedInput(say("Hand %(hand)s's events are a list.", hand=number))
            settled_at = _time_in(hand, "settled_at")
            game.push(
                NewHand(
                    setup.seat_of(hand["lead"]), lead_by_of(hand, number), redraws_of(hand, number)
                )
            )
            entries.append(None)
        except Refusal as refusal:
            raise RecordRefusal(refusal.rule, refusal.said, number, None) from None
        _push_listed(game, hand["events"], number, 1, entries)
        try:
            current = game.hands[-1]
            if "remaining" in hand:
                game.push(Settle(parse_remaining(hand["remaining"], setup)))
                entries.append(settled_at)
            elif current.result in ("domino", "blocked") and not (
                unsettled_last_hand and number == len(data["hands"])
            ):
                raise Refusal(
                    "remaining",
                    say(
                        'Hand %(hand)s is over (%(how)s): "remaining" must give what each '
                        "player still holding tiles has left.",
                        hand=number,
                        how=_ending(game, current),
                    ),
                )
        except Refusal as refusal:
            raise RecordRefusal(refusal.rule, refusal.said, number, None) from None
        _read_after_settlement(game, hand, number, entries)
    timed = any(moment is not None for moment in entries)
    return Timed(game, Times(started, finished, tuple(entries) if timed else ()))


def _push_listed(
    game: Game,
    listed: list[Any],
    number: int,
    first: int,
    entries: list[datetime | None],
    only_adjustments: bool = False,
) -> None:
    """Read and push the events ``listed`` in hand ``number``, numbered from ``first``, each
    with its time (a refusal names the hand and that number)."""
    for index, obj in enumerate(listed, first):
        try:
            event = parse_event(obj, game.setup)
            if only_adjustments and not isinstance(event, Adjust | TimeCalled):
                raise MalformedInput(
                    say(
                        "Only adjustments come after a hand's settlement; hand %(hand)s "
                        "has another entry there.",
                        hand=number,
                    )
                )
            at = _time_in(obj, "at")
            game.push(event)
            entries.append(at)
        except Refusal as refusal:
            raise RecordRefusal(refusal.rule, refusal.said, number, index) from None


def _read_after_settlement(
    game: Game, hand: Mapping[str, Any], number: int, entries: list[datetime | None]
) -> None:
    """The adjustments a hand's ``after_settlement`` lists: agreed once it was settled and
    before the next lead (docs/rules.md 8c), each with its time. They number on from the
    hand's events."""
    after = hand.get("after_settlement")
    if after is None:
        return
    first = len(hand["events"]) + 1
    if not isinstance(after, list) or "remaining" not in hand:
        said = say(
            'Hand %(hand)s\'s "after_settlement" is a list of adjustments, and '
            'comes with the hand\'s "remaining".',
            hand=number,
        )
        raise RecordRefusal("record", said, number, first)
    _push_listed(game, after, number, first, entries, only_adjustments=True)


def _ending(game: Game, hand: Hand) -> Message:
    if hand.result == "domino" and hand.went_out is not None:
        return say("%(went_out)s dominoed", went_out=game.players[hand.went_out])
    return say("it is blocked")


def load_record(text: str | bytes, *, unsettled_last_hand: bool = False) -> Game:
    """The game in a record's JSON text, or a RecordRefusal (see :func:`read_record`)."""
    return load_timed(text, unsettled_last_hand=unsettled_last_hand).game


def load_timed(text: str | bytes, *, unsettled_last_hand: bool = False) -> Timed:
    """The game in a record's JSON text and its times, or a RecordRefusal (see
    :func:`read_timed`)."""
    try:
        data = parse_json(text)
    except Refusal as refusal:
        raise RecordRefusal(refusal.rule, refusal.said, None, None) from None
    return read_timed(data, unsettled_last_hand=unsettled_last_hand)


def _spell(play: Play) -> str:
    t = play.tile
    return f"{t.low}-{t.high}" if play.flipped else str(t)


def write_record(
    game: Game, times: Times | None = None, *, every_rule: bool = False
) -> dict[str, Any]:
    """The ``all-fives/1`` record of ``game``: the setup and every event as entered, with
    the ``times`` given for it (only those it has; none without ``times``).

    The setup is written as it was given (the house rules it named), or with ``every_rule``
    naming every house rule and, with 4 players, ``partners``: what an export writes, so that
    the record keeps its scores whatever a preset's defaults become (:func:`every_house_rule`).
    """
    setup = game.setup
    names = setup.players
    record = _write_setup(setup, times, every_rule)
    hands: list[dict[str, Any]] = []
    for index, event in enumerate(game.events):
        if isinstance(event, NewHand):
            hands.append({**_write_lead(event, names), "events": []})
            continue
        if isinstance(event, Settle):
            written, stamp = hands[-1], "settled_at"
            written["remaining"] = {
                names[seat]: held if isinstance(held, int) else [str(t) for t in held]
                for seat, held in sorted(event.remaining.items())
            }
        elif "remaining" in hands[-1]:  # an adjustment agreed before the next lead
            written, stamp = _WRITERS[type(event)](event, names), "at"
            hands[-1].setdefault("after_settlement", []).append(written)
        else:
            written, stamp = _WRITERS[type(event)](event, names), "at"
            hands[-1]["events"].append(written)
        moment = None if times is None else times.entry(index)
        if moment is not None:
            written[stamp] = write_time(moment)
    record["hands"] = hands
    return record


def every_house_rule(setup: Setup) -> dict[str, OptionValue]:
    """Every house rule ``setup`` plays by, as a record names it (a target in fives with
    ``units: fives``), in the registry's order.

    An export names them all, the preset's defaults too: a record that leaves one out means
    whatever the preset's default is where it is read, and a default may change (Totally
    Fives' ``bonus_in_fives`` did), so a record naming them all keeps its scores anywhere.

    A house rule that changes no score (``SCORELESS``: practice) is named only when it is
    not at its usual value: left out, it means the same game, and an export, a club's
    fingerprint (``write_record(..., every_rule=True)``) and what they were before it
    existed stay the same."""
    rules = setup.rules
    named = {rule.name: rules.value(rule.name) for rule in HOUSE_RULES}
    return {
        name: value
        for name, value in named.items()
        if name not in SCORELESS or value != SCORELESS[name]
    }


def left_out(setup: Setup) -> list[tuple[str, OptionValue | bool]]:
    """The house rules a record read into ``setup`` did not name, each with the value it
    takes (its preset's default), in the registry's order; then ``partners`` when a game of
    4 players left that out. A house rule that changes no score is not listed (``SCORELESS``)."""
    rules = setup.rules
    missing: list[tuple[str, OptionValue | bool]] = [
        (rule.name, rules.value(rule.name))
        for rule in HOUSE_RULES
        if rule.name not in setup.options and rule.name not in SCORELESS
    ]
    if len(setup.players) == PARTNERS_PLAYERS and setup.partners is None:
        missing.append(("partners", setup.in_partnership))
    return missing


def _write_setup(setup: Setup, times: Times | None, every_rule: bool) -> dict[str, Any]:
    """A record's fields before its hands: the setup, and when the game began and ended."""
    record: dict[str, Any] = {"format": FORMAT, "preset": setup.preset}
    if every_rule:
        record["options"] = every_house_rule(setup)
    elif setup.options:
        record["options"] = dict(setup.options)
    record["players"] = list(setup.players)
    if every_rule and len(setup.players) == PARTNERS_PLAYERS:
        record["partners"] = setup.in_partnership
    elif setup.partners is not None:
        record["partners"] = setup.partners
    if times is not None and times.started is not None:
        record["started"] = write_time(times.started)
    if times is not None and times.finished is not None:
        record["finished"] = write_time(times.finished)
    return record


def _write_lead(event: NewHand, names: tuple[str, ...]) -> dict[str, Any]:
    """A hand's fields before its events: who leads, how they were chosen, the redraws."""
    begun: dict[str, Any] = {"lead": names[event.leader]}
    if event.chosen is not None:
        begun["lead_by"] = event.chosen
    if event.redraws:
        begun["redraws"] = event.redraws
    return begun


def _write_play(event: Play, names: tuple[str, ...]) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": names[event.player], "play": _spell(event)}
    if event.end is not None:
        entry["end"] = event.end
    if event.called is not None:
        entry["called"] = event.called
    return entry


def _write_claim(event: Claim, names: tuple[str, ...]) -> dict[str, Any]:
    return {"player": names[event.player], "muggins": True}


def _write_guess(event: Guess, names: tuple[str, ...]) -> dict[str, Any]:
    return {"player": names[event.player], "guess": event.points}


def _write_adjust(event: Adjust, names: tuple[str, ...]) -> dict[str, Any]:
    return {"player": names[event.player], "adjust": event.points, "reason": event.reason}


def _write_draw(event: Draw, names: tuple[str, ...]) -> dict[str, Any]:
    return {"player": names[event.player], "draw": event.count}


def _write_pass(event: Pass, names: tuple[str, ...]) -> dict[str, Any]:
    return {"player": names[event.player], "pass": True}


_WRITERS: dict[type, Callable[[Any, tuple[str, ...]], dict[str, Any]]] = {
    Play: _write_play,
    Claim: _write_claim,
    Guess: _write_guess,
    Adjust: _write_adjust,
    TimeCalled: lambda event, names: {"time": event.rule},
    Draw: _write_draw,
    Pass: _write_pass,
}
"""How each kind of entry of a hand is written, by its type (a new hand and a settlement are
parts of the hand itself)."""


def replay_result(game: Game) -> dict[str, Any]:
    """The replay output for a legal game: sides, scores, winner and every hand's plays."""
    sides = game.sides

    def per_side(values: list[int] | tuple[int, ...]) -> dict[str, int]:
        return dict(zip(sides, values, strict=True))

    hands: list[dict[str, Any]] = []
    scores_after = game.scores_after_hands()
    for index, hand in enumerate(game.hands):
        last = index == len(game.hands) - 1
        settled = hand.settlement.changes if hand.settlement else (0,) * len(sides)
        # A hand whose plays are over but whose "remaining" is not given yet (read with
        # unsettled_last_hand) is still open: the table has not settled it.
        result = hand.result
        if result in ("domino", "blocked") and hand.settlement is None:
            result = "open"
        next_lead = None
        if (
            result == "domino"
            and hand.went_out is not None
            and not (last and game.winner is not None)
        ):
            next_lead = game.players[hand.went_out]
        hands.append(
            {
                "result": result,
                "plays": [_replayed_play(game, p) for p in hand.plays],
                "settlement": per_side(settled),
                "scores": per_side(scores_after[index]),
                "next_lead": next_lead,
            }
        )
        adjustments = [
            {
                "player": game.players[move.seat],
                "side": sides[move.side],
                "points": move.points,
                "reason": move.reason,
            }
            for move in hand.moves
            if move.kind == "adjust"
        ]
        if adjustments:  # docs/rules.md 8c, only where there are any
            hands[-1]["adjustments"] = adjustments
        notes = referee_notes(game, index + 1)
        if notes:  # only where there are any: older readers see nothing else change
            hands[-1]["notes"] = [str(note.message) for note in notes]
    timed = {"time": game.time, "won_at_time": game.won_at_time} if game.time else {}
    return {
        "ok": True,
        "sides": list(sides),
        "scores": per_side(game.scores),
        "winner": None if game.winner is None else sides[game.winner],
        "hands": hands,
        **timed,  # only where time was called (docs/rules.md 8f)
    }


def _replayed_play(game: Game, scored: Scored) -> dict[str, Any]:
    """A play as the replay output lists it; ``called`` and ``claimed_by`` only under muggins,
    ``guessed`` only in practice mode."""
    play: dict[str, Any] = {
        "player": game.players[scored.player],
        "tile": str(scored.tile),
        "end": scored.end,
        "count": scored.count,
        "points": scored.points,
    }
    if scored.called is not None:
        play["called"] = scored.called
    if scored.claimed_by is not None:
        play["claimed_by"] = game.players[scored.claimed_by]
    if game.rules.practice:
        play["guessed"] = scored.guessed
    return play


def replay(text: str | bytes, *, open_last_hand: bool = False) -> tuple[dict[str, Any], bool]:
    """Replay a record's JSON text: the replay output and whether the record is legal.

    ``open_last_hand`` reads a last hand that is over but has no ``remaining`` (a game
    exported before the table settled it) as a hand still open, instead of refusing it.
    """
    try:
        game = load_record(text, unsettled_last_hand=open_last_hand)
    except RecordRefusal as refusal:
        return {"ok": False, "error": refusal.as_json()}, False
    return replay_result(game), True
