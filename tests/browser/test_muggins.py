"""House rule muggins and adjustments on a phone (360x720): a right call costs no extra tap
over a whole hand; a call short of the count, and the opponent's claim from a second phone;
an adjustment with its reason; every screen clean under axe."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Adjust, Claim, Event, Game, Play, Setup
from scorekeeper.rules.simulate import play_game, play_hand
from tests.browser.browsing import GameEntry, TablePage, seed_game, start_game
from tests.browser.checks import axe_violations, explain
from tests.browser.test_whole_games import InViewTable, outside_screen
from tests.support.chromium import LANDSCAPE, PORTRAIT
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


@pytest.mark.parametrize("screen", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_a_call_short_and_the_claim_from_a_second_phone(
    live_server: LiveServer, watched_page: Callable[..., Page], screen: dict[str, object]
) -> None:
    first = watched_page(screen)
    table = start_game(first, live_server.url, ["Ann", "Bob"], rules=MUGGINS)
    table.choose_leader(0)
    table.play("5-5")
    second = watched_page(screen)
    second.goto(first.url)
    other = InViewTable(second)

    # Ann called 5 on a count of 10: one tap, nothing scored, and Muggins! is offered.
    short = first.locator('.call-strip button[data-called="5"]')
    assert not outside_screen(short), outside_screen(short)
    table.tap(short)
    expect(first.locator(".call-strip")).to_have_attribute("data-call", "5")
    table.expect_scores(["Ann", "Bob"], [0, 0])
    # What the play scored is read out again: nothing, not the +10 it was entered with.
    expect(first.locator("#score-news")).to_have_text("Ann's lead 5-5, called 5 of 10: no score")

    claim = second.locator('button[data-muggins="Bob"]')
    expect(claim).to_be_visible()
    # The tray and Draw/Undo stay on the screen beside the call and the claim.
    for part in ("#table .picker", "#table .actions", "button[data-muggins]"):
        assert not outside_screen(second.locator(part)), (
            part,
            outside_screen(second.locator(part)),
        )
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


@pytest.mark.parametrize("screen", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_an_adjustment_with_a_reason(
    live_server: LiveServer, watched_page: Callable[..., Page], screen: dict[str, object]
) -> None:
    page = watched_page(screen)
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


class MugginsEntry(GameEntry):
    """Enters a game with calls, claims and adjustments as a scorekeeper does: a play by its
    tile (called right), then one tap on the call when it was short; a claim on its side's
    Muggins! button; an adjustment through ± Adjust and its form."""

    def enter(self, event: Event) -> None:
        table, shadow = self.table, self.shadow
        page = table.page
        if isinstance(event, Play) and event.called is not None:
            super().enter(replace(event, called=None))
            shadow.pop()
            shadow.push(event)
            table.tap(page.locator(f'.call-strip button[data-called="{event.called}"]'))
            expect(page.locator(".call-strip")).to_have_attribute("data-call", str(event.called))
        elif isinstance(event, Claim):
            side = shadow.sides[shadow.side_of(event.player)]
            table.tap(page.locator(f'button[data-muggins="{side}"]'))
            table.entered()
            shadow.push(event)
        elif isinstance(event, Adjust):
            TablePage.tap(table, page.locator("[data-adjust-link]"))  # a page of its own
            side = shadow.sides[shadow.side_of(event.player)]
            page.get_by_label(side, exact=True).check()
            way = "Add points" if event.points > 0 else "Take points off"
            page.get_by_label(way).check()
            page.get_by_label("Points", exact=True).fill(str(abs(event.points)))
            page.get_by_label("Reason").fill(event.reason)
            page.locator('[data-action="adjust"]').click()
            table.entered()
            shadow.push(event)
        else:
            super().enter(event)
            return
        table.expect_scores(shadow.sides, shadow.scores)


def _with_calls_and_corrections(setup: Setup, seed: int) -> Game:
    """A simulated game of ``setup`` played again with muggins: some counts called short (and
    claimed, or lost), and now and then an adjustment during a hand; until the simulated
    events run out or a side wins."""
    played = play_game(setup, random.Random(seed))
    rng = random.Random(seed + 1)
    game = Game(setup)
    for event in played.events:
        if game.winner is not None:
            break
        hand = game.hand
        if isinstance(event, Play) and hand is not None and hand.plays and rng.random() < 0.05:
            points = rng.choice([5, 10, -5, -10])
            game.push(Adjust(event.player, points, rng.choice(REASONS)))
            if game.winner is not None:
                break
        if not isinstance(event, Play):
            game.push(event)
            continue
        trial = game.fork()
        trial.push(event)
        count = trial.hands[-1].plays[-1].count
        if count > 0 and count % 5 == 0 and rng.random() < 0.35:
            game.push(replace(event, called=count - 5))
            if rng.random() < 0.6:
                game.push(Claim(1 - event.player))
        else:
            game.push(event)
    return game


REASONS = ("drew while able to play", "misdeal: Bob was dealt eight tiles", "agreed by hand")


def test_a_whole_game_with_calls_claims_and_adjustments(
    live_server: LiveServer, watched_page: Callable[..., Page]
) -> None:
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"muggins": "yes", "target": 100})
    game = _with_calls_and_corrections(setup, 5)
    kinds = {type(event).__name__ for event in game.events}
    assert {"Claim", "Adjust", "Settle"} <= kinds, kinds
    assert any(isinstance(e, Play) and e.called is not None for e in game.events)
    page = watched_page(PORTRAIT)
    page.goto(seed_game(live_server, setup))
    table = InViewTable(page)
    entry = MugginsEntry(table, setup)
    entry.enter_all(game.events)
    table.expect_scores(game.sides, game.scores)
    if game.winner is not None:
        rematch = page.locator('[data-action="rematch"]')
        assert not outside_screen(rematch)
    violations = axe_violations(page)
    assert not violations, explain(violations)
