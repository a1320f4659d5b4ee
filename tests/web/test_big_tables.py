"""Tables of 5 to 8 with a double-nine or double-twelve set (issue 24): the new-game form's
eight seats and its set beside them, alone and in a club; the lead of an eight-player hand;
the score sheet, its CSV and a club's standings with games of 5 to 8 players."""

from __future__ import annotations

import html
import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from tests.web.test_clubs import NEW_GAME, new_club
from tests.web.webforms import Form, form_for
from tests.web.webtable import Table, key_in, new_game, side_scores

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def blank_form(client: FlaskClient, path: str = "/games/new") -> Form:
    return form_for(client.get(path).get_data(as_text=True), path)


def stored_games(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(select(GameRow)).all())


def exported(client: FlaskClient, table: Table) -> dict:
    return json.loads(client.get(f"{table.url}/record.json").get_data())


def starting(form: Form, names: list[str], **fields: str) -> dict[str, str]:
    """What the form sends when Start is pressed with ``names`` in seat order."""
    typed = {f"player{seat}": name for seat, name in enumerate(names, 1)}
    return form.data(form.button(name="start"), **typed, leader="table", **fields)


# -- the new-game form ------------------------------------------------------------------------


def test_the_form_has_eight_seats_and_the_set_beside_them_outside_the_house_rules(client):
    page = client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    assert [f"player{seat}" for seat in range(1, 9)] == [
        name for name in form.values if name.startswith("player")
    ]
    seats = page[page.index('<fieldset class="seats-fields') : page.index("</fieldset>")]
    # The set is chosen among the seats, before seats 5 to 8, which are marked as needing it.
    assert seats.index('name="player4"') < seats.index('name="set"') < seats.index('"player5"')
    more = seats[seats.index("data-more-seats") :]
    assert "double-nine or double-twelve set only" in more
    assert all(f'name="player{seat}"' in more for seat in range(5, 9))
    house_rules = page[page.index('<details class="house-rules"') :]
    assert 'name="set"' not in house_rules
    assert form.values["set"] == "double-six"
    assert "(2 to 4, up to 8 with a larger set)" in page


def test_eight_players_with_double_twelve_start_from_the_form_without_javascript(client):
    table = new_game(client, EIGHT, set="double-twelve")
    record = exported(client, table)
    assert record["players"] == EIGHT
    assert record["options"] == {"set": "double-twelve"}
    assert list(side_scores(table.page())) == EIGHT
    # Hal, in seat 8, can be chosen to lead: the lead takes seats up to the eighth.
    led = table.post("lead", {"how": "seat", "leader": "7"})
    assert led.status_code == 303
    assert 'data-turn="Hal"' in table.page()


def test_six_players_with_double_nine_start_with_htmx(client):
    form = blank_form(client)
    data = starting(form, EIGHT[:6], set="double-nine", partners="")
    response = client.post("/games/new", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    table = Table(client, key_in(response.headers["HX-Redirect"].split("?")[0]))
    record = exported(client, table)
    assert record["players"] == EIGHT[:6]
    assert record["options"] == {"set": "double-nine"}
    assert "partners" not in record
    # Six players with a double-nine set hold 7 tiles each (RULES.md 1a).
    table.post("lead", {"how": "seat", "leader": "0"})
    page = table.page()
    assert re.findall(r'data-held="\d"[^>]*>(\d+)<', page) == ["7"] * 6


def test_five_names_with_a_double_six_set_are_refused_beside_the_set_and_nothing_stored(
    app, client
):
    form = blank_form(client)
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post("/games/new", data=starting(form, EIGHT[:5]), headers=headers)
        assert response.status_code == 422
        page = html.unescape(response.get_data(as_text=True))
        message = (
            "A double-six set is for 2 to 4 players: for 5 players choose double-nine or "
            "double-twelve."
        )
        assert message in page
        # Beside the set, in the seats' fieldset; seat 5's name is kept, its seat in view.
        seats = page[page.index('<fieldset class="seats-fields') :]
        assert seats.index('name="set"') < seats.index(message) < seats.index('name="player5"')
        assert 'class="more-seats more-seats--filled"' in page
        assert form_for(page, "/games/new").values["player5"] == "Eve"
    assert stored_games(app) == 0
    # The same names with a larger set start the game.
    assert (
        client.post("/games/new", data=starting(form, EIGHT[:5], set="double-nine")).status_code
        == 303
    )
    assert stored_games(app) == 1


def test_partners_asked_for_with_six_players_are_refused_and_nothing_stored(app, client):
    # Fives-Up plays without partners: the box ticked is the scorekeeper's own choice.
    form = blank_form(client)
    loaded = client.post("/games/new", data=form.data(form.button(name="load"), preset="fives-up"))
    form = form_for(loaded.get_data(as_text=True), "/games/new")
    assert "partners" not in form.values
    data = starting(form, EIGHT[:6], set="double-nine", partners="y")
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    assert "Partners play only with 4 players" in page
    partners = page[page.index('name="partners"') :]
    assert partners.index("Partners play only with 4 players") < partners.index('name="target"')
    assert stored_games(app) == 0


def test_all_fives_ticks_partners_for_four_and_six_players_play_each_for_themselves(client):
    form = blank_form(client)
    assert form.values["partners"] == "y"  # All Fives plays partners with 4
    response = client.post("/games/new", data=starting(form, EIGHT[:6], set="double-nine"))
    assert response.status_code == 303
    table = Table(client, key_in(response.headers["Location"].split("?")[0]))
    assert list(side_scores(table.page())) == EIGHT[:6]


def test_loading_a_preset_keeps_the_set_and_every_seat(client):
    form = blank_form(client)
    typed = {f"player{seat}": name for seat, name in enumerate(EIGHT[:7], 1)}
    data = form.data(form.button(name="load"), preset="totally-fives", set="double-twelve", **typed)
    loaded = form_for(client.post("/games/new", data=data).get_data(as_text=True), "/games/new")
    assert loaded.values["set"] == "double-twelve"
    assert loaded.values["player7"] == "Gus" and loaded.values["player8"] == ""
    assert loaded.values["settlement"] == "winner-collects"
    assert loaded.values["filled"] == "totally-fives:7"


def test_a_club_game_of_seven_from_the_roster_form(app, client):
    club = new_club(client)
    page = client.get(f"{club}/new").get_data(as_text=True)
    assert [f'data-roster-seat="{seat}"' in page for seat in range(1, 9)] == [True] * 8
    assert 'data-seat-up="8"' in page
    data = dict(NEW_GAME, set="double-nine")
    data.update({f"player{seat}": name for seat, name in enumerate(EIGHT[:7], 1)})
    started = client.post(f"{club}/new", data=data)
    assert started.status_code == 303
    roster = client.get(f"{club}/players").get_data(as_text=True)
    assert re.findall(r'data-roster-player="([^"]+)"', roster) == EIGHT[:7]
    # Seven with a double-six set: refused beside the set, nothing stored, nobody added.
    data = dict(NEW_GAME)
    data.update({f"player{seat}": name for seat, name in enumerate(["Ivy", *EIGHT[:6]], 1)})
    refused = client.post(f"{club}/new", data=data)
    assert refused.status_code == 422
    assert "A double-six set is for 2 to 4 players" in html.unescape(refused.get_data(as_text=True))
    assert stored_games(app) == 1
    roster = client.get(f"{club}/players").get_data(as_text=True)
    assert "Ivy" not in roster
