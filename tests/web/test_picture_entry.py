"""The layout picture as the entry surface: its fitting ends are buttons once a tile is picked."""

from __future__ import annotations

import re
from html import unescape

from webforms import read_forms
from webtable import started

TAP = re.compile(r'<button type="submit" form="([\w-]+)" name="end" value="([^"]+)" data-end="\2"')


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
