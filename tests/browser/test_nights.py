"""A club night in Chromium: the director sets up a night of 12 on a 360 px phone, seats and
starts round 1, and the round page shows each table with its link and QR code, fitting the
phone (and a laptop) with no sideways scroll and axe clean."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.browsing import GAME_URL, tap
from tests.browser.test_clubs import check_fits, create_club
from tests.support.chromium import PORTRAIT, WALL
from tests.support.server import LiveServer

ROSTER = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim"]


def add_roster(page: Page, club: str) -> None:
    page.goto(club + "/players")
    for name in ROSTER:
        page.locator("#add-player").fill(name)
        tap(page.get_by_role("button", name="Add", exact=True))
        expect(page.locator(".notice")).to_contain_text(f"{name} joined the roster")


def test_a_director_sets_up_a_night_of_twelve_on_a_phone(live_server: LiveServer, page_with: Any):
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Friday club")
    add_roster(page, club)
    page.goto(club)
    tap(page.locator("[data-club-new-night]"))
    expect(page.locator("[data-night-form]")).to_be_visible()
    check_fits(page)
    for name in ROSTER:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("A walk-in (not on the roster yet)").fill("Zed")
    page.get_by_label("4: two partnerships, partners drawn each round").check()
    page.get_by_label("Rounds").fill("3")
    tap(page.locator("[data-open-night]"))
    expect(page.locator(".notice")).to_contain_text("open with 12 players")
    expect(page.locator("[data-night-player]")).to_have_count(12)
    check_fits(page)
    tap(page.locator("[data-seat-round]"))
    expect(page.locator("h1[data-round]")).to_have_text("Round 1")
    tables = page.locator(".night-table")
    expect(tables).to_have_count(3)
    expect(page.locator(".table-side")).to_have_count(6)
    check_fits(page)
    tap(page.locator("[data-start-round]"))
    expect(page.locator(".notice")).to_contain_text("3 tables are playing")
    links = page.locator("[data-table-link]")
    expect(links).to_have_count(3)
    expect(page.locator(".table-qr svg")).to_have_count(3)
    check_fits(page)
    round_page = page.url
    page.set_viewport_size(WALL["viewport"])  # a laptop: 1280 x 720
    page.reload()
    check_fits(page)
    page.goto(round_page)
    tap(page.locator("[data-table-link]").first)
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("[data-side-score]")).to_have_count(2)


def test_the_standings_of_sixty_print_on_one_page(live_server: LiveServer, page_with: Any):
    """A night of 60 players: the printable standings are one A4 page."""
    page = page_with(**WALL)
    club = create_club(page, live_server.url, "Big club")
    roster = {"format": "all-fives-club/1", "roster": [f"Player {n:02}" for n in range(60)]}
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(json.dumps(roster))
    tap(page.get_by_role("button", name="Import"))
    expect(page.locator(".notice")).to_contain_text("60 players")
    page.goto(club + "/nights/new")
    page.evaluate(
        "document.querySelectorAll('input[name=present]').forEach(box => box.checked = true)"
    )
    tap(page.locator("[data-open-night]"))
    expect(page.locator("[data-night-player]")).to_have_count(60)
    tap(page.locator("[data-seat-round]"))
    expect(page.locator(".night-table")).to_have_count(15)
    page.goto(page.url.rsplit("/rounds/", 1)[0] + "/standings")
    expect(page.locator("[data-night-standings] tbody tr")).to_have_count(60)
    pdf = page.pdf(format="A4")
    parts = pdf.split(b"/Type")
    pages = [
        p for p in parts if p.lstrip().startswith(b"/Page") and not p.lstrip().startswith(b"/Pages")
    ]
    assert len(pages) == 1, f"{len(pages)} pages"
