"""Whole games at a table of two scorekeeping phones (issue 21): every entry of every hand, its
settlement, the next lead and the rematch, upright (360x720) and on its side (740x360).

After every entry, on both phones, whichever entered it: the controls of the next entry (the
tray with Draw / Pass / Undo, the whole settlement form with its button, the lead's buttons,
the rematch) lie inside the screen, and the page is where the phone left it. Each tap lands
on a control that is already in view: the test never scrolls to it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Game, Settle, Setup
from scorekeeper.rules.simulate import play_game, play_hand
from tests.browser.browsing import GameEntry, TablePage, seed_game, wait_for_seq
from tests.support.chromium import LANDSCAPE, PORTRAIT, open_and_settle
from tests.support.server import LiveServer

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}

GAMES = {
    # Hand 1 is blocked (the table chooses who leads hand 2), hands 2 and 3 end in a domino
    # (whoever dominoed leads the next hand at once), and the partners reach 60.
    "partners": (["Ann", "Bob", "Cy", "Di"], 53),
    # A domino, a blocked hand, a domino.
    "two": (["Ann", "Bob"], 62),
}

NEXT_CONTROLS = {
    "lead": ".lead",
    "play": "#table .picker, #table .actions",
    "settle": "#hand-over form",
    "over": '[data-action="rematch"], [data-rematch]',
}
"""What the next entry needs in each phase of the table."""

SETTLED = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"""

BOXES = """(all) => [all.map(el => {
    const box = el.getBoundingClientRect();
    return [el.className || el.tagName, box.top, box.bottom, box.left, box.right];
}), innerWidth, innerHeight, scrollY]"""
"""The box of each element, the screen's size and how far the page is scrolled, in one look."""

LOOK = """async ([controls, settle]) => {
    // Without JavaScript no animation frame ever comes: the page as it was loaded is looked at.
    if (settle) await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const table = document.getElementById("table");
    const phase = (table && table.dataset.phase) || "";
    const boxes = phase in controls ? [...document.querySelectorAll(controls[phase])].map(el => {
        const box = el.getBoundingClientRect();
        return [el.className || el.tagName, box.top, box.bottom, box.left, box.right];
    }) : [];
    return {phase, scrollY, boxes, width: innerWidth, height: innerHeight};
}"""
"""The table's phase, how far the page is scrolled, and the boxes of the next entry's controls
(``NEXT_CONTROLS``), once the page has settled: one round trip to the browser instead of five,
after every entry on every phone."""

SCROLL_SETTLED = """() => new Promise(done => requestAnimationFrame(
    () => requestAnimationFrame(() => done(scrollY))))"""
"""How far the page is scrolled once it has settled (two animation frames on)."""

Box = tuple[str, float, float, float, float]


def _outside(boxes: list[Box], width: int, height: int) -> list[str]:
    return [
        f"{name} at y {top:.0f}..{bottom:.0f}, x {left:.0f}..{right:.0f} of {width}x{height}"
        for name, top, bottom, left, right in boxes
        if top < -0.5 or left < -0.5 or bottom > height + 0.5 or right > width + 0.5
    ]


def outside_and_scrolled(targets: Locator) -> tuple[list[str], float]:
    """Each of ``targets`` that is not wholly inside the screen, with where it is, and how far
    the page is scrolled."""
    boxes, width, height, scrolled = targets.evaluate_all(BOXES)
    assert boxes, f"nothing matches {targets}"
    return _outside(boxes, width, height), scrolled


def outside_screen(targets: Locator) -> list[str]:
    """Each of ``targets`` that is not wholly inside the screen, with where it is."""
    return outside_and_scrolled(targets)[0]


def next_entry_away(page: Page, settle: bool = True) -> tuple[str, float, list[str]]:
    """The table's phase, how far the page is scrolled, and each control of the next entry
    (``NEXT_CONTROLS``) that is not wholly inside the screen; ``settle``: after two animation
    frames (a page without JavaScript has none)."""
    seen = page.evaluate(LOOK, [NEXT_CONTROLS, settle])
    phase = seen["phase"]
    assert seen["boxes"], f"nothing matches {NEXT_CONTROLS.get(phase)} in phase {phase!r}"
    return phase, seen["scrollY"], _outside(seen["boxes"], seen["width"], seen["height"])


class InViewTable(TablePage):
    """A table page whose every tap must land on a control already inside the screen and must
    leave the page where it was."""

    def tap(self, target: Locator) -> None:
        expect(target).to_be_visible()
        away, before = outside_and_scrolled(target)
        assert not away, f"{self.page.url}: {away}"
        super().tap(target)
        moved = self.page.evaluate(SCROLL_SETTLED) - before
        assert not moved, f"tapping {target} moved the page {moved} px at entry {self.seq}"


class Table:
    """Two scorekeeping phones on one game, taking turns to enter its events."""

    def __init__(self, pages: list[Page], setup: Setup) -> None:
        self.phones = [InViewTable(page) for page in pages]
        self.entry = GameEntry(self.phones[0], setup)

    def check(self) -> None:
        """Each phone shows the game as it is now, the page where it was, and the next entry's
        controls inside the screen."""
        seq = max(phone.seq for phone in self.phones)
        for phone in self.phones:
            phone.seq = seq
            wait_for_seq(phone.page, seq, phone.scripted)
            phase, scrolled, away = next_entry_away(phone.page)
            assert scrolled == 0, f"the page moved by itself at entry {seq}"
            assert not away, f"{phase} at entry {seq}: {away}"

    def play_out(self, game: Game) -> None:
        for number, event in enumerate(game.events):
            self.entry.table = self.phones[number % 2]
            self.entry.table.seq = max(phone.seq for phone in self.phones)
            self.entry.enter(event)
            self.check()


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("table", GAMES)
def test_a_whole_game_never_scrolls_from_the_first_lead_to_the_rematch(
    live_server: LiveServer, page_with: Any, screen: str, table: str
) -> None:
    players, seed = GAMES[table]
    setup = Setup.create(players, "all-fives", {"target": 60})
    game = play_game(setup, random.Random(seed))
    assert game.winner is not None
    url = seed_game(live_server, setup)
    pages = [page_with(**SCREENS[screen]) for _ in range(2)]
    for page in pages:
        open_and_settle(page, url)
    phones = Table(pages, setup)
    phones.check()

    phones.play_out(game)

    first, second = phones.phones
    rematch = first.page.locator('[data-action="rematch"]')
    assert not outside_screen(rematch)
    TablePage.tap(first, rematch)  # a new page opens: no scroll position to compare
    first.page.wait_for_url(lambda now: now.split("?")[0] != url)
    # The other phone goes on to the rematch by itself.
    second.page.wait_for_url(first.page.url.split("?")[0])
    # The rematch's leader is drawn by lot: both phones are on its first lead, in view.
    for page in pages:
        expect(page.locator("#table")).to_have_attribute("data-phase", "play")
        assert not outside_screen(page.locator(NEXT_CONTROLS["play"]))
        assert page.evaluate("scrollY") == 0


@pytest.mark.parametrize("screen", SCREENS)
def test_four_players_each_on_their_own_settle_on_one_screen(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    """Four sides on the scoreboard and four players' entries, the most a hand's end asks: the
    whole form, its button and Undo in view."""
    setup = Setup.create(["Ann", "Bob", "Cy", "Dee"], "all-fives", partners=False)
    for seed in range(100):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        if game.hand is not None and game.hand.result == "blocked":
            break
    else:
        raise AssertionError("no simulated hand is blocked")
    settle = next(i for i, e in enumerate(game.events) if isinstance(e, Settle))
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, game.events[:settle]))
    expect(page.locator("[data-held-entry]")).to_have_count(4)
    for part in ("#hand-over form", "#table .actions", "[data-side-score]"):
        assert not outside_screen(page.locator(part)), part
