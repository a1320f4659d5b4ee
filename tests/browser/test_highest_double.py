"""House rule lead: highest-double on a phone, upright and on its side, with and without
JavaScript: nobody has a double twice, then one tap on who holds it; the tray offers the
doubles; the hand is played to its settlement with every control already in view."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Game, NewHand, Setup
from scorekeeper.rules.simulate import play_hand
from tests.browser.browsing import GameEntry, TablePage, has_htmx, start_game
from tests.browser.checks import axe_violations, explain
from tests.browser.test_whole_games import InViewTable, outside_and_scrolled, outside_screen
from tests.support.chromium import LANDSCAPE, PORTRAIT
from tests.support.server import LiveServer

RULES = {"lead": "highest-double", "deal": "five-each"}


class InViewPages(TablePage):
    """Without JavaScript every tap loads a page: the control tapped must be on the first
    screen of the page it is on, as after every load."""

    def tap(self, target: Locator) -> None:
        expect(target).to_be_visible()
        away, scrolled = outside_and_scrolled(target)
        assert scrolled == 0
        assert not away, f"{self.page.url}: {away}"
        super().tap(target)


# Seed 137: nobody holds a double after the deal, nor after one more tile each; after the
# second round someone does. The hand ends in a domino.
SEED = 137


def _hand() -> tuple[Setup, Game]:
    setup = Setup.create(["Ann", "Bob"], "fives-up", RULES)
    game = Game(setup)
    play_hand(game, random.Random(SEED))
    begun = game.events[0]
    assert isinstance(begun, NewHand) and begun.redraws == 2
    assert game.hands[0].result == "domino"
    return setup, game


@pytest.mark.parametrize(
    ("screen", "javascript"),
    [("portrait", True), ("landscape", True), ("portrait", False)],
)
def test_a_highest_double_hand_on_a_phone(
    live_server: LiveServer,
    watched_page: Callable[..., Page],
    screen: str,
    javascript: bool,
) -> None:
    options: dict[str, Any] = {**(PORTRAIT if screen == "portrait" else LANDSCAPE)}
    page = watched_page({**options, "java_script_enabled": javascript})
    setup, game = _hand()
    start_game(page, live_server.url, ["Ann", "Bob"], preset="fives-up", rules=RULES)
    assert has_htmx(page) is javascript
    expect(page.locator("h2", has_text="who holds the highest double?")).to_be_visible()
    assert not outside_screen(page.locator('.lead button[data-leader], [data-lead="redraw"]'))

    in_view = InViewTable(page) if javascript else InViewPages(page)
    entry = GameEntry(in_view, setup)
    entry.enter(game.events[0])  # two rounds of redraws, then the leader: 3 taps
    leader = game.players[game.hands[0].leader]
    assert "Boneyard 14" in page.locator("#table").inner_text()

    # The lead's tray holds the 7 doubles, and only they.
    tiles = page.locator("#table .picker button[data-tile]")
    expect(tiles).to_have_count(7)
    assert all(
        t.split("-")[0] == t.split("-")[1]
        for t in tiles.evaluate_all("all => all.map(b => b.dataset.tile)")
    )
    entry.enter_all(game.events[1:])
    in_view.expect_scores(game.sides, game.scores)

    log = page.context.new_page()
    log.goto(page.url.split("?")[0] + "/log?hand=1&open=0")
    text = log.locator("main").inner_text()
    assert f"{leader} leads the first hand, chosen by the highest double" in text
    assert "Nobody held a double, so every player drew one more tile, 2 times" in text
    log.close()


def test_the_lead_step_is_accessible(
    live_server: LiveServer, watched_page: Callable[..., Page]
) -> None:
    page = watched_page(PORTRAIT)
    table = start_game(page, live_server.url, ["Ann", "Bob", "Cy"], rules=RULES)
    table.tap(page.locator('[data-lead="redraw"]'))
    expect(page.locator("[data-redraws]")).to_have_attribute("data-redraws", "1")
    violations = axe_violations(page)
    assert not violations, explain(violations)
