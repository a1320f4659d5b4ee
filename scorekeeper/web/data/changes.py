"""Telling the pages that follow a game that it changed, the moment the change is stored.

Every page that follows a game (a second scorekeeper's phone, the watch link, the board on a
wall) holds one request open: an event stream (``sharing.changes``) that sends the game's
version whenever it grows. The page then asks its live URL for the new table, which is
rendered once per version for all of them (rendered.py). Polling stays as the fallback.

How a change reaches the stream that waits for it, in each process of the site (a worker):

- **In the process that wrote it**: :func:`changed`, called after every commit that counts a
  change of a game.
- **From other processes and other machines**, on PostgreSQL: the database sends
  ``NOTIFY scorekeeper_changes, '<game id>:<version>'`` (``-1`` once deleted) from a trigger
  on the game row, in the statement that counts the change (migration ``e8f0a2c4d6b7``:
  every way a game changes, no round trip of its own, delivered only if it commits), and
  each process that has a stream open listens on one connection of its own
  (:class:`_Listener`). Every app server shares the database, so this is the one channel
  they all already have.
- On SQLite (one machine; its worker processes share the file but nothing else): a thread per
  process reads the versions of the games its streams follow, in one query every
  ``CHANGES_INTERVAL`` seconds (0.2 by default), however many streams wait.

A stream waits on an event of its own (:class:`Hub`): a change wakes only the streams of that
game. Under gunicorn's gevent worker (the hosting recipe) the threads and events here are
gevent's, so thousands of streams cost a greenlet each, not a thread.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow

CHANNEL = "scorekeeper_changes"
"""The PostgreSQL notification channel of game changes."""
GONE = -1
"""The version sent for a game that is no longer there (deleted): the page stops following."""
_EXTENSION = "scorekeeper.changes"
log = logging.getLogger(__name__)


class Hub:
    """The games this process's streams follow, their latest known versions, and a way to
    wake each stream that waits on one of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[int, set[threading.Event]] = {}
        self._versions: dict[int, int] = {}
        self._by_address: Counter[str] = Counter()

    @contextmanager
    def following(
        self,
        game_id: int,
        version: int,
        address: str = "",
        wake: threading.Event | None = None,
    ) -> Iterator[threading.Event]:
        """An event set whenever game ``game_id`` changes, while the body runs (a stream from
        client ``address``). ``wake``: one event to set instead, shared by a stream that
        follows several games (the night's board)."""
        wake = wake if wake is not None else threading.Event()
        with self._lock:
            self._waiting.setdefault(game_id, set()).add(wake)
            known = self._versions.get(game_id, version)
            self._versions[game_id] = GONE if known == GONE else max(known, version)
            self._by_address[address] += 1
        try:
            yield wake
        finally:
            with self._lock:
                self._by_address[address] -= 1
                if not self._by_address[address]:
                    del self._by_address[address]
                waiting = self._waiting.get(game_id)
                if waiting is not None:
                    waiting.discard(wake)
                    if not waiting:
                        del self._waiting[game_id]
                        self._versions.pop(game_id, None)

    def streams_from(self, address: str) -> int:
        """How many streams client ``address`` holds open in this process."""
        with self._lock:
            return self._by_address.get(address, 0)

    def version(self, game_id: int) -> int | None:
        """The latest version known of a followed game (GONE once deleted)."""
        with self._lock:
            return self._versions.get(game_id)

    def followed(self) -> list[int]:
        """The games some stream of this process follows."""
        with self._lock:
            return list(self._waiting)

    def changed(self, game_id: int, version: int) -> None:
        """Game ``game_id`` is now at ``version`` (or GONE): wake the streams that follow it."""
        with self._lock:
            waiting = self._waiting.get(game_id)
            if not waiting:
                return
            known = self._versions.get(game_id, 0)
            if version != GONE and (known == GONE or version <= known):
                return
            self._versions[game_id] = version
            woken = list(waiting)
        for wake in woken:
            wake.set()

    @property
    def streams(self) -> int:
        """How many streams wait in this process."""
        with self._lock:
            return sum(len(waiting) for waiting in self._waiting.values())


_VERSIONS = select(GameRow.id, GameRow.version, GameRow.deleted_at).where(
    GameRow.id.in_(bindparam("ids", expanding=True))
)


class _Source(ABC):
    """What brings other processes' changes to a process's :class:`Hub`: one thread, started
    with the process's first stream (after gunicorn has forked the worker)."""

    def __init__(self, hub: Hub, engine: Engine, interval: float) -> None:
        self.hub = hub
        self.engine = engine
        self.interval = interval
        self._started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run_forever, name="game-changes", daemon=True).start()

    def _run_forever(self) -> None:
        while True:
            try:
                self.run()
            except Exception:  # a lost connection: the streams fall back on their own timers
                log.warning("Following game changes failed; trying again", exc_info=True)
            time.sleep(1)

    @abstractmethod
    def run(self) -> None:
        """Bring changes to the hub until the connection fails."""

    def look(self) -> None:
        """Read the version of every followed game (GONE for one deleted) into the hub."""
        followed = self.hub.followed()
        if not followed:
            return
        with self.engine.connect() as connection:
            found = {
                ident: (version or 0) if deleted is None else GONE
                for ident, version, deleted in connection.execute(_VERSIONS, {"ids": followed})
            }
        for ident in followed:
            self.hub.changed(ident, found.get(ident, GONE))


class _Reader(_Source):
    """SQLite: the versions of every followed game, in one query per interval."""

    def run(self) -> None:
        while True:
            time.sleep(self.interval)
            self.look()


class _Listener(_Source):
    """PostgreSQL: ``LISTEN`` on a connection of its own; each notification names a game and
    its new version."""

    def run(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql")
        with psycopg.connect(
            url.render_as_string(hide_password=False), autocommit=True
        ) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            # Changes made while no one listened (a first stream, or after a lost connection)
            # are read once, as the reader does.
            self.look()
            for note in connection.notifies():
                ident, _, version = note.payload.partition(":")
                self.hub.changed(int(ident), int(version))


def _state(app: Flask) -> tuple[Hub, _Source]:
    hub, source = app.extensions[_EXTENSION]
    return hub, source


def hub() -> Hub:
    """This process's hub, its source of other processes' changes running."""
    found, source = _state(current_app)
    source.start()
    return found


def changed(game_id: int, version: int) -> None:
    """After a commit that changed game ``game_id``: wake this process's streams of it."""
    _state(current_app)[0].changed(game_id, version)


def init_app(app: Flask) -> None:
    """Give ``app`` its hub and the source of other processes' changes for its database."""
    interval = float(app.config.setdefault("CHANGES_INTERVAL", 0.2))
    if not 0 < interval <= 10:
        raise ValueError(f"The setting CHANGES_INTERVAL must be seconds, 0 to 10, not {interval}")
    with app.app_context():
        engine = db.engine
    kind = _Listener if engine.dialect.name == "postgresql" else _Reader
    found = Hub()
    app.extensions[_EXTENSION] = (found, kind(found, engine, interval))
