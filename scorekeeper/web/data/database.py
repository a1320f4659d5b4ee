"""The Flask extensions, created unbound and attached to the app in ``create_app``."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import ScriptInfo
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Connection, event
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of every model.

    Models subclass it rather than ``db.Model``, which a type checker cannot see as a class:
    ``db.Model`` is made from this class and shares its metadata and registry, so the tables,
    the session and the migrations are the same either way.
    """


# A committed game row keeps the values just written (expire_on_commit=False): the answer to
# an entry is rendered from it after the commit, and expiring it would read the row again.
# Every change takes the game's row under its write lock first (populate_existing on
# SQLite, FOR UPDATE elsewhere), so what a request writes never rests on a stale copy.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
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


def _migrations(app: Flask) -> Any:
    """Flask-Migrate attached to ``app``, imported (with alembic) the first time it is needed."""
    from flask_migrate import Migrate

    Migrate(app, db, directory=app.config.get("MIGRATIONS_DIRECTORY", "migrations"))
    return app.extensions["migrate"]


class LazyMigrations:
    """Stands for Flask-Migrate in ``app.extensions`` until it is used.

    Importing Flask-Migrate imports alembic, a good part of the app's start-up, which the pages
    and most commands never use. The first use (``flask db ...``, ``flask_migrate.upgrade()``)
    attaches the real thing in its place.
    """

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(_migrations(self.app), name)


@click.command(
    "db",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.pass_context
def migrate_commands(ctx: click.Context) -> None:
    """Perform database migrations (Flask-Migrate's commands, loaded when first used)."""
    app = ctx.ensure_object(ScriptInfo).load_app()
    if isinstance(app.extensions.get("migrate"), LazyMigrations):
        _migrations(app)
    # Attaching Flask-Migrate put its own "db" group in this command's place: run that.
    commands = app.cli.commands["db"]
    if commands is migrate_commands:
        raise click.ClickException("Flask-Migrate did not register its commands.")
    commands.main(args=ctx.args, prog_name=ctx.command_path, obj=ctx.obj)


_FIRST_PAUSE, _LONGEST_PAUSE = 0.0005, 0.005


def in_driver_transaction(connection: Connection) -> bool:
    """Whether the database driver has a transaction open on ``connection`` (on SQLite, a
    statement that wrote or an explicit BEGIN; a finished read leaves none)."""
    return bool(getattr(connection.connection.driver_connection, "in_transaction", True))


def begin_immediate(connection: Connection) -> None:
    """``BEGIN IMMEDIATE`` on SQLite: take the write lock now, waiting while another process
    holds it, at most the busy timeout (then the error: the request is answered 503).

    SQLite's own wait (its busy timeout) sleeps inside the driver in steps of up to 100 ms,
    and under the gevent worker that sleep stops every request of the process, not just this
    one: a write of another process would hold every table this process serves.
    So the lock is asked for without SQLite's wait, and between tries this request sleeps
    the way the server lets others run (a few milliseconds at most; writes hold the lock for
    about one). The connection's busy timeout is set back for every other statement.

    The three statements go straight to the driver (every entry runs them); the last try,
    when the wait is over, goes through SQLAlchemy, so that its error is the one the site
    answers 503 for, as for any other statement.
    """
    patience = current_app.config.get("SQLITE_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS) / 1000
    driver = connection.connection.driver_connection
    assert driver is not None, "a checked-out connection has its driver's"
    driver.execute("PRAGMA busy_timeout = 0")
    try:
        deadline, pause = time.monotonic() + patience, _FIRST_PAUSE
        while time.monotonic() < deadline:
            try:
                driver.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error):
                    raise
            time.sleep(pause)
            pause = min(pause * 2, _LONGEST_PAUSE)
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        driver.execute(f"PRAGMA busy_timeout = {int(patience * 1000)}")


def init_app(app: Flask) -> None:
    """Attach the database, migrations (lazily) and CSRF protection to ``app``."""
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        # A database server that restarted has closed every pooled connection: each is
        # checked as it is taken (a round trip) and a dead one replaced, instead of the first
        # request of each worker failing with 503.
        options = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {})
        options.setdefault("pool_pre_ping", True)
    db.init_app(app)
    app.extensions["migrate"] = LazyMigrations(app)
    app.cli.add_command(migrate_commands)
    csrf.init_app(app)
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            timeout = app.config.get("SQLITE_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)
            event.listen(engine, "connect", _sqlite_pragmas(timeout))
