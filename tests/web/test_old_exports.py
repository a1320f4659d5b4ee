"""Old exports keep their scores: an export names every house rule, and an import of a record
that leaves some out lists them with the values they will take before anything is stored."""

from __future__ import annotations

import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.test_clubs import confirm_left_out
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


def _into_club(client: FlaskClient, club: str, records: list[dict[str, Any]], confirm=True):
    lines = "".join(json.dumps(record) + "\n" for record in records).encode()
    answer = client.post(
        f"{club}/import",
        data={"records": (io.BytesIO(lines), "games.jsonl")},
        content_type="multipart/form-data",
    )
    return confirm_left_out(client, club, answer) if confirm else answer


def _renamed(
    record: dict[str, Any], names: tuple[str, ...] = ("Di", "Ed", "Flo")
) -> dict[str, Any]:
    """``record`` played by ``names`` in Ann, Bob and Cy's seats."""
    text = json.dumps(record)
    for old, new in zip(("Ann", "Bob", "Cy"), names, strict=True):
        text = text.replace(f'"{old}"', f'"{new}"')
    renamed: dict[str, Any] = json.loads(text)
    return renamed


def _club_games(client: FlaskClient, club: str) -> list[dict[str, Any]]:
    lines = client.get(f"{club}/games.jsonl").get_data(as_text=True).splitlines()
    return [json.loads(line) for line in lines[1:]]


def _groups(page: str) -> list[tuple[list[str], dict[str, str]]]:
    """Each group the club's import lists: the games in it (where and players, as shown) and
    the house rules they leave out with the value each will take."""
    found = []
    for group in page.split("data-left-out-group")[1:]:
        games = re.findall(r"<li data-left-out-game>([^<]*)</li>", group)
        found.append((games, _left_out(group)))
    return found


def test_a_club_import_lists_what_each_record_leaves_out_before_storing_anything(client):
    club = _new_club(client)
    fives_up = json.loads((DATA / "hand_fives_up_spinner_on_line.json").read_text("utf-8"))
    fives_up = _renamed(fives_up)
    named = as_exported(_renamed(BEFORE_THE_CHANGE, ("Gus", "Hal", "Ivy")))
    shown = _into_club(client, club, [BEFORE_THE_CHANGE, named, fives_up], confirm=False)
    page = unescape(shown.get_data(as_text=True))
    assert shown.status_code == 200
    assert _club_games(client, club) == [] and "data-left-out" in page
    assert "Nothing is stored until you import." in page
    # Line 2 names every house rule: not listed. Lines 1 and 3 are listed apart (their
    # presets' values differ), each rule with the value it will take.
    (first, first_rules), (third, third_rules) = _groups(page)
    assert first == ["line 1: a game of Ann, Bob and Cy"]
    assert third == ["line 3: a game of Di, Ed and Flo"]
    assert first_rules["bonus_in_fives"] == "yes" and first_rules["target"] == "200"
    assert "deal" in third_rules and "deal" in first_rules
    assert "Totally Fives kept this bonus in points (no) until 26 November 2026" in page
    # Confirmed: the three games, stored with the values shown.
    imported = confirm_left_out(client, club, shown)
    assert imported.status_code == 303
    stored = _club_games(client, club)
    assert [game["preset"] for game in stored] == ["totally-fives"] * 2 + ["fives-up"]
    for game, rules in ((stored[0], first_rules), (stored[2], third_rules)):
        for rule, value in rules.items():
            stored_value = game["options"][rule]
            if isinstance(stored_value, bool):
                stored_value = "yes" if stored_value else "no"
            assert str(stored_value) == value, rule


def test_records_leaving_out_the_same_rules_are_listed_together(client):
    club = _new_club(client)
    again = _renamed(BEFORE_THE_CHANGE)
    page = unescape(
        _into_club(client, club, [BEFORE_THE_CHANGE, again], confirm=False).get_data(as_text=True)
    )
    assert [games for games, _rules in _groups(page)] == [
        ["line 1: a game of Ann, Bob and Cy", "line 2: a game of Di, Ed and Flo"]
    ]


@pytest.mark.parametrize("language", ["sv", "fil"])
def test_the_club_imports_list_is_said_in_the_readers_language(client, language):
    club = _new_club(client)
    answer = client.post(
        f"{club}/import",
        data={"text": json.dumps(BEFORE_THE_CHANGE)},
        headers={"Accept-Language": language},
    )
    page = unescape(answer.get_data(as_text=True))
    assert answer.status_code == 200 and "data-left-out" in page
    for english in (
        "House rules the records leave out",
        "Nothing is stored until you import.",
        "a game of Ann",
        "Import with these house rules",
    ):
        assert english not in page


def test_a_batch_changed_on_its_way_back_is_refused_and_stores_nothing(client):
    club = _new_club(client)
    shown = _into_club(client, club, [BEFORE_THE_CHANGE], confirm=False)
    form = form_for(shown.get_data(as_text=True), "/import")
    for held in ("not base64!", "aGVsbG8=", ""):
        answer = client.post(f"{club}/import", data=form.data(held=held))
        assert answer.status_code in (400, 422)
        assert _club_games(client, club) == []
    changed = client.post(f"{club}/import", data=form.data(held="aGVsbG8="))
    assert "it was changed on its way back" in unescape(changed.get_data(as_text=True))


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
