"""A double-twelve hand at a table of six, on a phone upright (360x720) and on its side
(740x360), tile by tile (issue 24): 91 tiles do not fit a tray, so each tile is its end (or
before the lead, a number) first, then the tile among the few carrying that number. At most
two taps a tile, every tap on a control already in view, the page never scrolled, and the next
entry's controls on the screen after every entry, through to the settlement; once without
JavaScript; axe finds nothing serious on the play screen."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Game, Play, Setup, tile
from scorekeeper.rules.events import NewHand
from scorekeeper.rules.simulate import play_hand
from tests.browser.browsing import GameEntry, TablePage, has_htmx, seed_game
from tests.browser.checks import axe_violations, explain
from tests.browser.test_whole_games import (
    InViewTable,
    next_entry_away,
    outside_and_scrolled,
    outside_screen,
)
from tests.support.chromium import LANDSCAPE, PORTRAIT, open_and_settle
from tests.support.server import LiveServer
from tests.web.webtable import without_times

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
TWELVE = {"set": "double-twelve"}
SEED = 1
"""A hand of six with draws, tiles fitting two ends, a spinner's four arms and a domino."""


class CountedTable(InViewTable):
    """A table page whose every tap lands on a control already in view, counted. Without
    JavaScript a tap loads a new page, which opens at its top: nothing to compare after it."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.taps = 0

    def tap(self, target: Locator) -> None:
        self.taps += 1
        if self.scripted:
            super().tap(target)
            return
        expect(target).to_be_visible()
        away, _ = outside_and_scrolled(target)
        assert not away, f"{self.page.url}: {away}"
        TablePage.tap(self, target)


class NumberFirstEntry(GameEntry):
    """Enters a larger set's plays as a scorekeeper does: the end first (in the tray, or every
    third play on its marker in the picture, where JavaScript lays the markers' buttons), then
    the tile; a lead by one of its numbers, then the tile. Each tile's taps are counted."""

    def __init__(self, table: CountedTable, setup: Setup, picture: bool = True) -> None:
        super().__init__(table, setup)
        self.counted = table
        self.picture = picture
        self.taps: list[int] = []
        self.in_picture = 0

    def _play(self, play: Play) -> None:
        hand = self.shadow.hand
        assert hand is not None
        table, page = self.counted, self.counted.page
        before = table.taps
        if not hand.plays:
            self.mirrored = play.flipped
            if not hand.double_lead:
                number = page.locator(f'.pick-numbers button[data-number="{play.tile.high}"]')
                table.tap(number)
                expect(number).to_have_attribute("aria-pressed", "true")
        else:
            end = play.end or self.shadow.fits(play.tile)[0]
            shown = self.mirror(end)
            button = page.locator(f'.pick-ends button[data-end="{shown}"]')
            marker = table.end_in_picture(shown)
            # A marker too close to another is no button (static/js/picture.js); one at the
            # screen's edge is tapped in the tray instead.
            if (
                self.picture
                and len(hand.plays) % 3 == 0
                and marker.is_visible()
                and not outside_screen(marker)
            ):
                table.tap(marker)
                self.in_picture += 1
            else:
                table.tap(button)
            expect(button).to_have_attribute("aria-pressed", "true")
        table.tap(table.tile(play.tile))
        table.entered()
        self.taps.append(table.taps - before)


def six_at_a_table(seed: int = SEED) -> tuple[Setup, Game]:
    setup = Setup.create(NAMES, "all-fives", TWELVE)
    game = Game(setup)
    play_hand(game, random.Random(seed))
    return setup, game


def check_next_entry_in_view(table: CountedTable) -> None:
    """The page where the phone left it and the next entry's controls on the screen."""
    phase, scrolled, away = next_entry_away(table.page, settle=table.scripted)
    assert scrolled == 0, f"the page moved by itself at entry {table.seq}"
    assert not away, f"{phase} at entry {table.seq}: {away}"


def play_the_hand(entry: NumberFirstEntry, game: Game) -> None:
    """Enter the hand from its lead tile on (its leader is stored with the game: choosing
    among six players is the lead screen's business, not the tray's)."""
    entry.shadow.push(game.events[0])
    for event in game.events[1:]:
        entry.enter(event)
        check_next_entry_in_view(entry.counted)


@pytest.mark.parametrize("screen", SCREENS)
def test_a_double_twelve_hand_of_six_two_taps_a_tile_all_in_view(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    setup, game = six_at_a_table()
    hand = game.hands[-1]
    assert hand.result == "domino" and len(hand.plays) > 40
    assert any(len(p.tile.__str__()) == 5 for p in hand.plays)  # a 12-10 or so among them
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, game.events[:1]))
    table = CountedTable(page)
    entry = NumberFirstEntry(table, setup)
    check_next_entry_in_view(table)

    play_the_hand(entry, game)

    assert entry.taps and max(entry.taps) <= 2, entry.taps
    assert len(entry.taps) == len(hand.plays)
    assert entry.in_picture >= 3
    table.expect_scores(game.sides, game.scores)
    expect(page.locator("[data-settlement]")).to_be_visible()


def test_a_double_twelve_hand_without_javascript(live_server: LiveServer, page_with: Any) -> None:
    page = page_with(**PORTRAIT, java_script_enabled=False)
    setup, game = six_at_a_table()
    page.goto(seed_game(live_server, setup, game.events[:1]))
    assert not has_htmx(page)
    table = CountedTable(page)
    entry = NumberFirstEntry(table, setup, picture=False)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)

    play_the_hand(entry, game)

    assert max(entry.taps) <= 2
    table.expect_scores(game.sides, game.scores)
    assert len(posts) > len(game.events)


def test_a_stale_pages_tile_is_refused(live_server: LiveServer, phone: Page) -> None:
    """An end chosen on a page another phone has overtaken: its tile is refused as stale,
    nothing is entered, and the table as it is now is shown."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", TWELVE)
    events = [NewHand(0), Play(0, tile(11, 7))]
    url = seed_game(live_server, setup, events)
    open_and_settle(phone, url)
    table = TablePage(phone)
    other = phone.context.new_page()
    open_and_settle(other, url)
    end = phone.locator('.pick-ends button[data-end="E"]')
    table.tap(end)
    expect(end).to_have_attribute("aria-pressed", "true")
    # Another phone enters Bob's draw; this page does not hear of it in time (its live
    # updates are held up): it is out of date, and its tile is refused as stale.
    phone.route("**/live**", lambda route: route.abort())
    TablePage(other).tap(other.locator('[data-action="draw"]'))
    expect(other.locator("#table")).to_have_attribute("data-seq", "3")
    table.tap(table.tile("7-3"))
    expect(phone.locator(".notice-stale")).to_be_visible()
    expect(phone.locator("#table")).to_have_attribute("data-seq", "3")


def test_a_live_update_keeps_the_end_chosen(live_server: LiveServer, phone: Page) -> None:
    setup = Setup.create(["Ann", "Bob", "Cy"], "all-fives", TWELVE)
    url = seed_game(live_server, setup, [NewHand(0), Play(0, tile(11, 7))])
    open_and_settle(phone, url)
    other = phone.context.new_page()
    open_and_settle(other, url)
    table = TablePage(phone)
    end = phone.locator('.pick-ends button[data-end="W"]')
    table.tap(end)
    expect(end).to_have_attribute("aria-pressed", "true")
    TablePage(other).tap(other.locator('[data-action="draw"]'))
    # The new table comes in by itself; the end is still chosen, its tiles still shown.
    expect(phone.locator("#table")).to_have_attribute("data-seq", "3")
    expect(end).to_have_attribute("aria-pressed", "true")
    expect(phone.locator('.pick-tile button[data-tile="11-0"]')).to_be_visible()


def test_the_keyboard_types_the_end_then_the_other_number(
    live_server: LiveServer, desktop: Page
) -> None:
    setup = Setup.create(["Ann", "Bob", "Cy"], "all-fives", TWELVE)
    url = seed_game(live_server, setup, [NewHand(0)])
    open_and_settle(desktop, url)
    table = TablePage(desktop)
    keys = desktop.keyboard
    # The lead: a number, then the other one ("1" waits for a second digit: 11, then 7).
    keys.press("1")
    keys.press("1")
    expect(desktop.locator('.pick-numbers [data-number="11"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    keys.press("7")
    table.entered()
    expect(desktop.locator('.pick-ends [data-end="E"]')).to_have_attribute("data-shows", "7")
    # An end by its letter, then the other half: 7-3 on E.
    keys.press("e")
    expect(desktop.locator('.pick-ends [data-end="E"]')).to_have_attribute("aria-pressed", "true")
    keys.press("3")
    table.entered()
    # A lone "1" is a one once the second has passed without another digit: 11-1 on W.
    keys.press("w")
    expect(desktop.locator('.pick-ends [data-end="W"]')).to_have_attribute("aria-pressed", "true")
    keys.press("1")
    table.entered()
    record = without_times(json.loads(desktop.request.get(url + "/record.json").text()))
    assert record["hands"][0]["events"] == [
        {"player": "Ann", "play": "11-7"},
        {"player": "Bob", "play": "7-3", "end": "E"},
        {"player": "Cy", "play": "11-1", "end": "W"},
    ]


@pytest.mark.parametrize("screen", SCREENS)
def test_axe_finds_nothing_serious_on_the_larger_sets_screens(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    setup, game = six_at_a_table()
    page = page_with(**SCREENS[screen])
    settle = len(game.events) - 1
    found = []

    def look(state: str) -> None:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            violations = axe_violations(page)
            if violations:
                found.append(f"{state}, {scheme}:\n{explain(violations)}")
        page.emulate_media(color_scheme="light")

    open_and_settle(page, seed_game(live_server, setup, game.events[:1]))
    look("the lead's numbers")
    number = page.locator('.pick-numbers button[data-number="12"]')
    TablePage(page).tap(number)
    expect(number).to_have_attribute("aria-pressed", "true")
    look("the tiles with a 12")
    open_and_settle(page, seed_game(live_server, setup, game.events[:30]))
    look("mid-hand, the open ends")
    end = page.locator(".pick-ends button[data-end]").first
    TablePage(page).tap(end)
    expect(end).to_have_attribute("aria-pressed", "true")
    look("mid-hand, an end chosen")
    open_and_settle(page, seed_game(live_server, setup, game.events[:settle]))
    page.locator("[data-held-tray] > summary").first.click()
    page.locator("[data-held-tray] label.held-number-label").first.click()
    look("the settlement, a tray open")
    assert not found, "\n".join(found)
