"""The table page's entry controls, as data and words: the tile picker and a larger set's
tray, the lead turned round, the call and its Muggins! claimants, where a refusal is shown,
and what undo and redo would take away or bring back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.rules import (
    Adjust,
    Claim,
    Draw,
    Event,
    Game,
    Guess,
    NewHand,
    Pass,
    Play,
    Refusal,
    Settle,
    Tile,
    TimeCalled,
)
from scorekeeper.rules.entering import redone, undo_steps
from scorekeeper.rules.messages import Message
from scorekeeper.web.data.loaded import Loaded
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import ngettext


@dataclass(frozen=True)
class PickerTile:
    """One tile of the picker."""

    tile: Tile
    on_table: bool
    fits: bool


@dataclass(frozen=True)
class Choice:
    """What a larger set's tray offers first: an open end ("W" showing 7), or for the lead a
    number (``name`` empty); ``chosen`` when its tiles are the ones shown."""

    name: str
    shows: int
    chosen: bool


@dataclass(frozen=True)
class LeadTurn:
    """The lead tile as it would lie turned round: what W and then E would show."""

    tile: Tile
    west: int
    east: int


@dataclass(frozen=True)
class Claimant:
    """An opponent side that may cry "Muggins!": its name and the seat that claims for it."""

    seat: int
    side: str


@dataclass(frozen=True)
class CallView:
    """The call of the current hand's last play (house rule muggins): what its player called,
    the calls it may still be changed to, and who may claim a count called short."""

    player: str
    tile: str
    count: int
    points: int
    """What the count scores, in points: the right call."""
    called: int
    choices: tuple[int, ...]
    """The calls it may be changed to (the right one first); empty once another entry came."""
    claimants: tuple[Claimant, ...]
    """The opponent sides that may claim a count called short, until the next entry."""
    claimed_by: str | None = None
    """The side that took the missed count ("Muggins!"), once one has."""
    claimed: int = 0
    worth: int = 0
    """What a claim would score, in the game's units (before get_in and an exact target)."""

    @property
    def missed(self) -> bool:
        """Whether the call was short of the count."""
        return self.called < self.points


Where = Literal["picker", "actions", "settle", "lead", "undo", "call", "guess", "penalty"]
"""The controls a refusal is shown beside: the tile picker, draw and pass, the settlement form,
the leader's form, undo and redo, the call and the Muggins! buttons, the guesses of a hidden
count (practice mode)."""

NoticeKind = Literal["info", "stale", "refused"]
"""How a notice above the table looks: news, the page was out of date, or a refusal."""


@dataclass
class Refused:
    """A refused entry to show beside what was tapped."""

    rule: str
    message: Message
    where: Where


def redo_label(loaded: Loaded) -> str | None:
    """What a redo would bring back, in words, or None when redo is not offered.

    Only right after an undo: the undone entry is brought back on a fork of the game (the
    current hand, not a replay of the game) to spell it as the undo button would.
    """
    if not loaded.redo:
        return None
    try:
        again = redone(loaded.game, loaded.redo)
    except Refusal:
        return None
    return undo_label(again)


def describe_play(game: Game, play: Play, end: str | None) -> str:
    """ "Ann's 6-4 on W", or "Ann's lead 6-4"."""
    name = game.players[play.player]
    if end is None:
        return _("%(player)s's lead %(tile)s", player=name, tile=str(play.tile))
    return _("%(player)s's %(tile)s on %(end)s", player=name, tile=str(play.tile), end=end)


def undo_label(game: Game) -> str | None:
    """What one undo removes, in words, e.g. "Ann's 6-4 on W"."""
    steps = undo_steps(game)
    if steps == 0:
        return None
    event: Event = game.events[-steps]
    hand = game.hands[-steps]
    if isinstance(event, Play):
        return describe_play(game, event, hand.plays[-1].end)
    if isinstance(event, Draw):
        return ngettext(
            "%(player)s drawing a tile",
            "%(player)s drawing %(num)d tiles",
            event.count,
            player=game.players[event.player],
        )
    if isinstance(event, Pass):
        return _("%(player)s's pass", player=game.players[event.player])
    if isinstance(event, Settle):
        return _("the settlement of hand %(number)s", number=hand.number)
    if isinstance(event, Claim):
        return _("%(player)s's Muggins!", player=game.players[event.player])
    if isinstance(event, Guess):
        return _("the guess of %(player)s's count", player=game.players[event.player])
    if isinstance(event, Adjust):
        # Short: the undo button's label has room for a few words on a phone.
        return _("%(side)s's adjustment", side=game.sides[game.side_of(event.player)])
    if isinstance(event, TimeCalled):
        # The server enters it again with the next entry while the round's time is up.
        return _("the time call")
    assert isinstance(event, NewHand)
    return _(
        "%(player)s leading hand %(number)s", player=game.players[event.leader], number=hand.number
    )
