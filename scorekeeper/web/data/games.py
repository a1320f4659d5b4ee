"""Loading a game by replaying its events, and changing it in one locked transaction.

Every change follows the same steps: lock the game, compare its version with the version the
page saw (a mismatch is :class:`Stale`), reload its events, let the referee apply the new
events (a :class:`Refusal` writes nothing), insert them, add one to the version and commit.
An entry (:func:`append`, most of what a table sends) does the same in a shorter order: the
referee first, on the game replayed at the page's version, then one conditional update that
is lock and stale check at once, and the insert.
The version only grows, so a page that fell behind is always recognised: the number of
events would not do, since an undo and a new entry bring the same number back.

Nothing entered is ever deleted: an undo marks its events undone (the game is replayed from
the live ones only), and a redo brings the latest undone entry back while nothing new has
been entered since. Turning the lead tile round is the one change that rewrites a stored
event instead: the same steps, replaying the game with the lead turned.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any
from typing import cast as typed

from blinker import signal
from sqlalchemy import BigInteger, Table, Text, bindparam, cast, func, select
from sqlalchemy import delete as sql_delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.rules import (
    Event,
    Game,
    Play,
    Settle,
    Setup,
)
from scorekeeper.rules.entering import (
    CannotTurn,
    called_play,
    next_hand,
    redone,
    turnable_lead,
    undo_steps,
)
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.messages import say
from scorekeeper.rules.stored import event_of, stored_event
from scorekeeper.web.data import changes, replayed
from scorekeeper.web.data.database import begin_immediate, db, in_driver_transaction
from scorekeeper.web.data.loaded import EDIT, WATCH, DoorKind, Loaded, door_kind
from scorekeeper.web.data.models import EventRow, GameRow
from scorekeeper.web.data.models import now as _now


class NotFound(Exception):
    """There is no game with this key (behind this door)."""


class NothingToRedo(Exception):
    """There is no undone entry that a redo may bring back; the message says why."""


class Stale(Exception):
    """The page saw another version of the game than the one it now has."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the game is at version {actual}")
        self.expected = expected
        self.actual = actual


# -- reading ------------------------------------------------------------------------------


def setup_of(row: GameRow) -> Setup:
    """The referee's setup of a stored game."""
    return Setup.create(list(row.players), row.preset, dict(row.options or {}), row.partners)


_LIVE = EventRow.undone_at.is_(None)
"""An event not undone: the game is replayed from these, in ``seq`` order."""


_EVENTS = typed(Table, EventRow.__table__)


def _rows_query(from_seq: bool) -> Any:
    """The game's version and its live event rows (from ``:from_seq`` on), in one statement."""
    games, events = GameRow.__table__, _EVENTS
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


def _fetch_rows(game_id: int, from_seq: int | None) -> tuple[int, list[replayed.StoredRow]] | None:
    """The game's version and its live rows (light columns, no ORM objects), or None."""
    if from_seq is None:
        result = db.session.execute(_ALL_ROWS, {"game_id": game_id}).all()
    else:
        result = db.session.execute(_FROM_SEQ, {"game_id": game_id, "from_seq": from_seq}).all()
    if not result:
        return None
    rows = [replayed.StoredRow(*found[1:]) for found in result if found[1] is not None]
    return int(result[0][0] or 0), rows


def _replayed(row: GameRow) -> replayed.Replayed:
    """The game of ``row`` at its version: cached, caught up, or replayed (see replayed.py)."""
    found = replayed.current(
        row.edit_key, row.id, setup_of(row), row.version or 0, _fetch_rows, event_of
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
    found = _fetch_rows(row.id, None)
    if found is None:
        raise NotFound(row.edit_key)
    return replayed.replay_whole(setup_of(row), found[0], found[1], event_of)


def _keep(row: GameRow, known: replayed.Replayed, game: Game, version: int) -> replayed.Replayed:
    """After a change is written (flushed, not committed): the rows of ``game``'s events.

    The rows before the current hand are the ones ``known`` came from; the hand's are read.
    """
    start = game.hand_start
    rows = known.rows[: min(start, len(known.rows))]
    from_seq = rows[-1].seq + 1 if rows else None
    found = _fetch_rows(row.id, from_seq)
    tail = [] if found is None else found[1]
    return replayed.Replayed(version, game, rows + tuple(tail))


def _redo_rows(row: GameRow) -> list[EventRow]:
    """The stored events the next redo brings back, in order (none when redo is not offered).

    They are the latest undo's not yet redone: the undone events with the highest
    ``undo_mark`` among those without ``redone_at``.
    """
    if not row.redoable:
        return []
    waiting = (
        EventRow.game_id == row.id,
        EventRow.undone_at.is_not(None),
        EventRow.redone_at.is_(None),
    )
    latest = select(func.max(EventRow.undo_mark)).where(*waiting).scalar_subquery()
    query = select(EventRow).where(*waiting, EventRow.undo_mark == latest)
    return list(db.session.scalars(query.order_by(EventRow.seq)).all())


def redo_events(row: GameRow) -> list[Event]:
    """What the next redo brings back (nothing when redo is not offered)."""
    return [event_of(r.kind, r.data) for r in _redo_rows(row)]


def _loaded(
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
    select(_EVENTS.c.id)
    .where(
        _EVENTS.c.game_id == bindparam("game_id"),
        _EVENTS.c.undone_at.is_(None),
        _EVENTS.c.seq.between(bindparam("first"), bindparam("last", type_=BigInteger)),
    )
    .order_by(_EVENTS.c.seq)
)
_UNDONE_ROWS = (
    select(_EVENTS.c.id, _EVENTS.c.kind, _EVENTS.c.data, _EVENTS.c.undone_at, _EVENTS.c.redone_at)
    .where(
        _EVENTS.c.game_id == bindparam("game_id"),
        _EVENTS.c.undone_at.is_not(None),
        _EVENTS.c.id > bindparam("after_id"),
        _EVENTS.c.id < bindparam("before_id", type_=BigInteger),
    )
    .order_by(_EVENTS.c.id)
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


_IN_USE = GameRow.deleted_at.is_(None)
"""Not deleted: a deleted game is found behind neither key while it waits to be purged."""

_FIND_BY = {
    kind: select(GameRow).where(column == bindparam("key"), _IN_USE)
    for kind, column in ((EDIT, GameRow.edit_key), (WATCH, GameRow.watch_key))
}
"""The game behind a door, one statement per kind of door, built once (every request of a
game asks it first; building the statement each time was a tenth of an entry's ORM work)."""


def find(key: str, kind: str = EDIT) -> GameRow:
    """The stored game whose ``kind`` key is ``key`` (its events not loaded), or NotFound."""
    statement = _FIND_BY.get(kind)
    if statement is None:
        raise NotFound(kind)
    row = db.session.scalars(statement, {"key": key}).first()
    if row is None:
        raise NotFound(key)
    return row


_GAMES = typed(Table, GameRow.__table__)
_VERSION_BY = {
    (kind, with_id): select(_GAMES.c.version, *([_GAMES.c.id] if with_id else [])).where(
        _GAMES.c[column] == bindparam("key"), _GAMES.c.deleted_at.is_(None)
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
    found = _replayed(row)
    return _loaded(row, found.game, door, found.version, found)


def list_games() -> list[GameRow]:
    """Every stored game (not deleted), the most recently changed first."""
    query = select(GameRow).where(_IN_USE).order_by(GameRow.updated_at.desc())
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
        GameRow.edit_key.in_(wanted) | GameRow.watch_key.in_(wanted), _IN_USE
    )
    return list(db.session.scalars(query.order_by(GameRow.updated_at.desc())).all())


# -- writing ------------------------------------------------------------------------------


def _locked(query: Any) -> GameRow | None:
    """Start a write transaction and read the first game of ``query``, held until it ends.

    The row is read afresh (``populate_existing``): the session may hold it as the request
    read it before the lock, and another writer may have changed it since."""
    begin_write()
    query = query.execution_options(populate_existing=True)
    if db.session.get_bind().dialect.name != "sqlite":
        query = query.with_for_update()
    row = db.session.scalars(query).first()
    if row is None:
        db.session.rollback()
    return row


def _lock(edit_key: str) -> GameRow:
    """Start a write transaction that holds the game until commit or rollback."""
    row = _locked(select(GameRow).where(GameRow.edit_key == edit_key, _IN_USE))
    if row is None:
        raise NotFound(edit_key)
    return row


@contextmanager
def _written() -> Iterator[None]:
    """Commit what the body wrote, or roll it all back if anything fails: every change of a
    game is all or nothing."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _count_change(row: GameRow, game: Game, entered: bool = True) -> None:
    """Count the change and note what the games list shows; an ``entered`` change (anything
    but an undo or a redo) ends what redo may bring back."""
    if entered:
        row.redoable = 0
    row.version = (row.version or 0) + 1
    row.updated_at = _now()
    row.status = game.phase
    row.winner = None if game.winner is None else game.sides[game.winner]


def _check_version(row: GameRow, expected_version: int) -> None:
    """Stale unless the locked game is still at the version the page saw."""
    if (row.version or 0) != expected_version:
        raise Stale(expected_version, row.version or 0)


@dataclass
class _Change:
    """A change being written: the locked game's row, the game as it was (``known``), the
    game after the change, which the body of :func:`_changing` sets, and once committed what
    the cache keeps of it (``kept``)."""

    row: GameRow
    known: replayed.Replayed
    game: Game | None = None
    kept: replayed.Replayed | None = None

    @property
    def version(self) -> int:
        """The committed game's version (read from what was kept: the committed row is
        expired, and reading it would query the database again)."""
        assert self.kept is not None, "the change is committed"
        return self.kept.version


@contextmanager
def _changing(edit_key: str, expected_version: int) -> Iterator[_Change]:
    """One change of a game, all or nothing: lock the game, refuse it as Stale unless it is
    still at ``expected_version``, give the body the game as it is; then store the rows of
    the body's game (``change.game``) with the change and commit, or roll everything back if
    anything fails. The cache learns the new game only once it is committed."""
    row = _lock(edit_key)
    with _written():
        _check_version(row, expected_version)
        change = _Change(row, _replayed(row))
        yield change
        assert change.game is not None, "a change sets the game it leads to"
        db.session.flush()
        change.kept = _keep(row, change.known, change.game, row.version)
    assert change.kept is not None
    replayed.games.put(edit_key, change.kept)
    changes.changed(row.id, change.kept.version)


def append(
    edit_key: str, expected_version: int, events: Sequence[Event], loaded: Loaded | None = None
) -> Loaded:
    """Apply ``events`` to the game at version ``expected_version`` and store them, all or
    nothing. ``loaded`` is the game as the caller has just read it (else it is read): its row,
    and the replay it came from, so that an entry reads the game once.

    The commonest change, so it takes the short way: the referee applies the events to the
    game at ``expected_version`` *before* the write lock (a refusal takes no lock and writes
    nothing), and the lock is one conditional ``UPDATE``: it counts the change only if the
    game is still at that version and not deleted. That is the stale check and the lock at
    once: on PostgreSQL a second writer waits on the row and then finds the version moved;
    on SQLite ``BEGIN IMMEDIATE`` serialises writers already. The game the events were
    applied to is the one replayed at exactly that version (see replayed.py), so if the
    update matches, the database still holds that game and the new events follow it. Then
    the events are inserted, and what the cache keeps is built from what was written: the
    known rows and the new ones, without reading anything back. The lock is held for two
    statements.
    """
    row = find(edit_key) if loaded is None else loaded.row
    source = None if loaded is None else loaded.replayed
    known = source if source is not None and source.version == expected_version else _replayed(row)
    if known.version != expected_version:
        raise Stale(expected_version, known.version)
    game = known.game.fork()
    first = len(game.events) + 1
    events = list(events)
    for event in events:
        game.push(event)
    follow = next_hand(game)
    if follow is not None and events and isinstance(events[-1], Settle):
        game.push(follow)
        events.append(follow)
    stored = [stored_event(event) for event in events]
    moment = _now()
    values = {
        "version": expected_version + 1,
        "updated_at": moment,
        "status": game.phase,
        "winner": None if game.winner is None else game.sides[game.winner],
        "redoable": 0,
    }
    try:
        begin_write()
        # Two Core statements on the session's connection: the session's own execute adds
        # the ORM's bookkeeping, which these rows (not objects) do not need.
        connection = db.session.connection()
        counted = connection.execute(
            _COUNT_CHANGE, {"game_id": row.id, "seen": expected_version, **values}
        )
        if counted.rowcount != 1:
            db.session.rollback()
            now = db.session.execute(_VERSION_OF_ID, {"game_id": row.id}).first()
            if now is None:
                raise NotFound(edit_key)
            raise Stale(expected_version, int(now[0]))
        rows = [
            {"game_id": row.id, "seq": seq, "kind": kind, "data": data, "created_at": moment}
            for seq, (kind, data) in enumerate(stored, first)
        ]
        ids = connection.execute(_INSERT_EVENT, rows).scalars().all()
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Stale(expected_version, expected_version + 1) from None
    except BaseException:
        db.session.rollback()
        raise
    for name, value in values.items():
        set_committed_value(row, name, value)
    written = tuple(
        replayed.StoredRow(ident, seq, kind, _as_stored(data), moment)
        for ident, (seq, (kind, data)) in zip(ids, enumerate(stored, first), strict=True)
    )
    kept = replayed.Replayed(expected_version + 1, game, known.rows + written)
    replayed.games.put(edit_key, kept)
    changes.changed(row.id, kept.version)
    return _loaded(row, game, EDIT, kept.version, kept)


_COUNT_CHANGE = (
    _GAMES.update()
    .where(
        _GAMES.c.id == bindparam("game_id"),
        _GAMES.c.version == bindparam("seen"),
        _GAMES.c.deleted_at.is_(None),
    )
    .values(
        version=bindparam("version"),
        updated_at=bindparam("updated_at"),
        status=bindparam("status"),
        winner=bindparam("winner"),
        redoable=bindparam("redoable"),
    )
)
"""Count a change of the game, if it is still at the version ``seen`` and not deleted."""
_VERSION_OF_ID = select(_GAMES.c.version).where(
    _GAMES.c.id == bindparam("game_id"), _GAMES.c.deleted_at.is_(None)
)
_INSERT_EVENT = _EVENTS.insert().returning(_EVENTS.c.id, sort_by_parameter_order=True)


def _as_stored(data: dict[str, Any]) -> str:
    """An event's data as the database gives it back (``CAST(data AS TEXT)``): the JSON column
    stores the text SQLAlchemy's default serializer (``json.dumps``) wrote."""
    return json.dumps(data)


def begin_write() -> None:
    """Start a write transaction: on SQLite take the write lock at once (a WAL read lock
    cannot be upgraded to a write lock); PostgreSQL locks the rows a statement changes.

    Anything pending in the session is thrown away, never written by accident. The rows the
    request read stay as they were read. On PostgreSQL the write goes on in the transaction
    the request's reads began: under its read committed isolation every statement sees what
    is committed when it starts, and a write waits for the rows it changes, so ending the
    reads first only cost two more round trips. On SQLite the driver holds no transaction
    open after a read whose rows were all fetched, so the lock is taken on the session's own
    connection (after a commit only if the driver says a transaction is open).
    """
    session = db.session
    if session.new or session.dirty or session.deleted:
        session.rollback()
    if session.get_bind().dialect.name != "sqlite":
        return
    if in_driver_transaction(session.connection()):
        session.commit()  # nothing pending: writes nothing, keeps the rows read
    begin_immediate(session.connection())


def undo(edit_key: str, expected_version: int) -> tuple[Loaded, list[Event]]:
    """Undo the last entry if the game is at ``expected_version``; return what was removed."""
    with _changing(edit_key, expected_version) as change:
        row = change.row
        game = change.game = change.known.game.fork()
        undone = [game.pop() for _ in range(undo_steps(game))]
        _count_change(row, game, entered=False)
        if undone:
            moment = _now()
            for stored in db.session.scalars(
                select(EventRow).where(
                    EventRow.game_id == row.id, _LIVE, EventRow.seq > len(game.events)
                )
            ):
                stored.undone_at = moment
                stored.undo_mark = row.version
            row.redoable = (row.redoable or 0) + 1
    return _loaded(row, game, EDIT, change.version), undone


NOTHING_TO_REDO = say("There is nothing to redo: no entry was undone since the last one was made.")


def redo(edit_key: str, expected_version: int) -> tuple[Loaded, list[Event]]:
    """Bring back the latest undone entry if the game is at ``expected_version``.

    Only while nothing has been entered since that undo (else NothingToRedo); the referee
    checks the events again, so a redo is applied completely or refused with nothing changed.
    The entry is stored again as new rows; the undone ones stay, marked redone, for the log.
    """
    with _changing(edit_key, expected_version) as change:
        row = change.row
        stored = _redo_rows(row)
        first = len(change.known.game.events) + 1
        if not stored or [r.seq for r in stored] != list(range(first, first + len(stored))):
            raise NothingToRedo(NOTHING_TO_REDO)
        events = [event_of(r.kind, r.data) for r in stored]
        game = change.game = redone(change.known.game, events)
        moment = _now()
        for undone in stored:
            undone.redone_at = moment
            db.session.add(
                EventRow(game_id=row.id, seq=undone.seq, kind=undone.kind, data=undone.data)
            )
        _count_change(row, game, entered=False)
        row.redoable = max(0, (row.redoable or 0) - 1)
    return _loaded(row, game, EDIT, change.version), events


def turn_lead(edit_key: str, expected_version: int, west: int) -> Loaded:
    """Turn the current hand's lead round so that ``west`` faces W, all or nothing.

    The stored lead play is rewritten with ``flipped`` toggled (the record then spells the
    lead with ``west`` first) and the game replayed. The number of events stays the same,
    so besides ``expected_version`` the page says which number it wants on W: if W shows it
    already, another page turned the tile first and this one is Stale.
    """
    with _changing(edit_key, expected_version) as change:
        row = change.row
        known = change.known.game
        index = turnable_lead(known)
        lead = known.events[index]
        assert isinstance(lead, Play) and known.hand is not None
        if not lead.tile.has(west):
            raise CannotTurn(
                say(
                    "The lead %(tile)s has no %(west)s: W can show %(high)s or %(low)s.",
                    tile=str(lead.tile),
                    west=west,
                    high=lead.tile.high,
                    low=lead.tile.low,
                )
            )
        if known.hand.layout.arms["W"].base == west:
            raise Stale(expected_version, row.version or 0)
        turned = replace(lead, flipped=not lead.flipped)
        game = change.game = known.fork()
        after = game.rewind(index)[1:]
        for event in (turned, *after):
            game.push(event)
        _rewrite(row, index, turned)
        _count_change(row, game)
    return _loaded(row, game, EDIT, change.version)


def _rewrite(row: GameRow, index: int, event: Event) -> None:
    """Write ``event`` over the live stored event at ``index`` of the game (from 0): an entry
    that amends one already made (the lead turned round, a call changed) keeps its place."""
    stored = db.session.scalars(
        select(EventRow).where(EventRow.game_id == row.id, _LIVE, EventRow.seq == index + 1)
    ).one()
    stored.data = stored_event(event)[1]


def change_call(edit_key: str, expected_version: int, called: int) -> Loaded:
    """Change what the player of the last play called (house rule muggins), all or nothing.

    A play goes in called right; while it is still the last entry the table may say it was
    called short, or right after all. The stored play is rewritten (its ``called`` left out
    when the call is the count's points, as a right call is written) and the game's current
    hand replayed; the referee refuses a call above the count (rule ``call``) and
    :func:`~scorekeeper.rules.entering.called_play` says when there is no call to change.
    """
    with _changing(edit_key, expected_version) as change:
        row = change.row
        known = change.known.game
        index = called_play(known)
        play = known.events[index]
        assert isinstance(play, Play) and known.hand is not None
        points = play_points(known.hand.plays[-1].count)
        amended = replace(play, called=None if called == points else called)
        game = change.game = known.fork()
        game.rewind(index)
        game.push(amended)
        _rewrite(row, index, amended)
        _count_change(row, game)
    return _loaded(row, game, EDIT, change.version)


game_stored = signal("game-stored")
"""Sent (with no sender) each time a new game is stored: the site's limit on the games an
address stores counts them (site/ratelimits.py); the data layer knows nothing of requests."""


def create(
    setup: Setup, events: Sequence[Event] = (), club_id: int | None = None, commit: bool = True
) -> Loaded:
    """Store a new game with ``setup`` and ``events`` (already checked by the referee), filed
    under club ``club_id`` if given. With ``commit`` false the caller commits (several games
    imported together are stored all or none)."""
    game = Game(setup, events)
    row = GameRow(
        players=list(setup.players),
        preset=setup.preset,
        options=dict(setup.options),
        partners=setup.partners,
        club_id=club_id,
    )
    _count_change(row, game)
    db.session.add(row)
    db.session.flush()
    game_stored.send()
    if game.events:
        # One INSERT for the lot: a unit of work per event row made an imported club season
        # (thousands of events) cost seconds.
        db.session.execute(
            _EVENTS.insert(),
            [
                {"game_id": row.id, "seq": number, "kind": kind, "data": data}
                for number, (kind, data) in enumerate(map(stored_event, game.events), 1)
            ],
        )
    version = row.version
    if commit:
        db.session.commit()
    return _loaded(row, game, EDIT, version)


def start_rematch(edit_key: str, events: Sequence[Event]) -> tuple[Loaded, bool]:
    """The rematch of the finished game behind ``edit_key``: a new game with its setup, its
    club and ``events`` (its lead), linked from the finished one; or, when one was started
    already (a second tap, another phone), that one. Returns the rematch and whether it is
    new. The link counts a change of the finished game, so every page following it (the
    watchers, the board) hears of it and moves to the rematch."""
    row = _lock(edit_key)
    started = rematch_of(row)
    if started is not None:
        db.session.rollback()
        found = _replayed(started)
        return _loaded(started, found.game, EDIT, found.version, found), False
    with _written():
        setup = setup_of(row)
        again = create(setup, events, club_id=row.club_id, commit=False)
        row.rematch_id = again.row.id
        row.version = (row.version or 0) + 1
        row.updated_at = _now()
    changes.changed(row.id, row.version)
    return again, True


def rematch_of(row: GameRow) -> GameRow | None:
    """The rematch started from the finished game ``row``, if there is one (not deleted)."""
    if row.rematch_id is None:
        return None
    return db.session.scalars(select(GameRow).where(GameRow.id == row.rematch_id, _IN_USE)).first()


# -- deleting a game, for a while ------------------------------------------------------------


class CannotDelete(Exception):
    """The game may not be deleted (it is finished); the message says why in plain words."""


def delete(edit_key: str) -> GameRow:
    """Delete an unfinished game: it is found behind neither key from now on, until restored.

    Its row and events stay until :func:`purge` removes them, so that the deletion can be
    undone for a while. A finished game is kept (CannotDelete): it is the record of a result.
    """
    row = _lock(edit_key)
    with _written():
        game = _replayed(row).game
        if game.phase == "over":
            raise CannotDelete(
                say(
                    "A finished game cannot be deleted: it is the record of who won. "
                    "Forget it on this browser instead."
                )
            )
        row.deleted_at = _now()
        row.version = (row.version or 0) + 1
    changes.changed(row.id, changes.GONE)
    return row


def restore(edit_key: str, since: datetime) -> GameRow:
    """Undo the deletion of the game with ``edit_key`` if it was deleted at ``since`` or later.

    NotFound when there is no such deleted game, or it was deleted before ``since``.
    """
    query = select(GameRow).where(
        GameRow.edit_key == edit_key,
        GameRow.deleted_at.is_not(None),
        GameRow.deleted_at >= since,
    )
    row = _locked(query)
    if row is None:
        raise NotFound(edit_key)
    with _written():
        row.deleted_at = None
        row.version = (row.version or 0) + 1
    return row


def deleted_since(edit_keys: Sequence[str], since: datetime) -> list[GameRow]:
    """The games with one of ``edit_keys`` deleted at ``since`` or later, the latest first."""
    if not edit_keys:
        return []
    query = select(GameRow).where(
        GameRow.edit_key.in_(list(edit_keys)), GameRow.deleted_at >= since
    )
    return list(db.session.scalars(query.order_by(GameRow.deleted_at.desc())).all())


def purge(before: datetime) -> int:
    """Remove for good the games deleted before ``before``, with their events; how many."""
    doomed = select(GameRow.id).where(GameRow.deleted_at < before)
    begin_write()
    with _written():
        ids = list(db.session.scalars(doomed).all())
        if ids:
            db.session.execute(sql_delete(EventRow).where(EventRow.game_id.in_(ids)))
            db.session.execute(sql_delete(GameRow).where(GameRow.id.in_(ids)))
    return len(ids)
