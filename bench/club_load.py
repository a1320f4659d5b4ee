"""A club night on one machine: many tables at once on gunicorn, then the server killed in the
middle of writing, and the games checked whole.

Run from the repository root: ``.venv/bin/python bench/club_load.py`` (``--tables N``,
``--seconds S``, ``--workers W``, ``--database URL`` for PostgreSQL; SQLite by default).
Each table is one scorekeeper entering a play and undoing it (both locked write transactions
with a replay, the heaviest entries there are) once a second (``--pace``; far faster than a
real table), and three
watchers polling the live URL every 1.5 seconds as the pages do. The figures: requests per
second, and the median and 99th percentile of each kind of request. Then gunicorn is killed
with SIGKILL while the scorekeepers are still writing, started again, and every game is
replayed by the referee: each must load, with its events numbered 1, 2, 3... without a gap
and its version at least its number of entries (no half-saved entry, nothing lost).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from webforms import form_for  # noqa: E402  (the tests' reader of a page's form)

POLL_SECONDS = 1.5
KEY = re.compile(r"/games/([A-Za-z0-9_-]{22})")
WATCH = re.compile(r'id="watch-link" type="url" value="http://[^/]+(/watch/[^"]+)"')
SEQ = re.compile(r'name="seq" value="(\d+)"')
VERSION = re.compile(r'data-version="(\d+)"')


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """gunicorn serving the app on loopback, with rate limits and CSRF off for the bench."""

    def __init__(self, database: str, workers: int) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database,
            "SCOREKEEPER_SECRET_KEY": "bench",
            "SCOREKEEPER_WTF_CSRF_ENABLED": "false",
            "SCOREKEEPER_RATELIMIT_ENABLED": "false",
        }
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start gunicorn and wait until it answers."""
        command = [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "--workers", str(self.workers), "--threads", "4",
            "--bind", f"127.0.0.1:{self.port}", "app:create_app()",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(100):
            try:
                request(self.port, "GET", "/")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("gunicorn did not start")

    def kill(self) -> None:
        """SIGKILL the whole server: no worker gets to finish what it was writing."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        subprocess.run(["pkill", "-KILL", "-P", str(self.process.pid)], check=False)
        self.process.wait()


def request(
    port: int, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
) -> tuple[int, str, dict[str, str]]:
    """One HTTP request on a new connection: status, body and headers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text, dict(response.getheaders())


class Table:
    """One table: a game, its scorekeeper's entries and its watchers' polls."""

    def __init__(self, port: int) -> None:
        self.port = port
        form = form_for(request(port, "GET", "/games/new")[1], "/games/new")
        fields = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
        fields.pop("partners", None)
        status, _, headers = request(port, "POST", "/games/new", urlencode(fields))
        assert status == 303, status
        found = KEY.search(headers["Location"])
        assert found
        self.edit = f"/games/{found.group(1)}"
        page = request(port, "GET", self.edit)[1]
        watch = WATCH.search(page)
        assert watch
        self.watch = watch.group(1)
        self.post(f"{self.edit}/lead", "how=seat&leader=0")

    def seq(self) -> int:
        """The seq the edit page carries now."""
        found = SEQ.search(request(self.port, "GET", self.edit)[1])
        assert found
        return int(found.group(1))

    def post(self, path: str, fields: str) -> int:
        """Submit an entry with the page's current seq."""
        return request(self.port, "POST", path, f"seq={self.seq()}&{fields}")[0]


def scorekeeper(
    table: Table, until: float, times: list[float], failures: list[str], pace: float
) -> None:
    """Play the lead and undo it, an entry every ``pace`` seconds (0: as fast as answered),
    until ``until`` or the server dies."""
    seq = table.seq()
    while time.monotonic() < until:
        for path, fields in ((f"{table.edit}/play", "tile=5-5"), (f"{table.edit}/undo", "")):
            start = time.perf_counter()
            try:
                status = request(table.port, "POST", path, f"seq={seq}&{fields}")[0]
            except OSError:
                return
            times.append(time.perf_counter() - start)
            if status != 303:
                failures.append(f"{path}: {status}")
                return
            seq += 1 if path.endswith("play") else -1
            time.sleep(max(0.0, pace - times[-1]))


def watcher(table: Table, until: float, times: list[float], failures: list[str]) -> None:
    """Poll the watch link's live URL every 1.5 seconds, as a watching phone does."""
    version = "0"
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            status, body, _ = request(
                table.port, "GET", f"{table.watch}/live", headers={"If-None-Match": f'"v{version}"'}
            )
        except OSError:
            return
        times.append(time.perf_counter() - start)
        if status == 200:
            found = VERSION.search(body)
            version = found.group(1) if found else version
        elif status != 304:
            failures.append(f"poll: {status}")
            return
        time.sleep(POLL_SECONDS)


def run(
    tables: list[Table], seconds: float, pace: float
) -> tuple[list[float], list[float], list[str]]:
    """Every table's scorekeeper and three watchers for ``seconds``."""
    entries: list[float] = []
    polls: list[float] = []
    failures: list[str] = []
    until = time.monotonic() + seconds
    threads = []
    for table in tables:
        threads.append(
            threading.Thread(target=scorekeeper, args=(table, until, entries, failures, pace))
        )
        for _ in range(3):
            threads.append(threading.Thread(target=watcher, args=(table, until, polls, failures)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return entries, polls, failures


def ms(times: list[float], share: float) -> float:
    """The ``share`` quantile of ``times``, in milliseconds."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def check_games(database: str) -> tuple[int, int, list[str]]:
    """Replay every stored game: (games, events, problems)."""
    os.environ["DATABASE_URL"] = database
    sys.path.insert(0, str(ROOT))
    from sqlalchemy import select

    from app import create_app
    from scorekeeper.web import store
    from scorekeeper.web.extensions import db
    from scorekeeper.web.models import EventRow, GameRow

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database})
    problems: list[str] = []
    events = 0
    with app.app_context():
        rows = db.session.scalars(select(GameRow)).all()
        for row in rows:
            seqs = db.session.scalars(
                select(EventRow.seq).where(EventRow.game_id == row.id).order_by(EventRow.seq)
            ).all()
            events += len(seqs)
            if list(seqs) != list(range(1, len(seqs) + 1)):
                problems.append(f"game {row.id}: events numbered {list(seqs)}")
            if row.version < len(seqs):
                problems.append(f"game {row.id}: version {row.version} < {len(seqs)} events")
            try:
                store.load(row.edit_key)
            except Exception as failure:  # any failure to replay is what this check looks for
                problems.append(f"game {row.id}: does not replay: {failure!r}")
    return len(rows), events, problems


def main() -> int:
    """Load, kill, check; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds between a table's entries (0: flat out)"
    )
    args = parser.parse_args()
    database = args.database or f"sqlite:///{Path(tempfile.mkdtemp()) / 'club.sqlite'}"
    env = {**os.environ, "DATABASE_URL": database}
    flask = str(ROOT / ".venv" / "bin" / "flask")
    subprocess.run([flask, "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip

    server = Server(database, args.workers)
    server.start()
    tables = [Table(server.port) for _ in range(args.tables)]
    entries, polls, failures = run(tables, args.seconds, args.pace)
    total = len(entries) + len(polls)
    print(f"{args.tables} tables (1 scorekeeper, an entry every {args.pace:g} s, + 3 watchers"
          f" each), {args.workers} gunicorn"
          f" workers x 4 threads, {database.split(':')[0]}, {args.seconds:.0f} s")  # fmt: skip
    print(f"requests: {total} ({total / args.seconds:.0f}/s); failures: {len(failures)}")
    for name, times in (("entry (play or undo)", entries), ("live poll", polls)):
        if times:
            print(f"  {name:<22} {len(times):>6}  median {statistics.median(times) * 1000:6.1f} ms"
                  f"  p99 {ms(times, 0.99):6.1f} ms")  # fmt: skip
    for failure in failures[:5]:
        print("  failure:", failure)

    # Kill the server while every scorekeeper is writing, then check what was stored.
    killer = threading.Timer(2.0, server.kill)
    killer.start()
    run(tables, 4.0, 0.0)
    killer.join()
    server.start()
    games, events, problems = check_games(database)
    server.kill()
    print(f"killed mid-write (SIGKILL) and restarted: {games} games, {events} events,"
          f" {len(problems)} problems")  # fmt: skip
    for problem in problems[:10]:
        print("  ", problem)
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main())
