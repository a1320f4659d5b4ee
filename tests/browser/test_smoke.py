"""The app answers in a real browser, offline."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.server import LiveServer


def test_home_page_offers_a_new_game(live_server: LiveServer, any_page: Page) -> None:
    any_page.goto(live_server.url + "/")
    expect(any_page.get_by_role("link", name="New game").first).to_be_visible()
