"""Existing databases migrate: games stored before the secret links get them, nothing lost."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import flask_migrate
from flask import Flask
from sqlalchemy import text

from app import create_app
from scorekeeper.web.data.database import db
from tests.web.database import OTHER_DATABASE, app_settings, database_uri, empty
from tests.web.webtable import Table, side_scores

BEFORE_KEYS = "a92279f79972"
"""The first schema: games reached by their sequential id."""


def _app_on(tmp_path: Path) -> Flask:
    """The app on a new database in ``tmp_path`` (no schema yet: each test migrates it)."""
    return create_app(app_settings(database_uri(tmp_path / "old.sqlite")))


def _old_game(players: list[str], events: list[tuple[str, dict]]) -> None:
    now = datetime(2026, 11, 1, 20, 0)
    game_id = db.session.execute(
        text(
            "INSERT INTO game (created_at, updated_at, players, preset, options, partners,"
            " status, winner) VALUES (:now, :now, :players, 'all-fives', '{}', NULL,"
            " 'play', NULL) RETURNING id"
        ),
        {"now": now, "players": json.dumps(players)},
    ).scalar_one()
    for seq, (kind, data) in enumerate(events, 1):
        db.session.execute(
            text(
                "INSERT INTO event (game_id, seq, kind, data, created_at)"
                " VALUES (:game, :seq, :kind, :data, :now)"
            ),
            {"game": game_id, "seq": seq, "kind": kind, "data": json.dumps(data), "now": now},
        )
    db.session.commit()


def test_games_stored_before_the_keys_get_two_keys_each_and_keep_their_events(tmp_path: Path):
    app = _app_on(tmp_path)
    lead = ("new_hand", {"leader": 0})
    five = ("play", {"player": 0, "tile": "5-5", "end": None, "flipped": False})
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_KEYS)
        _old_game(["Ann", "Bob"], [lead, five])
        _old_game(["Cy", "Di", "Ed"], [])
        flask_migrate.upgrade()
        rows = db.session.execute(
            text("SELECT edit_key, watch_key, version FROM game ORDER BY id")
        ).all()
        events = db.session.execute(text("SELECT count(*) FROM event")).scalar_one()
    assert events == 2
    keys = [key for row in rows for key in row[:2]]
    assert len(set(keys)) == 4
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", key) for key in keys)
    assert [row[2] for row in rows] == [2, 0]

    client = app.test_client()
    table = Table(client, rows[0][0])
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 0}
    assert client.get(f"/watch/{rows[0][1]}").status_code == 200
    assert client.get("/games/1").status_code == 404
    response = table.play("5-0", "E")
    assert response.status_code == 303
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 10}

    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_KEYS)
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 3
        db.session.remove()
        db.engine.dispose()


BEFORE_UNDO_LOG = "e5b7a1c9d2f3"
"""The schema whose undo deleted events."""


def test_games_stored_before_the_undo_log_keep_their_events_and_can_undo_and_redo(
    tmp_path: Path,
):
    app = _app_on(tmp_path)
    lead = ("new_hand", {"leader": 0})
    five = ("play", {"player": 0, "tile": "5-5", "end": None, "flipped": False})
    zero = ("play", {"player": 1, "tile": "5-0", "end": "E", "flipped": False})
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_KEYS)
        _old_game(["Ann", "Bob"], [lead, five, zero])
        _old_game(["Cy", "Di"], [lead])
        flask_migrate.upgrade(revision=BEFORE_UNDO_LOG)
        flask_migrate.upgrade()
        key = db.session.execute(text("SELECT edit_key FROM game ORDER BY id")).scalars().first()
        live = db.session.execute(
            text("SELECT count(*) FROM event WHERE undone_at IS NULL")
        ).scalar_one()
        db.session.remove()
    assert live == 4

    table = Table(app.test_client(), key)
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 10}
    assert table.post("undo", {}).status_code == 303
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 0}
    assert table.play("5-0", "W").status_code == 303  # the same number again: allowed
    assert table.post("undo", {}).status_code == 303
    assert table.post("redo", {}).status_code == 303
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 10}

    with app.app_context():
        # 4 live, the 5-0 undone and replaced, and the last play undone and then redone.
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 6
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_UNDO_LOG)
        # The old schema cannot hold undone events: the downgrade leaves the live ones.
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 4
        db.session.remove()
        db.engine.dispose()


BEFORE_CLUBS = "f7c2d4e8a1b5"
"""The schema before clubs."""


def test_games_stored_before_clubs_belong_to_none_and_can_join_one(tmp_path: Path):
    app = _app_on(tmp_path)
    lead = ("new_hand", {"leader": 0})
    five = ("play", {"player": 0, "tile": "5-5", "end": None, "flipped": False})
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_KEYS)
        _old_game(["Ann", "Bob"], [lead, five])
        flask_migrate.upgrade(revision=BEFORE_CLUBS)
        before = db.session.execute(text("SELECT edit_key, version FROM game")).one()
        db.session.remove()  # end the read, or PostgreSQL's ALTER TABLE waits for it
        flask_migrate.upgrade()
        after = db.session.execute(text("SELECT edit_key, version, club_id FROM game")).one()
        db.session.remove()
    assert tuple(after) == (*before, None)

    client = app.test_client()
    table = Table(client, before[0])
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 0}
    club = client.post("/clubs/new", data={"name": "Family"}).headers["Location"]
    filed = client.post(f"{club}/games", data={"link": f"/games/{before[0]}"})
    assert filed.status_code == 303
    assert "Ann, Bob" in client.get(club).get_data(as_text=True)
    assert side_scores(table.page()) == {"Ann": 10, "Bob": 0}

    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_CLUBS)
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 2
        db.session.remove()
        db.engine.dispose()
