"""The clock of a club night's round on its tables (docs/rules.md 8f, docs/nights.md): each
table's play screen and watch page show the round's time left, and once it is up the first
entry a table posts carries the time entry in front, in the same one write."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.support.night_clock import expire_round, round_id_of
from tests.web.test_clubs import new_club
from tests.web.test_night_records import export, import_into
from tests.web.test_nights import (
    _roster,
    links_of,
    open_night,
    post,
    seat,
    standings_csv,
    start,
)
from tests.web.test_write_statements import COUNTED, READ, _rows_together, sent
from tests.web.webtable import Table, started

DOMINO_FIELDS = {"target": "250", "win_check": "end-of-hand", "deal": "five-each"}
"""House rules under which the leader dominoes with five tiles (see :func:`hand_to_domino`)."""


def night_table(client: FlaskClient, at_limit: str = "finish-hand", **fields: str) -> Table:
    """The table of a started round 1 of a night of Ann and Bob."""
    return night_and_table(client, at_limit, **fields)[1]


def night_and_table(
    client: FlaskClient, at_limit: str = "finish-hand", **fields: str
) -> tuple[str, Table]:
    """A night of Ann and Bob (its page's path) and the table of its started round 1."""
    club = new_club(client)
    _roster(client, club, ["Ann", "Bob"])
    night = open_night(
        client,
        club,
        ["Ann", "Bob"],
        table_size="2",
        at_limit=at_limit,
        **{**DOMINO_FIELDS, **fields},
    )
    round1 = seat(client, night)
    return night, Table(client, links_of(start(client, round1))[0])


def record_of(table: Table) -> dict[str, Any]:
    response = table.client.get(f"{table.url}/record.json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.get_data(as_text=True))
    return data


def leader_of(table: Table) -> tuple[str, str]:
    """Who leads hand 1, and the other player."""
    lead = record_of(table)["hands"][0]["lead"]
    return lead, "Bob" if lead == "Ann" else "Ann"


def hand_to_domino(table: Table) -> list[tuple[str, dict[str, str]]]:
    """The leader's five tiles, all played, against the other's (the referee's own worked
    hand: the leader 15, the other 25 before the settlement)."""
    return [
        ("play", {"tile": "6-6"}),
        ("draw", {}),
        ("draw", {}),
        ("draw", {}),
        ("play", {"tile": "6-3", "end": "W"}),
        ("play", {"tile": "6-1", "end": "E"}),
        ("play", {"tile": "3-3", "end": "W"}),
        ("play", {"tile": "6-4", "end": "N"}),
        ("play", {"tile": "1-0", "end": "E"}),
        ("play", {"tile": "6-5", "end": "S"}),
        ("play", {"tile": "3-2", "end": "W"}),
        ("play", {"tile": "5-5", "end": "S"}),
    ]


def entered(table: Table, action: str, data: dict[str, str]) -> None:
    response = table.post(action, data)
    assert response.status_code == 303, response.get_data(as_text=True)[:800]


def clock_text(page: str) -> str:
    found = re.search(
        r'<div class="round-clock[^"]*"[^>]*>\s*<span data-clock-text>(.*?)</span>\s*(?:<form|</div>)',
        page,
        re.S,
    )
    assert found is not None, "no round clock on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_the_play_screen_shows_the_rounds_time_left(app: Flask, client: FlaskClient) -> None:
    table = night_table(client, minutes="30")
    page = table.page()
    assert re.search(r'data-round-ends="\d{4}-\d\d-\d\dT[\d:.]+\+00:00"', page)
    assert clock_text(page) in ("Round 1 · 30:00 left", "Round 1 · 29:59 left")
    watch = table.client.get(table.watch_url()).get_data(as_text=True)
    assert clock_text(watch).startswith("Round 1 · ")
    expire_round(app, round_id_of(app, table.key), 0)
    assert clock_text(table.page()) == "Time! This hand is the last: the higher side wins"


def test_an_ordinary_game_has_no_clock(client: FlaskClient) -> None:
    page = started(client).page()
    assert 'class="round-clock' not in page and "data-round-ends" not in page


def test_to_target_says_play_on(app: Flask, client: FlaskClient) -> None:
    table = night_table(client, at_limit="to-target")
    expire_round(app, round_id_of(app, table.key), -1)
    assert clock_text(table.page()) == "Time! Play on to the target"


def test_after_time_the_entry_posted_gets_the_time_entry_first_in_one_write(
    app: Flask, client: FlaskClient
) -> None:
    table = night_table(client)
    lead, other = leader_of(table)
    steps = hand_to_domino(table)
    for action, data in steps[:5]:
        entered(table, action, data)
    expire_round(app, round_id_of(app, table.key), -5)
    version = table.version()
    with sent(app) as statements:
        response = table.post(*steps[5], version=version)
    assert response.status_code == 303
    assert table.version() == version + 1
    # The game read once, the round's clock looked up once (its query names the game table
    # first), the change counted by one conditional UPDATE, the time entry and the play
    # inserted together.
    assert _rows_together(statements) == [*READ, "select game", *COUNTED, "insert event"]
    events = [
        {k: v for k, v in e.items() if k != "at"} for e in record_of(table)["hands"][0]["events"]
    ]
    assert events[5:7] == [{"time": "finish-hand"}, {"player": lead, "play": "6-1", "end": "E"}]
    for action, data in steps[6:]:
        entered(table, action, data)
    players = record_of(table)["players"]
    entered(table, "settle", {f"held-{players.index(other)}": "5-4 5-3 4-2 2-1"})
    record = record_of(table)
    assert len(record["hands"]) == 1, "time ended the game: no next hand"
    assert sum(1 for e in record["hands"][0]["events"] if "time" in e) == 1
    page = table.page()
    assert 'data-phase="over"' in page
    assert f"Won at the time limit: {lead} 15, {other} 0" in page
    # After time the table starts no new game of its match: no rematch button, and a
    # rematch posted anyway (an old page) is refused with the reason.
    assert "data-no-rematch" in page and 'data-action="rematch"' not in page
    again = post(client, f"{table.url}/rematch", table.url)
    assert again.status_code == 409
    assert "match ends with this game" in again.get_data(as_text=True)
    sheet = client.get(f"{table.url}/sheet").get_data(as_text=True)
    assert f"Won at the time limit: {lead} 15, {other} 0" in sheet
    assert "Time called: this hand is the last." in client.get(f"{table.url}/log").get_data(
        as_text=True
    )


def test_an_entry_refused_after_time_keeps_the_time_entry(app: Flask, client: FlaskClient) -> None:
    """A tile that fits no end, tapped once time is up: refused (match), and the time entry
    the server called in front of it stays, written: the round's time is up whatever was
    tapped."""
    table = night_table(client)
    entered(table, "play", {"tile": "6-6"})
    expire_round(app, round_id_of(app, table.key), -1)
    version = table.version()
    refused = table.post("play", {"tile": "2-1", "end": "E"}, version=version)
    assert refused.status_code == 422
    assert 'data-rule="match"' in refused.get_data(as_text=True)
    assert "time was called in this game before that entry" in refused.get_data(as_text=True)
    assert table.version() == version + 1
    events = record_of(table)["hands"][0]["events"]
    assert [list(e) for e in events] == [["player", "play", "at"], ["time", "at"]]
    assert clock_text(table.page()) == "Time! This hand is the last: the higher side wins"


def test_a_night_with_a_game_won_at_time_exports_and_imports_the_same(
    app: Flask, client: FlaskClient
) -> None:
    """The night record carries the time entry unchanged: imported, the game is won at the
    time limit again, and the standings are the same."""
    night, table = night_and_table(client)
    lead, other = leader_of(table)
    steps = hand_to_domino(table)
    for action, data in steps[:5]:
        entered(table, action, data)
    expire_round(app, round_id_of(app, table.key), -1)
    for action, data in steps[5:]:
        entered(table, action, data)
    players = record_of(table)["players"]
    entered(table, "settle", {f"held-{players.index(other)}": "5-4 5-3 4-2 2-1"})
    record = export(client, night)
    game = record["rounds"][0]["tables"][0]["games"][0]
    assert {"time": "finish-hand"} in [
        {k: v for k, v in e.items() if k != "at"} for e in game["hands"][0]["events"]
    ]
    assert game == record_of(table)
    moved = import_into(client, new_club(client, "Next club"), json.dumps(record))
    assert standings_csv(client, moved) == standings_csv(client, night)
    rows = {r["player"]: r for r in standings_csv(client, moved)}
    assert (rows[lead]["match_points"], rows[other]["match_points"]) == ("2", "0")
    again = export(client, moved)
    assert again["rounds"] == record["rounds"] and again["standings"] == record["standings"]


def test_call_time_enters_the_time_entry_once_the_clock_is_at_zero(
    app: Flask, client: FlaskClient
) -> None:
    """Before the limit the button is hidden and a post enters nothing; at zero one tap
    enters the time entry alone; then the button is gone and a second tap enters nothing."""
    table = night_table(client)
    entered(table, "play", {"tile": "6-6"})
    page = table.page()
    assert re.search(r"<button[^>]*data-call-time hidden", page), "hidden before the limit"
    version = table.version()
    early = table.post("time", {}, version=version)
    assert early.status_code == 409 and table.version() == version
    expire_round(app, round_id_of(app, table.key), 0)
    assert re.search(r"<button[^>]*data-call-time>", table.page()), "shown at zero"
    entered(table, "time", {})
    assert table.version() == version + 1
    events = record_of(table)["hands"][0]["events"]
    assert [list(e) for e in events] == [["player", "play", "at"], ["time", "at"]]
    page = table.page()
    assert "data-call-time" not in page
    assert clock_text(page) == "Time! This hand is the last: the higher side wins"
    again = table.post("time", {}, version=version + 1)
    assert again.status_code == 409 and table.version() == version + 1
    assert "nothing was entered" in again.get_data(as_text=True)


def test_a_best_of_threes_rematch_has_the_clock_and_a_one_games_has_none(
    client: FlaskClient,
) -> None:
    """The second game of a best of 3 is the table's too: its screen shows the round's
    clock. After a one-game match a rematch is an ordinary game of the club: no clock."""
    for match, clocked in (("best-of-3", True), ("one-game", False)):
        table = night_table(client, match=match, target="10", win_check="immediate")
        entered(table, "play", {"tile": "5-5"})
        assert 'data-phase="over"' in table.page()
        rematch = post(client, f"{table.url}/rematch", table.url)
        assert rematch.status_code == 303
        again = Table(client, rematch.headers["Location"].split("/games/")[1].split("?")[0])
        page = again.page()
        assert ("data-round-ends" in page) is clocked, match
        if clocked:
            assert clock_text(page).startswith("Round 1 · ")
