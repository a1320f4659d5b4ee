"""Phone ergonomics: every page fits 360 px without sideways scrolling, every tap target is
44x44 CSS px, body text is 16 px, the scores and count stay in view while choosing a tile,
a play takes one or two taps, portrait and landscape both work, dark mode follows the system."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from scorekeeper.rules.record import load_record
from tests.browser.browsing import (
    SCREENS,
    Screen,
    import_game,
    record,
    tile_button,
    tiles_fitting,
    visit,
    wait_for_table,
)
from tests.browser.checks import problems_on
from tests.support.server import LiveServer


def luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of an ``rgb(...)``/``rgba(...)`` colour."""
    parts = css_colour[css_colour.index("(") + 1 : css_colour.index(")")].replace(",", " ").split()
    channels = [float(p) / 255 for p in parts[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


LANDSCAPE = {"width": 640, "height": 360}
"""The phone turned sideways."""


@pytest.fixture(params=["portrait", "landscape"])
def held_phone(request: pytest.FixtureRequest, phone: Page) -> Page:
    """The phone held upright (360x640) and turned sideways (640x360)."""
    if request.param == "landscape":
        phone.set_viewport_size(LANDSCAPE)
    return phone


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_every_page_fits_a_phone(
    live_server: LiveServer, looking_phone: Page, screen: Screen
) -> None:
    """Held upright (360x640), then turned sideways (640x360) on the page it shows."""
    phone = looking_phone
    visit(phone, live_server.url, screen)
    problems = [f"portrait: {p}" for p in problems_on(phone)]
    phone.set_viewport_size(LANDSCAPE)
    # Two frames: the page's resize observers have run and it is laid out again.
    phone.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    problems += [f"landscape: {p}" for p in problems_on(phone)]
    assert not problems, f"{screen.name}:\n" + "\n".join(problems)


def in_view(page: Page, selector: str) -> list[bool]:
    """For each element matching ``selector``: whether it lies wholly inside the viewport."""
    return page.locator(selector).evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect();
             return r.width > 0 && r.top >= 0 && r.left >= 0
               && r.bottom <= innerHeight && r.right <= innerWidth; })"""
    )


def uncovered(page: Page, selector: str) -> bool:
    """Whether the first element matching ``selector`` is in view and on top at its centre."""
    return page.locator(selector).first.evaluate(
        """e => { const r = e.getBoundingClientRect();
             const x = r.left + r.width / 2, y = r.top + r.height / 2;
             if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
             const hit = document.elementFromPoint(x, y); return !!hit && e.contains(hit); }"""
    )


@pytest.mark.parametrize("where", ["first", "last"])
def test_scores_count_and_every_tile_in_view_without_scrolling(
    live_server: LiveServer, held_phone: Page, where: str
) -> None:
    data = record("hand_first_spinner_counts")
    import_game(held_phone, live_server.url, data)
    tiles = held_phone.locator(".picker .tile-button")
    # The tray is in view as the page opens: no scrolling between the picture and the tiles.
    assert held_phone.evaluate("scrollY") == 0
    assert all(in_view(held_phone, ".picker .tile-button"))
    assert in_view(held_phone, "[data-side-score]") == [True, True]
    assert in_view(held_phone, "[data-count]") == [True]
    assert held_phone.locator("[data-count]").get_attribute("data-count") == "5"
    # Nothing lies over the tiles: the first and the last can be tapped.
    assert tiles.count() == 28
    assert uncovered(held_phone, f".picker .tile-button >> nth={0 if where == 'first' else -1}")


def test_a_tile_fitting_two_ends_is_played_in_two_taps(
    live_server: LiveServer, held_phone: Page
) -> None:
    data = record("hand_first_spinner_counts")
    game = load_record(json.dumps(data))
    import_game(held_phone, live_server.url, data)
    chosen = tiles_fitting(game, 2)[0]
    seq = held_phone.locator("#table").get_attribute("data-seq")
    tile_button(held_phone, chosen).tap()  # tap 1
    held_phone.wait_for_selector(".choose-end .end-button")
    assert held_phone.locator("#table").get_attribute("data-seq") == seq, "nothing played yet"
    # The end buttons are there to tap, in view and not under the scoreboard, and the
    # scores and count are still in view.
    assert uncovered(held_phone, ".choose-end .end-button")
    assert in_view(held_phone, "[data-side-score]") == [True, True]
    assert in_view(held_phone, "[data-count]") == [True]
    end = game.fits(chosen)[0]
    held_phone.locator(f'.choose-end .end-button[data-end="{end}"]').tap()  # tap 2
    wait_for_table(held_phone, seq)
    placed = held_phone.locator(f'.table-picture g.table-tile[data-tile="{chosen}"]')
    assert placed.get_attribute("data-arm") == end
    assert held_phone.locator(".choose-end").count() == 0


def test_a_tile_fitting_one_end_is_played_in_one_tap(
    live_server: LiveServer, held_phone: Page
) -> None:
    data = record("hand_first_spinner_counts")
    game = load_record(json.dumps(data))
    import_game(held_phone, live_server.url, data)
    chosen = tiles_fitting(game, 1)[0]
    end = game.fits(chosen)[0]
    seq = held_phone.locator("#table").get_attribute("data-seq")
    tile_button(held_phone, chosen).tap()
    wait_for_table(held_phone, seq)
    placed = held_phone.locator(f'.table-picture g.table-tile[data-tile="{chosen}"]')
    assert placed.get_attribute("data-arm") == end
    assert held_phone.locator(".refusal").count() == 0


@pytest.mark.parametrize(
    "screen",
    [s for s in SCREENS if s.name in ("home", "tile selected, ends highlighted", "winner")],
    ids=lambda s: s.name,
)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colours_follow_the_system_setting(
    live_server: LiveServer, phone: Page, screen: Screen, scheme: str
) -> None:
    phone.emulate_media(color_scheme=scheme)
    visit(phone, live_server.url, screen)
    surfaces = phone.evaluate(
        """() => [document.body, ...document.querySelectorAll('.side, .tile-button, .settle, .winner-banner, details, input, select, textarea')]
           .map(e => [e.className || e.tagName, getComputedStyle(e).backgroundColor, getComputedStyle(e).color])"""
    )
    for what, background, text in surfaces:
        if background.startswith("rgba") and background.endswith(", 0)"):
            continue  # transparent: the body's colour shows
        if scheme == "dark":
            assert luminance(background) < 0.1 and luminance(text) > 0.4, (what, background, text)
        else:
            assert luminance(background) > 0.6 and luminance(text) < 0.1, (what, background, text)
