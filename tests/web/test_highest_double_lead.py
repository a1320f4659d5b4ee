"""House rule lead: highest-double on the table page, as a browser without JavaScript sends it:
one tap on who holds the highest double, or a round of redraws first; the lead is a double."""

from __future__ import annotations

import random
import re
from html import unescape

from scorekeeper.rules import Game, Setup
from scorekeeper.rules.simulate import play_hand
from tests.web.hands import held_fields, unsettled
from tests.web.webforms import press
from tests.web.webtable import Table, new_game


def _game(client, players=("Ann", "Bob"), **fields: str) -> Table:
    return new_game(client, list(players), lead="highest-double", leader="random", **fields)


def _tap(table: Table, **attrs: str):
    """Press a button of the lead step as the page renders it."""
    data = press(table.page(), "/lead", **attrs)
    return table.client.post(f"{table.url}/lead", data=data)


def test_the_first_hand_asks_who_holds_the_highest_double(client):
    table = _game(client)
    page = unescape(table.page())
    assert table.seq() == 0  # "At random" was ignored: the highest double decides
    assert "Hand 1: who holds the highest double?" in page
    assert "Nobody has a double: everyone draws one more tile" in page
    assert "Pick the leader at random" not in page


def test_one_tap_starts_the_hand_and_the_tray_offers_only_doubles(client):
    table = _game(client)
    response = _tap(table, **{"data-leader": "1"})
    assert response.status_code == 303
    page = unescape(table.page())
    assert "Bob to lead" in page
    offered = [t.split('"', 1)[0] for t in page.split('name="tile" value="')[1:]]
    assert offered == [f"{n}-{n}" for n in range(6, -1, -1)]
    assert table.play("5-5").status_code == 303
    assert table.scores() == {"Ann": 0, "Bob": 10}


def test_a_non_double_lead_is_refused_with_rule_lead_and_nothing_is_stored(client):
    table = _game(client)
    _tap(table, **{"data-leader": "0"})
    before = table.seq()
    response = table.play("6-4")
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert 'data-rule="lead"' in page
    assert "6-4 is not a double" in page
    assert table.seq() == before


def test_redraws_count_in_the_form_then_go_with_the_hand(client):
    table = _game(client)  # all-fives, 2 players: 9 tiles each, 10 in the boneyard
    first = _tap(table, **{"data-lead": "redraw"})
    assert first.status_code == 200
    page = unescape(first.get_data(as_text=True))
    assert "Nobody held a double, so everyone has drawn one more tile." in page
    assert "8 tiles are left in the boneyard." in page
    assert table.seq() == 0  # nothing stored until the leader is tapped
    second = press(page, "/lead", **{"data-lead": "redraw"})
    page = unescape(table.client.post(f"{table.url}/lead", data=second).get_data(as_text=True))
    assert "everyone has drawn one more tile, 2 times" in page
    leader = press(page, "/lead", **{"data-leader": "0"})
    assert table.client.post(f"{table.url}/lead", data=leader).status_code == 303
    record = table.client.get(f"{table.url}/record.json").get_json()
    assert record["hands"][0]["redraws"] == 2
    assert record["hands"][0]["lead_by"] == "double"
    page = unescape(table.page())
    assert "Boneyard 6" in page


def test_the_last_round_the_boneyard_gives_is_the_last_offered(client):
    table = _game(client)
    page = table.page()
    for _ in range(5):  # 10 tiles give two players 5 rounds
        data = press(page, "/lead", **{"data-lead": "redraw"})
        page = table.client.post(f"{table.url}/lead", data=data).get_data(as_text=True)
    assert 'data-lead="redraw"' not in page
    assert "The boneyard cannot give everyone another tile." in unescape(page)
    # A sixth round sent anyway (an old page) is refused by the rules and stores nothing.
    forged = {**data, "redraws": "5"}
    response = table.client.post(f"{table.url}/lead", data=forged)
    assert response.status_code == 422
    assert 'data-rule="draw-empty"' in response.get_data(as_text=True)
    assert table.seq() == 0


def test_after_a_domino_the_winner_leads_any_tile_without_the_question(client):
    for seed in range(100):
        game = Game(Setup.create(["Ann", "Bob"], "all-fives", {"lead": "highest-double"}))
        play_hand(game, random.Random(seed))
        if game.hands[0].result == "domino":
            break
    table, settle = unsettled(client, game)
    assert table.post("settle", held_fields(settle)).status_code == 303
    # The hand begins by itself, led by who dominoed, with every tile in the tray.
    page = unescape(table.page())
    winner = game.players[game.hands[0].went_out or 0]
    assert f"{winner} to lead" in page
    assert "who holds the highest double" not in page
    assert page.count('name="tile" value=') == 28
    assert table.play("6-4").status_code == 303  # any tile


def test_the_why_and_the_log_say_how_the_leader_was_chosen(client):
    table = _game(client)
    page = table.page()
    data = press(page, "/lead", **{"data-lead": "redraw"})
    page = table.client.post(f"{table.url}/lead", data=data).get_data(as_text=True)
    data = press(page, "/lead", **{"data-leader": "1"})
    table.client.post(f"{table.url}/lead", data=data)
    log = unescape(table.client.get(f"{table.url}/log").get_data(as_text=True))
    assert "chosen by the highest double" in log
    assert "Nobody held a double, so every player drew one more tile" in log


def test_the_sheet_says_the_highest_double_chose_the_leader(client):
    table = _game(client)
    page = table.page()
    data = press(page, "/lead", **{"data-lead": "redraw"})
    page = table.client.post(f"{table.url}/lead", data=data).get_data(as_text=True)
    table.client.post(f"{table.url}/lead", data=press(page, "/lead", **{"data-leader": "1"}))
    assert table.play("5-5").status_code == 303
    sheet = unescape(table.client.get(f"{table.url}/sheet").get_data(as_text=True))
    words = re.sub(r"<[^>]+>", "", sheet)
    assert "Leaders chosen: hand 1, Bob by the highest double, 5-5, after 1 redraw." in words


def test_a_double_twelve_table_may_redraw_more_than_a_double_six_set_holds(client):
    # 2 players, double-twelve: 12 tiles each, 67 in the boneyard, so 33 rounds of redraws.
    table = _game(client, set="double-twelve")
    page = table.page()
    data = {**press(page, "/lead", **{"data-leader": "0"}), "redraws": "30"}
    assert table.client.post(f"{table.url}/lead", data=data).status_code == 303
    record = table.client.get(f"{table.url}/record.json").get_json()
    assert record["hands"][0]["redraws"] == 30
