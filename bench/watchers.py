"""What it costs the server when more phones watch a table: three watchers against one, per
change of the game, in server CPU.

Run from the repository root: ``.venv/bin/python -m bench.watchers`` (``--changes N``,
``--runs N``).

Two copies of one long game (a complete 2-player game to 250, replayed entry by entry from its
start) are stored on SQLite. One is watched by one phone, the other by three. The bench enters
the game's next event in each copy in turn (the scorer's entry is not timed) and then lets
each watcher of that copy hear of it: on its event stream, or by polling the watch link's
live URL as ``static/js/live.js`` does (htmx, ``If-None-Match`` with the version its page
shows). What is timed is the CPU time of this process (the app runs in it, through Flask's
test client, with every hook of the app) for all that a copy's watchers cost after one
change. The two copies take turns change by change, so a busy moment of the machine hits
both alike.

Three arms, each a fresh pair of copies: **pushed** (the hosting recipe: each watcher holds the
watch link's event stream, and the change comes to it as the new table, rendered once for all
of them), **polled** (the fallback where streams cannot be held: the first watcher's poll
renders the new table, the others are given it, see ``scorekeeper/web/rendered.py``) and
**each renders** (polled, the kept pages forgotten before every poll, as before pages were
kept), the last for comparison. The target (issue 20): three watchers cost at most 1.2x one
watcher per change, pushed. Figures, not a test: it exits 0 whatever they are.

``--workers``: the hosting recipe's two worker processes, as two apps in this process on the
same database (the second hears of a change from its SQLite reader, as a second gunicorn
worker does), with the three watchers' streams spread over them (two on the first, one on the
second). Two arms: **own renders** (``SHARED_PAGES`` off: each worker renders the change
for its own watchers, as before issue 36) and **shared** (the workers share rendered pages
through the instance folder, ``scorekeeper/web/rendered_files.py``). It prints the renders of
the table per change and both workers' CPU per change for the three watchers, against one
watcher on the first worker alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from flask import Flask, template_rendered
from flask.testing import FlaskClient

from app import create_app
from bench.calibration import Calibration, calibrate_in_process
from scorekeeper.rules.record import load_record
from scorekeeper.web import rendered
from scorekeeper.web.data import games
from tests.support.server import migrated_app

TARGET = 1.2
GAME = Path(__file__).resolve().parents[1] / "tests" / "data" / "sim_all_fives_2p.json"
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br, zstd"}
"""What a phone's Chromium sends with a poll: htmx's header, and the encodings it accepts."""


class Copy:
    """One stored copy of the game, entered event by event, and the phones watching it."""

    def __init__(self, app: Flask, watchers: int, others: tuple[Flask, ...] = ()) -> None:
        game = load_record(GAME.read_text())
        self.events = list(game.events)
        with app.app_context():
            row = games.create(game.setup, self.events[:1]).row
            self.key, self.watch = row.edit_key, f"/watch/{row.watch_key}/live"
        self.app, self.entered = app, 1
        # The watchers take turns over the workers: the first, then each other one.
        workers = (app, *others)
        self.phones: list[FlaskClient] = [
            workers[number % len(workers)].test_client() for number in range(watchers)
        ]
        self.etags = [self._poll(phone, None)[1] for phone in self.phones]

    def _poll(self, phone: FlaskClient, etag: str | None) -> tuple[int, str]:
        headers = dict(HTMX, **({"If-None-Match": etag} if etag else {}))
        response = phone.get(self.watch, headers=headers)
        response.get_data()
        return response.status_code, response.headers.get("ETag", etag or "")

    def close(self) -> None:
        """Hang up (a polling phone holds nothing open)."""

    def change(self) -> None:
        """The scorer enters the game's next event (not timed)."""
        with self.app.app_context():
            loaded = games.load(self.key)
            after = games.append(self.key, loaded.version, [self.events[self.entered]], loaded)
            # After a settlement the store may begin the next hand itself (its leader is
            # known): the record's next event then follows that.
            self.entered = len(after.game.events)

    def polls(self, before: Callable[[], None]) -> float:
        """Every watcher polls once: their CPU time in seconds (``before`` each, not timed)."""
        spent = 0.0
        for number, phone in enumerate(self.phones):
            before()
            start = time.process_time()
            status, self.etags[number] = self._poll(phone, self.etags[number])
            spent += time.process_time() - start
            assert status == 200, f"a watcher's poll after a change answered {status}"
        return spent


class Streamed(Copy):
    """A copy whose watchers hold the watch link's event stream, as on the gevent worker: each
    change is pushed to them as the new table (``sharing.changes_stream``)."""

    def __init__(self, app: Flask, watchers: int, others: tuple[Flask, ...] = ()) -> None:
        super().__init__(app, watchers, others)
        path = self.watch.removesuffix("/live") + "/changes"
        self.streams, self.answers = [], []
        for phone in self.phones:
            answer = phone.get(path, headers=HTMX, buffered=False)
            assert answer.status_code == 200, f"the stream answered {answer.status_code}"
            self.answers.append(answer)
            stream: Iterator[bytes] = iter(answer.response)
            _next_event(stream, b"event: version")
            self.streams.append(stream)

    def close(self) -> None:
        """Hang up every stream, here, where it was opened (its request context with it)."""
        for answer in self.answers:
            answer.close()

    def polls(self, before: Callable[[], None]) -> float:
        """Every watcher's stream sends the change: their CPU time in seconds."""
        spent = 0.0
        for stream in self.streams:
            before()
            start = time.process_time()
            _next_event(stream, b"event: page")
            spent += time.process_time() - start
        return spent


def _next_event(stream: Iterator[bytes], kind: bytes) -> None:
    for chunk in stream:
        if kind in chunk:
            return
    raise AssertionError(f"the stream ended before {kind!r}")


def run(changes: int, arm: str) -> tuple[float, float]:
    """One run: the median CPU per change of one watcher's and of three watchers' (ms)."""
    # "Each renders" forgets the kept pages before every poll: the pages the workers share
    # through files (on by default) would otherwise be read back instead of rendered.
    app = migrated_app(
        Path(tempfile.mkdtemp()) / "bench.sqlite",
        RATELIMIT_ENABLED=False,
        LIVE_PUSH=True,
        SHARED_PAGES=arm != "each renders",
    )
    kind = Streamed if arm == "pushed" else Copy
    one, three = kind(app, 1), kind(app, 3)

    def nothing() -> None:
        return None

    def forget() -> None:
        rendered.forget(app)

    before = forget if arm == "each renders" else nothing
    costs: dict[int, list[float]] = {1: [], 3: []}
    limit = min(changes, len(one.events) - 1)
    for _ in range(limit):
        for copy, watchers in ((one, 1), (three, 3)):
            copy.change()
            costs[watchers].append(copy.polls(before) * 1000)
    for copy in (one, three):
        copy.close()
    return statistics.median(costs[1]), statistics.median(costs[3])


def two_workers(changes: int, shared: bool) -> tuple[float, float, float]:
    """One run on two workers: the median CPU per change of one watcher (on the first worker)
    and of three spread over both (ms), and the renders of the table per change for the
    three."""
    folder = Path(tempfile.mkdtemp())
    config = {
        "RATELIMIT_ENABLED": False,
        "LIVE_PUSH": True,
        "SHARED_PAGES": shared,
        "SHARED_PAGES_FOLDER": str(folder / "rendered"),
    }
    first = migrated_app(folder / "bench.sqlite", **config)
    second = create_app(
        {
            "SECRET_KEY": "not-secret",
            **config,
            "SQLALCHEMY_DATABASE_URI": first.config["SQLALCHEMY_DATABASE_URI"],
        }
    )
    one, three = Streamed(first, 1), Streamed(first, 3, (second,))
    renders = [0]

    def seen(sender: Flask, template: object, context: object, **extra: object) -> None:
        renders[0] += getattr(template, "name", "") == "_table.html"

    for app in (first, second):
        template_rendered.connect(seen, app)
    costs: dict[int, list[float]] = {1: [], 3: []}
    counted = 0
    limit = min(changes, len(one.events) - 1)
    for _ in range(limit):
        for copy, watchers in ((one, 1), (three, 3)):
            copy.change()
            before = renders[0]
            costs[watchers].append(copy.polls(lambda: None) * 1000)
            if watchers == 3:
                counted += renders[0] - before
    for copy in (one, three):
        copy.close()
    return statistics.median(costs[1]), statistics.median(costs[3]), counted / limit


def calibration() -> Calibration:
    """The trivial request and the floor, in this process as the arms run (the line printed)."""
    app = migrated_app(Path(tempfile.mkdtemp()) / "calibration.sqlite", RATELIMIT_ENABLED=False)
    found = calibrate_in_process(app)
    print(found.line("in this process, through the test client"))
    return found


def main_workers(args: argparse.Namespace) -> int:
    """The two-worker arms, run by run."""
    calibrated = calibration()
    print(
        f"Game: {GAME.name}, entered from its start; {args.changes} changes a run; two workers,"
        " the three watchers' streams on the first, the second and the first"
    )
    print(f"{'arm':<12}{'run':>4}{'1 watcher':>12}{'3 watchers':>13}{'ratio':>8}{'renders':>9}")
    found: dict[str, list[tuple[float, float, float]]] = {"own renders": [], "shared": []}
    for number in range(1, args.runs + 1):
        for arm in found:
            one, three, renders = two_workers(args.changes, arm == "shared")
            found[arm].append((one, three, renders))
            print(
                f"{arm:<12}{number:>4}{one:>10.2f}ms{three:>11.2f}ms{three / one:>7.2f}x"
                f"{renders:>9.2f}"
            )
    for arm, runs in found.items():
        threes = [three for _, three, _ in runs]
        ratios = [three / one for one, three, _ in runs]
        renders = [count for _, _, count in runs]
        print(
            f"{arm}: three watchers on two workers, per change: median {statistics.median(threes):.2f} ms"
            f" CPU (spread {min(threes):.2f}-{max(threes):.2f}), {statistics.median(ratios):.2f}x one"
            f" watcher (spread {min(ratios):.2f}-{max(ratios):.2f}), renders"
            f" {statistics.median(renders):.2f} (spread {min(renders):.2f}-{max(renders):.2f});"
            f" {statistics.median(threes) / calibrated.floor_ms:.2f} floors a change"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300, help="changes per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--workers", action="store_true", help="three watchers over two workers, shared or not"
    )
    args = parser.parse_args()
    if args.workers:
        return main_workers(args)
    calibrated = calibration()
    print(f"Game: {GAME.name}, entered from its start; {args.changes} changes a run")
    print(f"{'arm':<14}{'run':>4}{'1 watcher':>12}{'3 watchers':>13}{'ratio':>8}")
    ratios: dict[str, list[float]] = {"pushed": [], "polled": [], "each renders": []}
    for number in range(1, args.runs + 1):
        # The arms take turns run by run too.
        for arm in ratios:
            one, three = run(args.changes, arm)
            ratios[arm].append(three / one)
            print(f"{arm:<14}{number:>4}{one:>10.2f}ms{three:>11.2f}ms{three / one:>7.2f}x")
    for arm, found in ratios.items():
        spread = max(found) - min(found)
        print(
            f"{arm}: 3 watchers / 1 watcher per change, median {statistics.median(found):.2f}x "
            f"(spread {spread:.2f} over {len(found)} runs); the floor: {calibrated.floor_ms:.2f} ms"
        )
    median = statistics.median(ratios["pushed"])
    verdict = "met" if median <= TARGET else "MISSED"
    print(
        f"Target: three watchers at most {TARGET}x one watcher per change: {median:.2f}x, {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
