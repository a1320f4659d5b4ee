"""The keyboard alone plays a whole game, and the focus can always be seen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browsing import SCREENS, Screen, visit
from tests.support.server import LiveServer

# Whether the focused element shows it: an outline or a ring (box-shadow) at least 2 px wide,
# and not hidden under something else (the sticky scoreboard) at its centre.
FOCUS_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  const ring = s.boxShadow !== 'none';
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const label = e.labels && e.labels.length ? e.labels[0] : null;
  const onTop = !!hit && (e.contains(hit) || (label && label.contains(hit)) || hit.contains(e));
  return {what: e.outerHTML.slice(0, 80), shown: outline || ring, onTop};
}"""

# The hand played: (tile, end when it fits two). Ann dominoes with her fifth tile.
HAND = [
    ("5-5", None),
    ("5-0", "E"),
    ("5-4", None),
    ("0-0", None),
    ("4-2", None),
    ("2-2", None),
    ("6-0", None),
    ("draw", None),
    ("6-1", None),
    ("1-1", None),
]


def check_focus(page: Page) -> None:
    """The focused element can be seen: it has a visible focus indicator and is not covered."""
    focus = page.evaluate(FOCUS_JS)
    if focus is None:
        return
    assert focus["shown"], f"no visible focus on {focus['what']}"
    assert focus["onTop"], f"the focused {focus['what']} is hidden under something"


def tab_to(page: Page, selector: str, limit: int = 90) -> None:
    """Press Tab until ``selector`` has the focus, checking the focus is visible at each stop."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
        check_focus(page)
    raise AssertionError(f"Tab never reached {selector}")


def arrow_to(page: Page, js_done: str, key: str = "ArrowDown", limit: int = 10) -> None:
    """Press an arrow key until the focused control is as wanted (``js_done`` on it is true)."""
    for _ in range(limit):
        if page.evaluate(f"() => {{ const e = document.activeElement; return {js_done}; }}"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"never reached: {js_done}")


def seq(page: Page) -> str:
    """The table's event sequence number."""
    return page.locator("#table").get_attribute("data-seq") or ""


def wait_for_entry(page: Page, before: str) -> None:
    """Wait for the table after an entry, and check nothing was refused."""
    page.wait_for_function("s => document.querySelector('#table')?.dataset.seq !== s", arg=before)
    expect(page.locator(".refusal")).to_have_count(0)


def fill_new_game(page: Page) -> None:
    """Ann and Bob to 5 points, five tiles each, the leader chosen at the table."""
    tab_to(page, "input[name=player1]")
    page.keyboard.type("Ann")
    page.keyboard.press("Tab")
    check_focus(page)
    page.keyboard.type("Bob")
    tab_to(page, "input[name=target]")
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    tab_to(page, "details.house-rules summary")
    page.keyboard.press("Enter")
    expect(page.locator("details.house-rules")).to_have_attribute("open", "")
    tab_to(page, "select[name=deal]")
    arrow_to(page, "e.value === 'five-each'")
    tab_to(page, "input[name=leader]")
    arrow_to(page, "e.value === 'table' && e.checked")
    tab_to(page, "[name=start]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}"))


def play_hand(page: Page) -> None:
    """Every play, draw and end chosen with Tab, Enter and Space."""
    for tile, end in HAND:
        before = seq(page)
        if tile == "draw":
            tab_to(page, "button[data-action=draw]")
            page.keyboard.press("Space")
        else:
            tab_to(page, f'.picker button[data-tile="{tile}"]')
            page.keyboard.press("Enter")
        if end is not None:
            page.wait_for_selector(".choose-end .end-button")
            # The first end has the focus already; Tab goes on to the others.
            expect(page.locator(".choose-end .end-button").first).to_be_focused()
            check_focus(page)
            tab_to(page, f'.choose-end .end-button[data-end="{end}"]')
            page.keyboard.press("Enter")
        wait_for_entry(page, before)


def test_a_whole_game_with_the_keyboard_alone(live_server: LiveServer, desktop: Page) -> None:
    page = desktop
    page.goto(live_server.url + "/")
    tab_to(page, "a.button.primary")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/new"))
    fill_new_game(page)
    # Choose the leader: "at the table" on the form opened the players' buttons.
    expect(page.locator("details.choose-leader")).to_have_attribute("open", "")
    before = seq(page)
    tab_to(page, 'button[data-leader="0"]')
    page.keyboard.press("Enter")
    wait_for_entry(page, before)
    play_hand(page)
    # Ann dominoed: Bob's two tiles are entered and the hand is settled.
    expect(page.locator("#table")).to_have_attribute("data-phase", "settle")
    tab_to(page, 'input[name="held-1"]')
    page.keyboard.type("3-2 6-6")
    before = seq(page)
    page.keyboard.press("Enter")
    wait_for_entry(page, before)
    expect(page.locator("#table")).to_have_attribute("data-phase", "over")
    expect(page.locator(".winner-banner h2")).to_have_text("Ann wins!")
    expect(page.locator('[data-side-score="Ann"]')).to_have_text("20")
    expect(page.locator('[data-side-score="Bob"]')).to_have_text("0")


FOCUS_SCREENS = [
    s
    for s in SCREENS
    if s.name
    in (
        "new game, house rules open",
        "lead choice",
        "tile selected, ends highlighted",
        "settlement form",
    )
]


@pytest.mark.parametrize("screen", FOCUS_SCREENS, ids=lambda s: s.name)
def test_focus_is_visible_on_every_control(
    live_server: LiveServer, phone: Page, screen: Screen
) -> None:
    visit(phone, live_server.url, screen)
    phone.evaluate("document.activeElement?.blur()")
    controls = phone.evaluate(
        "document.querySelectorAll('a[href], button:not([disabled]), input:not([type=hidden]),"
        " select, textarea, summary').length"
    )
    reached = set()
    for _ in range(controls + 3):
        phone.keyboard.press("Tab")
        check_focus(phone)
        reached.add(phone.evaluate("document.activeElement.outerHTML"))
    # Backwards too: the sticky scoreboard must not hide what Shift+Tab reaches.
    for _ in range(controls + 3):
        phone.keyboard.press("Shift+Tab")
        check_focus(phone)
    assert len(reached) >= min(controls, 10)


def test_a_hand_from_the_keyboard_takes_three_keys_a_placement_at_most(
    live_server: LiveServer, desktop: Page
) -> None:
    """After each entry the focus is where the next one starts; a tile is its two numbers
    typed, an end its letter, a draw D: never more than three keys a placement."""
    page = desktop
    page.goto(live_server.url + "/games/new")
    fill_new_game(page)
    before = seq(page)
    tab_to(page, 'button[data-leader="0"]')
    page.keyboard.press("Enter")
    wait_for_entry(page, before)
    for tile, end in HAND:
        before = seq(page)
        if tile == "draw":
            page.keyboard.press("d")
            pressed = 1
        else:
            page.keyboard.press(tile[0])
            page.keyboard.press(tile[2])
            pressed = 2
            if end is not None:
                page.wait_for_selector(".choose-end .end-button")
                page.keyboard.press(end.lower())
                pressed += 1
        assert pressed <= 3
        wait_for_entry(page, before)
        # The focus is on the table's next control, never lost to the page.
        focused = page.evaluate("() => document.activeElement.closest('#table') !== null")
        assert focused, "after an entry the focus fell out of the table"
        check_focus(page)
    expect(page.locator("#table")).to_have_attribute("data-phase", "settle")
    # The settlement's first field has the focus: the held tiles typed, then Enter.
    expect(page.locator('input[name="held-1"]')).to_be_focused()
    before = seq(page)
    page.keyboard.type("3-2 6-6")
    page.keyboard.press("Enter")
    wait_for_entry(page, before)
    expect(page.locator(".winner-banner h2")).to_have_text("Ann wins!")
