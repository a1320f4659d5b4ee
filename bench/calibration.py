"""The machine's own calibration, printed beside every capacity figure so that another machine
can scale it: the server CPU of a trivial request and of the floor, measured on the server the
capacity bench runs, in the same run, interleaved.

Run alone from the repository root: ``.venv/bin/python -m bench.calibration`` (gunicorn with 2
gevent workers on a temporary SQLite database, as ``bench/load.py`` starts it); the capacity
benches (``load.py``, ``cluster.py``) call :func:`calibrate` on their own server before they
load it.

- **trivial request**: ``GET /bench/trivial``, a route answering ``ok`` from the full app,
  through every hook the site runs on each request (its security headers, session, language,
  compression, logging). A capacity figure counts the site's requests, and each of them pays
  those hooks; a bare Flask app would measure the interpreter and Werkzeug alone, and move
  with them instead of with what a request here costs. (``bench/live_poll.py`` calls the same
  thing "a trivial Flask request".)
- **floor**: ``POST /bench/floor/<size>``, the route of ``bench/flat_cost.py`` (one INSERT
  and COMMIT to the same database, and a page of ``size`` bytes from a template compiled
  once), here a 56 KB page, the size of a play's answer late in a game.

Both are sent one at a time, each on its own connection with the headers the load's phones
send (``Connection: close``, every encoding Chromium accepts), in blocks that take turns.
Server CPU is the gunicorn master's and workers' on-CPU time, from the scheduler's
nanosecond count (``/proc/<pid>/task/*/schedstat``: /proc's clock ticks are 10 ms, longer than
a request), less what the idle server used in the same time (each worker's change reader
wakes every 0.2 s on SQLite), measured just before.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TRIVIAL = "/bench/trivial"
FLOOR_SIZE = 56_000
"""Bytes of the floor's page: a play's answer in hand 25 (``bench/flat_cost.py``)."""
FLOOR = f"/bench/floor/{FLOOR_SIZE}"
RUNS = 3
BLOCK = 40
"""Requests of one kind in a row before the other kind's turn."""
ROUNDS = 5
"""Blocks of each kind per run."""


def bench_app() -> Any:
    """The app with the calibration's two routes: gunicorn's target for the capacity benches
    (``bench.calibration:bench_app()``)."""
    from app import create_app

    return add_routes(create_app())


def add_routes(app: Any) -> Any:
    """Add the trivial route and the floor to ``app``; ``app``."""
    from bench.flat_cost import add_floor

    add_floor(app)

    @app.get(TRIVIAL)
    def trivial() -> str:
        return "ok"

    return app


# -- where the client and the server run -------------------------------------------------------


def cores() -> tuple[set[int], set[int]] | None:
    """The client's core and the server's, when this machine has two or more: the client on
    the first core it may use, the server on the others. None on one core."""
    usable = sorted(os.sched_getaffinity(0))
    if len(usable) < 2:
        return None
    return {usable[0]}, set(usable[1:])


def pin_client() -> str:
    """Put this process (the bench's client) on its own core; how, in words."""
    found = cores()
    if found is None:
        return "client and server share the only core"
    client, server = found
    os.sched_setaffinity(0, client)
    return f"client pinned to core {sorted(client)}, server to {sorted(server)}"


def server_preexec() -> Callable[[], None] | None:
    """For ``subprocess.Popen(preexec_fn=...)``: the server (and the workers it forks) on the
    cores the client does not use."""
    found = cores()
    if found is None:
        return None
    server = found[1]
    return lambda: os.sched_setaffinity(0, server)


# -- server CPU ----------------------------------------------------------------------------------


def server_cores(pinned: bool) -> set[int]:
    """The cores the server runs on: the ones :func:`server_preexec` gives it, or every one."""
    found = cores()
    if pinned and found is not None:
        return found[1]
    return set(os.sched_getaffinity(0))


def busy_seconds(among: set[int]) -> float:
    """CPU seconds the cores ``among`` have been busy so far, whoever ran (``/proc/stat``)."""
    ticks = 0
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in among:
            user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
            ticks += user + nice + system + irq + softirq + steal
    return ticks / os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (gunicorn's master and its workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [pid, *(int(child) for child in children)]


def cpu_ns(pid: int) -> int:
    """On-CPU nanoseconds of ``pid``'s process tree so far, every thread of each."""
    total = 0
    for member in process_tree(pid):
        for stat in Path(f"/proc/{member}/task").glob("*/schedstat"):
            try:
                total += int(stat.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue  # a thread that ended between listing and reading
    return total


# -- the client ------------------------------------------------------------------------------


def ask(port: int, method: str, path: str) -> int:
    """One request on a new connection, as the load's phones send it; its status."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            "Accept-Encoding: gzip, deflate, br, zstd\r\nContent-Length: 0\r\n\r\n".encode()
        )
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    return int(received.split(b" ", 2)[1])


@dataclass
class Calibration:
    """Server CPU per request in milliseconds, per run, of the trivial request and the floor."""

    trivial: list[float]
    floor: list[float]
    idle: float | None
    """The idle server's CPU, in cores (its change readers' wakes); None in process."""
    load: float

    @property
    def trivial_ms(self) -> float:
        return statistics.median(self.trivial)

    @property
    def floor_ms(self) -> float:
        return statistics.median(self.floor)

    def line(self, where: str = "this server") -> str:
        """The calibration in one line, to print beside the capacity figures."""
        return (
            f"calibration ({where}, this run, median of {len(self.trivial)} runs, spread"
            f" max-min): trivial request {self.trivial_ms:.2f} ms CPU"
            f" ({_spread(self.trivial)}), floor {self.floor_ms:.2f} ms CPU"
            f" ({_spread(self.floor)}; INSERT + COMMIT + a {FLOOR_SIZE // 1000} KB page);"
            + (f" idle server {self.idle * 100:.1f} % of a core;" if self.idle is not None else "")
            + f" load average {self.load:.1f}"
        )


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def calibrate(port: int, server_pid: int, runs: int = RUNS) -> Calibration:
    """Measure the trivial request and the floor on the server at ``port`` (process tree
    ``server_pid``), interleaved, ``runs`` times."""
    for _ in range(20):  # each worker's first requests (imports, the floor's table)
        ask(port, "GET", TRIVIAL)
        ask(port, "POST", FLOOR)
    began_ns, began = cpu_ns(server_pid), time.monotonic()
    time.sleep(1.0)
    idle = (cpu_ns(server_pid) - began_ns) / 1e9 / (time.monotonic() - began)

    def block(method: str, path: str) -> float:
        began_ns, began = cpu_ns(server_pid), time.monotonic()
        for _ in range(BLOCK):
            status = ask(port, method, path)
            if status != 200:
                raise SystemExit(f"calibration: {method} {path} answered {status}")
        used = (cpu_ns(server_pid) - began_ns) / 1e9
        return max(0.0, used - idle * (time.monotonic() - began))

    trivial, floor = _interleaved(block, runs)
    return Calibration(trivial, floor, idle, os.getloadavg()[0])


def _interleaved(block: Callable[[str, str], float], runs: int) -> tuple[list[float], list[float]]:
    """The trivial request's and the floor's CPU in ms a request, one figure a run: blocks of
    each taking turns (``block(method, path)`` gives a block's CPU seconds), the order turned
    round every round so that neither always goes first."""
    trivial: list[float] = []
    floor: list[float] = []
    for run in range(runs):
        spent = {TRIVIAL: 0.0, FLOOR: 0.0}
        order = [(TRIVIAL, "GET"), (FLOOR, "POST")]
        for round_ in range(ROUNDS):
            for path, method in order if (run + round_) % 2 == 0 else reversed(order):
                spent[path] += block(method, path)
        trivial.append(spent[TRIVIAL] * 1000 / (BLOCK * ROUNDS))
        floor.append(spent[FLOOR] * 1000 / (BLOCK * ROUNDS))
    return trivial, floor


def calibrate_in_process(app: Any, runs: int = RUNS) -> Calibration:
    """The same two requests through Flask's test client, timed by this process's CPU: for
    the benches that run the app in their own process (``watchers.py``, ``live_games.py``).
    ``app`` gets the two routes and CSRF off (an app of its own: the floor posts no token).
    No server, no socket: smaller figures than :func:`calibrate`."""
    app.config["WTF_CSRF_ENABLED"] = False
    add_routes(app)
    client = app.test_client()
    headers = {"Accept-Encoding": "gzip, deflate, br, zstd"}

    def block(method: str, path: str) -> float:
        began = time.process_time()
        for _ in range(BLOCK):
            response = client.open(path, method=method, headers=headers)
            response.get_data()
            if response.status_code != 200:
                raise SystemExit(f"calibration: {method} {path} answered {response.status_code}")
        return time.process_time() - began

    block("GET", TRIVIAL)  # the first requests (imports, the floor's table)
    block("POST", FLOOR)
    trivial, floor = _interleaved(block, runs)
    return Calibration(trivial, floor, None, os.getloadavg()[0])


def main() -> int:
    """Start the load bench's server, calibrate it, print the line."""
    from bench.load import Server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="gevent")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--no-pin", action="store_true", help="leave client and server unpinned")
    args = parser.parse_args()
    if not args.no_pin:
        print(pin_client())
    database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'calibration.sqlite'}"
    server = Server(database, args.workers, 1, "", args.worker_class, pin=not args.no_pin)
    server.start()
    try:
        assert server.process is not None
        found = calibrate(server.port, server.process.pid, args.runs)
    finally:
        server.stop()
    print(f"gunicorn {args.workers} {args.worker_class} workers, SQLite")
    for number, (one, other) in enumerate(zip(found.trivial, found.floor, strict=True), 1):
        print(f"  run {number}: trivial {one:.3f} ms, floor {other:.3f} ms")
    print(found.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
