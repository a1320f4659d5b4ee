"""Pushed changes: a page following a game holds its event stream open and hears the game's
new version the moment an entry is stored, from this process, from another process (SQLite:
the reader; PostgreSQL: LISTEN/NOTIFY), and that the game is gone once deleted. Where the
server cannot hold a request open the stream answers 204 and the page polls."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from itertools import islice

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app import create_app
from scorekeeper.web.data import changes
from scorekeeper.web.data.changes import GONE, Hub
from scorekeeper.web.data.database import db
from scorekeeper.web.sharing import STREAM_SECONDS
from tests.support.server import LiveServer
from tests.web.database import OTHER_DATABASE, app_settings
from tests.web.webtable import Table, page_version, started

VERSION = re.compile(r"event: version\ndata: (-?\d+)\n\n")


def stream(client: FlaskClient, url: str, path: str = "/changes") -> Iterator[str]:
    """The event stream of the game at ``url``, chunk by chunk as the server sends them."""
    response = client.get(url + path, buffered=False)
    assert response.status_code == 200, response.status_code
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    return iter(response.response)  # type: ignore[arg-type]


def versions(chunks: Iterator[str | bytes], count: int) -> list[int]:
    """The next ``count`` versions the stream sends (skipping its retry line and comments)."""
    found: list[int] = []
    for chunk in chunks:
        said = chunk.decode() if isinstance(chunk, bytes) else chunk
        found += [int(v) for v in VERSION.findall(said)]
        if len(found) >= count:
            return found
    return found


@pytest.fixture
def pushing(app: Flask) -> Flask:
    app.config["LIVE_PUSH"] = True
    return app


def test_the_stream_sends_the_version_at_once_and_after_each_entry(
    pushing: Flask, client: FlaskClient
) -> None:
    table = started(client)
    chunks = stream(client, table.url)
    first = next(chunks)
    assert first.startswith(b"retry: ") if isinstance(first, bytes) else first.startswith("retry")
    assert versions(chunks, 1) == [page_version(table.page())]
    table.play("5-5")
    assert versions(chunks, 1) == [page_version(table.page())]
    table.post("undo", {})
    assert versions(chunks, 1) == [page_version(table.page())]


PAGE = re.compile(r"event: page\n((?:data: [^\n]*\n)+)\n")


def page_events(chunks: Iterator[str | bytes], count: int) -> list[str]:
    """The next ``count`` pages the stream pushes, as their HTML."""
    found: list[str] = []
    for chunk in chunks:
        said = chunk.decode() if isinstance(chunk, bytes) else chunk
        found += [
            "\n".join(line.removeprefix("data: ") for line in data.splitlines())
            for data in PAGE.findall(said)
        ]
        if len(found) >= count:
            return found
    return found


def test_the_watch_link_is_pushed_each_new_table_and_hears_the_deletion(
    pushing: Flask, client: FlaskClient
) -> None:
    table = started(client)
    watch = table.watch_url()
    watching = stream(client, watch)
    assert versions(watching, 1) == [page_version(table.page())]
    table.play("5-5")
    (pushed,) = page_events(watching, 1)
    # The very table the live URL answers, at the new version.
    live = client.get(watch + "/live", headers={"If-None-Match": '"v0"'}).get_data(as_text=True)
    assert pushed == live
    assert f'data-version="{page_version(table.page())}"' in pushed
    assert 'data-side-score="Ann">10<' in pushed
    assert client.post(f"/games/{table.key}/delete").status_code in (200, 303)
    assert versions(watching, 1) == [GONE]
    assert list(watching) == []  # and the stream ends
    assert client.get(watch + "/changes").status_code == 404


def test_the_boards_stream_pushes_the_board(pushing: Flask, client: FlaskClient) -> None:
    table = started(client)
    board = client.get(table.watch_url() + "/board").get_data(as_text=True)
    found = re.search(r'data-changes="([^"]+)"', board)
    assert found is not None and found.group(1) == table.watch_url() + "/changes?view=board"
    chunks = stream(client, table.watch_url(), "/changes?view=board")
    assert versions(chunks, 1) == [page_version(table.page())]
    table.play("5-5")
    (pushed,) = page_events(chunks, 1)
    assert pushed.startswith('<section id="board"')


def test_an_unknown_key_is_404_and_a_sync_server_is_told_to_poll(
    app: Flask, client: FlaskClient
) -> None:
    table = started(client)
    # The test client is no server that can hold a request open: 204, the page polls.
    assert client.get(table.url + "/changes").status_code == 204
    app.config["LIVE_PUSH"] = True
    assert client.get("/games/" + "x" * 22 + "/changes").status_code == 404
    app.config["LIVE_STREAMS_PER_ADDRESS"] = 1
    held = client.get(table.url + "/changes", buffered=False)
    assert held.status_code == 200
    # One address holds its one stream: its next is refused (the page polls), another's not.
    assert client.get(table.url + "/changes").status_code == 204
    other = client.get(table.url + "/changes", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200
    other.close()
    held.close()
    assert client.get(table.url + "/changes", buffered=False).status_code == 200
    app.config["LIVE_STREAMS"] = 0
    assert client.get(table.url + "/changes").status_code == 204


def test_a_change_wakes_only_the_streams_of_its_game_and_never_goes_back() -> None:
    hub = Hub()
    with hub.following(1, 4) as one, hub.following(2, 9) as two:
        assert hub.streams == 2 and sorted(hub.followed()) == [1, 2]
        hub.changed(1, 5)
        assert one.is_set() and not two.is_set()
        one.clear()
        hub.changed(1, 3)  # an older version, late: nothing
        assert not one.is_set() and hub.version(1) == 5
        hub.changed(3, 1)  # a game nobody follows here
        hub.changed(2, GONE)
        assert two.is_set() and hub.version(2) == GONE
    assert hub.streams == 0 and hub.followed() == []


def test_a_stream_ends_after_its_time_and_says_so_by_heartbeat(
    pushing: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("scorekeeper.web.sharing.STREAM_SECONDS", 0.3)
    monkeypatch.setattr("scorekeeper.web.sharing.HEARTBEAT_SECONDS", 0.1)
    table = started(client)
    started_at = time.monotonic()
    said = [c.decode() if isinstance(c, bytes) else c for c in stream(client, table.url)]
    assert 0.25 < time.monotonic() - started_at < 5
    assert any(line.startswith(":") for line in said)  # the heartbeat comments
    assert STREAM_SECONDS >= 60  # in production a stream lasts minutes


def other_process(app: Flask) -> Flask:
    """Another worker of the same site: its own app on the same database."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    return create_app(app_settings(uri, CHANGES_INTERVAL=0.05, LIVE_PUSH=True))


def test_a_change_written_by_another_process_reaches_this_ones_streams(
    app: Flask, client: FlaskClient
) -> None:
    """SQLite: the other worker's reader finds the new version; PostgreSQL (CI): the write's
    NOTIFY reaches the other worker's listener. (The edit link's stream: it says versions.)"""
    table = started(client)
    other = other_process(app)
    heard: list[int] = []
    listening = threading.Event()

    def follow() -> None:
        chunks = stream(other.test_client(), table.url)
        for version in versions(chunks, 1):
            heard.append(version)
        listening.set()
        heard.extend(versions(chunks, 1))

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    assert listening.wait(10)
    time.sleep(0.5)  # the listener has its LISTEN (or the reader its first look) in place
    table.play("5-5")
    follower.join(10)
    assert heard == [page_version(table.page()) - 1, page_version(table.page())]
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def notes_heard(app: Flask, count: int, changing: Callable[[], object]) -> list[str]:
    """The payloads of the first ``count`` notifications on the changes channel while
    ``changing()`` runs, heard on a connection of its own (PostgreSQL)."""
    with app.app_context():
        connection = db.engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(f"LISTEN {changes.CHANNEL}")
            connection.commit()
            changing()
            cursor.execute("SELECT 1")
            driver = connection.driver_connection
            assert driver is not None
            notes = islice(driver.notifies(timeout=10), count)
            return [note.payload for note in notes]
        finally:
            connection.close()


def test_a_write_on_postgresql_notifies_in_its_own_transaction(
    app: Flask, client: FlaskClient
) -> None:
    if not OTHER_DATABASE:
        pytest.skip("NOTIFY is PostgreSQL's")
    table = started(client)
    notes = notes_heard(app, 1, lambda: table.play("5-5"))
    assert notes and notes[0].endswith(f":{page_version(table.page())}")


def test_postgresql_tells_of_an_undo_and_a_deletion_from_the_game_row(
    app: Flask, client: FlaskClient
) -> None:
    """The trigger on the game row notifies every way a game changes, not only an entry."""
    if not OTHER_DATABASE:
        pytest.skip("NOTIFY is PostgreSQL's")
    table = started(client)
    table.play("5-5")
    undone: list[int] = []

    def undo_then_delete() -> None:
        assert table.post("undo", {}).status_code in (200, 303)
        undone.append(page_version(table.page()))
        assert client.post(f"/games/{table.key}/delete").status_code in (200, 303)

    notes = notes_heard(app, 2, undo_then_delete)
    assert [note.partition(":")[2] for note in notes] == [str(undone[0]), "-1"]


def test_the_edit_and_watch_pages_name_their_stream(pushing: Flask, client: FlaskClient) -> None:
    table: Table = started(client)
    assert f'data-changes="{table.url}/changes"' in table.page()
    watch = client.get(table.watch_url()).get_data(as_text=True)
    assert f'data-changes="{table.watch_url()}/changes"' in watch


def test_a_pushed_table_is_in_the_watching_phones_language(
    pushing: Flask, client: FlaskClient, app: Flask
) -> None:
    table = started(client)
    watch = table.watch_url()
    swedish = app.test_client()
    swedish.get("/language/sv")
    english, svenska = stream(client, watch), stream(swedish, watch)
    versions(english, 1), versions(svenska, 1)
    table.play("5-5")
    (in_english,) = page_events(english, 1)
    (in_svenska,) = page_events(svenska, 1)
    asked = {"If-None-Match": '"v0"'}
    assert in_svenska == swedish.get(watch + "/live", headers=asked).get_data(as_text=True)
    assert in_english == client.get(watch + "/live", headers=asked).get_data(as_text=True)
    assert in_svenska != in_english


def test_a_change_between_opening_and_following_is_not_missed(
    pushing: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stream reads the game's version, then follows it: an entry stored in between woke
    no one, so the stream reads the version again once it follows (on PostgreSQL nothing else
    would tell it until the next change)."""
    from scorekeeper.web.data import games

    table = started(client)
    read = games.followed

    def stale(key: str, kind: str = "games") -> tuple[int, int]:
        ident, version = read(key, kind)
        return ident, version - 1  # as if an entry landed right after this read

    monkeypatch.setattr(games, "followed", stale)
    assert versions(stream(client, table.url), 1) == [page_version(table.page())]


def test_a_database_server_restart_costs_no_request(app: Flask, client: FlaskClient) -> None:
    """PostgreSQL restarted (every connection of the pool closed by the server): the next
    request finds its connection dead before using it and takes a new one; no 503."""
    if not OTHER_DATABASE:
        pytest.skip("a server that restarts is PostgreSQL's")
    table = started(client)
    assert client.get(table.url).status_code == 200  # a connection in the pool
    with app.app_context():
        url = db.engine.url
    outside = create_engine(url, poolclass=NullPool)  # a connection of no pool of the app's
    try:
        with outside.begin() as connection:
            ended = connection.execute(
                text(
                    "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()) AS ended"
                )
            ).scalar_one()
    finally:
        outside.dispose()
    assert ended >= 1, "the app's pooled connection was ended"
    assert client.get(table.url).status_code == 200
    assert table.play("5-5").status_code == 303


def test_each_event_says_its_version_as_its_id(pushing: Flask, client: FlaskClient) -> None:
    table = started(client)
    chunks = stream(client, table.url)
    said = "".join(c.decode() if isinstance(c, bytes) else c for c in islice(chunks, 2))
    version = page_version(table.page())
    assert said.endswith(f"id: {version}\nevent: version\ndata: {version}\n\n")


def test_a_watching_phone_that_comes_back_behind_is_sent_the_table_first(
    pushing: Flask, client: FlaskClient
) -> None:
    """Its browser opens the stream again by itself, saying the last version it heard
    (``Last-Event-ID``): behind, it is sent the new table at once; up to date, the version."""
    table = started(client)
    watch = table.watch_url()
    heard = page_version(table.page())
    table.play("5-5")  # while the phone was away
    now = page_version(table.page())
    for last, first in ((heard, "page"), (now, "version")):
        response = client.get(
            watch + "/changes", headers={"Last-Event-ID": str(last)}, buffered=False
        )
        chunks = iter(response.response)  # type: ignore[arg-type]
        next(chunks)  # retry
        event = next(chunks)
        said = event.decode() if isinstance(event, bytes) else event
        assert said.startswith(f"id: {now}\nevent: {first}\n"), said[:80]
        if first == "page":
            assert f'data-version="{now}"' in said


def test_a_silent_stream_reads_the_stored_version_again_each_heartbeat(
    pushing: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change whose news never reached this process (a lost notification; here nothing
    brings other processes' changes at all) is sent at the next heartbeat."""
    monkeypatch.setattr("scorekeeper.web.sharing.HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr("scorekeeper.web.sharing.STREAM_SECONDS", 10)  # then it ends, unheard
    monkeypatch.setattr(changes._Source, "look", lambda self: None)
    monkeypatch.setattr(changes._Listener, "run", lambda self: time.sleep(60))
    table = started(client)
    chunks = stream(client, table.url)
    version = page_version(table.page())
    assert versions(chunks, 1) == [version]
    with pushing.app_context():  # another process's change, which no one tells of
        db.session.execute(text("UPDATE game SET version = version + 1"))
        db.session.commit()
    assert versions(chunks, 1) == [version + 1]


def test_a_change_stored_while_the_stream_writes_is_sent_next(
    pushing: Flask, client: FlaskClient
) -> None:
    """The stream is in the middle of sending one version (its phone reads slowly) when two
    more entries are stored: the next thing it sends is the latest."""
    table = started(client)
    chunks = stream(client, table.url)
    assert versions(chunks, 1) == [page_version(table.page())]
    table.play("5-5")
    table.post("undo", {})
    table.post("redo", {})
    assert versions(chunks, 1) == [page_version(table.page())]


def test_the_development_server_lets_a_stream_go_at_the_heartbeat_after_its_phone_left(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask's threaded server holds streams too: a phone that closed its connection is let
    go at the next heartbeat (not at the second heartbeat that fails to be written)."""
    heartbeat = 2.0
    monkeypatch.setattr("scorekeeper.web.sharing.HEARTBEAT_SECONDS", heartbeat)
    table = started(client)
    hub = changes._state(app)[0]
    with LiveServer(app) as server:
        port = server.server.server_port
        with socket.create_connection(("127.0.0.1", port), timeout=10) as phone:
            phone.sendall(f"GET {table.url}/changes HTTP/1.1\r\nHost: here\r\n\r\n".encode())
            received = b""
            while b"event: version" not in received:  # read all it was sent: then it leaves
                received += phone.recv(4096)
            assert received.startswith(b"HTTP/1.1 200") and hub.streams == 1
        deadline = time.monotonic() + 1.5 * heartbeat  # before the second heartbeat
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.streams == 0
