"""See what happened, on a 360x720 phone: the flash of what a play scored by the scoreboard
(nothing below it moves), the end of a hand, the settled hand and the winner brought into view
by the entry that made them, and the winner's Rematch starting the new game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import NewHand, Play, Setup, tile
from tests.browser.browsing import GAME_URL, TablePage, import_game, record, seed_game
from tests.support.server import LiveServer

PORTRAIT = {"width": 360, "height": 720}
SHOWN = re.compile(r"\blast-score--show\b")
# What the flash must not move: the tile tray and the buttons below the picture.
STILL = ("form.picker", 'button[data-tile="3-3"]', '[data-action="draw"]', '[data-action="undo"]')
# Fives-up, partners, target 20: the hand is blocked, and its settlement makes Bob & Dee win.
PARTNERS_HELD = {0: "67", 1: "4-2 4-1 4-0 3-3", 2: "3-2 3-1 3-0 2-2", 3: "6"}


def box(target: Locator) -> dict[str, float]:
    """Where ``target`` is on the screen (CSS px, relative to the viewport)."""
    found = target.bounding_box()
    assert found is not None, "not rendered"
    return found


def boxes(page: Page) -> list[dict[str, float]]:
    return [box(page.locator(selector)) for selector in STILL]


def expect_in_view(page: Page, target: Locator) -> None:
    """``target`` lies wholly inside the viewport, below the sticky scoreboard."""
    expect(target).to_be_in_viewport()
    settle_in_view(page)
    top = box(page.locator(".scoreboard"))
    seen = box(target)
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert seen["y"] >= top["y"] + top["height"] - 1, "under the scoreboard"
    assert seen["y"] + seen["height"] <= height + 1, "below the fold"


def settle_in_view(page: Page) -> None:
    """Wait until the page has stopped scrolling (a smooth scroll takes a few frames)."""
    last, still = None, 0
    while still < 4:
        now = page.evaluate("() => window.scrollY")
        still = still + 1 if now == last else 0
        last = now
        page.wait_for_timeout(50)


def lit(line: Locator) -> bool:
    """Whether the count line is lit (its background is not transparent)."""
    background = line.evaluate("e => getComputedStyle(e).backgroundColor")
    return background not in ("rgba(0, 0, 0, 0)", "transparent")


def test_a_scoring_play_lights_the_count_line_and_nothing_moves_or_hides(
    live_server: LiveServer, phone: Page
) -> None:
    phone.set_viewport_size(PORTRAIT)
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    # Ann has led 6-4 (W 6, E 4): Bob's 6-1 fits W only and counts 1 + 4 = 5.
    phone.goto(seed_game(live_server, setup, [NewHand(0), Play(0, tile(6, 4))]))
    table = TablePage(phone)
    flash = phone.locator("[data-last-score]")
    line = phone.locator(".count-line")
    expect(flash).not_to_be_visible()
    status = box(phone.locator(".status"))

    table.play("6-1")

    # What it scored is said where the count is (the status line stays in sight, nothing
    # lies over it), and read out.
    expect(flash).to_have_class(SHOWN)
    expect(flash).to_have_attribute("data-last-score", "+5 Bob")
    expect(flash).not_to_be_visible()
    expect(line).to_contain_text("Bob +5")
    assert lit(line), "the count line lights up"
    covering = phone.evaluate(
        """([x, y]) => document.elementFromPoint(x, y).closest('.status') !== null""",
        [status["x"] + status["width"] / 2, status["y"] + status["height"] / 2],
    )
    assert covering, "something lies over the status line"
    expect(phone.locator("#score-news")).to_have_text("Bob's 6-1 on W: +5 Bob")
    while_shown = boxes(phone)

    # It goes within a few seconds, and then nothing has moved.
    expect(flash).not_to_have_class(SHOWN)
    assert not lit(line)
    assert boxes(phone) == while_shown

    # A draw scores nothing: nothing lit, and the live region is emptied.
    table.draw()
    expect(flash).to_have_attribute("data-last-score", "")
    assert not lit(phone.locator(".count-line"))
    expect(phone.locator("#score-news")).to_have_text("")


def test_the_flash_does_not_fade_with_reduced_motion(live_server: LiveServer, phone: Page) -> None:
    phone.emulate_media(reduced_motion="reduce")
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    phone.goto(seed_game(live_server, setup, [NewHand(0)]))
    table = TablePage(phone)

    table.play("5-5")

    flash = phone.locator("[data-last-score]")
    expect(flash).to_have_attribute("data-last-score", "+10 Ann")
    line = phone.locator(".count-line")
    assert lit(line)
    timing = line.evaluate("e => getComputedStyle(e).animationTimingFunction")
    assert timing in ("step-end", "steps(1)"), "it stays still, then goes"
    expect(flash).not_to_have_class(SHOWN)
    assert not lit(line)


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_the_settled_hand_comes_into_view(
    live_server: LiveServer, request: pytest.FixtureRequest, javascript: bool
) -> None:
    page: Page = request.getfixturevalue("phone" if javascript else "phone_no_js")
    page.set_viewport_size(PORTRAIT)
    # Three players, hand 1 up to Ann's last tile: she dominoes with 5-0.
    page.goto(import_game(page, live_server.url, record("hand_seven_five_two_hands", 1, 1)))
    table = TablePage(page)
    table.play("5-0")
    # The hand is over: its heading and the first player's field come into view by themselves.
    settle_in_view(page)
    expect_in_view(page, page.locator("#hand-over h2"))
    expect_in_view(page, page.locator("form.settle-form input:not([type=hidden])").first)

    table.settle({1: "12", 2: "4-3"}, events=2)  # the settlement begins hand 2, led by Ann

    settle_in_view(page)
    settlement = page.locator("[data-settlement]")
    expect(settlement).to_contain_text("Hand 1 settled")
    expect_in_view(page, settlement)
    if javascript:
        expect(page.locator("[data-last-score]")).to_have_text("-10 Bob, -5 Cy")
        expect(page.locator("#score-news")).to_have_text("Hand 1 settled: -10 Bob, -5 Cy")


def test_the_winner_comes_into_view_and_rematch_starts_the_new_game(
    live_server: LiveServer, phone: Page
) -> None:
    phone.set_viewport_size(PORTRAIT)
    url = import_game(phone, live_server.url, record("hand_partners_collect_wins", drop_last=1))
    phone.goto(url)
    table = TablePage(phone)
    table.pass_turn()  # Dee passes: blocked
    table.settle(PARTNERS_HELD)

    settle_in_view(phone)
    banner = phone.locator(".winner-banner")
    expect(banner.get_by_role("heading", name="Bob & Dee win!")).to_be_visible()
    for part in ("h2", ".final-scores", '[data-action="rematch"]'):
        expect_in_view(phone, banner.locator(part))
    expect(phone.locator('[data-final-score="Bob & Dee"]')).to_have_text("30")
    expect(phone.locator("[data-final-hand]")).to_have_count(1)
    expect(phone.locator("[data-last-score]")).to_have_text("+15 Bob & Dee")
    font = banner.locator(".final-score").first.evaluate("e => getComputedStyle(e).fontSize")
    assert float(font.removesuffix("px")) >= 32, "the final scores are large"

    table.tap(banner.locator('[data-action="rematch"]'))

    phone.wait_for_url(lambda now: GAME_URL.search(now) is not None and now.split("?")[0] != url)
    assert phone.url.endswith("?lead=draw"), "fives-up draws for the first lead"
    expect(phone.locator("#table")).to_have_attribute("data-phase", "lead")
    expect(phone.locator(".notice")).to_contain_text("Rematch: Ann, Bob, Cy and Dee")
    expect(phone.locator("details.draw-for-lead")).to_have_attribute("open", "")
    for side in ("Ann & Cy", "Bob & Dee"):
        expect(phone.locator(f'[data-side-score="{side}"]')).to_have_text("0")
    seats = phone.locator("[data-seat]").evaluate_all("s => s.map(e => e.dataset.seat)")
    assert seats == ["0", "2", "1", "3"], "the same seats, partners in the same sides"


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_the_winners_flash_hides_nothing(
    live_server: LiveServer, request: pytest.FixtureRequest, javascript: bool
) -> None:
    """The entry that wins: what it scored shows on the winner's page without covering the
    status line's target ("to 20"), and stays where it is."""
    page: Page = request.getfixturevalue("phone" if javascript else "phone_no_js")
    page.set_viewport_size(PORTRAIT)
    page.goto(import_game(page, live_server.url, record("hand_partners_collect_wins", drop_last=1)))
    table = TablePage(page)
    table.pass_turn()  # Dee passes: blocked
    table.settle(PARTNERS_HELD)

    flash = page.locator("[data-last-score]")
    expect(flash).to_have_text("+15 Bob & Dee")
    expect(flash).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    target, shown = box(page.locator(".status .target")), box(flash)
    apart = (
        shown["y"] >= target["y"] + target["height"]
        or target["y"] >= shown["y"] + shown["height"]
        or shown["x"] >= target["x"] + target["width"]
        or target["x"] >= shown["x"] + shown["width"]
    )
    assert apart, f"the flash {shown} lies over the target {target}"
    # It stays as it is: no animation runs on it to hide it or fade it later.
    assert flash.evaluate("e => e.getAnimations().length") == 0


def test_a_phone_following_the_game_sees_the_flash_and_the_settlement(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    second_phone.set_viewport_size(PORTRAIT)
    phone.goto(import_game(phone, live_server.url, record("hand_seven_five_two_hands", 1, 1)))
    table = TablePage(phone)
    second_phone.goto(phone.locator("#watch-link").input_value())
    watcher = TablePage(second_phone)
    second_phone.locator(".game-links").scroll_into_view_if_needed()  # read lower down

    table.play("5-0")

    watcher.entered()
    flash = second_phone.locator("[data-last-score]")
    expect(flash).to_have_text("+10 Ann")
    # The hand's screen came into view, its count line lit in the flash's place.
    line = second_phone.locator(".count-line")
    expect_in_view(second_phone, line)
    assert lit(line)
    expect(second_phone.locator("#score-news")).to_have_text("Ann's 5-0 on E: +10 Ann")
    expect(second_phone.locator('[data-action="rematch"]')).to_have_count(0)

    table.settle({1: "12", 2: "4-3"}, events=2)

    watcher.entered(2)
    expect(second_phone.locator("[data-last-score]")).to_have_text("-10 Bob, -5 Cy")
    expect_in_view(second_phone, second_phone.locator("[data-settlement]"))
