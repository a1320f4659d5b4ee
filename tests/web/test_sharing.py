"""The shared table: the edit and watch links, what each may do, the live poll, my games."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import TimestampSigner
from sqlalchemy import event as sa_event

from scorekeeper.web import rendered
from scorekeeper.web.data import replayed
from scorekeeper.web.data.database import db
from tests.web.webtable import (
    FINISHED,
    LEGAL,
    NO_KEY,
    Table,
    import_record,
    new_game,
    side_scores,
    started,
)

KEY = re.compile(r"^[A-Za-z0-9_-]{22}$")


def watch_url(table: Table) -> str:
    """The watch link the edit page's share panel offers, as a path."""
    return table.watch_url()


def text(client: FlaskClient, url: str, status: int = 200, **kwargs: object) -> str:
    response = client.get(url, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


# -- two links per game ------------------------------------------------------------------


def test_a_new_game_opens_at_an_unguessable_edit_link(client):
    table = new_game(client, ["Ann", "Bob"])
    assert KEY.match(table.key)
    other = new_game(client, ["Cy", "Di"])
    assert other.key != table.key
    watch = watch_url(table)
    assert KEY.match(watch.rsplit("/", 1)[1])
    assert watch.rsplit("/", 1)[1] not in (table.key, other.key)


def test_an_imported_game_opens_at_its_edit_link_and_has_a_watch_link(client):
    table = import_record(client, LEGAL)
    assert KEY.match(table.key)
    assert side_scores(text(client, watch_url(table))) == {"Ann": 10, "Bob": 10}


def test_the_share_panel_shows_both_links_and_folds_the_edit_qr_away(client):
    table = new_game(client, ["Ann", "Bob"])
    page = table.page()
    share = page[page.index('id="share"') :]
    assert share.count('<svg role="img"') == 2
    assert 'data-qr="watch"' in share
    edit_fold = share[share.index('class="edit-qr"') :]
    assert "<details" in share[: share.index('class="edit-qr"') + 20]
    assert "can enter plays" in edit_fold
    assert f'id="edit-link" type="url" value="http://localhost/games/{table.key}"' in share
    assert 'data-qr="edit"' in edit_fold and 'data-qr="watch"' not in edit_fold


def share_panel(client: FlaskClient, table: Table, host: str, bound: str) -> str:
    """The share panel of ``table``'s page opened as ``host`` on a server bound to ``bound``."""
    page = text(
        client,
        f"/games/{table.key}",
        base_url=f"http://{host}",
        environ_overrides={"SERVER_NAME": bound},
    )
    return unescape(page[page.index('id="share"') :])


def test_a_page_opened_as_this_computer_shares_its_address_on_the_network(client, monkeypatch):
    from scorekeeper.web import network

    monkeypatch.setattr(network, "local_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    table = new_game(client, ["Ann", "Bob"])
    watch = watch_url(table)
    for host in ("127.0.0.1:5000", "localhost:5000"):
        share = share_panel(client, table, host, "0.0.0.0")
        assert "use its address on your network instead" in share
        assert f'value="http://192.168.1.23:5000{watch}"' in share
        assert f'value="http://192.168.1.23:5000/games/{table.key}"' in share
        assert host not in share
    # Served on this computer only (make run HOST=127.0.0.1): no address would work; said so.
    share = share_panel(client, table, "127.0.0.1:5000", "127.0.0.1")
    assert "the server listens on this computer alone" in share
    # It may well have been started with make run: the way out is said so as to be true then.
    assert "Start it again with a plain “make run” (leave out HOST)" in share
    assert "Start it with “make run”" not in share
    assert f'value="http://127.0.0.1:5000{watch}"' in share
    # Opened by the network address, as the phones do: nothing to say.
    share = share_panel(client, table, "192.168.1.23:5000", "0.0.0.0")
    assert "data-only-here" not in share
    assert f'value="http://192.168.1.23:5000{watch}"' in share
    # No address on any network: the links are this computer's, and the page says so.
    monkeypatch.setattr(network, "local_addresses", lambda: [])
    share = share_panel(client, table, "localhost:5000", "0.0.0.0")
    assert "these links work on this computer alone" in share


def test_the_watch_page_shows_the_game_and_offers_no_way_to_change_it(client):
    table = started(client)
    table.play("5-5")
    watch = watch_url(table)
    page = text(client, watch)
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert 'data-count="10"' in page
    assert "<form" not in page.split('id="table"')[1].split("</section>")[0]
    assert 'name="version"' not in page
    assert table.key not in page
    assert 'id="share"' not in page


@pytest.mark.parametrize("path", ["", "/record.json", "/log", "/sheet", "/sheet.csv", "/rules"])
def test_every_page_of_a_game_opens_behind_both_links(client, path):
    table = import_record(client, LEGAL)
    watch = watch_url(table)
    assert client.get(table.url + path).status_code == 200
    assert client.get(watch + path).status_code == 200


@pytest.mark.parametrize("path", ["/log", "/sheet", "/rules"])
def test_pages_reached_by_the_watch_link_link_only_to_watch_pages(client, path):
    table = import_record(client, LEGAL)
    watch = watch_url(table)
    page = text(client, watch + path)
    assert table.key not in page
    hrefs = re.findall(r'href="(/(?:games|watch)/[A-Za-z0-9_-]{22}[^"]*)"', page)
    assert hrefs and all(h.startswith("/watch/") for h in hrefs), hrefs


ENTRIES = ["play", "draw", "pass", "undo", "settle", "lead", "turn"]


@pytest.mark.parametrize("path", ["", "/record.json", "/log", "/live", *[f"/{e}" for e in ENTRIES]])
def test_nothing_can_be_posted_to_a_watch_link(client, path):
    table = started(client)
    watch = watch_url(table)
    before = client.get(table.url + "/record.json").get_data()
    version = client.get(watch + "/live").headers["ETag"]
    response = client.post(watch + path, data={"version": "2", "tile": "5-5"})
    assert response.status_code == 404
    assert client.get(table.url + "/record.json").get_data() == before
    assert client.get(watch + "/live").headers["ETag"] == version


def test_a_key_behind_the_wrong_door_is_not_found(client):
    table = started(client)
    watch_key = watch_url(table).rsplit("/", 1)[1]
    assert client.get(f"/watch/{table.key}").status_code == 404
    assert client.get(f"/games/{watch_key}").status_code == 404
    response = client.post(f"/games/{watch_key}/play", data={"version": "2", "tile": "5-5"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "path", ["", "/record.json", "/log", "/sheet", "/sheet.csv", "/rules", "/live"]
)
@pytest.mark.parametrize("door", ["games", "watch"])
def test_unknown_keys_are_not_found_whatever_the_method(client, door, path):
    for method in ("get", "post", "put", "delete"):
        response = getattr(client, method)(f"/{door}/{NO_KEY}{path}", data={"version": "0"})
        assert response.status_code == 404, (method, door, path)
        assert "There is no game at this link" in response.get_data(as_text=True)


def test_a_wrong_method_on_a_real_edit_link_is_405(client):
    table = new_game(client, ["Ann", "Bob"])
    assert client.post(table.url).status_code == 405


def test_no_sequential_id_appears_in_any_page_or_header(client):
    tables = [import_record(client, LEGAL) for _ in range(3)]
    ids = re.compile(r"/(?:games|watch)/\d{1,6}(?:[/?#\"']|$)")
    for table in tables:
        watch = watch_url(table)
        for url in (table.url, watch):
            for path in ("", "/record.json", "/log", "/sheet", "/sheet.csv", "/rules"):
                response = client.get(url + path)
                assert not ids.search(response.get_data(as_text=True)), url + path
                for name, value in response.headers.items():
                    assert not ids.search(value), (name, value)
                disposition = response.headers.get("Content-Disposition", "")
                assert not re.search(r"game-\d", disposition), disposition
        assert "all-fives-" in client.get(table.url + "/record.json").headers["Content-Disposition"]


# -- live ------------------------------------------------------------------------------


class Queries:
    """Every SQL statement the app sends while in this context: through SQLAlchemy, and
    straight to the driver on a pooled connection (as the live poll does)."""

    def __init__(self, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
        self.app = app
        self.monkeypatch = monkeypatch
        self.statements: list[str] = []

    def _record(self, conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        self.statements.append(statement.lower())

    def __enter__(self) -> Queries:
        with self.app.app_context():
            engine = db.engine
            sa_event.listen(engine, "before_cursor_execute", self._record)
            pooled = engine.raw_connection
            statements = self.statements

            class Cursor:
                def __init__(self, cursor) -> None:  # type: ignore[no-untyped-def]
                    self.cursor = cursor

                def execute(self, sql, *args):  # type: ignore[no-untyped-def]
                    statements.append(sql.lower())
                    return self.cursor.execute(sql, *args)

                def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
                    return getattr(self.cursor, name)

            class Connection:
                def __init__(self) -> None:
                    self.connection = pooled()

                def cursor(self) -> Cursor:
                    return Cursor(self.connection.cursor())

                def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
                    return getattr(self.connection, name)

            self.monkeypatch.setattr(engine, "raw_connection", Connection)
        return self

    def __exit__(self, *exc: object) -> None:
        with self.app.app_context():
            sa_event.remove(db.engine, "before_cursor_execute", self._record)
        self.monkeypatch.undo()


def live_etag(response) -> str:  # type: ignore[no-untyped-def]
    etag = response.headers["ETag"]
    assert etag.startswith('"v')
    return etag


def test_an_unchanged_poll_is_304_without_touching_the_events(app, client, monkeypatch):
    table = started(client)
    table.play("5-5")
    first = client.get(table.url + "/live", headers={"HX-Request": "true"})
    assert first.status_code == 200 and 'id="table"' in first.get_data(as_text=True)
    etag = live_etag(first)
    with Queries(app, monkeypatch) as queries:
        again = client.get(table.url + "/live", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag
    assert len(queries.statements) == 1, queries.statements
    assert "from event" not in queries.statements[0]
    assert " ".join(queries.statements[0].split()).startswith("select game.version from game")
    # The two tables are compared byte for byte: their CSRF tokens, which carry the second
    # they were signed in, are signed in the same second (a busy machine took one more).
    with pytest.MonkeyPatch.context() as clock:
        second = TimestampSigner.get_timestamp(TimestampSigner("key"))
        clock.setattr(TimestampSigner, "get_timestamp", lambda self: second)
        with Queries(app, monkeypatch) as queries:
            changed = client.get(table.url + "/live", headers={"If-None-Match": '"v1"'})
        assert changed.status_code == 200
        # This process replayed the game at its version already: the events are not read again.
        assert not any("from event" in statement for statement in queries.statements)
        # Another worker process has not seen the game yet (nor rendered it): it reads the
        # events once.
        replayed.games.clear()
        rendered.forget(app)
        with Queries(app, monkeypatch) as queries:
            fresh = client.get(table.url + "/live", headers={"If-None-Match": '"v1"'})
    assert fresh.status_code == 200
    assert fresh.get_data() == changed.get_data()
    assert any("join event" in statement for statement in queries.statements)


def test_a_poll_after_an_entry_brings_the_new_table_with_a_new_etag(client):
    table = started(client)
    watch = watch_url(table)
    etag = live_etag(client.get(watch + "/live"))
    table.play("5-5")
    changed = client.get(watch + "/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert live_etag(changed) != etag
    fragment = changed.get_data(as_text=True)
    assert fragment.startswith("<section") and "<html" not in fragment
    assert side_scores(fragment) == {"Ann": 10, "Bob": 0}
    assert 'name="version"' not in fragment


def test_an_undo_changes_the_etag_even_though_the_entry_count_returns(client):
    table = started(client)
    table.play("5-5")
    etag = live_etag(client.get(table.url + "/live"))
    table.post("undo", {})
    table.play("6-6")
    assert client.get(table.url + "/live", headers={"If-None-Match": etag}).status_code == 200


def test_a_live_edit_table_keeps_a_picked_tile_that_still_waits_for_its_end(client):
    table = started(client)
    table.play("5-5")
    kept = text(client, table.url + "/live?selected=5-1")
    assert 'class="choose-end"' in kept and 'name="tile" value="5-1"' in kept
    for nonsense in ("5-5", "9-9", "x", "6-6", "0-0"):
        page = text(client, table.url + f"/live?selected={nonsense}")
        assert 'class="choose-end"' not in page


def test_the_live_pages_name_the_url_they_poll(client):
    table = started(client)
    watch = watch_url(table)
    assert f'hx-get="{table.url}/live"' in table.page()
    assert f'hx-get="{watch}/live"' in text(client, watch)
    assert f'hx-get="{watch}/live?view=board"' in text(client, watch + "/board")
    assert "Refresh</a>" in text(client, watch)


# -- the board -----------------------------------------------------------------------------


def test_the_board_shows_scores_turn_target_last_play_and_the_hand_so_far(client):
    table = started(client)
    table.play("5-5")
    table.play("5-0", "E")
    board = text(client, watch_url(table) + "/board")
    assert side_scores(board) == {"Ann": 10, "Bob": 10}
    assert 'data-target="250"' in board
    assert re.search(r'data-turn="Ann">Ann to play<', board)
    assert 'data-last-points="10"' in board and "Bob&#39;s 5-0 on E" in board
    assert re.search(r'data-hand-tally="Bob">Bob <strong>10</strong>', board)
    assert "<form" not in board.split('id="board"')[1]
    board_live = text(client, watch_url(table) + "/live?view=board")
    assert board_live.startswith('<section id="board"')


def test_the_board_is_only_behind_the_watch_link(client):
    table = new_game(client, ["Ann", "Bob"])
    assert client.get(table.url + "/board").status_code == 404


# -- my games ------------------------------------------------------------------------------


def listed(client: FlaskClient) -> list[tuple[str, str]]:
    """The games the home page lists: (door, key)."""
    page = text(client, "/")
    return re.findall(r'data-game="([^"]+)" data-door="([^"]+)"', page)


def test_the_home_page_lists_only_this_browsers_games(app, client):
    mine = new_game(client, ["Ann", "Bob"])
    imported = import_record(client, LEGAL)
    assert {key for key, _ in listed(client)} == {mine.key, imported.key}
    stranger = app.test_client()
    assert listed(stranger) == []
    assert "Ann, Bob" not in text(stranger, "/")


def test_a_game_opened_by_its_watch_link_is_listed_as_watching(app, client):
    table = new_game(client, ["Ann", "Bob"])
    watch = watch_url(table)
    friend = app.test_client()
    text(friend, watch)
    assert listed(friend) == [(watch.rsplit("/", 1)[1], "watch")]
    text(friend, table.url)
    assert listed(friend) == [(table.key, "games")]
    text(friend, watch)
    assert listed(friend) == [(table.key, "games")]


def test_forget_removes_a_game_from_this_browser_only(app, client):
    table = new_game(client, ["Ann", "Bob"])
    other = new_game(client, ["Cy", "Di"])
    response = client.post("/my-games/forget", data={"key": table.key})
    assert response.status_code == 303
    assert "Forgotten on this browser" in unescape(text(client, "/"))
    assert [key for key, _ in listed(client)] == [other.key]
    assert client.get(table.url).status_code == 200
    assert client.post("/my-games/forget", data={}).status_code == 303


def test_the_operator_lists_every_game_with_both_links(app, client):
    table = new_game(client, ["Ann", "Bob"])
    import_record(app.test_client(), LEGAL)
    import_record(app.test_client(), FINISHED)
    result = app.test_cli_runner().invoke(args=["games", "--base-url", "https://club.example"])
    assert result.exit_code == 0, result.output
    assert f"edit:  https://club.example/games/{table.key}" in result.output
    assert "https://club.example" + watch_url(table) in result.output
    assert result.output.count("watch: https://club.example/watch/") == 3
    assert "3 games." in result.output
    # Each game's status: the leader still to choose, in play, or won and by whom.
    assert "Ann, Bob  (choosing the leader)" in result.output
    assert "Ann, Bob  (in play)" in result.output
    assert "Ann, Bob  (over, Ann won)" in result.output
