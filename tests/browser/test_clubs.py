"""Clubs in Chromium on a 360 px phone: creating a club, seating the roster by tapping names
(and moving a seat up), and the club page's standings, sorted by a tap, fitting the phone with
no sideways scroll of the page and axe clean."""

from __future__ import annotations

import json
import random
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


def finished_games(count: int) -> str:
    """JSON Lines of ``count`` finished fives-up games of two or three of four players."""
    lines = []
    seed = 0
    while len(lines) < count:
        rng = random.Random(seed)
        players = rng.sample(["Ann", "Bob", "Cy", "Di"], 2 + seed % 2)
        game = play_game(Setup.create(players, "fives-up"), rng, 40)
        seed += 1
        if game.winner is not None:
            lines.append(json.dumps(write_record(game)))
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
