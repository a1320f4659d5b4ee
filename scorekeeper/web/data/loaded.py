"""A stored game as a page sees it: the door it was reached by, and the game replayed.

These are plain data, shared by the store (which loads and changes games) and the table view
(which shows them); neither of those needs the other to know what a loaded game is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final, Literal, get_args

from scorekeeper.rules import Event, Game
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.data.replayed import Replayed

DoorKind = Literal["games", "watch"]
"""A door to a game, as its URLs spell it (and the table's ``data-door`` shows it)."""
EDIT: Final = "games"
"""The edit door: ``/games/<edit key>`` may enter, undo and settle."""
WATCH: Final = "watch"
"""The watch door: ``/watch/<watch key>`` shows the same game and changes nothing."""
DOOR_KINDS: tuple[DoorKind, ...] = get_args(DoorKind)


def door_kind(text: str) -> DoorKind | None:
    """The door ``text`` names (``games`` or ``watch``), or None for anything else."""
    for kind in DOOR_KINDS:
        if text == kind:
            return kind
    return None


@dataclass(frozen=True)
class Door:
    """How a page reached a game: by its edit link (``games``) or its watch link (``watch``).

    ``key`` is the key in the URL; the watch key is known behind both doors (whoever may
    change a game may also share its watch link), the edit key only behind the edit door.
    """

    kind: DoorKind
    key: str
    watch_key: str

    @property
    def editable(self) -> bool:
        """Whether this door may change the game."""
        return self.kind == EDIT

    @property
    def edit_key(self) -> str | None:
        """The edit key, behind the edit door only."""
        return self.key if self.editable else None

    @classmethod
    def of(cls, row: GameRow, kind: DoorKind = EDIT) -> Door:
        """The door ``kind`` of the stored game ``row``."""
        return cls(kind, row.edit_key if kind == EDIT else row.watch_key, row.watch_key)


@dataclass
class Loaded:
    """A stored game, the referee's game replayed from its events, and the door used.

    ``version`` is the version the game was replayed at (the row's, read with its events):
    the number an entry form must carry. ``redo`` is what a redo would bring back (the
    latest undo's events, oldest first), empty when redo is not offered or behind the watch
    door: read by ``read_redo`` when a page first asks, so that an entry, which only needs
    the game to check itself, does not read it.
    """

    row: GameRow
    game: Game
    door_kind: DoorKind = EDIT
    version: int = 0
    read_redo: Callable[[], Sequence[Event]] | None = field(default=None, repr=False)
    replayed: Replayed | None = field(default=None, repr=False, compare=False)
    """What the game was replayed from (its stored rows at ``version``): an entry made on
    this game goes on from it, instead of looking the game up a second time."""
    read_rematch: Callable[[], GameRow | None] | None = field(
        default=None, repr=False, compare=False
    )
    """Reads the rematch started from this finished game (set only when one was)."""

    @cached_property
    def rematch(self) -> Door | None:
        """The rematch of this finished game behind the same kind of door, once started."""
        again = None if self.read_rematch is None else self.read_rematch()
        return None if again is None else Door.of(again, self.door_kind)

    @cached_property
    def redo(self) -> Sequence[Event]:
        """What a redo would bring back, oldest first (empty when it is not offered)."""
        return () if self.read_redo is None else tuple(self.read_redo())

    @property
    def door(self) -> Door:
        """The door the game was reached by."""
        return Door.of(self.row, self.door_kind)

    @property
    def seq(self) -> int:
        """How many events the game has (the page's ``data-seq``)."""
        return len(self.game.events)
