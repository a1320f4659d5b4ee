"""A simulated table's game as the entries its phone sends: for the kill test and bench/load.py.

``scorekeeper.rules.simulate`` plays a whole game with shuffled tiles and hidden hands; this
module turns its events into the form posts a phone makes (lead, play, draw, pass, settle),
each with the number of events stored before and after it. The web app enters a play
unturned and begins a hand a settled domino leaves no choice about by itself, so the game is
first put the way the app stores it: a lead the simulation wrote low half first is entered
unturned and the rest of its hand mirrored (W and E swapped, the same game in a mirror), and
the hand the app begins itself is no entry of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from scorekeeper.rules import Draw, Event, Game, NewHand, Pass, Play, Settle, Setup
from scorekeeper.rules.simulate import play_game

NAMES = ("Ann", "Bob", "Cy", "Di")
PRESETS = ("all-fives", "fives-up", "totally-fives")
MIRROR = {"W": "E", "E": "W"}


@dataclass(frozen=True)
class Entry:
    """One form a phone posts: ``/games/<key>/<action>`` with ``fields`` (and the page's seq).

    ``before`` events are stored when it is sent and ``after`` once it is entered.
    """

    action: str
    fields: dict[str, str]
    before: int
    after: int


def event_key(event: Event) -> tuple[object, ...]:
    """What must match between the entry sent and the event stored (the web adds details)."""
    if isinstance(event, Play):
        return ("play", event.player, str(event.tile))
    if isinstance(event, Draw):
        return ("draw", event.player, event.count)
    if isinstance(event, Pass):
        return ("pass", event.player)
    if isinstance(event, NewHand):
        return ("new_hand", event.leader)
    return ("settle", tuple(sorted(event.remaining.items())))


def _unturned(events: list[Event]) -> list[Event]:
    """The events with every lead entered unturned: a turned lead's hand is mirrored."""
    result: list[Event] = []
    mirrored = False
    for event in events:
        if isinstance(event, NewHand):
            mirrored = False
        elif isinstance(event, Play) and event.flipped:
            mirrored, event = True, replace(event, flipped=False)
        elif isinstance(event, Play) and mirrored and event.end in MIRROR:
            event = replace(event, end=MIRROR[event.end])
        result.append(event)
    return result


def _held_text(held: int | tuple[object, ...]) -> str:
    return str(held) if isinstance(held, int) else " ".join(str(tile) for tile in held)


def simulated_game(seed: int, max_hands: int = 100) -> tuple[Setup, list[Event], list[Entry]]:
    """A whole simulated game (2 to 4 players, one of the presets) chosen by ``seed``.

    Returns its setup, the events as the web app stores them, and the entries that store them.
    """
    players = 2 + seed % 3
    setup = Setup.create(list(NAMES[:players]), PRESETS[seed // 3 % len(PRESETS)])
    events, entries = played_entries(setup, random.Random(seed), max_hands)
    return setup, events, entries


def played_entries(
    setup: Setup, rng: random.Random, max_hands: int = 100
) -> tuple[list[Event], list[Entry]]:
    """A game of ``setup`` played by the simulation (shuffled by ``rng``): the events as the
    web app stores them, and the entries that store them (a club night's table, whose game
    the round created with its seats and house rules, plays this way in bench/night_load.py)."""
    simulated = _unturned(list(play_game(setup, rng, max_hands).events))
    game = Game(setup)
    entries: list[Entry] = []
    begun_by_app = False
    for event in simulated:
        before = len(game.events)
        if isinstance(event, NewHand):
            if begun_by_app:
                begun_by_app = False
                continue
            forced = game.next_leader is not None
            game.push(NewHand(event.leader, None if forced else "table"))
            fields = {"how": "seat", "leader": str(event.leader)}
            entries.append(Entry("lead", fields, before, before + 1))
        elif isinstance(event, Play):
            game.push(Play(event.player, event.tile, event.end))
            fields = {"tile": str(event.tile)}
            if event.end is not None:
                fields["end"] = event.end
            entries.append(Entry("play", fields, before, before + 1))
        elif isinstance(event, Draw):
            for _ in range(event.count):
                game.push(Draw(event.player, 1))
                entries.append(Entry("draw", {}, len(game.events) - 1, len(game.events)))
        elif isinstance(event, Pass):
            game.push(event)
            entries.append(Entry("pass", {}, before, before + 1))
        else:
            assert isinstance(event, Settle)
            game.push(event)
            fields = {f"held-{seat}": _held_text(held) for seat, held in event.remaining.items()}
            leader = game.next_leader
            if game.phase == "lead" and leader is not None:
                game.push(NewHand(leader))
                begun_by_app = True
            entries.append(Entry("settle", fields, before, len(game.events)))
    return list(game.events), entries
