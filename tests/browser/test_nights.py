"""A club night in Chromium: the printable standings of a night of 60. (The director's whole
night of 12, on a phone and on a laptop, is tests/browser/test_night.py.)"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from tests.browser.browsing import tap
from tests.browser.test_clubs import create_club
from tests.support.chromium import WALL
from tests.support.server import LiveServer


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
