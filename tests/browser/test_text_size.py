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
from typing import Any

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

LARGE_TEXT = "320 px, 200 % text"
CONDITIONS: dict[str, tuple[dict[str, Any], int]] = {
    "320 px": (SMALL_PHONE, 100),
    LARGE_TEXT: (SMALL_PHONE, 200),
}
"""Each condition: the phone, and the browser's text size in percent. The pages switch their
layouts at widths in em, which grow with the text: 320 px at 200 % text is 10em wide, narrower
than 360 px at 200 % (11.25em), so it stands for large text on every phone."""

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


@pytest.fixture(params=list(CONDITIONS))
def small_or_large(request: pytest.FixtureRequest, watched_page: Callable[..., Page]) -> Page:
    """A phone 320 px wide, with the text size at 100 % or at 200 %."""
    device, percent = CONDITIONS[request.param]
    # Without a service worker: a page it controls sends its requests past page.route(),
    # which the "entry not saved" screen uses to make the server unreachable.
    page = watched_page({**device, "service_workers": "block"}, keep_page=True)
    # A tap that cannot land (a part covered by another) fails in 10 s, not 30.
    page.set_default_timeout(10_000)
    set_text_size(page, percent)
    return page


def smaller_than_asked(page: Page) -> list[str]:
    """Text that does not grow with the text setting: its size at 100 % and at 200 % (the
    page is left at 200 %, as it was loaded)."""
    set_text_size(page, 100)
    normal = text_sizes(page)
    set_text_size(page, 200)
    large = text_sizes(page)
    # Text shown at one size only (labels of a narrow layout) has nothing to compare with.
    both = [(what, size, large[i][1]) for i, (what, size) in normal.items() if i in large]
    assert both, "no text shown at both sizes"
    return [
        f"{what}: {before:g} px at 100 %, {after:g} px at 200 %"
        for what, before, after in both
        if after < MIN_GROWTH * before - 0.01 or after < 2 * DEFAULT_TEXT_PX - 0.01
    ]


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
def test_no_word_is_broken(
    live_server: LiveServer, small_or_large: Page, request: pytest.FixtureRequest, screen: Screen
) -> None:
    page = small_or_large
    visit(page, live_server.url, screen)
    found = [f"broken: {p}" for p in word_problems(page, leave_out=PLAY_PARTS)]
    if screen in TABLE_SCREENS:
        found += [f"broken in the play area: {p}" for p in word_problems(page, within=PLAY_PARTS)]
    # Sideways scrolling is told by word_problems, with what causes it (in the play area or not).
    found += [f"for a thumb: {p}" for p in problems_on(page) if "scrolls sideways" not in p]
    if request.node.callspec.params["small_or_large"] == LARGE_TEXT:
        found += [f"does not grow: {p}" for p in smaller_than_asked(page)]
    violations = axe_violations(page)
    if violations:
        found.append(f"axe:\n{explain(violations)}")
    assert not found, f"{screen.name}:\n" + "\n".join(found)
