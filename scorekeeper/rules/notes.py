"""Referee notes: what a settled hand's history shows could not have happened under the rules.

The app never sees the players' tiles during a hand. When a hand is settled with the tiles a
player still holds (not just a pip total), those tiles can be checked against the history:
a player who drew or passed while holding a tile that fitted an open end broke the rule that
a player who can play must play (docs/rules.md section 4). These are notes for the table to talk
over, not penalties: the scores are unchanged.

Only what is certain is noted:

- **A pass.** No draw can follow a pass in the same hand (a pass needs an empty boneyard,
  and the boneyard only shrinks), so every tile the player still held at the end was held at
  the pass. Each such tile that fitted an open end then is noted.
- **A draw.** A tile held at the end was either held at the draw, drawn in it, or drawn
  later. If the player draws again later in the hand, the tile may have come in that later
  draw, so nothing is said about the earlier draw. If this is the player's last draw of the
  hand, a tile still held at the end that fitted an open end at that moment is a certain
  misplay: either the player held it and drew instead of playing it, or drew it then and did
  not play it at once as the rules require (the layout does not change while a player draws).
- **A lower double led** (house rule ``lead: highest-double``). A player who drew nothing
  during the hand held at its end only tiles they held at the lead (redraws come before the
  lead), and played only tiles they held at the lead. A double higher than the one led,
  among the tiles such a player still held or among those they played, means the lead broke
  the rule. A played double needs no tiles named: the plays say it, so a hand settled with
  pip totals is checked for it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.rules.events import Draw, NewHand, Pass, Play, Settle
from scorekeeper.rules.game import Game
from scorekeeper.rules.layout import End
from scorekeeper.rules.messages import Fact, Listed, Message, say, say_list
from scorekeeper.rules.tiles import Tile

Misplay = Literal["draw", "pass", "lead"]
"""What a player did instead of playing a tile that fitted, or ``lead``: a lower double was led
while a player held a higher one."""


@dataclass(frozen=True)
class Note:
    """One thing that could not have happened: ``player`` drew or passed holding ``tile``, or
    held the double ``tile``, higher than the one led (``action`` "lead").

    ``index`` is the event's place in ``game.events`` (from 0), ``hand`` the hand (from 1),
    ``event`` the event's number in the hand as the record counts them (from 1); ``action``
    is "draw", "pass" or "lead"; ``ends`` are the open ends the tile fitted, with the numbers
    they showed (none for a lead); ``message`` says it in plain words.
    """

    index: int
    hand: int
    event: int
    player: int
    action: Misplay
    tile: Tile
    ends: tuple[End, ...]
    message: Message


def _hand_bounds(game: Game, hand_number: int) -> tuple[int, int] | None:
    """The indices of hand ``hand_number``'s NewHand and of the event after its last one."""
    starts = game.hand_starts
    if not 1 <= hand_number <= len(starts):
        return None
    start = starts[hand_number - 1]
    stop = starts[hand_number] if hand_number < len(starts) else len(game.events)
    return start, stop


def _fitted(ends: tuple[End, ...]) -> Listed:
    return say_list([say("%(end)s (shows %(pips)s)", end=end.name, pips=end.shows) for end in ends])


def _message(event: int, name: str, action: Misplay, tile: Tile, ends: tuple[End, ...]) -> Message:
    facts: dict[str, Fact] = {
        "event": event,
        "player": name,
        "tile": str(tile),
        "ends": _fitted(ends),
    }
    if action == "pass":
        return say(
            "Event %(event)s: %(player)s passed while holding %(tile)s, which fitted %(ends)s.",
            **facts,
        )
    return say(
        "Event %(event)s: %(player)s drew while holding %(tile)s (or drew it then and did not "
        "play it at once), which fitted %(ends)s.",
        **facts,
    )


def referee_notes(game: Game, hand_number: int) -> list[Note]:
    """What hand ``hand_number`` (from 1) shows could not have happened, in event order.

    Empty when the hand is not settled, or settled with pip totals only, or clean.
    """
    bounds = _hand_bounds(game, hand_number)
    if bounds is None:
        return []
    start, stop = bounds
    settle = game.events[stop - 1]
    if not isinstance(settle, Settle):
        return []
    tiles = {seat: held for seat, held in settle.remaining.items() if isinstance(held, tuple)}
    notes = _lower_double_led(game, hand_number, start, stop, tiles)
    if not any(tiles.values()):
        return notes
    last_draw = {
        event.player: i for i in range(start, stop) if isinstance(event := game.events[i], Draw)
    }
    # Replay the hand from its own beginning (the game as it stood then, so the hand is led
    # under the same rules), looking at the layout before each draw and pass.
    replayed = game.fork()
    replayed.rewind(start)
    number = 0
    for index in range(start, stop - 1):
        event = game.events[index]
        if isinstance(event, (Draw, Pass)):
            number += 1
            checkable = isinstance(event, Pass) or last_draw.get(event.player) == index
            if checkable and event.player in tiles:
                notes.extend(
                    _check(replayed, hand_number, index, number, event, tiles[event.player])
                )
        elif not isinstance(event, NewHand):
            number += 1
        replayed.push(event)
    return notes


def _played_doubles(game: Game, start: int, stop: int) -> dict[int, dict[Tile, int]]:
    """The doubles each seat played in the hand after its lead, with the number of the event
    (from 1, as the record counts them) that played each."""
    played: dict[int, dict[Tile, int]] = {}
    for number, event in enumerate(game.events[start + 1 : stop - 1], 1):
        if number > 1 and isinstance(event, Play) and event.tile.is_double:
            played.setdefault(event.player, {})[event.tile] = number
    return played


def _lower_double_led(
    game: Game, hand_number: int, start: int, stop: int, tiles: dict[int, tuple[Tile, ...]]
) -> list[Note]:
    """House rule lead: highest-double: a double higher than the lead that a player who drew
    nothing still held at the end, or played during the hand: held from the start either way."""
    hand = game.hands[hand_number - 1]
    if not hand.double_lead or not hand.plays:
        return []
    led = hand.plays[0]
    played = _played_doubles(game, start, stop)
    notes: list[Note] = []
    for seat in sorted(set(tiles) | set(played)):
        if hand.drawn[seat]:
            continue  # a higher double may have come in a draw after the lead
        held = [t for t in tiles.get(seat, ()) if t.is_double]
        higher = [t for t in (*held, *played.get(seat, {})) if t.high > led.tile.high]
        if not higher:
            continue
        double = max(higher, key=lambda t: t.high)
        facts: dict[str, Fact] = {
            "leader": game.players[led.player],
            "lead": str(led.tile),
            "player": game.players[seat],
            "tile": str(double),
        }
        if double not in held:
            facts["event"] = played[seat][double]
            if seat == led.player:
                message = say(
                    "Event 1: %(leader)s led %(lead)s, and at event %(event)s, having drawn "
                    "nothing, played %(tile)s, a higher double held from the start; the highest "
                    "double leads (house rule lead: highest-double).",
                    **facts,
                )
            else:
                message = say(
                    "Event 1: %(leader)s led %(lead)s, and at event %(event)s %(player)s, "
                    "having drawn nothing, played %(tile)s, a higher double held from the "
                    "start; the highest double leads (house rule lead: highest-double).",
                    **facts,
                )
        elif seat == led.player:
            message = say(
                "Event 1: %(leader)s led %(lead)s while holding %(tile)s, a higher double; "
                "the highest double leads (house rule lead: highest-double).",
                **facts,
            )
        else:
            message = say(
                "Event 1: %(leader)s led %(lead)s while %(player)s held %(tile)s, a "
                "higher double; the highest double leads (house rule lead: highest-double).",
                **facts,
            )
        notes.append(Note(start + 1, hand_number, 1, seat, "lead", double, (), message))
    return notes


def _check(
    game: Game,
    hand_number: int,
    index: int,
    number: int,
    event: Draw | Pass,
    held: tuple[Tile, ...],
) -> list[Note]:
    """Notes for the tiles in ``held`` that fitted an open end when ``event`` was entered."""
    hand = game.hand
    assert hand is not None
    layout = hand.layout
    action: Misplay = "pass" if isinstance(event, Pass) else "draw"
    name = game.players[event.player]
    notes: list[Note] = []
    for tile in held:
        ends = tuple(End(end, layout.arms[end].value) for end in layout.fits(tile))
        if ends:
            message = _message(number, name, action, tile, ends)
            notes.append(
                Note(index, hand_number, number, event.player, action, tile, ends, message)
            )
    return notes
