"""The end of a hand: settling what players hold, the next leader, and undo across hands."""

from __future__ import annotations

import re
from html import unescape

from tests.web.hands import finished_hand, held_fields, unsettled
from tests.web.webforms import form_for, press, read_forms
from tests.web.webtable import new_game, side_scores


def test_the_end_of_a_hand_asks_each_holder_for_their_pips(client):
    game = finished_hand("domino")
    table, settle = unsettled(client, game)
    page = table.page()
    assert 'data-phase="settle"' in page
    assert "dominoed" in page
    form = form_for(page, "/settle")
    assert sorted(k for k in form.values if k.startswith("held-")) == sorted(held_fields(settle))


def test_impossible_pips_are_refused_with_rule_remaining(client):
    game = finished_hand("domino")
    table, settle = unsettled(client, game)
    seq = table.seq()
    seat = next(iter(settle.remaining))
    for wrong in ("999", "0-0 0-0", "hello"):
        response = table.post("settle", {f"held-{seat}": wrong})
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert 'data-rule="remaining"' in page
        assert f'value="{wrong}"' in page  # what was typed is kept
    assert table.seq() == seq


def test_settling_a_domino_hand_shows_each_line_and_starts_the_next_hand(client):
    game = finished_hand("domino")
    table, settle = unsettled(client, game)
    response = table.post("settle", held_fields(settle))
    assert response.status_code == 303
    page = unescape(table.page())
    hand = game.hands[0]
    winner = game.players[hand.went_out]
    loser = game.players[1 - hand.went_out]
    settlement = hand.settlement
    pips, rounded = settlement.pips[1 - hand.went_out], settlement.rounded[1 - hand.went_out]
    sign = f"-{rounded}" if rounded else "0"
    assert f"{loser} holds {pips}, rounds to {rounded}: {sign}" in page
    assert f"{winner} dominoed" in page
    assert f"{winner} to lead" in page  # hand 2 begun by the app
    assert side_scores(page) == dict(zip(game.sides, game.scores, strict=True))


def test_undo_across_a_hand_boundary(client):
    game = finished_hand("domino")
    table, settle = unsettled(client, game)
    before = side_scores(table.page())
    seq = table.seq()
    table.post("settle", held_fields(settle))
    assert table.seq() == seq + 2  # the settlement and the next hand
    page = unescape(table.page())
    assert "Undo the settlement of hand 1" in page
    assert table.post("undo", {}).status_code == 303
    page = unescape(table.page())
    assert "Undone: the settlement of hand 1." in page
    assert 'data-phase="settle"' in page
    assert table.seq() == seq
    assert side_scores(page) == before
    # And once more: back into the play of hand 1.
    table.post("undo", {})
    assert 'data-phase="play"' in table.page()


def test_winner_collects_line(client):
    game = finished_hand("domino", preset="fives-up", players=3)
    table, settle = unsettled(client, game)
    table.post("settle", held_fields(settle))
    page = unescape(table.page())
    hand = game.hands[0]
    collector = game.players[hand.went_out]
    points = game.scores[game.side_of(hand.went_out)] - hand.scores_before[hand.went_out]
    play_points = sum(p.points for p in hand.plays if p.player == hand.went_out)
    bonus = points - play_points
    assert re.search(rf"{collector} dominoed: collects \d+ from .*: \+?{bonus} \(in fives\)", page)


def test_after_a_blocked_hand_the_leader_is_chosen_again(client):
    game = finished_hand("blocked")
    table, settle = unsettled(client, game)
    table.post("settle", held_fields(settle))
    page = table.page()
    assert 'data-phase="lead"' in page
    assert "Who leads hand 2?" in page
    response = table.post("lead", press(page, "/lead", value="1"))
    assert response.status_code == 303
    assert "Bob to lead" in table.page()


def test_random_leader(client):
    table = new_game(client, ["Ann", "Bob", "Cy"])
    page = table.page()
    assert table.post("lead", press(page, "/lead", **{"data-lead": "random"})).status_code == 303
    page = table.page()
    assert re.search(r"(Ann|Bob|Cy) to lead", page)


def test_new_game_with_a_random_leader_starts_the_hand(client):
    table = new_game(client, ["Ann", "Bob"], leader="random")
    assert re.search(r"(Ann|Bob) to lead", table.page())


def test_draw_for_lead_with_a_tie_asks_only_the_tied_players(client):
    table = new_game(client, ["Ann", "Bob", "Cy"], leader="draw")
    page = client.get(f"{table.url}?lead=draw").get_data(as_text=True)
    assert '<details class="draw-for-lead" open>' in page
    draw = form_for(page, "/lead")
    draw = next(f for f in _lead_forms(page) if f.values.get("how") == "draw")
    response = table.post(
        "lead", draw.data(**{"drawn-0": "6-4", "drawn-1": "5-5", "drawn-2": "3-2"})
    )
    assert response.status_code == 200
    page = unescape(response.get_data(as_text=True))
    assert "Ann and Bob tie with 10 pips" in page
    again = next(f for f in _lead_forms(page) if f.values.get("how") == "draw")
    assert sorted(k for k in again.values if k.startswith("drawn-")) == ["drawn-0", "drawn-1"]
    assert table.seq() == 0
    response = table.post("lead", again.data(**{"drawn-0": "1-0", "drawn-1": "6-5"}))
    assert response.status_code == 303
    assert "Bob to lead" in table.page()


def test_draw_for_lead_refuses_a_tile_named_twice(client):
    table = new_game(client, ["Ann", "Bob"])
    response = table.post("lead", {"how": "draw", "drawn-0": "6-4", "drawn-1": "4-6"})
    assert response.status_code == 422
    assert 'data-rule="tile-unique"' in response.get_data(as_text=True)
    assert table.seq() == 0


def _lead_forms(page: str):
    return [f for f in read_forms(page) if f.action.endswith("/lead")]
