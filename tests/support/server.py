"""The app on a new SQLite file, served on a free port of 127.0.0.1 in a background thread."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from werkzeug.serving import make_server

from app import create_app
from scorekeeper.web.data.database import db

_migrated: list[Path] = []
"""This process's SQLite file migrated to the latest schema, once made (see
:func:`migrated_database`)."""


def _migrate_once() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    database = folder / "migrated.sqlite"
    app = create_app(
        {"SECRET_KEY": "not-secret", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
    )
    with app.app_context():
        flask_migrate.upgrade()
        db.session.remove()
        # Closing the last connection folds the write-ahead log into the file: it is whole.
        db.engine.dispose()
    assert not database.with_name(database.name + "-wal").exists(), "the migration's log is open"
    return database


def migrated_database(database: Path) -> None:
    """Make ``database`` a new SQLite file migrated to the latest schema.

    The migrations run once per process, into a file of their own; every database after that
    is a copy of that file. Running them again for each test cost a fifth of a second a test
    (hundreds of tests); ``tests/web/test_migrations.py`` runs them for real, step by step."""
    if not _migrated:
        _migrated.append(_migrate_once())
    shutil.copyfile(_migrated[0], database)


def migrated_app(database: Path, **config: Any) -> Flask:
    """The app on a new SQLite file, migrated to the latest schema, CSRF on as in production."""
    migrated_database(database)
    return create_app(
        {"SECRET_KEY": "not-secret", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", **config}
    )


ROBOT_ENTRIES = "1000 per second"
"""The one-game entry limit for a server a browser robot plays on: it enters a tile every
0.1 s, faster than the limit a real table never reaches (10 a second), which a CI run once
hit. The limits' own tests keep the defaults or set their own."""


class LiveServer:
    """The app served on a free port of 127.0.0.1 in a background thread."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)
