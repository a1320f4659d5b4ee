"""Small and large: on a phone 320 px wide, and with the browser's text size at 200 %, no word
is broken across two lines, cut off or sticking out of its box on any page (menu, buttons,
score sheet, forms, the table below its play area), nothing scrolls sideways, tap targets
stay 44x44 px, axe finds nothing serious, and every label grows with the text setting.

The text size is the browser's own setting, set through Chromium's DevTools protocol (see
``browsing.set_text_size``). The play area of the table page (``PLAY_PARTS``) is checked on
its own, in the same visit, so that a failure there is told apart from one in the rest of the
page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from scorekeeper.rules import Game
from tests.browser.browsing import (
    DEFAULT_TEXT_PX,
    SCREENS,
    SMALL_PHONE,
    Screen,
    record,
    set_text_size,
    text_sizes,
    visit,
    word_problems,
)
from tests.browser.checks import axe_violations, explain, problems_on
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
