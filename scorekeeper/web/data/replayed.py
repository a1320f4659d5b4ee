"""The replayed game of each table, kept in this process between requests.

Why: a game is its event log, and replaying the whole log on every request made a play in
hand 25 cost four times a play in hand 1. So each worker process keeps, per game, the game
it last replayed, the ``version`` it was replayed at, and which stored row each of its events
came from. A request replays at most the events this process has not seen yet.

How it stays right, with several worker processes and on SQLite or PostgreSQL:

- **The version decides, never the cache.** Every change to a game bumps its ``version``
  column (it only grows). A request reads the version with the game's row; a cached game is
  used as it is only when it was replayed at exactly that version. Otherwise the entry is
  stale (another process, or another thread, changed the game): it is caught up, never
  trusted. A writer counts its change only on the version it read (one conditional
  update, see games/writing.py), so it never writes on a game it did not see.
- **Only live events count.** An undo never deletes a row: it marks the entry's rows
  undone (``undone_at``), and a redo stores the entry again as new rows at the end (the
  undone ones stay, marked redone). Every read here asks for live rows only, so an undone
  row simply drops out of the list and a redone entry comes back as new rows.
- **Catching up reads one hand, not the game.** Only the tail of the live event list ever
  changes: entries are appended, undone from the end, redone at the end, and the lead tile
  is turned round while it is in the current hand. So the refresh reads the live rows from
  the cached game's current hand on (a light select of a few columns, no ORM object) and
  compares each with the row its cached event came from (row id, creation time, kind and
  data). If the hand's first row is still there unchanged, every row before it is too (none
  can change without undoing that one first, and a redo brings an undone row back only
  while nothing else was entered since); the cached game is rewound to the first row that
  differs and the new rows are pushed. If it is gone, the game is replayed whole.
- **The version and the rows come from one statement**, so they are one snapshot even under
  PostgreSQL's read committed isolation, where two statements may see different commits.
- **A cached game is never changed.** Readers (several threads of a worker) render it
  without a lock; a writer pushes onto :meth:`Game.fork`, which copies the current hand
  only, and puts the result in the cache after its commit. An entry is replaced only by a
  newer version, and is keyed by the game's edit key (random, never reused; ids can be).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import Flask

from scorekeeper.rules import Event, Game, Setup
from scorekeeper.web.bounded import Bounded, capacity_setting

CAPACITY = 256
"""How many games a process keeps by default, the least recently used going first: a busy
club's tables. The setting ``LIVE_GAMES`` (``SCOREKEEPER_LIVE_GAMES``) changes it: a club
server keeps at least as many as the tables it serves at once, or a table whose game was
forgotten is replayed whole from the database at its next request. ``bench/live_games.py``
measures what a game takes (a long game, 26 hands and 640 events, about 0.4 MB)."""


@dataclass(frozen=True, slots=True)
class StoredRow:
    """Which stored row an event came from: enough to tell the same row from a replacement.

    The creation time tells a new row from an old one that had the same id (SQLite may give
    the id of a deleted last row again, after a purge); the data tells a lead turned round in
    place.
    """

    id: int
    seq: int
    kind: str
    data: str
    created_at: Any


Fetch = Callable[[int, int | None], tuple[int, list[StoredRow]] | None]
"""``fetch(game_id, from_seq)``: the game's version and its live rows with ``seq >= from_seq``
(every live row when None), in order, read in one statement; None if the game is gone."""
Parse = Callable[[str, dict[str, Any]], Event]


@dataclass(frozen=True)
class Replayed:
    """A game replayed at ``version``, and the stored row of each of its events."""

    version: int
    game: Game
    rows: tuple[StoredRow, ...]

    def entered_at(self, indices: Iterable[int]) -> dict[int, datetime]:
        """When each of the game's events at ``indices`` (from 0) was entered, by index: the
        creation time of its stored row (the referee knows no times), read with the rows."""
        return {index: self.rows[index].created_at for index in indices}


class ReplayedGames:
    """Each game's latest replay in this process, by edit key; safe across threads."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._kept: Bounded[str, Replayed] = Bounded(capacity)

    def get(self, key: str) -> Replayed | None:
        """The cached replay of the game with edit key ``key``, of whatever version."""
        return self._kept.get(key)

    def put(self, key: str, entry: Replayed) -> None:
        """Keep ``entry`` unless a newer version is kept already."""
        self._kept.put(key, entry, replaces=lambda known: known.version <= entry.version)

    def clear(self) -> None:
        """Forget every game (tests; the next request replays from the database)."""
        self._kept.clear()

    def resize(self, capacity: int) -> None:
        """Keep at most ``capacity`` games from now on."""
        self._kept.resize(capacity)

    def __len__(self) -> int:
        return len(self._kept)


games = ReplayedGames()
"""This process's replays."""


def _push_rows(game: Game, rows: Sequence[StoredRow], parse: Parse) -> None:
    for row in rows:
        game.push(parse(row.kind, json.loads(row.data)))


def replay_whole(setup: Setup, version: int, rows: Sequence[StoredRow], parse: Parse) -> Replayed:
    """The game replayed from all its rows."""
    game = Game(setup)
    _push_rows(game, rows, parse)
    return Replayed(version, game, tuple(rows))


def catch_up(
    game_id: int, setup: Setup, known: Replayed | None, fetch: Fetch, parse: Parse
) -> Replayed | None:
    """The game as stored now, from ``known`` plus the rows it has not seen; None if gone."""
    if known is None or not known.rows or known.game.setup != setup:
        # Nothing to continue from, or the setup changed (a club renamed a player).
        found = fetch(game_id, None)
        return None if found is None else replay_whole(setup, found[0], found[1], parse)
    start = known.game.hand_start
    first = known.rows[start]
    found = fetch(game_id, first.seq)
    if found is None:
        return None
    version, tail = found
    if not tail or tail[0] != first:
        # The current hand's first row is gone: undone past it, so replay the whole game.
        whole = fetch(game_id, None)
        return None if whole is None else replay_whole(setup, whole[0], whole[1], parse)
    same = 0
    cached_tail = known.rows[start:]
    while same < min(len(tail), len(cached_tail)) and tail[same] == cached_tail[same]:
        same += 1
    kept = start + same
    if kept == len(known.rows) and same == len(tail):
        return Replayed(version, known.game, known.rows)
    game = known.game.fork()
    game.rewind(kept)
    _push_rows(game, tail[same:], parse)
    return Replayed(version, game, known.rows[:kept] + tuple(tail[same:]))


def current(
    key: str, game_id: int, setup: Setup, version: int, fetch: Fetch, parse: Parse
) -> Replayed | None:
    """The game with edit key ``key`` at ``version`` or later, from the cache when it can be.

    ``version`` is the one just read with the game's row; under the write lock it is the
    game's version, and the cached entry is used only if it was replayed at exactly that.
    """
    known = games.get(key)
    if known is not None and known.version == version:
        return known
    fresh = catch_up(game_id, setup, known, fetch, parse)
    if fresh is not None:
        games.put(key, fresh)
    return fresh


def init_app(app: Flask) -> None:
    """Keep as many games as the setting ``LIVE_GAMES`` says (one process serves one app)."""
    games.resize(capacity_setting(app, "LIVE_GAMES", CAPACITY))
