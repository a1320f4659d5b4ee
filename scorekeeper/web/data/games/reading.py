"""Reading a stored game: finding it behind a door and replaying it from its live events.

A game is its event log. This process keeps the game it last replayed (replayed.py) and
reads only what it has not seen; the game's ``version`` says whether what it keeps is the
game as stored. Nothing here writes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any
from typing import cast as typed

from sqlalchemy import BigInteger, Table, Text, bindparam, cast, exists, func, select

from scorekeeper.rules import Event, Game, Setup
from scorekeeper.rules.stored import event_of
from scorekeeper.rules.times import Times
from scorekeeper.web.data import replayed
from scorekeeper.web.data.database import db
from scorekeeper.web.data.loaded import EDIT, WATCH, DoorKind, Loaded, door_kind
from scorekeeper.web.data.models import EventRow, GameRow


class NotFound(Exception):
    """There is no game with this key (behind this door)."""


def setup_of(row: GameRow) -> Setup:
    """The referee's setup of a stored game."""
    return Setup.create(list(row.players), row.preset, dict(row.options or {}), row.partners)


EVENTS = typed(Table, EventRow.__table__)
"""The events, as a table: the reads and writes of rows go through Core, not ORM objects."""
GAMES = typed(Table, GameRow.__table__)


def _rows_query(from_seq: bool) -> Any:
    """The game's version and its live event rows (from ``:from_seq`` on), in one statement."""
    games, events = GAMES, EVENTS
    joined = (events.c.game_id == games.c.id) & events.c.undone_at.is_(None)
    if from_seq:
        joined = joined & (events.c.seq >= bindparam("from_seq"))
    columns = (events.c.id, events.c.seq, events.c.kind, cast(events.c.data, Text))
    return (
        select(games.c.version, *columns, events.c.created_at)
        .select_from(games.outerjoin(events, joined))
        .where(games.c.id == bindparam("game_id"))
        .order_by(events.c.seq)
    )


_FROM_SEQ = _rows_query(True)
_ALL_ROWS = _rows_query(False)


def fetch_rows(game_id: int, from_seq: int | None) -> tuple[int, list[replayed.StoredRow]] | None:
    """The game's version and its live rows (light columns, no ORM objects), or None."""
    if from_seq is None:
        result = db.session.execute(_ALL_ROWS, {"game_id": game_id}).all()
    else:
        result = db.session.execute(_FROM_SEQ, {"game_id": game_id, "from_seq": from_seq}).all()
    if not result:
        return None
    rows = [replayed.StoredRow(*found[1:]) for found in result if found[1] is not None]
    return int(result[0][0] or 0), rows


def current(row: GameRow) -> replayed.Replayed:
    """The game of ``row`` at its version: cached, caught up, or replayed (see replayed.py)."""
    found = replayed.current(
        row.edit_key, row.id, setup_of(row), row.version or 0, fetch_rows, event_of
    )
    if found is None:
        raise NotFound(row.edit_key)
    return found


def replay(row: GameRow) -> Game:
    """The game of ``row`` replayed from its stored events, leaving the table cache alone
    (for reading many finished games at once, such as a club's)."""
    return replay_rows(row).game


def replay_rows(row: GameRow) -> replayed.Replayed:
    """The game of ``row`` replayed as :func:`replay` does, with the stored row of each of its
    events (when each was entered)."""
    found = fetch_rows(row.id, None)
    if found is None:
        raise NotFound(row.edit_key)
    return replayed.replay_whole(setup_of(row), found[0], found[1], event_of)


def record_times(row: GameRow, found: replayed.Replayed) -> Times:
    """The times the game ``row`` has for its record, replayed as ``found``: it began when its
    row was made, each event was entered when its row was (a settlement's is when the hand
    was settled), and a finished game ended with the entry that ended it (nothing is entered
    after a win). To the second, as pages show them."""

    def aware(moment: datetime) -> datetime:
        return moment.replace(microsecond=0, tzinfo=UTC)

    entries = tuple(aware(stored.created_at) for stored in found.rows)
    over = found.game.phase == "over" and bool(entries)
    return Times(aware(row.created_at), entries[-1] if over else None, entries)


_WAITING = (
    EVENTS.c.game_id == bindparam("game_id"),
    EVENTS.c.undone_at.is_not(None),
    EVENTS.c.redone_at.is_(None),
)
_REDO_ROWS = (
    select(EVENTS.c.id, EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.data)
    .where(
        *_WAITING,
        EVENTS.c.undo_mark
        == select(func.max(EVENTS.c.undo_mark)).where(*_WAITING).scalar_subquery(),
        exists().where(GAMES.c.id == bindparam("game_id"), GAMES.c.redoable > 0),
    )
    .order_by(EVENTS.c.seq)
)
"""The stored events the next redo brings back, in order: the latest undo's not yet redone
(the undone events with the highest ``undo_mark`` among those without ``redone_at``), while
the game's row says an undo may be redone. One statement, so that what it reads is one
snapshot of the game: a redo writes on the version read before it, and any change since
would have moved that version."""


def redo_rows(game_id: int) -> list[tuple[int, int, str, dict[str, Any]]]:
    """The id, number, kind and data of each stored event the next redo brings back (none
    when redo is not offered)."""
    found = db.session.execute(_REDO_ROWS, {"game_id": game_id}).all()
    return [(ident, seq, kind, data) for ident, seq, kind, data in found]


def redo_events(row: GameRow) -> list[Event]:
    """What the next redo brings back (nothing when redo is not offered)."""
    if not row.redoable:
        return []
    return [event_of(kind, data) for _, _, kind, data in redo_rows(row.id)]


def as_loaded(
    row: GameRow, game: Game, kind: DoorKind, version: int, source: replayed.Replayed | None = None
) -> Loaded:
    """The game as a page behind door ``kind`` gets it (replayed from ``source`` when given);
    behind the edit door with what a redo would bring back (read only while the row says an
    undo may be redone); with its rematch, read only when the row links one."""
    rematch = None if row.rematch_id is None else partial(rematch_of, row)
    if kind != EDIT or not row.redoable:
        return Loaded(row, game, kind, version, replayed=source, read_rematch=rematch)
    return Loaded(row, game, kind, version, partial(redo_events, row), source, rematch)


@dataclass(frozen=True)
class Undone:
    """An undone event, for the log: ``after`` live events came before it, when it was entered;
    when it was undone, and when a redo brought it back (None if none did)."""

    after: int
    event: Event
    undone_at: datetime
    redone_at: datetime | None


_NO_ID = 2**63 - 1
"""Above every row id and number: the bound of a hand that has no hand after it (compared as
a BIGINT, which PostgreSQL compares with an INTEGER column using the column's index)."""
_LIVE_IDS = (
    select(EVENTS.c.id)
    .where(
        EVENTS.c.game_id == bindparam("game_id"),
        EVENTS.c.undone_at.is_(None),
        EVENTS.c.seq.between(bindparam("first"), bindparam("last", type_=BigInteger)),
    )
    .order_by(EVENTS.c.seq)
)
_UNDONE_ROWS = (
    select(EVENTS.c.id, EVENTS.c.kind, EVENTS.c.data, EVENTS.c.undone_at, EVENTS.c.redone_at)
    .where(
        EVENTS.c.game_id == bindparam("game_id"),
        EVENTS.c.undone_at.is_not(None),
        EVENTS.c.id > bindparam("after_id"),
        EVENTS.c.id < bindparam("before_id", type_=BigInteger),
    )
    .order_by(EVENTS.c.id)
)


def undone_events(row: GameRow, shown: range | None = None) -> list[Undone]:
    """The game's undone events, in the order they were entered: every one, or only those the
    log shows among the live events ``shown`` (one hand's indices in the game, from 0).

    An undone event shows after the live events entered before it (``after`` of them); one
    entered before every live event shows with the first hand (``shown`` starting at 0).
    With ``shown``, the rows read are that hand's, however long the game: the live events are
    numbered by ``seq`` from 1, and their ids grow with it (an entry gets a new id, and a redo
    brings rows back only at the end), so the ids of the hand's first live event and of the
    next hand's bound the undone events the hand shows.
    """
    first, last = (0, _NO_ID) if shown is None else (shown.start + 1, shown.stop + 1)
    live = list(
        db.session.scalars(_LIVE_IDS, {"game_id": row.id, "first": first, "last": last}).all()
    )
    after_id, before_id = 0, _NO_ID
    if shown is not None:
        if shown.start and live:
            after_id = live[0]
        if len(live) > len(shown):
            before_id = live[len(shown)]
            live = live[: len(shown)]
    undone = db.session.execute(
        _UNDONE_ROWS, {"game_id": row.id, "after_id": after_id, "before_id": before_id}
    ).all()
    start = 0 if shown is None else shown.start
    return [
        Undone(start + bisect_left(live, ident), event_of(kind, data), undone_at, redone_at)
        for ident, kind, data, undone_at, redone_at in undone
    ]


IN_USE = GameRow.deleted_at.is_(None)
"""Not deleted: a deleted game is found behind neither key while it waits to be purged."""

_FIND_BY = {
    kind: select(GameRow).where(column == bindparam("key"), IN_USE)
    for kind, column in ((EDIT, GameRow.edit_key), (WATCH, GameRow.watch_key))
}
"""The game behind a door, one statement per kind of door, built once (every request of a
game asks it first, and building it is a noticeable part of an entry's ORM work)."""


def find(key: str, kind: str = EDIT) -> GameRow:
    """The stored game whose ``kind`` key is ``key`` (its events not loaded), or NotFound."""
    statement = _FIND_BY.get(kind)
    if statement is None:
        raise NotFound(kind)
    row = db.session.scalars(statement, {"key": key}).first()
    if row is None:
        raise NotFound(key)
    return row


_VERSION_BY = {
    (kind, with_id): select(GAMES.c.version, *([GAMES.c.id] if with_id else [])).where(
        GAMES.c[column] == bindparam("key"), GAMES.c.deleted_at.is_(None)
    )
    for kind, column in ((EDIT, "edit_key"), (WATCH, "watch_key"))
    for with_id in (False, True)
}
_version_sql: dict[tuple[str, str, bool], tuple[str, bool]] = {}


def _driver_sql(kind: str, with_id: bool) -> tuple[str, bool]:
    """The version query for ``kind`` (with the game's id) as this database's driver reads
    it, compiled once."""
    dialect = db.engine.dialect
    cached = _version_sql.get((dialect.name, kind, with_id))
    if cached is None:
        compiled = _VERSION_BY[kind, with_id].compile(dialect=dialect)
        cached = (compiled.string, dialect.positional)
        _version_sql[(dialect.name, kind, with_id)] = cached
    return cached


def followed(key: str, kind: str = EDIT) -> tuple[int, int]:
    """The id and version of the game behind ``key`` (a door of kind ``kind``), or NotFound:
    what an event stream of the game follows. Read as :func:`version_of` reads (every phone
    opens a stream again after each restart, all at once); no transaction is left open."""
    found = _version_row(key, kind, with_id=True)
    return int(found[1]), int(found[0] or 0)


def version_of(key: str, kind: str = EDIT) -> int:
    """The game's change counter, read alone (no events, no replay), or NotFound.

    Every page following a game asks this every 1.5 seconds, so it skips the ORM and the
    statement compiler: one pooled driver connection, one query compiled once.
    """
    return int(_version_row(key, kind, with_id=False)[0])


def _version_row(key: str, kind: str, with_id: bool) -> tuple[Any, ...]:
    """The row of the version query (:func:`_driver_sql`) for ``key``, or NotFound."""
    if kind not in (EDIT, WATCH):
        raise NotFound(kind)
    sql, positional = _driver_sql(kind, with_id)
    connection = db.engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, (key,) if positional else {"key": key})
        found = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()
    if found is None:
        raise NotFound(key)
    return tuple(found)


def load(key: str, kind: str = EDIT) -> Loaded:
    """The game behind door ``kind`` with key ``key``, replayed from its events, or NotFound."""
    door = door_kind(kind)
    if door is None:
        raise NotFound(kind)
    row = find(key, door)
    found = current(row)
    return as_loaded(row, found.game, door, found.version, found)


def list_games() -> list[GameRow]:
    """Every stored game (not deleted), the most recently changed first."""
    query = select(GameRow).where(IN_USE).order_by(GameRow.updated_at.desc())
    return list(db.session.scalars(query).all())


def download_name(row: GameRow) -> str:
    """A file name for the game's downloads: the day and the players, never its id.

    "all-fives-2026-11-23-ann-bob"; names are cut to ASCII letters and digits.
    """
    names = "-".join(
        "".join(c for c in name.lower() if c.isascii() and c.isalnum()) or f"p{seat}"
        for seat, name in enumerate(row.players, 1)
    )
    return f"all-fives-{row.created_at:%Y-%m-%d}-{names}"[:120]


def games_with_keys(keys: Sequence[str]) -> list[GameRow]:
    """The stored games with any of ``keys`` as their edit or watch key, newest change first."""
    if not keys:
        return []
    wanted = list(keys)
    query = select(GameRow).where(
        GameRow.edit_key.in_(wanted) | GameRow.watch_key.in_(wanted), IN_USE
    )
    return list(db.session.scalars(query.order_by(GameRow.updated_at.desc())).all())


def rematch_of(row: GameRow) -> GameRow | None:
    """The rematch started from the finished game ``row``, if there is one (not deleted)."""
    if row.rematch_id is None:
        return None
    return db.session.scalars(select(GameRow).where(GameRow.id == row.rematch_id, IN_USE)).first()
