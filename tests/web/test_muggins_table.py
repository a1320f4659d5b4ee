"""House rule muggins at the table: a play goes in called right, one tap says it was called
short, and a Muggins! button for the opponents takes the points until the next entry."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.webforms import press, read_forms
from tests.web.webtable import Table, side_scores, started, without_times


def muggins_game(client, players=("Ann", "Bob"), **fields) -> Table:
    return started(client, players, muggins="yes", **fields)


def call_buttons(html: str) -> dict[str, str]:
    """The call strip's buttons: value -> aria-pressed."""
    return dict(re.findall(r'data-called="(\d+)" aria-pressed="(true|false)"', html))


def muggins_buttons(html: str) -> list[str]:
    return re.findall(r'data-muggins="([^"]+)"', html)


def test_a_scoring_play_goes_in_called_right_and_offers_the_lower_calls(client):
    table = muggins_game(client)
    assert table.play("5-5").status_code == 303
    page = table.page()
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert call_buttons(page) == {"10": "true", "5": "false", "0": "false"}
    assert muggins_buttons(page) == []


def test_a_call_short_scores_nothing_and_the_opponent_claims_it_with_one_tap(client):
    table = muggins_game(client)
    table.play("5-5")
    called = table.post("call", {"called": "5"})
    assert called.status_code == 303
    page = table.page()
    assert side_scores(page) == {"Ann": 0, "Bob": 0}
    assert call_buttons(page)["5"] == "true"
    assert muggins_buttons(page) == ["Bob"]
    assert "Muggins! Bob +10" in page
    claim = press(page, "/muggins", **{"data-muggins": "Bob"})
    assert table.client.post(f"{table.url}/muggins", data=claim).status_code == 303
    page = table.page()
    assert side_scores(page) == {"Ann": 0, "Bob": 10}
    assert "Ann called 5, the count was 10: Bob's Muggins! +10" in unescape(page)
    assert muggins_buttons(page) == [] and call_buttons(page) == {}
    # Undo takes the claim back, and the button is offered again.
    assert table.post("undo", {}).status_code == 303
    page = table.page()
    assert side_scores(page) == {"Ann": 0, "Bob": 0}
    assert muggins_buttons(page) == ["Bob"]


def test_the_call_can_be_set_right_again_while_the_play_is_the_last_entry(client):
    table = muggins_game(client)
    table.play("5-5")
    table.post("call", {"called": "0"})
    assert table.scores() == {"Ann": 0, "Bob": 0}
    table.post("call", {"called": "10"})
    page = table.page()
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert call_buttons(page)["10"] == "true" and muggins_buttons(page) == []
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["events"] == [{"player": "Ann", "play": "5-5"}]


def test_a_missed_count_is_lost_once_another_entry_is_made(client):
    table = muggins_game(client)
    table.play("5-5")
    table.post("call", {"called": "5"})
    before = table.version()
    assert table.post("draw", {}).status_code == 303  # Bob draws: the 10 are lost
    page = table.page()
    assert muggins_buttons(page) == [] and call_buttons(page) == {}
    refused = table.post("muggins", {"claimant": "1"})
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert 'data-rule="call"' in text and "were lost when the next entry was made" in text
    assert table.version() == before + 1 and table.scores() == {"Ann": 0, "Bob": 0}


def test_a_call_above_the_count_and_a_claim_by_the_own_side_are_refused(client):
    table = muggins_game(client)
    table.play("5-5")
    version = table.version()
    above = table.post("call", {"called": "15"})
    assert above.status_code == 422
    assert 'data-rule="call"' in above.get_data(as_text=True)
    table.post("call", {"called": "5"})
    own = table.post("muggins", {"claimant": "0"})
    assert own.status_code == 422
    assert "only an opponent may cry Muggins" in own.get_data(as_text=True)
    assert table.version() == version + 1 and table.scores() == {"Ann": 0, "Bob": 0}


def test_a_stale_page_claims_nothing(client):
    table = muggins_game(client)
    table.play("5-5")
    table.post("call", {"called": "5"})
    stale = table.version() - 1
    response = table.post("muggins", {"claimant": "1"}, version=stale)
    assert response.status_code == 409
    assert table.scores() == {"Ann": 0, "Bob": 0}


def test_partners_see_one_muggins_button_per_opponent_side(client):
    table = muggins_game(client, ("Ann", "Bob", "Cy", "Dee"), partners="y")
    table.play("5-5")
    table.post("call", {"called": "0"})
    page = table.page()
    assert muggins_buttons(page) == ["Bob &amp; Dee"]
    claim = press(page, "/muggins", **{"data-muggins": "Bob & Dee"})
    assert claim["claimant"] == "1"  # Bob, the first opponent after Ann, cries it


def test_the_watch_page_shows_the_call_but_no_control(client):
    table = muggins_game(client)
    table.play("5-5")
    table.post("call", {"called": "5"})
    watch = table.client.get(table.watch_url()).get_data(as_text=True)
    assert "Ann called 5, the count is 10: Muggins! is open" in watch
    actions = [form.action for form in read_forms(watch)]
    assert not any(a.endswith(("/call", "/muggins")) for a in actions)


def test_without_the_house_rule_there_is_no_call(client):
    table = started(client)
    table.play("5-5")
    page = table.page()
    assert call_buttons(page) == {} and muggins_buttons(page) == []
    refused = table.post("call", {"called": "5"})
    assert refused.status_code == 422
    assert table.scores() == {"Ann": 10, "Bob": 0}


VALUES = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.text(max_size=12),
    st.sampled_from(["", "0", "5", "10", "15", "1", "7", "-1", "1e3", "٣", " 5 "]),
)


@pytest.fixture
def missed(client) -> Table:
    """A game of three with muggins, Ann's lead 5-5 called 5: Muggins! is open."""
    table = muggins_game(client, ("Ann", "Bob", "Cy"))
    table.play("5-5")
    table.post("call", {"called": "5"})
    return table


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    action=st.sampled_from(["call", "muggins", "adjust"]),
    fields=st.dictionaries(
        st.sampled_from(["called", "claimant", "side", "way", "points", "reason", "version"]),
        VALUES,
        max_size=5,
    ),
)
def test_no_call_claim_or_adjustment_form_is_a_500_or_half_saved(missed, action, fields):
    before = (missed.version(), missed.scores())
    data = {"version": str(before[0]), **fields}
    response = missed.client.post(f"{missed.url}/{action}", data=data)
    assert response.status_code < 500, (action, fields)
    if response.status_code != 303:
        assert (missed.version(), missed.scores()) == before, (action, fields)
    else:  # an entry went in: undo it, so every example starts from the missed call
        missed.post("undo", {}) if action != "call" else missed.post("call", {"called": "5"})
