"""Remaining pips on a phone: a number keypad for the total, or the tiles tapped on a tray
(checkboxes ``tiles-<seat>``, read without JavaScript too), never two answers at once."""

from __future__ import annotations

import json
import re
from html import unescape

from scorekeeper.rules import ALL_TILES, parse_tile
from tests.web.hands import finished_hand, unsettled
from tests.web.webforms import form_for


def blocked(client):
    """A blocked hand waiting for its settlement: Ann holds 0-0 and Bob 5-5 (the simulation's)."""
    game = finished_hand("blocked")
    table, settle = unsettled(client, game)
    assert settle.remaining == {0: (parse_tile("0-0"),), 1: (parse_tile("5-5"),)}
    return table, game


def remaining_stored(table) -> dict:
    """What the record says each player held at the end of hand 1."""
    record = json.loads(table.client.get(f"{table.url}/record.json").get_data(as_text=True))
    return record["hands"][0].get("remaining", {})


def test_the_fields_ask_for_a_number_and_the_trays_offer_the_tiles_off_the_table(client):
    table, game = blocked(client)
    page = table.page()
    for seat in (0, 1):
        field = re.search(rf'<input [^>]*name="held-{seat}"[^>]*>', page)
        assert field and 'inputmode="numeric"' in field.group(0)
        assert 'type="text"' in field.group(0)
        offered = re.findall(rf'name="tiles-{seat}" value="([0-6]-[0-6])"', page)
        on_table = {str(t) for t in game.hands[0].layout.on_table}
        assert set(offered) == {str(t) for t in ALL_TILES} - on_table
        assert "5-5" in offered and "0-0" in offered
    assert 'data-held-tray="1"' in page


def test_tiles_tapped_without_javascript_settle_the_hand(client):
    table, _ = blocked(client)
    form = form_for(table.page(), "/settle")
    data = form.data(**{"held-0": "", "held-1": ""})
    data["tiles-0"] = "0-0"
    data["tiles-1"] = "5-5"
    response = table.client.post(f"{table.url}/settle", data=data)
    assert response.status_code == 303
    assert remaining_stored(table) == {"Ann": ["0-0"], "Bob": ["5-5"]}
    page = unescape(table.page())
    assert "Bob holds 10, rounds to 10: -10" in page


def test_a_total_that_agrees_with_the_tiles_tapped_keeps_the_tiles(client):
    table, _ = blocked(client)
    response = table.post("settle", {"held-0": "0", "tiles-0": "0-0", "held-1": "5-5"})
    assert response.status_code == 303
    assert remaining_stored(table) == {"Ann": ["0-0"], "Bob": ["5-5"]}


def test_the_field_alone_still_works(client):
    table, _ = blocked(client)
    assert table.post("settle", {"held-0": "0", "held-1": "10"}).status_code == 303
    assert remaining_stored(table) == {"Ann": 0, "Bob": 10}


def test_a_field_and_tiles_that_disagree_are_refused_and_both_kept(client):
    table, _ = blocked(client)
    seq = table.seq()
    response = table.post("settle", {"held-0": "0", "held-1": "12", "tiles-1": "5-5"})
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert 'data-rule="remaining"' in page
    assert 'Bob: the field says "12" but the tiles tapped (5-5) hold 10 pips' in page
    assert re.search(r'name="held-1" value="12"', page)
    assert re.search(r'name="tiles-1" value="5-5" data-pips="10" checked', page)
    assert 'data-held-tray="1" data-held-tiles="1" open' in page
    assert table.seq() == seq


def test_a_tile_tapped_that_is_not_a_tile_is_refused(client):
    table, _ = blocked(client)
    response = table.post("settle", {"held-0": "0", "tiles-1": "7-7"})
    assert response.status_code == 422
    assert '"7-7" tapped on the tray is not a double-six tile' in unescape(
        response.get_data(as_text=True)
    )


def test_a_tile_tapped_for_two_players_is_refused_by_the_referee(client):
    table, _ = blocked(client)
    response = table.post("settle", {"tiles-0": "5-5", "tiles-1": "5-5"})
    assert response.status_code == 422
    assert 'data-rule="remaining"' in response.get_data(as_text=True)
    assert remaining_stored(table) == {}


def test_nothing_given_for_a_player_is_refused(client):
    table, _ = blocked(client)
    response = table.post("settle", {"held-0": "0"})
    assert response.status_code == 422
    assert 'data-rule="remaining"' in response.get_data(as_text=True)


def test_tiles_typed_in_the_field_show_tapped_after_a_refusal(client):
    table, _ = blocked(client)
    response = table.post("settle", {"held-0": "0-0", "held-1": "6-6"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'name="tiles-0" value="0-0" data-pips="0" checked', page)
