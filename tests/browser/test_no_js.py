"""With JavaScript turned off the same forms work through full page loads."""

from __future__ import annotations

import random

from playwright.sync_api import Page, Request, expect

from scorekeeper.rules import ALL_TILES, Game, Setup
from scorekeeper.rules.simulate import play_hand
from tests.browser.browsing import GameEntry, has_htmx, start_game
from tests.support.server import LiveServer

# Seed 268: a hand led flipped, with several tiles fitting two ends and a draw, that ends
# in a domino and a settlement where both players score.
SEED = 268


def test_a_hand_without_javascript(live_server: LiveServer, phone_no_js: Page) -> None:
    page = phone_no_js
    posts: list[Request] = []
    page.on("request", lambda request: posts.append(request) if request.method == "POST" else None)
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    game = Game(setup)
    play_hand(game, random.Random(SEED))
    assert game.hand is not None and game.hand.result == "domino"

    table = start_game(page, live_server.url, ["Ann", "Bob"])
    assert not has_htmx(page)
    entry = GameEntry(table, setup)
    lead_events = 2
    entry.enter_all(game.events[:lead_events])

    # A refusal is a whole page too, with the rule next to the picker and nothing entered.
    misfit = next(t for t in ALL_TILES if not entry.shadow.fits(t) and t != game.events[1].tile)
    table.tap(table.tile(misfit))
    expect(table.refusal("match")).to_be_visible()
    table.expect_unchanged()

    entry.enter_all(game.events[lead_events:])

    table.expect_scores(game.sides, game.scores)
    expect(page.locator("[data-settlement]")).to_be_visible()
    assert all(game.scores)
    assert len(posts) > len(game.events)
    assert all(request.is_navigation_request() for request in posts), "a POST was not a page load"
