"""Sniff and ``spinner_counts: open-ends`` on the site (docs/rules.md sections 6 and 8d): the
new-game form, the table and its Why?, the sheet, the rules page and clubs, in every language;
an unknown value or preset refused with nothing stored."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.web.test_clubs import import_into
from tests.web.test_house_rules_in_words import LANGUAGES, said
from tests.web.webforms import form_for
from tests.web.webtable import as_exported, import_record, side_scores, started

DATA = Path(__file__).resolve().parents[1] / "data"
OPEN_END = (
    "%(end)s empty, an open end of the spinner %(tile)s, counts its number (%(rule)s): %(value)s"
)


def _pagat(client: FlaskClient, players: tuple[str, ...] = ("Ann", "Bob"), **fields: str):
    """A Sniff game through the new-game form and the table: 4-4, 6-4 on W, 1-4 on E."""
    table = started(client, players, preset="sniff", **fields)
    for tile, end in (("4-4", None), ("6-4", "W"), ("1-4", "E")):
        assert table.play(tile, end).status_code == 303
    return table


def test_the_form_offers_sniff_and_loads_its_house_rules(client: FlaskClient) -> None:
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    assert "sniff" in form.selects["preset"]
    assert form.selects["spinner_counts"] == ["yes", "no", "open-ends"]
    loaded = client.post("/games/new", data=form.data(form.button(name="load"), preset="sniff"))
    values = form_for(loaded.get_data(as_text=True), "/games/new").values
    assert (values["spinner_counts"], values["settlement"]) == ("open-ends", "winner-collects")
    assert (values["bonus_in_fives"], values["target"], values["lead"]) == ("no", "200", "lots")
    assert values["partners"] == "y"  # partners with 4


def test_pagats_example_scores_fifteen_on_the_table_and_the_why_names_the_open_ends(
    client: FlaskClient,
) -> None:
    table = _pagat(client)
    assert side_scores(unescape(table.page())) == {"Ann": 15, "Bob": 0}
    assert "N 4 + S 4 = 15" in unescape(table.page())
    for language in LANGUAGES:
        log = unescape(
            client.get(f"{table.url}/log?hand=all", headers={"Accept-Language": language}).get_data(
                as_text=True
            )
        )
        # Each tile's name is kept on one line by a span of its own (languages.tiles_unbroken).
        log = re.sub(r'<span class="tile-nowrap">([^<]*)</span>', r"\1", log)
        for end in ("N", "S"):
            line = said(
                language,
                OPEN_END,
                end=end,
                tile="4-4",
                rule=said(
                    language,
                    "house rule %(rule)s: %(value)s",
                    rule="spinner_counts",
                    value="open-ends",
                ),
                value=4,
            )
            assert line in log, (language, end)


def test_four_players_play_sniff_in_partnership(client: FlaskClient) -> None:
    table = _pagat(client, ("Ann", "Bob", "Cy", "Dee"))
    assert side_scores(unescape(table.page())) == {"Ann & Cy": 15, "Bob & Dee": 0}
    record = client.get(f"{table.url}/record.json").get_json()
    assert (record["preset"], record["partners"]) == ("sniff", True)
    assert record["options"]["spinner_counts"] == "open-ends"
    assert len(record["players"]) == 4


def test_open_ends_with_another_preset_from_the_form(client: FlaskClient) -> None:
    table = started(client, ("Ann", "Bob"), spinner_counts="open-ends")
    for tile, end in (("4-4", None), ("6-4", "W"), ("1-4", "E")):
        assert table.play(tile, end).status_code == 303
    assert side_scores(unescape(table.page())) == {"Ann": 15, "Bob": 0}
    record = client.get(f"{table.url}/record.json").get_json()
    assert (record["preset"], record["options"]["spinner_counts"]) == ("all-fives", "open-ends")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_and_the_rules_page_say_open_ends_and_sniff(
    client: FlaskClient, language: str
) -> None:
    table = _pagat(client)
    sheet = unescape(
        client.get(f"{table.url}/sheet", headers={"Accept-Language": language}).get_data(
            as_text=True
        )
    )
    words = said(
        language,
        "as yes, and once both sides are covered each of its ends with nothing on it counts "
        "the spinner's number",
    )
    assert f"<b>{words}</b>" in sheet and "counts: open-ends</code>" in sheet
    rules = unescape(
        client.get("/rules", headers={"Accept-Language": language}).get_data(as_text=True)
    )
    rules = re.sub(r'<span class="tile-nowrap">([^<]*)</span>', r"\1", rules)
    assert 'id="preset-sniff"' in rules
    example = said(
        language,
        "Open ends: lead 4-4 counts 8; 6-4 on W, 6 + 8 = 14; 1-4 on E covers the spinner's "
        "second side, and its two empty ends count 4 each: 6 + 1 + 4 + 4 = 15.",
    )
    assert 'data-example="spinner_counts"><span>' in rules and example in rules
    title = "Sniff: the spinner's open ends count, the winner collects in points, game to 200"
    assert said(language, title) in rules
    assert words in rules
    game_rules = unescape(
        client.get(f"{table.url}/rules", headers={"Accept-Language": language}).get_data(
            as_text=True
        )
    )
    assert said(language, title) in game_rules


def test_a_club_starts_sniff_games_and_imports_them(client: FlaskClient) -> None:
    club = client.post("/clubs/new", data={"name": "Sniffers"}).headers["Location"]
    record = json.loads(
        (
            __import__("pathlib").Path(__file__).parents[1] / "data" / "hand_sniff_pagat.json"
        ).read_text()
    )
    heading = {
        "format": "all-fives-club/1",
        "roster": ["Ann", "Bob"],
        "defaults": {"preset": "sniff"},
    }
    body = (json.dumps(heading) + "\n" + json.dumps(record) + "\n").encode()
    # The hand's record names Sniff's house rules but not every one: the import lists those
    # it leaves out, and imports from that page.
    imported = import_into(client, club, body)
    assert imported.status_code == 303, imported.get_data(as_text=True)
    page = client.get(f"{club}/new").get_data(as_text=True)
    assert form_for(page, "/new").values["preset"] == "sniff"
    lines = client.get(f"{club}/games.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(lines[1])["options"]["spinner_counts"] == "open-ends"
    game = re.search(r'data-club-game="[^"]+">\s*<a href="(/games/[^"]+)"', client.get(club).text)
    assert game is not None
    assert side_scores(unescape(client.get(game.group(1)).get_data(as_text=True))) == {
        "Ann": 35,
        "Bob": 30,
    }


def test_an_unknown_spinner_counts_or_preset_is_refused_and_nothing_stored(
    client: FlaskClient,
) -> None:
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    for field in ({"spinner_counts": "open"}, {"preset": "snif"}):
        data = form.data(form.button(name="start"), player1="Ann", player2="Bob", **field)
        assert client.post("/games/new", data=data).status_code == 422, field
    record = json.loads(
        json.dumps(
            as_exported(
                {"format": "all-fives/1", "preset": "sniff", "players": ["Ann", "Bob"], "hands": []}
            )
        )
    )
    for broken in (
        {**record, "options": {**record["options"], "spinner_counts": "open"}},
        {**record, "preset": "snif"},
    ):
        refused = client.post("/games/import", data={"text": json.dumps(broken)})
        assert refused.status_code == 422
        assert 'data-rule="record"' in refused.get_data(as_text=True)
    assert "data-game=" not in client.get("/").get_data(as_text=True)
    legal = import_record(client, record)
    assert "data-game=" in client.get("/").get_data(as_text=True) and legal.url
