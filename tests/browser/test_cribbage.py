"""The cribbage board in Chromium: a game in fives started from the form (the target switches
to 61 with the units), its board drawn beside the scores and fitting a phone."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.browsing import GAME_URL, TablePage, tap, watch_link
from tests.support.chromium import LANDSCAPE, PORTRAIT, WALL, open_and_settle
from tests.support.server import LiveServer


def start_in_fives(page: Page, base: str) -> TablePage:
    """Start Ann v Bob in fives through the form; the first leader chosen by lot."""
    page.goto(base + "/games/new")
    page.locator('input[name="player1"]').fill("Ann")
    page.locator('input[name="player2"]').fill("Bob")
    page.locator("details.house-rules summary").click()
    page.locator('select[name="units"]').select_option("fives")
    expect(page.locator('input[name="target"]')).to_have_value("61")
    page.locator('input[name="leader"][value="random"]').check()
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    return TablePage(page)


def fits(page: Page) -> dict[str, Any]:
    """The board's box and the page's widths."""
    return page.evaluate(
        """() => {
          const svg = document.querySelector('.cribbage-board').getBoundingClientRect();
          const peg = document.querySelector('[data-peg="front"]').getBoundingClientRect();
          return {left: svg.left, right: svg.right, width: svg.width, peg: peg.width,
                  page: document.documentElement.scrollWidth, view: window.innerWidth};
        }"""
    )


def test_a_game_in_fives_shows_its_pegs_on_a_board_that_fits_a_phone(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT)
    table = start_in_fives(page, live_server.url)
    expect(page.locator(".target [data-unit='fives']")).to_have_text("in fives")
    board = page.locator("#cribbage")
    expect(board).to_have_attribute("open", "")
    leader = page.locator(".seat[aria-current='true']").first.get_attribute("data-seat")
    name = "Ann" if leader == "0" else "Bob"
    table.play("5-5")
    front = page.locator(f'[data-peg="front"][data-side="{name}"]')
    expect(front).to_have_attribute("data-hole", "2")
    expect(page.locator(f'[data-peg="back"][data-side="{name}"]')).to_have_attribute(
        "data-hole", "0"
    )
    board.scroll_into_view_if_needed()
    expect(front).to_be_visible()
    box = fits(page)
    assert box["left"] >= 0 and box["right"] <= box["view"], box
    assert box["page"] <= box["view"], "the page scrolls sideways"
    assert box["peg"] >= 6, "a peg too small to see"
    page.screenshot(path="/tmp/cribbage-360.png", full_page=True)
    wide = page_with(**LANDSCAPE)
    wide.goto(page.url)
    wide.locator("#cribbage").scroll_into_view_if_needed()
    box = fits(wide)
    assert box["right"] <= box["view"] and box["page"] <= box["view"], box


def test_the_wall_board_of_a_game_in_fives_shows_its_pegs_on_the_screen(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT)
    table = start_in_fives(page, live_server.url)
    leader = page.locator(".seat[aria-current='true']").first.get_attribute("data-seat")
    name = "Ann" if leader == "0" else "Bob"
    table.play("5-5")
    wall = page_with(**WALL)
    open_and_settle(wall, watch_link(page) + "/board")
    pegs = wall.locator(".board-pegs .cribbage-board")
    expect(pegs).to_be_in_viewport(ratio=1)  # the whole board, without scrolling
    front = wall.locator(f'.board-pegs [data-peg="front"][data-side="{name}"]')
    expect(front).to_have_attribute("data-hole", "2")
    expect(wall.locator(".board-layout .table-picture__svg")).to_be_in_viewport(ratio=1)
