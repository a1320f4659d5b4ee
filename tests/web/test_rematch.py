"""Rematch: a finished game's edit page starts a new game with the same players in the same
seats and the same house rules, its first leader chosen as the rules say; never from the watch
link, never before the game is over, never without the page's CSRF token, within the limit
on new games."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import NewHand
from scorekeeper.web.data import games
from scorekeeper.web.table.rematch import NOT_OVER
from tests.web.webforms import form_for, press
from tests.web.webtable import Table, import_record, key_in, started

DATA = Path(__file__).resolve().parents[1] / "data"
_NOTICE = re.compile(r'<p class="notice[^"]*" role="status">([^<]*)</p>')


def record(name: str) -> dict[str, Any]:
    """A record of tests/data."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return data


def stored(app: Flask, key: str) -> games.Loaded:
    """The game with edit key ``key``, as stored."""
    with app.app_context():
        return games.load(key)


def game_count(app: Flask) -> int:
    with app.app_context():
        return len(games.list_games())


def notice(page: str) -> str:
    found = _NOTICE.search(page)
    assert found, "the page shows no notice"
    return unescape(found.group(1))


def rematch(client: FlaskClient, table: Table) -> str:
    """Press Rematch on the table's page; the new game's address."""
    data = press(table.page(), "/rematch", **{"data-action": "rematch"})
    response = client.post(f"{table.url}/rematch", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"])


def test_rematch_keeps_seats_and_house_rules_and_draws_lots_for_the_leader(
    app: Flask, client: FlaskClient
) -> None:
    # All Fives with 4 players in partnership, an immediate win at 100, spinners not counted.
    leaders = set()
    for _ in range(12):  # a game has one rematch: twelve finished games, one lot each
        table = import_record(client, record("sim_all_fives_4p_partners_immediate"))
        old = stored(app, table.key)
        assert old.game.phase == "over"
        location = rematch(client, table)
        key = key_in(location)
        assert "?" not in location, "chosen by lot: the game opens ready to play"
        new = stored(app, key)
        assert key != table.key and new.row.watch_key != old.row.watch_key
        assert new.row.players == old.row.players
        assert (new.row.preset, new.row.options, new.row.partners) == (
            old.row.preset,
            old.row.options,
            old.row.partners,
        )
        assert new.game.rules == old.game.rules and new.game.sides == old.game.sides
        assert len(new.game.events) == 1 and isinstance(new.game.events[0], NewHand)
        leader = new.game.players[new.game.events[0].leader]
        leaders.add(leader)
        page = client.get(location).get_data(as_text=True)
        assert notice(page) == (
            "Rematch: Ann, Bob, Cy and Dee in the same seats, with the same house rules; "
            f"{leader} leads hand 1, chosen by lot."
        )
        assert re.findall(r'data-side-score="([^"]+)">0<', unescape(page)) == [
            "Ann & Cy",
            "Bob & Dee",
        ]
        assert f'data-turn="{leader}"' in page
        again = stored(app, table.key)
        assert again.game.events == old.game.events, "the finished game is left as it was"
    assert len(leaders) > 1, "twelve lots all fell on the same player"


def test_the_finished_game_leads_every_page_to_its_one_rematch(
    app: Flask, client: FlaskClient
) -> None:
    table = import_record(client, record("hand_immediate_win"))
    watch = table.watch_url()
    before = stored(app, table.key).version
    count = game_count(app)

    location = rematch(client, table)
    new = stored(app, key_in(location))
    # A second tap, or another phone's, opens the same rematch: no second game.
    assert client.post(f"{table.url}/rematch", data={}).status_code == 303
    assert key_in(client.post(f"{table.url}/rematch").headers["Location"]) == new.row.edit_key
    assert game_count(app) == count + 1
    # The finished game changed (so its followers hear of it) and links to the rematch from
    # each page, behind the same kind of link, without JavaScript.
    assert stored(app, table.key).version == before + 1
    edit_page = table.page()
    assert f'data-rematch="/games/{new.row.edit_key}"' in edit_page
    assert 'data-action="rematch"' not in edit_page
    watching = client.get(watch).get_data(as_text=True)
    assert f'data-rematch="/watch/{new.row.watch_key}"' in watching
    assert new.row.edit_key not in watching, "a watch link never leads to an edit link"
    board = client.get(f"{watch}/board").get_data(as_text=True)
    assert f'data-rematch="/watch/{new.row.watch_key}/board"' in board


def test_rematch_of_a_draw_for_lead_game_opens_the_draw(app: Flask, client: FlaskClient) -> None:
    # Fives-up (lead: draw-highest), partners, target 20, boneyard reserve 4.
    table = import_record(client, record("hand_partners_collect_wins"))
    old = stored(app, table.key)

    location = rematch(client, table)

    assert location.endswith("?lead=draw")
    new = stored(app, key_in(location))
    assert new.game.events == [] and new.game.phase == "lead"
    # The import named every house rule the record left out, as its page offered them.
    assert new.row.options == old.row.options
    assert (new.row.options["boneyard_reserve"], new.row.options["target"]) == (4, 20)
    assert new.row.options["lead"] == "draw-highest"
    assert new.row.partners is True and new.row.preset == "fives-up"
    page = client.get(location).get_data(as_text=True)
    assert '<details class="draw-for-lead" open>' in page
    assert "each player draws a tile for the lead" in notice(page)


def test_only_the_edit_link_offers_a_rematch(app: Flask, client: FlaskClient) -> None:
    table = import_record(client, record("hand_immediate_win"))
    watch = table.watch_url()
    games = game_count(app)

    assert 'data-action="rematch"' in table.page()
    watching = client.get(watch).get_data(as_text=True)
    assert "Ann wins!" in watching and "rematch" not in watching.lower()
    assert client.post(f"{watch}/rematch").status_code == 404
    assert game_count(app) == games


def test_no_rematch_before_the_game_is_over(app: Flask, client: FlaskClient) -> None:
    table = started(client)
    games = game_count(app)

    assert 'data-action="rematch"' not in table.page()
    response = client.post(f"{table.url}/rematch")

    assert response.status_code == 409
    assert notice(response.get_data(as_text=True)) == NOT_OVER
    assert game_count(app) == games


@pytest.fixture
def guarded(make_app: Callable[..., Flask]) -> tuple[Flask, FlaskClient]:
    """An app with CSRF on, as in production, and room for 3 new games a minute."""
    app = make_app(RATELIMIT_NEW_GAMES="3 per minute")
    return app, app.test_client()


def test_rematch_needs_the_pages_token_and_counts_as_a_new_game(
    guarded: tuple[Flask, FlaskClient],
) -> None:
    app, client = guarded
    form = form_for(client.get("/games/import").get_data(as_text=True), "/games/import")
    text = json.dumps(record("hand_immediate_win"))
    # taking: the house rules the record leaves out take their values at once (one request).
    imported = client.post("/games/import", data=form.data(text=text, taking="1"))  # 1 of 3
    assert imported.status_code == 303
    table = Table(client, key_in(imported.headers["Location"]))
    games = game_count(app)

    forged = client.post(f"{table.url}/rematch")  # 2 of 3: a try counts too
    assert forged.status_code == 400
    assert "expired" in forged.get_data(as_text=True)
    assert game_count(app) == games

    data = press(table.page(), "/rematch", **{"data-action": "rematch"})
    location = rematch(client, table)  # 3 of 3
    assert game_count(app) == games + 1
    assert client.get(location).status_code == 200

    over = client.post(f"{table.url}/rematch", data=data)  # the same form sent again
    assert over.status_code == 429
    assert "Too many games were started" in over.get_data(as_text=True)
    assert game_count(app) == games + 1
