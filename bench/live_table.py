"""A small club on ``make run``'s server: how long from a play sent to every watching phone
having the new table?

Run from the repository root: ``.venv/bin/python -m bench.live_table`` (``--help`` for the
knobs; about three minutes).

- **The server**: what ``make run`` starts, ``flask serve`` (``scorekeeper/web/site/cli.py``),
  as a subprocess on a free port of 127.0.0.1, on a new SQLite file, migrated first. Its app
  is ``bench.calibration:bench_app`` (the app with the calibration's two routes added, nothing
  else changed). CSRF and rate limits are off and the cap on one address's streams lifted,
  as in ``bench/load.py``: every simulated phone comes from 127.0.0.1. The server runs on one
  core, this client (one asyncio process) on the other (``--no-pin``: both anywhere).
- **The tables** (``--tables``, 20): each plays a simulated game as ``bench/load.py`` does, an
  entry every 3 s (``--pace``) from its scorekeeper's phone; three phones (``--watchers``)
  follow the watch link and the scorekeeper's phone its own page, each as
  ``static/js/live.js`` does: on the game's event stream, which pushes a watcher each new
  table; where the server answers the stream 204 (it holds none), by polling the live URL
  every 1.5 s with the version it shows.
- **The figure**: from an entry sent (the tap) to each watching phone's new table received
  and parsed (the pushed event read and its version found, or the polled answer read whole
  and decompressed), p50, p90 and the slowest, with the updates seen against those expected
  (entries x watchers). "Painted" is approximated by received and parsed: a phone's browser
  then swaps the table in (``bench/tap_latency.py`` measures that part: about 50 ms on a phone
  slowed four times). **Target: p90 under 500 ms.**
- Beside it: how the phones followed (streams held, or 204 and polling), the server's CPU per
  entry in the calibration's units (``bench/calibration.py``, measured on this server in
  this run), and the load average. Three runs of ``--seconds`` each after a warm-up: the
  median and spread.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.calibration import Calibration, calibrate, cpu_ns, pin_client
from bench.load import (
    Figures,
    Simulated,
    Table,
    fetch,
    launch,
    quantile,
    stream_versions,
)
from tests.support.clubtable import simulated_game
from tests.support.gunicorn import free_port

ROOT = Path(__file__).resolve().parents[1]
TARGET_P90 = 0.500
POLL = 1.5
"""Seconds between a page's polls where it holds no stream (static/js/live.js)."""


class Serve:
    """``flask serve`` on a free port, in its own process group."""

    def __init__(self, pin: bool) -> None:
        self.port = free_port()
        self.pin = pin
        database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'table.sqlite'}"
        self.env = {
            **os.environ,
            "DATABASE_URL": database,
            "SCOREKEEPER_SECRET_KEY": "bench",
            "SCOREKEEPER_WTF_CSRF_ENABLED": "false",
            "SCOREKEEPER_RATELIMIT_ENABLED": "false",
            "SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS": "100000",
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        flask = [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"]
        subprocess.run(flask, cwd=ROOT, env=self.env, check=True, capture_output=True)
        command = [
            sys.executable, "-m", "flask", "--app", "bench.calibration:bench_app", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--no-qr",
        ]  # fmt: skip
        self.process = launch(command, self.env, self.port, self.pin)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


async def phone(
    table: Table,
    figures: Figures,
    stop: asyncio.Event,
    spread: float,
    watching: bool,
    kinds: list[int],
) -> None:
    """One phone as live.js follows a game: its event stream; polling after a 204."""
    await asyncio.sleep(table.rng.uniform(0, spread))
    live = f"{table.watch}/live" if watching else f"/games/{table.key}/live"
    etag = (await fetch(table.port, "GET", live, headers={"HX-Request": "true"})).headers.get(
        "etag", ""
    )
    path = f"{table.watch}/changes" if watching else f"/games/{table.key}/changes"
    while not stop.is_set():
        answered: list[int] = []
        async for kind, version in stream_versions(table.port, path, stop, figures, answered):
            etag = await table.heard(figures, kind, version, etag, watching)
        kinds.extend(answered[:1])
        if answered[:1] == [204]:
            await poll(table, figures, stop, live, etag, watching)
            return
        if not stop.is_set():
            await asyncio.sleep(1)


async def poll(
    table: Table, figures: Figures, stop: asyncio.Event, live: str, etag: str, watching: bool
) -> None:
    """The page polls its live URL every 1.5 s with the version it shows."""
    while not stop.is_set():
        began = time.monotonic()
        if watching:
            etag = await table.ask_live(figures, etag)
        else:
            answer = await fetch(
                table.port, "GET", live, headers={"HX-Request": "true", "If-None-Match": etag}
            )
            figures.note(
                "live",
                time.monotonic() - began,
                None if answer.status in (200, 304) else f"live: {answer.status}",
            )
            etag = answer.headers.get("etag", etag)
        await asyncio.sleep(max(0.0, POLL - (time.monotonic() - began)))


async def one_run(
    serve: Serve, tables: list[Table], args: argparse.Namespace
) -> tuple[Figures, list[int], int, float]:
    """Warm-up, then ``--seconds`` measured: the figures, how the streams were answered,
    the entries sent and the server's CPU seconds while measuring."""
    figures = Figures()
    stop = asyncio.Event()
    kinds: list[int] = []
    jobs: list[Any] = []
    for table in tables:
        jobs.append(table.scorekeeper(figures, args.pace, 0.0, stop))
        jobs += [phone(table, figures, stop, 2.0, True, kinds) for _ in range(args.watchers)]
        jobs.append(phone(table, figures, stop, 2.0, False, kinds))
    tasks = [asyncio.create_task(job) for job in jobs]
    await asyncio.sleep(args.warmup)
    assert serve.process is not None
    figures.recording = True
    began = cpu_ns(serve.process.pid)
    await asyncio.sleep(args.seconds)
    cpu = (cpu_ns(serve.process.pid) - began) / 1e9
    figures.recording = False
    stop.set()
    await asyncio.gather(*tasks)
    return figures, kinds, len(figures.times.get("entry", [])), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--pace", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=6)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-pin", action="store_true")
    args = parser.parse_args()
    if not args.no_pin:
        print(pin_client())
    serve = Serve(pin=not args.no_pin)
    serve.start()
    rng = random.Random(5)
    games = [Simulated(*simulated_game(seed, max_hands=25)) for seed in range(args.tables)]
    results = []
    try:
        assert serve.process is not None
        calibration = calibrate(serve.port, serve.process.pid)
        tables = [Table(serve.port, games, rng) for _ in range(args.tables)]

        async def open_all() -> None:
            opening = Figures()
            for table in tables:
                await table.open(opening)

        asyncio.run(open_all())
        for _ in range(args.runs):
            results.append(asyncio.run(one_run(serve, tables, args)))
    finally:
        serve.stop()
    report(results, calibration, args)
    return 0


def report(
    results: list[tuple[Figures, list[int], int, float]],
    calibration: Calibration,
    args: argparse.Namespace,
) -> None:
    """Each run's line, then the medians and spreads."""
    print(
        f"flask serve (make run's server), SQLite; {args.tables} tables, an entry every"
        f" {args.pace:g} s, {args.watchers} watching phones and the scorekeeper's each;"
        f" {args.seconds:g} s measured after {args.warmup:g} s"
    )
    print(calibration.line())
    p90s, floors = [], []
    for number, (figures, kinds, entries, cpu) in enumerate(results, 1):
        held = sum(kind == 200 for kind in kinds)
        polled = sum(kind == 204 for kind in kinds)
        updates = figures.updates
        per_entry = cpu * 1000 / max(1, entries)
        p90s.append(quantile(updates, 0.9))
        floors.append(per_entry / calibration.floor_ms)
        print(
            f"run {number}: streams held {held}, answered 204 (polling) {polled}; updates seen"
            f" {len(updates)} of {entries * args.watchers} expected; play to each watcher's table"
            f" p50 {quantile(updates, 0.5) * 1000:.0f} ms, p90 {p90s[-1] * 1000:.0f} ms, max"
            f" {max(updates, default=0) * 1000:.0f} ms; errors {len(figures.errors)}; server CPU"
            f" {cpu / args.seconds:.2f} cores, {per_entry:.1f} ms an entry with its pushes and"
            f" polls = {floors[-1]:.1f} floors; load average {os.getloadavg()[0]:.1f}"
        )
        for error in sorted(set(figures.errors))[:3]:
            print(f"    error: {error}")
    median = statistics.median(p90s)
    print(
        f"play to every watcher's table, p90: median {median * 1000:.0f} ms (spread"
        f" {min(p90s) * 1000:.0f}-{max(p90s) * 1000:.0f}) over {len(p90s)} runs: target"
        f" {TARGET_P90 * 1000:.0f} ms {'met' if median < TARGET_P90 else 'MISSED'}; server CPU an"
        f" entry {statistics.median(floors):.1f} floors ({min(floors):.1f}-{max(floors):.1f})"
    )


if __name__ == "__main__":
    sys.exit(main())
