"""The database the web tests run on: a new SQLite file, or the server named by
``SCOREKEEPER_TEST_DATABASE_URL`` (PostgreSQL under .ci/run), emptied before each test; under
pytest-xdist a database of each process's own on that server."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import MetaData, create_engine, text
from sqlalchemy.engine import Engine, make_url


def _own_database(url: str | None) -> str | None:
    """Under pytest-xdist, a PostgreSQL database of this process's own beside the one named
    (``scorekeeper_test_gw0`` for ``scorekeeper_test``), made when missing: each test empties
    and migrates its database, which two processes cannot share."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    named = make_url(url)
    if not named.drivername.startswith("postgres"):
        return url
    own = f"{named.database}_{worker}"
    server = create_engine(
        named.set(drivername="postgresql+psycopg", database="postgres"),
        isolation_level="AUTOCOMMIT",
    )
    try:
        with server.connect() as connection:
            found = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own}
            ).scalar()
            if not found:
                connection.execute(text(f'CREATE DATABASE "{own}"'))
    finally:
        server.dispose()
    return named.set(database=own).render_as_string(hide_password=False)


OTHER_DATABASE = _own_database(os.environ.get("SCOREKEEPER_TEST_DATABASE_URL"))
"""Run the web tests on another database (e.g. PostgreSQL) instead of a new SQLite file."""


def database_uri(path: Path) -> str:
    """The other database when one is named, else a new SQLite file at ``path``."""
    return OTHER_DATABASE or f"sqlite:///{path}"


def empty(engine: Engine) -> None:
    """Drop every table (and on PostgreSQL the trigger's function), so that a test starts
    from the first migration."""
    meta = MetaData()
    meta.reflect(bind=engine)
    meta.drop_all(bind=engine)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("DROP FUNCTION IF EXISTS scorekeeper_game_changed()"))


def app_settings(uri: str, **more: object) -> dict[str, object]:
    """The settings of a web test's app on database ``uri``: testing, no CSRF and no rate
    limits (the tests enter whole games faster than any table; the security tests make their
    own apps with both on), and ``more`` on top."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": uri,
        **more,
    }
