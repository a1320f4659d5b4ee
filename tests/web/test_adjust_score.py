"""Adjusting a score (docs/rules.md 8c): one tap on the table's ± opens the form; the side, up or
down, the points and a reason; refusals keep what was typed and change nothing."""

from __future__ import annotations

import re
from html import unescape

from tests.web.webforms import form_for
from tests.web.webtable import Table, started, without_times


def adjust_form(table: Table) -> tuple[str, dict[str, str]]:
    page = table.client.get(f"{table.url}/adjust").get_data(as_text=True)
    form = form_for(page, "/adjust")
    return page, form.data(form.button(**{"data-action": "adjust"}))


def test_the_table_links_to_the_form_and_an_adjustment_changes_the_score(client):
    table = started(client)
    table.play("5-5")
    assert "data-adjust-link" in table.page()
    _, data = adjust_form(table)
    data.update(side="1", way="down", points="10", reason="  drew while   able to play ")
    response = table.client.post(f"{table.url}/adjust", data=data)
    assert response.status_code == 303 and response.headers["Location"].endswith(table.url)
    page = unescape(table.page())
    assert table.scores() == {"Ann": 10, "Bob": -10}
    assert "Adjusted: Bob -10 (drew while able to play)." in page
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["events"][-1] == {
        "player": "Bob",
        "adjust": -10,
        "reason": "drew while able to play",
    }
    # Undo takes it back like any entry.
    assert "the adjustment of Bob&#39;s score" in table.page()
    table.post("undo", {})
    assert table.scores() == {"Ann": 10, "Bob": 0}


def test_a_reason_is_required_and_points_are_multiples_of_five(client):
    table = started(client)
    table.play("5-5")
    version = table.version()
    _, data = adjust_form(table)
    for changes, words in (
        ({"side": "0", "points": "10", "reason": ""}, "This field is required"),
        ({"side": "0", "points": "10", "reason": "   "}, "says why, in words"),
        ({"side": "0", "points": "7", "reason": "agreed"}, "a multiple of 5 points"),
        ({"side": "0", "points": "0", "reason": "agreed"}, "Number must be between"),
        ({"side": "0", "points": "10", "reason": "x" * 201}, "200"),
        ({"points": "10", "reason": "agreed"}, "Choose whose score changes"),
    ):
        sent = {**data, **changes}
        if "side" not in changes:
            sent.pop("side", None)
        response = table.client.post(f"{table.url}/adjust", data=sent)
        assert response.status_code in (400, 422), changes
        text = unescape(response.get_data(as_text=True))
        assert words in text, (changes, re.findall(r'role="alert">([^<]*)', text))
        if changes.get("reason") == "agreed" and "side" in changes:
            assert 'value="agreed"' in text  # what was typed is kept
    assert table.version() == version and table.scores() == {"Ann": 10, "Bob": 0}


def test_a_stale_form_adjusts_nothing(client):
    table = started(client)
    table.play("5-5")
    _, data = adjust_form(table)
    table.post("draw", {})
    data.update(side="0", points="10", reason="agreed")
    response = table.client.post(f"{table.url}/adjust", data=data)
    assert response.status_code == 409
    assert table.scores() == {"Ann": 10, "Bob": 0}


def test_between_hands_and_after_the_game_the_form_says_why_not(client):
    table = started(client)
    page, _ = adjust_form(table)  # hand 1 is led already: the form is open
    assert "adjust-form" in page
    fresh = started(client)
    fresh.post("undo", {})  # back to choosing the first leader
    page = client.get(f"{fresh.url}/adjust").get_data(as_text=True)
    assert "adjust-form" not in page and "start the next hand first" in page


def test_a_watch_link_cannot_adjust(client):
    table = started(client)
    table.play("5-5")
    watch = table.watch_url()
    assert "data-adjust-link" not in client.get(watch).get_data(as_text=True)
    assert client.get(f"{watch}/adjust").status_code == 404
    _, data = adjust_form(table)
    watch_key = watch.rstrip("/").split("/")[-1]
    data.update(side="0", points="10", reason="agreed")
    response = client.post(f"/games/{watch_key}/adjust", data=data)
    assert response.status_code == 404
    assert table.scores() == {"Ann": 10, "Bob": 0}


def test_the_hand_list_adds_an_adjustment_to_the_hand(client):
    table = started(client)
    table.play("5-5")
    _, data = adjust_form(table)
    data.update(side="0", way="down", points="15", reason="misdeal")
    table.client.post(f"{table.url}/adjust", data=data)
    page = unescape(table.page())
    assert "Ann: 10 in play, -15 adjusted → -5" in page
