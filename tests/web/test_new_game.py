"""The new-game form: players, preset, house rules, target and the first leader."""

from __future__ import annotations

import json
import re

from scorekeeper.rules.options import HOUSE_RULES, SEED_RULES, VARIATIONS
from tests.web.webforms import form_for
from tests.web.webtable import as_exported, new_game


def exported(client, table) -> dict:
    return json.loads(client.get(f"{table.url}/record.json").get_data())


def test_the_form_shows_every_house_rule_with_the_preset_values(client):
    page = client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    for rule in HOUSE_RULES:
        assert rule.name in form.values, rule.name
        assert form.values[rule.name] == str(rule.default("all-fives", 2)), rule.name
    assert '<details class="house-rules"' in page
    assert form.values["settlement"] == "deduct-own"
    assert form.values["target"] == "250"


def test_the_house_rules_stand_in_the_registrys_groups_and_order(client):
    page = client.get("/games/new").get_data(as_text=True)
    fold = page.split('<details class="house-rules"')[1].split("</details>")[0]
    seeds, variations = fold.split('<fieldset class="variations">')
    names = {rule.name for rule in HOUSE_RULES}

    def shown(part: str) -> list[str]:
        return [
            name for name in re.findall(r'<(?:select|input)[^>]* id="(\w+)"', part) if name in names
        ]

    # The set goes with the seats and the target under the preset, above the fold.
    assert shown(seeds) == [rule.name for rule in SEED_RULES if rule.name not in ("set", "target")]
    assert shown(variations) == [rule.name for rule in VARIATIONS]
    above = page.split('<details class="house-rules"')[0]
    assert shown(above) == ["set", "target"]


def test_loading_a_preset_fills_its_defaults(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(form.button(name="load"), preset="fives-up", player1="Ann", player2="Bob")
    response = client.post("/games/new", data=data)
    assert response.status_code == 200
    loaded = form_for(response.get_data(as_text=True), "/games/new")
    assert loaded.values["settlement"] == "winner-collects"
    assert loaded.values["bonus_in_fives"] == "yes"
    assert loaded.values["target"] == "100"
    assert loaded.values["lead"] == "draw-highest"
    assert loaded.values["player1"] == "Ann"


def test_htmx_preset_change_returns_the_form_fragment(client):
    response = client.post(
        "/games/new",
        data={"preset": "totally-fives", "load": "1", "player1": "Ann"},
        headers={"HX-Request": "true"},
    )
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<form id="new-game"')
    assert 'value="200"' in body


def test_a_new_game_with_four_players_plays_in_partnership(client):
    table = new_game(client, ["Ann", "Bob", "Cy", "Dee"])
    page = table.page()
    assert 'data-side-score="Ann &amp; Cy"' in page
    assert 'data-side-score="Bob &amp; Dee"' in page
    assert exported(client, table)["players"] == ["Ann", "Bob", "Cy", "Dee"]


def test_four_players_without_partners(client):
    table = new_game(client, ["Ann", "Bob", "Cy", "Dee"], partners="")
    record = exported(client, table)
    assert record["partners"] is False
    assert 'data-side-score="Dee"' in table.page()


def test_changed_house_rules_are_stored_as_options(client):
    table = new_game(client, ["Ann", "Bob"], spinners="none", target="150")
    record = {"format": "all-fives/1", "options": {"spinners": "none", "target": 150}}
    whole = as_exported({**record, "players": ["Ann", "Bob"], "hands": []})
    assert exported(client, table)["options"] == whole["options"]
    assert (whole["options"]["spinners"], whole["options"]["target"]) == ("none", 150)


def test_defaults_follow_the_number_of_players(client):
    # The form was filled for 2 players (target 250); with 3 All Fives plays to 200.
    table = new_game(client, ["Ann", "Bob", "Cy"])
    assert exported(client, table)["options"]["target"] == 200
    assert "to 200" in table.page()


def test_too_few_players_or_a_repeated_name_is_refused(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    response = client.post("/games/new", data=form.data(form.button(name="start"), player1="Ann"))
    assert response.status_code == 422
    response = client.post(
        "/games/new", data=form.data(form.button(name="start"), player1="Ann", player2="ann")
    )
    assert response.status_code == 422
    assert "names must differ" in response.get_data(as_text=True)
    assert "data-game=" not in client.get("/").get_data(as_text=True)


def test_bad_target_is_refused(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    for target in ("7", "abc", "5000"):
        data = form.data(form.button(name="start"), player1="A", player2="B", target=target)
        assert client.post("/games/new", data=data).status_code == 422


def test_games_list_shows_games_in_progress_and_finished(client):
    table = new_game(client, ["Ann", "Bob"])
    page = client.get("/").get_data(as_text=True)
    assert f'href="{table.url}"' in page
    assert "No finished game yet" in page


def test_htmx_start_redirects_the_browser_to_the_table(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob")
    response = client.post("/games/new", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith("/games/")


def test_every_house_rule_of_the_registry_is_a_labelled_field_with_its_values(client):
    page = client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    for rule in HOUSE_RULES:
        assert f'<label for="{rule.name}">{rule.title}</label>' in page, rule.name
        if rule.choices:
            assert form.selects[rule.name] == list(rule.choices), rule.name
        elif rule.number_choices:
            assert form.selects[rule.name] == [str(n) for n in rule.number_choices], rule.name
        else:
            assert rule.numbers is not None
            assert f'max="{rule.numbers[-1]}"' in page.split(f'id="{rule.name}"')[1].split(">")[0]


def test_house_rule_values_outside_the_rule_are_refused_next_to_their_field(client):
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    data = form.data(
        form.button(name="start"), player1="Ann", player2="Bob", deal="six", boneyard_reserve="9"
    )
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Not a valid choice." in page.split('id="deal"')[1].split("</div>")[0]
    assert "Number must be between 0 and 4." in page.split('id="boneyard_reserve"')[1]
    assert "data-game=" not in client.get("/").get_data(as_text=True)
