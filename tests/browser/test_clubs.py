"""Clubs in Chromium on a 360 px phone: creating a club, seating the roster by tapping names
(and moving a seat up), and the club page's standings, sorted by a tap, fitting the phone with
no sideways scroll of the page and axe clean."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from tests.browser.browsing import GAME_URL, tap
from tests.browser.checks import axe_violations, explain, problems_on
from tests.support.chromium import LANDSCAPE, PORTRAIT, WALL
from tests.support.server import LiveServer

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE, "wall": WALL}


def finished_games(count: int, every_rule: bool = True) -> str:
    """JSON Lines of ``count`` finished fives-up games of two or three of four players, each
    record naming every house rule as an export does (or leaving its defaults out)."""
    lines = []
    seed = 0
    while len(lines) < count:
        rng = random.Random(seed)
        players = rng.sample(["Ann", "Bob", "Cy", "Di"], 2 + seed % 2)
        game = play_game(Setup.create(players, "fives-up"), rng, 40)
        seed += 1
        if game.winner is not None:
            lines.append(json.dumps(write_record(game, every_rule=every_rule)))
    return "\n".join(lines)


def create_club(page: Page, base: str, name: str) -> str:
    page.goto(base + "/clubs/new")
    page.get_by_label("The club's name").fill(name)
    tap(page.get_by_role("button", name="Create the club"))
    expect(page.locator("h1[data-club]")).to_have_text(name)
    return page.url


def check_fits(page: Page) -> None:
    """No sideways scroll, small target or small text, and axe clean, once the page and its
    stylesheets have loaded (a tap on a link has just opened it)."""
    page.wait_for_load_state("load")
    assert problems_on(page) == []
    violations = axe_violations(page)
    assert violations == [], explain(violations)


def test_the_roster_seats_players_by_tapping_names(live_server: LiveServer, page_with: Any):
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Tuesday club")
    check_fits(page)
    tap(page.locator("[data-club-new-game]"))
    page.locator('input[name="player1"]').fill("Ann")
    page.locator('input[name="player2"]').fill("Bob")
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    page.goto(club + "/new")
    picker = page.locator("[data-roster]")
    expect(picker).to_be_visible()
    check_fits(page)
    tap(page.locator('[data-roster-name="Bob"]'))
    tap(page.locator('[data-roster-name="Ann"]'))
    expect(page.locator('input[name="player1"]')).to_have_value("Bob")
    expect(page.locator('input[name="player2"]')).to_have_value("Ann")
    expect(page.locator('[data-roster-name="Ann"]')).to_have_attribute("aria-pressed", "true")
    tap(page.locator('[data-seat-up="2"]'))
    expect(page.locator('input[name="player1"]')).to_have_value("Ann")
    expect(page.locator('input[name="player2"]')).to_have_value("Bob")
    tap(page.locator('[data-roster-name="Bob"]'))  # a second tap takes Bob off his seat
    expect(page.locator('input[name="player2"]')).to_have_value("")
    page.locator('input[name="player2"]').fill("cy ")
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    expect(page.locator('[data-side-score="Ann"]')).to_be_visible()
    page.goto(club + "/players")
    expect(page.locator("[data-roster-player]")).to_have_count(3)
    check_fits(page)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_club_page_shows_standings_that_sort_and_fit_the_screen(
    live_server: LiveServer, page_with: Any, screen: str
):
    page = page_with(**SCREENS[screen])
    club = create_club(page, live_server.url, "Family")
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(finished_games(8))
    tap(page.get_by_role("button", name="Import"))
    expect(page.locator(".notice")).to_contain_text("Imported 8 games")
    rows = page.locator('[data-standings="players"] tbody tr')
    expect(rows).to_have_count(4)
    check_fits(page)
    if screen == "portrait":  # Points is the fifth column: shown with them all
        tap(page.locator("[data-columns=all]"))
        expect(page.locator("[data-columns=few]")).to_be_visible()
    tap(page.locator('[data-standings="players"] [data-sort="points"]'))
    expect(page.locator('th[aria-sort] [data-sort="points"]')).to_be_visible()
    points = [
        int(text)
        for text in page.locator(
            '[data-standings="players"] td[data-stat="points"]'
        ).all_inner_texts()
    ]
    assert points == sorted(points, reverse=True)
    region = page.locator('.table-scroll[aria-labelledby="standings-title"]')
    widths = region.evaluate("e => [e.scrollWidth, e.clientWidth]")
    if screen == "portrait":
        assert widths[0] > widths[1]  # too wide for a phone: it scrolls inside its box
    if screen == "wall":
        assert widths[0] <= widths[1]  # a wall screen shows every column at once
    check_fits(page)
    watch = page.locator('[data-share-link="club-watch"]').input_value()
    page.goto(watch)
    expect(page.locator("[data-club-new-game]")).to_have_count(0)
    expect(rows).to_have_count(4)
    check_fits(page)


@pytest.mark.parametrize("language", ["sv", "fil"])
def test_the_club_pages_are_axe_clean_in_svenska_and_filipino(
    live_server: LiveServer, page_with: Any, language: str
):
    """The club page with its standings, partnerships and head to head, its players page and
    its watch link, in the page's language: nothing of moderate impact or worse."""
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Family")
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(finished_games(8))
    tap(page.get_by_role("button", name="Import"))
    expect(page.locator('[data-standings="players"] tbody tr')).to_have_count(4)
    watch = page.locator('[data-share-link="club-watch"]').input_value()
    page.goto(f"{live_server.url}/language/{language}?next=/")
    for url in (club, club + "/players", watch):
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == language
        check_fits(page)


@pytest.mark.parametrize("language", ["en", "sv", "fil"])
def test_a_club_import_lists_the_house_rules_left_out_before_storing(
    live_server: LiveServer, page_with: Any, language: str
):
    """Records that leave their house rules out: the page lists them and the values they will
    take, fitting the phone and axe clean, and stores the games once confirmed."""
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Family")
    page.goto(f"{live_server.url}/language/{language}?next=/")
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(finished_games(3, every_rule=False))
    tap(page.locator("form.import-form button[type=submit]"))
    listed = page.locator("[data-left-out]")
    expect(listed).to_be_visible()
    expect(page.locator("[data-left-out-game]")).to_have_count(3)
    expect(page.locator('[data-left-out-rule="target"]').first).to_have_attribute(
        "data-value", re.compile(r"^\d+$")
    )
    check_fits(page)
    tap(page.locator("[data-left-out] form button[type=submit]"))
    expect(page.locator('[data-standings="players"] tbody tr').first).to_be_visible()
    expect(page.locator("h1[data-club]")).to_have_text("Family")


def outside_box(page: Page) -> list[str]:
    """Each heading and figure of the players' standings shown but not wholly inside what its
    box shows (a column cut at the box's edge)."""
    return page.locator('.table-scroll:has([data-standings="players"])').evaluate(
        """box => { const edge = box.getBoundingClientRect();
            return [...box.querySelectorAll('th, td')].filter(cell => cell.offsetParent)
              .filter(cell => { const r = cell.getBoundingClientRect();
                  return r.left < edge.left - 0.5 || r.right > edge.right + 0.5; })
              .map(cell => cell.textContent.trim()); }"""
    )


@pytest.mark.parametrize("language", ["en", "sv", "fil"])
def test_upright_the_standings_show_whole_columns_and_the_rest_on_demand(
    live_server: LiveServer, page_with: Any, language: str
):
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Family")
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(finished_games(8))
    tap(page.locator("form.import-form button[type=submit]"))
    expect(page.locator(".notice")).to_contain_text("Imported 8 games")
    page.goto(f"{live_server.url}/language/{language}?next=/")
    page.goto(club)
    table = page.locator('[data-standings="players"]')
    heads = table.locator("thead th")
    # The name and three figures, each whole, nothing to scroll.
    expect(heads.locator("visible=true")).to_have_count(4)
    assert outside_box(page) == []
    check_fits(page)
    # Every column on demand, the names kept in view while the box scrolls sideways.
    tap(page.locator("[data-columns=all]"))
    expect(page.locator("[data-columns=few]")).to_be_visible()
    assert heads.count() > 4
    expect(heads.locator("visible=true")).to_have_count(heads.count())
    box = page.locator('.table-scroll:has([data-standings="players"])')
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    expect(table.locator("tbody th").first).to_be_in_viewport(ratio=1)
    check_fits(page)
    # Sorted by a column further on, and back to few: that column stays, whole.
    tap(table.locator('[data-sort="hands"]'))
    expect(table.locator('th[aria-sort] [data-sort="hands"]')).to_be_visible()
    tap(page.locator("[data-columns=few]"))
    expect(page.locator("[data-columns=all]")).to_be_visible()
    expect(heads.locator("visible=true")).to_have_count(4)
    expect(table.locator('th[aria-sort] [data-sort="hands"]')).to_be_visible()
    assert outside_box(page) == []
