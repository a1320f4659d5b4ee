"""The server killed in the middle of a burst of entries loses nothing it acknowledged.

gunicorn serves the app (2 gevent workers, as the README's hosting recipe) on the test database:
SQLite, or PostgreSQL under ``SCOREKEEPER_TEST_DATABASE_URL``. Two phones per game enter a
simulated game as fast as the server answers, both sending each entry with the same page
token, so that every entry is also raced. Once 15 entries were acknowledged, while the
phones are still sending, every server process gets SIGKILL; the server is started again
and the phones carry on. Then every game must replay legally, hold each entry that got a
303, and hold no entry twice.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from dataclasses import dataclass, field

from flask import Flask

from scorekeeper.rules import Game
from scorekeeper.rules.record import load_record
from tests.support.clubtable import Entry, event_key, simulated_game
from tests.support.gunicorn import Gunicorn, form, import_game, request

GAMES = 5
PHONES = 2
KILL_AFTER = 15
"""The server is killed once this many entries were acknowledged (the phones still sending)."""
AFTER_RESTART = 5
"""The phones stop once this many more entries were acknowledged after the restart."""
AT_MOST = 120.0
"""Seconds the phones may take to reach either count: a bound for a server that acknowledges
nothing, not a speed (a quiet machine takes a few seconds)."""
TOKEN = re.compile(r'<input type="hidden" name="(seq|version)" value="([^"]+)"')


class Server(Gunicorn):
    """gunicorn as the README's hosting recipe runs it: 2 gevent workers."""

    def __init__(self, database: str) -> None:
        super().__init__(database, "--worker-class", "gevent", "--workers", "2")


@dataclass
class Played:
    """One game at the table: its entries, and what the server acknowledged."""

    key: str
    setup_events: list[tuple[object, ...]]
    entries: list[Entry]
    acked: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _record(port: int, key: str) -> str:
    status, body, _ = request(port, "GET", f"/games/{key}/record.json")
    assert status == 200, status
    return body


def _count(record: str) -> int:
    """How many events a record holds (a hand: its lead, its events, its settlement)."""
    hands = json.loads(record)["hands"]
    return sum(1 + len(hand["events"]) + ("remaining" in hand) for hand in hands)


class Clock:
    """When the phones stop: a time that the killer may bring forward."""

    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds

    def running(self) -> bool:
        """Whether the phones carry on."""
        return time.monotonic() < self.until


def _phone(port: int, played: Played, clock: Clock) -> None:
    """Enter the game's next entry with the page's token, again and again while ``clock`` runs."""
    by_before = {entry.before: index for index, entry in enumerate(played.entries)}
    while clock.running():
        try:
            status, page, _ = request(port, "GET", f"/games/{played.key}")
            token = TOKEN.search(page)
            stored = _count(_record(port, played.key))
            if stored not in by_before:
                return  # the game is over
            index = by_before[stored]
            entry = played.entries[index]
            assert token is not None, page[:300]
            fields = {token.group(1): token.group(2), **entry.fields}
            status, _, _ = request(
                port, "POST", f"/games/{played.key}/{entry.action}", form(fields)
            )
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)  # the server is down: try again until it is back or time is up
            continue
        if status == 303:
            with played.lock:
                played.acked.append(index)
        elif status != 409:
            played.problems.append(f"{entry.action} {entry.fields} answered {status}")
            return


def _acked(games: list[Played]) -> int:
    return sum(len(played.acked) for played in games)


def _killer(server: Server, games: list[Played], clock: Clock) -> None:
    """SIGKILL the server once KILL_AFTER entries are acknowledged; the phones go on a moment."""
    while clock.running() and _acked(games) < KILL_AFTER:
        time.sleep(0.01)
    server.kill()
    clock.until = min(clock.until, time.monotonic() + 0.5)


def _stopper(games: list[Played], count: int, clock: Clock) -> None:
    """Stop the phones once ``count`` entries in all are acknowledged."""
    while clock.running() and _acked(games) < count:
        time.sleep(0.01)
    clock.until = min(clock.until, time.monotonic())


def _burst(
    server: Server, games: list[Played], clock: Clock, kill: bool = False, until: int = 0
) -> None:
    """The phones enter until ``clock`` stops them: at the kill and a moment after (``kill``),
    or once ``until`` entries in all are acknowledged."""
    phones = [
        threading.Thread(target=_phone, args=(server.port, played, clock))
        for played in games
        for _ in range(PHONES)
    ]
    watcher = (
        threading.Thread(target=_killer, args=(server, games, clock))
        if kill
        else threading.Thread(target=_stopper, args=(games, until, clock))
    )
    for thread in [*phones, watcher]:
        thread.start()
    for thread in phones:
        thread.join()
    clock.until = min(clock.until, time.monotonic())  # every game over: nothing left to wait for
    watcher.join()


def test_a_killed_server_keeps_every_acknowledged_entry_once(app: Flask) -> None:
    server = Server(app.config["SQLALCHEMY_DATABASE_URI"])
    server.start()
    try:
        games: list[Played] = []
        for seed in range(GAMES):
            setup, events, entries = simulated_game(seed, max_hands=3)
            key = import_game(server.port, Game(setup))
            games.append(Played(key, [event_key(e) for e in events], entries))

        _burst(server, games, Clock(AT_MOST), kill=True)
        acked_before_kill = _acked(games)
        server.start()
        _burst(server, games, Clock(AT_MOST), until=acked_before_kill + AFTER_RESTART)

        for played in games:
            assert not played.problems, played.problems
            record = _record(server.port, played.key)
            game = load_record(record, unsettled_last_hand=True)  # every rule, or a refusal
            assert len(game.events) == _count(record)
            stored = [event_key(event) for event in game.events]
            assert stored == played.setup_events[: len(stored)], (
                "an entry stored twice or out of order"
            )
            assert len(set(played.acked)) == len(played.acked), "an entry acknowledged twice"
            for index in played.acked:
                assert played.entries[index].after <= len(stored), "an acknowledged entry was lost"
        assert acked_before_kill >= KILL_AFTER, "too few entries before the kill to prove much"
        assert _acked(games) > acked_before_kill, "no entry was acknowledged after the restart"
    finally:
        server.kill()
