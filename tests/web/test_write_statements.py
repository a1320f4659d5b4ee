"""Every entry reads its game once and writes it with one conditional UPDATE.

The statements each entry form sends, counted as the database receives them: the game is read
once (its row, the replay coming from this process's cache), then the change is counted by one
``UPDATE`` of the game's row on the version that read saw, which is the stale check and the
lock at once, then its events are written. A page that fell behind writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.web.data.database import db
from tests.web.hands import finished_hand, held_fields, unsettled
from tests.web.test_adjust_score import adjust_form
from tests.web.webtable import Table, started

_WORDS = re.compile(r"^\s*(select|update|insert|delete)\b.*?\b(?:from|update|into)\s+(\w+)", re.S)


def _kind(statement: str) -> str:
    """A statement as "verb table" (the first table named): ``select game``, ``update event``."""
    lowered = statement.lower()
    if lowered.lstrip().startswith("update"):
        found = re.match(r"\s*update\s+(\w+)", lowered)
        assert found is not None
        return f"update {found.group(1)}"
    found = _WORDS.match(lowered)
    return f"{found.group(1)} {found.group(2)}" if found else lowered.split()[0]


@contextmanager
def sent(app: Flask) -> Iterator[list[str]]:
    """The statements sent while in this context, each as :func:`_kind` names it."""
    statements: list[str] = []

    def note(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        statements.append(_kind(statement))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", note)


def _rows_together(statements: list[str]) -> list[str]:
    """``statements`` with the inserts of one change's rows as one: a settlement and the hand
    it begins are one INSERT on PostgreSQL, one each on SQLite (its driver returns the ids
    of one row at a time)."""
    together: list[str] = []
    for statement in statements:
        if not (statement == "insert event" and together[-1:] == [statement]):
            together.append(statement)
    return together


def _posted(app: Flask, table: Table, action: str, data: dict[str, str]) -> list[str]:
    """The statements one entry sends; it must be stored (303)."""
    version = table.version()
    with sent(app) as statements:
        response = table.post(action, data, version)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    assert table.version() == version + 1
    return statements


READ = ["select game"]
"""The game's row, read once (its events come from the process's replay of the game)."""
COUNTED = ["update game"]
"""The change counted on the version read: the stale check and the lock."""


def _play(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table = started(client)
    return table, "play", {"tile": "5-5"}


def _call(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table = started(client, muggins="yes")
    assert table.play("5-5").status_code == 303
    return table, "call", {"called": "5"}


def _claim(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table, action, data = _call(client)
    assert table.post(action, data).status_code == 303
    return table, "muggins", {"claimant": "1"}


def _turn(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table = started(client)
    assert table.play("6-4").status_code == 303
    return table, "turn", {"west": "4"}


def _undo(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table = started(client)
    assert table.play("5-5").status_code == 303
    return table, "undo", {}


def _redo(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table, action, data = _undo(client)
    assert table.post(action, data).status_code == 303
    return table, "redo", {}


def _adjust(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table = started(client)
    _, data = adjust_form(table)
    data.update(side="1", way="down", points="10", reason="misdeal")
    data.pop("version")
    return table, "adjust", data


def _settle(client: FlaskClient) -> tuple[Table, str, dict[str, str]]:
    table, settle = unsettled(client, finished_hand("domino"))
    return table, "settle", held_fields(settle)


Entry = Callable[[FlaskClient], tuple[Table, str, dict[str, str]]]
ENTRIES: dict[str, tuple[Entry, list[str]]] = {
    "play": (_play, ["insert event"]),
    "claim": (_claim, ["insert event"]),
    "adjustment": (_adjust, ["insert event"]),
    # The settlement and the next hand it begins (a domino hand's leader is known).
    "settlement": (_settle, ["insert event"]),
    # The amended event is written over where it is: its row is known from the replay.
    "call": (_call, ["update event"]),
    "turn": (_turn, ["update event"]),
    # The entry's rows are marked undone (they stay, for the log).
    "undo": (_undo, ["update event"]),
    # What to bring back is read, then the undone rows are marked redone and stored anew.
    "redo": (_redo, ["update event", "insert event"]),
}


@pytest.mark.parametrize("name", list(ENTRIES))
def test_an_entry_reads_its_game_once_and_counts_one_change(
    app: Flask, client: FlaskClient, name: str
) -> None:
    prepare, written = ENTRIES[name]
    table, action, data = prepare(client)
    statements = _posted(app, table, action, data)
    read = ["select event"] if name == "redo" else []
    assert _rows_together(statements) == READ + read + COUNTED + written


@pytest.mark.parametrize("name", ["call", "turn", "undo", "redo"])
def test_a_stale_page_writes_nothing(app: Flask, client: FlaskClient, name: str) -> None:
    """An amendment, an undo or a redo from a page that fell behind sends no write at all:
    the game read is the one the page is shown again with (409), read once."""
    table, action, data = ENTRIES[name][0](client)
    version = table.version()
    with sent(app) as statements:
        response = table.post(action, data, version - 1)
    assert response.status_code == 409
    assert statements.count("select game") == 1, statements
    assert not [s for s in statements if not s.startswith("select")], statements
    assert table.version() == version
