"""Every change a game or a club can take, tried through the wrong door: a watch key in the
edit link's place, or a key that no game or club has. Each is a 404 that does not say which
keys exist, and nothing changes. The routes are read from the app's own URL map, so a new
POST route is covered the day it is added."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.webtable import FINISHED, NO_KEY, import_record, started

FORM = {"version": "2", "tile": "5-5", "end": "E", "how": "seat", "leader": "0", "name": "X"}
"""A form with a field for every route, so only the key can be what refuses it."""


def keyed_posts(app: Flask, prefix: str) -> list[str]:
    """Every POST route under ``prefix`` that takes a key, as a format string for it."""
    routes = [
        rule.rule.replace("<key:key>", "{key}")
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and "key" in rule.arguments
    ]
    return sorted(route for route in routes if route.startswith(prefix))


def test_the_routes_read_from_the_map_are_every_change_a_game_takes(app: Flask) -> None:
    ends = {route.rsplit("/", 1)[1] for route in keyed_posts(app, "/games/")}
    assert ends >= {"play", "turn", "draw", "pass", "undo", "redo", "settle", "lead"}
    assert ends >= {"delete", "restore", "rematch"}


def _main(html: str, key: str) -> str:
    """What a page says, with the key of its address left out."""
    return html.split("<main>", 1)[-1].split("</main>", 1)[0].replace(key, "KEY")


def test_no_change_to_a_game_goes_through_a_watch_key_or_an_unknown_key(
    app: Flask, client: FlaskClient
) -> None:
    games = {"in play": started(client), "over": import_record(client, FINISHED)}
    for table in games.values():
        watch_key = table.watch_url().rsplit("/", 1)[1]
        before = client.get(table.url + "/record.json").get_data()
        version = client.get(f"/watch/{watch_key}/live").headers["ETag"]
        for route in keyed_posts(app, "/games/"):
            watched = client.post(route.format(key=watch_key), data=FORM)
            unknown = client.post(route.format(key=NO_KEY), data=FORM)
            assert (watched.status_code, unknown.status_code) == (404, 404), route
            # The answer does not tell a watch key from a key that no game has.
            said = _main(watched.get_data(as_text=True), watch_key)
            assert said == _main(unknown.get_data(as_text=True), NO_KEY), route
        assert client.get(table.url + "/record.json").get_data() == before
        assert client.get(f"/watch/{watch_key}/live").headers["ETag"] == version


@pytest.mark.parametrize("which", ["watch key", "unknown key"])
def test_no_change_to_a_club_goes_through_a_watch_key_or_an_unknown_key(
    app: Flask, client: FlaskClient, which: str
) -> None:
    created = client.post("/clubs/new", data={"name": "Tuesday"})
    assert created.status_code == 303
    club = created.headers["Location"]
    page = client.get(club).get_data(as_text=True)
    watch_key = page.split("/clubs/watch/", 1)[1][:22]
    key = watch_key if which == "watch key" else NO_KEY
    before = client.get(club).get_data(as_text=True).count("data-player")
    for route in keyed_posts(app, "/clubs/"):
        answer = client.post(route.format(key=key), data=FORM)
        assert answer.status_code == 404, (which, route)
    assert client.get(club).get_data(as_text=True).count("data-player") == before
