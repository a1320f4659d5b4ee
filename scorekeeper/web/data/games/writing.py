"""Changing a stored game: every change is one load and one conditional UPDATE.

Every change of a game (an entry, a call changed, the lead turned round, an undo, a redo)
takes the same steps. It starts from the game as the request has just read it: its row, and
the replay the row's version gave (reading.py), which must be the version the page saw, else
the change is :class:`Stale`. The referee applies the change to a fork of that game: a
:class:`~scorekeeper.rules.Refusal` takes no lock and writes nothing. Then one conditional
``UPDATE`` counts the change on the game's row only if the row is still at that version and
not deleted: that is the stale check and the write lock at once (on PostgreSQL a second
writer waits on the row and then finds the version moved; on SQLite ``BEGIN IMMEDIATE``
serialises writers already). No row matched: Stale, or NotFound for a game deleted since.
If it matched, the database still holds the game that was read, so the change's rows are
written by what the replay knows of them (their ids and numbers), without reading them
again, and committed; the cache keeps the game built from what was written, and the live
streams hear of the new version (on PostgreSQL the game row's trigger tells the other
processes). The version only grows, so a page that fell behind is always recognised: the
number of events would not do, since an undo and a new entry bring the same number back.

Nothing entered is ever deleted: an undo marks its events undone (the game is replayed from
the live ones only), and a redo stores the latest undone entry again, while nothing new has
been entered since, and marks the undone rows redone. Changing a call and turning the lead
tile round rewrite a stored event in place instead: the same steps, with the game replayed
from the amended event on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal

from blinker import signal
from sqlalchemy import Connection, bindparam, case, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.rules import Event, Game, Play, Refusal, Settle, Setup, TimeCalled
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
from scorekeeper.rules.times import Times, utc
from scorekeeper.web.data import changes, night_clock, replayed
from scorekeeper.web.data.database import begin_immediate, db, in_driver_transaction
from scorekeeper.web.data.games.reading import (
    EVENTS,
    GAMES,
    IN_USE,
    NotFound,
    as_loaded,
    current,
    find,
    redo_rows,
    rematch_of,
    setup_of,
)
from scorekeeper.web.data.loaded import EDIT, Loaded
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.data.models import now as _now


class NothingToRedo(Exception):
    """There is no undone entry that a redo may bring back; the message says why."""


class Stale(Exception):
    """The page saw another version of the game than the one it now has."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the game is at version {actual}")
        self.expected = expected
        self.actual = actual


NOTHING_TO_REDO = say("There is nothing to redo: no entry was undone since the last one was made.")


# -- the one way a change is written --------------------------------------------------------

Redoable = Literal["none", "same", "more", "fewer"]
"""What a change does to the number of undos a redo may bring back: an entry ends them
(none), an undo that undid nothing leaves them, an undo adds one, a redo takes one."""

_REDOABLE: dict[Redoable, Any] = {
    "none": 0,
    "same": None,
    "more": GAMES.c.redoable + 1,
    "fewer": case((GAMES.c.redoable > 0, GAMES.c.redoable - 1), else_=0),
}


def _count_change(redoable: Any) -> Any:
    """The conditional UPDATE that counts a change of the game if it is still at the version
    ``seen`` and not deleted, giving back the number of undos a redo may now bring back."""
    values: dict[str, Any] = {
        name: bindparam(name) for name in ("version", "updated_at", "status", "winner")
    }
    if redoable is not None:
        values["redoable"] = redoable
    return (
        GAMES.update()
        .where(
            GAMES.c.id == bindparam("game_id"),
            GAMES.c.version == bindparam("seen"),
            GAMES.c.deleted_at.is_(None),
        )
        .values(**values)
        .returning(GAMES.c.redoable)
    )


_COUNT_CHANGE = {how: _count_change(redoable) for how, redoable in _REDOABLE.items()}
_VERSION_OF_ID = select(GAMES.c.version).where(
    GAMES.c.id == bindparam("game_id"), GAMES.c.deleted_at.is_(None)
)
_INSERT_EVENT = EVENTS.insert().returning(EVENTS.c.id, sort_by_parameter_order=True)
_REWRITE_EVENT = (
    EVENTS.update()
    .where(EVENTS.c.id == bindparam("row_id"), EVENTS.c.game_id == bindparam("of_game"))
    .values(data=bindparam("new_data", type_=EVENTS.c.data.type))
)
_MARK_UNDONE = (
    EVENTS.update()
    .where(
        EVENTS.c.game_id == bindparam("of_game"),
        EVENTS.c.undone_at.is_(None),
        EVENTS.c.seq > bindparam("kept"),
    )
    .values(undone_at=bindparam("moment"), undo_mark=bindparam("mark"))
)
_MARK_REDONE = (
    EVENTS.update()
    .where(EVENTS.c.id.in_(bindparam("row_ids", expanding=True)))
    .values(redone_at=bindparam("moment"))
)

Rows = Callable[[Connection, datetime], Sequence[replayed.StoredRow]]
"""Writes a change's events on the connection (at the moment given) once the change is
counted; gives back the stored row of each event of the game after it."""


def _known(
    edit_key: str, expected_version: int, loaded: Loaded | None
) -> tuple[GameRow, replayed.Replayed]:
    """The game a change starts from: the replay ``loaded`` came from (the game as the request
    has just read it) when it is at ``expected_version``, else the game read now. Stale
    unless it is at ``expected_version``."""
    row = find(edit_key) if loaded is None else loaded.row
    source = None if loaded is None else loaded.replayed
    known = source if source is not None and source.version == expected_version else current(row)
    if known.version != expected_version:
        raise Stale(expected_version, known.version)
    return row, known


def _write(
    row: GameRow, known: replayed.Replayed, game: Game, redoable: Redoable, rows: Rows
) -> Loaded:
    """Store the change from ``known`` to ``game``, all or nothing: count it on ``known``'s
    version (Stale, or NotFound, when the game is not there at that version any more), then
    write its events with ``rows``, then commit, and keep what was written for the next
    request. The lock is held from the count to the commit."""
    seen, moment = known.version, _now()
    values = {
        "version": seen + 1,
        "updated_at": moment,
        "status": game.phase,
        "winner": None if game.winner is None else game.sides[game.winner],
    }
    try:
        begin_write()
        # Core statements on the session's connection: the session's own execute adds the
        # ORM's bookkeeping, which these rows (not objects) do not need.
        connection = db.session.connection()
        counted = connection.execute(
            _COUNT_CHANGE[redoable], {"game_id": row.id, "seen": seen, **values}
        ).first()
        if counted is None:
            db.session.rollback()
            now = db.session.execute(_VERSION_OF_ID, {"game_id": row.id}).first()
            if now is None:
                raise NotFound(row.edit_key)
            raise Stale(seen, int(now[0]))
        written = tuple(rows(connection, moment))
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Stale(seen, seen + 1) from None
    except BaseException:
        db.session.rollback()
        raise
    for name, value in values.items():
        set_committed_value(row, name, value)
    set_committed_value(row, "redoable", counted[0])
    kept = replayed.Replayed(seen + 1, game, written)
    replayed.games.put(row.edit_key, kept)
    changes.changed(row.id, kept.version)
    return as_loaded(row, game, EDIT, kept.version, kept)


def _inserted(
    connection: Connection,
    game_id: int,
    first: int,
    stored: Sequence[tuple[str, dict[str, Any]]],
    moment: datetime,
) -> tuple[replayed.StoredRow, ...]:
    """Insert the events ``stored`` (kind and data) as the live events from number ``first``
    on; their rows as a later read gets them, built from what was written."""
    if not stored:
        return ()
    numbered = list(enumerate(stored, first))
    ids = connection.execute(
        _INSERT_EVENT,
        [
            {"game_id": game_id, "seq": seq, "kind": kind, "data": data, "created_at": moment}
            for seq, (kind, data) in numbered
        ],
    ).scalars()
    return tuple(
        replayed.StoredRow(ident, seq, kind, _as_stored(data), moment)
        for ident, (seq, (kind, data)) in zip(ids, numbered, strict=True)
    )


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


# -- the changes ----------------------------------------------------------------------------


def append(
    edit_key: str, expected_version: int, events: Sequence[Event], loaded: Loaded | None = None
) -> Loaded:
    """Apply ``events`` to the game at version ``expected_version`` and store them, all or
    nothing: the commonest change (a play, a draw, a settlement, a claim, an adjustment).

    ``loaded`` is the game as the caller has just read it (else it is read): its row, and the
    replay it came from, so that an entry reads the game once. This and every change below
    may raise Stale, NotFound or the referee's Refusal, having written nothing.

    A game of a club night's round whose time is up gets its time entry first, in the same
    write (docs/rules.md 8f): the hand being played then is the last. Should the referee
    refuse the entry after it (a lead once time ended the game), the time entry alone is
    written and :class:`TimeRefused` says both.
    """
    row, known = _known(edit_key, expected_version, loaded)
    game = known.game.fork()
    first = len(game.events) + 1
    events = list(events)
    called = _time_due(row, game)
    if called is not None and game.hand is not None:
        game.push(called)
        try:
            _push_all(game, events)
        except Refusal as refusal:
            alone = known.game.fork()
            alone.push(called)
            raise TimeRefused(_appended(row, known, alone, first, [called]), refusal) from None
        events.insert(0, called)
    else:
        _push_all(game, events)
        if called is not None and game.hand is not None and game.winner is None:
            game.push(called)  # hand 1 was just led: time is called in it, its last
            events.append(called)
    follow = next_hand(game)
    if follow is not None and events and isinstance(events[-1], Settle):
        game.push(follow)
        events.append(follow)
    return _appended(row, known, game, first, events)


class TimeRefused(Exception):
    """Time was up: the time entry was written (``loaded`` is the game with it), and the
    entry posted after it was refused (``refusal``), as it now stands."""

    def __init__(self, loaded: Loaded, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.loaded = loaded
        self.refusal = refusal


def _push_all(game: Game, events: Sequence[Event]) -> None:
    for event in events:
        game.push(event)


def _time_due(row: GameRow, game: Game) -> TimeCalled | None:
    """The time entry the game is owed now, or None: only a game still on, without one, of
    a started night round whose time is up (one indexed lookup, for a club's game only)."""
    if game.time is not None or game.winner is not None or row.club_id is None:
        return None
    clock = night_clock.clock_of(row)
    if clock is None or not clock.is_up():
        return None
    return TimeCalled(clock.at_limit)


def _appended(
    row: GameRow, known: replayed.Replayed, game: Game, first: int, events: Sequence[Event]
) -> Loaded:
    stored = [stored_event(event) for event in events]

    def insert(connection: Connection, moment: datetime) -> Sequence[replayed.StoredRow]:
        return known.rows + _inserted(connection, row.id, first, stored, moment)

    return _write(row, known, game, "none", insert)


def undo(
    edit_key: str, expected_version: int, loaded: Loaded | None = None
) -> tuple[Loaded, list[Event]]:
    """Undo the last entry if the game is at ``expected_version``; return what was removed
    (the latest first). Its rows are marked undone, by the undo's version, and kept."""
    row, known = _known(edit_key, expected_version, loaded)
    game = known.game.fork()
    undone = [game.pop() for _ in range(undo_steps(game))]
    kept = len(game.events)

    def mark(connection: Connection, moment: datetime) -> Sequence[replayed.StoredRow]:
        if undone:
            marks = {"kept": kept, "moment": moment, "mark": expected_version + 1}
            connection.execute(_MARK_UNDONE, {"of_game": row.id, **marks})
        return known.rows[:kept]

    return _write(row, known, game, "more" if undone else "same", mark), undone


def redo(
    edit_key: str, expected_version: int, loaded: Loaded | None = None
) -> tuple[Loaded, list[Event]]:
    """Bring back the latest undone entry if the game is at ``expected_version``.

    Only while nothing has been entered since that undo (else NothingToRedo); the referee
    checks the events again, so a redo is applied completely or refused with nothing changed.
    The entry is stored again as new rows; the undone ones stay, marked redone, for the log.
    """
    row, known = _known(edit_key, expected_version, loaded)
    waiting = redo_rows(row.id)
    first = len(known.game.events) + 1
    if not waiting or [seq for _, seq, _, _ in waiting] != list(range(first, first + len(waiting))):
        raise NothingToRedo(NOTHING_TO_REDO)
    events = [event_of(kind, data) for _, _, kind, data in waiting]
    game = redone(known.game, events)

    def bring_back(connection: Connection, moment: datetime) -> Sequence[replayed.StoredRow]:
        ids = [ident for ident, _, _, _ in waiting]
        connection.execute(_MARK_REDONE, {"row_ids": ids, "moment": moment})
        stored = [(kind, data) for _, _, kind, data in waiting]
        return known.rows + _inserted(connection, row.id, first, stored, moment)

    return _write(row, known, game, "fewer", bring_back), events


def turn_lead(
    edit_key: str, expected_version: int, west: int, loaded: Loaded | None = None
) -> Loaded:
    """Turn the current hand's lead round so that ``west`` faces W, all or nothing.

    The stored lead play is rewritten with ``flipped`` toggled (the record then spells the
    lead with ``west`` first) and the game replayed. The number of events stays the same,
    so besides ``expected_version`` the page says which number it wants on W: if W shows it
    already, another page turned the tile first and this one is Stale.
    """
    row, known = _known(edit_key, expected_version, loaded)
    index = turnable_lead(known.game)
    lead = known.game.events[index]
    assert isinstance(lead, Play) and known.game.hand is not None
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
    if known.game.hand.layout.arms["W"].base == west:
        raise Stale(expected_version, known.version)
    turned = replace(lead, flipped=not lead.flipped)
    game = known.game.fork()
    after = game.rewind(index)[1:]
    for event in (turned, *after):
        game.push(event)
    return _rewrite(row, known, game, index, turned)


def change_call(
    edit_key: str, expected_version: int, called: int, loaded: Loaded | None = None
) -> Loaded:
    """Change what the player of the last play called (house rule muggins), all or nothing.

    A play goes in called right; while it is still the last entry the table may say it was
    called short, or right after all. The stored play is rewritten (its ``called`` left out
    when the call is the count's points, as a right call is written) and the game's current
    hand replayed; the referee refuses a call above the count (rule ``call``) and
    :func:`~scorekeeper.rules.entering.called_play` says when there is no call to change.
    """
    row, known = _known(edit_key, expected_version, loaded)
    index = called_play(known.game)
    play = known.game.events[index]
    assert isinstance(play, Play) and known.game.hand is not None
    points = play_points(known.game.hand.plays[-1].count)
    amended = replace(play, called=None if called == points else called)
    game = known.game.fork()
    game.rewind(index)
    game.push(amended)
    return _rewrite(row, known, game, index, amended)


def _rewrite(
    row: GameRow, known: replayed.Replayed, game: Game, index: int, event: Event
) -> Loaded:
    """Store ``game``: ``known`` with ``event`` written over its live event at ``index`` (from
    0), an entry that amends one already made (the lead turned round, a call changed) and
    keeps its place. The replay knows which row that is."""
    was = known.rows[index]
    data = stored_event(event)[1]

    def rewrite(connection: Connection, moment: datetime) -> Sequence[replayed.StoredRow]:
        connection.execute(_REWRITE_EVENT, {"row_id": was.id, "of_game": row.id, "new_data": data})
        amended = replace(was, data=_as_stored(data))
        return (*known.rows[:index], amended, *known.rows[index + 1 :])

    return _write(row, known, game, "none", rewrite)


# -- new games ------------------------------------------------------------------------------

game_stored = signal("game-stored")
"""Sent (with no sender) each time a new game is stored: the site's limit on the games an
address stores counts them (site/ratelimits.py); the data layer knows nothing of requests."""


def create(
    setup: Setup,
    events: Sequence[Event] = (),
    club_id: int | None = None,
    commit: bool = True,
    times: Times | None = None,
) -> Loaded:
    """Store a new game with ``setup`` and ``events`` (already checked by the referee), filed
    under club ``club_id`` if given. With ``commit`` false the caller commits (several games
    imported together are stored all or none).

    ``times``: when the game was played, as an imported record says; the game's row and its
    events keep them (see :meth:`Times.filled` for the times a record leaves out) instead
    of the moment it is stored, which is what a game without times gets."""
    game = Game(setup, events)
    moment = _now()
    row = GameRow(
        players=list(setup.players),
        preset=setup.preset,
        options=dict(setup.options),
        partners=setup.partners,
        club_id=club_id,
        version=1,
        updated_at=moment,
        status=game.phase,
        winner=None if game.winner is None else game.sides[game.winner],
        redoable=0,
    )
    entered = [moment] * len(game.events)
    if times is not None:
        over = game.phase == "over"
        started, kept, latest = times.filled(len(game.events), over, moment.replace(tzinfo=UTC))
        row.created_at, row.updated_at = utc(started), utc(latest)
        entered = [utc(when) for when in kept]
    db.session.add(row)
    db.session.flush()
    game_stored.send()
    if game.events:
        # One INSERT for the lot: a unit of work per event row made an imported club season
        # (thousands of events) cost seconds.
        db.session.execute(
            EVENTS.insert(),
            [
                {"game_id": row.id, "seq": number, "kind": kind, "data": data, "created_at": when}
                for number, ((kind, data), when) in enumerate(
                    zip(map(stored_event, game.events), entered, strict=True), 1
                )
            ],
        )
    version = row.version
    if commit:
        db.session.commit()
    return as_loaded(row, game, EDIT, version)


def start_rematch(edit_key: str, events: Sequence[Event]) -> tuple[Loaded, bool]:
    """The rematch of the finished game behind ``edit_key``: a new game with its setup, its
    club and ``events`` (its lead), linked from the finished one; or, when one was started
    already (a second tap, another phone), that one. Returns the rematch and whether it is
    new. The link counts a change of the finished game, so every page following it (the
    watchers, the board) hears of it and moves to the rematch."""
    row = lock_game(edit_key)
    started = rematch_of(row)
    if started is not None:
        db.session.rollback()
        found = current(started)
        return as_loaded(started, found.game, EDIT, found.version, found), False
    with all_or_nothing():
        setup = setup_of(row)
        again = create(setup, events, club_id=row.club_id, commit=False)
        row.rematch_id = again.row.id
        row.version = (row.version or 0) + 1
        row.updated_at = _now()
    changes.changed(row.id, row.version)
    return again, True


# -- holding a game while it changes --------------------------------------------------------


def locked(query: Any) -> GameRow | None:
    """Start a write transaction and read the first game of ``query``, held until it ends.

    The row is read afresh (``populate_existing``): the session may hold it as the request
    read it before the lock, and another writer may have changed it since. For the changes
    that carry no version from a page (a rematch linked, a game deleted or restored)."""
    begin_write()
    query = query.execution_options(populate_existing=True)
    if db.session.get_bind().dialect.name != "sqlite":
        query = query.with_for_update()
    row = db.session.scalars(query).first()
    if row is None:
        db.session.rollback()
    return row


def lock_game(edit_key: str) -> GameRow:
    """Start a write transaction that holds the game until commit or rollback."""
    row = locked(select(GameRow).where(GameRow.edit_key == edit_key, IN_USE))
    if row is None:
        raise NotFound(edit_key)
    return row


@contextmanager
def all_or_nothing() -> Iterator[None]:
    """Commit what the body wrote, or roll it all back if anything fails: every change of a
    game is all or nothing."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
