"""Club load: N simulated tables at once against gunicorn, stepped up until the server breaks.

Run from the repository root: ``.venv/bin/python -m bench.load`` (``--help`` for the knobs).
The server is the README's club setup: ``gunicorn --workers 2 'app:create_app()'`` (sync
workers), on SQLite, then on PostgreSQL when one can be started here (``initdb`` and
``pg_ctl`` on a throwaway directory, as .ci/run does; ``--postgres URL`` uses a running one).

Each table plays a game from ``scorekeeper.rules.simulate`` (2 to 4 players, every preset),
imported at a random point of it (a club evening has games at every stage): its scorekeeper's
phone sends the next entry every 3 s (``--pace``) as htmx does (play, draw, pass, settle,
lead), sometimes undoes it and enters it again (``--undo``), and other phones (``--watchers``,
1 by default) poll the watch link's live URL every 1.5 s (``--poll``) with ``If-None-Match``. A finished game is followed by a
new one. For each number of tables the figures are requests per second, the median and 99th
percentile latency (all requests, and entries alone) and the errors; stepping stops after
the first number that misses the target (p99 under 100 ms, no error) by far (``--limit``).
Two more columns tell why: the CPU the workers used (cores busy, from /proc) and per request
(which other programs on the machine do not change much), and the machine's load average.
``--profile`` profiles the workers and prints where their time went (it about doubles what a
request costs them: not for capacity figures).

Before the tables arrive it measures the machine's calibration on the same server
(``bench/calibration.py``: a trivial request's and the floor's server CPU) and prints it above
the figures, with each step's CPU in its units, so that another machine can scale them; and
the CPU other programs took on the server's cores during each step. The phones run on one
core and gunicorn on the others (``--no-pin``: both anywhere).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import glob
import gzip
import json
import os
import pstats
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import brotli
from backports import zstd

from bench.calibration import (
    Calibration,
    bench_app,
    busy_seconds,
    calibrate,
    pin_client,
    server_cores,
    server_preexec,
)
from scorekeeper.rules import Event, Game, Setup
from scorekeeper.rules.record import write_record
from tests.support.clubtable import Entry, simulated_game
from tests.support.gunicorn import free_port

ROOT = Path(__file__).resolve().parents[1]
TOKEN = re.compile(rb'<input type="hidden" name="(seq|version)" value="([^"]+)"')
"""The page's token of the game as it saw it (an entry with another one is refused as stale)."""
WATCH = re.compile(rb'id="watch-link" type="url" value="http://[^/]+(/watch/[^"]+)"')
EDIT = re.compile(r"/games/([A-Za-z0-9_-]{22})")
TARGET_P99 = 0.100
TARGET_UPDATE_P90 = 0.500
PROFILE_ENV = "SCOREKEEPER_BENCH_PROFILE"


# -- the server ----------------------------------------------------------------------------


def wait_for(port: int) -> None:
    """Wait until something accepts connections on ``port`` of loopback (30 s at most)."""
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answers on port {port}")


def launch(
    command: list[str], env: dict[str, str], port: int, pin: bool
) -> subprocess.Popen[bytes]:
    """Start a bench's server (``command``, in the repository's root, in a process group of
    its own; pinned to the server's core with ``pin``) and wait until it answers on ``port``;
    stop its whole group if it does not."""
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, preexec_fn=server_preexec() if pin else None,
    )  # fmt: skip
    try:
        wait_for(port)
    except BaseException:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        raise
    return process


def group_cpu(process: subprocess.Popen[bytes] | None) -> float:
    """CPU seconds (user and system) that ``process`` and its children (a server's workers)
    have used so far, from /proc."""
    if process is None:
        return 0.0
    try:
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        total = 0
        for pid in [str(process.pid), *children]:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    except OSError:
        return 0.0
    return total / os.sysconf("SC_CLK_TCK")


def profiled_app() -> Any:
    """The app, each request profiled; every worker writes its stats now and then (--profile)."""
    app = bench_app()
    profile = cProfile.Profile()
    out = os.path.join(os.environ[PROFILE_ENV], f"{os.getpid()}.prof")
    served = 0
    inner = app.wsgi_app

    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        nonlocal served
        if environ.get("PATH_INFO", "").endswith("/changes"):
            return inner(environ, start_response)  # a stream: it waits far more than it works
        profile.enable()
        try:
            return list(inner(environ, start_response))
        finally:
            profile.disable()
            served += 1
            if served % 20 == 0:
                profile.dump_stats(out)

    app.wsgi_app = wsgi
    return app


class Server:
    """gunicorn on loopback in its own process group; CSRF and rate limits off for the bench
    (every simulated phone comes from 127.0.0.1)."""

    def __init__(
        self,
        database: str,
        workers: int,
        threads: int,
        profile_dir: str,
        worker_class: str,
        settings: dict[str, str] | None = None,
        pin: bool = False,
    ) -> None:
        self.settings = settings or {}
        self.pin = pin
        self.port = free_port()
        self.database = database
        self.workers = workers
        self.threads = threads
        self.worker_class = worker_class
        self.profile_dir = profile_dir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Migrate the database, start gunicorn and wait until it answers."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "SCOREKEEPER_SECRET_KEY": "bench",
            "SCOREKEEPER_WTF_CSRF_ENABLED": "false",
            "SCOREKEEPER_RATELIMIT_ENABLED": "false",
            # As the README's hosting recipe says for a club this size: every live table's
            # game kept replayed, and its pages kept rendered, in each worker.
            "SCOREKEEPER_LIVE_GAMES": "2000",
            "SCOREKEEPER_KEPT_PAGES": "4000",
            # Every simulated phone comes from 127.0.0.1, where a club's come from its many
            # addresses: the cap on one address's streams would turn the bench's away.
            "SCOREKEEPER_LIVE_STREAMS_PER_ADDRESS": "100000",
            # A gevent worker serves many requests at once, each holding a connection while
            # it waits its turn on the CPU: the recipe's pool is larger than the default 5.
            "SCOREKEEPER_SQLALCHEMY_ENGINE_OPTIONS": '{"pool_size": 30, "max_overflow": 10}',
            **self.settings,
        }
        flask = [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"]
        subprocess.run(flask, cwd=ROOT, env=env, check=True, capture_output=True)
        # The app with the calibration's two routes (bench/calibration.py), nothing else added.
        target = "bench.calibration:bench_app()"
        if self.profile_dir:
            env[PROFILE_ENV] = self.profile_dir
            target = "bench.load:profiled_app()"
        command = [
            sys.executable, "-m", "gunicorn", "--workers", str(self.workers),
            "--threads", str(self.threads), "--backlog", "2048",
            "--worker-class", self.worker_class, "--worker-connections", "4000",
            "--graceful-timeout", "5",
            "--bind", f"127.0.0.1:{self.port}", target,
        ]  # fmt: skip
        self.process = launch(command, env, self.port, self.pin)

    def cpu_seconds(self) -> float:
        """CPU time the server (its workers, and its master's little) has used so far."""
        return group_cpu(self.process)

    def stop(self) -> None:
        """Stop gunicorn gracefully (the workers write their profiles)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


class Postgres:
    """A throwaway PostgreSQL server on loopback, as .ci/run starts one; None if impossible."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="load-pg-")
        self.bin = ""
        self.url = ""

    def _run(self, command: str) -> None:
        if os.geteuid() == 0:  # initdb refuses root: run it as the postgres user
            shutil.chown(self.directory, "postgres")
            subprocess.run(["su", "postgres", "-c", command], check=True, capture_output=True)
        else:
            subprocess.run(command, shell=True, check=True, capture_output=True)

    def start(self) -> str | None:
        """Start it and create a database; the URL, or None with the reason printed."""
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        initdb = shutil.which("initdb")
        self.bin = found[-1] if found else (os.path.dirname(initdb) if initdb else "")
        if not self.bin:
            print("Note: no PostgreSQL here (initdb not found): PostgreSQL skipped.")
            return None
        port = free_port()
        data = f"{self.directory}/db"
        try:
            self._run(f"{self.bin}/initdb -D {data} -A trust -U postgres")
            self._run(
                f"{self.bin}/pg_ctl -D {data} -l {self.directory}/log -w -o "
                f"'-k {self.directory} -p {port} -c listen_addresses=127.0.0.1 "
                "-c max_connections=200' start"
            )
            self._run(f"{self.bin}/createdb -h 127.0.0.1 -p {port} -U postgres club")
        except (subprocess.CalledProcessError, OSError, LookupError) as failure:
            print(f"Note: PostgreSQL could not be started here ({failure}): skipped.")
            return None
        self.url = f"postgresql://postgres@127.0.0.1:{port}/club"
        return self.url

    def stop(self) -> None:
        """Stop the server and remove its files."""
        if self.url:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run(f"{self.bin}/pg_ctl -D {self.directory}/db -m fast stop")
        shutil.rmtree(self.directory, ignore_errors=True)


# -- a phone's HTTP --------------------------------------------------------------------------


@dataclass
class Answer:
    """A response: status, headers (lower-case names) and the body, decompressed."""

    status: int
    headers: dict[str, str]
    body: bytes


async def fetch(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> Answer:
    """One HTTP/1.1 request on a new connection, as a phone sends it to a sync worker.

    No answer within 30 s, or a refused or broken connection, is status 0 (an error)."""
    try:
        return await asyncio.wait_for(_fetch(port, method, path, body, headers), 30)
    except (OSError, TimeoutError, ValueError, IndexError) as failure:
        return Answer(0, {}, repr(failure).encode())


async def _fetch(
    port: int, method: str, path: str, body: bytes, headers: dict[str, str] | None
) -> Answer:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Connection: close",
            "Accept-Encoding: gzip, deflate, br, zstd",  # as Chromium asks
            f"Content-Length: {len(body)}",
        ]
        if body:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        raw = await reader.read()
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    if found.get("transfer-encoding") == "chunked":
        payload = _unchunked(payload)
    if found.get("content-encoding") == "gzip":
        payload = gzip.decompress(payload)
    elif found.get("content-encoding") == "zstd":
        payload = zstd.decompress(payload)
    elif found.get("content-encoding") == "br":
        payload = brotli.decompress(payload)
    return Answer(int(status_line.split()[1]), found, payload)


def _unchunked(data: bytes) -> bytes:
    out = bytearray()
    while data:
        size_text, _, rest = data.partition(b"\r\n")
        size = int(size_text.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return bytes(out)


def form(fields: dict[str, str]) -> bytes:
    """An urlencoded form body."""
    return "&".join(f"{quote(k)}={quote(v)}" for k, v in fields.items()).encode()


# -- the tables ------------------------------------------------------------------------------


@dataclass
class Figures:
    """Latencies in seconds by kind of request, and the errors seen, while recording."""

    recording: bool = False
    cpu: float = 0.0
    own_cpu: float = 0.0
    others: float = 0.0
    """CPU seconds other programs (this client too, when not pinned) took on the server's
    cores: what the server could not have."""
    """This process's CPU (the phones): near a whole core, it measures itself, not the server."""
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    updates: list[float] = field(default_factory=list)
    """From an entry sent (the tap) to a watching phone's new table, in seconds, per phone."""

    def note(self, kind: str, seconds: float, error: str | None = None) -> None:
        """Count one request (only while recording)."""
        if self.recording:
            self.times.setdefault(kind, []).append(seconds)
            if error:
                self.errors.append(error)


@dataclass
class Simulated:
    """A simulated game: setup, stored events and the entries that make them."""

    setup: Setup
    events: list[Event]
    entries: list[Entry]


class Table:
    """One table: a game imported at some point of a simulated game, and two phones."""

    def __init__(self, port: int, games: list[Simulated], rng: random.Random) -> None:
        self.port = port
        self.games = games
        self.rng = rng
        self.game = rng.choice(games)
        self.next = rng.randrange(len(self.game.entries))
        self.key = ""
        self.watch = ""
        self.token: tuple[str, str] = ("version", "")
        self.etag = ""
        self.redo: Entry | None = None
        """An entry undone, to be entered again (kept from one step to the next)."""
        self.sent: dict[int, float] = {}
        """When the scorekeeper's phone sent the entry that made each version (the tap)."""

    async def open(self, figures: Figures) -> None:
        """Import the game as it stands before entry ``next``; read its token and watch link."""
        events = self.game.events[: self.game.entries[self.next].before]
        record = json.dumps(write_record(Game(self.game.setup, events), every_rule=True))
        start = time.perf_counter()
        answer = await fetch(self.port, "POST", "/games/import", form({"text": record}))
        figures.note("new game", time.perf_counter() - start, _error(answer, 303, "import"))
        found = EDIT.search(answer.headers.get("location", ""))
        if not found:
            raise SystemExit(f"import failed: {answer.status} {answer.body[:300]!r}")
        self.key = found.group(1)
        page = await fetch(self.port, "GET", f"/games/{self.key}")
        watch, token = WATCH.search(page.body), TOKEN.search(page.body)
        assert watch and token, page.body[:300]
        self.watch = watch.group(1).decode()
        self.token = (token.group(1).decode(), token.group(2).decode())

    async def post(self, action: str, fields: dict[str, str], figures: Figures) -> bool:
        """Send one entry as htmx does; keep the token the answer carries."""
        body = form({self.token[0]: self.token[1], **fields})
        if self.token[0] == "version":
            self.sent[int(self.token[1]) + 1] = time.monotonic()
        start = time.perf_counter()
        answer = await fetch(
            self.port, "POST", f"/games/{self.key}/{action}", body, {"HX-Request": "true"}
        )
        error = _error(answer, 200, action)
        figures.note("entry", time.perf_counter() - start, error)
        token = TOKEN.search(answer.body)
        if token:
            self.token = (token.group(1).decode(), token.group(2).decode())
        return error is None

    async def scorekeeper(self, figures: Figures, pace: float, undo: float, stop: Any) -> None:
        """An entry every ``pace`` seconds; now and then an undo and the entry again."""
        await asyncio.sleep(self.rng.uniform(0, pace))
        while not stop.is_set():
            began = time.monotonic()
            if self.redo is not None:
                if await self.post(self.redo.action, self.redo.fields, figures):
                    self.redo = None
            elif self.next >= len(self.game.entries):  # the game is over: the next one
                self.game, self.next = self.rng.choice(self.games), 0
                await self.open(figures)
            else:
                entry = self.game.entries[self.next]
                if await self.post(entry.action, entry.fields, figures):
                    self.next += 1
                    if self.rng.random() < undo:
                        await asyncio.sleep(max(0.0, pace - (time.monotonic() - began)))
                        began = time.monotonic()
                        if await self.post("undo", {}, figures):
                            self.redo = entry
            await asyncio.sleep(max(0.0, pace - (time.monotonic() - began)))

    async def watcher(self, figures: Figures, every: float, stop: Any) -> None:
        """A watching phone polling: the live URL every ``every`` seconds, with its ETag."""
        await asyncio.sleep(self.rng.uniform(0, every))
        etag = self.etag
        while not stop.is_set():
            began = time.monotonic()
            etag = await self.ask_live(figures, etag)
            await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))

    async def heard(
        self,
        figures: Figures,
        kind: str,
        version: int,
        etag: str,
        watching: bool,
        port: int | None = None,
    ) -> str:
        """What a phone does with an event of its stream, as live.js does: a watching phone
        takes a page newer than its own (the time since that entry was sent is a figure) or
        asks the live URL after a newer version; the scorekeeper's phone only listens. The
        ETag the phone has after it."""
        shown = VERSION_TAG.match(etag)
        if not watching or (shown is not None and version <= int(shown.group(1))):
            return etag
        if kind != "page":
            return await self.ask_live(figures, etag, port)
        sent = self.sent.get(version)
        if sent is not None and figures.recording:
            figures.updates.append(time.monotonic() - sent)
        return f'"v{version}-en"'

    async def ask_live(self, figures: Figures, etag: str, port: int | None = None) -> str:
        """One live request, as live.js sends it; the ETag the phone has after it."""
        began = time.monotonic()
        headers = {"If-None-Match": etag} if etag else {}
        answer = await fetch(port or self.port, "GET", f"{self.watch}/live", headers=headers)
        error = None if answer.status in (200, 304) else f"live: {answer.status}"
        figures.note("live", time.monotonic() - began, error)
        found = VERSION_TAG.match(answer.headers.get("etag", ""))
        if answer.status == 200 and found and etag and figures.recording:
            sent = self.sent.get(int(found.group(1)))
            if sent is not None:
                figures.updates.append(time.monotonic() - sent)
        return answer.headers.get("etag", etag)

    async def follower(
        self,
        figures: Figures,
        stop: Any,
        spread: float,
        watching: bool = True,
        port: int | None = None,
    ) -> None:
        """A phone following by push: the game's event stream held open. Behind the watch
        link it brings each new table itself; a version newer than the phone shows (when the
        stream opens) is asked of the live URL. The scorekeeper's phone holds its stream too;
        the answers to its entries already carry what it changed."""
        # Phones arrive over the first half of the warm-up, not all in the same instant (a
        # burst of 1,600 streams opening at once, each asking its table, is no club evening).
        await asyncio.sleep(self.rng.uniform(0, spread))
        etag = self.etag
        while not stop.is_set():
            path = f"{self.watch}/changes" if watching else f"/games/{self.key}/changes"
            async for kind, version in stream_versions(port or self.port, path, stop, figures):
                etag = await self.heard(figures, kind, version, etag, watching, port)
            if not stop.is_set():
                await asyncio.sleep(1)  # the stream ended (after its minutes): open it again


VERSION_TAG = re.compile(r'(?:W/)?"v(\d+)-')
EVENT = re.compile(
    rb'event: (version)\ndata: (-?\d+)|event: (page)\ndata: <[^>]*data-version="(\d+)"'
)


async def stream_versions(
    port: int, path: str, stop: asyncio.Event, figures: Figures, answered: list[int] | None = None
) -> AsyncIterator[tuple[str, int]]:
    """What a game's event stream sends, as it comes (``("version", 7)``, ``("page", 8)``),
    until it ends or ``stop`` is set. With ``answered``, its status is added to it, and a 204
    (the server holds no stream: the page polls) is no error."""
    async for chunk in stream_chunks(port, path, stop, figures, answered):
        for said, version, page, shown in EVENT.findall(chunk):
            yield (said or page).decode(), int(version or shown)


async def stream_chunks(
    port: int, path: str, stop: asyncio.Event, figures: Figures, answered: list[int] | None = None
) -> AsyncGenerator[bytes, None]:
    """Each chunk an event stream sends (gunicorn sends an event a chunk), as it comes, until
    it ends or ``stop`` is set; ``answered`` as for :func:`stream_versions`."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as failure:
        figures.note("stream", 0.0, f"changes: {failure!r}")
        return
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        began = time.monotonic()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        status = int(head.split()[1])
        if answered is not None:
            answered.append(status)
        expected = status == 200 or (status == 204 and answered is not None)
        figures.note("stream", time.monotonic() - began, None if expected else f"changes: {status}")
        if status != 200:
            return
        raw = b""
        while not stop.is_set():
            try:
                raw += await asyncio.wait_for(reader.read(65536), 0.5)
            except TimeoutError:
                continue
            if reader.at_eof():
                return
            # Chunked: "<size>\r\n<data>\r\n" per event gunicorn sends.
            while True:
                size_line, found, rest = raw.partition(b"\r\n")
                if not found:
                    break
                size = int(size_line.split(b";")[0] or b"0", 16)
                if len(rest) < size + 2:
                    break
                yield rest[:size]
                raw = rest[size + 2 :]
                if size == 0:
                    return
    except (OSError, TimeoutError, ValueError, IndexError, asyncio.IncompleteReadError) as failure:
        if not stop.is_set():
            figures.note("stream", 0.0, f"changes: {failure!r}")
    finally:
        writer.close()


REFUSAL = re.compile(rb'<p class="refusal" role="alert">(.*?)</p>', re.S)
TAG = re.compile(rb"<[^>]+>")


def _error(answer: Answer, wanted: int, what: str) -> str | None:
    if answer.status == wanted:
        return None
    found = REFUSAL.search(answer.body)
    said = TAG.sub(b"", found.group(1) if found else answer.body[:200])
    return f"{what}: {answer.status} {said.decode(errors='replace').strip()[:160]}"


# -- a step ----------------------------------------------------------------------------------


def quantile(times: list[float], share: float) -> float:
    """The ``share`` quantile of ``times``."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def _followers(
    table: Table, figures: Figures, args: argparse.Namespace, stop: asyncio.Event
) -> list[Any]:
    """The phones following a table: by push (each watcher and the scorekeeper's own phone
    hold its event stream), or polling every ``--poll`` seconds."""
    if args.poll_only:
        return [table.watcher(figures, args.poll, stop) for _ in range(args.watchers)]
    spread = args.warmup / 2
    watching = [table.follower(figures, stop, spread) for _ in range(args.watchers)]
    return [*watching, table.follower(figures, stop, spread, watching=False)]


async def step(tables: list[Table], args: argparse.Namespace, server: Server) -> Figures:
    """Every table's phones for warm-up plus ``--seconds``; figures of the latter."""
    figures = Figures()
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(job)
        for table in tables
        for job in (
            table.scorekeeper(figures, args.pace, args.undo, stop),
            *_followers(table, figures, args, stop),
        )
    ]
    await asyncio.sleep(args.warmup)
    figures.recording = True
    cores = server_cores(server.pin)
    cpu, own, busy = server.cpu_seconds(), time.process_time(), busy_seconds(cores)
    await asyncio.sleep(args.seconds)
    figures.cpu = server.cpu_seconds() - cpu
    figures.others = max(0.0, busy_seconds(cores) - busy - figures.cpu)
    figures.own_cpu = time.process_time() - own
    figures.recording = False
    stop.set()
    await asyncio.gather(*tasks)
    return figures


async def run_database(name: str, database: str, args: argparse.Namespace) -> list[str]:
    """Step the number of tables up on one database; the table rows printed."""
    profile_dir = tempfile.mkdtemp(prefix="load-profile-") if args.profile else ""
    worker_class = "sync" if args.poll_only else args.worker_class
    server = Server(
        database, args.workers, args.threads, profile_dir, worker_class, pin=not args.no_pin
    )
    server.start()
    assert server.process is not None
    try:
        calibration = calibrate(server.port, server.process.pid)
    except BaseException:  # a server that does not answer is stopped, not left behind
        server.stop()
        raise
    rng = random.Random(11)
    seeds = range(args.games)
    games = [Simulated(*simulated_game(seed, max_hands=args.hands)) for seed in seeds]
    tables: list[Table] = []
    rows = []
    following = (
        f"{args.watchers} watching phone(s) poll every {args.poll:g} s"
        if args.poll_only
        else f"{args.watchers} watching phone(s) and the scorekeeper's hold the event stream"
    )
    print(
        f"\n{name}: gunicorn {args.workers} {worker_class} workers x {args.threads} thread(s);"
        f" a table enters every {args.pace:g} s (undo {args.undo:.0%}), {following};"
        f" {args.seconds:g} s measured after {args.warmup:g} s"
    )
    print(calibration.line())
    print(
        "  in its units: CPU/req as trivial requests and as floors; a table's worker CPU per"
        " second as floors per second (a core holds 1000 / floor ms of them)"
    )
    header = (
        "| tables | req/s | entries/s | p50 ms | p99 ms | entry p99 | live p99 |"
        " update p50 | update p90 | errors | worker CPU | CPU ms/req | req/trivial |"
        " req/floor | table-s/floor | phones' CPU | others on its cores | load |"
    )
    print(header)
    print("|" + "---|" * 18)
    rows += [calibration.line(), header, "|" + "---|" * 18]
    try:
        for count in args.tables:
            opening = Figures()
            while len(tables) < count:
                batch = [Table(server.port, games, rng) for _ in range(min(8, count - len(tables)))]
                await asyncio.gather(*(table.open(opening) for table in batch))
                tables += batch
            figures = await step(tables, args, server)
            every = [t for times in figures.times.values() for t in times]
            entries = figures.times.get("entry", [])
            lives = figures.times.get("live", [])
            p99 = quantile(every, 0.99)
            row = (
                f"| {count} | {len(every) / args.seconds:.0f} | {len(entries) / args.seconds:.0f}"
                f" | {quantile(every, 0.5) * 1000:.0f} | {p99 * 1000:.0f}"
                f" | {quantile(entries, 0.99) * 1000:.0f} | {quantile(lives, 0.99) * 1000:.0f}"
                f" | {quantile(figures.updates, 0.5) * 1000:.0f}"
                f" | {quantile(figures.updates, 0.9) * 1000:.0f} | {len(figures.errors)}"
                f" | {figures.cpu / args.seconds:.2f} | {figures.cpu * 1000 / max(1, len(every)):.1f}"
                f" | {_in_units(figures, len(every), count, args.seconds, calibration)}"
                f" | {figures.own_cpu / args.seconds:.2f} | {figures.others / args.seconds:.2f}"
                f" | {os.getloadavg()[0]:.1f} |"
            )
            print(row, flush=True)
            rows.append(row)
            for error in sorted(set(figures.errors))[:3]:
                print(f"    error: {error}")
            if args.poll_only:
                offered = count * (1 / args.pace + args.watchers / args.poll)
            else:  # the watchers' tables come on their streams: the entries are the requests
                offered = count / args.pace
            if p99 > args.limit or len(every) / args.seconds < 0.8 * offered:
                print(f"    broken at {count} tables: stepping stops")
                break
    finally:
        server.stop()
    if profile_dir:
        print_profile(profile_dir)
        shutil.rmtree(profile_dir, ignore_errors=True)
    return rows


def _in_units(
    figures: Figures, requests: int, tables: int, seconds: float, calibration: Calibration
) -> str:
    """A step's server CPU in the machine's own units: per request as trivial requests and
    as floors, and per table and second as floors (three cells)."""
    per_request = figures.cpu * 1000 / max(1, requests)
    per_table_second = figures.cpu * 1000 / (tables * seconds)
    return (
        f"{per_request / calibration.trivial_ms:.1f} | {per_request / calibration.floor_ms:.2f}"
        f" | {per_table_second / calibration.floor_ms:.3f}"
    )


def print_profile(directory: str) -> None:
    """Where the workers' time went, over every request they served."""
    files = glob.glob(f"{directory}/*.prof")
    if not files:
        print("(no profile written: too few requests)")
        return
    stats = pstats.Stats(files[0])
    for other in files[1:]:
        stats.add(other)
    print("\nTime per request by view (ms, mean over the calls; a busy machine inflates it):")
    views = ("views.py", "sharing.py")
    routes = {"play", "draw", "pass_turn", "settle", "lead", "undo", "live", "table", "import_game"}
    for (path, _, name), (_, calls, _, cumulative, _) in sorted(stats.stats.items()):  # type: ignore[attr-defined]
        if path.endswith(views) and name in routes and calls:
            print(f"  {name:<12} {calls:>6} calls  {cumulative * 1000 / calls:7.1f} ms")
    print("\nWorkers' time by function, cumulative (top 25):")
    stats.sort_stats("cumulative").print_stats(25)
    print("By own time (top 15):")
    stats.sort_stats("tottime").print_stats(15)


def main() -> int:
    """Parse the knobs, step each database, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[50, 100, 200, 300, 400, 500],
        help="the numbers of tables to step through (comma-separated)",
    )
    parser.add_argument("--seconds", type=float, default=15, help="measured per step")
    parser.add_argument("--warmup", type=float, default=8, help="unmeasured start of each step")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a table's entries")
    parser.add_argument("--poll", type=float, default=1.5, help="seconds between live polls")
    parser.add_argument("--watchers", type=int, default=3, help="phones watching each table")
    parser.add_argument(
        "--poll-only",
        action="store_true",
        help="watchers poll (the fallback), on sync workers, instead of holding event streams",
    )
    parser.add_argument("--worker-class", default="gevent", help="gunicorn's, for push")
    parser.add_argument("--undo", type=float, default=0.05, help="share of entries undone")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--games", type=int, default=40, help="distinct simulated games")
    parser.add_argument("--hands", type=int, default=25, help="most hands in a simulated game")
    parser.add_argument(
        "--limit", type=float, default=1.0, help="p99 seconds past which stepping stops"
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--postgres", default="", help="a running PostgreSQL's URL to use")
    parser.add_argument("--profile", action="store_true", help="profile the gunicorn workers")
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="leave the phones and the server on every core (default: the phones on one core,"
        " the server on the others)",
    )
    args = parser.parse_args()
    if not args.no_pin:
        print(pin_client())
    print(
        f"target: p99 under {TARGET_P99 * 1000:.0f} ms and no error at 400 tables (SQLite) and"
        f" 300 (PostgreSQL); a play to the last watcher's new table: p90 under"
        f" {TARGET_UPDATE_P90 * 1000:.0f} ms"
    )
    postgres: Postgres | None = None
    try:
        for name in args.databases.split(","):
            if name == "sqlite":
                database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'club.sqlite'}"
            elif args.postgres:
                database = args.postgres
            else:
                postgres = Postgres()
                started = postgres.start()
                if started is None:
                    continue
                database = started
            asyncio.run(run_database(name, database, args))
    finally:
        if postgres is not None:
            postgres.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
