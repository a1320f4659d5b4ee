"""A club server past one machine: three app servers behind nginx, on one PostgreSQL and one
Redis, with each table's watchers on other servers than its scorekeeper's.

Run from the repository root: ``.venv/bin/python -m bench.cluster`` (``--help`` for the
knobs). It needs Debian's ``nginx`` (or ``nginx-light``), ``redis-server`` and PostgreSQL
(started on a throwaway directory, as .ci/run does); without one of them it says which and
exits 0.

- **The servers**: three gunicorn processes, one gevent worker each (``--servers``), each
  standing for a machine, started as the README's hosting recipe says (the rate limits on and
  counted in Redis, with limits far above the load so that none is refused). Each writes to
  the same PostgreSQL; a change reaches the other servers' event streams through PostgreSQL's
  ``LISTEN/NOTIFY`` only.
- **nginx** in front, configured as the README says (HTTP/1.1 to the app, the streams
  unbuffered by the app's ``X-Accel-Buffering``). It listens on one port per app server, so
  that each phone is placed on a chosen server: a table's scorekeeper on server 1, 2 or 3 in
  turn, its three watchers on the two others.
- **The tables**: as ``bench/load.py`` plays them (simulated games imported at a random point,
  an entry every 3 s, the watchers holding the watch link's event stream, which pushes each new
  table).
- **Figures**: per step, requests per second, p50 and p99 of the requests, and the time from
  an entry sent by the scorekeeper's phone to each watcher's new table (p50, p90), which here
  always crosses from one server to another, with how many such updates were seen; the app servers' CPU, nginx's, and the
  machine's load. On one machine every process shares the same cores, so the throughput is
  this machine's, not three machines'; what the bench shows is that the changes cross servers,
  how fast, and that nothing is lost or refused on the way.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.calibration import calibrate
from bench.load import (
    Figures,
    Postgres,
    Server,
    Simulated,
    Table,
    group_cpu,
    quantile,
    wait_for,
)
from tests.support.clubtable import simulated_game
from tests.support.gunicorn import free_port

TARGET_UPDATE_P90 = 0.500

NGINX_CONF = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{servers}
}}
"""

NGINX_SERVER = """
    server {{
        listen 127.0.0.1:{port};
        add_header X-Content-Type-Options nosniff always;
        add_header X-Frame-Options DENY always;
        add_header Referrer-Policy no-referrer always;
        add_header Content-Security-Policy "default-src 'none'; frame-ancestors 'none'" always;
        location / {{
            add_header Strict-Transport-Security "max-age=31536000" always;
            proxy_pass http://127.0.0.1:{app};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            client_max_body_size 16m;
        }}
    }}
"""


class Nginx:
    """nginx on loopback with one port per app server, as the README configures it."""

    def __init__(self, apps: list[int]) -> None:
        self.folder = tempfile.mkdtemp(prefix="cluster-nginx-")
        self.ports = [free_port() for _ in apps]
        servers = "".join(
            NGINX_SERVER.format(port=port, app=app)
            for port, app in zip(self.ports, apps, strict=True)
        )
        Path(self.folder, "nginx.conf").write_text(
            NGINX_CONF.format(folder=self.folder, servers=servers)
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["nginx", "-c", f"{self.folder}/nginx.conf", "-g", "daemon off;"]
        if os.geteuid() == 0:
            command[-1] = "daemon off; user root;"
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        wait_for(self.ports[0])

    def cpu_seconds(self) -> float:
        return group_cpu(self.process)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """A Redis server on loopback keeping nothing on disk: the rate limits' counts."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        wait_for(self.port)
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


async def step(
    tables: list[Table], fronts: list[int], args: argparse.Namespace, servers: list[Server],
    nginx: Nginx,
) -> tuple[Figures, float, float]:  # fmt: skip
    """Every table's phones for the warm-up and ``--seconds``: the figures, the app servers'
    CPU seconds and nginx's."""
    figures = Figures()
    stop = asyncio.Event()
    jobs = []
    for number, table in enumerate(tables):
        home = number % len(fronts)
        others = [fronts[(home + 1 + i) % len(fronts)] for i in range(len(fronts) - 1)]
        jobs.append(table.scorekeeper(figures, args.pace, 0.05, stop))
        spread = args.warmup / 2
        for watcher in range(args.watchers):
            port = others[watcher % len(others)]
            jobs.append(table.follower(figures, stop, spread, port=port))
        jobs.append(table.follower(figures, stop, spread, watching=False, port=fronts[home]))
    tasks = [asyncio.create_task(job) for job in jobs]
    await asyncio.sleep(args.warmup)
    figures.recording = True
    apps = sum(server.cpu_seconds() for server in servers)
    front = nginx.cpu_seconds()
    await asyncio.sleep(args.seconds)
    apps = sum(server.cpu_seconds() for server in servers) - apps
    front = nginx.cpu_seconds() - front
    figures.recording = False
    stop.set()
    await asyncio.gather(*tasks)
    return figures, apps, front


async def run(args: argparse.Namespace, database: str, redis: str) -> None:
    settings = {
        "SCOREKEEPER_RATELIMIT_ENABLED": "true",
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": redis,
        # Counted, never reached: every simulated phone comes from 127.0.0.1.
        "SCOREKEEPER_RATELIMIT_WRITES": "100000 per second",
        "SCOREKEEPER_RATELIMIT_ENTRIES": "100000 per second",
        "SCOREKEEPER_RATELIMIT_NEW_GAMES": "100000 per minute",
        "SCOREKEEPER_RATELIMIT_STORED_GAMES": "1000000 per day",
        "SCOREKEEPER_PROXY_FIX": "1",
    }
    servers = [Server(database, 1, 1, "", "gevent", settings) for _ in range(args.servers)]
    for server in servers:
        server.start()
    nginx = Nginx([server.port for server in servers])
    nginx.start()
    try:
        # The first app server alone (not through nginx), before the tables arrive.
        assert servers[0].process is not None
        calibration = calibrate(servers[0].port, servers[0].process.pid)
        rng = random.Random(11)
        games = [Simulated(*simulated_game(seed, max_hands=25)) for seed in range(args.games)]
        tables: list[Table] = []
        print(
            f"{args.servers} app servers (gunicorn, 1 gevent worker each) behind nginx, on one"
            f" PostgreSQL and one Redis; a table enters every {args.pace:g} s on one server,"
            f" its {args.watchers} watchers follow on the others; {args.seconds:g} s measured"
            f" after {args.warmup:g} s"
        )
        print(calibration.line() + " (one app server, PostgreSQL's own CPU not counted)")
        print(
            "| tables | req/s | p50 ms | p99 ms | entry p99 | update p50 | update p90 |"
            " updates | errors | app servers' CPU | CPU/req in floors | table-s/floor |"
            " nginx CPU | load |"
        )
        print("|" + "---|" * 14)
        for count in args.tables:
            opening = Figures()
            while len(tables) < count:
                # The scorekeeper of table n enters through server n mod 3.
                homes = range(len(tables), min(count, len(tables) + 8))
                ports = nginx.ports
                batch = [Table(ports[home % len(ports)], games, rng) for home in homes]
                await asyncio.gather(*(table.open(opening) for table in batch))
                tables += batch
            figures, apps, front = await step(tables, nginx.ports, args, servers, nginx)
            every = [t for times in figures.times.values() for t in times]
            entries = figures.times.get("entry", [])
            print(
                f"| {count} | {len(every) / args.seconds:.0f} | {quantile(every, 0.5) * 1000:.0f}"
                f" | {quantile(every, 0.99) * 1000:.0f} | {quantile(entries, 0.99) * 1000:.0f}"
                f" | {quantile(figures.updates, 0.5) * 1000:.0f}"
                f" | {quantile(figures.updates, 0.9) * 1000:.0f} | {len(figures.updates)}"
                f" | {len(figures.errors)} | {apps / args.seconds:.2f}"
                f" | {apps * 1000 / max(1, len(every)) / calibration.floor_ms:.2f}"
                f" | {apps * 1000 / (count * args.seconds) / calibration.floor_ms:.3f}"
                f" | {front / args.seconds:.2f}"
                f" | {os.getloadavg()[0]:.1f} |",
                flush=True,
            )
            for error in sorted(set(figures.errors))[:3]:
                print(f"    error: {error}")
        print(
            f"target: a play to every watcher's new table, p90 under {TARGET_UPDATE_P90 * 1000:.0f} ms"
        )
    finally:
        nginx.stop()
        for server in servers:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", type=lambda text: [int(n) for n in text.split(",")], default=[50, 100, 200]
    )
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--pace", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    missing = [name for name in ("nginx", "redis-server") if shutil.which(name) is None]
    if missing:
        print(
            f"Skipped: {' and '.join(missing)} not found (apt-get install nginx-light redis-server)."
        )
        return 0
    postgres = Postgres()
    database = postgres.start()
    if database is None:
        return 0
    redis = Redis()
    try:
        asyncio.run(run(args, database, redis.start()))
    finally:
        redis.stop()
        postgres.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
