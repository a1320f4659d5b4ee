"""Safe to host, in a real browser: the Content-Security-Policy is enforced and every browser
test would catch a violation; a rate-limited entry is answered in the page's alert area and
nothing is stored."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.browsing import PolicyWatch, start_game
from tests.support.chromium import PHONE
from tests.support.server import LiveServer, migrated_app


@pytest.fixture
def watched(browser: Browser) -> Iterator[tuple[BrowserContext, PolicyWatch]]:
    """A phone context whose policy violations are collected but not failed on by the fixture."""
    context = browser.new_context(**PHONE)
    yield context, PolicyWatch(context)
    context.close()


def test_a_policy_violation_is_blocked_and_noticed(
    live_server: LiveServer, watched: tuple[BrowserContext, PolicyWatch]
) -> None:
    context, policy = watched
    page = context.new_page()
    response = page.goto(live_server.url + "/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.evaluate(
        """() => {
            document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: red">x</p>');
            const script = document.createElement("script");
            script.textContent = "window.injected = true";
            document.body.append(script);
        }"""
    )
    expect(page.locator("#styled")).to_have_count(1)
    assert page.evaluate("() => window.injected") is None, "the inline script did not run"
    colour = page.evaluate("() => getComputedStyle(document.getElementById('styled')).color")
    assert colour != "rgb(255, 0, 0)", "the style attribute was not applied"
    noticed = [
        lambda: any("style-src" in v for v in policy.violations),
        lambda: any("script-src" in v for v in policy.violations),
        lambda: any(v.startswith("console:") for v in policy.violations),
        lambda: any(v.startswith("event:") for v in policy.violations),
    ]
    deadline = time.monotonic() + 10
    while not all(check() for check in noticed) and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # a step of the wait: Playwright hands on the page's events
    assert [check() for check in noticed] == [True] * 4, policy.violations


@pytest.fixture
def strict_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The app with a low limit on the entries of one game: three a minute."""
    app = migrated_app(tmp_path / "limited.sqlite", TESTING=True, RATELIMIT_ENTRIES="3 per minute")
    with LiveServer(app) as server:
        yield server


def test_an_entry_over_the_limit_is_shown_in_the_alerts_and_not_stored(
    strict_server: LiveServer, phone: Page
) -> None:
    table = start_game(phone, strict_server.url, ["Ann", "Bob"])
    table.choose_leader(0)
    table.play("6-6")
    table.draw()
    table.tap(table.action("draw"))
    alert = phone.locator("#alerts [role=alert]")
    expect(alert).to_contain_text("Too many entries were sent for this game")
    expect(alert).to_contain_text("Nothing was stored")
    expect(alert).to_have_attribute("data-status", "429")
    table.expect_unchanged()
