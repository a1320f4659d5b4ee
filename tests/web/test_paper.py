"""Settle it and print it: the rulebook, the log's explanations, referee notes on the table and
in the log, the score sheet (page and CSV) and the blank sheets."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules import ALL_TILES, HOUSE_RULES, PRESETS, RULE_IDS, Game, Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from tests.web.webtable import NO_KEY, key_in, take_left_out

DATA = Path(__file__).resolve().parents[1] / "data"

# -- games imported as a browser imports them ---------------------------------------------
# (Kept here rather than imported from conftest: when tests/web and tests/browser are named
# together on the command line, "conftest" may be the browser one.)


@dataclass
class Imported:
    """A game created through the import form."""

    client: FlaskClient
    key: str

    def page(self) -> str:
        """The table page as it is now."""
        return get(self.client, f"/games/{self.key}")

    def post(self, action: str, data: dict[str, str]) -> TestResponse:
        """Submit an entry form with the version the table page carries."""
        version = re.search(r'name="version" value="(\d+)"', self.page())
        assert version
        return self.client.post(f"/games/{self.key}/{action}", data={"version": version[1], **data})


def import_record(client: FlaskClient, record: dict[str, Any]) -> Imported:
    """Create a game by importing ``record`` through the import form."""
    body = io.BytesIO(json.dumps(record).encode())
    response = client.post(
        "/games/import",
        data={"record": (body, "game.json")},
        content_type="multipart/form-data",
    )
    response = take_left_out(client, response)
    assert response.status_code == 303, response.get_data(as_text=True)
    return Imported(client, key_in(response.headers["Location"]))


def side_scores(html: str) -> dict[str, int]:
    """The scores the scoreboard shows, by side name."""
    found = re.findall(r'data-side-score="([^"]+)">(-?\d+)<', html)
    return {unescape(name): int(score) for name, score in found}


# -- records built by hand ----------------------------------------------------------------

DUO = ["Ann", "Bob"]
NO_SIX = [str(t) for t in ALL_TILES if not t.has(6)]
SIXES = ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]


def play(player: str, tile: str, end: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": player, "play": tile}
    if end is not None:
        entry["end"] = end
    return entry


def domino_hand(remaining: dict[str, Any]) -> dict[str, Any]:
    """Two players, five tiles each: Ann leads 6-6, Bob draws three, Ann dominoes (event 10).

    Bob scores 15 (6-3 on W: W 3 + E 6-6 12) and 10, Ann 15; Bob keeps four tiles.
    """
    events = [
        play("Ann", "6-6"),
        {"player": "Bob", "draw": 3},
        play("Bob", "6-3", "W"),
        play("Ann", "6-1", "E"),
        play("Bob", "3-3", "W"),
        play("Ann", "6-4", "N"),
        play("Bob", "1-0", "E"),
        play("Ann", "6-5", "S"),
        play("Bob", "3-2", "W"),
        play("Ann", "5-5", "S"),
    ]
    return {"lead": "Ann", "events": events, "remaining": remaining}


def domino_record(remaining: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {
        "format": "all-fives/1",
        "options": {"deal": "five-each", **options},
        "players": ["Ann", "Bob"],
        "hands": [domino_hand(remaining)],
    }


def pass_holding_sixes() -> dict[str, Any]:
    """Ann leads 6-6, Bob draws the whole boneyard and passes, Ann passes: blocked.

    Ann still holds every other six, so her pass (event 4) could not have happened.
    """
    events = [
        play("Ann", "6-6"),
        {"player": "Bob", "draw": 10},
        {"player": "Bob", "pass": True},
        {"player": "Ann", "pass": True},
    ]
    remaining = {"Ann": [*SIXES, *NO_SIX[:2]], "Bob": NO_SIX[2:]}
    return {
        "format": "all-fives/1",
        "players": ["Ann", "Bob"],
        "hands": [{"lead": "Ann", "events": events, "remaining": remaining}],
    }


def simulated(players: list[str], preset: str, seed: int, min_hands: int = 3) -> Game:
    """A finished simulated game of at least ``min_hands`` hands (the first seed from ``seed``)."""
    for attempt in range(seed, seed + 200):
        game = play_game(Setup.create(players, preset), random.Random(attempt), max_hands=30)
        if game.winner is not None and len(game.hands) >= min_hands:
            return game
    raise AssertionError("no simulated game found")


def text_of(html: str) -> str:
    """The page's text with tags dropped and whitespace squeezed (a tile's name kept on one
    line, "<span class="tile-nowrap">6-6</span>", is the text it holds)."""
    html = re.sub(r'<span class="tile-nowrap">([^<]*)</span>', r"\1", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def get(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.get_data(as_text=True)


# -- the rulebook --------------------------------------------------------------------------


def test_the_rules_page_lists_every_preset_house_rule_and_rule_id(client):
    page = get(client, "/rules")
    for preset in PRESETS:
        assert f'id="preset-{preset}"' in page
    for rule in HOUSE_RULES:
        assert f'id="house-{rule.name}"' in page
    assert 'id="house-partners"' in page
    for rule_id in RULE_IDS:
        assert f'id="rule-{rule_id}"' in page
    # Each house rule lists its values, and the main navigation leads here.
    assert "<code>winner-collects</code>" in page and "<code>draw-highest</code>" in page
    assert 'href="/rules"' in get(client, "/")


def test_a_games_rules_page_shows_the_values_in_force_and_marks_the_differences(client):
    record = domino_record({"Bob": 26}, target=300)
    table = import_record(client, record)
    page = get(client, f"/games/{table.key}/rules")

    def entry(name: str) -> str:
        found = re.search(rf'<li id="house-{name}"[^>]*>.*?</li>', page, re.S)
        assert found, name
        return found.group(0)

    assert "data-differs" in entry("target") and 'data-value="300"' in entry("target")
    assert "differs from the preset (250)" in entry("target")
    assert "data-differs" in entry("deal") and 'data-value="five-each"' in entry("deal")
    assert "data-differs" not in entry("spinners") and 'data-value="first"' in entry("spinners")
    assert "(as the preset)" in entry("spinners")
    assert 'id="preset-all-fives"' in page
    assert 'id="house-partners"' not in page  # two players: no partnership to choose
    for rule_id in RULE_IDS:
        assert f'id="rule-{rule_id}"' in page


def test_a_refusal_on_the_table_links_to_its_rule(client):
    started = {"lead": "Ann", "events": [play("Ann", "6-6")]}
    table = import_record(client, {"format": "all-fives/1", "players": DUO, "hands": [started]})
    response = table.post("play", {"tile": "5-4", "end": "W"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'data-rule="match"' in page
    assert f'href="/games/{table.key}/rules#rule-match"' in page
    assert 'id="rule-match"' in get(client, f"/games/{table.key}/rules")


def test_the_table_links_to_rules_log_and_sheet(client):
    table = import_record(client, domino_record({"Bob": 26}))
    page = table.page()
    for path in ("rules", "log", "sheet"):
        assert f'href="/games/{table.key}/{path}"' in page


# -- the log -------------------------------------------------------------------------------


def test_the_log_explains_the_spinner_count_the_settlement_and_the_winner(client):
    table = import_record(client, domino_record({"Bob": 13}, target=15))
    page = get(client, f"/games/{table.key}/log")
    text = text_of(page)
    assert "W 3; E 6-6, the spinner at the tip, 12; total 15, a multiple of five: +15" in text
    assert "Bob holds 13, rounds to 15: -15" in text
    assert "Ann 15 >= 15: wins" in text
    # Every entry can be opened (without JavaScript) and has its own link.
    entries = re.findall(r'<li id="e(\d+)"[^>]*>\s*<details', page)
    assert [int(i) for i in entries] == list(range(12))  # new hand, 10 events, settlement
    assert f'href="/games/{table.key}/log?open=2#e2"' in page


def test_a_log_entry_opens_when_linked_from_the_table(client):
    table = import_record(client, domino_record({"Bob": 13}, target=15))
    page = table.page()
    assert "Ann wins!" in page
    # The winner screen links to the sheet and to the entry that decided the game.
    assert f'href="/games/{table.key}/sheet"' in page
    assert f'href="/games/{table.key}/log?open=11#e11"' in page
    log = get(client, f"/games/{table.key}/log?open=11")
    assert re.search(r'<li id="e11"[^>]*>\s*<details open>', log)
    assert not re.search(r'<li id="e10"[^>]*>\s*<details open>', log)


def test_unknown_games_are_not_found_on_every_paper_page(client):
    for path in ("rules", "log", "sheet", "sheet.csv"):
        page = get(client, f"/games/{NO_KEY}/{path}", status=404)
        assert "There is no game at this link" in page


# -- referee notes ------------------------------------------------------------------------


def test_a_pass_while_holding_a_fitting_tile_is_noted_on_the_table_and_in_the_log(client):
    table = import_record(client, pass_holding_sixes())
    expected = "Event 4: Ann passed while holding 6-5, which fitted W (shows 6) and E (shows 6)."
    page = table.page()
    notes = re.search(r'<div class="referee-notes" data-referee-notes="1">.*?</div>', page, re.S)
    assert notes, "the table shows the hand's referee notes"
    assert expected in unescape(notes.group(0))
    assert len(re.findall(r"<li>", notes.group(0))) == 6  # one per six Ann kept
    assert f'href="/games/{table.key}/log?open=4#e4"' in notes.group(0)
    log = get(client, f"/games/{table.key}/log")
    entry = re.search(r'<li id="e4"[^>]*>.*?</details>', log, re.S)
    assert entry and "referee note" in entry.group(0) and expected in unescape(entry.group(0))
    assert 'data-referee-notes="1"' in log
    # Bob's draw and pass are not noted: he holds no six.
    assert not re.search(r'<li id="e[23]"[^>]*noted', log)


def test_a_clean_hand_has_no_referee_notes(client):
    table = import_record(client, domino_record({"Bob": ["5-4", "5-3", "4-2", "2-1"]}))
    page = table.page()
    assert "data-settlement" in page
    assert "referee-notes" not in page
    log = get(client, f"/games/{table.key}/log")
    assert "referee-notes" not in log and "referee note" not in log
    assert "Bob holds 5-4 5-3 4-2 2-1 = 26, rounds to 25: -25" in text_of(log)


def test_a_hand_settled_with_pip_totals_has_no_referee_notes(client):
    table = import_record(client, domino_record({"Bob": 26}))
    assert "referee-notes" not in table.page()


# -- the score sheet -----------------------------------------------------------------------


def sheet_rows(page: str) -> list[dict[str, int]]:
    """Each hand row of the sheet: the totals per side."""
    rows = re.findall(r'<tr data-hand="(\d+)">(.*?)</tr>', page, re.S)
    return [
        {
            unescape(side): int(total)
            for side, total in re.findall(
                r'data-total="([^"]+)">(?:<span class="card-label">[^<]*</span>)?(-?\d+)<', row
            )
        }
        for _number, row in rows
    ]


@pytest.mark.parametrize(
    ("players", "preset", "seed"),
    [(["Ann", "Bob"], "all-fives", 1), (["Ann", "Bob", "Cy", "Dee"], "fives-up", 4)],
)
def test_the_sheet_has_a_row_per_hand_ending_at_the_scoreboard(client, players, preset, seed):
    game = simulated(players, preset, seed)
    table = import_record(client, write_record(game))
    scores = side_scores(table.page())
    page = get(client, f"/games/{table.key}/sheet")
    rows = sheet_rows(page)
    assert len(rows) == len(game.hands)
    assert rows[-1] == scores
    for hand, row in zip(game.hands[1:], rows, strict=False):
        assert list(row.values()) == list(hand.scores_before)  # the running total
    winner = game.sides[game.winner]
    assert f'data-winner="{winner}"' in unescape(page)
    text = text_of(page)
    for name in players:
        assert name in text
    assert f"Target {game.rules.target}" in text
    assert "House rules" in text and "settlement" in text


def test_the_sheet_csv_has_the_same_rows(client):
    game = simulated(["Ann", "Bob", "Cy"], "fives-up", 3)
    table = import_record(client, write_record(game))
    response = client.get(f"/games/{table.key}/sheet.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:3] == ["hand", "leader", "result"]
    assert rows[0][3:6] == ["Ann plays", "Ann settlement", "Ann total"]
    assert len(rows) == 1 + len(game.hands)
    assert [int(r[0]) for r in rows[1:]] == list(range(1, len(game.hands) + 1))
    totals = {side: int(rows[-1][5 + 3 * i]) for i, side in enumerate(game.sides)}
    assert totals == side_scores(table.page())
    html_rows = sheet_rows(get(client, f"/games/{table.key}/sheet"))
    for csv_row, html_row in zip(rows[1:], html_rows, strict=True):
        assert [int(csv_row[5 + 3 * i]) for i in range(3)] == list(html_row.values())


def test_the_sheet_says_the_target_of_the_game_not_the_presets(client):
    """All Fives is played to 250 with two players: a game of three to 100 says so."""
    record = {
        "format": "all-fives/1",
        "players": ["Ann", "Bob", "Cy"],
        "preset": "all-fives",
        "options": {"target": 100},
        "hands": [],
    }
    table = import_record(client, record)
    text = text_of(get(client, f"/games/{table.key}/sheet"))
    assert "Preset All Fives (Muggins): deduct your own pips; this game to 100" in text
    assert "250" not in text


def test_the_sheet_of_a_game_without_hands(client):
    table = import_record(client, {"format": "all-fives/1", "players": DUO, "hands": []})
    page = get(client, f"/games/{table.key}/sheet")
    assert "No hand played yet." in page
    rows = list(csv.reader(io.StringIO(get(client, f"/games/{table.key}/sheet.csv"))))
    assert len(rows) == 1


@pytest.mark.parametrize("sides", range(2, 9))
def test_blank_sheets_for_two_to_eight_sides(client, sides):
    page = get(client, f"/sheets/blank?sides={sides}")
    assert f'data-blank-sheet="{sides}"' in page
    assert len(re.findall(r'class="side-head blank-side"', page)) == sides
    assert len(re.findall(r'<tr class="blank-row">', page)) >= 12
    assert len(re.findall(r'class="tally-box blank-tally"', page)) == sides
    # 5 to 8 print across the page on its side, as a game's sheet of 5 to 8 does.
    assert ("sheet--wide" in page) == (sides > 4)
    # Every count of sides is offered from every blank sheet.
    for n in range(2, 9):
        assert f'href="/sheets/blank?sides={n}"' in page


@pytest.mark.parametrize("query", ["sides=9", "sides=1", "sides=two", "sides=", "sides=2.0"])
def test_a_blank_sheet_for_other_sides_is_a_bad_request(client, query):
    page = get(client, f"/sheets/blank?{query}", status=400)
    assert "A blank score sheet is for 2 to 8 sides" in page
    assert "/sheets/blank?sides=2 to 8" in page


def test_the_tally_draws_houses_circles_and_strokes(client):
    table = import_record(client, domino_record({"Bob": 13}, target=15))
    page = get(client, f"/games/{table.key}/sheet")
    # Ann ends on 15 (a circle and a stroke), Bob on 10 (a circle).
    ann = re.search(
        r'<span class="tally" role="img" aria-label="Ann: ([^"]+)" data-tally="15">(.*?)</span>',
        page,
        re.S,
    )
    assert ann and ann.group(1) == "15, drawn as 1 circle and 1 stroke"
    assert ann.group(2).count("mark-circle") == 1 and ann.group(2).count("mark-stroke") == 1
    game = simulated(["Ann", "Bob"], "all-fives", 1)
    big = import_record(client, write_record(game))
    page = get(client, f"/games/{big.key}/sheet")
    winner = game.sides[game.winner]
    score = game.scores[game.winner]
    found = re.search(
        rf'aria-label="{winner}: [^"]+" data-tally="{score}">(.*?)</span>', page, re.S
    )
    assert found and found.group(1).count("mark-house") == score // 50


TALLY = re.compile(
    r'<span class="tally" role="img" aria-label="(\w+): ([^"]+)" data-tally="-?\d+">(.*?)</span>\n',
    re.S,
)


def test_ten_is_a_circle_on_the_sheet_in_its_words_and_in_the_legend(client):
    """S2: "each line representing 5 points and a circle representing 10"."""
    record = json.loads((DATA / "hand_totally_fives_collects_in_fives.json").read_text())
    table = import_record(client, record)
    page = get(client, f"/games/{table.key}/sheet")
    tallies = {name: (words, svg) for name, words, svg in TALLY.findall(page)}
    assert {name: words for name, (words, _) in tallies.items()} == {
        "Ann": "41, drawn as 4 circles and 1 more",
        "Bob": "15, drawn as 1 circle and 1 stroke",
        "Cy": "10, drawn as 1 circle",
    }
    for name, circles in {"Ann": 4, "Bob": 1, "Cy": 1}.items():
        svg = tallies[name][1]
        assert svg.count('class="mark mark-circle"') == svg.count("<circle ") == circles, name
    assert "mark-cross" not in page
    legend = re.search(r'<p class="tally-legend">(.*?)</p>', page, re.S)
    assert legend is not None
    circle = re.search(
        r'<span><svg class="mark mark-circle"[^>]*>(.*?)</svg> = 10</span>', legend[1]
    )
    assert circle is not None and circle[1].startswith("<circle ")
    blank = get(client, "/sheets/blank?sides=2")
    assert legend[0] in blank and "mark-cross" not in blank
