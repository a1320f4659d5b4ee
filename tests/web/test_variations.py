"""Section 8a's variations on the site: offered on the new-game form, refused together where
the rules forbid, shown in fives, and a game in fives won on exactly 61."""

from __future__ import annotations

import json
import random

from scorekeeper.rules import Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from tests.web.webforms import form_for
from tests.web.webtable import as_exported, key_in, new_game


def exported(client, table) -> dict:
    return json.loads(client.get(f"{table.url}/record.json").get_data())


def test_each_variation_is_a_field_with_its_line_of_explanation(client):
    page = client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    assert form.values["units"] == "points" and form.selects["units"] == ["points", "fives"]
    assert form.values["exact_target"] == "no"
    assert form.selects["get_in"] == ["0", "10", "15", "20", "25"]
    assert form.values["blocked_tie"] == "nobody"
    fieldset = page.split('class="variations"')[1].split("</fieldset>")[0]
    for words in (
        "as a cribbage board keeps them",
        "must reach the target exactly",
        "before a side&#39;s scores count",
        "tie for the fewest pips",
    ):
        assert words in fieldset, words


def test_each_variation_starts_a_game_that_records_it(client):
    cases = [
        ({"units": "fives", "target": "61"}, {"units": "fives", "target": 61}),
        ({"exact_target": "yes"}, {"exact_target": "yes"}),
        ({"get_in": "10"}, {"get_in": 10}),
        ({"blocked_tie": "split"}, {"blocked_tie": "split"}),
    ]
    for fields, options in cases:
        table = new_game(client, ["Ann", "Bob", "Cy"], preset="totally-fives", **fields)
        record = {"format": "all-fives/1", "preset": "totally-fives", "options": options}
        whole = as_exported({**record, "players": ["Ann", "Bob", "Cy"], "hands": []})
        assert exported(client, table)["options"] == whole["options"], fields


def test_switching_to_fives_offers_61_and_switching_back_the_presets_points(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(player1="Ann", player2="Bob", units="fives", units_switched="1")
    switched = client.post("/games/new", data=data, headers={"HX-Request": "true"})
    body = switched.get_data(as_text=True)
    assert body.lstrip().startswith('<form id="new-game"')
    again = form_for(body, "/games/new")
    assert again.values["target"] == "61" and again.values["player1"] == "Ann"
    assert "61 is the usual" in body
    assert '<details class="house-rules" open>' in body, "the fold with the switch stays open"
    back = again.data(units="points", units_switched="1")
    points = form_for(client.post("/games/new", data=back).get_data(as_text=True), "/games/new")
    assert points.values["target"] == "250"


def test_without_javascript_fives_with_the_points_target_left_starts_to_61(client):
    table = new_game(client, ["Ann", "Bob"], units="fives")
    options = exported(client, table)["options"]
    assert (options["units"], options["target"]) == ("fives", 61)
    page = table.page()
    assert "to 61" in page and 'data-unit="fives"' in page


def test_a_target_out_of_range_for_its_units_is_refused(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    start = form.button(name="start")
    fives = client.post(
        "/games/new", data=form.data(start, player1="A", player2="B", units="fives", target="300")
    )
    assert fives.status_code == 422
    assert "In fives the target is 1 to 200" in fives.get_data(as_text=True)
    points = client.post("/games/new", data=form.data(start, player1="A", player2="B", target="61"))
    assert points.status_code == 422
    assert "data-game=" not in client.get("/").get_data(as_text=True)


def test_split_with_partners_or_with_deduct_own_is_refused_with_the_reason(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    start = form.button(name="start")
    deduct = client.post(
        "/games/new",
        data=form.data(start, player1="Ann", player2="Bob", player3="Cy", blocked_tie="split"),
    )
    assert deduct.status_code == 422
    assert "split needs settlement: winner-collects" in deduct.get_data(as_text=True)
    partners = client.post(
        "/games/new",
        data=form.data(
            start,
            player1="Ann",
            player2="Bob",
            player3="Cy",
            player4="Dee",
            settlement="winner-collects",
            blocked_tie="split",
            partners="y",
        ),
    )
    assert partners.status_code == 422
    assert "only for games without partners" in partners.get_data(as_text=True)
    assert "data-game=" not in client.get("/").get_data(as_text=True)


def _won_on_61() -> str:
    """A whole game in fives to exactly 61 (seed 2 of the simulated table: 61 to 57)."""
    setup = Setup.create(
        ["Ann", "Bob"], "fives-up", {"units": "fives", "exact_target": "yes", "target": 61}
    )
    game = play_game(setup, random.Random(2))
    assert game.scores == [61, 57] and game.winner == 0
    return json.dumps(write_record(game, every_rule=True))


def test_a_game_in_fives_won_on_exactly_61(client):
    imported = client.post("/games/import", data={"text": _won_on_61()})
    assert imported.status_code == 303
    url = f"/games/{key_in(imported.headers['Location'])}"
    page = client.get(url).get_data(as_text=True)
    assert 'data-side-score="Ann">61<' in page and 'data-side-score="Bob">57<' in page
    assert "Scores in fives" in page and 'data-unit="fives"' in page
    sheet = client.get(f"{url}/sheet").get_data(as_text=True)
    assert "<strong>Ann</strong> with 61 in fives (target 61)" in sheet
    log = client.get(f"{url}/log?hand=all").get_data(as_text=True)
    assert "would pass 61" in log and "in fives" in log
    rules = client.get(f"{url}/rules").get_data(as_text=True)
    assert "the game is won at 61 in fives" in rules
    assert 'data-example="exact_target"' in rules
    rows = client.get(f"{url}/sheet.csv").get_data(as_text=True).strip().splitlines()
    assert rows[0].split(",")[3:6] == [
        "Ann plays in fives",
        "Ann settlement in fives",
        "Ann total in fives",
    ]
    last = rows[-1].split(",")
    assert (last[5], last[8]) == ("61", "57")  # each side's total after the last hand, in fives
