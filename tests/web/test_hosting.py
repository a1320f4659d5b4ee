"""The hosting recipe, served for real: gunicorn's gevent workers hold the pages' event streams
and push every change to each of them, whichever worker took the entry; sync workers refuse
streams (204), so that pages poll. On the test database: SQLite (the other worker learns of a
change by reading the versions), or PostgreSQL under ``SCOREKEEPER_TEST_DATABASE_URL``
(``LISTEN/NOTIFY``)."""

from __future__ import annotations

import http.client
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.rules import Game
from scorekeeper.web.site.security import HEADERS
from scorekeeper.web.streaming import HEARTBEAT_SECONDS
from tests.support.clubtable import Entry, simulated_game
from tests.support.gunicorn import Gunicorn, form, import_game, request
from tests.support.nginx import INSTALLED, nginx

STREAMS = 6
"""Watching phones: with two workers, some are on the one that takes the entry, some not."""
PAGE = re.compile(rb'event: page\ndata: <section id="table"[^>]*data-version="(\d+)"')
VERSION = re.compile(rb"event: version\ndata: (-?\d+)")
WATCH = re.compile(r'id="watch-link" type="url" value="http://[^/]+(/watch/[^"]+)"')
TOKEN = re.compile(r'name="version" value="(\d+)"')


def _import(port: int) -> tuple[str, list[Entry]]:
    """A new game (a simulated one, its first entry made): its edit key and the entries that
    come next."""
    setup, events, entries = simulated_game(0, max_hands=1)
    return import_game(port, Game(setup, events[: entries[1].before])), entries[1:]


class Stream:
    """A phone holding a watch link's event stream open on a raw connection."""

    def __init__(self, port: int, path: str) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.socket.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.received = b""

    def until(self, pattern: re.Pattern[bytes], seconds: float = 10) -> int:
        """Read until ``pattern`` has matched beyond what was matched before; its number."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = pattern.search(self.received)
            if found:
                self.received = self.received[found.end() :]
                return int(found.group(1))
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = self.socket.recv(65536)
            assert chunk, "the server closed the stream"
            self.received += chunk
        raise AssertionError(f"nothing like {pattern.pattern!r} within {seconds} s")

    def status(self) -> int:
        """The status of the answer (the rest of what came is kept to be read)."""
        while b"\r\n" not in self.received:
            chunk = self.socket.recv(65536)
            assert chunk, f"closed with no answer: {self.received!r}"
            self.received += chunk
        line, self.received = self.received.split(b"\r\n", 1)
        return int(line.split(b" ", 2)[1])

    def close(self) -> None:
        self.socket.close()


def test_gevent_workers_push_every_change_to_every_watching_phone(app: Flask) -> None:
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "2")
    server.start()
    streams: list[Stream] = []
    try:
        key, entries = _import(server.port)
        _, page, _ = request(server.port, "GET", f"/games/{key}")
        watch, token = WATCH.search(page), TOKEN.search(page)
        assert watch is not None and token is not None
        streams = [Stream(server.port, f"{watch.group(1)}/changes") for _ in range(STREAMS)]
        version = int(token.group(1))
        assert [stream.until(VERSION) for stream in streams] == [version] * STREAMS
        for entry in entries[:3]:
            fields = {"version": str(version), **entry.fields}
            path = f"/games/{key}/{entry.action}"
            status, answer, _ = request(server.port, "POST", path, form(fields))
            assert status == 303, (status, answer[:300])
            version += 1
            assert [stream.until(PAGE) for stream in streams] == [version] * STREAMS
    finally:
        for stream in streams:
            stream.close()
        server.kill()


def test_sync_workers_refuse_streams_so_that_pages_poll(app: Flask) -> None:
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], "--workers", "1")
    server.start()
    try:
        key, _ = _import(server.port)
        status, _, _ = request(server.port, "GET", f"/games/{key}/changes")
        assert status == 204
        status, _, headers = request(server.port, "GET", f"/games/{key}/live")
        assert status == 200 and headers["ETag"].startswith('"v')
    finally:
        server.kill()


def test_a_long_address_nginx_passes_on_is_answered_by_the_app(app: Flask) -> None:
    """nginx passes request lines of up to 8 KB; gunicorn refused those over 4 KB with a page
    of its own, without the site's security headers. It takes what nginx passes, and the app
    answers, headers and all."""
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "1")
    server.start()
    try:
        status, _, headers = request(server.port, "GET", "/games/" + "A" * 6000)
        assert status == 404
        assert "Content-Security-Policy" in headers and "X-Frame-Options" in headers
    finally:
        server.kill()


@pytest.mark.skipif(not INSTALLED, reason="nginx is not installed")
def test_the_readmes_nginx_recipe_gives_every_page_its_headers_once(
    app: Flask, tmp_path: Path
) -> None:
    """The README's nginx lines, as written, in front of gunicorn: the app's pages carry the
    site's headers once each (the app's own), and nginx's own error page (a request it cannot
    parse) carries them too."""
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "1")
    server.start()
    try:
        with nginx(tmp_path, server.port) as port:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/rules")
            page = connection.getresponse()
            page.read()
            names = [name.lower() for name, _ in page.getheaders()]
            for header, value in HEADERS.items():
                assert names.count(header.lower()) == 1, header
                assert page.getheader(header) == value, header
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(b"NOT A REQUEST\r\n\r\n")
                refused = raw.recv(4096).decode("latin-1").lower()
            assert refused.startswith("http/1.1 400")
            for header in HEADERS:
                assert f"\r\n{header.lower()}:" in refused, header
    finally:
        server.kill()


def _send_until_refused(
    connection: socket.socket, head: bytes, body: Iterator[bytes], sent: list[int]
) -> None:
    """Send ``head``, then ``body`` piece by piece until the server closes the connection;
    ``sent[0]``: the bytes of the body sent by then."""
    connection.sendall(head)
    try:
        for piece in body:
            connection.sendall(piece)
            sent[0] += len(piece)
    except OSError:  # closed by the server, as it should
        pass


def _answer_within(connection: socket.socket, seconds: float) -> str:
    """The status line of the answer read off ``connection`` within ``seconds``."""
    connection.settimeout(seconds)
    received = b""
    while b"\r\n" not in received:
        chunk = connection.recv(4096)
        assert chunk, f"closed with no answer: {received!r}"
        received += chunk
    return received.split(b"\r\n", 1)[0].decode()


def _chunked(size: int, total: int) -> Iterator[bytes]:
    piece = b"x" * size
    for _ in range(total // size):
        yield f"{size:x}\r\n".encode() + piece + b"\r\n"
    yield b"0\r\n\r\n"


@pytest.mark.parametrize("framing", ["length", "chunked"])
def test_a_huge_body_is_refused_at_once_and_the_workers_streams_live_on(
    app: Flask, framing: str
) -> None:
    """A 300 MB POST straight to gunicorn: answered 413 without reading it to its end (which
    took the worker 40 s, and then gunicorn killed it with every stream it held): the phone
    could not send most of it; a watching phone on the same worker still hears the next
    change."""
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "1")
    server.start()
    stream: Stream | None = None
    try:
        key, entries = _import(server.port)
        _, page, _ = request(server.port, "GET", f"/games/{key}")
        watch, token = WATCH.search(page), TOKEN.search(page)
        assert watch is not None and token is not None
        stream = Stream(server.port, f"{watch.group(1)}/changes")
        version = stream.until(VERSION)
        huge = 300 * 2**20
        if framing == "length":
            head = f"Content-Length: {huge}\r\n"
            body: Iterator[bytes] = iter([b"x" * 2**20] * 300)
        else:
            head, body = "Transfer-Encoding: chunked\r\n", _chunked(2**16, huge)
        head = (
            "POST /games/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\n{head}\r\n"
        )
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
            sent = [0]
            sending = threading.Thread(
                target=_send_until_refused,
                args=(connection, head.encode(), body, sent),
                daemon=True,
            )
            sending.start()
            assert _answer_within(connection, 30).startswith("HTTP/1.1 413")
            sending.join(30)
            assert not sending.is_alive(), "the server kept reading the body"
            assert sent[0] < huge // 2, f"the server read {sent[0] / 2**20:.0f} MB of it"
        entry = entries[0]
        fields = {"version": str(version), **entry.fields}
        status, _, _ = request(server.port, "POST", f"/games/{key}/{entry.action}", form(fields))
        assert status == 303
        assert stream.until(PAGE) == version + 1
    finally:
        if stream is not None:
            stream.close()
        server.kill()


def test_a_phone_that_leaves_gives_its_stream_back_at_once(app: Flask) -> None:
    """Phones that close their streams free them in the worker at once, not a heartbeat or
    two later: with room for five streams, five phones leave and five others are let in."""
    server = Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "1",
        settings={"SCOREKEEPER_LIVE_STREAMS": "5"},
    )  # fmt: skip
    server.start()
    try:
        key, _ = _import(server.port)
        path = f"/games/{key}/changes"
        leaving = [Stream(server.port, path) for _ in range(5)]
        for stream in leaving:
            stream.until(VERSION)
        status, _, _ = request(server.port, "GET", path)
        assert status == 204  # full: that page would poll
        for stream in leaving:
            stream.close()
        # Five others are let in, before a heartbeat could have found the five gone.
        deadline = time.monotonic() + HEARTBEAT_SECONDS / 2
        coming: list[Stream] = []
        while len(coming) < 5:
            stream = Stream(server.port, path)
            if stream.status() == 200:
                coming.append(stream)
                continue
            stream.close()  # 204: not yet
            assert time.monotonic() < deadline, f"{len(coming)} let in"
            time.sleep(0.05)
        for stream in coming:
            assert stream.until(VERSION) >= 0
            stream.close()
    finally:
        server.kill()
