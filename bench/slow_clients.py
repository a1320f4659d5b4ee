"""Slow clients against gunicorn: what a few connections that send their request a byte at a
time do to everyone else, with gunicorn's default sync workers and with the README's recipe
(gevent workers), each bound straight to a port and behind nginx as the README sets it.

Run from the repository root: ``.venv/bin/python -m bench.slow_clients`` (``--slow 2 50``,
``--seconds 8``). For each setup and number of slow connections it opens them (each sends a
POST's headers, then one byte of its body a second), then asks for a page every 0.2 s for
``--seconds`` from a well-behaved client and prints how many answered, the median and the
slowest answer, and how many waited past 5 s or failed.

A sync worker serves one request at a time and reads a body until it is complete (or until
its 30 s timeout kills it): two slow clients hold both workers and every page waits. A gevent
worker reads each connection in a greenlet of its own, so slow ones wait alone; nginx reads a
whole request before passing it on, so behind it the workers never see a slow one.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import shutil
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from bench.cluster import Nginx
from tests.support.gunicorn import Gunicorn
from tests.support.server import migrated_database

SYNC = ("--workers", "2")
GEVENT = ("--worker-class", "gevent", "--worker-connections", "4000", "--workers", "2")
SETUPS = {
    "sync workers": (SYNC, False),
    "gevent workers": (GEVENT, False),
    "sync workers behind nginx": (SYNC, True),
    "gevent workers behind nginx (the recipe)": (GEVENT, True),
}
"""Each setup: gunicorn's options, and whether nginx (as the README configures it) is in front."""
LATE_S = 5.0
"""An answer slower than this counts as stalled."""


def dribble(port: int, stop: threading.Event) -> None:
    """A client that sends a POST's headers, then its body one byte a second."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(
            b"POST /games/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n"
        )
        while not stop.wait(1.0):
            conn.sendall(b"a")


@contextlib.contextmanager
def slow_clients(port: int, count: int) -> Iterator[None]:
    stop = threading.Event()
    threads = [
        threading.Thread(target=dribble, args=(port, stop), daemon=True) for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # every one connected and holding
    try:
        yield
    finally:
        stop.set()


def ask(port: int) -> float | None:
    """One page from a well-behaved client: seconds to the whole answer, None if it failed."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=40)
    try:
        connection.request("GET", "/rules")
        response = connection.getresponse()
        response.read()
        return time.perf_counter() - start if response.status == 200 else None
    except OSError:
        return None
    finally:
        connection.close()


def measure(port: int, seconds: float) -> list[float | None]:
    """Pages asked every 0.2 s for ``seconds``, each on its own thread (as phones would)."""
    results: list[float | None] = []
    threads = []

    def one() -> None:
        results.append(ask(port))

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        thread = threading.Thread(target=one)
        thread.start()
        threads.append(thread)
        time.sleep(0.2)
    for thread in threads:
        thread.join(45)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, nargs="+", default=[0, 2, 50])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    print(
        f"{'setup':40} {'slow':>4} {'pages':>5} {'median':>8} {'slowest':>8} {'> 5 s':>5} {'failed':>6}"
    )
    for name, (options, behind_nginx) in SETUPS.items():
        if behind_nginx and not shutil.which("nginx"):
            print(f"{name:40} (nginx is not installed)")
            continue
        folder = Path(tempfile.mkdtemp())
        migrated_database(folder / "slow.sqlite")
        server = Gunicorn(f"sqlite:///{folder / 'slow.sqlite'}", *options, "--timeout", "30")
        server.start()
        proxy = Nginx([server.port]) if behind_nginx else None
        if proxy is not None:
            proxy.start()
        port = server.port if proxy is None else proxy.ports[0]
        try:
            for count in args.slow:
                with slow_clients(port, count):
                    results = measure(port, args.seconds)
                answered = [r for r in results if r is not None]
                late = sum(1 for r in answered if r > LATE_S)
                median = statistics.median(answered) if answered else float("nan")
                slowest = max(answered) if answered else float("nan")
                print(
                    f"{name:40} {count:>4} {len(results):>5} {median * 1000:>6.0f}ms"
                    f" {slowest * 1000:>6.0f}ms {late:>5} {len(results) - len(answered):>6}"
                )
                time.sleep(1.0)
        finally:
            if proxy is not None:
                proxy.stop()
            server.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
