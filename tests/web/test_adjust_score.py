"""Adjusting a score (docs/rules.md 8c): one tap on the table's ± opens the form; the side, up or
down, the points and a reason; refusals keep what was typed and change nothing."""

from __future__ import annotations

import re
from html import unescape

from tests.rules.helpers import DUO_DOMINO_OPTIONS, duo_domino_events, hand, record
from tests.web.webforms import form_for
from tests.web.webtable import Table, import_record, started, without_times


def duo_record(options: dict[str, object] | None = None) -> dict[str, object]:
    """The rules' two-player domino hand, settled: Ann 15, Bob 15 + 10 - 25 = 0."""
    remaining = {"Bob": ["5-4", "5-3", "4-2", "2-1"]}
    return record(
        ["Ann", "Bob"],
        [hand("Ann", duo_domino_events(), remaining)],
        options={**DUO_DOMINO_OPTIONS, **(options or {})},
    )


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
    assert "Bob&#39;s adjustment" in table.page()
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


def test_before_hand_1_is_led_the_form_says_why_not(client):
    table = started(client)
    page, _ = adjust_form(table)  # hand 1 is led already: the form is open
    assert "adjust-form" in page
    fresh = started(client)
    fresh.post("undo", {})  # back to choosing the first leader
    page = client.get(f"{fresh.url}/adjust").get_data(as_text=True)
    assert "adjust-form" not in page and "once hand 1 is led" in page
    assert "data-adjust-link" not in fresh.page()


def test_between_a_settlement_and_the_next_lead_a_score_is_adjusted_and_kept_in_order(client):
    """docs/rules.md 8c: hand 1 is settled (Ann 15, Bob 0) and hand 2 not led. The table page
    offers the adjustment there; it counts at once, the leader is still to choose, and the
    record keeps it after the settlement, so it imports to the scores the table shows."""
    settled = {**duo_record(), "preset": "all-fives"}
    table = import_record(client, settled)
    assert table.scores() == {"Ann": 15, "Bob": 0}
    page = table.page()
    assert 'data-phase="lead"' in page and "data-adjust-link" in page
    _, data = adjust_form(table)
    data.update(side="1", way="up", points="20", reason="Ann looked at the boneyard")
    response = table.client.post(f"{table.url}/adjust", data=data)
    assert response.status_code == 303
    page = table.page()
    assert table.scores() == {"Ann": 15, "Bob": 20}
    assert 'data-phase="lead"' in page and "data-adjust-link" in page
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["after_settlement"] == [
        {"player": "Bob", "adjust": 20, "reason": "Ann looked at the boneyard"}
    ]
    assert record["hands"][0]["remaining"] == settled["hands"][0]["remaining"]
    again = import_record(client, record)
    assert again.scores() == {"Ann": 15, "Bob": 20}
    assert 'data-phase="lead"' in again.page()
    # Undo takes it back like any entry; the settlement stays.
    table.post("undo", {})
    assert table.scores() == {"Ann": 15, "Bob": 0}
    assert 'data-phase="lead"' in table.page()


def test_an_adjustment_between_hands_that_reaches_the_target_wins(client):
    """Target 30: Ann's 15 after hand 1 and 15 more agreed before the next lead: she wins."""
    table = import_record(client, {**duo_record({"target": 30}), "preset": "all-fives"})
    _, data = adjust_form(table)
    data.update(side="0", way="up", points="15", reason="Bob misdealt")
    assert table.client.post(f"{table.url}/adjust", data=data).status_code == 303
    page = table.page()
    assert table.scores() == {"Ann": 30, "Bob": 0}
    assert 'data-phase="over"' in page and "data-adjust-link" not in page


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
