"""Fixtures for the web layer: an app on a fresh SQLite file migrated to the latest schema,
its test client and CLI runner, and a ``Table`` helper that uses a game as a browser does."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import MetaData
from sqlalchemy.engine import Engine

from app import create_app
from scorekeeper.web import extensions

#: Run the web tests on another database (e.g. PostgreSQL) instead of a new SQLite file.
OTHER_DATABASE = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a new database (SQLite in ``tmp_path``), schema made by the migrations.

    Rate limits are off: these tests enter whole games far faster than any table could
    (test_security.py runs its own apps with the limits on)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": OTHER_DATABASE or f"sqlite:///{tmp_path / 'test.sqlite'}",
        }
    )
    with app.app_context():
        if OTHER_DATABASE:
            _empty(extensions.db.engine)
        flask_migrate.upgrade()
    yield app
    with app.app_context():
        extensions.db.session.remove()
        extensions.db.engine.dispose()


def _empty(engine: Engine) -> None:
    """Drop every table, so each test starts from the first migration."""
    meta = MetaData()
    meta.reflect(bind=engine)
    meta.drop_all(bind=engine)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The ``flask`` command line."""
    return app.test_cli_runner()
