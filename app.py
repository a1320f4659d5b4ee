"""The All Fives scorekeeper's application factory: ``flask --app app run``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from scorekeeper.web import cli


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the app: configuration from the instance folder and the environment."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY="dev",
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SCOREKEEPER")
        if "DATABASE_URL" in os.environ:
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)
    cli.init_app(app)
    return app
