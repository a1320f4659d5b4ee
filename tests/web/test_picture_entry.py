"""The layout picture as the entry surface: its fitting ends are buttons once a tile is picked,
and the lead tile can be turned round (which half faces W) until the second tile is played."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from scorekeeper.rules.record import load_record
from tests.web.webforms import read_forms
from tests.web.webtable import NO_KEY, Table, page_seq, page_version, started, without_times

TAP = re.compile(r'<button type="submit" form="([\w-]+)" name="end" value="([^"]+)" data-end="\2"')


def record(table: Table) -> dict:  # type: ignore[type-arg]
    """The game's exported all-fives/1 record."""
    response = table.client.get(table.url + "/record.json")
    assert response.status_code == 200
    return without_times(json.loads(response.get_data(as_text=True)))


def lead_spelled(table: Table) -> str:
    """How the record spells the current hand's lead (its first-written half faces W)."""
    return next(e["play"] for e in record(table)["hands"][-1]["events"] if "play" in e)


def shows(page: str) -> dict[str, int]:
    """What each open end shows, read from the picture's end markers."""
    found = re.findall(r'<g class="end-marker[^"]*" data-end="([^"]+)" data-shows="(\d)"', page)
    return {end: int(number) for end, number in found}


# -- tapping the end in the picture ---------------------------------------------------------


def test_a_picked_tile_makes_its_ends_buttons_in_the_picture(client):
    table = started(client)
    table.play("5-5")
    page = table.play("5-0").get_data(as_text=True)
    # Over each fitting end of the picture, a button of the choose-end form, and only there.
    assert TAP.findall(page) == [("choose-end", "W"), ("choose-end", "E")]
    assert 'id="choose-end"' in page
    forms = [f for f in read_forms(page) if f.attrs.get("id") == "choose-end"]
    assert len(forms) == 1 and forms[0].values["tile"] == "5-0"
    # The end buttons below stay, for keyboards and screen readers.
    assert re.findall(r'<button type="submit" name="end" value="(\w)"', page) == ["W", "E"]
    # Places are data, set by static/js/picture.js: no style attribute for a strict CSP.
    assert "style=" not in page
    assert re.search(
        r'<div class="table-picture__target" data-left="[\d.]+" data-top="[\d.]+"', page
    )
    assert "js/picture.js" in page


def test_tapping_the_end_in_the_picture_plays_there(client):
    table = started(client)
    table.play("5-5")
    page = table.play("5-0").get_data(as_text=True)
    form = next(f for f in read_forms(page) if f.attrs.get("id") == "choose-end")
    # What a browser sends for the picture's E button: its form's fields and end=E.
    response = client.post(form.action, data={**form.values, "end": "E"})
    assert response.status_code == 303
    page = unescape(table.page())
    assert "W 10 + E 0 = 10: Bob +10" in page
    assert shows(page) == {"W": 5, "E": 0}
    assert "end-tap" not in page


def test_the_picture_has_no_end_buttons_unless_a_tile_waits_for_its_end(client):
    table = started(client)
    table.play("5-5")
    assert "end-tap" not in table.page()
    table.play("5-0", "E")
    assert "end-tap" not in table.page()  # a tile that fits one end is played at once


# -- turning the lead ---------------------------------------------------------------------


def turn(table: Table, west: int | None = None, version: int | None = None, htmx: bool = False):  # type: ignore[no-untyped-def]
    """Press the page's "Turn the lead round" button (or send ``west`` and ``version`` as given)."""
    page = table.page()
    found = re.search(r'action="[^"]*/turn".*?name="west" value="(\d)"', page, re.S)
    data = {"west": str(west if west is not None else found.group(1) if found else "")}
    headers = {"HX-Request": "true"} if htmx else {}
    sent = {"version": str(page_version(page) if version is None else version), **data}
    return table.client.post(table.url + "/turn", data=sent, headers=headers)


def test_the_lead_can_be_turned_round_and_back(client):
    table = started(client)
    table.play("6-4")
    page = table.page()
    assert shows(page) == {"W": 6, "E": 4}
    assert lead_spelled(table) == "6-4"
    assert 'data-action="turn-lead"' in page
    assert "Turn the lead 6-4 round" in page and "(to put 4 on W and 6 on E)" in page

    response = turn(table)
    assert response.status_code == 303
    page = unescape(table.page())
    assert shows(page) == {"W": 4, "E": 6}
    assert "Turned round: the lead 6-4 shows 4 on W, 6 on E." in page
    assert lead_spelled(table) == "4-6"
    assert "(to put 6 on W and 4 on E)" in page
    assert "Bob to play" in page and page_seq(page) == 2  # still two entries: nothing added

    assert turn(table).status_code == 303
    assert shows(table.page()) == {"W": 6, "E": 4}
    assert lead_spelled(table) == "6-4"


def test_after_the_turn_the_hand_goes_on_from_the_turned_ends(client):
    table = started(client)
    table.play("6-4")
    turn(table)
    assert table.post("draw", {}).status_code == 303  # a draw does not stop the turn
    assert 'data-action="turn-lead"' in table.page()
    assert table.play("4-1").status_code == 303  # it fits only the 4, now on W
    page = unescape(table.page())
    assert shows(page) == {"W": 1, "E": 6}
    assert "Bob's 4-1 on W" in page
    assert 'data-action="turn-lead"' not in page
    events = record(table)["hands"][0]["events"]
    assert events == [
        {"player": "Ann", "play": "4-6"},
        {"player": "Bob", "draw": 1},
        {"player": "Bob", "play": "4-1"},  # as entered: on the only end it fits
    ]
    # The exported record replays to the same table.
    replayed = load_record(json.dumps(record(table)), unsettled_last_hand=True)
    assert replayed.hand is not None
    assert {e.name: e.shows for e in replayed.hand.layout.ends()} == {"W": 1, "E": 6}


def test_a_turn_with_htmx_answers_the_new_table(client):
    table = started(client)
    table.play("6-4")
    response = turn(table, htmx=True)
    assert response.status_code == 200
    fragment = unescape(response.get_data(as_text=True))
    assert fragment.startswith('<section id="table"')
    assert shows(fragment) == {"W": 4, "E": 6}
    assert "Turned round" in fragment


def test_a_stale_page_cannot_turn_the_lead(client):
    table = started(client)
    table.play("6-4")
    version = table.version()
    table.post("draw", {})
    response = turn(table, west=4, version=version)
    assert response.status_code == 409
    assert "The table had changed: nothing was entered." in response.get_data(as_text=True)
    assert lead_spelled(table) == "6-4"


def test_two_pages_turning_at_once_turn_it_once(client):
    table = started(client)
    table.play("6-4")
    first, second = table.page(), table.page()
    west = re.search(r'name="west" value="(\d)"', first)
    assert west and west.group(1) == "4"
    assert turn(table, west=4, version=page_version(first)).status_code == 303
    # The second page saw the same entries, but the tile as it lay before (and an older version).
    response = turn(table, west=4, version=page_version(second))
    assert response.status_code == 409
    assert shows(response.get_data(as_text=True)) == {"W": 4, "E": 6}
    assert lead_spelled(table) == "4-6"


def test_turning_after_the_second_play_is_refused_and_changes_nothing(client):
    table = started(client)
    table.play("6-4")
    table.play("4-1")
    before = table.page()
    assert 'data-action="turn-lead"' not in before
    response = turn(table, west=4)
    assert response.status_code == 422
    page = unescape(response.get_data(as_text=True))
    assert (
        "The lead 6-4 can no longer be turned: Bob's 4-1 is on the table. A lead can be turned "
        "only until the second tile is played. Nothing was changed."
    ) in page
    assert 'class="notice notice-refused"' in page
    assert lead_spelled(table) == "6-4"
    assert shows(table.page()) == shows(before) == {"W": 6, "E": 1}


def test_a_double_lead_offers_no_turn_and_cannot_be_turned(client):
    table = started(client)
    table.play("5-5")
    assert 'data-action="turn-lead"' not in table.page()
    response = turn(table, west=5)
    assert response.status_code == 422
    assert "is a double: it shows 5 both ways" in unescape(response.get_data(as_text=True))
    assert lead_spelled(table) == "5-5"


def test_nothing_to_turn_before_the_lead(client):
    table = started(client)
    assert 'data-action="turn-lead"' not in table.page()
    response = turn(table, west=4)
    assert response.status_code == 422
    assert "Ann has not led hand 1 yet" in unescape(response.get_data(as_text=True))


@pytest.mark.parametrize(
    ("west", "status", "says"),
    [
        ("3", 422, "The lead 6-4 has no 3: W can show 6 or 4."),
        ("9", 400, "incomplete"),
        ("", 400, "incomplete"),
    ],
)
def test_a_malformed_turn_changes_nothing(client, west, status, says):
    table = started(client)
    table.play("6-4")
    response = table.client.post(
        table.url + "/turn", data={"version": str(table.version()), "west": west}
    )
    assert response.status_code == status
    assert says in unescape(response.get_data(as_text=True))
    assert lead_spelled(table) == "6-4"


def test_only_the_edit_link_can_turn(client):
    table = started(client)
    table.play("6-4")
    watch = table.watch_url()
    watched = client.get(watch).get_data(as_text=True)
    assert 'data-action="turn-lead"' not in watched
    for url in (watch + "/turn", f"/games/{NO_KEY}/turn"):
        response = client.post(url, data={"version": "3", "west": "4"})
        assert response.status_code == 404, url
    assert lead_spelled(table) == "6-4"
