"""A club night on one server of the README's hosting recipe: 40 tables of four (160 players),
each table's phone entering every 3 s with two watchers, the director's board and a wall board
open. Issue 40's targets: an entry's p99 under 100 ms, every board painted within 1 s of a
game's end, and a board's cost per change flat in the number of tables that did not change.

Run from the repository root: ``.venv/bin/python -m bench.night_load`` (``--quick`` for a short
run, ``--help`` for the knobs). It needs PostgreSQL's programs (``initdb``, ``pg_ctl``) and
Debian's ``nginx``; without one of them it says which and exits 0.

- **The server**, as "Hosting for a club" says: PostgreSQL (a throwaway server, as .ci/run and
  ``bench/load.py`` start one), gunicorn with 2 gevent workers and 4,000 worker connections
  (``bench.load.Server``), nginx in front with the README's own lines
  (``tests/support/nginx.py``), ``SCOREKEEPER_PROXY_FIX=1``, and the rate limits on, counted
  in each worker's memory (the recipe's Redis is not needed for one server) with limits far
  above the load: every simulated phone comes from 127.0.0.1, as a club's phones share its
  router's address. ``SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS`` keeps its default (300), so the
  figures also show that a night and its boards fit under it on one address. CSRF is off (the
  phones send no token). Every phone goes through nginx; the calibration asks gunicorn itself.
- **The night**: a club of 160 players, a night of tables of four (partners drawn) with the
  night form's defaults (all fives to 200, one game a table), round 1 started, all through the
  app's own forms (``bench.night_board.open_night``, in this process, on the same database).
  Each table's game is played by the simulation (``scorekeeper.rules.simulate``, with the
  game's own seats and house rules: plays, draws, passes, settlements, leads; a seed whose game
  ends), and put where it ends at a random moment of the run: its first part is stored through
  the app's own write (``games.append``, the path every entry takes), the rest is entered over
  HTTP one entry every ``--pace`` seconds as htmx sends it (``bench.load.Table.post``). A table
  whose game ended waits for the next round, as at a club: the entry rate falls as games end.
- **The phones**: each table's two watchers hold the watch link's event stream and take each
  new table it pushes, and the scorekeeper's own phone holds the game's stream too
  (``bench.load.Table.follower``). The director's board and the wall board each load their
  page, hold the board's stream and do what ``static/js/night-board.js`` does: on ``event:
  table`` newer than the card shown, ask that table's card (one request on its way a card; a
  newer version heard meanwhile asks again 0.2 s after it lands); a card whose finished count
  changed brings the standings and opens the stream again.
- **Figures, the night**: an entry's p50 and p99 (request sent to response read, every kind
  of entry), the errors, and for each game that ends the time from the ending entry's response
  to the moment each board has the card that shows the game over: the board "painted" means
  that card fetched after its event (a browser then swaps it in, a few milliseconds more; no
  browser here). The servers' CPU in cores (gunicorn's workers, nginx, PostgreSQL, from /proc).
- **Figures, a board's cost per change**, with 10, 20 and 40 tables in the round (a night
  each, nothing else happening): blocks of ``--changes`` entries, one at a time, at the first
  tables, each waiting until every board has what it follows, in three kinds that take turns
  (``--runs`` times, order turned round each run): no board open (the baseline), both boards
  holding their streams but asking no card (events only), and both boards as the page is (the
  event, then the card). Server CPU (gunicorn's, from the scheduler's nanosecond counts, as the
  calibration reads it): per event sent = (events only - baseline) / events, per card fetched
  = (boards - events only) / cards; medians and spread of the runs, in milliseconds and in
  floors. Flat: the same at 40 tables as at 10.

The machine's calibration (``bench/calibration.py``: a trivial request's server CPU and the
floor's) is measured on the same server before the night and printed beside. The output is
one block to paste into bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

from app import create_app
from bench.calibration import Calibration, calibrate, cpu_ns, pin_client
from bench.load import (
    Answer,
    Figures,
    Postgres,
    Server,
    Simulated,
    Table,
    fetch,
    quantile,
    stream_chunks,
)
from bench.night_board import open_night
from scorekeeper.rules import Game, NewHand, Setup
from scorekeeper.web.data import games
from tests.support.clubtable import Entry, played_entries
from tests.support.nginx import nginx

TARGET_ENTRY_P99 = 0.100
TARGET_PAINTED = 1.0
TARGET_FLAT = 1.5
"""Most a change's cost on the board may grow from the fewest tables to the most."""
SIZE = 4
"""Players a table: partners, the night form's default."""
SETTINGS = {
    "SCOREKEEPER_PROXY_FIX": "1",
    "SCOREKEEPER_LIVE_GAMES": "1000",
    "SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS": "300",
    "SCOREKEEPER_RATELIMIT_ENABLED": "true",
    # Counted, never reached: every simulated phone comes from 127.0.0.1.
    "SCOREKEEPER_RATELIMIT_WRITES": "100000 per second",
    "SCOREKEEPER_RATELIMIT_ENTRIES": "100000 per second",
    "SCOREKEEPER_RATELIMIT_NEW_GAMES": "100000 per minute",
    "SCOREKEEPER_RATELIMIT_STORED_GAMES": "1000000 per day",
}
CARD = re.compile(
    rb'id="board-table-(\d+)" data-board-table="\d+" data-version="(\d+)"'
    rb' data-finished="(\d+)" data-state="(\w+)"'
)
ROOT = re.compile(
    rb'id="night-board" data-changes="([^"]+)" data-versions="[^"]+" data-card="([^"]+)"'
    rb' data-standings="([^"]+)"'
)
TABLE_LINK = re.compile(rb'href="/games/([A-Za-z0-9_-]{22})" data-board-table-link')
WALL = re.compile(rb'href="(/clubs/watch/[^"]+/wall)" data-board-wall')


# -- the night ---------------------------------------------------------------------------------


@dataclass
class Night:
    """A night with round 1 started: its board's and its wall's paths, each table's edit key
    (table 1 first) and each table's game as the simulation plays it."""

    board: str
    wall: str
    keys: list[str]
    played: list[Simulated]


def bench_app(database: str) -> Flask:
    """The app in this process on the server's database: the director's forms, and the
    first part of each table's game."""
    return create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": database,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )


def a_game_that_ends(setup: Setup, lead: NewHand, seed: int) -> Simulated:
    """The simulation's game of ``setup`` from the round's first lead (the round draws each
    table's leader by lot and stores it), from the first seed from ``seed`` on whose game has
    that leader and a side winning within 40 hands: its entries after that lead."""
    while True:
        events, entries = played_entries(setup, random.Random(seed), max_hands=40)
        first = events[0]
        assert isinstance(first, NewHand) and entries[0].action == "lead", first
        if first.leader == lead.leader and Game(setup, events).winner is not None:
            return Simulated(setup, events, entries[1:])
        seed += 1


def open_the_night(app: Flask, tables: int, seed: int) -> Night:
    """A club of ``tables`` x 4 players, its night and round 1, through the app's forms."""
    client = app.test_client()
    with warnings.catch_warnings():
        # The test client keeps every game it started in one cookie, past a browser's size.
        warnings.filterwarnings("ignore", message="The 'session' cookie is too large")
        night, keys = open_night(client, tables, SIZE)
    assert len(keys) == tables, (len(keys), tables)
    board = f"{night}/board"
    page = client.get(board).get_data()
    wall = WALL.search(page)
    assert wall is not None, page[:300]
    linked = [key.decode() for key in TABLE_LINK.findall(page)]
    assert linked == keys, "the board's cards link the round's tables in order"
    with app.app_context():
        stored = [games.load(key).game for key in keys]
    played = []
    for n, game in enumerate(stored):
        lead = game.events[0] if len(game.events) == 1 else None
        assert isinstance(lead, NewHand), f"a round's game begins with its lead: {game.events}"
        played.append(a_game_that_ends(game.setup, lead, seed + 1000 * n))
    return Night(board, wall.group(1).decode(), keys, played)


def play_ahead(app: Flask, key: str, game: Simulated, entries: int) -> None:
    """Store the first ``entries`` entries' events of ``game`` at once, through the app's own
    write: the table is then that far into its game."""
    if entries <= 0:
        return
    with app.app_context():
        version = games.load(key).version
        # The round stored the first lead; the rest up to that entry.
        games.append(key, version, game.events[1 : game.entries[entries].before])


# -- a table and a board -------------------------------------------------------------------


class NightTable(Table):
    """One table of the round: its game (created by the round), played on from entry
    ``start``, and its phones (``bench.load.Table``'s)."""

    def __init__(self, port: int, number: int, key: str, game: Simulated, start: int) -> None:
        super().__init__(port, [game], random.Random(number))
        self.number = number
        self.key = key
        self.game = game
        self.next = start
        self.ended: float | None = None
        """When the answer to the game's last entry was read."""

    async def open(self, figures: Figures) -> None:
        """Read the table's watch link and token from its page, as the phone opens it."""
        page = await fetch(self.port, "GET", f"/games/{self.key}")
        found = re.search(
            rb'id="watch-link" type="url" value="https?://[^/]+(/watch/[^"]+)"', page.body
        )
        token = re.search(rb'<input type="hidden" name="(seq|version)" value="([^"]+)"', page.body)
        assert found and token, (page.status, page.body[:300])
        self.watch = found.group(1).decode()
        self.token = (token.group(1).decode(), token.group(2).decode())

    @property
    def entry(self) -> Entry | None:
        """The next entry to send; None once the game is over."""
        return self.game.entries[self.next] if self.next < len(self.game.entries) else None

    async def enter(self, figures: Figures) -> bool:
        """Send the next entry; whether it was taken."""
        entry = self.entry
        assert entry is not None
        if not await self.post(entry.action, entry.fields, figures):
            return False
        self.next += 1
        if self.entry is None:
            self.ended = time.monotonic()
        return True

    async def scorekeeper(self, figures: Figures, pace: float, undo: float, stop: Any) -> None:
        """An entry every ``pace`` seconds until the game is over (no undo at a night)."""
        await asyncio.sleep(random.uniform(0, pace))
        while not stop.is_set() and self.entry is not None:
            began = time.monotonic()
            await self.enter(figures)
            await asyncio.sleep(max(0.0, pace - (time.monotonic() - began)))

    @property
    def version(self) -> int:
        """The game's version as the table's page holds it."""
        return int(self.token[1])


@dataclass
class Board:
    """The director's board or the wall, as static/js/night-board.js follows the round."""

    port: int
    path: str
    name: str
    cards: bool = True
    """Whether it asks the card after an event (False: it only holds the stream)."""
    shown: dict[int, int] = field(default_factory=dict)
    finished: dict[int, int] = field(default_factory=dict)
    heard: dict[int, int] = field(default_factory=dict)
    painted: dict[int, float] = field(default_factory=dict)
    """When the card showing each table's game over was read."""
    events: int = 0
    answered: list[int] = field(default_factory=list)
    """The status of each opening of its stream (204: refused, the page would poll)."""
    fetched: int = 0
    standings: int = 0
    urls: tuple[str, str, str] = ("", "", "")
    asking: set[int] = field(default_factory=set)
    reopen: asyncio.Event = field(default_factory=asyncio.Event)

    async def open(self, figures: Figures) -> None:
        """Load the page: its cards' versions and the URLs it follows."""
        began = time.monotonic()
        page = await fetch(self.port, "GET", self.path)
        figures.note("board page", time.monotonic() - began, None if page.status == 200 else
                     f"{self.name} page: {page.status}")  # fmt: skip
        root = ROOT.search(page.body)
        assert root is not None, page.body[:300]
        changes, card, standings = (part.decode().replace("&amp;", "&") for part in root.groups())
        self.urls = (changes, card, standings)
        for number, version, finished, _state in CARD.findall(page.body):
            self.shown[int(number)] = int(version)
            self.finished[int(number)] = int(finished)

    async def follow(self, figures: Figures, stop: asyncio.Event) -> None:
        """Hold the board's stream (opened again when it ends or a game finished) until
        ``stop``; each ``table`` event handled as the page does."""
        tasks: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            self.reopen.clear()
            with _either(stop, self.reopen) as done:
                buffer = b""
                async with contextlib.aclosing(
                    stream_chunks(self.port, self.urls[0], done, figures, self.answered)
                ) as chunks:
                    async for chunk in chunks:
                        buffer += chunk
                        *events, buffer = buffer.split(b"\n\n")
                        for event in events:
                            self._heard(event, figures, tasks)
            if not stop.is_set() and not self.reopen.is_set():
                await asyncio.sleep(1)  # the stream ended: the browser opens it again
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _heard(self, event: bytes, figures: Figures, tasks: set[asyncio.Task[None]]) -> None:
        lines = dict(line.split(b": ", 1) for line in event.split(b"\n") if b": " in line)
        if lines.get(b"event") != b"table":
            return
        number, version = (int(part) for part in lines[b"data"].split())
        self.events += 1
        self.heard[number] = max(self.heard.get(number, 0), version)
        if self.cards and self.heard[number] > self.shown.get(number, -1):
            self._ask(number, figures, tasks)

    def _ask(self, number: int, figures: Figures, tasks: set[asyncio.Task[None]]) -> None:
        if number in self.asking:
            return
        self.asking.add(number)
        task = asyncio.create_task(self._card(number, figures, tasks))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def _card(self, number: int, figures: Figures, tasks: set[asyncio.Task[None]]) -> None:
        try:
            began = time.monotonic()
            answer = await fetch(self.port, "GET", f"{self.urls[1]}{number}")
            figures.note("card", time.monotonic() - began, None if answer.status == 200 else
                         f"{self.name} card: {_failed(answer)}")  # fmt: skip
            self.fetched += 1
            found = CARD.search(answer.body)
            if found is None or int(found.group(2)) <= self.shown.get(number, -1):
                return
            self.shown[number] = int(found.group(2))
            if found.group(4) == b"over" and number not in self.painted:
                self.painted[number] = time.monotonic()
            finished = int(found.group(3))
            if finished != self.finished.get(number):
                self.finished[number] = finished
                self.reopen.set()
                began = time.monotonic()
                answer = await fetch(self.port, "GET", self.urls[2])
                figures.note("standings", time.monotonic() - began, None if answer.status == 200
                             else f"{self.name} standings: {_failed(answer)}")  # fmt: skip
                self.standings += 1
        finally:
            self.asking.discard(number)
        if self.heard.get(number, 0) > self.shown.get(number, -1):
            await asyncio.sleep(0.2)
            self._ask(number, figures, tasks)


def _failed(answer: Answer) -> str:
    """An answer's status, and for no answer at all (0) why: a timeout, a reset..."""
    if answer.status:
        return str(answer.status)
    return f"0 {answer.body[:80].decode(errors='replace')}"


@contextlib.contextmanager
def _either(*events: asyncio.Event) -> Iterator[asyncio.Event]:
    """An event set as soon as any of ``events`` is (a stream's reason to close)."""
    either = asyncio.Event()

    async def watch(event: asyncio.Event) -> None:
        await event.wait()
        either.set()

    watchers = [asyncio.create_task(watch(event)) for event in events]
    try:
        yield either
    finally:
        for watcher in watchers:
            watcher.cancel()


# -- the night's run ---------------------------------------------------------------------------


@dataclass
class Cpu:
    """CPU seconds so far of the night's server processes."""

    read: Callable[[], dict[str, float]]

    def since(self, before: dict[str, float]) -> dict[str, float]:
        now = self.read()
        return {name: now[name] - before[name] for name in now}


def pids_cpu(pids: dict[str, int]) -> Callable[[], dict[str, float]]:
    """A reader of each named process tree's CPU seconds (``bench.calibration.cpu_ns``)."""
    return lambda: {name: cpu_ns(pid) / 1e9 for name, pid in pids.items()}


async def run_night(
    port: int, app: Flask, night: Night, args: argparse.Namespace, cpu: Cpu, floor_ms: float
) -> list[str]:
    """The night: every table's phones and both boards; the figures' lines."""
    rng = random.Random(7)
    tables = []
    for number, (key, game) in enumerate(zip(night.keys, night.played, strict=True), 1):
        # The game ends a random moment from the warm-up's end to twice the measured time
        # after it (about half the games end while measured), at one entry every --pace s.
        left = max(1, round((args.warmup + rng.uniform(0, 2 * args.seconds)) / args.pace))
        start = max(0, len(game.entries) - left)
        play_ahead(app, key, game, start)
        tables.append(NightTable(port, number, key, game, start))
    figures = Figures()
    # The phones' streams open during the warm-up: their figures count from the start, so
    # that a stream refused on opening is seen.
    phones = Figures(recording=True)
    await asyncio.gather(*(table.open(figures) for table in tables))
    boards = [Board(port, night.board, "board"), Board(port, night.wall, "wall")]
    await asyncio.gather(*(board.open(figures) for board in boards))
    stop_tables, stop_boards = asyncio.Event(), asyncio.Event()
    jobs = [board.follow(figures, stop_boards) for board in boards]
    for table in tables:
        jobs.append(table.scorekeeper(figures, args.pace, 0.0, stop_tables))
        jobs += [table.follower(phones, stop_tables, args.warmup / 2) for _ in range(2)]
        jobs.append(table.follower(phones, stop_tables, args.warmup / 2, watching=False))
    tasks = [asyncio.create_task(job) for job in jobs]
    await asyncio.sleep(args.warmup)
    figures.recording = True
    began, before = time.monotonic(), cpu.read()
    await asyncio.sleep(args.seconds)
    used = cpu.since(before)
    measured_until = time.monotonic()
    figures.recording = False
    stop_tables.set()
    await asyncio.sleep(TARGET_PAINTED * 2)  # the boards catch up with the last ends
    stop_boards.set()
    await asyncio.gather(*tasks)

    entries = figures.times.get("entry", [])
    ended = {
        t.number: t.ended
        for t in tables
        if t.ended is not None and began <= t.ended <= measured_until
    }
    delays = {
        board.name: [board.painted[n] - at for n, at in ended.items() if n in board.painted]
        for board in boards
    }
    unpainted = sum(1 for board in boards for n in ended if n not in board.painted)
    every = [d for found in delays.values() for d in found]
    in_time = sum(1 for d in every if d <= TARGET_PAINTED)
    lines = [
        f"night: {len(tables)} tables of {SIZE} ({len(tables) * SIZE} players), an entry every"
        f" {args.pace:g} s a table, 2 watchers and the scorekeeper's phone on each game's"
        f" stream, the director's board and the wall; {args.seconds:g} s measured after"
        f" {args.warmup:g} s",
        f"  entries: {len(entries)} ({len(entries) / args.seconds:.1f}/s), p50"
        f" {quantile(entries, 0.5) * 1000:.0f} ms, p99 {quantile(entries, 0.99) * 1000:.0f} ms"
        f" (target under {TARGET_ENTRY_P99 * 1000:.0f} ms), slowest"
        f" {max(entries, default=0) * 1000:.0f} ms; errors {len(figures.errors)}; streams"
        f" opened: games' {len(phones.times.get('stream', []))}, boards'"
        f" {sum(len(b.answered) for b in boards)}, refused or failed"
        f" {len(phones.errors) + sum(1 for b in boards for a in b.answered if a != 200)}",
        f"  games ended while measured: {len(ended)}; their cards on the 2 boards: painted"
        f" {len(ended) * 2 - unpainted} of {len(ended) * 2} (by {TARGET_PAINTED * 2:g} s after"
        f" the tables stopped), within {TARGET_PAINTED:g} s {in_time}; ending entry's answer to the"
        f" board's card showing it over: p50 {quantile(every, 0.5) * 1000:.0f} ms, slowest"
        f" {max(every, default=0) * 1000:.0f} ms (target under {TARGET_PAINTED * 1000:.0f} ms;"
        f" board {_most(delays['board'])}, wall {_most(delays['wall'])})",
        f"  boards: {sum(b.events for b in boards)} table events, {sum(b.fetched for b in boards)}"
        f" cards fetched (p50 {quantile(figures.times.get('card', []), 0.5) * 1000:.0f} ms, p99"
        f" {quantile(figures.times.get('card', []), 0.99) * 1000:.0f} ms),"
        f" {sum(b.standings for b in boards)} standings; a watcher's new table after an entry:"
        f" p50 {quantile(phones.updates, 0.5) * 1000:.0f} ms, p90"
        f" {quantile(phones.updates, 0.9) * 1000:.0f} ms (the whole run)",
        "  CPU in cores: "
        + ", ".join(f"{name} {s / args.seconds:.2f}" for name, s in used.items()),
        _demand(used["gunicorn"], len(entries), len(tables), args.pace, floor_ms),
    ]
    lines += [f"    error: {error}" for error in sorted(set(figures.errors + phones.errors))[:5]]
    return lines


def _demand(cpu: float, entries: int, tables: int, pace: float, floor_ms: float) -> str:
    """What the night asks of gunicorn, from what it used: its CPU per entry (the entry, its
    watchers' and scorekeeper's streams, the boards' events and cards), and the cores every
    table entering at ``pace`` needs at that cost. On a machine too busy to give the server
    what it asks, the entries queue and the latencies above measure the queue; this does not."""
    per_entry = cpu * 1000 / max(1, entries)
    cores = per_entry / 1000 * tables / pace
    return (
        f"  gunicorn's CPU per entry, with all it brings: {per_entry:.1f} ms"
        f" ({per_entry / floor_ms:.1f} floors); every table at full pace needs {cores:.2f} cores"
    )


def _most(delays: list[float]) -> str:
    return f"slowest {max(delays) * 1000:.0f} ms" if delays else "none"


# -- a board's cost per change ----------------------------------------------------------------


async def cost_block(
    port: int, night: Night, tables: list[NightTable], kind: str, changes: int, server: int
) -> tuple[float, int, int]:
    """One block of ``changes`` entries, one at a time at the first tables, with the boards
    of ``kind`` ("none", "events", "cards"): the server's CPU seconds, events and cards."""
    figures = Figures()
    boards = [] if kind == "none" else [
        Board(port, night.board, "board", cards=kind == "cards"),
        Board(port, night.wall, "wall", cards=kind == "cards"),
    ]  # fmt: skip
    stop = asyncio.Event()
    for board in boards:
        await board.open(figures)
    followers = [asyncio.create_task(board.follow(figures, stop)) for board in boards]
    # Every board has heard each table's version on the stream's opening.
    while any(len(board.heard) < len(night.keys) for board in boards):
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    events = sum(board.events for board in boards)
    cards = sum(board.fetched for board in boards)
    before = cpu_ns(server)
    for change in range(changes):
        table = tables[change % len(tables)]
        if not await table.enter(figures):
            raise SystemExit(f"an entry was refused: {figures.errors[-1:]}")
        wanted = table.version
        deadline = time.monotonic() + 5
        follows = "shown" if kind == "cards" else "heard"
        while any(
            getattr(board, follows).get(table.number, 0) < wanted for board in boards
        ) and time.monotonic() < deadline:  # fmt: skip
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.02)  # a gap between changes, the same in every kind of block
    used = (cpu_ns(server) - before) / 1e9
    events = sum(board.events for board in boards) - events
    cards = sum(board.fetched for board in boards) - cards
    stop.set()
    await asyncio.gather(*followers)
    if figures.errors:
        raise SystemExit(f"board cost: {figures.errors[:3]}")
    return used, events, cards


async def board_cost(
    port: int, nights: dict[int, Night], args: argparse.Namespace, server: int,
    calibration: Calibration,
) -> list[str]:  # fmt: skip
    """Server CPU per event and per card at each number of tables; the figures' lines."""
    lines = [
        f"a board's cost per change: blocks of {args.changes} entries at the first 8 tables, one"
        f" at a time, no board / 2 boards on the stream only / 2 boards asking each card, taking"
        f" turns, {args.runs} runs; server CPU in ms (median, spread max-min) and in floors",
        "| tables in the round | per event sent | per card fetched | card in floors |"
        " per change, both boards | entry alone (baseline) |",
        "|---|---|---|---|---|---|",
    ]
    per_card: dict[int, float] = {}
    for count, night in nights.items():
        tables = [
            NightTable(port, number, key, game, 0)
            for number, (key, game) in enumerate(zip(night.keys, night.played, strict=True), 1)
        ][:8]
        figures = Figures()
        await asyncio.gather(*(table.open(figures) for table in tables))
        found: dict[str, list[float]] = {"event": [], "card": [], "change": [], "entry": []}
        for run in range(args.runs):
            kinds = ["none", "events", "cards"]
            spent: dict[str, tuple[float, int, int]] = {}
            for kind in kinds if run % 2 == 0 else reversed(kinds):
                spent[kind] = await cost_block(port, night, tables, kind, args.changes, server)
            alone, with_events, with_cards = spent["none"][0], spent["events"], spent["cards"]
            found["entry"].append(alone / args.changes)
            found["event"].append((with_events[0] - alone) / max(1, with_events[1]))
            found["card"].append((with_cards[0] - with_events[0]) / max(1, with_cards[2]))
            found["change"].append((with_cards[0] - alone) / args.changes)
        per_card[count] = statistics.median(found["card"])
        lines.append(
            f"| {count} | {_ms(found['event'])} | {_ms(found['card'])}"
            f" | {per_card[count] * 1000 / calibration.floor_ms:.2f} | {_ms(found['change'])}"
            f" | {_ms(found['entry'])} |"
        )
    counts = sorted(per_card)
    if len(counts) > 1 and per_card[counts[0]] > 0:
        growth = per_card[counts[-1]] / per_card[counts[0]]
        lines.append(
            f"  a card at {counts[-1]} tables against {counts[0]}: {growth:.2f}x"
            f" (flat: under {TARGET_FLAT:g}x)"
        )
    return lines


async def settled(server: int, most: float = 60.0) -> None:
    """Wait (``most`` seconds at most) until the server has worked off what the night left it
    (a busy machine leaves it a queue of requests after the phones stop): under 5 % of a core
    for a second. Otherwise the first block of the cost would pay for it."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        before = cpu_ns(server)
        await asyncio.sleep(1)
        if cpu_ns(server) - before < 0.05e9:
            return


def _ms(seconds: list[float]) -> str:
    """Median and spread, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return f"{statistics.median(ms):.2f} ({min(ms):.2f}-{max(ms):.2f})"


# -- the whole bench ---------------------------------------------------------------------------


async def bench(args: argparse.Namespace, database: str, folder: Path) -> list[str]:
    """Start the recipe's server on ``database``, run the night and the board's cost."""
    server = Server(database, 2, 1, "", "gevent", SETTINGS, pin=not args.no_pin)
    server.start()
    try:
        assert server.process is not None
        with nginx(folder, server.port) as port:
            calibration = calibrate(server.port, server.process.pid)
            app = bench_app(database)
            night = open_the_night(app, args.tables, seed=1)
            costs = {count: open_the_night(app, count, seed=1) for count in args.cost_tables}
            pids = {"gunicorn": server.process.pid, "nginx": _pid(folder / "nginx.pid")}
            postgres = _postgres_pid(database)
            if postgres:
                pids["PostgreSQL"] = postgres
            lines = [
                "gunicorn 2 gevent workers behind nginx (the README's recipe), PostgreSQL;"
                " every phone through nginx",
                calibration.line(),
            ]
            lines += await run_night(
                port, app, night, args, Cpu(pids_cpu(pids)), calibration.floor_ms
            )
            await settled(server.process.pid)
            lines += await board_cost(port, costs, args, server.process.pid, calibration)
            lines.append(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
            return lines
    finally:
        server.stop()


def _pid(path: Path) -> int:
    return int(path.read_text().split()[0])


def _postgres_pid(database: str) -> int | None:
    """The PostgreSQL server's postmaster (its backends are its children), if started here."""
    for found in Path(tempfile.gettempdir()).glob("load-pg-*/db/postmaster.pid"):
        port = found.read_text().splitlines()[3]
        if f":{port}/" in database:
            return int(found.read_text().split()[0])
    return None


def main() -> int:
    """Parse the knobs, start PostgreSQL, run, print one block."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40, help="tables of four in the night")
    parser.add_argument("--seconds", type=float, default=60, help="measured")
    parser.add_argument("--warmup", type=float, default=10, help="unmeasured start")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a table's entries")
    parser.add_argument(
        "--cost-tables",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[10, 20, 40],
        help="the rounds' sizes for the board's cost per change (comma-separated)",
    )
    parser.add_argument("--changes", type=int, default=40, help="entries a cost block")
    parser.add_argument("--runs", type=int, default=3, help="runs of the cost's blocks")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run: 10 tables, 15 s measured, costs at 8 and 16 tables, 10 changes a block",
    )
    parser.add_argument("--no-pin", action="store_true", help="phones and server on every core")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.warmup = 10, 15, 6
        args.cost_tables, args.changes = [8, 16], 10
    missing = [name for name in ("nginx",) if shutil.which(name) is None]
    if missing:
        print(f"Skipped: {' and '.join(missing)} not found (apt-get install nginx-light).")
        return 0
    pinned = "" if args.no_pin else pin_client()
    postgres = Postgres()
    database = postgres.start()
    if database is None:
        return 0
    try:
        with tempfile.TemporaryDirectory(prefix="night-nginx-") as folder:
            lines = asyncio.run(bench(args, database, Path(folder)))
    finally:
        postgres.stop()
    print("```")
    print(f"bench/night_load.py{' --quick' if args.quick else ''}; {pinned or 'not pinned'}")
    print("\n".join(lines))
    print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
