"""Reaching the app at home: `flask --app app serve` says the address the phones open."""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import time
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from scorekeeper.rules import Game
from scorekeeper.web.data.database import BUSY_TIMEOUT_MS
from scorekeeper.web.site import cli
from tests.support.clubtable import Entry, simulated_game
from tests.support.gunicorn import TableServe, form, import_game, request
from tests.support.server import migrated_database
from tests.web.test_kill import _count, _record

TOKEN = re.compile(r'name="version" value="(\d+)"')


def test_local_addresses_leave_out_loopback_and_link_local():
    for address in cli.local_addresses():
        ip = ipaddress.ip_address(address)
        assert not ip.is_loopback and not ip.is_link_local


def terminal_qr(text: str) -> str:
    """Decode a QR code printed with half-block characters (two rows of modules a line)."""
    lines = [line for line in text.splitlines() if line and set(line) <= set("█▀▄ ")]
    width = max(len(line) for line in lines)
    scale = 8
    image = Image.new("L", (width * scale, len(lines) * 2 * scale), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            # In segno's compact terminal output a light module is drawn, a dark one is blank.
            top = char in "█▀"
            bottom = char in "█▄"
            for half, light in ((0, top), (1, bottom)):
                if not light:
                    y = (row * 2 + half) * scale
                    draw.rectangle([col * scale, y, col * scale + scale - 1, y + scale - 1], 0)
    found = zxingcpp.read_barcodes(image)
    assert found, "the printed QR code does not scan"
    return found[0].text


def test_serving_on_the_local_network_prints_every_address_and_a_qr_code(monkeypatch, capsys):
    monkeypatch.setattr(cli, "local_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    cli.announce("0.0.0.0", 5000, show_qr=True)
    printed = capsys.readouterr().out
    assert "http://192.168.1.23:5000" in printed and "http://10.0.0.5:5000" in printed
    assert terminal_qr(printed) == "http://192.168.1.23:5000"


@pytest.mark.parametrize("addresses", [["192.168.1.23"], []])
def test_without_a_terminal_or_on_one_machine_no_qr_code(monkeypatch, capsys, addresses):
    monkeypatch.setattr(cli, "local_addresses", lambda: addresses)
    cli.announce("0.0.0.0", 5000, show_qr=False)
    printed = capsys.readouterr().out
    assert "█" not in printed
    assert ("192.168.1.23:5000" in printed) == bool(addresses)
    cli.announce("127.0.0.1", 5000, show_qr=True)
    assert "http://127.0.0.1:5000" in capsys.readouterr().out


GAMES, PHONES, ENTRIES = 4, 3, 10


def _version(port: int, key: str) -> int:
    _, page, _ = request(port, "GET", f"/games/{key}")
    found = TOKEN.search(page)
    assert found is not None
    return int(found.group(1))


def _enter(
    port: int, key: str, first: int, entries: list[Entry], answers: list[tuple[int, float]]
) -> None:
    """A phone entering ``entries`` as fast as the server answers, each with the version the
    game had before it (``first`` before the first, read before any phone began: another
    phone of the table races it for each one): every answer, and how long it took."""
    for number, entry in enumerate(entries):
        while _version(port, key) == first + number:  # until one of the phones has entered it
            fields = {"version": str(first + number), **entry.fields}
            started = time.monotonic()
            status, _, _ = request(port, "POST", f"/games/{key}/{entry.action}", form(fields))
            answers.append((status, time.monotonic() - started))
            assert status in (303, 409), status


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_phones_entering_at_once_under_flask_serve_are_all_answered(tmp_path: Path) -> None:
    """The server ``make run`` starts serves every request in one process under gevent, and
    SQLite's busy wait would stop all of it: three phones per table, four tables, entering at
    once, are each answered at once, stored or refused as behind, never 503."""
    database = tmp_path / "table.sqlite"
    migrated_database(database)
    server = TableServe(f"sqlite:///{database}")
    server.start()
    answers: list[tuple[int, float]] = []
    try:
        tables = []
        for seed in range(GAMES):
            setup, events, entries = simulated_game(seed, max_hands=2)
            key = import_game(server.port, Game(setup, events[: entries[0].before]))
            tables.append((key, entries[:ENTRIES], _version(server.port, key)))
        phones = [
            threading.Thread(target=_enter, args=(server.port, key, first, entries, answers))
            for key, entries, first in tables
            for _ in range(PHONES)
        ]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join(60)
        for key, entries, first in tables:
            assert _version(server.port, key) == first + ENTRIES
            assert _count(_record(server.port, key)) == entries[-1].after
    finally:
        server.kill()
    assert {status for status, _ in answers} <= {303, 409}, answers
    # None waited out SQLite's busy timeout, which would stop the whole process while it waits.
    assert max(took for _, took in answers) < BUSY_TIMEOUT_MS / 1000


def test_flask_serve_becomes_the_recipes_gevent_worker_and_says_nothing_new(
    tmp_path: Path,
) -> None:
    """What ``make run`` prints: the addresses, then gunicorn's own lines with the gevent worker,
    and no warning (gevent patches before the app is imported), nor a traceback when Ctrl-C
    stops it while a phone holds a stream."""
    database = tmp_path / "table.sqlite"
    migrated_database(database)
    server = TableServe(f"sqlite:///{database}", log=tmp_path / "printed.txt")
    server.start()
    setup, events, entries = simulated_game(0, max_hands=1)
    key = import_game(server.port, Game(setup, events[: entries[0].before]))
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as phone:
        phone.sendall(f"GET /games/{key}/changes HTTP/1.1\r\nHost: here\r\n\r\n".encode())
        assert phone.recv(4096).startswith(b"HTTP/1.1 200")  # a stream, pushing
        output = server.stop()
    assert output.startswith(f"Open http://127.0.0.1:{server.port} (this machine only")
    assert "Using worker: scorekeeper.web.site.worker.TableWorker" in output
    assert "Warning" not in output and "Traceback" not in output, output
