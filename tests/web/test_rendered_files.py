"""A change is rendered once for the whole server: two apps on one database and one instance
folder (two workers of one gunicorn) render a watched table once between them; a page with a
CSRF token stays each worker's own; and a file that is stale, cut short or left half-written by
a killed worker is never served."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from scorekeeper.web import rendered_files
from scorekeeper.web.data.database import db
from tests.support.server import migrated_database
from tests.web.database import app_settings
from tests.web.test_rendered import HTMX, TOKEN, renders
from tests.web.webtable import Table, new_game, page_version, side_scores, started

SEQ = re.compile(r'data-seq="(\d+)"')


def two_workers(folder: Path, **more: object) -> tuple[Flask, Flask]:
    """Two apps on the same database, sharing rendered pages in one folder, as two gunicorn
    workers of one server do."""
    database = folder / "club.sqlite"
    config = app_settings(
        f"sqlite:///{database}",
        SHARED_PAGES=True,
        SHARED_PAGES_FOLDER=str(folder / "rendered"),
        **more,
    )
    migrated_database(database)
    return create_app(config), create_app(config)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[tuple[Flask, Flask]]:
    """Two workers of one server, CSRF off as in the other web tests."""
    pair = two_workers(tmp_path)
    yield pair
    _close(pair)


def _close(apps: tuple[Flask, Flask]) -> None:
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def live(client: FlaskClient, url: str) -> str:
    response = client.get(url + "/live", headers=HTMX)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def pages(tmp_path: Path) -> list[Path]:
    """The shared page files written so far."""
    return sorted((tmp_path / "rendered").glob("*/*/*.html"))


def test_two_workers_render_a_watched_change_once(workers, tmp_path):
    first, second = workers
    table = started(first.test_client())
    watch = table.watch_url()
    table.play("5-5")
    with renders(first) as in_first, renders(second) as in_second:
        here = live(first.test_client(), watch)
        there = live(second.test_client(), watch)
        again = live(second.test_client(), watch)
    assert in_first.count("_table.html") == 1
    assert in_second.count("_table.html") == 0, in_second
    assert here == there == again
    assert side_scores(there) == {"Ann": 10, "Bob": 0}
    # The next change: rendered once again, this time by whichever asks first.
    table.play("5-4", "E")
    with renders(first) as in_first, renders(second) as in_second:
        there = live(second.test_client(), watch)
        here = live(first.test_client(), watch)
    assert in_second.count("_table.html") == 1
    assert in_first.count("_table.html") == 0
    assert here == there and 'data-seq="3"' in here


def test_a_page_with_a_csrf_token_stays_each_workers_own(tmp_path):
    first, second = pair = two_workers(tmp_path, WTF_CSRF_ENABLED=True)
    try:
        url = new_game(first.test_client(), ["Ann", "Bob"]).url
        phones = [first.test_client(), second.test_client()]
        for phone in phones:
            phone.get(url)  # each phone opens the edit link: a session of its own
        with renders(first) as in_first, renders(second) as in_second:
            answers = [live(phone, url) for phone in phones]
        # Each worker rendered the edit view itself (its text holds the worker's own mark for
        # the token), and each phone's answer carries its own session's token, filled in.
        assert in_first.count("_table.html") == 1 and in_second.count("_table.html") == 1
        tokens = [set(TOKEN.findall(text)) for text in answers]
        assert all(len(found) == 1 for found in tokens) and tokens[0] != tokens[1]
        assert "csrf-" not in answers[0] + answers[1]
        # The token the second worker filled in is the one its phone enters with: accepted.
        (token,) = tokens[1]
        lead = {"csrf_token": token, "version": str(page_version(answers[1])), "how": "seat"}
        chosen = phones[1].post(url + "/lead", data={**lead, "leader": "1"}, headers=HTMX)
        assert chosen.status_code == 200, chosen.get_data(as_text=True)[:300]
    finally:
        _close(pair)


def change(table: Table) -> None:
    """Another change of the game: the last entry undone."""
    before = table.version()
    table.post("undo", {})
    assert table.version() == before + 1


def _next_page(tmp_path: Path, table: Table) -> tuple[Path, int]:
    """After a first shared render: the page's folder and the version of the next change."""
    (written,) = pages(tmp_path)
    table.play("5-4", "E")
    return written.parent, int(written.stem) + 1


def test_a_stale_or_cut_file_is_never_served(workers, tmp_path):
    first, second = workers
    table = started(first.test_client())
    watch = table.watch_url()
    table.play("5-5")
    before = live(first.test_client(), watch)
    folder, version = _next_page(tmp_path, table)
    # A file of the version before under the next version's name (a whole, valid file), then
    # the next version's file cut short: neither is served, the worker renders the change.
    old = (folder / f"{version - 1}.html").read_bytes()
    (folder / f"{version}.html").write_bytes(old)
    with renders(second) as in_second:
        after = live(second.test_client(), watch)
    assert in_second.count("_table.html") == 1
    assert after != before and SEQ.search(after).group(1) == "3"  # type: ignore[union-attr]
    whole = (folder / f"{version}.html").read_bytes()
    assert whole.split(b"\n", 1)[0].split(b" ")[1] == str(version).encode()
    change(table)
    (folder / f"{version + 1}.html").write_bytes(whole[: len(whole) // 2].replace(
        f" {version} ".encode(), f" {version + 1} ".encode(), 1
    ))  # fmt: skip
    with renders(first) as in_first:
        cut = live(first.test_client(), watch)
    assert in_first.count("_table.html") == 1
    assert SEQ.search(cut).group(1) == "2"  # type: ignore[union-attr]


def test_a_worker_killed_mid_write_leaves_nothing_served(workers, tmp_path, monkeypatch):
    first, second = workers
    table = started(first.test_client())
    watch = table.watch_url()
    table.play("5-5")
    live(first.test_client(), watch)
    folder, version = _next_page(tmp_path, table)
    # What a worker killed while writing leaves: its claim and half of its temporary file.
    claim = folder / f"{version}.claim"
    claim.touch()
    (folder / f".{version}.99999.dead.tmp").write_bytes(b"scorekeeper-rendered/1 " + b"x" * 100)
    # While the claim is fresh another worker waits for the page (at most a moment), then
    # renders it itself; a claim older than any render is taken over at once.
    monkeypatch.setattr(rendered_files, "WAIT", 0.2)
    began = time.monotonic()
    with renders(second) as in_second:
        waited = live(second.test_client(), watch)
    assert 0.2 <= time.monotonic() - began < 5  # it waited for the page, then rendered it
    assert in_second.count("_table.html") == 1
    assert SEQ.search(waited).group(1) == "3"  # type: ignore[union-attr]
    change(table)
    claim = folder / f"{version + 1}.claim"
    claim.touch()
    past = time.time() - 2 * rendered_files.STALE
    os.utime(claim, (past, past))
    with renders(first) as in_first:
        taken = live(first.test_client(), watch)
    assert in_first.count("_table.html") == 1
    assert SEQ.search(taken).group(1) == "2"  # type: ignore[union-attr]
    # The page the taking worker wrote is whole and read by the other without a render.
    with renders(second) as in_second:
        assert live(second.test_client(), watch) == taken
    assert in_second.count("_table.html") == 0
    assert not claim.exists()


def test_pages_of_another_database_or_server_run_are_not_read(tmp_path):
    code = rendered_files.code([Path(__file__).parent])
    spaces = {
        rendered_files.space("sqlite:///a.sqlite", code, os.getppid()),
        rendered_files.space("sqlite:///b.sqlite", code, os.getppid()),
        rendered_files.space("sqlite:///a.sqlite", code, os.getpid()),
        rendered_files.space("sqlite:///a.sqlite", code + "changed", os.getppid()),
    }
    assert len(spaces) == 4
    files = rendered_files.Files(tmp_path, "one", capacity=2)
    assert files.page(("_table.html", "watch", "k", "en", None, False)) is not None
    assert files.page(("_table.html", object())) is None  # its text names an address
    for number in range(4):
        page = files.page(("t", str(number)))
        assert page is not None
        assert files.wait_or_claim(page, 1) is True
        files.write(page, {1}, 1, f"page {number}")
        files.release(page, 1)
        os.utime(tmp_path / "one" / page, (time.time() + number, time.time() + number))
    files.sweep()
    assert len(list((tmp_path / "one").iterdir())) == 2


def test_a_folder_that_cannot_be_written_only_turns_the_sharing_off(tmp_path, caplog):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    database = tmp_path / "club.sqlite"
    migrated_database(database)
    app = create_app(
        app_settings(
            f"sqlite:///{database}", SHARED_PAGES=True, SHARED_PAGES_FOLDER=str(blocked / "pages")
        )
    )
    try:
        table = started(app.test_client())
        watch = table.watch_url()
        table.play("5-5")
        with renders(app) as rendered:
            answers = [live(app.test_client(), watch) for _ in range(2)]
        assert answers[0] == answers[1] and side_scores(answers[0]) == {"Ann": 10, "Bob": 0}
        assert rendered.count("_table.html") == 1  # still kept in the process
        assert "Shared pages off" in caplog.text
    finally:
        _close((app, app))
