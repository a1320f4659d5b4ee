"""Whatever a phone or a file sends, the app answers without a 5xx or a traceback, and a
refused entry stores nothing.

Property-based (hypothesis): random and malformed values (huge, any unicode, control
characters, NUL bytes, bytes that are not UTF-8, the bytes of a lone surrogate, numbers out
of range, repeated and missing fields) go to every POST route, and mutated game records to
the import form and to ``flask --app app replay``, which must exit 0 or 1 and print JSON.

Fast by default (about 20 s); ``SCOREKEEPER_FUZZ=thorough`` runs thirty times as many
examples (many minutes), ``SCOREKEEPER_FUZZ=500`` 500 examples of each test.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.rules import Game
from scorekeeper.rules.record import write_record
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import EventRow, GameRow
from scorekeeper.web.table.forms import HOUSE_RULE_FIELDS, SEATS
from tests.support.clubtable import simulated_game
from tests.web.webforms import form_for
from tests.web.webtable import Table, import_record

_QUICK = {"web": 60, "import": 60, "replay": 500}
_THOROUGH = {"web": 2000, "import": 2000, "replay": 20000}
EXAMPLES = _THOROUGH if os.environ.get("SCOREKEEPER_FUZZ") == "thorough" else _QUICK
if os.environ.get("SCOREKEEPER_FUZZ", "").isdigit():  # one number of examples for every test
    EXAMPLES = dict.fromkeys(_QUICK, int(os.environ["SCOREKEEPER_FUZZ"]))


def fuzz(kind: str) -> settings:
    """The hypothesis settings for one kind of fuzz test (examples as the profile says)."""
    return settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )


SPECIMENS = [
    "", " ", "0", "-1", "1e9", "NaN", "9" * 30, "2147483648", "9223372036854775808",
    "\x00", "Ann\x00", "\ud800", "\udfff", "a\ud83dz", "\u202eevil", "\ufeff", "\r\n\t",
    "=HYPERLINK(\"http://x.example\",\"a\")", "<script>alert(1)</script>", "{{7*7}}",
    "6-4", "4-6", "6-6", "7-7", "6:4", "64", "W", "E", "N", "S", "6-6:N", "x" * 300,
    "é" * 201, "0,1", "0,1,2,3,4", "draw", "seat", "random", "table", "lot", "y" * 70_000,
]  # fmt: skip
"""Values known to break apps: out-of-range numbers, NUL, lone surrogates, formulas, huge."""

TEXT = st.one_of(
    st.sampled_from(SPECIMENS),
    st.text(max_size=40),
    st.text(st.characters(codec=None, categories=["Cc", "Cs", "Co", "Zl", "Zp"]), max_size=8),
    st.integers().map(str),
)
VALUE: st.SearchStrategy[str | bytes] = st.one_of(TEXT, st.binary(max_size=24))
"""A form value: text (sent as UTF-8, surrogates as their raw bytes) or any bytes at all."""

ENTRY_FIELDS = [
    "seq", "version", "tile", "end", "west", "how", "leader", "among", "key", "record", "text",
    *(f"{prefix}-{seat}" for prefix in ("held", "tiles", "drawn") for seat in range(9)),
]  # fmt: skip
NEW_GAME_FIELDS = [
    *SEATS, "preset", "partners", "target", "leader",
    "filled", "load", "start", *HOUSE_RULE_FIELDS,
]  # fmt: skip
ACTIONS = ["play", "turn", "draw", "pass", "undo", "settle", "lead", "delete", "restore",
           "rematch"]  # fmt: skip
CURRENT = "<the page's token>"
"""Sent as the token the page carries, so that the entry gets past the stale-page check."""
TOKEN = re.compile(r'<input type="hidden" name="(seq|version)" value="([^"]+)"')


def _encoded(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


def form_body(pairs: list[tuple[str, str | bytes]]) -> bytes:
    """An application/x-www-form-urlencoded body of ``pairs``, byte for byte as given."""
    return b"&".join(
        quote_from_bytes(_encoded(name)).encode()
        + b"="
        + quote_from_bytes(_encoded(value)).encode()
        for name, value in pairs
    )


def fields(names: list[str]) -> st.SearchStrategy[list[tuple[str, str | bytes]]]:
    """Some of ``names`` (repeated, missing, or an unknown name) with any values."""
    name = st.one_of(st.sampled_from(names), st.text(max_size=10))
    return st.lists(st.tuples(name, VALUE), max_size=8)


def fingerprint(app: Flask) -> tuple[int, int, int]:
    """What is stored: the number of games, of events, and the sum of the games' versions."""
    with app.app_context():
        try:
            games = db.session.scalar(select(func.count()).select_from(GameRow))
            events = db.session.scalar(select(func.count()).select_from(EventRow))
            versions = db.session.scalar(select(func.coalesce(func.sum(GameRow.version), 0)))
        finally:
            db.session.remove()
    return int(games or 0), int(events or 0), int(versions or 0)


def assert_answered(response: Any) -> None:
    """No 5xx and nothing that looks like a traceback in what the server sent."""
    body = response.get_data(as_text=True)
    assert response.status_code < 500, body[:2000]
    assert "Traceback" not in body and 'File "' not in body, body[:2000]


def _game_at(setup_events: tuple[Any, list[Any]], stop: int) -> dict[str, Any]:
    setup, events = setup_events
    return write_record(Game(setup, events[:stop]))


@pytest.fixture
def tables(client: FlaskClient) -> list[Table]:
    """Games to send things to: choosing a leader, in play, being settled, and finished."""
    setup, events, entries = simulated_game(1, max_hands=30)
    settle = next(entry for entry in entries if entry.action == "settle")
    records = [
        _game_at((setup, events), 0),
        _game_at((setup, events), settle.before - 3),
        _game_at((setup, events), settle.before),
        _game_at((setup, events), len(events)),
    ]
    return [import_record(client, record) for record in records]


@fuzz("web")
@given(
    which=st.integers(0, 3),
    action=st.sampled_from(ACTIONS),
    sent=fields(ENTRY_FIELDS),
    seq=st.one_of(st.just(CURRENT), VALUE, st.none()),
    htmx=st.booleans(),
)
def test_no_entry_gets_a_5xx_and_a_refused_one_stores_nothing(
    app: Flask,
    client: FlaskClient,
    tables: list[Table],
    which: int,
    action: str,
    sent: list[tuple[str, str | bytes]],
    seq: str | bytes | None,
    htmx: bool,
) -> None:
    table = tables[which]
    if client.get(table.url).status_code == 404:  # deleted by an earlier example
        client.post(f"{table.url}/restore")
    pairs = list(sent)
    if seq is not None:
        found = TOKEN.search(table.page())
        name, current = found.groups() if found else ("version", "0")
        pairs.insert(0, (name, current if seq == CURRENT else seq))
    before = fingerprint(app)
    response = client.post(
        f"{table.url}/{action}",
        data=form_body(pairs),
        content_type="application/x-www-form-urlencoded",
        headers={"HX-Request": "true"} if htmx else {},
    )
    assert_answered(response)
    if response.status_code >= 400:
        assert fingerprint(app) == before, (action, pairs, response.status_code)


@fuzz("web")
@given(sent=fields(NEW_GAME_FIELDS), htmx=st.booleans(), on_valid=st.booleans())
def test_no_new_game_form_gets_a_5xx_and_a_refused_one_stores_nothing(
    app: Flask,
    client: FlaskClient,
    sent: list[tuple[str, str | bytes]],
    htmx: bool,
    on_valid: bool,
) -> None:
    if on_valid:  # the form as a browser sends it, with the values drawn typed over it
        page = client.get("/games/new").get_data(as_text=True)
        valid = form_for(page, "/games/new").data(player1="Ann", player2="Bob", start="")
        valid.pop("load", None)
        drawn = dict(sent)
        sent = [(k, v) for k, v in valid.items() if k not in drawn] + sent
    before = fingerprint(app)
    response = client.post(
        "/games/new",
        data=form_body(sent),
        content_type="application/x-www-form-urlencoded",
        headers={"HX-Request": "true"} if htmx else {},
    )
    assert_answered(response)
    if response.status_code >= 400:
        assert fingerprint(app) == before, (sent, response.status_code)
    elif response.status_code == 303:  # a game was started: its table opens
        assert_answered(client.get(response.headers["Location"]))


@fuzz("web")
@given(sent=fields(["key"]))
def test_forgetting_anything_is_no_5xx(client: FlaskClient, sent: list[tuple[str, Any]]) -> None:
    response = client.post(
        "/my-games/forget", data=form_body(sent), content_type="application/x-www-form-urlencoded"
    )
    assert_answered(response)


# -- game records --------------------------------------------------------------------------

JSON_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**31 - 2, max_value=2**70),
    st.floats(),
    TEXT,
)
JSON_VALUE = st.recursive(
    JSON_SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
_BASE_RECORDS = [_game_at(simulated_game(seed, max_hands=2)[:2], 10**6) for seed in range(6)]


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _places(inner, (*path, index))


@st.composite
def mutated_records(draw: st.DrawFn) -> str | bytes:
    """A real game record with a few values replaced, removed or added, or its text damaged."""
    record = copy.deepcopy(draw(st.sampled_from(_BASE_RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(record))
        path = draw(st.sampled_from(places))
        if not path:
            continue
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        how = draw(st.sampled_from(["replace", "remove", "add"]))
        if how == "replace":
            parent[path[-1]] = draw(JSON_VALUE)
        elif how == "remove":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(TEXT)] = draw(JSON_VALUE)
        else:
            parent.insert(draw(st.integers(0, len(parent))), draw(JSON_VALUE))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()), allow_nan=True)
    damage = draw(st.sampled_from(["none", "none", "cut", "bytes", "duplicate"]))
    if damage == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if damage == "bytes":
        raw = bytearray(_encoded(text))
        for _ in range(draw(st.integers(1, 4))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        return bytes(raw)
    if damage == "duplicate":
        return text.replace('"players"', '"players": [], "players"', 1)
    return text


@fuzz("replay")
@given(record=mutated_records())
def test_replay_answers_every_record_with_json_and_0_or_1(
    runner: FlaskCliRunner, record: str | bytes
) -> None:
    result = runner.invoke(args=["replay", "-"], input=_encoded(record))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1), result.output
    answer = json.loads(result.stdout)
    assert answer["ok"] is (result.exit_code == 0) if "ok" in answer else result.exit_code == 0


@fuzz("import")
@given(record=mutated_records(), as_file=st.booleans())
def test_importing_any_record_is_no_5xx_and_a_refused_one_stores_nothing(
    app: Flask, client: FlaskClient, record: str | bytes, as_file: bool
) -> None:
    before = fingerprint(app)
    body = _encoded(record)
    if as_file:
        response = client.post(
            "/games/import",
            data={"record": (io.BytesIO(body), "game.json")},
            content_type="multipart/form-data",
        )
    else:
        response = client.post(
            "/games/import",
            data=form_body([("text", body)]),
            content_type="application/x-www-form-urlencoded",
        )
    assert_answered(response)
    if response.status_code >= 400 or response.status_code == 200:
        # Refused, or the house rules it leaves out listed for the table to confirm.
        assert fingerprint(app) == before, (record, response.status_code)
    else:
        assert response.status_code == 303
        assert_answered(client.get(response.headers["Location"]))
