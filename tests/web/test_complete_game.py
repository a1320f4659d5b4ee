"""A whole game entered through the same requests a browser sends, from the new-game form to
the winner, checked against the referee replaying the same moves."""

from __future__ import annotations

import random
from html import unescape

import pytest

from scorekeeper.rules import Draw, Game, NewHand, Pass, Play, Settle, Setup
from scorekeeper.rules.simulate import play_game
from tests.web.webforms import form_for, press
from tests.web.webtable import Table, new_game, side_scores

MIRROR = {"W": "E", "E": "W"}


def enter_hand_events(table: Table, game: Game) -> None:
    """Enter every event of the simulated ``game`` through the table's forms."""
    mirrored = False
    led = False
    for event in game.events:
        page = table.page()
        if isinstance(event, NewHand):
            led = False
            if 'data-phase="lead"' not in page:
                # The app began this hand itself after a domino; its leader must match.
                assert f"{table_players(page)[event.leader]} to lead" in page
                continue
            response = table.post("lead", press(page, "/lead", value=str(event.leader)))
            assert response.status_code == 303, response.get_data(as_text=True)
            mirrored = False
        elif isinstance(event, Play):
            if not led:
                # The page leads a tile high half west; a lead entered low-first is its mirror.
                led, mirrored = True, event.flipped
                response = table.play(str(event.tile))
                assert response.status_code == 303, response.get_data(as_text=True)
                continue
            end = MIRROR.get(event.end, event.end) if mirrored and event.end else event.end
            response = table.play(str(event.tile))
            if response.status_code == 200:
                assert end is not None
                assert 'class="end-button"' in response.get_data(as_text=True)
                response = table.play(str(event.tile), end)
            assert response.status_code == 303, response.get_data(as_text=True)
        elif isinstance(event, Draw):
            for _ in range(event.count):
                response = table.post("draw", {})
                assert response.status_code == 303, response.get_data(as_text=True)
        elif isinstance(event, Pass):
            response = table.post("pass", {})
            assert response.status_code == 303, response.get_data(as_text=True)
        else:
            assert isinstance(event, Settle)
            settle = form_for(page, "/settle")
            typed = {
                f"held-{seat}": str(held) if isinstance(held, int) else " ".join(map(str, held))
                for seat, held in event.remaining.items()
            }
            response = table.post("settle", settle.data(**typed))
            assert response.status_code == 303, response.get_data(as_text=True)


def table_players(page: str) -> list[str]:
    """Player names in seat order, from the scoreboard."""
    import re

    found = re.findall(r'data-seat="(\d)"[^>]*>([^<]+?)\s*<', page)
    return [name.strip() for _, name in sorted(found)]


def table_hands(page: str) -> list[str]:
    """The hand summaries listed on the page."""
    return page.split('class="hand-summary"')[1:]


@pytest.mark.parametrize(
    ("players", "preset", "fields", "seed"),
    [
        (["Ann", "Bob", "Cy", "Dee"], "all-fives", {"target": "100"}, 8),
        (["Ann", "Bob", "Cy"], "fives-up", {}, 0),
        (["Ann", "Bob"], "totally-fives", {"target": "60", "spinners": "all"}, 6),
    ],
)
def test_complete_game_to_the_winner(client, players, preset, fields, seed):
    table = new_game(client, players, preset=preset, **fields)
    options = {k: int(v) if k == "target" else v for k, v in fields.items()}
    setup = Setup.create(players, preset, options)
    game = play_game(setup, random.Random(seed))
    assert game.winner is not None
    enter_hand_events(table, game)

    page = unescape(table.page())
    assert side_scores(page) == dict(zip(game.sides, game.scores, strict=True))
    winner = game.sides[game.winner]
    assert f"{winner} win" in page
    assert len(table_hands(page)) == len(game.hands)
    # Read-only: only undo is offered.
    assert 'data-action="undo"' in page
    assert 'data-action="draw"' not in page and 'data-tile="' not in page.split("</svg>")[-1]
    assert "/games/" in page and 'data-phase="over"' in page
