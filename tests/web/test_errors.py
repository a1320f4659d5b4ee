"""Client errors get clear 4xx pages (or fragments for htmx), never a 500."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.server import migrated_app
from tests.web.test_clubs import new_club
from tests.web.webtable import NO_KEY, new_game, page_seq


def test_unknown_page_and_game_are_404_pages(client):
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert "Not found" in response.get_data(as_text=True)
    response = client.get(f"/games/{NO_KEY}")
    assert response.status_code == 404
    assert "There is no game at this link" in response.get_data(as_text=True)
    assert client.get(f"/games/{NO_KEY}/record.json").status_code == 404
    assert client.get("/games/1").status_code == 404


def test_a_missing_club_or_night_says_which_is_missing(client):
    """A page that knows why it found nothing says so, in place of the site's general 404."""
    response = client.get(f"/clubs/{NO_KEY}")
    assert response.status_code == 404
    assert "There is no club at this link" in response.get_data(as_text=True)
    club = new_club(client)
    response = client.get(f"{club}/nights/999")
    assert response.status_code == 404
    assert "This club has no such night" in response.get_data(as_text=True)


def test_wrong_method_is_405(client):
    table = new_game(client, ["Ann", "Bob"])
    response = client.get(f"{table.url}/play")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert client.put("/games/new").status_code == 405


def test_oversized_body_is_413(client):
    response = client.post("/games/import", data={"text": "x" * (1024 * 1024 + 10)})
    assert response.status_code == 413
    assert "larger than 1 MB" in response.get_data(as_text=True)


def test_a_body_past_the_limit_is_refused_unread_and_says_close(client):
    """Its length says it is too large: nothing reads it (the server would read it to its end
    to find the next request), and the connection is closed after the 413. A POST on a watch
    link, which no view reads, is refused the same way."""
    for path in ("/games/import", f"/watch/{NO_KEY}"):
        unread = io.BytesIO(b"x" * 10)
        huge = {"CONTENT_LENGTH": str(300 * 2**20)}
        response = client.post(path, input_stream=unread, environ_overrides=huge)
        assert response.status_code == 413 and response.headers["Connection"] == "close"
        assert unread.tell() == 0


def test_a_chunked_body_is_read_to_the_limit_and_no_further(client, tmp_path):
    """A body sent in chunks says no length: it is read up to the route's limit, refused past
    it (before the form token's check, which would read it all), and handed to the view whole
    below it."""
    chunked = {"Transfer-Encoding": "chunked", "Content-Type": "application/x-www-form-urlencoded"}
    for phone in (client, migrated_app(tmp_path / "csrf.sqlite").test_client()):
        flood = io.BytesIO(b"text=" + b"x" * (300 * 2**20))
        response = phone.post("/games/import", input_stream=flood, headers=chunked)
        assert response.status_code == 413 and flood.tell() <= 2**20 + 1
    small = io.BytesIO(b"text=not+a+record")
    response = client.post("/games/import", input_stream=small, headers=chunked)
    assert response.status_code == 422
    assert "not+a+record" not in response.get_data(as_text=True)


def test_htmx_errors_are_fragments_shown_in_the_alert_area(client):
    response = client.get(f"/games/{NO_KEY}", headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#alerts"
    assert "<html" not in response.get_data(as_text=True)


@pytest.fixture
def csrf_client(make_app: Callable[..., Flask]) -> FlaskClient:
    """A browser without JavaScript, on an app with CSRF protection on as in production."""
    return make_app().test_client()


def test_post_without_csrf_token_is_400_page_expired(csrf_client):
    response = csrf_client.post("/games/new", data={"player1": "Ann", "player2": "Bob"})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
    response = csrf_client.post(f"/games/{NO_KEY}/draw", data={"version": "0"})
    assert response.status_code == 400


def test_post_with_csrf_token_works_and_htmx_header_token_too(csrf_client):
    from tests.web.webforms import form_for

    page = csrf_client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    response = csrf_client.post("/games/new", data=data)
    assert response.status_code == 303
    url = response.headers["Location"].split("?")[0]
    page = csrf_client.get(url).get_data(as_text=True)
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    response = csrf_client.post(
        f"{url}/lead",
        data={"version": "1", "how": "seat", "leader": "0"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert "Ann to lead" in response.get_data(as_text=True)


def test_two_phones_posting_the_same_version_store_exactly_one_event(app, client):
    table = new_game(client, ["Ann", "Bob"])
    table.post("lead", {"how": "seat", "leader": "0"})
    table.play("6-6")
    seq, version = table.seq(), table.version()
    url = f"{table.url}/draw"
    statuses: list[int] = []
    barrier = threading.Barrier(4)

    def tap() -> None:
        phone = app.test_client()
        barrier.wait()
        statuses.append(phone.post(url, data={"version": str(version)}).status_code)

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [303, 409, 409, 409]
    assert page_seq(table.page()) == seq + 1
