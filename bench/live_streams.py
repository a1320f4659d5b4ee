"""Thousands of phones on one game's event stream, on the hosting recipe: does every one of
them get each change within a second, are a burst of new streams all answered, what does a
stream cost in memory, and how long does the server hold one whose phone has gone?

Run from the repository root: ``.venv/bin/python -m bench.live_streams`` (``--help`` for the
knobs; about two minutes).

- **The server**: the README's recipe as ``bench/load.py`` starts it (gunicorn, 2 gevent
  workers, ``--worker-connections 4000``, ``gunicorn.conf.py`` read from the repository's root),
  on SQLite, CSRF and rate limits off, and the cap on one address's streams lifted (every
  simulated phone comes from 127.0.0.1, where a club's come from many addresses). The server
  runs on one core, this client (one asyncio process) on the other (``--no-pin``: both
  anywhere).
- **3,000 streams on one game** (``--streams``): the watch link's event stream of one game,
  opened 200 at a time. Then ``--changes`` entries, one every 3 s, from the scorekeeper's
  phone; each stream sends the new table (``event: page``). For each change, the share of the
  streams that had received and parsed the table at that version (or newer) within 1 s of the
  entry being sent, and the time the last one took. **Target: 100 % within 1 s.**
- **Memory per stream**: the workers' resident memory (``VmRSS``) with the streams open, less
  before they were opened, over the number of streams.
- **A dead stream**: every phone hangs up at once (its connection closed, as a browser tab
  closed or a phone put away does); how long until the workers hold no more connections
  than before (their open descriptors, from /proc). The server notices a hung-up stream when
  it next writes to it: the stream's heartbeat (every 20 s while nothing changes), or a
  change. A phone that vanishes without a word (out of Wi-Fi) is not simulated: its
  stream is held until a write fails by TCP's time-out, or until the stream's end (5 minutes,
  ``sharing.STREAM_SECONDS``).
- **A burst**: ``--burst`` (1,000) streams opened in one go; the share answered (200 and the
  first event) within 10 s, and the time the last took. **Target: 100 %.**

The calibration (``bench/calibration.py``: a trivial request's and the floor's server CPU, on
this server, in this run) is printed beside the figures. Three runs (``--runs``): each figure's
median and spread.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.calibration import Calibration, calibrate, pin_client
from bench.load import Figures, Server, Simulated, Table
from tests.support.clubtable import simulated_game

WITHIN = 1.0
"""Seconds after an entry by which every stream must have its new table."""
BURST_WAIT = 10.0
"""Seconds a stream of the burst may take to be answered."""
PAGE = b"event: page\n"
PAGE_VERSION = b'data-version="'
"""A pushed table's version: in its first tag, right after the event's name."""


@dataclass
class Stream:
    """One phone's stream: when each version's table arrived."""

    arrived: dict[int, float] = field(default_factory=dict)
    opened: float = 0.0
    answered: float | None = None
    status: int = 0
    writer: asyncio.StreamWriter | None = None


async def hold(port: int, path: str, stream: Stream, stop: asyncio.Event) -> None:
    """Open the stream as a browser's EventSource does and note each table it brings, until
    ``stop`` or it ends."""
    stream.opened = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    stream.writer = writer
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
            "Accept-Encoding: gzip, deflate, br, zstd\r\nCache-Control: no-cache\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        stream.status = int(head.split(b" ", 2)[1])
        if b"content-encoding" in head.lower():
            raise SystemExit("the stream came compressed: this client reads plain events only")
        if stream.status != 200:
            stream.answered = time.monotonic()
            return
        rest = b""
        while not stop.is_set():
            data = await reader.read(262144)
            if not data:
                return
            now = time.monotonic()
            if stream.answered is None:
                stream.answered = now
            # Chunked framing left in: only the version in each page's first tag is read, and
            # a chunk's size line never looks like it.
            rest += data
            start = 0
            while (found := rest.find(PAGE, start)) >= 0:
                tag = rest.find(PAGE_VERSION, found, found + 400)
                end = rest.find(b'"', tag + len(PAGE_VERSION)) if tag >= 0 else -1
                if end < 0:
                    break  # the rest of the tag comes with the next read
                stream.arrived.setdefault(int(rest[tag + len(PAGE_VERSION) : end]), now)
                start = end
            # Keep what may hold the start of an event not read whole yet.
            rest = rest[start:] if rest.find(PAGE, start) >= 0 else rest[-400:]
    except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
        return
    finally:
        writer.close()


def worker_pids(server: Server) -> list[int]:
    """The gunicorn workers' process ids."""
    assert server.process is not None
    pid = server.process.pid
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def rss_kib(pids: list[int]) -> int:
    """The processes' resident memory, KiB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def descriptors(pids: list[int]) -> int:
    """The processes' open file descriptors."""
    return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)


@dataclass
class Run:
    """One run's figures."""

    within: list[float] = field(default_factory=list)
    """Per change: the share of streams with its table within 1 s."""
    slowest: list[float] = field(default_factory=list)
    """Per change: seconds until the last stream had it (inf: some never did)."""
    open_streams: int = 0
    per_stream_kib: float = 0.0
    dead_held: float = 0.0
    burst_answered: float = 0.0
    burst_slowest: float = 0.0
    burst_204: int = 0


async def one_run(server: Server, game: Simulated, args: argparse.Namespace) -> Run:
    """Open the streams, make the changes, hang up, then the burst."""
    figures = Figures()
    table = Table(server.port, [game], random.Random(7))
    table.next = len(game.entries) // 3
    await table.open(figures)
    path = f"{table.watch}/changes"
    pids = worker_pids(server)
    result = Run()
    await asyncio.sleep(1)
    memory_before, fds_before = rss_kib(pids), descriptors(pids)
    stop = asyncio.Event()
    streams = [Stream() for _ in range(args.streams)]
    tasks = []
    for begin in range(0, args.streams, 200):
        tasks += [
            asyncio.create_task(hold(server.port, path, stream, stop))
            for stream in streams[begin : begin + 200]
        ]
        await asyncio.sleep(0.2)
    for _ in range(100):  # every stream answered (its first event), 10 s at most
        if all(stream.answered is not None for stream in streams):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    result.open_streams = sum(
        stream.status == 200 and stream.answered is not None for stream in streams
    )
    result.per_stream_kib = (rss_kib(pids) - memory_before) / max(1, result.open_streams)
    for _ in range(args.changes):
        entry = table.game.entries[table.next]
        sent = time.monotonic()
        version = int(table.token[1]) + 1
        if not await table.post(entry.action, entry.fields, figures):
            raise SystemExit(f"an entry was refused: {figures.errors}")
        table.next += 1
        await asyncio.sleep(3)
        times = [
            min((at for seen, at in stream.arrived.items() if seen >= version), default=None)
            for stream in streams
        ]
        took = [at - sent for at in times if at is not None]
        result.within.append(sum(t <= WITHIN for t in took) / len(streams))
        result.slowest.append(max(took) if len(took) == len(streams) else float("inf"))
    # Every phone hangs up at once.
    hung_up = time.monotonic()
    stop.set()
    for stream in streams:
        if stream.writer is not None:
            stream.writer.transport.abort()
    await asyncio.gather(*tasks, return_exceptions=True)
    result.dead_held = float("inf")
    while time.monotonic() - hung_up < args.dead_wait:
        if descriptors(pids) <= fds_before + 5:
            result.dead_held = time.monotonic() - hung_up
            break
        await asyncio.sleep(0.25)
    # The burst.
    stop = asyncio.Event()
    burst = [Stream() for _ in range(args.burst)]
    began = time.monotonic()
    tasks = [asyncio.create_task(hold(server.port, path, stream, stop)) for stream in burst]
    while time.monotonic() - began < BURST_WAIT and any(s.answered is None for s in burst):
        await asyncio.sleep(0.05)
    answered = [s for s in burst if s.status == 200 and s.answered is not None]
    result.burst_answered = len(answered) / len(burst)
    result.burst_204 = sum(s.status == 204 for s in burst)
    result.burst_slowest = max((s.answered - began for s in answered), default=float("inf"))  # type: ignore[operator]
    stop.set()
    for stream in burst:
        if stream.writer is not None:
            stream.writer.transport.abort()
    await asyncio.gather(*tasks, return_exceptions=True)
    return result


def _spread(values: list[float], form: str) -> str:
    return f"{form.format(statistics.median(values))} ({form.format(min(values))}-{form.format(max(values))})"


def report(runs: list[Run], calibration: Calibration, args: argparse.Namespace) -> None:
    """Every figure: median and spread over the runs."""
    print(calibration.line())
    print(f"load average now {os.getloadavg()[0]:.1f}")
    for number, run in enumerate(runs, 1):
        shares = ", ".join(f"{share:.1%}" for share in run.within)
        slowest = ", ".join(f"{t:.2f}" for t in run.slowest)
        print(
            f"run {number}: {run.open_streams} streams open; within {WITHIN:g} s per change:"
            f" {shares}; slowest (s): {slowest}; {run.per_stream_kib:.1f} KiB a stream;"
            f" hung-up streams dropped after {run.dead_held:.1f} s; burst of {args.burst}:"
            f" {run.burst_answered:.1%} answered (204: {run.burst_204}), last after"
            f" {run.burst_slowest:.2f} s"
        )
    every_change = [min(run.within) for run in runs]
    met = all(share == 1.0 for run in runs for share in run.within)
    print(
        f"streams at the latest version within {WITHIN:g} s of each change, the worst change of"
        f" each run: {_spread(every_change, '{:.1%}')}: target 100 %"
        f" {'met' if met else 'MISSED'}"
    )
    slowest = [max(run.slowest) for run in runs]
    print(
        f"the last stream's new table, the slowest change of each run: {_spread(slowest, '{:.2f}')} s"
    )
    print(f"memory a stream: {_spread([run.per_stream_kib for run in runs], '{:.1f}')} KiB")
    print(f"a hung-up stream held: {_spread([run.dead_held for run in runs], '{:.1f}')} s")
    burst = [run.burst_answered for run in runs]
    print(
        f"burst of {args.burst} streams answered within {BURST_WAIT:g} s: {_spread(burst, '{:.1%}')}"
        f"; the last after {_spread([run.burst_slowest for run in runs], '{:.2f}')} s: target 100 %"
        f" {'met' if min(burst) == 1.0 else 'MISSED'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=3000)
    parser.add_argument("--changes", type=int, default=5, help="entries a run, 3 s apart")
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--dead-wait", type=float, default=60, help="seconds to watch hung-up streams"
    )
    parser.add_argument("--no-pin", action="store_true")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.streams + args.burst + 200
    if hard < needed:
        raise SystemExit(f"this client needs {needed} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if not args.no_pin:
        print(pin_client())
    database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'streams.sqlite'}"
    settings = {
        "SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS": "100000",
        "SCOREKEEPER_LIVE_STREAMS": "4000",
    }
    server = Server(database, args.workers, 1, "", "gevent", settings, pin=not args.no_pin)
    server.start()
    game = Simulated(*simulated_game(3, max_hands=25))
    runs = []
    try:
        assert server.process is not None
        calibration = calibrate(server.port, server.process.pid)
        print(
            f"gunicorn {args.workers} gevent workers (the recipe), SQLite; {args.streams} streams"
            f" on one game's watch link, {args.changes} changes 3 s apart; a burst of {args.burst}"
        )
        for _ in range(args.runs):
            runs.append(asyncio.run(one_run(server, game, args)))
    finally:
        server.stop()
    report(runs, calibration, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
