"""A table page left open for hours still takes the next entry, with CSRF protection on every
POST; when a token is refused anyway, the page comes back with a fresh one and says so.

Time is moved forward by shifting ``time.time``, which signs and checks both the session
cookie and the CSRF tokens (itsdangerous); nothing sleeps."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.webforms import form_for, press, read_forms

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the clock forward by some seconds (as the server, its signatures and checks see it)."""
    real = time.time
    shift = [0.0]
    monkeypatch.setattr(time, "time", lambda: real() + shift[0])

    def forward(seconds: float) -> None:
        shift[0] += seconds

    return forward


def start(phone: FlaskClient) -> str:
    """Start Ann v Bob through the form as a browser does; the table's URL."""
    form = form_for(phone.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    response = phone.post("/games/new", data=data)
    assert response.status_code == 303
    return response.headers["Location"].split("?")[0]


def lead_by_ann(phone: FlaskClient, url: str, page: str, htmx: bool = False) -> Any:
    """Press "Ann leads" on ``page`` (the form as it was rendered, token and all)."""
    headers = {"HX-Request": "true"} if htmx else {}
    return phone.post(f"{url}/lead", data=press(page, "/lead", value="0"), headers=headers)


def seq_of(phone: FlaskClient, url: str) -> str:
    page = phone.get(url).get_data(as_text=True)
    return page.split('data-seq="')[1].split('"')[0]


@pytest.mark.parametrize("idle", [5 * HOUR, 40 * DAY], ids=["lunch break", "forty days"])
def test_a_page_left_open_takes_the_next_entry(make_app, later, idle: float):
    phone = make_app(RATELIMIT_ENABLED=False).test_client()
    url = start(phone)
    page = phone.get(url).get_data(as_text=True)
    later(idle)
    response = lead_by_ann(phone, url, page)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert "Ann to lead" in phone.get(url).get_data(as_text=True)


def test_with_flask_wtfs_one_hour_limit_the_same_page_would_expire(make_app, later):
    phone = make_app(RATELIMIT_ENABLED=False, WTF_CSRF_TIME_LIMIT=HOUR).test_client()
    url = start(phone)
    page = phone.get(url).get_data(as_text=True)
    later(5 * HOUR)
    assert lead_by_ann(phone, url, page).status_code == 400
    assert seq_of(phone, url) == "0"


def test_the_session_cookie_lasts_a_year_and_is_not_sent_with_every_answer(make_app):
    phone = make_app(RATELIMIT_ENABLED=False).test_client()
    first = phone.get("/")
    cookie = next(c for c in first.headers.getlist("Set-Cookie") if c.startswith("session="))
    expires = parsedate_to_datetime(cookie.split("Expires=")[1].split(";")[0])
    assert expires - datetime.now(UTC) > timedelta(days=360)
    url = start(phone)
    again = phone.get(url)
    assert not [c for c in again.headers.getlist("Set-Cookie") if c.startswith("session=")]


def test_every_post_still_needs_its_token(make_app):
    phone = make_app(RATELIMIT_ENABLED=False).test_client()
    url = start(phone)
    for path in ("lead", "play", "draw", "pass", "undo", "redo", "settle", "turn", "delete"):
        response = phone.post(f"{url}/{path}", data={"version": "1", "how": "seat", "leader": "0"})
        assert response.status_code == 400, path
    assert phone.post("/games/new", data={"player1": "Eve", "player2": "Mal"}).status_code == 400
    assert phone.post("/my-games/forget", data={"key": url[-22:]}).status_code == 400
    assert seq_of(phone, url) == "0"
    assert phone.get(url).status_code == 200


def test_a_refused_token_gives_the_table_back_with_a_fresh_one(make_app):
    app = make_app(RATELIMIT_ENABLED=False)
    phone = app.test_client()
    url = start(phone)
    page = phone.get(url).get_data(as_text=True)
    # The phone's cookies are cleared (or the browser lost them) while the page stays open.
    phone.delete_cookie("session")
    refused = lead_by_ann(phone, url, page)
    assert refused.status_code == 400
    again = unescape(refused.get_data(as_text=True))
    assert "Nothing was entered: this page's security token was no longer accepted" in again
    assert 'id="table"' in again and "<html" in again
    assert seq_of(phone, url) == "0"
    response = lead_by_ann(phone, url, again)
    assert response.status_code == 303
    assert "Ann to lead" in phone.get(url).get_data(as_text=True)
    assert url in phone.get("/").get_data(as_text=True), "My games has the game again"


def test_htmx_gets_the_fresh_table_in_place(make_app):
    phone = make_app(RATELIMIT_ENABLED=False).test_client()
    url = start(phone)
    page = phone.get(url).get_data(as_text=True)
    phone.delete_cookie("session")
    refused = lead_by_ann(phone, url, page, htmx=True)
    assert refused.status_code == 400
    fragment = unescape(refused.get_data(as_text=True))
    assert fragment.startswith('<section id="table"')
    assert "HX-Retarget" not in refused.headers
    assert "security token was no longer accepted" in fragment
    assert lead_by_ann(phone, url, fragment, htmx=True).status_code == 200


def test_a_refused_new_game_keeps_what_was_typed(make_app):
    phone = make_app(RATELIMIT_ENABLED=False).test_client()
    page = phone.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", target="150")
    phone.delete_cookie("session")
    refused = phone.post("/games/new", data=data)
    assert refused.status_code == 400
    again = unescape(refused.get_data(as_text=True))
    assert "The game was not started" in again and "data-expired" in again
    fresh = next(f for f in read_forms(again) if f.action.endswith("/games/new"))
    assert (fresh.values["player1"], fresh.values["player2"], fresh.values["target"]) == (
        "Ann",
        "Bob",
        "150",
    )
    assert fresh.values["csrf_token"] != form.values["csrf_token"]
    created = phone.post("/games/new", data=fresh.data(fresh.button(name="start")))
    assert created.status_code == 303
