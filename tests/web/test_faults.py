"""Faults a hostile probe found, each refused cleanly: names no database should store, a lone
surrogate in a record, odd game links, formulas in the CSV sheet, and a busy or unreachable
database (503 with Retry-After, the entry kept to send again, never a 500)."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app import create_app
from scorekeeper.web.data import games
from scorekeeper.web.data.database import db
from tests.web.webforms import form_for
from tests.web.webtable import LEGAL, import_record, new_game

LOCKED = OperationalError(
    "INSERT INTO event ...", {}, sqlite3.OperationalError("database is locked")
)


def start(client, **typed: str):  # type: ignore[no-untyped-def]
    """Submit the new-game form with ``typed`` over its defaults."""
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    return client.post("/games/new", data=form.data(form.button(name="start"), **typed))


def count_games(app) -> int:  # type: ignore[no-untyped-def]
    with app.app_context():
        return len(games.list_games())


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Ann\x00", "control characters"),
        ("Ann\tBob", "control characters"),
        ("Bo\u2028b", "control characters"),
        ("x" * 41, "at most 40 characters"),
    ],
)
def test_the_new_game_form_refuses_a_name_no_one_can_store(app, client, name, says):
    response = start(client, player1=name, player2="Bob", leader="table")
    assert response.status_code == 422
    assert says in unescape(response.get_data(as_text=True))
    assert count_games(app) == 0


@pytest.mark.parametrize(
    ("name", "says"),
    [("Ann\x00", "control characters"), ("x" * 201, "at most 40 characters")],
)
def test_an_import_refuses_the_same_names_without_a_500(app, client, name, says):
    record = {**LEGAL, "players": [name, "Bob"], "hands": []}
    response = client.post("/games/import", data={"text": json.dumps(record)})
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert says in page and 'data-rule="record"' in page
    assert count_games(app) == 0


def test_a_long_partnership_name_imports_and_wins_without_a_500(client):
    names = ["a" * 40, "b" * 40, "c" * 40, "d" * 40]
    record = {"format": "all-fives/1", "players": names, "partners": True, "hands": []}
    table = import_record(client, record)
    assert table.client.get(table.url).status_code == 200


def test_a_lone_surrogate_in_a_record_is_refused_by_replay_and_import(app, client, runner):
    text = json.dumps({**LEGAL, "players": ["\ud800", "Bob"]})
    assert "\\ud800" in text
    result = runner.invoke(args=["replay", "-"], input=text)
    assert result.exit_code == 1
    output = json.loads(result.output)
    assert output["ok"] is False and output["error"]["rule"] == "record"
    assert "surrogate" in output["error"]["message"]
    for spoiled in ('{"\\udfff": 1, "\\udfff": 2}', text.replace('"Bob"', '"B\\udc00b"')):
        result = runner.invoke(args=["replay", "-"], input=spoiled)
        assert result.exit_code == 1 and json.loads(result.output)["ok"] is False

    response = client.post("/games/import", data={"text": text})
    assert response.status_code == 422
    assert "lone surrogate" in unescape(response.get_data(as_text=True))
    assert count_games(app) == 0


@pytest.mark.parametrize(
    "path",
    [
        "/games/2147483648",
        "/games/9223372036854775808",
        "/games/-1",
        "/watch/9223372036854775808/log",
        "/games/99999999999999999999999/sheet.csv",
        "/games/%00%00%00%00%00%00%00%00%00%00%00",
        "/games/" + "9" * 22,
        "/watch/" + "9" * 22 + "/board",
    ],
)
def test_an_odd_game_key_or_id_in_a_url_is_404(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path + "/play", data={"version": "1", "tile": "6-6"}).status_code == 404


def test_an_odd_entry_version_or_log_index_is_refused_not_a_500(client):
    table = new_game(client, ["Ann", "Bob"])
    for version in ("9223372036854775808", "-1", "1e99", "0x1"):
        response = table.post("lead", {"how": "seat", "leader": "0"}, version=version)  # type: ignore[arg-type]
        assert response.status_code in (400, 409), version
    assert client.get(f"{table.url}/log?open=99999999999999999999999").status_code == 200


def test_the_csv_sheet_neutralises_names_that_would_be_formulas(client):
    hyperlink = '=HYPERLINK("http://x.example","a")'
    record = {**LEGAL, "players": [hyperlink, "@Bob"]}
    record["hands"] = [
        {"lead": hyperlink, "events": [{"player": hyperlink, "play": "5-5"}]},
    ]
    table = import_record(client, record)
    body = client.get(f"{table.url}/sheet.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][3] == "'" + hyperlink + " plays"
    assert rows[0][6] == "'@Bob plays"
    assert rows[1][1] == "'" + hyperlink
    assert rows[1][0] == "1" and rows[1][3] == "10", "numbers stay numbers"
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for row in rows for cell in row)


# -- a busy or unreachable database ----------------------------------------------------------


def test_a_locked_database_is_a_503_that_keeps_the_entry_to_send_again(client, monkeypatch):
    table = new_game(client, ["Ann", "Bob"])
    version = table.version()

    def locked(*args: object, **kwargs: object) -> None:
        raise LOCKED

    monkeypatch.setattr(games, "append", locked)
    response = table.post("lead", {"how": "seat", "leader": "1"})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    page = unescape(response.get_data(as_text=True))
    assert "nothing was stored" in page
    form = form_for(page, f"{table.url}/lead")
    assert form.data(form.button()) == {"version": str(version), "how": "seat", "leader": "1"}

    table.htmx = True
    fragment = table.post("lead", {"how": "seat", "leader": "1"})
    assert fragment.status_code == 503 and fragment.headers["Retry-After"] == "2"
    assert fragment.headers["HX-Retarget"] == "#alerts"
    assert "<html" not in fragment.get_data(as_text=True)

    monkeypatch.undo()
    table.htmx = False
    assert table.post("lead", {"how": "seat", "leader": "1"}, version=version).status_code == 303


def test_a_rollback_that_fails_too_still_answers_503(client, monkeypatch):
    table = new_game(client, ["Ann", "Bob"])

    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(games, "load", down)
    monkeypatch.setattr(db.session, "rollback", down)
    response = client.get(table.url)
    assert response.status_code == 503
    assert "cannot be reached" in response.get_data(as_text=True)


def test_sqlite_locked_by_another_connection_answers_503_not_500(tmp_path: Path):
    path = tmp_path / "locked.sqlite"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "SQLITE_BUSY_TIMEOUT_MS": 100,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        }
    )
    with app.app_context():
        import flask_migrate

        flask_migrate.upgrade()
    client = app.test_client()
    table = new_game(client, ["Ann", "Bob"])
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        response = table.post("lead", {"how": "seat", "leader": "0"})
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "2"
        assert re.search(r'name="leader" value="0"', response.get_data(as_text=True))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code == 303
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_postgresql_down_is_a_503_for_pages_and_the_new_game_form(tmp_path: Path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": "postgresql://nobody@127.0.0.1:1/gone",
        }
    )
    client = app.test_client()
    page = client.get("/games/" + "A" * 22)
    assert page.status_code == 503 and page.headers["Retry-After"] == "2"
    response = start(client, player1="Ann", player2="Bob", leader="table")
    assert response.status_code == 503
    form = form_for(response.get_data(as_text=True), "/games/new")
    assert form.data(form.button())["player1"] == "Ann", "the form is kept to send again"


def test_a_connection_whose_rollback_failed_is_not_handed_to_the_next_request(
    app, client, monkeypatch
):
    table = new_game(client, ["Ann", "Bob"])
    invalidated: list[object] = []
    with app.app_context():
        sa_event.listen(db.engine, "invalidate", lambda *args: invalidated.append(args[0]))

    def fails_mid_request(*args: object, **kwargs: object) -> None:
        db.session.execute(text("SELECT 1"))  # the request holds a connection when it fails
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    def rollback_fails(*args: object, **kwargs: object) -> None:
        raise OperationalError("ROLLBACK", {}, Exception("server closed the connection"))

    monkeypatch.setattr(games, "load", fails_mid_request)
    monkeypatch.setattr(db.session, "rollback", rollback_fails)
    assert client.get(table.url).status_code == 503
    assert len(invalidated) == 1, "the pool drops the connection instead of reusing it"
    monkeypatch.undo()
    assert client.get(table.url).status_code == 200
