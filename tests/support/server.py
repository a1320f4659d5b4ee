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
    """The app on a new SQLite file, migrated to the latest schema, CSRF on as in production."""
    app = create_app(
        {"SECRET_KEY": "not-secret", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", **config}
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


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
