"""The table in play: playing, choosing an end, drawing, passing, undoing, refusals and stale
pages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

from tests.web.webtable import NO_KEY, import_record, page_seq, side_scores, started


def held(page: str) -> dict[str, int]:
    """Each player's tile count on the scoreboard."""
    found = re.findall(r'data-seat="\d"[^>]*>([^<]+?) <span class="held"[^>]*>(\d+)<', page)
    return {name: int(count) for name, count in found}


def test_the_table_shows_scoreboard_picker_and_turn(client):
    table = started(client)
    page = table.page()
    assert side_scores(page) == {"Ann": 0, "Bob": 0}
    assert "Ann to lead" in page
    assert (
        len(re.findall(r'<button type="submit" name="tile" value="\d-\d" data-tile=', page)) == 28
    )
    assert 'data-boneyard="10"' in page  # all-fives, 2 players: 9 each, 10 in the boneyard
    assert held(page) == {"Ann": 9, "Bob": 9}
    # Nothing can be drawn or passed before the lead.
    assert 'data-action="draw"' not in page and 'data-action="pass"' not in page


def test_a_lead_and_a_scoring_play_show_the_count_and_points(client):
    table = started(client)
    assert table.play("5-5").status_code == 303
    page = unescape(table.page())
    assert "W 10 = 10: Ann +10" in page
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert re.search(r'data-tile="5-5"[^>]*disabled', page)
    assert 'data-end="W"' in page and 'data-end="E"' in page
    assert "Bob to play" in page


def test_a_tile_that_fits_several_ends_asks_for_the_end(client):
    table = started(client)
    table.play("5-5")
    seq = table.seq()
    response = table.play("5-0")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'class="end-button"' in page
    assert re.findall(r'<button type="submit" name="end" value="(\w)"', page) == ["W", "E"]
    assert table.seq() == seq  # nothing stored yet
    response = table.play("5-0", "E")
    assert response.status_code == 303
    page = unescape(table.page())
    assert "W 10 + E 0 = 10: Bob +10" in page
    assert side_scores(page) == {"Ann": 10, "Bob": 10}


def test_a_tile_that_fits_one_end_is_played_at_once(client):
    table = started(client)
    table.play("6-4")
    assert table.play("4-1").status_code == 303
    assert "W 6 + E 1 = 7" in unescape(table.page())


def test_refused_play_shows_the_rule_and_stores_nothing(client):
    table = started(client)
    table.play("6-4")
    seq = table.seq()
    response = table.play("3-2")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'data-rule="match"' in page
    assert "fits no open end" in page
    assert table.seq() == seq


def test_refused_tile_already_on_the_table(client):
    table = started(client)
    table.play("6-4")
    response = table.play("6-4")
    assert response.status_code == 422
    assert 'data-rule="tile-unique"' in response.get_data(as_text=True)


def test_refused_wrong_end(client):
    table = started(client)
    table.play("6-4")
    response = table.play("6-2", "E")
    assert response.status_code == 422
    assert 'data-rule="match"' in response.get_data(as_text=True)
    response = table.play("6-2", "N")
    assert 'data-rule="end-unknown"' in response.get_data(as_text=True)


def test_a_malformed_tile_is_refused_with_rule_record(client):
    table = started(client)
    response = table.post("play", {"tile": "9-9"})
    assert response.status_code == 422
    assert 'data-rule="record"' in response.get_data(as_text=True)


def test_draw_one_tile_per_tap_then_pass_when_the_boneyard_is_empty(client):
    table = started(client, leader=0)
    table.play("6-6")
    page = table.page()
    assert "(10 left to draw)" in page and 'data-action="pass"' not in page
    for left in range(10, 0, -1):
        assert f"({left} left to draw)" in table.page()
        assert table.post("draw", {}).status_code == 303
    page = table.page()
    assert 'data-action="draw"' not in page
    assert 'data-action="pass"' in page
    assert held(page) == {"Ann": 8, "Bob": 19}
    assert table.post("pass", {}).status_code == 303
    assert "Ann to play" in table.page()


def test_pass_while_tiles_can_be_drawn_is_refused(client):
    table = started(client)
    table.play("6-6")
    response = table.post("pass", {})
    assert response.status_code == 422
    assert 'data-rule="pass-boneyard"' in response.get_data(as_text=True)


def test_draw_from_an_empty_boneyard_is_refused(client):
    table = started(client)
    table.play("6-6")
    for _ in range(10):
        table.post("draw", {})
    response = table.post("draw", {})
    assert response.status_code == 422
    assert 'data-rule="draw-empty"' in response.get_data(as_text=True)


def test_draw_before_the_lead_is_refused_with_rule_lead(client):
    table = started(client)
    response = table.post("draw", {})
    assert response.status_code == 422
    assert 'data-rule="lead"' in response.get_data(as_text=True)


def test_undo_names_what_it_undoes_and_steps_back_repeatedly(client):
    table = started(client)
    table.play("5-5")
    table.play("5-0", "E")
    table.post("draw", {})
    page = unescape(table.page())
    assert "Undo Ann drawing a tile" in page
    assert table.post("undo", {}).status_code == 303
    page = unescape(table.page())
    assert "Undone: Ann drawing a tile." in page
    assert "Undo Bob's 5-0 on E" in page
    table.post("undo", {})
    page = unescape(table.page())
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert "Undo Ann's lead 5-5" in page
    table.post("undo", {})
    table.post("undo", {})  # the choice of leader
    page = table.page()
    assert 'data-phase="lead"' in page
    assert 'data-action="undo"' not in page


def test_stale_page_is_answered_with_the_current_table(client):
    table = started(client)
    old, version = table.seq(), table.version()
    assert table.post("play", {"tile": "6-4"}, version=version).status_code == 303
    response = table.post("play", {"tile": "4-4"}, version=version)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "The table had changed: nothing was entered" in page
    assert page_seq(page) == old + 1
    assert re.search(r'data-tile="6-4"[^>]*disabled', page)
    assert table.seq() == old + 1


def test_double_tap_stores_one_event(client):
    table = started(client)
    table.play("6-6")
    seq, version = table.seq(), table.version()
    first = table.post("draw", {}, version=version)
    second = table.post("draw", {}, version=version)
    assert (first.status_code, second.status_code) == (303, 409)
    assert table.seq() == seq + 1
    assert "(9 left to draw)" in table.page()


def test_resubmitted_undo_undoes_once(client):
    table = started(client)
    table.play("6-6")
    table.play("6-1")
    seq, version = table.seq(), table.version()
    assert table.post("undo", {}, version=version).status_code == 303
    assert table.post("undo", {}, version=version).status_code == 409
    assert table.seq() == seq - 1


def test_missing_or_bad_version_is_a_400_with_the_table(client):
    table = started(client)
    response = table.client.post(f"{table.url}/play", data={"tile": "6-4"})
    assert response.status_code == 400
    assert 'id="table"' in response.get_data(as_text=True)
    response = table.client.post(f"{table.url}/draw", data={"version": "abc"})
    assert response.status_code == 400
    assert table.seq() == 1


def test_htmx_requests_get_the_table_fragment(client):
    table = started(client)
    table.htmx = True
    response = table.play("6-4")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="table"')
    assert "<html" not in body
    assert "HX-Request" in response.headers.get("Vary", "")
    refused = table.play("3-2")
    assert refused.status_code == 422
    assert refused.get_data(as_text=True).lstrip().startswith('<section id="table"')
    stale = table.post("draw", {}, version=0)
    assert stale.status_code == 409
    assert "The table had changed" in stale.get_data(as_text=True)
    undone = table.post("undo", {})
    assert "Undone: Ann&#39;s lead 6-4." in undone.get_data(as_text=True)


def test_page_and_fragment_vary_on_hx_request(client):
    table = started(client)
    full = client.get(table.url)
    fragment = client.get(table.url, headers={"HX-Request": "true"})
    assert "<html" in full.get_data(as_text=True)
    assert "<html" not in fragment.get_data(as_text=True)
    assert "HX-Request" in full.headers["Vary"]


def test_unknown_game_is_404(client):
    assert client.get(f"/games/{NO_KEY}").status_code == 404
    assert (
        client.post(f"/games/{NO_KEY}/play", data={"version": "0", "tile": "6-4"}).status_code
        == 404
    )


def test_finished_game_offers_only_undo(client):
    record = {
        "format": "all-fives/1",
        "preset": "totally-fives",
        "options": {"target": 10, "win_check": "immediate"},
        "players": ["Ann", "Bob"],
        "hands": [{"lead": "Ann", "events": [{"player": "Ann", "play": "5-5"}]}],
    }
    table = import_record(client, record)
    page = unescape(table.page())
    assert "Ann wins" in page
    assert 'data-action="undo"' in page
    assert 'name="tile"' not in page and 'data-action="draw"' not in page
    response = table.post("draw", {})
    assert response.status_code == 422
    assert 'data-rule="game-over"' in response.get_data(as_text=True)
    assert table.post("undo", {}).status_code == 303
    assert "Ann to lead" in table.page()
