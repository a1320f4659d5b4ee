"""Small and large: on a phone 320 px wide, and with the browser's text size at 200 %, no word
is broken across two lines, cut off or sticking out of its box on any page (menu, buttons,
score sheet, forms, the table below its play area), nothing scrolls sideways, tap targets
stay 44x44 px, axe finds nothing serious, and every label grows with the text setting.

The text size is the browser's own setting, set through Chromium's DevTools protocol (see
``browsing.set_text_size``). The play area of the table page (``PLAY_PARTS``) is checked on
its own, in the same visit, so that a failure there is told apart from one in the rest of the
page."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Draw, Event, Game, NewHand, Play, Settle, Setup
from scorekeeper.rules.simulate import play_game
from tests.browser.browsing import (
    DEFAULT_TEXT_PX,
    SCREENS,
    SMALL_PHONE,
    GameEntry,
    Screen,
    TablePage,
    record,
    seed_game,
    set_text_size,
    text_sizes,
    visit,
    word_problems,
)
from tests.browser.checks import axe_violations, explain, problems_on
from tests.browser.test_big_tables import SETTLED
from tests.support.chromium import PORTRAIT, open_and_settle
from tests.support.server import LiveServer

PLAY_PARTS = ".screen--fit, .scoreboard, .layout, .undo"
"""The table page's play area: the play phase's screen (scoreboard, picture, tile tray, draw,
pass and undo), and the scoreboard, picture and undo of its other phases."""

MIN_GROWTH = 1.2
"""At 200 % every piece of text is at least this much larger than at 100 %. Most text
doubles; the board's figures, sized to the height of the screen, grow less."""


def open_folds(page: Page, game: Game | None) -> None:
    """Open every folded part of the page (its closed <details>, those inside them too)."""
    closed = page.locator("main details:not([open]) > summary").filter(visible=True)
    while closed.count():
        closed.first.click()


MORE_SCREENS = [
    Screen(
        "lead choice, folds open",
        game=lambda: record("hand_seven_five_two_hands", hands=0),
        then=open_folds,
    ),
    Screen(
        "share panel, folds open",
        game=lambda: record("hand_seven_five_two_hands", hands=1),
        then=open_folds,
    ),
    Screen(
        "winner, four players", game=lambda: record("sim_totally_fives_4p_all_spinners_reserve")
    ),
    Screen(
        "score sheet, four players",
        "/sheet",
        game=lambda: record("sim_totally_fives_4p_all_spinners_reserve"),
    ),
    Screen("blank score sheet, four sides", "/sheets/blank?sides=4"),
]
"""Pages with more words than the shared screens show: every fold open, four sides."""


@pytest.fixture
def small_phone(watched_page: Callable[..., Page]) -> Page:
    """A phone 320 px wide, its text size at 200 %.

    The pages switch their layouts at widths in em, which grow with the text: 320 px at 200 %
    text is 10em wide, narrower than 360 px at 200 % (11.25em), so it stands for large text on
    every phone."""
    # Without a service worker: a page it controls sends its requests past page.route(),
    # which the "entry not saved" screen uses to make the server unreachable.
    page = watched_page({**SMALL_PHONE, "service_workers": "block"}, keep_page=True)
    # A tap that cannot land (a part covered by another) fails in 10 s, not 30.
    page.set_default_timeout(10_000)
    set_text_size(page, 200)
    return page


def smaller_than_asked(
    large: dict[int, tuple[str, float]], normal: dict[int, tuple[str, float]]
) -> list[str]:
    """Text that does not grow with the text setting: its size at 100 % and at 200 %."""
    # Text shown at one size only (labels of a narrow layout) has nothing to compare with.
    both = [(what, size, large[i][1]) for i, (what, size) in normal.items() if i in large]
    assert both, "no text shown at both sizes"
    return [
        f"{what}: {before:g} px at 100 %, {after:g} px at 200 %"
        for what, before, after in both
        if after < MIN_GROWTH * before - 0.01 or after < 2 * DEFAULT_TEXT_PX - 0.01
    ]


def problems_at(page: Page, screen: Screen) -> list[str]:
    """Words broken, what is wrong for a thumb, and axe's serious findings, on the page as it is."""
    found = [f"broken: {p}" for p in word_problems(page, leave_out=PLAY_PARTS)]
    if screen in TABLE_SCREENS:
        found += [f"broken in the play area: {p}" for p in word_problems(page, within=PLAY_PARTS)]
    # Sideways scrolling is told by word_problems, with what causes it (in the play area or not).
    found += [f"for a thumb: {p}" for p in problems_on(page) if "scrolls sideways" not in p]
    violations = axe_violations(page)
    if violations:
        found.append(f"axe:\n{explain(violations)}")
    return found


TABLE_SCREENS = [
    s
    for s in SCREENS
    if s.name
    in (
        "lead choice",
        "mid-hand",
        "lead played, it can be turned",
        "tile selected, ends highlighted",
        "a play just entered, what it scored flashing",
        "refusal shown",
        "settlement form",
        "settlement shown",
        "long line, no spinner",
        "winner",
        "watch link",
    )
]
"""The table page in each of its phases, on the edit link and the watch link."""


@pytest.mark.parametrize("screen", SCREENS + MORE_SCREENS, ids=lambda s: s.name)
def test_no_word_is_broken(live_server: LiveServer, small_phone: Page, screen: Screen) -> None:
    """Each screen is opened (and brought to its state) with the text at 200 %, looked at,
    then looked at again with the text set back to 100 % in place. Both sizes are checked in
    one visit: the pages follow the setting live (their sizes are in rem and em, and the one
    script that measures, the header's height, watches it), and the taps that bring a screen
    to its state are made at 200 %, the harder of the two."""
    page = small_phone
    visit(page, live_server.url, screen)
    found = [f"320 px, 200 % text: {p}" for p in problems_at(page, screen)]
    large = text_sizes(page)
    set_text_size(page, 100)
    found += [f"320 px: {p}" for p in problems_at(page, screen)]
    found += [f"does not grow: {p}" for p in smaller_than_asked(large, text_sizes(page))]
    assert not found, f"{screen.name}:\n" + "\n".join(found)


PICTURES = {
    "mid-hand": "#table .tile-button svg",
    "settlement, held tiles tapped": '[data-held-tray="2"] .held-tile svg',
    "tile selected, ends highlighted": ".choose-end .prompt svg",
}
"""Dominoes drawn on the pages: the tray's tiles, a settlement's held tiles, the tile picked."""


@pytest.mark.parametrize("screen", [s for s in SCREENS if s.name in PICTURES], ids=lambda s: s.name)
def test_domino_pictures_grow_with_the_text(
    live_server: LiveServer, small_phone: Page, screen: Screen
) -> None:
    page = small_phone
    visit(page, live_server.url, screen)
    pictures = page.locator(PICTURES[screen.name])
    large = pictures.first.evaluate("svg => svg.getBoundingClientRect().width")
    set_text_size(page, 100)
    small = pictures.first.evaluate("svg => svg.getBoundingClientRect().width")
    assert large >= 1.5 * small, f"{screen.name}: {small:.0f} px at 100 %, {large:.0f} at 200 %"


def long_hand(entries: int) -> tuple[Setup, NewHand, list[Event]]:
    """The first simulated hand of two players with at least ``entries`` entries (a draw of
    several tiles counts each): its setup, its new hand and its plays, draws and passes."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    for seed in range(500):
        game = play_game(setup, random.Random(seed))
        first, rest = game.events[0], game.events[1:]
        assert isinstance(first, NewHand)
        end = next(i for i, e in enumerate(rest) if isinstance(e, NewHand | Settle))
        hand = rest[:end]
        if sum(e.count if isinstance(e, Draw) else 1 for e in hand) >= entries:
            return setup, first, hand
    raise AssertionError(f"no simulated hand of {entries} entries")


UNDER_A_FINGER_JS = """e => {
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (y < 0 || y > innerHeight) return false;
  const hit = document.elementFromPoint(x, y);
  return hit !== null && e.contains(hit);
}"""
"""Whether a finger can tap the element where it is: its middle on the screen, not under
anything (the sticky scoreboard, or Draw and Undo stuck at the foot)."""

BRING_INTO_VIEW_JS = """e => {
  const row = document.querySelector('#table .actions');
  const stuck = row && getComputedStyle(row).position === 'sticky';
  const foot = stuck ? innerHeight - row.getBoundingClientRect().height : innerHeight;
  const block = e.closest('form.picker') || e.closest('.info') || e.closest('.actions') || e;
  window.scrollBy(0, block.getBoundingClientRect().bottom - foot);
}"""
"""A reader's scroll: the whole of what holds the element (the tray, the end buttons) brought
up to the foot of what shows."""

MOST_SCROLLS = 3
"""Scrolls a long hand may take at 200 % text on a 360x720 phone: the first, to the tray, and
at most two more (an end button under Draw and Undo). 11 before the tray kept its place."""


def test_a_long_hand_at_200_percent_text_takes_few_scrolls(
    live_server: LiveServer, page_with: Any
) -> None:
    """A hand of 35 entries (41 taps) entered by a finger at 200 % text: each tap is made where
    the control is, and when it is off the screen or under something the reader first scrolls
    the tray (or the end buttons) into view. The tray keeps its place over Draw and Undo,
    which stay at the foot of the screen, so scrolls are few."""
    setup, first, hand = long_hand(26)
    page = page_with(**PORTRAIT)
    open_and_settle(page, seed_game(live_server, setup, [first]))
    set_text_size(page, 200)
    table = TablePage(page)
    entry = GameEntry(table, setup)
    entry.shadow.push(first)
    scrolls = []

    def finger(target: Locator) -> None:
        if not target.evaluate(UNDER_A_FINGER_JS):
            scrolls.append(target.evaluate("e => e.outerHTML.slice(0, 60)"))
            target.evaluate(BRING_INTO_VIEW_JS)
            assert target.evaluate(UNDER_A_FINGER_JS), "a scroll did not bring it to a finger"
        box = target.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    table.tap = finger  # type: ignore[method-assign]
    try:
        entry.enter_all(hand)
    finally:
        set_text_size(page, 100)
    assert len(scrolls) <= MOST_SCROLLS, "\n".join(scrolls)


def test_at_200_percent_text_a_notice_and_the_call_row_leave_the_tiles_readable(
    live_server: LiveServer, page_with: Any
) -> None:
    """200 % text, the call row of a scoring play (house rule muggins) and "Not saved" above
    the picture: the picture's room shrinks, its tiles do not (a double-six tile 12 px wide
    or more at 100 %, grown with the text: 24 px; the box scrolls). 11.5 px before."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"muggins": "yes", "target": 1000})
    events = scoring_play_then_a_draw(setup)
    page = page_with(**PORTRAIT)
    open_and_settle(page, seed_game(live_server, setup, events))
    set_text_size(page, 200)
    table = TablePage(page)
    expect(page.locator(".call-strip")).to_be_visible()
    page.route("**/draw", lambda route: route.abort())
    try:
        table.tap(table.action("draw"))
        expect(page.locator("[data-not-saved]")).to_be_visible()
        page.evaluate(SETTLED)
        width = page.locator("#table .layout svg").evaluate("svg => svg.getScreenCTM().a * 50")
        layout = page.locator("#table .layout")
        box = layout.bounding_box()
    finally:
        set_text_size(page, 100)
    assert width >= 24 - 0.01, f"tiles {width:.1f} px wide"
    # Room for several tiles in the box: at least five tiles across and four down.
    assert box is not None and box["height"] >= 4 * 24 and box["width"] >= 5 * 24, box


def scoring_play_then_a_draw(setup: Setup) -> list[Event]:
    """The events of a simulated game up to a play that scores, late enough in its hand for
    several tiles to be down, after which its player's opponent draws."""
    for seed in range(300):
        events = play_game(setup, random.Random(seed), max_hands=1).events
        for at in range(6, len(events) - 1):
            if not (isinstance(events[at], Play) and isinstance(events[at + 1], Draw)):
                continue
            hand = Game(setup, events[: at + 1]).hand
            assert hand is not None
            count = hand.plays[-1].count
            if count and count % 5 == 0:
                return events[: at + 1]
    raise AssertionError("no scoring play followed by a draw")
