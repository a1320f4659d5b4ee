"""The play screen: everything the next entry needs fits one phone screen, and stays put.

For hands with 2, 12 and 24 tiles on the table (a spinner's arms grown in all four directions,
and with every double a spinner), on a phone held upright (360x720), on its side (740x360)
and on a small phone (320x640): without scrolling, the whole picture, every tile that can
still be played, the open-end buttons of a picked tile and Draw / Pass / Undo are inside the
viewport; and an entry moves neither the tray nor the action buttons by more than 4 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import ALL_TILES, Game, Setup
from scorekeeper.rules.events import Event
from tests.browser.browsing import TablePage, hand_at, seed_game
from tests.support.server import LiveServer

SIZES = {
    "portrait": {"width": 360, "height": 720},
    "landscape": {"width": 740, "height": 360},
    "small": {"width": 320, "height": 640},
}

HANDS: dict[str, tuple[int, int, dict[str, Any], bool]] = {
    # name: (tiles on the table, players, house rules, all four spinner arms grown)
    "2 tiles": (2, 2, {}, False),
    "12 tiles, arms all round": (12, 2, {}, True),
    "24 tiles": (24, 2, {}, False),
    "12 tiles, four players": (12, 4, {}, False),
    "2 tiles, every double a spinner": (2, 2, {"spinners": "all"}, False),
    "12 tiles, every double a spinner": (12, 2, {"spinners": "all"}, False),
    "24 tiles, every double a spinner": (24, 3, {"spinners": "all"}, False),
}

MOVE_TOLERANCE = 4.0

OUTSIDE_JS = """
selector => [...document.querySelectorAll(selector)]
  .filter(e => !e.disabled)
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => !(r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5))
  .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className}`
    + `${e.dataset.tile ? "[" + e.dataset.tile + "]" : ""}`
    + ` at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`)
"""


def outside(page: Page, selector: str) -> list[str]:
    """The enabled elements matching ``selector`` that are not wholly inside the viewport."""
    found: list[str] = page.evaluate(OUTSIDE_JS, selector)
    return found


def top_of(page: Page, selector: str) -> float:
    """Where the first element matching ``selector`` starts, in px from the viewport's top."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["y"]


def all_in_view(page: Page) -> None:
    """Without scrolling: the picture, the playable tiles, end buttons and actions in view.
    (The picture's box: a picture whose tiles would be too small to read scrolls inside it.)"""
    assert page.evaluate("scrollY") == 0
    problems = []
    for selector in (
        "#table .layout",
        "[data-side-score]",
        "[data-count]",
        "[data-turn]",
        ".picker .tile-button",
        ".end-buttons .end-button",
        "[data-action]",
    ):
        problems += outside(page, selector)
    assert not problems, "not in view without scrolling:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def hands() -> dict[str, tuple[Setup, list[Event]]]:
    """Each hand of HANDS, cut from a simulated game (found once for the whole module)."""
    found = {}
    for name, (tiles, players, options, all_arms) in HANDS.items():
        found[name] = hand_at(tiles, players, options, all_arms)
    return found


def fitting(setup: Setup, events: list[Event], ends: int) -> str | None:
    """A tile not yet on the table that fits exactly ``ends`` open ends, if there is one."""
    hand = Game(setup, events).hand
    assert hand is not None
    for tile in ALL_TILES:
        if tile not in hand.layout.on_table and len(hand.layout.fits(tile)) == ends:
            return str(tile)
    return None


@pytest.mark.parametrize("hand", list(HANDS))
@pytest.mark.parametrize("size", list(SIZES))
def test_the_next_entry_fits_one_screen(
    live_server: LiveServer,
    phone: Page,
    hands: dict[str, tuple[Setup, list[Event]]],
    hand: str,
    size: str,
) -> None:
    next_entry_fits(live_server, phone, hands[hand], size)


@pytest.mark.parametrize("hand", ["12 tiles, arms all round", "12 tiles, four players"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["sv", "fil"])
def test_the_next_entry_fits_one_screen_in_svenska_and_filipino(
    live_server: LiveServer,
    phone: Page,
    hands: dict[str, tuple[Setup, list[Event]]],
    hand: str,
    size: str,
    language: str,
) -> None:
    """Longer words (Tagalog runs long) do not push the next entry off the screen."""
    phone.goto(f"{live_server.url}/language/{language}?next=/")
    next_entry_fits(live_server, phone, hands[hand], size)
    assert phone.locator("html").get_attribute("lang") == language


def next_entry_fits(
    live_server: LiveServer, phone: Page, hand: tuple[Setup, list[Event]], size: str
) -> None:
    """Everything the next entry needs is in view, before and after an entry, on ``size``."""
    setup, events = hand
    phone.set_viewport_size(SIZES[size])
    phone.goto(seed_game(live_server, setup, events))
    table = TablePage(phone)
    all_in_view(phone)
    tray, actions = top_of(phone, ".picker .tiles"), top_of(phone, ".actions")

    # A tile fitting several ends, picked: its end buttons join the screen, nothing moves.
    several = fitting(setup, events, 2)
    if several is not None:
        table.tap(table.tile(several))
        expect(phone.locator(".end-buttons .end-button")).to_have_count(2)
        all_in_view(phone)
        assert abs(top_of(phone, ".picker .tiles") - tray) <= MOVE_TOLERANCE
        assert abs(top_of(phone, ".actions") - actions) <= MOVE_TOLERANCE
        table.tap(phone.locator(".end-buttons .end-button").first)
    else:
        table.tap(phone.locator('[data-action="draw"], [data-action="pass"]').first)
    table.entered()
    # After the entry: still all in view, and the tray and buttons where the thumb left them.
    all_in_view(phone)
    assert abs(top_of(phone, ".picker .tiles") - tray) <= MOVE_TOLERANCE
    assert abs(top_of(phone, ".actions") - actions) <= MOVE_TOLERANCE
