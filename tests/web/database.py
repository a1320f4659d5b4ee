"""The database the web tests run on: a new SQLite file, or the server named by
``SCOREKEEPER_TEST_DATABASE_URL`` (PostgreSQL under .ci/run), emptied before each test."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import MetaData
from sqlalchemy.engine import Engine

OTHER_DATABASE = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
"""Run the web tests on another database (e.g. PostgreSQL) instead of a new SQLite file."""


def database_uri(path: Path) -> str:
    """The other database when one is named, else a new SQLite file at ``path``."""
    return OTHER_DATABASE or f"sqlite:///{path}"


def empty(engine: Engine) -> None:
    """Drop every table, so that a test starts from the first migration."""
    meta = MetaData()
    meta.reflect(bind=engine)
    meta.drop_all(bind=engine)
