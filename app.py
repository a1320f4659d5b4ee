"""The All Fives scorekeeper's application factory: ``flask --app app run``."""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from collections.abc import Mapping
from datetime import timedelta
from functools import lru_cache
from typing import Any

from flask import Flask
from sqlalchemy.engine import make_url

from scorekeeper.web import htmx, languages, paper, rendered, sharing, table
from scorekeeper.web.clubs import pages as clubs
from scorekeeper.web.data import changes, database, doors, replayed
from scorekeeper.web.drawing import charts, dominoes, fragments
from scorekeeper.web.nights import board as night_board
from scorekeeper.web.nights import pages as nights
from scorekeeper.web.nights import records as night_records
from scorekeeper.web.routes import SiteRequest, SiteRule
from scorekeeper.web.site import (
    cli,
    compression,
    errors,
    expired,
    pwa,
    ratelimits,
    security,
    templating,
    times,
)

ROOMS = (
    # Site-wide checks first, so every POST is counted and checked before CSRF and the views.
    security,
    ratelimits,
    compression,
    # The stored data and the shared leaves every page stands on.
    database,
    changes,
    replayed,
    languages,
    doors,
    htmx,
    charts,
    dominoes,
    fragments,
    rendered,
    # The areas: the table, clubs, club nights, paper, sharing and the live view.
    table,
    clubs,
    nights,
    night_board,
    night_records,
    paper,
    sharing,
    # Site-wide concerns on top.
    pwa,
    errors,
    expired,
    cli,
    times,
)
"""Every room of the site that attaches itself to the app, in the order it does: each one
the same way, by its ``init_app(app)``."""
MAX_BODY = 1024 * 1024
OWNER_ONLY = stat.S_IRUSR | stat.S_IWUSR


def _database_url(url: str) -> str:
    """SQLAlchemy's spelling of a database URL: PostgreSQL through psycopg 3.

    ``postgres://`` (an old alias, still given by some hosts) and ``postgresql://`` both
    name the psycopg driver that the ``postgres`` extra installs.
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def _ensure_secret_key(app: Flask) -> None:
    """Write a random SECRET_KEY into instance/config.py once, so sessions survive restarts.

    The file is made readable by its owner only (0600), and so is one that was there before.
    """
    if app.config.get("SECRET_KEY"):
        return
    key = secrets.token_hex(32)
    path = os.path.join(app.instance_path, "config.py")
    # Created 0600 (never readable by others, not even for a moment); an older file tightened.
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, OWNER_ONLY)
    os.chmod(path, OWNER_ONLY)
    with os.fdopen(descriptor, "a", encoding="utf-8") as config:
        config.write(f"\n# Written on first run; keep it secret.\nSECRET_KEY = {key!r}\n")
    app.config["SECRET_KEY"] = key


def _private_sqlite_file(app: Flask) -> None:
    """Create a new SQLite database file readable by its owner only (0600).

    It holds every game's edit and watch keys, the secrets behind the links. SQLite gives its
    ``-wal`` and ``-shm`` files the database file's mode; an existing file is left as it is.
    """
    parsed = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path.startswith((":memory:", "file:")):
        return
    # Flask-SQLAlchemy reads a relative SQLite path from the instance folder.
    path = os.path.join(app.instance_path, path)
    if os.path.exists(path):
        return
    with contextlib.suppress(OSError):  # a folder that is missing is SQLite's error to report
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))


@lru_cache(maxsize=256)
def _file_version(path: str, modified: float) -> str:
    """A short hash of a static file's content as it was when last ``modified``."""
    with open(path, "rb") as static_file:
        return hashlib.sha256(static_file.read()).hexdigest()[:12]


def _versioned_static(app: Flask) -> None:
    """Static URLs carry a hash of the file's content, so browsers may keep them a year."""

    @app.url_defaults
    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint != "static" or "filename" not in values or "v" in values:
            return
        path = os.path.join(app.static_folder or "", values["filename"])
        try:
            modified = os.path.getmtime(path)
        except OSError:
            return
        values["v"] = _file_version(path, modified)


def _private_instance_folder(path: str) -> None:
    """The instance folder holds the database and the secret key: its owner's alone (0700),
    when new and also when a checkout made it 0755, if this process owns it."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    folder = os.stat(path)
    if folder.st_uid == os.getuid() and folder.st_mode & 0o077:
        os.chmod(path, 0o700)


class Site(Flask):
    """Flask, with the site's own kinds of request, URL rule and template environment."""

    request_class = SiteRequest  # each route's own body limit (routes.Route.max_body)
    url_rule_class = SiteRule  # URL builders compiled once per process (routes.SiteRule)
    jinja_environment = templating.Environment


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the app: configuration from the instance folder and the environment."""
    app = Site(
        __name__,
        instance_relative_config=True,
        template_folder="templates",
        static_folder="static",
    )
    _private_instance_folder(app.instance_path)
    app.config.from_mapping(
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
        MIGRATIONS_DIRECTORY=os.path.join(app.root_path, "migrations"),
        # A page left open for hours (a long game, a lunch break) still takes the next entry:
        # CSRF tokens do not expire by age (Flask-WTF's default is an hour); each is bound to
        # the session's secret instead, and the session cookie lasts (see security.py).
        WTF_CSRF_TIME_LIMIT=None,
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
        if "DATABASE_URL" in os.environ:
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        _ensure_secret_key(app)
    else:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    _private_sqlite_file(app)
    _versioned_static(app)
    # {% do %}: a template can fill a list once before a loop (the sheet's words per side).
    app.jinja_env.add_extension("jinja2.ext.do")
    for room in ROOMS:
        room.init_app(app)
    return app
