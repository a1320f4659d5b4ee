"""A larger set's tray (issue 24): 55 or 91 tiles do not fit a phone, so a tile is entered in
two taps, its end (or before the lead, a number) first, then the tile among the few carrying
that number. Driven through the page's forms as a browser sends them, without JavaScript and
with htmx; the first tap stores nothing, the second stores the play on the end chosen."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules import Game, NewHand, Play, Settle, Setup, tile
from scorekeeper.rules.simulate import play_hand
from scorekeeper.web.data import games
from tests.web.webforms import Form, read_forms
from tests.web.webtable import Table, page_seq, without_times

TWELVE = {"set": "double-twelve"}


def seeded(app: Flask, client: FlaskClient, setup: Setup, events: list[Any], htmx: bool) -> Table:
    """A game stored with ``events`` already entered, as its edit page's table."""
    with app.app_context():
        key = games.create(setup, events).row.edit_key
    return Table(client, key, htmx=htmx)


def led(app: Flask, client: FlaskClient, lead: str, htmx: bool = False, **rules: str) -> Table:
    """A double-twelve game of Ann and Bob: Ann has led ``lead`` (its first half on W)."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {**TWELVE, **rules})
    high, low = (int(n) for n in lead.split("-"))
    events = [NewHand(0), Play(0, tile(high, low), None, flipped=high < low)]
    return seeded(app, client, setup, events, htmx)


def forms_of(page: str, kind: str) -> list[Form]:
    """The page's forms whose class names ``kind``."""
    return [f for f in read_forms(page) if kind in f.attrs.get("class", "").split()]


def tap(table: Table, page: str, kind: str, **button: str) -> TestResponse:
    """Tap the button with attributes ``button`` in the page's form of class ``kind``: send
    that form as a browser does (through htmx when the table has it)."""
    (form,) = forms_of(page, kind)
    headers = {"HX-Request": "true"} if table.htmx else {}
    return table.client.post(form.action, data=form.data(form.button(**button)), headers=headers)


def tiles_offered(page: str) -> list[str]:
    """The tiles the tray offers to tap (enabled tile buttons), in their order."""
    return re.findall(r'<button type="submit" name="tile" value="([\d-]+)" data-tile="\1"'
                      r' class="tile-button[^"]*" aria-label', page)  # fmt: skip


def tiles_shown(page: str) -> list[str]:
    """Every tile of the tray, those on the table (disabled) included, in their order."""
    return re.findall(r'name="tile" value="([\d-]+)" data-tile="\1"', page)


def ends_offered(page: str) -> dict[str, tuple[int, bool]]:
    """The open ends offered first: each end's number and whether it is the one chosen."""
    found = re.findall(
        r'name="end" value="[^"]*" data-end="([^"]+)" aria-keyshortcuts="[^"]*"'
        r' data-shows="(\d+)" class="pick-button[^"]*" aria-pressed="(true|false)"',
        page,
    )
    return {end: (int(shows), pressed == "true") for end, shows, pressed in found}


def record(table: Table) -> dict[str, Any]:
    """The game's exported all-fives/1 record."""
    response = table.client.get(table.url + "/record.json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.get_data(as_text=True))
    return without_times(data)


def last_event(table: Table) -> dict[str, Any]:
    event: dict[str, Any] = record(table)["hands"][-1]["events"][-1]
    return event


@pytest.fixture(params=[False, True], ids=["no-js", "htmx"])
def htmx(request: pytest.FixtureRequest) -> bool:
    """Whether the page sends its forms through htmx (the table's fragment comes back) or
    as plain forms (a whole page; a stored entry redirects to the table)."""
    return bool(request.param)


def test_an_end_then_a_tile_stores_the_play_on_that_end(
    app: Flask, client: FlaskClient, htmx: bool
) -> None:
    table = led(app, client, "12-12", htmx)
    page = table.page()
    # Both ends show 12: every 12 fits both, which the double-six tray would ask about after
    # the tile. Here the end comes first and no tile is offered until it is chosen.
    assert ends_offered(page) == {"W": (12, False), "E": (12, False)}
    assert tiles_offered(page) == []
    assert "First tap the end the tile goes on" in page
    seq = page_seq(page)

    chosen = tap(table, page, "pick-ends", **{"data-end": "E"})
    assert chosen.status_code == 200
    page = chosen.get_data(as_text=True)
    assert page_seq(page) == seq  # nothing stored
    assert ends_offered(page) == {"W": (12, False), "E": (12, True)}
    # The 13 tiles carrying a 12, highest first; the lead, on the table, greyed in its place.
    assert tiles_shown(page) == [f"12-{n}" for n in range(12, -1, -1)]
    assert tiles_offered(page) == [f"12-{n}" for n in range(11, -1, -1)]
    # The end is ringed in the picture, and its marker there chooses it too (again: none).
    assert re.search(r'class="end-marker end-marker--fits" data-end="E"', page)
    assert 'form="pick-end" name="end" value="" data-end="E"' in page
    assert 'form="pick-end" name="end" value="W" data-end="W"' in page

    played = tap(table, page, "pick-tile", **{"data-tile": "12-3"})
    assert played.status_code == (200 if htmx else 303)
    assert table.seq() == seq + 1
    assert last_event(table) == {"player": "Bob", "play": "12-3", "end": "E"}
    # The next player starts again from the ends; the new one shows 3.
    page = table.page()
    assert ends_offered(page) == {"W": (12, False), "E": (3, False)}
    assert tiles_offered(page) == []


def test_another_end_switches_and_the_chosen_end_again_chooses_none(
    app: Flask, client: FlaskClient, htmx: bool
) -> None:
    table = led(app, client, "9-5", htmx)
    page = tap(table, table.page(), "pick-ends", **{"data-end": "W"}).get_data(as_text=True)
    assert ends_offered(page)["W"] == (9, True)
    assert tiles_shown(page)[0] == "12-9" and len(tiles_shown(page)) == 13
    page = tap(table, page, "pick-ends", **{"data-end": "E"}).get_data(as_text=True)
    assert ends_offered(page) == {"W": (9, False), "E": (5, True)}
    assert all("5" in t.split("-") for t in tiles_shown(page))
    page = tap(table, page, "pick-ends", **{"data-end": "E"}).get_data(as_text=True)
    assert ends_offered(page) == {"W": (9, False), "E": (5, False)}
    assert tiles_shown(page) == []
    assert page_seq(page) == 2


def test_the_lead_is_a_number_then_a_tile(app: Flask, client: FlaskClient, htmx: bool) -> None:
    setup = Setup.create(["Ann", "Bob", "Cy", "Di", "Eve"], "all-fives", TWELVE)
    table = seeded(app, client, setup, [NewHand(4)], htmx)
    page = table.page()
    assert re.findall(r'data-number="(\d+)"', page) == [str(n) for n in range(13)]
    assert tiles_offered(page) == []
    assert "First tap a number of the lead tile" in page

    page = tap(table, page, "pick-numbers", **{"data-number": "10"}).get_data(as_text=True)
    assert page_seq(page) == 1
    assert re.search(r'data-number="10" data-shows="10" class="pick-button chosen"', page)
    offered = tiles_offered(page)
    assert offered[:3] == ["12-10", "11-10", "10-10"] and offered[-1] == "10-0"
    assert len(offered) == 13

    played = tap(table, page, "pick-tile", **{"data-tile": "10-4"})
    assert played.status_code == (200 if htmx else 303)
    assert last_event(table) == {"player": "Eve", "play": "10-4"}
    assert ends_offered(table.page()) == {"W": (10, False), "E": (4, False)}


def test_the_highest_double_leads_in_one_tap_among_the_doubles(
    app: Flask, client: FlaskClient, htmx: bool
) -> None:
    setup = Setup.create(["Ann", "Bob", "Cy"], "all-fives", {**TWELVE, "lead": "highest-double"})
    table = seeded(app, client, setup, [NewHand(1, "double")], htmx)
    page = table.page()
    assert 'data-number="' not in page
    assert tiles_offered(page) == [f"{n}-{n}" for n in range(12, -1, -1)]
    tap(table, page, "pick-tile", **{"data-tile": "12-12"})
    assert last_event(table) == {"player": "Bob", "play": "12-12"}


def test_a_refused_tile_shows_its_rule_stores_nothing_and_keeps_the_end(
    app: Flask, client: FlaskClient, htmx: bool
) -> None:
    table = led(app, client, "11-7", htmx)
    page = tap(table, table.page(), "pick-ends", **{"data-end": "E"}).get_data(as_text=True)
    (form,) = forms_of(page, "pick-tile")
    # A page that offers 9-3 on E does not exist: sent by hand, the referee refuses it.
    headers = {"HX-Request": "true"} if htmx else {}
    refused = client.post(form.action, data=form.data(tile="9-3"), headers=headers)
    assert refused.status_code == 422
    page = unescape(refused.get_data(as_text=True))
    assert re.search(r'<p class="refusal" role="alert">.*data-rule="match"', page)
    assert "Nothing was entered." in page
    assert page_seq(page) == 2 and table.seq() == 2
    # E stays chosen, its tiles offered: the next tap can be the right tile.
    assert ends_offered(page)["E"] == (7, True)
    assert "9-3" not in tiles_shown(page) and "7-3" in tiles_offered(page)


def test_a_stale_page_chooses_nothing_and_shows_the_table_as_it_is(
    app: Flask, client: FlaskClient, htmx: bool
) -> None:
    table = led(app, client, "11-7", htmx)
    old = table.page()
    table.post("draw", {})  # another phone: Bob draws
    response = tap(table, old, "pick-ends", **{"data-end": "W"})
    assert response.status_code == 409
    page = unescape(response.get_data(as_text=True))
    assert "The table had changed: nothing was entered." in page
    assert ends_offered(page) == {"W": (11, False), "E": (7, False)}
    # The tile form of a stale page is refused the same way.
    chosen = tap(table, table.page(), "pick-ends", **{"data-end": "W"}).get_data(as_text=True)
    table.post("draw", {})
    assert tap(table, chosen, "pick-tile", **{"data-tile": "11-0"}).status_code == 409
    assert table.seq() == 4


@pytest.mark.parametrize(
    "data",
    [
        {"choose": "end", "end": "N"},  # not open
        {"choose": "number", "number": "4"},  # the lead is down
        {"choose": "end", "end": "W", "number": "13"},  # no 13 in any set
        {"choose": "sideways", "end": "W"},
        {},
    ],
)
def test_a_first_tap_that_makes_no_sense_changes_nothing(
    app: Flask, client: FlaskClient, data: dict[str, str]
) -> None:
    table = led(app, client, "11-7")
    response = table.post("play", data)
    assert response.status_code == 400
    assert "The form was incomplete or out of date" in response.get_data(as_text=True)
    assert table.seq() == 2


def test_a_double_six_table_keeps_its_tray_of_28(app: Flask, client: FlaskClient) -> None:
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    table = seeded(app, client, setup, [NewHand(0), Play(0, tile(6, 4))], False)
    page = table.page()
    assert "pick-choice" not in page and "screen--numbers" not in page
    assert len(tiles_shown(page)) == 28
    assert table.post("play", {"choose": "end", "end": "W"}).status_code == 400


def test_a_live_update_keeps_the_end_while_it_shows_the_same_number(
    app: Flask, client: FlaskClient
) -> None:
    table = led(app, client, "11-7")
    live = f"{table.url}/live"
    kept = client.get(live, query_string={"end": "E", "shows": "7"}).get_data(as_text=True)
    assert ends_offered(kept)["E"] == (7, True) and len(tiles_shown(kept)) == 13
    gone = client.get(live, query_string={"end": "E", "shows": "5"}).get_data(as_text=True)
    assert ends_offered(gone)["E"] == (7, False) and tiles_shown(gone) == []
    watch = client.get(table.watch_url() + "/live", query_string={"end": "E", "shows": "7"})
    assert "pick-ends" not in watch.get_data(as_text=True)


# -- the settlement -------------------------------------------------------------------------


def at_settlement(app: Flask, client: FlaskClient) -> tuple[Table, Game, Settle]:
    """A simulated double-twelve hand of six players, up to its settlement."""
    setup = Setup.create(["Ann", "Bob", "Cy", "Di", "Eve", "Fay"], "all-fives", TWELVE)
    game = Game(setup)
    play_hand(game, random.Random(1))
    settle = game.events[-1]
    assert isinstance(settle, Settle)
    return seeded(app, client, setup, list(game.events[:-1]), False), game, settle


def test_the_settlement_shows_a_larger_sets_tiles_one_higher_number_at_a_time(
    app: Flask, client: FlaskClient
) -> None:
    table, game, _settle = at_settlement(app, client)
    page = table.page()
    hand = game.hands[-1]
    left = [t for t in game.rules.tile_set.tiles if t not in hand.layout.on_table]
    holder = next(seat for seat, held in enumerate(hand.held) if held)
    boxes = re.findall(rf'name="tiles-{holder}" value="([\d-]+)"', page)
    assert sorted(boxes) == sorted(str(t) for t in left)
    # Each in the group of its higher number, a number's radio button before each group.
    tray = page.split(f'data-held-tray="{holder}"')[1].split("</details>")[0]
    groups = re.findall(r'data-held-group="(\d+)">(.*?)</div>', tray, re.S)
    assert [int(n) for n, _tiles in groups] == sorted({t.high for t in left}, reverse=True)
    for number, tiles in groups:
        assert {int(t.split("-")[0]) for t in re.findall(r'value="([\d-]+)"', tiles)} == {
            int(number)
        }
    assert len(
        re.findall(rf'type="radio" class="held-number" name="number-of-held-{holder}"', tray)
    )
    assert "12-7 9-0" in page  # the hint's example


def test_a_larger_sets_held_tiles_typed_or_tapped_settle_the_hand(
    app: Flask, client: FlaskClient
) -> None:
    table, _game, settle = at_settlement(app, client)
    data: dict[str, Any] = {"number-of-held-2": "11"}  # a number's radio: sent, not read
    for seat, held in settle.remaining.items():
        if isinstance(held, int):
            data[f"held-{seat}"] = str(held)
        elif seat == 2:
            data[f"tiles-{seat}"] = [str(t) for t in held]  # tapped
        else:
            data[f"held-{seat}"] = " ".join(str(t) for t in held)  # typed
    response = table.post("settle", data)
    assert response.status_code == 303, unescape(response.get_data(as_text=True))[-3000:]
    remaining = record(table)["hands"][0]["remaining"]
    assert remaining["Cy"] == [str(t) for t in settle.remaining[2]]


def test_a_tile_of_no_set_tapped_is_refused_in_the_sets_words(
    app: Flask, client: FlaskClient
) -> None:
    table, _game, _settle = at_settlement(app, client)
    response = table.post("settle", {"held-1": "0", "tiles-2": "13-1"})
    assert response.status_code == 422
    assert '"13-1" tapped on the tray is not a tile of a double-twelve set' in unescape(
        response.get_data(as_text=True)
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", '"13-1" som trycktes i brickraden är ingen bricka i en dubbel-12-sats'),
        ("fil", 'hindi tile ng set na double-twelve ang "13-1"'),
    ],
)
def test_the_sets_name_is_said_in_the_readers_language(
    app: Flask, client: FlaskClient, language: str, words: str
) -> None:
    table, _game, _settle = at_settlement(app, client)
    client.get(f"/language/{language}?next=/")
    response = table.post("settle", {"held-1": "0", "tiles-2": "13-1"})
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert words in page
    assert "double-twelve-sats" not in page
