"""Configuration a club server relies on: where the database is and the secret key."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import create_app


@pytest.mark.parametrize(
    "given",
    ["postgres://club:pw@db.example/scores", "postgresql://club:pw@db.example/scores"],
)
def test_a_postgresql_url_uses_the_shipped_driver(
    given: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", given)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-the-environment")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://club:pw@db.example/scores"
    assert app.config["SECRET_KEY"] == "from-the-environment"


def test_sqlite_in_the_instance_folder_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "x")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite:///")
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("instance/scorekeeper.sqlite")
