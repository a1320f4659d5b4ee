"""A thousand phones following one game: every event stream hears every change.

One asyncio client opens 1,000 event streams on one game at once (a burst, as the phones
reconnect after a restart) against the server ``make run`` starts (``flask serve``: one gevent
process) and against the hosting recipe's two gevent workers, straight and behind the README's
nginx, then makes 20 entries at random
intervals, some 10 ms apart, and checks that every stream was pushed each new version (or a
later one): it came before a silent stream's heartbeat could have found it. How fast a push
comes is a speed target, which lives in ``bench/live_streams.py`` (every one of 3,000 streams
within 1 s): here the test waits for what it checks, however slow the machine.

The doors: 880 streams behind the edit link (each change is its version, a few bytes) and 120
behind the watch link, 80 of them the table and 40 the board (each change is the new page
itself, about 50 KB): watchers are pushed pages as on a real wall, and the client reads 100 MB
rather than a gigabyte, so that the test fits in a few seconds on two cores.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from scorekeeper.rules import Game
from scorekeeper.web.streaming import HEARTBEAT_SECONDS
from tests.support.clubtable import simulated_game
from tests.support.gunicorn import Gunicorn, TableServe, form, import_game, request
from tests.support.nginx import INSTALLED, nginx
from tests.support.server import migrated_database

T = TypeVar("T")

EDITING, WATCHING, BOARDS = 880, 80, 40
CHANGES = 20
PUSHED = HEARTBEAT_SECONDS / 2
"""Seconds from sending an entry by which every stream has had its version pushed. A stream
that nothing wakes reads the stored version again at its heartbeat (20 s after it last
wrote), so a change first heard later than half of that may have been found, not pushed. Not
a speed target: a push takes a few hundred milliseconds on a quiet machine."""
GAPS = (0.01, 0.01, 0.05, 0.2, 0.5)
"""The pauses between one entry's answer and the next entry, drawn at random."""
ID = re.compile(rb"\nid: (-?\d+)\n")
WATCH = re.compile(r'id="watch-link" type="url" value="http://[^/]+(/watch/[^"]+)"')
TOKEN = re.compile(r'name="version" value="(\d+)"')
RECIPE = (
    "--worker-class", "gevent", "--worker-connections", "4000", "--graceful-timeout", "10",
    "--keep-alive", "10", "--workers", "2",
)  # fmt: skip
"""gunicorn's options in the README's hosting recipe."""
SETTINGS = {"SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS": "2000"}
"""Every phone of the test comes from 127.0.0.1: it may hold all its streams."""


@dataclass
class Heard:
    """One stream: its status, and each version it brought with the time it came."""

    path: str
    status: int = 0
    versions: list[tuple[float, int]] = field(default_factory=list)
    closed: bool = False

    def first_at(self, version: int) -> float | None:
        """When the stream first brought ``version`` or a later one."""
        return next((when for when, said in self.versions if said >= version), None)


async def follow(port: int, heard: Heard, opened: asyncio.Event, count: list[int]) -> None:
    """Open the stream and note every version it brings, until cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
    try:
        writer.write(f"GET {heard.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        heard.status = int(head.split(b" ", 2)[1])
        count[0] += 1
        if count[0] == EDITING + WATCHING + BOARDS:
            opened.set()
        tail = b""
        while True:
            chunk = await reader.read(2**18)
            if not chunk:
                heard.closed = True
                return
            now, text = time.monotonic(), tail + chunk
            end = 0
            for found in ID.finditer(text):
                heard.versions.append((now, int(found.group(1))))
                end = found.end()
            tail = text[max(end, len(text) - 40) :]
    finally:
        writer.close()


def make_changes(port: int, key: str, version: int, entries: list, sent: list) -> None:
    """Make the entries one after another, with random pauses: each one's version and the
    time it was sent."""
    rng = random.Random(36)
    for entry in entries:
        time.sleep(rng.choice(GAPS))
        fields = {"version": str(version), **entry.fields}
        started = time.monotonic()
        status, answer, _ = request(port, "POST", f"/games/{key}/{entry.action}", form(fields))
        assert status == 303, (status, answer[:300])
        version += 1
        sent.append((started, version))


async def watch_and_change(port: int) -> tuple[list[Heard], list[tuple[float, int]], int]:
    """Open every stream, make the changes, wait out the last one: the streams, the changes
    (when each was sent, its version) and the game's version at the end."""
    setup, events, entries = simulated_game(0, max_hands=3)
    key = import_game(port, Game(setup, events[: entries[1].before]))
    _, page, _ = request(port, "GET", f"/games/{key}")
    watch, token = WATCH.search(page), TOKEN.search(page)
    assert watch is not None and token is not None
    paths = (
        [f"/games/{key}/changes"] * EDITING
        + [f"{watch.group(1)}/changes"] * WATCHING
        + [f"{watch.group(1)}/changes?view=board"] * BOARDS
    )
    streams = [Heard(path) for path in paths]
    opened, count = asyncio.Event(), [0]
    readers = [asyncio.create_task(follow(port, heard, opened, count)) for heard in streams]
    try:
        await asyncio.wait_for(opened.wait(), 30)
        # Every stream's opening event is in; then the entries.
        await until(lambda: all(heard.versions for heard in streams), PUSHED)
        sent: list[tuple[float, int]] = []
        changing = threading.Thread(
            target=make_changes,
            args=(port, key, int(token.group(1)), entries[1 : 1 + CHANGES], sent),
        )
        changing.start()
        await asyncio.get_running_loop().run_in_executor(None, changing.join)
        # Every stream has the last version, or has had the time to be pushed it.
        last = sent[-1][1] if sent else 0
        await until(lambda: all(heard.first_at(last) is not None for heard in streams), PUSHED)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    _, page, _ = request(port, "GET", f"/games/{key}")
    final = TOKEN.search(page)
    assert final is not None
    return streams, sent, int(final.group(1))


async def until(done: Callable[[], bool], seconds: float) -> None:
    """Return once ``done()``, or after ``seconds`` (what follows then says what is missing)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


def late_streams(streams: list[Heard], sent: list[tuple[float, int]]) -> list[str]:
    """Each change a stream had not brought within PUSHED seconds of its sending."""
    late: list[str] = []
    for number, heard in enumerate(streams):
        for started, version in sent:
            came = heard.first_at(version)
            if came is None or came - started > PUSHED:
                waited = "never" if came is None else f"after {came - started:.2f} s"
                late.append(f"stream {number} ({heard.path}): version {version} {waited}")
    return late


def _own_loop(watching: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: in a process where a browser test has run,
    Playwright's event loop runs in this one (its sync API), and asyncio refuses a second."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, watching).result()


def every_stream_hears_every_change(server: Gunicorn, in_front: Path | None = None) -> None:
    """The test against ``server``; ``in_front``: behind the README's nginx (its files there)."""
    server.start()
    try:
        if in_front is None:
            streams, sent, final = _own_loop(watch_and_change(server.port))
        else:
            with nginx(in_front, server.port) as port:
                streams, sent, final = _own_loop(watch_and_change(port))
    finally:
        server.kill()
    assert [heard.status for heard in streams] == [200] * len(streams)
    assert len(sent) == CHANGES and sent[-1][1] == final
    assert not any(heard.closed for heard in streams), "a stream was closed"
    late = late_streams(streams, sent)
    assert not late, f"{len(late)} late: {late[:10]}"
    assert {heard.versions[-1][1] for heard in streams} == {final}


def test_make_runs_server_pushes_every_change_to_a_thousand_streams(tmp_path: Path) -> None:
    database = tmp_path / "table.sqlite"
    migrated_database(database)
    every_stream_hears_every_change(TableServe(f"sqlite:///{database}", settings=SETTINGS))


def test_the_recipes_gevent_workers_push_every_change_to_a_thousand_streams(
    tmp_path: Path,
) -> None:
    database = tmp_path / "club.sqlite"
    migrated_database(database)
    every_stream_hears_every_change(Gunicorn(f"sqlite:///{database}", *RECIPE, settings=SETTINGS))


@pytest.mark.skipif(not INSTALLED, reason="nginx is not installed")
def test_the_recipe_behind_the_readmes_nginx_pushes_every_change_to_a_thousand_streams(
    tmp_path: Path,
) -> None:
    """Each stream holds two connections in nginx: its default 512 a worker dropped most of
    the streams; the README's lines hold them all."""
    database = tmp_path / "club.sqlite"
    migrated_database(database)
    server = Gunicorn(f"sqlite:///{database}", *RECIPE, settings=SETTINGS)
    every_stream_hears_every_change(server, in_front=tmp_path)
