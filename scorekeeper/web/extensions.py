"""The Flask extensions, created unbound and attached to the app in ``create_app``."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of every model."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA synchronous=NORMAL",
)
BUSY_TIMEOUT_MS = 5000
"""How long a write waits for SQLite's write lock before "database is locked" (the setting
``SQLITE_BUSY_TIMEOUT_MS``); the request is then answered 503, to be sent again."""


def _sqlite_pragmas(busy_timeout_ms: int) -> Any:
    """The connect hook that sets the pragmas every SQLite connection needs (WAL, foreign
    keys, a busy timeout)."""

    def set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in (*SQLITE_PRAGMAS, f"PRAGMA busy_timeout={int(busy_timeout_ms)}"):
            cursor.execute(pragma)
        cursor.close()

    return set_pragmas


def init_app(app: Flask) -> None:
    """Attach the database, migrations and CSRF protection to ``app``."""
    db.init_app(app)
    migrate.init_app(app, db, directory=app.config.get("MIGRATIONS_DIRECTORY", "migrations"))
    csrf.init_app(app)
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            timeout = app.config.get("SQLITE_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)
            event.listen(engine, "connect", _sqlite_pragmas(timeout))
