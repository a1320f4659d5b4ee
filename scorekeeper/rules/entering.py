"""How entering a game at a table works, beyond the moves themselves: what one undo takes
back and what a redo brings back, when the next hand begins by itself, until when the lead tile may be turned round, who
wins the draw for the lead, and how a player says what they still hold.

The web layer asks these questions; the answers are rules of the app's referee, so they live
here with the rest of it, in pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from scorekeeper.rules.errors import MalformedInput, Refusal
from scorekeeper.rules.events import Event, Held, NewHand, Play, Settle
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.game import Game
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.practice import hidden_play
from scorekeeper.rules.tiles import DOUBLE_SIX, Tile, TileSet, parse_tile

_PIPS = re.compile(r"^\d{1,4}$")
_SEPARATORS = re.compile(r"[\s,;]+")


def next_hand(game: Game) -> NewHand | None:
    """The next hand, when a settled domino hand leaves no choice of leader."""
    leader = game.next_leader
    if game.phase == "lead" and leader is not None:
        return NewHand(leader)
    return None


def undo_steps(game: Game) -> int:
    """How many events one undo removes: the next hand begun with a settlement goes with it.

    After a domino hand the app begins the next hand (its leader is known) in the same entry
    as the settlement, so undoing that settlement removes both.
    """
    events = game.events
    if not events:
        return 0
    if (
        isinstance(events[-1], NewHand)
        and len(events) >= 2
        and isinstance(events[-2], Settle)
        and len(game.hands) >= 2
        and game.hands[-2].result == "domino"
    ):
        return 2
    return 1


def redone(game: Game, events: Iterable[Event]) -> Game:
    """The game after a redo brings ``events`` back (what one undo took back, oldest first).

    The referee checks them again as if they were entered anew, so a redo is applied whole
    on a fork of ``game`` or refused with a Refusal, ``game`` itself unchanged either way.
    """
    again = game.fork()
    for event in events:
        again.push(event)
    return again


class CannotTurn(Exception):
    """The lead tile cannot be turned round now; the message says why, in plain words.

    ``said`` is why, as a :class:`Message` the site says in the reader's language; ``str()``
    of the exception is the same in English.
    """

    def __init__(self, message: Message | str) -> None:
        said = message if isinstance(message, Message) else say(message)
        super().__init__(str(said))
        self.said = said


def turnable_lead(game: Game) -> int:
    """Where the current hand's lead is in ``game.events``, if it may still be turned round.

    Which half of the lead faces ``W`` is only a matter of how it lies on the table, so it
    may be changed until the hand's second tile is played (draws and passes in between do
    not depend on it). A double shows the same number both ways. Otherwise CannotTurn.
    """
    hand = game.hand
    if hand is None or game.phase == "lead":
        raise CannotTurn(say("No hand is being played: there is no lead tile to turn."))
    if game.phase != "play":
        raise CannotTurn(
            say("Hand %(hand)s is over: its lead tile can no longer be turned.", hand=hand.number)
        )
    if not hand.plays:
        raise CannotTurn(
            say(
                "%(leader)s has not led hand %(hand)s yet: there is no tile to turn.",
                leader=game.players[hand.leader],
                hand=hand.number,
            )
        )
    lead = hand.plays[0].tile
    if len(hand.plays) > 1:
        second = hand.plays[1]
        raise CannotTurn(
            say(
                "The lead %(tile)s can no longer be turned: %(player)s's %(second)s is on the "
                "table. A lead can be turned only until the second tile is played.",
                tile=str(lead),
                player=game.players[second.player],
                second=str(second.tile),
            )
        )
    if lead.is_double:
        raise CannotTurn(
            say(
                "The lead %(tile)s is a double: it shows %(number)s both ways, so there is "
                "nothing to turn.",
                tile=str(lead),
                number=lead.high,
            )
        )
    events = game.events
    begun = max(i for i, event in enumerate(events) if isinstance(event, NewHand))
    return next(i for i in range(begun + 1, len(events)) if isinstance(events[i], Play))


class CannotCall(CannotTurn):
    """The call of the last play cannot be changed now; the message says why."""


def called_play(game: Game) -> int:
    """Where the play whose call may still be changed is in ``game.events``, or CannotCall.

    With house rule muggins a play goes in called right; its call may be changed while it is
    the last entry (a claim, or any other entry, fixes it), and only on a play whose count
    scores (on any other the only call is 0, the count itself).
    """
    if not game.rules.muggins:
        raise CannotCall(
            say("This game is played without calling the count: there is no call to change.")
        )
    hand = game.hand
    last = game.events[-1] if game.events else None
    if hand is None or not isinstance(last, Play) or not hand.plays:
        raise CannotCall(
            say(
                "The last entry is not a play: a call can be changed only on the play just "
                "entered, before anything else is."
            )
        )
    scored = hand.plays[-1]
    if not play_points(scored.count):
        raise CannotCall(
            say(
                "%(player)s's %(tile)s counts %(count)s, which scores nothing: there is no "
                "call to change.",
                player=game.players[scored.player],
                tile=str(scored.tile),
                count=scored.count,
            )
        )
    return len(game.events) - 1


def call_choices(game: Game) -> tuple[int, ...]:
    """The calls the last play may have, its count's points first, then each lower multiple
    of five down to 0 (nothing called); empty when its call cannot be changed."""
    try:
        called_play(game)
    except CannotCall:
        return ()
    hand = game.hand
    assert hand is not None
    return tuple(range(play_points(hand.plays[-1].count), -1, -5))


def lead_winner(drawn: dict[int, Tile]) -> tuple[int | None, tuple[int, ...]]:
    """Draw for the lead: the seat with the highest pip total, or the seats tied for it."""
    best = max(t.pips for t in drawn.values())
    tied = tuple(seat for seat, t in sorted(drawn.items()) if t.pips == best)
    return (tied[0], ()) if len(tied) == 1 else (None, tied)


def parse_held(name: str, text: str, tiles: TileSet = DOUBLE_SIX) -> Held | None:
    """What a player says they hold: a pip total ("13") or tiles ("6-1 0-0"; with a larger
    set each tile has its dash: "12-7 9-0"); None if blank."""
    text = text.strip()
    if not text:
        return None
    if _PIPS.match(text):
        return int(text)
    try:
        if tiles.top == 6:
            return tuple(parse_tile(part) for part in _SEPARATORS.split(text) if part)
        return _dashed_tiles(text, tiles)
    except MalformedInput:
        raise Refusal(
            "remaining",
            say(
                '%(player)s: "%(given)s" is neither a pip total nor tiles written like '
                '"%(example)s".',
                player=name,
                given=text,
                example="6-1 0-0" if tiles.top == 6 else f"{tiles.top}-1 9-0",
            ),
        ) from None


_DASHED = re.compile(r"(\d{1,2})\s*[-|:]\s*(\d{1,2})")


def _dashed_tiles(text: str, tiles: TileSet) -> tuple[Tile, ...]:
    """Tiles of a larger set, each written with its dash, apart by spaces or commas."""
    found: list[Tile] = []
    rest = _DASHED.sub(" ", text)
    if rest.strip(" ,;\t\n"):
        raise MalformedInput(say("%(given)s is not a list of tiles.", given=text))
    for match in _DASHED.finditer(text):
        found.append(tiles.parse(f"{match.group(1)}-{match.group(2)}"))
    return tuple(found)


def shown_game(game: Game) -> Game:
    """``game`` as the table may see it in practice mode (docs/rules.md 8e): without the play
    whose count is hidden until the table guesses it (a copy of the game one entry back, for
    the scores, the log, the sheet and the chart), or ``game`` itself when no count is hidden."""
    if hidden_play(game) is None:
        return game
    shown = game.fork()
    shown.pop()
    return shown
