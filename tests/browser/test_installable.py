"""The installed app in Chromium: the service worker and the offline page."""

from __future__ import annotations

from browsing import LiveServer, TablePage, seed_game
from playwright.sync_api import Page, expect

from scorekeeper.rules import NewHand, Setup


def lead_position(server: LiveServer) -> str:
    """A two-player game with Ann to lead hand 1: any tile is a legal lead."""
    return seed_game(server, Setup.create(["Ann", "Ben"], "all-fives"), [NewHand(0)])


def controlled(page: Page, url: str) -> None:
    """Open ``url`` once the service worker is active, so that it looks after the page."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready")
    page.goto(url)
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def kept_urls(page: Page) -> list[str]:
    """Every URL in every cache the service worker keeps."""
    return page.evaluate(
        """async () => {
             const urls = [];
             for (const name of await caches.keys()) {
               const cache = await caches.open(name);
               urls.push(...(await cache.keys()).map(request => request.url));
             }
             return urls;
           }"""
    )


# -- the service worker and the offline page -----------------------------------------------


def test_service_worker_registers_for_the_whole_site(live_server: LiveServer, phone: Page) -> None:
    phone.goto(live_server.url + "/games/new")
    scope = phone.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_server.url + "/"


def test_a_page_that_cannot_be_loaded_shows_the_offline_page(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    controlled(phone, url)
    table = TablePage(phone)
    table.play("6-6")
    kept = kept_urls(phone)
    assert live_server.url + "/offline" in kept
    assert not [u for u in kept if "/games/" in u or "/watch/" in u], kept

    live_server.server.shutdown()
    live_server.server.server_close()  # nothing listens now: the laptop is off
    phone.goto(url)
    expect(phone.get_by_role("heading", level=1)).to_have_text("The server cannot be reached")
    expect(phone.locator("[data-offline]")).to_contain_text("Wi-Fi")
    assert phone.url == url, "the address stays the page that could not be loaded"
    assert phone.locator("#table").count() == 0, "a copy of the game page was kept"
    # Its stylesheets come from the worker's cache: the page looks like the rest of the site.
    background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(246, 243, 236)"
    assert phone.locator("[data-try-again]").evaluate("a => a.href") == url


def test_game_pages_are_answered_by_the_server_never_from_a_copy(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    controlled(phone, url)
    other = phone.context.new_page()  # a second tab of the same phone plays a tile
    other.goto(url)
    TablePage(other).play("5-5")
    phone.reload()
    expect(phone.locator("#table")).to_have_attribute("data-seq", "2")
    expect(phone.locator('.table-picture [data-tile="5-5"]')).to_have_count(1)
