"""Whatever body, of whatever content type, is sent to any of the site's forms, and whatever is
put in a page's query: a 4xx or a page, never a 500, and nothing stored by a refusal. Huge
integers (Python refuses to read more than 4,300 digits), control characters, JSON that is not
an object, and bodies that claim to be JSON and are not."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import Refusal
from scorekeeper.rules.record import load_record
from tests.web.webforms import form_for
from tests.web.webtable import Table, new_game

HUGE = "9" * 5000
"""An integer longer than Python reads from text by default (4,300 digits)."""

CONTENT_TYPES = st.sampled_from(
    [
        "application/json",
        "application/json; charset=utf-8",
        "application/x-www-form-urlencoded",
        "text/plain",
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "",
    ]
)
TEXTS = st.one_of(
    st.sampled_from(
        [
            "not json",
            "[1, 2]",
            '"a string"',
            "null",
            "{" * 3000,
            f'{{"version": {HUGE}}}',
            f'{{"player1": "Ann", "player2": "Bob", "target": {HUGE}}}',
            f"version={HUGE}&tile=6-6",
            f"player1=Ann&player2=Bob&target={HUGE}",
            '{"player1": ["Ann"], "player2": {"a": 1}}',
            "version=1&tile=%00%01&end=\r\n",
        ]
    ),
    st.text(max_size=200),
)
QUERY_VALUES = st.one_of(
    st.sampled_from([HUGE, "-1", "\x00", "\r\n", "%0a", "1e400", "NaN", "../..", " "]),
    st.text(max_size=40),
)


@pytest.fixture
def served(make_app: Callable[..., Flask]) -> tuple[FlaskClient, list[str]]:
    """A client of the app as served (form tokens checked), and every POST address of the
    site, for a game and a club it made through the site's forms. (Made once per test: the
    fixture is shared by all of a test's examples.)"""
    client = make_app(WTF_CSRF_ENABLED=True, RATELIMIT_ENABLED=False).test_client()
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    made = client.post(
        "/games/new",
        data=form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table"),
    )
    assert made.status_code == 303, made.status_code
    game = made.headers["Location"].split("?")[0]
    club_form = form_for(client.get("/clubs/new").get_data(as_text=True), "/clubs/new")
    club = client.post("/clubs/new", data=club_form.data(name="C"))
    assert club.status_code == 303
    club_path = club.headers["Location"]
    tails = ["play", "draw", "pass", "undo", "redo", "settle", "lead", "turn", "rematch", "delete",
             "call", "muggins", "adjust"]  # fmt: skip
    posts = [
        "/games/new",
        "/games/import",
        "/clubs/new",
        "/games/forget",
        *(f"{game}/{tail}" for tail in tails),
        *(f"{club_path}/{tail}" for tail in ("new", "import", "games", "players/add",
                                             "players/rename", "players/merge")),
    ]  # fmt: skip
    return client, posts


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_no_body_of_any_type_is_a_500(served: tuple[FlaskClient, list[str]], data: Any) -> None:
    client, posts = served
    path = data.draw(st.sampled_from(posts))
    body = data.draw(TEXTS)
    kind = data.draw(CONTENT_TYPES)
    headers = {"Content-Type": kind} if kind else {}
    response = client.post(path, data=body.encode("utf-8", "surrogatepass"), headers=headers)
    assert response.status_code < 500, (path, kind, body[:80])


@pytest.mark.parametrize("kind", ["application/json", "application/json; charset=utf-8"])
@pytest.mark.parametrize("body", ["not json", "[1, 2]", '"x"', f'{{"a": {HUGE}}}'])
def test_a_new_game_sent_as_json_is_refused_as_a_form_without_its_token(
    served: tuple[FlaskClient, list[str]], kind: str, body: str
) -> None:
    """The site's forms are forms: a JSON body is not read as one (Flask-WTF did, and a body
    that was not a JSON object broke the form inside the page refusing it: a 500)."""
    client, _ = served
    response = client.post("/games/new", data=body, headers={"Content-Type": kind})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)


def test_a_record_with_a_huge_integer_is_refused_with_its_rule() -> None:
    record = json.dumps({"format": "all-fives/1", "players": ["Ann", "Bob"]})
    huge = record[:-1] + f', "target": {HUGE}}}'
    with pytest.raises(Refusal) as refused:
        load_record(huge)
    assert refused.value.rule == "record"
    assert "5000 digits" in str(refused.value)


@pytest.fixture
def played(client: FlaskClient) -> Table:
    """A game of two, hand 1 under way (made once per test, shared by its examples)."""
    return new_game(client, ["Ann", "Bob"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["", "/log", "/sheet", "/sheet.csv", "/rules", "/record.json", "/board"]),
    name=st.sampled_from(["hand", "open", "lang", "selected", "board", "lead", "next", "v"]),
    value=QUERY_VALUES,
)
def test_no_query_value_is_a_500(
    played: Table, client: FlaskClient, path: str, name: str, value: str
) -> None:
    response = client.get(played.url + path, query_string={name: value})
    assert response.status_code < 500, (path, name, value[:40])


@pytest.fixture
def club_paths(client: FlaskClient) -> list[str]:
    """The pages of the site outside a game: its own, a club's (edit and watch links)."""
    club = client.post("/clubs/new", data={"name": "C"}).headers["Location"]
    page = client.get(club).get_data(as_text=True)
    watch = re.search(r"/clubs/watch/[A-Za-z0-9_-]{22}", page)
    assert watch is not None
    return [
        "/", "/rules", "/games/new", "/games/import", "/clubs/new", "/sheets/blank", "/offline",
        club, f"{club}/players", f"{club}/new", f"{club}/import", f"{club}/games.csv",
        watch.group(0), f"{watch.group(0)}/players",
    ]  # fmt: skip


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    name=st.sampled_from(["sides", "preset", "players", "lang", "next", "hand", "page", "q", "v"]),
    value=QUERY_VALUES,
)
def test_no_query_value_on_any_page_is_a_500(
    client: FlaskClient, club_paths: list[str], data: Any, name: str, value: str
) -> None:
    path = data.draw(st.sampled_from(club_paths))
    response = client.get(path, query_string={name: value})
    assert response.status_code < 500, (path, name, value[:40])
