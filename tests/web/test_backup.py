"""``flask --app app backup PATH``: a consistent copy of the SQLite database while the app
runs and another connection writes, which the app then runs on (the restore)."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from app import create_app
from scorekeeper.web.data.database import db
from tests.web.database import OTHER_DATABASE
from tests.web.webtable import side_scores, started

sqlite_only = pytest.mark.skipif(
    OTHER_DATABASE is not None, reason="the backup command copies SQLite databases"
)


def _database(app) -> str:  # type: ignore[no-untyped-def]
    with app.app_context():
        return str(db.engine.url.database)


@sqlite_only
def test_a_backup_while_another_connection_writes_has_every_committed_game(
    app, client, runner, tmp_path: Path
):
    table = started(client)
    table.play("5-5")
    table.play("5-0", "E")
    path = _database(app)
    committed: list[int] = []
    stop = threading.Event()
    started_backup = threading.Event()

    def write() -> None:
        writer = sqlite3.connect(path, timeout=10)
        writer.execute("PRAGMA journal_mode=WAL")
        while not stop.is_set():
            cursor = writer.execute(
                "INSERT INTO game (edit_key, watch_key, version, created_at, updated_at,"
                " players, preset, options, status, redoable) VALUES (hex(randomblob(11)),"
                " hex(randomblob(11)), 1, '2026-11-25 20:00:00', '2026-11-25 20:00:00',"
                " :players, 'all-fives', '{}', 'lead', 0)",
                {"players": json.dumps(["Cy", "Di"])},
            )
            writer.commit()
            if not started_backup.is_set():
                committed.append(int(cursor.lastrowid or 0))
        writer.close()

    thread = threading.Thread(target=write)
    thread.start()
    while len(committed) < 200:
        threading.Event().wait(0.01)
    started_backup.set()
    before = list(committed)
    target = tmp_path / "backup.sqlite"
    result = runner.invoke(args=["backup", str(target)])
    stop.set()
    thread.join()
    assert result.exit_code == 0, result.output
    assert f"to {target}" in result.output

    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    ids = {row[0] for row in copy.execute("SELECT id FROM game")}
    assert set(before) <= ids, "a game committed before the backup is missing"
    assert copy.execute("SELECT count(*) FROM event").fetchone()[0] == 3
    copy.close()
    assert not Path(f"{target}-wal").exists(), "the copy is one file"

    # Restore: the app runs on the copy, the game is there as it was.
    restored = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{target}",
        }
    )
    page = restored.test_client().get(table.url).get_data(as_text=True)
    assert side_scores(page) == {"Ann": 10, "Bob": 10}
    with restored.app_context():
        db.engine.dispose()


@sqlite_only
def test_the_backup_refuses_to_overwrite_the_database_itself(app, runner):
    result = runner.invoke(args=["backup", _database(app)])
    assert result.exit_code == 1
    assert "PATH is the database itself" in result.output


def test_the_backup_refuses_postgresql_and_names_pg_dump(tmp_path: Path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": "postgresql://nobody@127.0.0.1:1/none",
        }
    )
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "x.sqlite")])
    assert result.exit_code == 1
    assert "pg_dump" in result.output and "not SQLite" in result.output
    assert not (tmp_path / "x.sqlite").exists()
