"""The installed app in Chromium: the service worker and the offline page, an entry that did not
reach the server (never dropped, sent again), and keeping the screen on during a game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from scorekeeper.rules import NewHand, Setup
from tests.browser.browsing import TablePage, seed_game
from tests.support.server import LiveServer

pytestmark = (
    pytest.mark.fresh_context
)  # the service worker and the offline page: a warm HTTP cache must not stand in for them

NOT_REACHED = "Not saved: the server could not be reached."
"""The notice of a form that does not name its entry (the new-game form)."""
LEAD_NOT_SAVED = "Not saved: Ann's lead 6-6. Check the Wi-Fi and the laptop running the app."
"""The notice of Ann's lead 6-6, named, when the server could not be reached: on a hand's
screen it says in a few words what to check, so as to show whole above the picture."""
_SEQ = re.compile(r'id="table"[^>]*data-seq="(\d+)"')


def lead_position(server: LiveServer) -> str:
    """A two-player game with Ann to lead hand 1: any tile is a legal lead."""
    return seed_game(server, Setup.create(["Ann", "Ben"], "all-fives"), [NewHand(0)])


def stored_seq(page: Page, url: str) -> int:
    """How many events the server holds for the game at ``url``, asked outside the page."""
    response = page.request.get(url)
    assert response.ok
    found = _SEQ.search(response.text())
    assert found is not None
    return int(found.group(1))


WORKER_WITHIN_MS = 10_000
"""A service worker that is not active this long after the page loaded never will be."""


def worker_scope(page: Page) -> str:
    """The scope of the page's active service worker; fails within ``WORKER_WITHIN_MS`` when
    none activates (``navigator.serviceWorker.ready`` alone would wait forever)."""
    scope: str = page.evaluate(
        """ms => Promise.race([
             navigator.serviceWorker.ready.then(registration => registration.scope),
             new Promise((_, reject) => setTimeout(
               () => reject(new Error(`no service worker active within ${ms} ms`)), ms)),
           ])""",
        WORKER_WITHIN_MS,
    )
    return scope


def controlled(page: Page, url: str) -> None:
    """Open ``url`` once the service worker is active, so that it looks after the page."""
    page.goto(url)
    worker_scope(page)
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
    assert worker_scope(phone) == live_server.url + "/"


@pytest.mark.fresh_server("the test stops the server")
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


# -- an entry that did not reach the server ---------------------------------------------


def test_an_entry_that_cannot_reach_the_server_is_shown_and_sent_again(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    phone.set_viewport_size({"width": 360, "height": 720})
    controlled(phone, url)
    table = TablePage(phone)
    still = [table.tile("6-5"), table.tile("0-0")]
    before = [place.bounding_box() for place in still]
    phone.route("**/play", lambda route: route.abort())
    table.tap(table.tile("6-6"))

    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    expect(notice).to_contain_text("the laptop running the app")
    send_again = notice.get_by_role("button", name="Send again")
    expect(send_again).to_be_in_viewport()
    # In the screen's news, above the picture, which gives it room: the tray stays put.
    assert notice.evaluate("n => n.parentElement.matches('.screen--fit .stage > .news')")
    for place, was in zip(still, before, strict=True):
        now = place.bounding_box()
        assert now and was and abs(now["y"] - was["y"]) <= 4, (was, now)
    table.expect_unchanged()
    assert stored_seq(phone, url) == table.seq, "nothing was stored"

    phone.unroute("**/play")
    table.tap(send_again)
    table.entered()
    expect(notice).to_have_count(0)
    expect(phone.locator('.table-picture [data-tile="6-6"]')).to_have_count(1)
    assert stored_seq(phone, url) == table.seq


def test_a_second_tap_while_an_entry_is_not_saved_never_drops_the_first(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)
    sent: list[str] = []

    def unreachable(route: Route) -> None:
        sent.append(route.request.post_data or "")
        route.abort()

    phone.route("**/play", unreachable)
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    table.tap(table.tile("5-5"))  # the table is still there: a second lead, tapped offline
    send_again = notice.get_by_role("button", name="Send again")
    expect(send_again).to_be_focused()
    expect(notice).to_contain_text(LEAD_NOT_SAVED)  # the first, named: it is the one waiting
    assert len(sent) == 1, "the second tap sent nothing while the first waits"
    expect(notice).to_have_count(1)

    phone.unroute("**/play")
    table.tap(send_again)
    table.entered()
    expect(notice).to_have_count(0)
    expect(phone.locator('.table-picture [data-tile="6-6"]')).to_have_count(1)
    expect(phone.locator('.table-picture [data-tile="5-5"]')).to_have_count(0)
    assert stored_seq(phone, url) == table.seq


def test_an_entry_that_arrived_but_whose_answer_was_lost_is_not_entered_twice(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    # The page does not follow its game here (no stream, no poll): Send again is what tells
    # it. (Following, the stored lead would arrive and clear the notice: the test below.)
    phone.route("**/changes", lambda route: route.abort())
    phone.route("**/live*", lambda route: route.abort())
    phone.goto(url)
    table = TablePage(phone)

    def arrive_then_fail(route: Route) -> None:
        route.fetch()  # the server stores the entry...
        route.abort()  # ...but the phone never hears back

    phone.route("**/play", arrive_then_fail)
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    assert stored_seq(phone, url) == table.seq + 1
    phone.unroute("**/play")
    table.tap(notice.get_by_role("button", name="Send again"))
    table.entered()  # the table as the server has it: the lead, once
    expect(phone.locator(".notice-stale")).to_contain_text("nothing was entered")
    expect(notice).to_have_count(0)
    assert stored_seq(phone, url) == table.seq


def test_an_entry_stored_though_its_answer_was_lost_clears_its_notice(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)

    def arrive_then_fail(route: Route) -> None:
        route.fetch()
        route.abort()

    phone.route("**/play", arrive_then_fail)
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    # The page follows its game: the table as stored arrives, the lead on it, and the notice
    # of an entry that was stored after all goes by itself.
    table.entered()
    expect(phone.locator('.table-picture [data-tile="6-6"]')).to_have_count(1)
    expect(notice).to_have_count(0)
    assert stored_seq(phone, url) == table.seq


def test_a_server_error_is_not_saved_and_keeps_the_table(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)
    phone.route(
        "**/play",
        lambda route: route.fulfill(
            status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>"
        ),
    )
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(
        "Not saved: Ann's lead 6-6. The server failed to answer (error 502)."
    )
    expect(phone.get_by_text("Bad Gateway")).to_have_count(0)
    expect(phone.locator("#table .picker")).to_be_visible()
    table.expect_unchanged()
    phone.unroute("**/play")
    table.tap(notice.get_by_role("button", name="Send again"))
    table.entered()
    expect(notice).to_have_count(0)


def test_an_entry_without_an_answer_in_time_is_not_saved(
    live_server: LiveServer, phone: Page
) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)
    phone.evaluate("htmx.config.timeout = 1000")  # instead of the default ten seconds
    held: list[Route] = []

    def no_answer(route: Route) -> None:
        held.append(route)  # the request went out; nothing comes back

    phone.route("**/play", no_answer)
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    assert held, "the entry was sent"
    held[0].abort()
    phone.unroute("**/play")
    table.tap(notice.get_by_role("button", name="Send again"))
    table.entered()
    assert stored_seq(phone, url) == table.seq


def test_a_table_brought_by_the_live_view_keeps_the_entry_not_saved(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)
    phone.route("**/play", lambda route: route.abort())
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(LEAD_NOT_SAVED)

    second_phone.goto(url)
    TablePage(second_phone).play("5-5")  # Ann's lead, entered on another phone meanwhile
    table.entered()  # the live view brings the new table...
    expect(phone.locator('.table-picture [data-tile="5-5"]')).to_have_count(1)
    expect(notice).to_contain_text(LEAD_NOT_SAVED)  # ...and the entry not saved is still shown

    phone.unroute("**/play")
    table.tap(notice.get_by_role("button", name="Send again"))
    expect(phone.locator(".notice-stale")).to_contain_text("nothing was entered")
    expect(notice).to_have_count(0)
    table.expect_unchanged()
    assert stored_seq(phone, url) == table.seq


def test_a_failed_send_again_says_so_again(live_server: LiveServer, phone: Page) -> None:
    url = lead_position(live_server)
    phone.goto(url)
    table = TablePage(phone)
    refused: list[str] = []

    def unreachable(route: Route) -> None:
        refused.append(route.request.post_data or "")
        route.abort()

    phone.route("**/play", unreachable)
    table.tap(table.tile("6-6"))
    notice = phone.locator("[data-not-saved]")
    send_again = notice.get_by_role("button", name="Send again")
    expect(send_again).to_be_enabled()
    table.tap(send_again)
    expect(send_again).to_be_enabled()  # back from "Sending…": it failed again
    assert len(refused) == 2
    version = table.table.get_attribute("data-version")
    assert all("tile=6-6" in body and f"version={version}" in body for body in refused), refused
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text(LEAD_NOT_SAVED)
    table.expect_unchanged()


def test_starting_a_game_that_cannot_reach_the_server_is_shown_and_sent_again(
    live_server: LiveServer, phone: Page
) -> None:
    phone.goto(live_server.url + "/games/new")
    phone.locator('input[name="player1"]').fill("Ann")
    phone.locator('input[name="player2"]').fill("Ben")
    phone.route("**/games/new", lambda route: route.abort())
    phone.get_by_role("button", name="Start the game").click()

    notice = phone.locator("[data-not-saved]")
    expect(notice).to_contain_text(NOT_REACHED)
    assert notice.evaluate("n => n.nextElementSibling.id") == "new-game", "beside the form"
    expect(phone.locator('input[name="player2"]')).to_have_value("Ben")
    phone.unroute("**/games/new")
    notice.get_by_role("button", name="Send again").click()
    expect(phone).to_have_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    expect(phone.locator("[data-seat]").first).to_contain_text("Ann")


# -- keeping the screen on --------------------------------------------------------------

FAKE_WAKE_LOCK = """
window.wakeLog = [];
const fakeWakeLock = {
  async request(type) {
    window.wakeLog.push("request " + type);
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.released = false;
    sentinel.release = async () => {
      if (sentinel.released) return;
      sentinel.released = true;
      window.wakeLog.push("release");
      sentinel.dispatchEvent(new Event("release"));
    };
    window.wakeSentinel = sentinel;
    return sentinel;
  },
};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => fakeWakeLock});
"""
HIDDEN_BY_THE_BROWSER = """() => {
  // What a browser does when the page is hidden: it lets go of the lock by itself.
  window.wakeSentinel.released = true;
  window.wakeSentinel.dispatchEvent(new Event("release"));
  document.dispatchEvent(new Event("visibilitychange"));
}"""


BECOMES_VISIBLE = "() => document.dispatchEvent(new Event('visibilitychange'))"


@pytest.fixture
def fake_wake_lock(phone: Page) -> Page:
    """A phone whose Wake Lock API records every request and release in ``window.wakeLog``."""
    phone.add_init_script(FAKE_WAKE_LOCK)
    return phone


def wake_log(page: Page) -> list[str]:
    """The wake lock requests and releases so far."""
    return page.evaluate("window.wakeLog")


def test_keep_the_screen_on_is_shown_and_on_in_chromium(
    live_server: LiveServer, any_page: Page
) -> None:
    any_page.goto(lead_position(live_server))
    toggle = any_page.get_by_label("Keep the screen on")
    expect(toggle).to_be_visible()
    expect(toggle).to_be_checked()
    box = any_page.locator("[data-wake-lock]")
    expect(box).to_have_attribute("data-state", re.compile("^(on|refused)$"))
    toggle.uncheck()
    expect(box).to_have_attribute("data-state", "off")


REFUSING_WAKE_LOCK = """
window.wakeLog = [];
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request(type) {
    window.wakeLog.push("request " + type);
    // The browser takes a moment to say no, as one with no screen to keep on does. A task
    // after the no, the page has handled it (its handlers run as microtasks): counted then.
    return new Promise((_, no) => setTimeout(() => {
      no(new DOMException("no", "NotAllowedError"));
      setTimeout(() => { window.wakeRefusals = (window.wakeRefusals || 0) + 1; });
    }, 200));
  },
})});
"""


def test_unticking_after_a_refusal_turns_it_off(live_server: LiveServer, phone: Page) -> None:
    """A refused lock is asked for again at the next tap; when that tap unticks the box, the
    answer that comes after it does not tick it back to "refused": it is off."""
    phone.add_init_script(REFUSING_WAKE_LOCK)
    phone.goto(lead_position(live_server))
    box = phone.locator("[data-wake-lock]")
    expect(box).to_have_attribute("data-state", "refused")
    phone.get_by_label("Keep the screen on").uncheck()
    phone.wait_for_function("window.wakeLog.length === 2")  # the tap asked again
    phone.wait_for_function("() => window.wakeRefusals === 2")  # and the page has the answer
    expect(box).to_have_attribute("data-state", "off")


def test_keep_the_screen_on_asks_lets_go_and_asks_again_when_visible(
    live_server: LiveServer, fake_wake_lock: Page
) -> None:
    page = fake_wake_lock
    url = lead_position(live_server)
    page.goto(url)
    box = page.locator("[data-wake-lock]")
    expect(box).to_have_attribute("data-state", "on")
    assert wake_log(page) == ["request screen"]

    page.evaluate(HIDDEN_BY_THE_BROWSER)
    expect(box).to_have_attribute("data-state", "on")
    assert wake_log(page) == ["request screen", "request screen"]

    table = TablePage(page)
    table.play("6-6")  # the table is swapped; the toggle, outside it, stays
    expect(page.get_by_label("Keep the screen on")).to_be_checked()

    page.get_by_label("Keep the screen on").uncheck()
    expect(box).to_have_attribute("data-state", "off")
    assert wake_log(page) == ["request screen", "request screen", "release"]
    # The page's listener runs inside dispatchEvent, and asks (if it does) before its first
    # await: a request would be in the log when evaluate returns.
    page.evaluate(BECOMES_VISIBLE)
    assert wake_log(page)[-1] == "release", "asked again although switched off"


def test_keep_the_screen_on_remembers_being_switched_off(
    live_server: LiveServer, fake_wake_lock: Page
) -> None:
    page = fake_wake_lock
    url = lead_position(live_server)
    page.goto(url)
    page.get_by_label("Keep the screen on").uncheck()
    page.goto(url)
    expect(page.get_by_label("Keep the screen on")).not_to_be_checked()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-state", "off")
    assert wake_log(page) == []
    page.get_by_label("Keep the screen on").check()
    expect(page.locator("[data-wake-lock]")).to_have_attribute("data-state", "on")
    page.goto(url)
    expect(page.get_by_label("Keep the screen on")).to_be_checked()
    assert wake_log(page) == ["request screen"]


def test_keep_the_screen_on_is_absent_without_the_wake_lock_api(
    live_server: LiveServer, desktop: Page
) -> None:
    desktop.add_init_script("delete Navigator.prototype.wakeLock;")
    desktop.goto(lead_position(live_server))
    assert desktop.evaluate("'wakeLock' in navigator") is False
    expect(desktop.locator("#table")).to_be_visible()
    expect(desktop.locator("[data-wake-lock]")).to_be_hidden()
    expect(desktop.get_by_text("Keep the screen on")).to_be_hidden()


def test_keep_the_screen_on_is_absent_without_javascript(
    live_server: LiveServer, phone_no_js: Page
) -> None:
    phone_no_js.goto(lead_position(live_server))
    expect(phone_no_js.locator("#table")).to_be_visible()
    expect(phone_no_js.locator("[data-wake-lock]")).to_be_hidden()
