"""House rule muggins and adjustments on a phone (360x720): a right call costs no extra tap
over a whole hand; a call short of the count, and the opponent's claim from a second phone;
an adjustment with its reason; every screen clean under axe."""

from __future__ import annotations

import random
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Game, Play, Setup
from scorekeeper.rules.simulate import play_hand
from tests.browser.browsing import GameEntry, TablePage, start_game
from tests.browser.checks import axe_violations, explain
from tests.browser.test_whole_games import InViewTable, outside_screen
from tests.support.chromium import PORTRAIT
from tests.support.server import LiveServer

MUGGINS = {"muggins": "yes"}


class CountedTaps(InViewTable):
    """A table page whose every tap lands in view, and is counted."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.taps = 0

    def tap(self, target: Locator) -> None:
        self.taps += 1
        super().tap(target)


def _hand(rules: dict[str, str]) -> tuple[Setup, Game]:
    setup = Setup.create(["Ann", "Bob"], "all-fives", rules)
    game = Game(setup)
    play_hand(game, random.Random(7))
    return setup, game


def _taps_for_a_hand(page: Page, base: str, rules: dict[str, str]) -> tuple[int, Game]:
    setup, game = _hand(rules)
    start_game(page, base, ["Ann", "Bob"], rules=rules)
    table = CountedTaps(page)
    entry = GameEntry(table, setup)
    scoring = 0
    muggins = rules.get("muggins") == "yes"
    for event in game.events:
        entry.enter(event)
        hand = entry.shadow.hand
        last = hand.plays[-1] if hand is not None and hand.plays else None
        scores = last is not None and last.count > 0 and last.count % 5 == 0
        if muggins and isinstance(event, Play) and scores:
            assert last is not None
            scoring += 1
            # The right call is already pressed, in view, beside the tray.
            pressed = page.locator('.call-strip button[aria-pressed="true"]')
            expect(pressed).to_have_attribute("data-called", str(last.count))
            assert not outside_screen(pressed), outside_screen(pressed)
    table.expect_scores(game.sides, game.scores)
    if muggins:
        assert scoring, "the hand should have scoring plays"
    return table.taps, game


def test_a_right_call_costs_no_extra_tap_over_a_whole_hand(
    live_server: LiveServer, watched_page: Callable[..., Page]
) -> None:
    plain, game = _taps_for_a_hand(watched_page(PORTRAIT), live_server.url, {})
    called, again = _taps_for_a_hand(watched_page(PORTRAIT), live_server.url, MUGGINS)
    assert again.scores == game.scores
    assert called == plain


def test_a_call_short_and_the_claim_from_a_second_phone(
    live_server: LiveServer, watched_page: Callable[..., Page]
) -> None:
    first = watched_page(PORTRAIT)
    table = start_game(first, live_server.url, ["Ann", "Bob"], rules=MUGGINS)
    table.choose_leader(0)
    table.play("5-5")
    second = watched_page(PORTRAIT)
    second.goto(first.url)
    other = InViewTable(second)

    # Ann called 5 on a count of 10: one tap, nothing scored, and Muggins! is offered.
    short = first.locator('.call-strip button[data-called="5"]')
    table.tap(short)
    expect(first.locator(".call-strip")).to_have_attribute("data-call", "5")
    table.expect_scores(["Ann", "Bob"], [0, 0])

    claim = second.locator('button[data-muggins="Bob"]')
    expect(claim).to_be_visible()
    expect(claim).to_contain_text("Muggins! Bob +10")
    violations = axe_violations(second)
    assert not violations, explain(violations)
    other.seq = int(other.table.get_attribute("data-seq") or "")
    other.tap(claim)
    other.entered()
    other.expect_scores(["Ann", "Bob"], [0, 10])
    expect(second.locator(".call-news")).to_contain_text(
        "Ann called 5, the count was 10: Bob's Muggins! +10"
    )
    # The first phone follows, and its button is gone.
    expect(first.locator('[data-side-score="Bob"]')).to_have_text("10")
    expect(first.locator("button[data-muggins]")).to_have_count(0)


def test_an_adjustment_with_a_reason(
    live_server: LiveServer, watched_page: Callable[..., Page]
) -> None:
    page = watched_page(PORTRAIT)
    table = start_game(page, live_server.url, ["Ann", "Bob"])
    table.choose_leader(0)
    table.play("5-5")
    link = page.locator("[data-adjust-link]")
    assert not outside_screen(link), outside_screen(link)
    TablePage.tap(table, link)
    expect(page.locator("h1")).to_have_text("Adjust the score")
    violations = axe_violations(page)
    assert not violations, explain(violations)
    page.get_by_label("Bob", exact=True).check()
    page.get_by_label("Take points off").check()
    page.get_by_label("Points", exact=True).fill("10")
    page.get_by_label("Reason").fill("drew while able to play")
    page.locator('[data-action="adjust"]').click()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator('[data-side-score="Bob"]')).to_have_text("-10")
    expect(page.locator(".notice")).to_contain_text("Adjusted: Bob -10 (drew while able to play).")
    violations = axe_violations(page)
    assert not violations, explain(violations)
