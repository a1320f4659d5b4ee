"""Between hands the table keeps its place (issue 21): after a hand's last tile, its
settlement and the next hand's lead, the page moves only where the app means it to, upright
and on its side."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Setup
from scorekeeper.rules.events import Event, Play, Settle
from scorekeeper.rules.game import Game
from scorekeeper.rules.simulate import play_game
from tests.browser.browsing import TablePage, import_game, record, seed_game, watch_link
from tests.support.chromium import LANDSCAPE, PORTRAIT, WALL, open_and_settle
from tests.support.server import LiveServer

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}


def domino_then_lead() -> tuple[Setup, list[Event], Play, Settle, Play]:
    """A 4-player partnership game cut before the tile that dominoes hand 1; that tile, the
    hand's settlement, and the lead of hand 2 (by the player who dominoed)."""
    setup = Setup.create(["Ann", "Bob", "Cy", "Di"], "all-fives", {"target": 1000})
    for seed in range(100):
        events = play_game(setup, random.Random(seed)).events
        settled = next(i for i, event in enumerate(events) if isinstance(event, Settle))
        game = Game(setup, events[:settled])
        if game.hands[-1].result != "domino":
            continue
        last, settle = events[settled - 1], events[settled]
        lead = next(event for event in events[settled:] if isinstance(event, Play))
        assert isinstance(last, Play) and isinstance(settle, Settle)
        return setup, list(events[: settled - 1]), last, settle, lead
    raise AssertionError("no simulated hand 1 ends in a domino")


def scroll_y(page: Page) -> int:
    """Where the page is scrolled to, once the frames after the last swap are drawn."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    return int(page.evaluate("window.scrollY"))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_lead_after_a_settlement_leaves_the_page_where_it_was(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    setup, events, last, settle, lead = domino_then_lead()
    page = page_with(**SCREENS[screen])
    # The settled hand comes into view at once, not smoothly: nothing left moving to measure.
    page.emulate_media(reduced_motion="reduce")
    open_and_settle(page, seed_game(live_server, setup, events))
    table = TablePage(page)
    ends = Game(setup, events).fits(last.tile)
    if len(ends) > 1:
        table.play(last.tile, last.end, offered=ends)
    else:
        table.play(last.tile)
    for seat, held in settle.remaining.items():
        pips = held if isinstance(held, int) else sum(tile.pips for tile in held)
        page.locator(f'input[name="held-{seat}"]').fill(str(pips))
    table.tap(page.get_by_role("button", name="Settle hand 1"))
    table.entered(2)  # the settlement, and hand 2 begun by the player who dominoed
    before = scroll_y(page)
    # A tap as a finger makes it (the button takes the focus, then is clicked), without the
    # test scrolling to the button as Playwright's own tap would.
    tile = table.tile(lead.tile)
    tile.evaluate("button => button.focus({preventScroll: true})")
    tile.dispatch_event("click")
    table.entered()
    assert scroll_y(page) == before


def test_the_watch_page_and_the_board_follow_the_table_to_its_rematch(
    live_server: LiveServer, page_with: Any
) -> None:
    scorekeeper = page_with(**PORTRAIT)
    url = import_game(scorekeeper, live_server.url, record("hand_immediate_win"))
    open_and_settle(scorekeeper, url)
    watch_url = watch_link(scorekeeper)
    watcher, wall = page_with(**PORTRAIT), page_with(**WALL)
    open_and_settle(watcher, watch_url)
    open_and_settle(wall, watch_url + "/board")

    TablePage(scorekeeper).tap(scorekeeper.locator('[data-action="rematch"]'))
    scorekeeper.wait_for_url(lambda now: now.split("?")[0] != url)
    rematch = scorekeeper.locator("#table").get_attribute("data-door")
    assert rematch == "games"
    new_watch = watch_link(scorekeeper)
    assert new_watch != watch_url

    # Both move on by themselves (how soon a change reaches a watcher: bench/live_table.py).
    watcher.wait_for_url(new_watch)
    wall.wait_for_url(new_watch + "/board")
    phase = scorekeeper.locator("#table").get_attribute("data-phase") or ""
    expect(watcher.locator("#table")).to_have_attribute("data-phase", phase)
    expect(wall.locator("#board")).to_have_attribute("data-phase", phase)
    for page in (watcher, wall):
        expect(page.locator("[data-side-score]").first).to_have_text("0")
