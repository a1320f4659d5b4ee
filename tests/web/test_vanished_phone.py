"""A phone that vanishes from the network (out of the Wi-Fi's reach, its battery flat) closes
nothing: no packet ever says it left. Its event stream must still be let go within one
heartbeat, or a club's room of phones coming and going fills the worker with streams to
nobody.

The phone here is a process in a network namespace of its own, joined to this machine by a
virtual cable; it vanishes when the cable is pulled (its end of the link taken down, the
process killed, the namespace deleted), so nothing of its leaving reaches the server. Needs
root and ``ip`` (iproute2), as CI has; skipped without them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask

from scorekeeper.rules import Game
from tests.support.clubtable import simulated_game
from tests.support.gunicorn import Gunicorn, free_port, import_game

SUBNET = 100 + os.getpid() % 150
SERVER_ADDRESS = f"10.231.{SUBNET}.1"
PHONE_ADDRESS = f"10.231.{SUBNET}.2"
NAMESPACE = f"allfives-phone-{os.getpid()}"
HOST_END, PHONE_END = f"afh{os.getpid() % 100000}", f"afp{os.getpid() % 100000}"

HEARTBEAT_SECONDS = 6
"""The server's heartbeat here (the setting; 20 s unless set): the system's probes of a silent
connection are timed from it, so a third of the wait shows the same as the whole."""

PHONE = """
import socket, sys
host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
connection = socket.create_connection((host, port), timeout=10)
connection.sendall(f"GET {path} HTTP/1.1\\r\\nHost: {host}\\r\\n\\r\\n".encode())
heard = b""
while b"event: version" not in heard:
    chunk = connection.recv(65536)
    if not chunk:
        sys.exit("the server closed the stream")
    heard += chunk
print("following", flush=True)
sys.stdin.read()  # holds the stream open until killed
"""


def _ip(*arguments: str) -> None:
    subprocess.run(["ip", *arguments], check=True, capture_output=True, timeout=10)


@pytest.fixture
def cable() -> Iterator[str]:
    """A namespace for the phone, joined to this machine by a virtual cable: its name."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2's ip to make a network namespace")
    try:
        _ip("netns", "add", NAMESPACE)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"no network namespaces here: {error.stderr.decode().strip()}")
    try:
        _ip("link", "add", HOST_END, "type", "veth", "peer", "name", PHONE_END)
        _ip("link", "set", PHONE_END, "netns", NAMESPACE)
        _ip("addr", "add", f"{SERVER_ADDRESS}/30", "dev", HOST_END)
        _ip("link", "set", HOST_END, "up")
        _ip("-n", NAMESPACE, "addr", "add", f"{PHONE_ADDRESS}/30", "dev", PHONE_END)
        _ip("-n", NAMESPACE, "link", "set", PHONE_END, "up")
        yield NAMESPACE
    finally:
        subprocess.run(["ip", "netns", "del", NAMESPACE], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", HOST_END], capture_output=True, check=False)


def _answer_status(port: int, path: str) -> int:
    """The status a stream opened from this machine is answered with (then let go)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = b""
        while b"\r\n" not in head:
            chunk = connection.recv(1024)
            assert chunk, "closed without an answer"
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_a_phone_that_vanishes_gives_its_stream_back_within_a_heartbeat(
    app: Flask, cable: str
) -> None:
    """With room for one stream, a phone on the other end of the cable takes it; the cable is
    pulled; the stream is given back (another page gets a stream, not 204) within a heartbeat,
    where before the system kept retrying its heartbeats for many minutes."""
    phone_port = free_port()
    server = Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], "-k", "gevent", "--workers", "1",
        "--bind", f"{SERVER_ADDRESS}:{phone_port}",
        settings={
            "SCOREKEEPER_LIVE_STREAMS": "1",
            "SCOREKEEPER_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
        },
    )  # fmt: skip
    server.start()
    phone = None
    try:
        setup, events, entries = simulated_game(0, max_hands=1)
        key = import_game(server.port, Game(setup, events[: entries[1].before]))
        path = f"/games/{key}/changes"
        phone = subprocess.Popen(
            ["ip", "netns", "exec", cable, sys.executable, "-c", PHONE,
             SERVER_ADDRESS, str(phone_port), path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        assert phone.stdout is not None
        assert phone.stdout.readline() == b"following\n"
        assert _answer_status(server.port, path) == 204  # the one stream is the phone's

        _ip("-n", cable, "link", "set", PHONE_END, "down")  # the cable is pulled...
        phone.kill()  # ...so what its system would say of the closed socket never leaves
        phone.wait()
        _ip("netns", "del", cable)
        gone = time.monotonic()

        while (status := _answer_status(server.port, path)) == 204:
            held = time.monotonic() - gone
            assert held < HEARTBEAT_SECONDS + 2, f"the vanished phone's stream held {held:.0f} s"
            time.sleep(0.5)
        assert status == 200
    finally:
        if phone is not None and phone.poll() is None:
            phone.kill()
        server.kill()


@pytest.mark.parametrize("value", ["lots", 0, -3, True])
def test_a_heartbeat_that_is_not_a_time_stops_the_app_at_start(
    make_app: Callable[..., Flask], value: object
) -> None:
    with pytest.raises(ValueError, match="setting HEARTBEAT_SECONDS must be a number above 0"):
        make_app(HEARTBEAT_SECONDS=value)
