"""Every phone following a game is given the same new table, rendered once per version: the
answers are the ones each phone got before, with its own CSRF token, picked tile and
language, and a change is never answered with the table before it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, template_rendered
from flask.testing import FlaskClient

from tests.web.webtable import Table, new_game, page_version, side_scores, started

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
HTMX = {"HX-Request": "true"}


@contextmanager
def renders(app: Flask) -> Iterator[list[str]]:
    """The names of the templates ``app`` renders inside the block."""
    names: list[str] = []

    def seen(sender: Flask, template, context, **extra) -> None:  # type: ignore[no-untyped-def]
        names.append(template.name)

    template_rendered.connect(seen, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(seen, app)


def poll(client: FlaskClient, url: str, etag: str | None = None) -> tuple[int, str, str]:
    headers = dict(HTMX, **({"If-None-Match": etag} if etag else {}))
    response = client.get(url + "/live", headers=headers)
    return response.status_code, response.get_data(as_text=True), response.headers["ETag"]


def test_three_watchers_share_one_render_of_each_change(app, client):
    table = started(client)
    watch = table.watch_url()
    watchers = [app.test_client() for _ in range(3)]
    etags = [poll(phone, watch)[2] for phone in watchers]
    table.play("5-5")
    with renders(app) as rendered:
        answers = [poll(phone, watch, etag) for phone, etag in zip(watchers, etags, strict=True)]
    assert [status for status, _, _ in answers] == [200, 200, 200]
    assert len({text for _, text, _ in answers}) == 1
    assert side_scores(answers[0][1]) == {"Ann": 10, "Bob": 0}
    assert rendered.count("_table.html") == 1, rendered
    # The next change is a new render, never the kept table of the version before.
    table.play("5-4", "E")
    with renders(app) as rendered:
        again = [
            poll(phone, watch, tag) for phone, (_, _, tag) in zip(watchers, answers, strict=True)
        ]
    assert [status for status, _, _ in again] == [200, 200, 200]
    assert side_scores(again[-1][1]) == {"Ann": 10, "Bob": 0}
    assert 'data-seq="3"' in again[-1][1]
    assert rendered.count("_table.html") == 1


def test_each_scorekeepers_phone_gets_its_own_working_csrf_token(make_app):
    app = make_app(RATELIMIT_ENABLED=False)
    url = new_game(app.test_client(), ["Ann", "Bob"]).url
    phones = [app.test_client() for _ in range(2)]
    for phone in phones:
        phone.get(url)  # each phone opens the edit link: a session of its own
    with renders(app) as rendered:
        answers = [poll(phone, url)[1] for phone in phones]
    assert rendered.count("_table.html") == 1
    tokens = [set(TOKEN.findall(text)) for text in answers]
    assert all(len(found) == 1 for found in tokens), tokens
    assert tokens[0] != tokens[1]
    assert "csrf-" not in answers[0] + answers[1]
    # Each phone enters with the token its answer carried: accepted.
    (first,) = tokens[0]
    lead = {"csrf_token": first, "version": str(page_version(answers[0])), "how": "seat"}
    chosen = phones[0].post(url + "/lead", data={**lead, "leader": "1"}, headers=HTMX)
    assert chosen.status_code == 200, chosen.get_data(as_text=True)[:300]
    _, text, _ = poll(phones[1], url)
    (second,) = set(TOKEN.findall(text))
    play = {"csrf_token": second, "version": str(page_version(text)), "tile": "6-6"}
    entered = phones[1].post(url + "/play", data=play, headers=HTMX)
    assert entered.status_code == 200, entered.get_data(as_text=True)[:300]
    assert side_scores(entered.get_data(as_text=True)) == {"Ann": 0, "Bob": 0}
    assert "6-6" in entered.get_data(as_text=True)


def test_a_picked_tile_and_the_language_are_each_phones_own(app, client):
    table = started(client)
    table.play("5-5")
    picked = client.get(table.url + "/live?selected=5-1").get_data(as_text=True)
    plain = client.get(table.url + "/live").get_data(as_text=True)
    assert 'class="choose-end"' in picked and 'class="choose-end"' not in plain
    swedish = app.test_client()
    swedish.get("/language/sv")
    in_swedish = swedish.get(table.url + "/live")
    assert in_swedish.headers["ETag"].endswith('-sv"')
    assert ">Ångra" in in_swedish.get_data(as_text=True) and ">Ångra" not in plain
    assert ">Ångra" not in client.get(table.url + "/live").get_data(as_text=True)


def test_a_table_changed_between_the_version_read_and_the_render_is_not_kept_as_older(
    app, client, monkeypatch
):
    from scorekeeper.web.data import games

    table = started(client)
    table.play("5-5")
    watch = table.watch_url()
    # The poll reads version N, another phone enters before the table is rendered: the
    # answer shows (and is tagged with) the newer version, and a phone asking for N later
    # gets the newer table.
    read = games.version_of

    def late(key: str, kind: str = "games") -> int:
        version = read(key, kind)
        Table(client, table.key).play("5-4", "E")
        monkeypatch.setattr(games, "version_of", read)
        return version

    monkeypatch.setattr(games, "version_of", late)
    status, text, etag = poll(app.test_client(), watch)
    assert status == 200
    assert 'data-seq="3"' in text
    status, again, etag_again = poll(app.test_client(), watch)
    assert (again, etag_again) == (text, etag)


def test_a_page_being_rendered_is_waited_for_not_rendered_again(app: Flask) -> None:
    """Under the gevent worker a render yields while it reads the database: a second stream of
    the same game then waits for that render instead of making the same page again."""
    import threading

    from scorekeeper.web import rendered

    renders: list[int] = []
    started = threading.Event()
    release = threading.Event()

    def slow() -> tuple[int, str]:
        renders.append(1)
        started.set()
        release.wait(5)
        return 3, "<p>the table at version 3</p>"

    answers: list[tuple[int, str]] = []

    def ask() -> None:
        with app.test_request_context("/"):
            answers.append(rendered.once(("page", "k"), 3, slow))

    first = threading.Thread(target=ask)
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=ask)
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the first render, not rendering
    release.set()
    first.join(5)
    second.join(5)
    assert renders == [1]
    assert answers == [(3, "<p>the table at version 3</p>")] * 2
