"""Who leads, and how it was chosen: the new-game form opens the way it names, and the log
says truthfully how each hand's leader was chosen (by lot, by the draw, at the table)."""

from __future__ import annotations

import json
import re
from html import unescape

from scorekeeper.rules.record import write_record
from tests.web.hands import finished_hand, held_fields, unsettled
from tests.web.webforms import form_for, press, read_forms
from tests.web.webtable import Table, import_record, key_in, new_game


def log_of(table: Table) -> str:
    """The game's log page, as text with the entities decoded."""
    response = table.client.get(f"{table.url}/log")
    assert response.status_code == 200
    return unescape(response.get_data(as_text=True))


def record_of(table: Table) -> dict:
    """The game's record, as downloaded."""
    return json.loads(table.client.get(f"{table.url}/record.json").get_data(as_text=True))


def test_choosing_at_the_table_opens_the_players_buttons(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("?lead=table")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert '<details class="choose-leader" open>' in page
    assert '<details class="draw-for-lead">' in page
    assert 'data-leader="0"' in page and 'data-leader="1"' in page
    table = Table(client, key_in(response.headers["Location"]))
    assert table.seq() == 0


def test_at_the_table_wins_over_the_presets_draw_for_lead(client):
    # Fives Up draws for the lead by its house rule; the form said "at the table".
    table = new_game(client, ["Ann", "Bob"], preset="fives-up", leader="table")
    page = client.get(f"{table.url}?lead=table").get_data(as_text=True)
    assert '<details class="choose-leader" open>' in page
    assert '<details class="draw-for-lead">' in page
    # Without the choice (a link opened later), the house rule's way opens as before.
    page = table.page()
    assert '<details class="draw-for-lead" open>' in page
    assert '<details class="choose-leader">' in page


def test_the_form_names_each_way(client):
    page = unescape(client.get("/games/new").get_data(as_text=True))
    assert "Choose the leader at the table" in page
    assert "At random: the app picks by lot" in page


def test_a_leader_chosen_at_the_table_is_logged_as_such(client):
    table = new_game(client, ["Ann", "Bob"], leader="table")
    page = table.page()
    assert table.post("lead", press(page, "/lead", value="1")).status_code == 303
    log = log_of(table)
    assert "Hand 1 begins: Bob leads, chosen at the table." in log
    assert "Bob leads the first hand, chosen at the table" in log
    assert "by lot" not in log
    assert record_of(table)["hands"][0]["lead_by"] == "table"


def test_a_leader_picked_at_random_on_the_form_is_logged_by_lot(client):
    table = new_game(client, ["Ann", "Bob"], leader="random")
    log = log_of(table)
    assert re.search(r"Hand 1 begins: (Ann|Bob) leads, chosen by lot\.", log)
    assert "the app picked a player at random (house rule lead: lots)" in log
    assert record_of(table)["hands"][0]["lead_by"] == "lot"


def test_a_leader_picked_at_random_on_the_table_is_logged_by_lot(client):
    table = new_game(client, ["Ann", "Bob", "Cy"], leader="table")
    page = table.page()
    assert table.post("lead", press(page, "/lead", **{"data-lead": "random"})).status_code == 303
    assert re.search(r"Hand 1 begins: (Ann|Bob|Cy) leads, chosen by lot\.", log_of(table))


def test_a_leader_drawn_for_is_logged_by_the_draw(client):
    table = new_game(client, ["Ann", "Bob"], leader="draw")
    page = client.get(f"{table.url}?lead=draw").get_data(as_text=True)
    draw = next(f for f in read_forms(page) if f.values.get("how") == "draw")
    response = table.post("lead", draw.data(**{"drawn-0": "2-1", "drawn-1": "6-5"}))
    assert response.status_code == 303
    log = log_of(table)
    assert "Hand 1 begins: Bob leads, chosen by the draw for the lead." in log
    assert "each player drew a tile, the highest pip total leading" in log
    assert record_of(table)["hands"][0]["lead_by"] == "draw"


def test_the_draw_for_the_lead_reads_a_larger_sets_tiles(client):
    table = new_game(client, ["Ann", "Bob"], leader="draw", set="double-twelve")
    page = client.get(f"{table.url}?lead=draw").get_data(as_text=True)
    draw = next(f for f in read_forms(page) if f.values.get("how") == "draw")
    response = table.post("lead", draw.data(**{"drawn-0": "12-11", "drawn-1": "9 9"}))
    assert response.status_code == 303
    assert "Hand 1 begins: Ann leads, chosen by the draw for the lead." in log_of(table)
    # Written without its dash, a larger set's tile is ambiguous (12-7 or 1-27): refused.
    table = new_game(client, ["Ann", "Bob"], leader="draw", set="double-twelve")
    response = table.post("lead", draw.data(**{"drawn-0": "127", "drawn-1": "9-9"}))
    assert response.status_code == 422
    assert 'data-rule="record"' in response.get_data(as_text=True)
    assert table.seq() == 0


def test_after_a_blocked_hand_the_new_choice_is_logged(client):
    table, settle = unsettled(client, finished_hand("blocked"))
    assert table.post("settle", held_fields(settle)).status_code == 303
    page = table.page()
    assert table.post("lead", press(page, "/lead", value="0")).status_code == 303
    log = log_of(table)
    assert "Hand 2 begins: Ann leads, chosen at the table." in log
    assert "Hand 1 was blocked, so the leader of hand 2 was chosen again, at the table" in log


def test_after_a_domino_the_log_says_the_rules_named_the_leader(client):
    game = finished_hand("domino")
    table, settle = unsettled(client, game)
    assert table.post("settle", held_fields(settle)).status_code == 303
    went_out = game.players[game.hands[0].went_out]
    log = log_of(table)
    assert f"Hand 2 begins: {went_out} leads (dominoed in hand 1)." in log
    assert "lead_by" not in record_of(table)["hands"][1]


def test_an_imported_record_keeps_how_and_an_old_one_does_not_guess(client):
    game = finished_hand("domino")
    data = write_record(game)
    plain = import_record(client, data)
    assert "how the leader was chosen was not recorded" in log_of(plain)
    data["hands"][0]["lead_by"] = "draw"
    drawn = import_record(client, data)
    assert "chosen by the draw for the lead" in log_of(drawn)
    assert record_of(drawn)["hands"][0]["lead_by"] == "draw"
