"""A practice-mode hand played through the phone screens (house rule practice, docs/rules.md
8e): after each play the count is hidden (no count line, the score not yet changed, the flash
saying only that it is hidden) until one tap on the row of guesses shows it with right or
wrong; a play not guessed is shown by the next entry. The corpus hand
``hand_practice_guesses``, upright and on its side, with and without JavaScript; every tap is
on a control already on the screen. Without the house rule the same plays need no tap more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Event, Guess, Play
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.record import load_record
from tests.browser.browsing import GameEntry, TablePage, start_game
from tests.browser.checks import axe_violations, explain
from tests.support.chromium import LANDSCAPE, PORTRAIT
from tests.support.server import LiveServer

DATA = Path(__file__).resolve().parents[1] / "data"
HAND = DATA / "hand_practice_guesses.json"
SCREENS = {
    "upright": PORTRAIT,
    "on its side": LANDSCAPE,
    "upright without JavaScript": {**PORTRAIT, "java_script_enabled": False},
    "on its side without JavaScript": {**LANDSCAPE, "java_script_enabled": False},
}


class OnScreen(TablePage):
    """A table whose every tap is on a control the phone shows without scrolling."""

    def tap(self, target: Locator) -> None:
        expect(target).to_be_in_viewport()
        super().tap(target)


class Guessing(GameEntry):
    """Enters a hand with its guesses: a guess is one tap on the row under the layout."""

    def enter(self, event: Event) -> None:
        if not isinstance(event, Guess):
            super().enter(event)
            return
        table, page = self.table, self.table.page
        row = page.locator(".guess-row")
        expect(row).to_have_attribute("data-guess-for", self.shadow.players[event.player])
        table.tap(page.locator(f'button[data-guess="{event.points}"]'))
        table.entered()
        self.shadow.push(event)
        hand = self.shadow.hand
        assert hand is not None
        scored = hand.plays[-1]
        right = "yes" if event.points == play_points(scored.count) else "no"
        expect(page.locator("[data-guess-right]")).to_have_attribute("data-guess-right", right)
        expect(page.locator("[data-count-line]")).to_contain_text(f"= {scored.count}")
        expect(page.locator("[data-count]")).to_have_attribute("data-count", str(scored.count))
        table.expect_scores(self.shadow.sides, self.shadow.scores)


def expect_hidden(page: Page, entry: GameEntry, before: list[int]) -> None:
    """The count of the play just entered is nowhere on the screen: no count line, a "?" for
    the count, the scores as before it, the flash saying only that it is hidden."""
    expect(page.locator(".guess-row")).to_be_visible()
    expect(page.locator("[data-count-line]")).to_have_count(0)
    expect(page.locator("[data-count]")).to_have_attribute("data-count", "")
    expect(page.locator("[data-last-score]")).to_have_attribute("data-last-score", "count hidden")
    entry.table.expect_scores(entry.shadow.sides, before)


@pytest.mark.parametrize("screen", SCREENS)
def test_a_practice_hand_on_the_phone(live_server: LiveServer, page_with: Any, screen: str) -> None:
    page = page_with(**SCREENS[screen])
    game = load_record(HAND.read_text("utf-8"))
    expected = json.loads(HAND.with_name("hand_practice_guesses.expected.json").read_text("utf-8"))
    rules = {"deal": "five-each", "practice": "yes"}
    start_game(page, live_server.url, ["Ann", "Bob"], rules=rules)
    entry = Guessing(OnScreen(page), game.setup)
    for event in game.events:
        before = list(entry.shadow.scores)
        entry.enter(event)
        if isinstance(event, Play):
            expect_hidden(page, entry, before)
    entry.table.expect_scores(["Ann", "Bob"], list(expected["scores"].values()))
    assert entry.shadow.scores == [15, 0]
    # The sheet keeps each player's counts guessed right: Ann 1 of 5, Bob 2 of 4.
    page.goto(page.url.split("?")[0] + "/sheet")
    expect(page.locator('[data-guessed="Ann"]')).to_have_text("Ann 1 of 5")
    expect(page.locator('[data-guessed="Bob"]')).to_have_text("Bob 2 of 4")


def test_without_practice_mode_a_play_is_one_tap_and_shows_its_count(
    live_server: LiveServer, page_with: Any
) -> None:
    """The same lead without the house rule: the tap shows the count at once, no row."""
    page = page_with(**PORTRAIT)
    start_game(page, live_server.url, ["Ann", "Bob"], rules={"deal": "five-each"})
    table = OnScreen(page)
    table.choose_leader(0)
    table.play("6-6")
    expect(page.locator(".guess-row")).to_have_count(0)
    expect(page.locator("[data-count]")).to_have_attribute("data-count", "12")
    expect(page.locator("[data-count-line]")).to_contain_text("= 12")


def test_the_row_of_guesses_is_accessible(live_server: LiveServer, page_with: Any) -> None:
    """axe-core finds nothing of moderate impact or worse on a table with a hidden count, in
    light and in dark mode, nor once it is guessed."""
    page = page_with(**PORTRAIT)
    start_game(page, live_server.url, ["Ann", "Bob"], rules={"practice": "yes"})
    table = OnScreen(page)
    table.choose_leader(0)
    table.play("6-4")
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        violations = axe_violations(page)
        if violations:
            found.append(f"hidden, {scheme}:\n{explain(violations)}")
    table.tap(page.locator('button[data-guess="10"]'))
    table.entered()
    expect(page.locator("[data-guess-right]")).to_have_attribute("data-guess-right", "yes")
    violations = axe_violations(page)
    if violations:
        found.append(f"guessed:\n{explain(violations)}")
    assert not found, "\n".join(found)
