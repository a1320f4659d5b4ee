"""Configuration a club server relies on: where the database is and the secret key."""

from __future__ import annotations

import re
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


def test_static_files_are_cached_behind_a_content_hash(client) -> None:
    page = client.get("/").get_data(as_text=True)
    href = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', page)
    assert href, "the stylesheet link carries a version"
    response = client.get(href.group(1))
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600
    assert '<link rel="icon"' in page
