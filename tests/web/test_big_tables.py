"""Tables of 5 to 8 with a double-nine or double-twelve set (issue 24): the new-game form's
eight seats and its set beside them, alone and in a club; the lead of an eight-player hand;
the score sheet, its CSV and a club's standings with games of 5 to 8 players."""

from __future__ import annotations

import csv
import html
import io
import json
import random
import re
from functools import cache
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.rules import Game, Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from tests.web.test_clubs import (
    NEW_GAME,
    expected_standings,
    import_into,
    jsonl,
    new_club,
    stats_on,
    watch_link,
)
from tests.web.test_paper import sheet_rows
from tests.web.webforms import Form, form_for
from tests.web.webtable import (
    Table,
    as_exported,
    import_record,
    key_in,
    new_game,
    side_scores,
)


def named_as_exported(players: list[str], options: dict[str, str]) -> dict[str, object]:
    """Every house rule as an export names it, in an all-fives game with ``options``."""
    header = {"format": "all-fives/1", "options": options, "players": players, "hands": []}
    return dict(as_exported(header)["options"])


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
    assert record["options"] == named_as_exported(EIGHT, {"set": "double-twelve"})
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
    assert record["options"] == named_as_exported(EIGHT[:6], {"set": "double-nine"})
    assert "partners" not in record
    # Six players with a double-nine set hold 7 tiles each (docs/rules.md 1a).
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


# -- the score sheet, its CSV and the chart -------------------------------------------------


@cache
def _finished(players: int, set_name: str, seed: int) -> str:
    """The first simulated game of ``players`` with ``set_name`` won within 12 hands."""
    setup = Setup.create(EIGHT[:players], "all-fives", {"set": set_name})
    for attempt in range(seed, seed + 200):
        game = play_game(setup, random.Random(attempt), max_hands=12)
        if game.winner is not None:
            return json.dumps(write_record(game))
    raise AssertionError("no simulated game was won")


def finished(players: int, set_name: str = "double-twelve", seed: int = 1) -> dict[str, Any]:
    return json.loads(_finished(players, set_name, seed))


def replayed(record: dict[str, Any]) -> Game:
    from scorekeeper.rules.record import read_record

    return read_record(record)


def test_the_sheet_of_eight_players_has_eight_sides_of_three_columns_and_right_totals(client):
    record = finished(8)
    game = replayed(json.loads(json.dumps(record)))
    table = import_record(client, record)
    page = client.get(f"{table.url}/sheet").get_data(as_text=True)
    # Printed across a page on its side (print.css, @page wide).
    assert '<article class="sheet sheet--wide"' in page
    assert 'class="sheet-table sides-8' in page
    heads = re.findall(r'<th colspan="3" scope="colgroup" class="side-head">([^<]+)<', page)
    assert heads == EIGHT
    rows = sheet_rows(page)
    assert len(rows) == len(game.hands)
    for hand, row in zip(game.hands[1:], rows, strict=False):
        assert list(row.values()) == list(hand.scores_before)
    assert rows[-1] == dict(zip(game.sides, game.scores, strict=True))
    for number in range(1, len(game.hands) + 1):
        cells = re.search(rf'<tr data-hand="{number}">(.*?)</tr>', page, re.S)
        assert cells is not None
        assert len(re.findall(r'<td class="num', cells.group(1))) == 3 * 8
    assert f'data-winner="{game.sides[game.winner]}"' in page


def test_the_csv_of_eight_players_has_three_columns_per_side_and_the_totals(client):
    record = finished(8)
    game = replayed(json.loads(json.dumps(record)))
    table = import_record(client, record)
    body = client.get(f"{table.url}/sheet.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(body)))
    assert len(rows[0]) == 3 + 3 * 8
    assert rows[0][3:6] == ["Ann plays", "Ann settlement", "Ann total"]
    assert rows[0][-3:] == ["Hal plays", "Hal settlement", "Hal total"]
    assert len(rows) == 1 + len(game.hands)
    for row in rows[1:]:
        assert len(row) == 3 + 3 * 8
    finals = [int(rows[-1][5 + 3 * side]) for side in range(8)]
    assert finals == list(game.scores)
    # Each side's total is the one before plus the hand's plays and settlement.
    before = [0] * 8
    for row in rows[1:]:
        for side in range(8):
            plays, settled, total = row[3 + 3 * side : 6 + 3 * side]
            assert before[side] + int(plays) + int(settled or 0) == int(total)
            before[side] = int(total)


def test_the_chart_of_eight_players_tells_every_line_apart(client):
    table = import_record(client, finished(8))
    page = client.get(f"{table.url}/sheet").get_data(as_text=True)
    lines = re.findall(
        r'<polyline class="chart-line chart-line-(\d)"[^>]*data-series="([^"]+)"', page
    )
    assert [name for _style, name in lines] == EIGHT
    assert sorted(style for style, _name in lines) == [str(n) for n in range(1, 9)]
    # A shape at each line's end and before its name: eight shapes, each drawn twice.
    shapes = re.findall(r'<path class="chart-marker chart-name-(\d)" d="([^"]+)"', page)
    assert len(shapes) == 16
    assert len({d for _style, d in shapes}) == 8


def test_a_chart_of_four_lines_is_drawn_as_before_without_shapes(client):
    record = {
        "format": "all-fives/1",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "partners": False,
        "hands": [{"lead": "Ann", "events": [{"player": "Ann", "play": "5-5"}]}],
    }
    table = import_record(client, record)
    page = client.get(f"{table.url}/sheet").get_data(as_text=True)
    styles = re.findall(r'<polyline class="chart-line chart-line-(\d)"', page)
    assert styles == ["1", "2", "3", "4"]
    assert "chart-marker" not in page
    assert "sheet--wide" not in page


# -- the rules pages ---------------------------------------------------------------------------


def test_a_games_rules_page_says_its_sets_numbers_and_its_deal(client):
    record = {
        "format": "all-fives/1",
        "preset": "fives-up",
        "options": {"set": "double-twelve"},
        "players": EIGHT,
        "hands": [],
    }
    table = import_record(client, record)
    page = html.unescape(client.get(f"{table.url}/rules").get_data(as_text=True))
    assert "In this game: 91 tiles, numbers 0 to 12, 1092 pips in all." in page
    assert "In this game: 9 tiles each for 8 players, 19 left in the boneyard." in page
    assert 'data-value="double-twelve">91 tiles, numbers 0 to 12, 2 to 8 players' in page


def test_the_rules_page_lists_every_set_with_its_tiles_and_deal(client):
    page = html.unescape(client.get("/rules").get_data(as_text=True))
    section = page[page.index('data-house="set"') :]
    section = section[: section.index("</li>")]
    assert "<code>double-six</code></dt><dd>28 tiles, numbers 0 to 6, 2 to 4 players" in section
    assert "55 tiles, numbers 0 to 9, 2 to 8 players; 9, 7 or 6 tiles each" in section
    assert "91 tiles, numbers 0 to 12, 2 to 8 players; 12, 11 or 9 tiles each" in section


# -- a club's standings -----------------------------------------------------------------------


@cache
def _big_table_records() -> str:
    """Finished games of 5 to 8 of ten names, with both larger sets and all three presets."""
    names = (*EIGHT, "Ivy", "Jo")
    records = []
    for seed in range(12):
        rng = random.Random(seed)
        players = rng.sample(names, 5 + seed % 4)
        preset = ("all-fives", "fives-up", "totally-fives")[seed % 3]
        options = {"set": ("double-nine", "double-twelve")[seed // 2 % 2]}
        game = play_game(Setup.create(players, preset, options), rng, 40)
        if game.winner is not None:
            records.append(write_record(game))
    return json.dumps(records)


def test_standings_of_games_of_five_to_eight_match_a_tally_of_the_records(client):
    records = json.loads(_big_table_records())
    assert len(records) >= 8
    assert {len(record["players"]) for record in records} == {5, 6, 7, 8}
    club = new_club(client)
    assert import_into(client, club, jsonl(records)).status_code == 303
    page = client.get(club).get_data(as_text=True)
    assert stats_on(page) == expected_standings(records)
    # Games of more than four players have no partners: no pair is listed.
    assert 'data-standings="pairs"' not in page
    # The club's CSV has a row per hand per side.
    csv_text = client.get(f"{watch_link(client, club)}/games.csv").get_data(as_text=True)
    expected = sum(len(replayed(record).hands) * len(record["players"]) for record in records)
    assert len(csv_text.strip().splitlines()) - 1 == expected
