"""Whether an entry costs the same in hand 25 as in hand 1, and how close a play is to the floor.

Run from the repository root: ``.venv/bin/python -m bench.flat_cost`` (``--repeats N``,
``--database URL`` for a PostgreSQL server of your own, ``--no-postgres`` to skip it).

One long 2-player game (a fixed seed, to a target of 1000, so it lasts beyond 25 hands) is
stored a few times, cut where the next entry is a play, a draw or a pass: at the first such
place in hands 1 and 25 and at the last (see ``PLACES``). Through the test client with every
hook of the app (security headers, compression; no CSRF and no rate limits, which would refuse
a bench), it times:

- **play**, then **undo** of it, **redo** of the undone play and undo again (which leaves the
  game as it was); **draw**, undo, redo, undo; **pass**, undo, redo, undo;
- **table**: the edit page, whole; **poll**: the live URL after a change (the new table);
  **poll 304**: the live URL while nothing changed; **watch** and **board**: the watch page
  and the wall board, whole (each after a change, as a phone that opens them meets them);
- **log**: the log page as it opens (the hand in play, every entry explained); **sheet**: the
  printable score sheet (one row per hand). Both on a copy of the place's game that the
  entries above never touch, so its log gathers no undone entries between repeats;
- **floor**: a trivial Flask route that inserts one row into the same database (INSERT and
  COMMIT) and renders a page of the same size as the play's answer from a template compiled
  once (not ``render_template_string``, which compiles on every call).

Each figure is the server's CPU time (this process's, the app running in it), the median of
``--repeats`` interleaved runs. Targets (issue 20): hand 25 within 1.15x of hand 1; the play at
most 2.5x the floor. Figures, not a test: it exits 0 whatever they are.
SQLite always; PostgreSQL too when this machine has a server to start (as .ci/run does), or
``--database`` names one.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from flask import Flask, render_template
from flask.testing import FlaskClient
from sqlalchemy import text

from app import create_app
from scorekeeper.rules import Draw, Event, NewHand, Pass, Play, Setup
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import games
from scorekeeper.web.data.database import db

FLAT_TARGET = 1.15
PLACES = (
    ("1 first", 1, False),
    ("25 first", 25, False),
    ("1 last", 1, True),
    ("25 last", 25, True),
)
"""Where the entries are timed: the first play, draw and pass of hands 1 and 25 (an empty
layout, the hand's log one entry long) and their last (a full layout, a whole hand's log).
Hand 25 is compared with hand 1 at the same place, so what grows is the game alone."""
FLOOR_TARGET = 2.5
HTMX = {"HX-Request": "true"}
VERSION = re.compile(r'name="version" value="(\d+)"')
EVENTS = re.compile(r'id="table"[^>]*data-seq="(\d+)"')
ETAG_WAIT = '"v0"'


def long_game() -> tuple[Setup, list[Event]]:
    """The first seed's game that reaches hand 26 with a draw and a pass in hands 1 and 25.

    2 players, All Fives to 1000, so nobody wins before.
    """
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    for seed in range(1000):
        events = list(play_game(setup, random.Random(seed), max_hands=26).events)
        wanted = [(hand, kind) for hand in (1, 25) for kind in (Draw, Pass)]
        if all(_has(events, hand, kind) for hand, kind in wanted) and _has(events, 26, Play):
            return setup, events
    raise SystemExit("no simulated game fits the bench")


def cut(events: list[Event], hand: int, kind: type, deep: bool) -> int:
    """How many events to keep so the next is a ``kind`` in hand ``hand``.

    The first such place in the hand, or (``deep``) the last one.
    """
    number, places = 0, []
    for index, event in enumerate(events):
        if isinstance(event, NewHand):
            number += 1
        elif number == hand and isinstance(event, kind):
            places.append(index)
    if not places:
        raise SystemExit(f"hand {hand} of the bench game has no {kind.__name__}")
    return places[-1] if deep else places[0]


def form_version(body: str) -> str:
    """The game's version the answer's entry forms carry."""
    found = VERSION.search(body)
    assert found, "no entry form in the answer"
    return found.group(1)


def event_count(body: str) -> int:
    """How many events the answer's table shows (its ``data-seq``)."""
    found = EVENTS.search(body)
    assert found, "no table in the answer"
    return int(found.group(1))


class Table:
    """One stored game, cut where the next entry is of one kind, and its timed requests."""

    def __init__(self, app: Flask, client: FlaskClient, setup: Setup, events: list[Event]) -> None:
        with app.app_context():
            row = games.create(setup, events).row
            self.key, self.watch_key = row.edit_key, row.watch_key
        self.client = client
        self.url = f"/games/{self.key}"
        self.next: Event | None = None
        page = self.get(self.url).get_data(as_text=True)
        self.version = form_version(page)
        self.events = event_count(page)

    def get(self, url: str, **headers: str) -> object:
        """A GET, checked."""
        answer = self.client.get(url, headers=headers)
        assert answer.status_code in (200, 304), (url, answer.status_code)
        return answer

    def post(self, action: str, data: dict[str, str]) -> int:
        """An htmx entry; remember the version of its answer; the size of the answer."""
        answer = self.client.post(
            f"{self.url}/{action}", data={"version": self.version, **data}, headers=HTMX
        )
        body = answer.get_data(as_text=True)
        assert answer.status_code == 200, (action, answer.status_code, body[:300])
        self.version = form_version(body)
        self.events = event_count(body)
        return len(answer.get_data())

    def enter(self) -> int:
        """The entry the game's record has next (a play, a draw of one tile, a pass)."""
        event = self.next
        if isinstance(event, Play):
            data = {"tile": str(event.tile)}
            if event.end:
                data["end"] = event.end
            return self.post("play", data)
        if isinstance(event, Draw):
            return self.post("draw", {})
        assert isinstance(event, Pass)
        return self.post("pass", {})

    def undo(self) -> int:
        """Undo the last entry."""
        return self.post("undo", {})

    def redo(self) -> int:
        """Bring back the entry just undone."""
        return self.post("redo", {})


REQUESTS = (
    "play", "draw", "pass", "undo", "redo", "table", "poll", "poll 304", "watch", "board", "log", "sheet",
)  # fmt: skip
"""What is timed at each place, in the order the report lists it."""


def timer(work: Callable[[], object]) -> float:
    """The CPU time of this process (the app's, through the test client) for one call of
    ``work``, in milliseconds: the server's work, not the database server's or a wait."""
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


FLOOR_PAGE = (
    "<!doctype html><html><head><title>floor</title></head><body>"
    '{% for line in lines %}<p class="line">{{ line }}</p>{% endfor %}</body></html>'
)


def add_floor(app: Flask) -> None:
    """The floor: one INSERT and COMMIT to the same database, and a page of the given size
    from a template compiled once (as the app's own are), through Flask's render_template."""
    page = app.jinja_env.from_string(FLOOR_PAGE)
    with app.app_context():
        db.session.execute(text("CREATE TABLE IF NOT EXISTS bench_floor (note VARCHAR(20))"))
        db.session.commit()

    @app.post("/bench/floor/<int:size>")
    def floor(size: int) -> str:
        db.session.execute(text("INSERT INTO bench_floor (note) VALUES ('floor')"))
        db.session.commit()
        lines = ["x" * 60] * max(1, size // 80)
        return render_template(page, lines=lines)


def measure(app: Flask, repeats: int) -> dict[str, dict[str, float]]:
    """Every figure at hand 1 and hand 25, and the floor: median milliseconds."""
    setup, events = long_game()
    client = app.test_client()
    add_floor(app)
    figures: dict[str, dict[str, float]] = {}
    places = PLACES
    at_place: dict[str, dict[str, Table]] = {}
    paper: dict[str, Table] = {}
    for label, hand, deep in places:
        paper[label] = Table(app, client, setup, events[: cut(events, hand, Play, deep)])
        tables = {}
        for kind in (Play, Draw, Pass):
            hand_of_kind = hand
            try:
                at = cut(events, hand_of_kind, kind, deep)
            except SystemExit:
                # Hand 1 may have no pass: take the first hand that has one.
                hand_of_kind = next(h for h in range(hand, 27) if _has(events, h, kind))
                at = cut(events, hand_of_kind, kind, False)
            table = Table(app, client, setup, events[:at])
            table.next = events[at]
            tables[kind.__name__.lower()] = table
        at_place[label] = tables
    runs = {label: {name: [] for name in REQUESTS} for label, _, _ in places}
    answered: dict[str, list[int]] = {label: [] for label, _, _ in places}
    # The places take turns within each repeat, so that a burst of other work on the machine
    # slows all of them alike instead of one place's whole series.
    for _ in range(repeats):
        for label, _, _ in places:
            tables, times, sizes_here = at_place[label], runs[label], answered[label]
            played = tables["play"]
            for name, table in tables.items():
                times[name].append(timer(lambda t=table, a=sizes_here: a.append(t.enter())))
                times["undo"].append(timer(table.undo))
                times["redo"].append(timer(table.redo))
                table.undo()
            page, live = played.url, played.url + "/live"
            times["table"].append(timer(lambda p=played, u=page: p.get(u)))
            times["poll"].append(
                timer(lambda p=played, u=live: p.get(u, **HTMX, If_None_Match=ETAG_WAIT))
            )
            version = played.get(live).headers["ETag"]  # type: ignore[attr-defined]
            times["poll 304"].append(
                timer(lambda p=played, u=live, v=version: p.get(u, If_None_Match=v))
            )
            watch = f"/watch/{played.watch_key}"
            times["watch"].append(timer(lambda p=played, u=watch: p.get(u)))
            times["board"].append(timer(lambda p=played, u=watch + "/board": p.get(u)))
            still = paper[label]
            times["log"].append(timer(lambda t=still: t.get(t.url + "/log")))
            times["sheet"].append(timer(lambda t=still: t.get(t.url + "/sheet")))
    for label, _, _ in places:
        figures[label] = {name: statistics.median(times) for name, times in runs[label].items()}
        figures[label]["events"] = float(at_place[label]["play"].events)
        figures[label]["bytes"] = statistics.median(answered[label])
        figures[label]["log bytes"] = len(client.get(paper[label].url + "/log").get_data())
        figures[label]["log entries"] = float(_entries_in_hand(paper[label].events, events))
    plays = []
    table = Table(app, client, setup, events[: cut(events, 25, Play, True)])
    table.next = events[cut(events, 25, Play, True)]
    first = Table(app, client, setup, events[: cut(events, 1, Play, False)])
    first.next = events[cut(events, 1, Play, False)]
    # Each play against a floor page of its own answer's size (the "same-size page"):
    # hand 25's answer is longer than hand 1's, and so is its floor.
    size_1 = first.enter()
    first.undo()
    size_25 = table.enter()
    table.undo()
    floors_1, floors_25, ratios_1, ratios_25 = [], [], [], []
    for _ in range(repeats):
        floor_1 = timer(lambda: client.post(f"/bench/floor/{size_1}"))
        one = timer(first.enter)
        first.undo()
        floor_25 = timer(lambda: client.post(f"/bench/floor/{size_25}"))
        deep = timer(table.enter)
        table.undo()
        floors_1.append(floor_1)
        floors_25.append(floor_25)
        plays.append(deep)
        ratios_1.append(one / floor_1)
        ratios_25.append(deep / floor_25)
    figures["floor"] = {
        "floor hand 1": statistics.median(floors_1),
        "floor hand 25": statistics.median(floors_25),
        "size hand 1": size_1,
        "size hand 25": size_25,
        "play hand 1 / floor": statistics.median(ratios_1),
        "play hand 25 / floor": statistics.median(ratios_25),
    }
    return figures


def _entries_in_hand(kept: int, events: list[Event]) -> int:
    """How many entries the log shows of the hand in play when ``kept`` events are kept."""
    start = max(i for i in range(kept) if isinstance(events[i], NewHand))
    return kept - start


def _has(events: list[Event], hand: int, kind: type) -> bool:
    number = 0
    for event in events:
        if isinstance(event, NewHand):
            number += 1
        elif number == hand and isinstance(event, kind):
            return True
    return False


def report(name: str, figures: dict[str, dict[str, float]]) -> None:
    """Print the figures of one database."""
    print(
        f"\n{name}: median CPU ms of each request, hand 25 against hand 1 at the same place: "
        f"its first play, draw, pass (hand 25's after {int(figures['25 first']['events'])} "
        f"events) and its last (after {int(figures['25 last']['events'])})"
    )
    print(
        f"{'request':<10} {'1 first':>8} {'25 first':>9} {'ratio':>6} {'1 last':>8} "
        f"{'25 last':>8} {'ratio':>6}  target <= {FLAT_TARGET}"
    )
    for request in REQUESTS:
        cells, ratios = [], []
        for early, late in (("1 first", "25 first"), ("1 last", "25 last")):
            ratio = figures[late][request] / figures[early][request]
            if request == "log":
                # The log shows the hand in play, entry by entry: hand 25's is longer than hand
                # 1's (34 entries against 27), so the log is compared per entry shown.
                ratio *= figures[early]["log entries"] / figures[late]["log entries"]
            ratios.append(ratio)
            cells.append(
                f"{figures[early][request]:8.2f} {figures[late][request]:9.2f} {ratio:6.2f}"
            )
        mark = "ok" if max(ratios) <= FLAT_TARGET else "MISSED"
        print(f"{request:<10} {' '.join(cells)}  {mark}")
    for what, key in (("answer of an entry", "bytes"), ("log page", "log bytes")):
        sizes = ", ".join(f"{place} {int(figures[place][key])}" for place, _, _ in PLACES)
        print(f"{what} (bytes): {sizes}")
    entries = ", ".join(f"{place} {int(figures[place]['log entries'])}" for place, _, _ in PLACES)
    print(f"entries in the log's hand: {entries} (the log's ratio is per entry)")
    floor = figures["floor"]
    print(
        f"floor (one write and a page the size of the play's answer): hand 1 "
        f"{floor['floor hand 1']:.2f} ms ({int(floor['size hand 1'])} bytes), hand 25 "
        f"{floor['floor hand 25']:.2f} ms ({int(floor['size hand 25'])} bytes); "
        f"play / floor: hand 1 {floor['play hand 1 / floor']:.2f}, "
        f"hand 25 {floor['play hand 25 / floor']:.2f} (target <= {FLOOR_TARGET})"
    )


def make_app(url: str) -> Flask:
    """The app on database ``url``, migrated, with the hooks a club server runs."""
    import flask_migrate

    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    """A PostgreSQL server on loopback for the run (as .ci/run starts one), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not found or os.geteuid() != 0 or shutil.which("su") is None:
        yield None
        return
    pgbin = found[-1]
    folder = tempfile.mkdtemp()
    shutil.chown(folder, "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def as_postgres(command: str) -> None:
        subprocess.run(["su", "postgres", "-c", command], check=True, capture_output=True)

    try:
        as_postgres(f"{pgbin}/initdb -D {folder}/db -A trust -U postgres")
        options = f"-k {folder} -p {port} -c listen_addresses=127.0.0.1"
        as_postgres(f"{pgbin}/pg_ctl -D {folder}/db -l {folder}/log -w -o '{options}' start")
        as_postgres(f"{pgbin}/createdb -h 127.0.0.1 -p {port} bench")
    except subprocess.CalledProcessError:
        shutil.rmtree(folder, ignore_errors=True)
        yield None
        return
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/bench"
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            as_postgres(f"{pgbin}/pg_ctl -D {folder}/db -m fast stop")
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    """Measure on SQLite, then on PostgreSQL when there is one, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--database", help="a PostgreSQL URL to measure on as well")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    report("SQLite", measure(make_app(f"sqlite:///{folder / 'bench.sqlite'}"), args.repeats))
    shutil.rmtree(folder, ignore_errors=True)
    if args.no_postgres:
        return 0
    if args.database:
        report("PostgreSQL", measure(make_app(args.database), args.repeats))
        return 0
    with throwaway_postgres() as url:
        if url is None:
            print("\nPostgreSQL: skipped (no server to start here; --database URL names one).")
        else:
            report("PostgreSQL", measure(make_app(url), args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
