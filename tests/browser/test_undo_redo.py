"""Undo and Redo on the play screen, with htmx and without JavaScript: Redo sits in the
actions row only after an undo, brings the entry back, and is gone after a new entry; beside
Draw on a 360 px phone both still say their entry whole."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Adjust, NewHand, Play, Setup, tile
from tests.browser.browsing import TablePage, seed_game, word_problems
from tests.support.chromium import PORTRAIT
from tests.support.server import LiveServer


def _opening(server: LiveServer) -> str:
    """Ann has led 5-5; Bob is to play."""
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    return seed_game(server, setup, [NewHand(0), Play(0, tile(5, 5), None)])


def test_redo_brings_back_an_undone_play_and_leaves_after_a_new_entry(
    live_server: LiveServer, any_page: Page
) -> None:
    any_page.goto(_opening(live_server))
    table = TablePage(any_page)
    redo = table.action("redo")
    expect(redo).to_have_count(0)
    table.play("5-0", "E", offered=["W", "E"])
    table.expect_scores(["Ann", "Bob"], [10, 10])

    table.undo()
    table.expect_scores(["Ann", "Bob"], [10, 0])
    expect(table.page.locator(".actions").locator(redo)).to_be_visible()
    expect(redo).to_contain_text("Bob's 5-0 on E")

    table.tap(redo)
    table.entered()
    table.expect_scores(["Ann", "Bob"], [10, 10])
    expect(any_page.get_by_role("status").filter(has_text="Redone")).to_contain_text("5-0")
    expect(redo).to_have_count(0)

    table.undo()
    expect(redo).to_be_visible()
    table.play("5-0", "W", offered=["W", "E"])
    expect(redo).to_have_count(0)


def test_undo_and_redo_without_javascript(live_server: LiveServer, phone_no_js: Page) -> None:
    phone_no_js.goto(_opening(live_server))
    undo = phone_no_js.locator('[data-action="undo"]')
    redo = phone_no_js.locator('[data-action="redo"]')
    expect(undo).to_contain_text("5-5")
    undo.click()
    expect(phone_no_js.locator("#table")).to_have_attribute("data-seq", "1")
    expect(redo).to_contain_text("Ann's lead 5-5")
    redo.click()
    expect(phone_no_js.locator("#table")).to_have_attribute("data-seq", "2")
    expect(phone_no_js.locator('[data-side-score="Ann"]')).to_have_text("10")
    expect(redo).to_have_count(0)


CUT_SHORT = """(buttons) => buttons
    .map((button) => button.querySelector('small'))
    .filter((words) => words.scrollWidth > words.clientWidth + 1
        || words.scrollHeight > words.clientHeight + 1)
    .map((words) => words.textContent)"""


def test_undo_and_redo_say_their_entries_whole_beside_draw_at_360_px(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT)
    page.goto(_opening(live_server))
    table = TablePage(page)
    table.play("5-0", "E", offered=["W", "E"])
    table.draw()  # Ann draws: Undo takes back her draw...
    table.undo()  # ...and after it Redo brings it back, beside Draw and Undo "Bob's 5-0 on E"
    buttons = page.locator(".actions button")
    expect(buttons).to_have_count(3)
    expect(table.action("undo")).to_contain_text("Bob's 5-0 on E")
    expect(table.action("redo")).to_contain_text("Ann drawing a tile")
    assert buttons.evaluate_all(CUT_SHORT) == []


@pytest.mark.parametrize("language", ["en", "sv", "fil"])
def test_a_long_entry_to_redo_is_said_whole_beside_draw_and_undo(
    live_server: LiveServer, page_with: Any, language: str
) -> None:
    """An adjustment of a partnership's score undone: Redo's entry takes three lines of its
    narrow button ("the adjustment of Bob & Dee's score"), and every line shows."""
    setup = Setup.create(["Annabelle", "Bob", "Cy", "Dee"], "all-fives", partners=True)
    events = [NewHand(0), Play(0, tile(6, 4)), Adjust(1, 10, "miscount")]
    page = page_with(**PORTRAIT)
    page.goto(f"{live_server.url}/language/{language}?next=/")
    page.goto(seed_game(live_server, setup, events))
    table = TablePage(page)
    table.undo()
    buttons = page.locator(".actions button")
    expect(buttons).to_have_count(3)
    expect(table.action("redo")).to_contain_text("Bob & Dee")
    assert buttons.evaluate_all(CUT_SHORT) == []
    assert word_problems(page, within=".actions") == []
