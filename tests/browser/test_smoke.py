"""The app answers in a real browser, offline."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.browsing import set_text_size
from tests.browser.conftest import Contexts
from tests.support.chromium import PHONE
from tests.support.server import LiveServer


def test_home_page_offers_a_new_game(live_server: LiveServer, any_page: Page) -> None:
    any_page.goto(live_server.url + "/")
    expect(any_page.get_by_role("link", name="New game").first).to_be_visible()


def test_a_context_lent_again_keeps_nothing_of_the_test_before(
    live_server: LiveServer, contexts: Contexts
) -> None:
    """The browser contexts that tests share (``Contexts``) come back as a new phone's:
    no cookie, no stored setting, no service worker, no permission, online."""
    watched = contexts.take(PHONE)
    page = watched.context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate("localStorage.setItem('left', 'behind')")
    page.evaluate("navigator.serviceWorker.ready")
    watched.context.add_cookies([{"name": "left", "value": "behind", "url": live_server.url}])
    watched.context.grant_permissions(["clipboard-read"])
    watched.context.set_offline(True)
    contexts.give_back(watched, PHONE)

    again = contexts.take(PHONE)
    assert again is watched
    page = again.context.new_page()
    page.goto(live_server.url + "/")
    assert page.evaluate("localStorage.getItem('left')") is None
    assert all(cookie["name"] != "left" for cookie in again.context.cookies())
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert (
        page.evaluate("navigator.permissions.query({name: 'clipboard-read'}).then(p => p.state)")
        != "granted"
    )
    contexts.give_back(again, PHONE)


def test_a_page_lent_again_is_a_new_phone_s_page(
    live_server: LiveServer, contexts: Contexts
) -> None:
    """A page kept open for the tests that look at pages (``keep_page``) comes back blank, on
    the phone's screen, in light mode, at the default text size, with no route and nothing in
    its session storage."""
    watched = contexts.take(PHONE, keep_page=True)
    page = watched.page
    assert page is not None
    page.goto(live_server.url + "/")
    page.evaluate("sessionStorage.setItem('left', 'behind')")
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 640, "height": 360})
    set_text_size(page, 200)
    page.route("**/*", lambda route: route.abort())
    contexts.give_back(watched, PHONE)

    again = contexts.take(PHONE, keep_page=True)
    assert again is watched and again.page is page
    assert page.url == "about:blank"
    assert page.viewport_size == PHONE["viewport"]
    page.goto(live_server.url + "/")  # no route left to abort it
    assert page.evaluate("sessionStorage.getItem('left')") is None
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") == 16
    contexts.give_back(again, PHONE)
