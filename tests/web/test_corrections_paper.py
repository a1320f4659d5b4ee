"""Muggins! claims and adjustments agreed at the table (docs/rules.md 8b, 8c) on the pages that
say what happened: the log, the score sheet and its CSV, the club's CSV and standings, the
wall board, the rules page and the new-game form."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.rules import Setup
from scorekeeper.rules.stats import GameFacts, SeatFacts
from scorekeeper.web.data import games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from tests.web.test_clubs import NEW_GAME, import_into, new_club, stats_on, watch_link
from tests.web.test_paper import domino_hand, domino_record, get, sheet_rows, text_of
from tests.web.webforms import read_forms
from tests.web.webtable import Table, as_exported, import_record, new_game

REASON = "drew while able to play"


def muggins_record(reason: str = REASON, **options: Any) -> dict[str, Any]:
    """Ann and Bob, muggins on: Bob's 6-3 counts 15 but he calls 10, and Ann cries Muggins!
    (+15); after Ann dominoes the table takes 10 from Bob for ``reason``; Bob holds 13 (-15).

    Ann: 15 (the claim) + 15 (her 6-5) = 30. Bob: 10 (his 1-0) - 10 (adjusted) - 15 = -15."""
    hand = domino_hand({"Bob": 13})
    events = hand["events"]
    events[2] = {**events[2], "called": 10}
    events.insert(3, {"player": "Ann", "muggins": True})
    events.append({"player": "Bob", "adjust": -10, "reason": reason})
    return {
        "format": "all-fives/1",
        "options": {"deal": "five-each", "muggins": "yes", **options},
        "players": ["Ann", "Bob"],
        "hands": [hand],
    }


def open_hand(last: int, adjust: bool = False) -> dict[str, Any]:
    """The same game still in its first hand, its first ``last`` events entered (4: up to
    Ann's claim), then (``adjust``) the adjustment."""
    record = muggins_record()
    hand = record["hands"][0]
    events = [event for event in hand["events"] if "adjust" not in event][:last]
    if adjust:
        events.append({"player": "Bob", "adjust": -10, "reason": REASON})
    record["hands"] = [{"lead": hand["lead"], "events": events}]
    return record


def words(html: str) -> str:
    """The page's text as read: no space left before a full stop, comma or colon."""
    return re.sub(r" ([.,:;])", r"\1", text_of(html))


def csv_rows(client: FlaskClient, url: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(get(client, url))))


def stored(app: Flask, table: Table) -> GameRow:
    """The game's row (read here, not from the table page, which the table's own work shows)."""
    with app.app_context():
        row = db.session.scalar(select(GameRow).where(GameRow.edit_key == table.key))
        assert row is not None
        return row


def log_entry(page: str, index: int) -> str:
    found = re.search(rf'<li id="e{index}"[^>]*>.*?</details>', page, re.S)
    assert found, index
    return found.group(0)


# -- the log -------------------------------------------------------------------------------


def test_the_log_shows_the_claim_and_the_adjustment_with_its_reason_and_time(client):
    table = import_record(client, muggins_record())
    page = get(client, f"/games/{table.key}/log")
    claim = log_entry(page, 4)
    assert 'data-kind="muggins"' in claim
    assert "Bob called 10, the count was 15: Ann's Muggins! +15." in text_of(claim)
    adjusted = log_entry(page, 12)
    assert 'data-kind="adjust"' in adjusted
    assert f"Adjusted: Bob -10 ({REASON})." in text_of(adjusted)
    # When it was entered, as the reader's clock says it.
    when = re.search(
        r'<span class="entry-when" data-entered>entered <time datetime="([^"]+)"', adjusted
    )
    assert when and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", when.group(1))
    # Plays, draws and the settlement say no time: only an adjustment does.
    assert page.count("data-entered") == 1


def test_an_undone_claim_or_adjustment_stays_in_the_log_in_words(app, client):
    table = import_record(client, open_hand(4, adjust=True))
    with app.app_context():  # the data layer's undo, as the table's Undo button makes it
        version = stored(app, table).version
        games.undo(table.key, version)
        games.undo(table.key, version + 1)
    undone = re.findall(
        r"<li class=\"log-entry undone\"[^>]*><del>([^<]*)</del>",
        get(client, f"/games/{table.key}/log"),
    )
    assert [unescape(u) for u in undone] == ["Ann's Muggins!", f"Adjusted: Bob -10 ({REASON})"]


# -- the score sheet ----------------------------------------------------------------------


def adjusted_cells(page: str) -> dict[str, str]:
    return {
        unescape(side): value
        for side, value in re.findall(
            r'data-adjusted="([^"]+)"><span class="card-label">[^<]*</span>(-?\d+)<', page
        )
    }


def test_the_sheet_adds_up_with_claims_in_the_plays_and_a_column_of_adjustments(client):
    table = import_record(client, muggins_record())
    page = get(client, f"/games/{table.key}/sheet")
    assert sheet_rows(page) == [{"Ann": 30, "Bob": -15}]
    text = words(page)
    # Ann's plays hold her claim (15 + 15); Bob's adjustment has its own column: 10 - 10 - 15.
    assert re.search(r"Ann plays 30 adjusted 0 end 0 total 30", text)
    assert re.search(r"Bob plays 10 adjusted -10 end -15 total -15", text)
    assert adjusted_cells(page) == {"Ann": "0", "Bob": "-10"}
    # The chart steps through the claim and the adjustment too, to the totals.
    assert "Scores play by play over 1 hand: now Ann 30 and Bob -15" in text
    assert page.count('<th colspan="4" scope="colgroup" class="side-head">') == 2
    assert "Adj." in page
    assert "Muggins! hand 1, Ann on Bob's 6-3 (called 10, count 15): +15." in text
    adjustments = re.search(
        r'<div class="sheet-adjustments" data-adjustments>(.*?)</div>', page, re.S
    )
    assert adjustments
    assert re.search(rf"Hand 1, \d\d:\d\d UTC: Bob -10, {REASON}", words(adjustments.group(1))), (
        words(adjustments.group(1))
    )
    assert '<time datetime="' in adjustments.group(1)


def test_a_sheet_without_claims_or_adjustments_looks_as_before(client):
    table = import_record(client, domino_record({"Bob": 13}, muggins="yes"))
    page = get(client, f"/games/{table.key}/sheet")
    assert "data-adjusted" not in page and "Adj." not in page
    assert "data-adjustments" not in page and "data-muggins" not in page
    assert page.count('<th colspan="3" scope="colgroup" class="side-head">') == 2


# -- the CSV exports ---------------------------------------------------------------------

SHEET_COLUMNS = [
    "hand", "leader", "result",
    "Ann plays", "Ann settlement", "Ann total",
    "Bob plays", "Bob settlement", "Bob total",
]  # fmt: skip


def test_the_sheet_csv_adds_adjustments_and_claims_after_the_columns_it_always_had(client):
    formula = '=HYPERLINK("http://x.example","x")'
    table = import_record(client, muggins_record(reason=formula))
    rows = csv_rows(client, f"/games/{table.key}/sheet.csv")
    assert rows[0] == [
        *SHEET_COLUMNS, "Ann adjustments", "Bob adjustments", "adjustments", "muggins"
    ]  # fmt: skip
    hand = rows[1]
    assert hand[:9] == ["1", "Ann", "Ann dominoed", "30", "0", "30", "10", "-15", "-15"]
    assert hand[9:11] == ["0", "-10"]
    # plays + settlement + adjustments = the change in the total, for each side
    assert int(hand[6]) + int(hand[7]) + int(hand[10]) == int(hand[8])
    said = re.fullmatch(r"Bob -10: (.*) \((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\)", hand[11])
    assert said and said.group(1) == formula
    assert hand[12] == "Ann's Muggins! on Bob's 6-3 (called 10, count 15): +15"
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in hand[11:])


def test_a_reason_or_name_like_a_formula_never_starts_a_cell(client):
    record = muggins_record(reason="@SUM(1+1)")
    record["players"] = ["=Ann", "Bob"]
    for event in record["hands"][0]["events"]:
        if event.get("player") == "Ann":
            event["player"] = "=Ann"
    record["hands"][0]["lead"] = "=Ann"
    table = import_record(client, record)
    rows = csv_rows(client, f"/games/{table.key}/sheet.csv")
    assert rows[1][12] == "'=Ann's Muggins! on Bob's 6-3 (called 10, count 15): +15"
    assert "@SUM(1+1)" in rows[1][11] and not rows[1][11].startswith("@")


def test_the_sheet_csv_of_a_game_without_corrections_is_as_before(client):
    table = import_record(client, domino_record({"Bob": 13}, muggins="yes"))
    rows = csv_rows(client, f"/games/{table.key}/sheet.csv")
    assert rows == [SHEET_COLUMNS, ["1", "Ann", "Ann dominoed", "15", "0", "15", "25", "-15", "10"]]


def test_the_club_csv_has_adjustments_and_claims_only_when_a_game_has_them(client):
    club = new_club(client)
    plain = domino_record({"Bob": 13}, target=15)
    import_into(client, club, json.dumps(plain) + "\n")
    watch = watch_link(client, club)
    before = csv_rows(client, f"{watch}/games.csv")
    assert before[0] == [
        "game", "date", "players", "hand", "side", "points from plays", "settlement",
        "score after the hand", "units",
    ]  # fmt: skip
    import_into(client, club, json.dumps(muggins_record(target=30)) + "\n")
    rows = csv_rows(client, f"{watch}/games.csv")
    assert rows[0] == [*before[0], "adjustments", "adjustment reasons", "muggins claims"]
    # The plain game's cells are as they were, with nothing in the new columns.
    assert [row[:9] for row in rows[1:3]] == before[1:3]
    assert [row[9:] for row in rows[1:3]] == [["0", "", "0"], ["0", "", "0"]]
    ann, bob = rows[3], rows[4]
    assert ann[4:9] == ["Ann", "30", "0", "30", "points"]
    assert ann[9:] == ["0", "", "1"]
    assert bob[4:10] == ["Bob", "10", "-15", "-15", "points", "-10"]
    assert re.fullmatch(rf"Bob -10: {REASON} \(\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)", bob[10])
    assert bob[11] == "0"


# -- club standings -----------------------------------------------------------------------


def test_standings_count_claimed_points_and_a_muggins_column_of_claims_won(client):
    club = new_club(client)
    import_into(client, club, json.dumps(domino_record({"Bob": 13}, target=15)) + "\n")
    page = get(client, club)
    assert 'data-sort="muggins"' not in page, "no claim yet: no column of noughts"
    import_into(client, club, json.dumps(muggins_record(target=30)) + "\n")
    stats = stats_on(get(client, club))
    # Ann: 15 in the first game, then her 6-5 (15) and her claim of Bob's missed 15.
    assert (stats["Ann"]["points"], stats["Ann"]["muggins"]) == ("45", "1")
    # Bob's 6-3 scored nothing for him, called short; his 15 and 10 first, then his 1-0.
    assert (stats["Bob"]["points"], stats["Bob"]["muggins"]) == ("35", "0")
    assert 'data-sort="muggins"' in get(client, club)


def test_facts_stored_before_muggins_read_with_no_claims():
    facts = GameFacts((SeatFacts(points=15), SeatFacts()), (0, 1), False, 0, (15, 10), 1, 1)
    stored = facts.to_json()
    for seat in stored["seats"]:
        del seat["muggins"]
    again = GameFacts.from_json(stored)
    assert again is not None and again.seats[0].points == 15 and again.seats[0].muggins == 0


# -- the wall board ----------------------------------------------------------------------


def board(app: Flask, client: FlaskClient, table: Table) -> str:
    return get(client, f"/watch/{stored(app, table).watch_key}/board")


def board_news(page: str) -> tuple[str, str] | None:
    found = re.search(r'<p class="board-news" data-board-news="([^"]+)">(.*?)</p>', page, re.S)
    return None if found is None else (found.group(1), text_of(found.group(2)).strip())


def test_the_board_says_a_count_called_short_a_claim_and_an_adjustment(app, client):
    missed = import_record(client, open_hand(3))
    assert board_news(board(app, client, missed)) == (
        "play",
        "Last entry Bob played 6-3 on W: W 3 + E 12 = 15; Bob called 10: no score, "
        "Muggins! is open.",
    )
    claimed = import_record(client, open_hand(4))
    assert board_news(board(app, client, claimed)) == (
        "muggins",
        "Last entry Bob called 10, the count was 15: Ann's Muggins! +15.",
    )
    adjusted = import_record(client, open_hand(4, adjust=True))
    assert board_news(board(app, client, adjusted)) == (
        "adjust",
        f"Last entry Adjusted: Bob -10 ({REASON}).",
    )
    played_on = import_record(client, open_hand(5))
    assert board_news(board(app, client, played_on)) is None


# -- the rules page and the new-game form -------------------------------------------------


def test_the_rules_pages_explain_adjustments_and_calling_the_count(client):
    for url in ("/rules", f"/games/{import_record(client, muggins_record()).key}/rules"):
        page = get(client, url)
        section = re.search(r'<section id="adjustments".*?</section>', page, re.S)
        assert section, url
        text = text_of(section.group(0))
        assert "Corrections agreed at the table" in text
        assert "a penalty for drawing while able to play" in text
        assert 'id="rule-call"' in page and "Calling the count" in page
        assert 'id="house-muggins"' in page
    assert 'href="#adjustments"' in get(client, "/rules")


def test_a_new_game_and_a_clubs_defaults_offer_muggins(client):
    form = next(f for f in read_forms(get(client, "/games/new")) if f.action == "/games/new")
    assert form.values["muggins"] == "no"
    table = new_game(client, ["Ann", "Bob"], muggins="yes")
    record = json.loads(client.get(f"{table.url}/record.json").get_data())
    header = {"format": "all-fives/1", "options": {"muggins": "yes"}, "players": ["Ann", "Bob"]}
    assert record["options"] == as_exported({**header, "hands": []})["options"]
    assert record["options"]["muggins"] == "yes"
    assert 'data-value="yes"' in re.search(
        r'<li id="house-muggins".*?</li>', get(client, f"{table.url}/rules"), re.S
    ).group(0)
    club = new_club(client)
    data = dict(NEW_GAME, player1="Ann", player2="Bob", muggins="yes", club_defaults="y")
    assert client.post(f"{club}/new", data=data).status_code == 303
    fields = {f.action: f for f in read_forms(get(client, f"{club}/new"))}[f"{club}/new"]
    assert fields.values["muggins"] == "yes"
    assert Setup.create(["Ann", "Bob"], "all-fives", {"muggins": "yes"}).rules.muggins
