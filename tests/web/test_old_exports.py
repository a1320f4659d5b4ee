"""Old exports keep their scores: an export names every house rule, and an import of a record
that leaves some out lists them with the values they will take before anything is stored."""

from __future__ import annotations

import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tests.web.webforms import form_for
from tests.web.webtable import Table, as_exported, key_in, side_scores, take_left_out

DATA = Path(__file__).resolve().parents[1] / "data"
BEFORE_THE_CHANGE: dict[str, Any] = json.loads(
    (DATA / "hand_totally_fives_collects_in_fives.json").read_text("utf-8")
)
"""A Totally Fives game as exports wrote it before 26 November 2026: its preset's defaults
left out, ``bonus_in_fives`` among them (then "no"). Ann scored 35 in play and collected
Bob's 21 and Cy's 7 pips, 28 -> 30, in points: 65, 15 and 10 were its scores."""
ITS_SCORES = {"Ann": 65, "Bob": 15, "Cy": 10}


def _post(client: FlaskClient, record: dict[str, Any]):
    body = json.dumps(record).encode()
    return client.post(
        "/games/import",
        data={"record": (io.BytesIO(body), "old.json")},
        content_type="multipart/form-data",
    )


def _games_listed(client: FlaskClient) -> int:
    return len(re.findall(r"data-game=", client.get("/").get_data(as_text=True)))


def _left_out(page: str) -> dict[str, str]:
    """The house rules the import page lists as left out, with the value each will take."""
    return dict(re.findall(r'data-left-out-rule="([\w_]+)" data-value="([^"]*)"', page))


def test_a_record_from_before_the_totally_fives_change_imports_with_the_scores_it_had(client):
    shown = _post(client, BEFORE_THE_CHANGE)
    page = unescape(shown.get_data(as_text=True))
    # Nothing is stored yet: the page lists every house rule the record leaves out, and the
    # value each will take (the preset's today), bonus_in_fives with the old default's note.
    assert shown.status_code == 200 and _games_listed(client) == 0
    left_out = _left_out(page)
    assert list(left_out) == [
        "deal", "set", "lead", "spinners", "spinner_counts", "boneyard_reserve", "settlement",
        "bonus_in_fives", "target", "win_check", "units", "exact_target", "get_in",
        "blocked_tie", "muggins",
    ]  # fmt: skip
    assert left_out["bonus_in_fives"] == "yes" and left_out["target"] == "200"
    assert "Totally Fives kept this bonus in points (no) until 26 November 2026" in page
    assert "Nothing is stored until you import." in page

    imported = take_left_out(client, shown, bonus_in_fives="no")
    assert imported.status_code == 303
    table = Table(client, key_in(imported.headers["Location"]))
    assert side_scores(unescape(table.page())) == ITS_SCORES
    exported = client.get(f"{table.url}/record.json").get_json()
    assert exported["options"]["bonus_in_fives"] == "no"
    assert _post(client, exported).status_code == 303, "an export names every rule: no list"


def test_taking_the_values_offered_plays_by_todays_defaults(client):
    imported = take_left_out(client, _post(client, BEFORE_THE_CHANGE))
    assert imported.status_code == 303
    table = Table(client, key_in(imported.headers["Location"]))
    # 28 -> 30, divided by 5: 6, as Totally Fives collects now.
    assert side_scores(unescape(table.page())) == {"Ann": 41, "Bob": 15, "Cy": 10}


def test_only_the_house_rules_a_record_leaves_out_are_listed(client):
    named = {**BEFORE_THE_CHANGE, "options": {"bonus_in_fives": False, "spinners": "first"}}
    page = _post(client, named).get_data(as_text=True)
    assert "bonus_in_fives" not in _left_out(page) and "spinners" not in _left_out(page)
    assert "Totally Fives kept this bonus" not in page
    four = {**as_exported(BEFORE_THE_CHANGE), "players": ["Ann", "Bob", "Cy", "Dee"]}
    four["hands"] = [{"lead": "Ann", "events": [{"player": "Ann", "play": "5-5"}]}]
    assert _left_out(_post(client, four).get_data(as_text=True)) == {"partners": "no"}


def test_a_value_outside_the_rule_is_refused_with_record_and_stores_nothing(client):
    shown = _post(client, BEFORE_THE_CHANGE)
    form = form_for(shown.get_data(as_text=True), "/games/import")
    refused = client.post("/games/import", data=form.data(**{"take-bonus_in_fives": "maybe"}))
    assert refused.status_code == 422
    page = unescape(refused.get_data(as_text=True))
    assert 'data-rule="record"' in page and "House rule bonus_in_fives is one of yes, no" in page
    assert _games_listed(client) == 0


def test_a_choice_that_makes_the_record_illegal_is_refused_where_it_breaks(client):
    # With no spinner the 4-4 lead opens no N: the record breaks at the play on N.
    record = json.loads((DATA / "hand_sniff_pagat.json").read_text("utf-8"))
    shown = _post(client, record)
    assert _left_out(shown.get_data(as_text=True))["spinner_counts"] == "open-ends"
    refused = take_left_out(client, shown, spinners="none")
    assert refused.status_code == 422
    assert 'data-rule="end-unknown"' in refused.get_data(as_text=True)
    assert _games_listed(client) == 0


def _new_club(client: FlaskClient) -> str:
    created = client.post("/clubs/new", data={"name": "Family"})
    assert created.status_code == 303
    return str(created.headers["Location"])


def _into_club(client: FlaskClient, club: str, records: list[dict[str, Any]]):
    lines = "".join(json.dumps(record) + "\n" for record in records).encode()
    return client.post(
        f"{club}/import",
        data={"records": (io.BytesIO(lines), "games.jsonl")},
        content_type="multipart/form-data",
    )


def test_a_club_tells_a_game_again_whether_its_record_names_the_house_rules_or_not(client):
    club = _new_club(client)
    assert _into_club(client, club, [BEFORE_THE_CHANGE]).status_code == 303
    _roster, game = client.get(f"{club}/games.jsonl").get_data(as_text=True).splitlines()
    exported = json.loads(game)
    assert exported["options"]["bonus_in_fives"] == "yes"  # the club took today's default
    # The same game as a record naming every house rule: the duplicate fingerprint is taken
    # of the record naming them all, so it is the same game and is refused.
    again = _into_club(client, club, [exported])
    assert again.status_code == 422
    assert "it is in the club already" in again.get_data(as_text=True)
    named = {**BEFORE_THE_CHANGE, "options": {"bonus_in_fives": "yes", "target": 200}}
    assert _into_club(client, club, [named]).status_code == 422
    # Another value of a rule the record left out is another game.
    other = {**BEFORE_THE_CHANGE, "options": {"bonus_in_fives": "no"}}
    assert _into_club(client, club, [other]).status_code == 303
