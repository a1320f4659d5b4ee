"""The app on a new SQLite file, served on a free port of 127.0.0.1 in a background thread."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from werkzeug.serving import make_server

from app import create_app


def migrated_app(database: Path, **config: Any) -> Flask:
    """The app on a new SQLite file, migrated to the latest schema, CSRF on as in production.

    The robot enters a tile every 0.1 s, faster than the one-game entry limit a table never
    reaches (10 a second): the limit is raised here, and a test of the limit sets its own."""
    app = create_app(
        {
            "SECRET_KEY": "not-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "RATELIMIT_ENTRIES": "1000 per second",
            **config,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


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
