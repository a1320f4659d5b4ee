"""Fixtures for the web layer: an app on a fresh database migrated to the latest schema, its
test client and CLI runner, and a factory of apps with settings of their own.

A fresh SQLite database is a copy of one the migrations made once per process
(``tests.support.server.migrated_database``); another database named by
``SCOREKEEPER_TEST_DATABASE_URL`` is emptied and migrated for every test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.web.data.database import db
from tests.support.server import fresh_app, migrated_app, migrated_database
from tests.web.database import OTHER_DATABASE, app_settings, database_uri, empty


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a new database (SQLite in ``tmp_path``), schema made by the migrations.

    Rate limits are off: these tests enter whole games far faster than any table could
    (test_security.py runs its own apps with the limits on)."""
    if not OTHER_DATABASE:
        migrated_database(tmp_path / "test.sqlite")
    app = fresh_app(app_settings(database_uri(tmp_path / "test.sqlite")))
    if OTHER_DATABASE:
        with app.app_context():
            empty(db.engine)
            flask_migrate.upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The ``flask`` command line."""
    return app.test_cli_runner()


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """A factory: an app with ``config`` on top of the test settings, each on a new SQLite file
    migrated to the latest schema; CSRF protection and rate limits on, as in production, unless
    ``config`` turns them off."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        database = tmp_path / f"app-{len(made)}.sqlite"
        app = migrated_app(database, TESTING=True, **config)
        made.append(app)
        return app

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
