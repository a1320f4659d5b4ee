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
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
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


class _CompiledTemplates(BytecodeCache):
    """The templates' compiled code, kept for every app this process makes.

    Each test makes an app of its own, and each app's Jinja environment compiled every
    template it rendered again from its source: about a third of a web test's CPU time
    (bench/README.md has the figures). Jinja keys the code by the template's name and checks
    the source's checksum, so a template edited while the tests run is compiled again."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


def fresh_app(config: dict[str, Any]) -> Flask:
    """``create_app(config)``, its templates compiled once per process (see
    :class:`_CompiledTemplates`)."""
    app = create_app(config)
    app.jinja_env.bytecode_cache = _COMPILED
    return app


def migrated_app(database: Path, **config: Any) -> Flask:
    """The app on a new SQLite file, migrated to the latest schema, CSRF on as in production."""
    migrated_database(database)
    return fresh_app(
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
