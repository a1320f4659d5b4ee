"""Existing databases migrate: games stored before the secret links get them, nothing lost."""

from __future__ import annotations

import hashlib
import io
import json
import re
import secrets
from datetime import datetime
from pathlib import Path

import flask_migrate
from flask import Flask
from sqlalchemy import inspect, text

from app import create_app
from scorekeeper.rules.record import load_record, replay, write_record
from scorekeeper.rules.stored import stored_event
from scorekeeper.web.data.clubs import fingerprint
from scorekeeper.web.data.database import db
from tests.web.database import OTHER_DATABASE, app_settings, database_uri, empty
from tests.web.test_clubs import confirm_left_out
from tests.web.webforms import form_for
from tests.web.webtable import Table, as_exported, new_game, side_scores

DATA = Path(__file__).resolve().parents[1] / "data"
BEFORE_KEYS = "a92279f79972"
"""The first schema: games reached by their sequential id."""


def _app_on(tmp_path: Path) -> Flask:
    """The app on a new database in ``tmp_path`` (no schema yet: each test migrates it)."""
    return create_app(app_settings(database_uri(tmp_path / "old.sqlite")))


def _old_events(game_id: int, events: list[tuple[str, dict]], now: datetime) -> None:
    """Store ``events`` (kind and data) as the game's live events 1, 2, 3..."""
    for seq, (kind, data) in enumerate(events, 1):
        db.session.execute(
            text(
                "INSERT INTO event (game_id, seq, kind, data, created_at)"
                " VALUES (:game, :seq, :kind, :data, :now)"
            ),
            {"game": game_id, "seq": seq, "kind": kind, "data": json.dumps(data), "now": now},
        )


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
    _old_events(game_id, events, now)
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


BEFORE_BONUS_IN_FIVES = "a2c4e6f8b0d1"
"""The schema before totally-fives collected in fives by default (bonus_in_fives "no")."""
COLLECTS_28 = DATA / "hand_totally_fives_collects_in_fives.json"
"""A totally-fives hand Ann wins and collects 28 pips in: 30 in points, 6 in fives."""


def _stored_game(preset: str, options: dict, events: list[tuple[str, dict]]) -> str:
    """A game stored as the schema before ``bonus_in_fives`` changed stores it; its edit key."""
    now = datetime(2026, 11, 20, 20, 0)
    key = secrets.token_urlsafe(16)
    game_id = db.session.execute(
        text(
            "INSERT INTO game (edit_key, watch_key, version, created_at, updated_at, players,"
            " preset, options, partners, status, winner, redoable) VALUES (:key, :watch,"
            " :version, :now, :now, :players, :preset, :options, NULL, 'lead', NULL, 0)"
            " RETURNING id"
        ),
        {
            "key": key,
            "watch": secrets.token_urlsafe(16),
            "version": len(events),
            "now": now,
            "players": json.dumps(["Ann", "Bob", "Cy"]),
            "preset": preset,
            "options": json.dumps(options),
        },
    ).scalar_one()
    _old_events(game_id, events, now)
    return key


def _stored_club(defaults: dict | None) -> str:
    key = secrets.token_urlsafe(16)
    db.session.execute(
        text(
            "INSERT INTO club (edit_key, watch_key, name, created_at, defaults)"
            " VALUES (:key, :watch, 'Family', :now, :defaults)"
        ),
        {
            "key": key,
            "watch": secrets.token_urlsafe(16),
            "now": datetime(2026, 11, 20, 20, 0),
            "defaults": None if defaults is None else json.dumps(defaults),
        },
    )
    return key


def _json(value: object) -> object:
    """A JSON column as read by plain SQL: text on SQLite, already parsed on PostgreSQL."""
    return json.loads(value) if isinstance(value, str) else value


def _games(keys: list[str]) -> list[tuple[object, int]]:
    """Each game's stored options and version."""
    rows = db.session.execute(text("SELECT edit_key, options, version FROM game")).all()
    found = {key: (_json(options), version) for key, options, version in rows}
    return [found[key] for key in keys]


def _club_defaults(keys: list[str]) -> list[object]:
    """Each club's stored new-game defaults."""
    rows = db.session.execute(text("SELECT edit_key, defaults FROM club")).all()
    found = {key: _json(defaults) for key, defaults in rows}
    return [found[key] for key in keys]


def test_totally_fives_games_stored_before_bonus_in_fives_keep_their_scores(tmp_path: Path):
    app = _app_on(tmp_path)
    events = [stored_event(event) for event in load_record(COLLECTS_28.read_text()).events]
    assert events[-1][0] == "settle"
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_BONUS_IN_FIVES)
        by_default = _stored_game("totally-fives", {}, events)
        chose_no = _stored_game("totally-fives", {"bonus_in_fives": "no"}, events)
        chose_yes = _stored_game("totally-fives", {"bonus_in_fives": "yes"}, events)
        other = _stored_game("fives-up", {"target": 200}, events)
        keys = [by_default, chose_no, chose_yes, other]
        clubs = [
            _stored_club({"preset": "totally-fives", "options": {"spinners": "none"}}),
            _stored_club({"preset": "totally-fives", "options": {"bonus_in_fives": "yes"}}),
            _stored_club({"preset": "fives-up", "options": {}, "partners": None}),
            _stored_club(None),
        ]
        db.session.commit()
        before = _games(keys)
        before_clubs = _club_defaults(clubs)
        db.session.remove()
        flask_migrate.upgrade()
        after = _games(keys)
        after_clubs = _club_defaults(clubs)
        db.session.remove()

    # Only the game that played by the old default changes: it says "no" itself, and its
    # version grows so that kept replays and open pages follow.
    assert after[0] == ({"bonus_in_fives": "no"}, before[0][1] + 1)
    assert after[1:] == before[1:]
    assert after_clubs[0] == {
        "preset": "totally-fives",
        "options": {"spinners": "none", "bonus_in_fives": "no"},
    }
    assert after_clubs[1:] == before_clubs[1:]

    # Ann scored 35 in play and collected 28 -> 30 in points, as before; a game that chose
    # bonus_in_fives "yes" collected 6 and still does.
    client = app.test_client()
    kept = {"Ann": 65, "Bob": 15, "Cy": 10}
    assert side_scores(Table(client, by_default).page()) == kept
    assert side_scores(Table(client, chose_no).page()) == kept
    assert side_scores(Table(client, chose_yes).page()) == {"Ann": 41, "Bob": 15, "Cy": 10}
    exported = client.get(f"/games/{by_default}/record.json").get_json()
    assert exported["options"]["bonus_in_fives"] == "no"
    output, legal = replay(json.dumps(exported))
    assert legal and output["scores"] == kept
    club_form = client.get(f"/clubs/{clubs[0]}/new").get_data(as_text=True)
    assert form_for(club_form, "/new").data()["bonus_in_fives"] == "no"

    # A game started now plays by the new default; a downgrade writes it out, and leaves
    # what the upgrade wrote (the older code's default says "no" anyway).
    started = new_game(client, ["Ann", "Bob"], preset="totally-fives").key
    with app.app_context():
        assert _games([started])[0][0] == {}
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_BONUS_IN_FIVES)
        assert [options for options, _ in _games([started, *keys])] == [
            {"bonus_in_fives": "yes"},
            {"bonus_in_fives": "no"},
            {"bonus_in_fives": "no"},
            {"bonus_in_fives": "yes"},
            {"target": 200},
        ]
        assert _club_defaults(clubs) == after_clubs
        db.session.remove()
        db.engine.dispose()


BEFORE_FULL_FINGERPRINTS = "0394bad6dbdb"
"""The schema whose club fingerprints hashed a record naming only the setup's house rules."""


def test_club_fingerprints_stored_before_name_every_house_rule(tmp_path: Path):
    app = _app_on(tmp_path)
    record = json.loads(COLLECTS_28.read_text())
    game = load_record(json.dumps(record))
    events = [stored_event(event) for event in game.events]
    old_print = hashlib.sha256(
        json.dumps(write_record(game), sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_FULL_FINGERPRINTS)
        club = _stored_club(None)
        key = _stored_game("totally-fives", {"bonus_in_fives": "no"}, events)
        db.session.execute(
            text(
                "UPDATE game SET club_id = (SELECT id FROM club WHERE edit_key = :club),"
                " fingerprint = :print WHERE edit_key = :key"
            ),
            {"club": club, "print": old_print, "key": key},
        )
        loose = _stored_game("totally-fives", {}, events)  # in no club: no fingerprint
        db.session.commit()
        db.session.remove()
        flask_migrate.upgrade()
        prints = dict(db.session.execute(text("SELECT edit_key, fingerprint FROM game")).all())
        db.session.remove()

    named = {**record, "options": {"bonus_in_fives": "no"}}
    assert prints[key] == fingerprint(load_record(json.dumps(named))) != old_print
    assert prints[loose] is None
    # The same game imported again into the club, its house rules named or not, is refused.
    client = app.test_client()
    for again in (named, as_exported(named)):
        body = (json.dumps(again) + "\n").encode()
        refused = client.post(
            f"/clubs/{club}/import",
            data={"records": (io.BytesIO(body), "games.jsonl")},
            content_type="multipart/form-data",
        )
        refused = confirm_left_out(client, f"/clubs/{club}", refused)
        assert refused.status_code == 422
        assert "it is in the club already" in refused.get_data(as_text=True)

    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_FULL_FINGERPRINTS)
        back = db.session.execute(
            text("SELECT fingerprint FROM game WHERE edit_key = :key"), {"key": key}
        ).scalar_one()
        # As the older code computes it for the game as stored now (bonus_in_fives named).
        as_before = write_record(load_record(json.dumps(named)))
        text_before = json.dumps(as_before, sort_keys=True, separators=(",", ":"))
        assert back == hashlib.sha256(text_before.encode()).hexdigest()
        db.session.remove()
        db.engine.dispose()


BEFORE_NIGHTS = "5c1e9a7d3b20"
"""The schema before club nights."""


def test_club_nights_migrate_up_and_down_leaving_the_clubs_games(tmp_path: Path):
    """A club with a game migrates to nights (its game untouched), a night is stored, and the
    downgrade removes the night's tables and keeps every game."""
    app = _app_on(tmp_path)
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_NIGHTS)
        db.session.remove()
        flask_migrate.upgrade()
        tables = set(inspect(db.engine).get_table_names())
        db.session.remove()
    assert {"night", "night_player", "night_round", "night_table"} <= tables
    client = app.test_client()
    club = client.post("/clubs/new", data={"name": "Family"}).headers["Location"]
    game = new_game(client, ["Ann", "Bob"])
    assert client.post(f"{club}/games", data={"link": f"/games/{game.key}"}).status_code == 303
    with app.app_context():
        club_id = db.session.execute(text("SELECT id FROM club")).scalar_one()
        db.session.execute(
            text(
                "INSERT INTO night (club_id, created_at, preset, options, table_size, rounds,"
                " minutes, match, at_limit, tie_breaks) VALUES (:club, :now, 'all-fives', '{}',"
                " 2, 3, 30, 'one-game', 'finish-hand', '[]')"
            ),
            {"club": club_id, "now": datetime(2026, 11, 29, 19, 0)},
        )
        db.session.commit()
        db.session.remove()
    assert "Night of 2026-11-29" in client.get(club).get_data(as_text=True)
    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_NIGHTS)
        assert "night" not in inspect(db.engine).get_table_names()
        assert db.session.execute(text("SELECT count(*) FROM game")).scalar_one() == 1
        db.session.remove()
        db.engine.dispose()


BEFORE_PENALTIES = "c7e9a1b3d5f2"
"""The schema before a club kept penalties and its ratings' rule."""


def test_clubs_stored_before_penalties_count_their_games_and_keep_their_roster(tmp_path: Path):
    """A plain ADD COLUMN: the club's roster and games stay (a copy of the club table would
    have deleted the roster through ON DELETE CASCADE); its ordinary games count toward its
    ratings, it has no penalties yet, and can agree one."""
    app = _app_on(tmp_path)
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_PENALTIES)
        club = _stored_club(None)
        db.session.execute(
            text(
                "INSERT INTO club_player (club_id, name, name_key, created_at) SELECT id, 'Ann',"
                " 'ann', created_at FROM club WHERE edit_key = :club"
            ),
            {"club": club},
        )
        db.session.commit()
        db.session.remove()
        flask_migrate.upgrade()
        counts = db.session.execute(text("SELECT rate_club_games FROM club")).scalar_one()
        roster = db.session.execute(text("SELECT name FROM club_player")).scalars().all()
        db.session.remove()
    assert counts in (True, 1) and roster == ["Ann"]
    client = app.test_client()
    agreed = client.post(f"/clubs/{club}/penalties", data={"name": "Misdeal", "amount": "-25"})
    assert agreed.status_code == 303
    page = client.get(f"/clubs/{club}").get_data(as_text=True)
    assert 'data-penalty-setting="Misdeal"' in page and "data-rate-club-games checked" in page
    with app.app_context():
        flask_migrate.downgrade(revision=BEFORE_PENALTIES)
        roster = db.session.execute(text("SELECT name FROM club_player")).scalars().all()
        assert roster == ["Ann"]
        db.session.remove()
        db.engine.dispose()
