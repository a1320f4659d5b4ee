"""A club's penalties and ratings in Chromium on a 360 x 720 phone: the director agrees the
penalties on the club page, then on the play screen of a club game a penalty is one tap after
choosing the player; the ratings, their chart and the change an evening brought fit the phone,
axe clean."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect
from sqlalchemy import select

from scorekeeper.web.data import games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow
from tests.browser.browsing import hand_at, tap
from tests.browser.test_clubs import check_fits, create_club, finished_games
from tests.support.chromium import PORTRAIT
from tests.support.server import LiveServer


def agree(page: Page, name: str, amount: str) -> None:
    page.locator("#penalty-name").fill(name)
    page.locator("#penalty-amount").fill(amount)
    tap(page.get_by_role("button", name="Agree the penalty"))
    expect(page.locator("[data-settings-said]")).to_contain_text(f"Penalty agreed: {name}")


def club_game(server: LiveServer, club_url: str) -> str:
    """A game of the club in the middle of its first hand; its edit URL."""
    setup, events = hand_at(4)
    key = club_url.rsplit("/", 1)[1]
    with server.app.app_context():
        club = db.session.scalars(select(ClubRow).where(ClubRow.edit_key == key)).one()
        loaded = games.create(setup, events, club_id=club.id)
        return f"{server.url}/games/{loaded.row.edit_key}"


def test_a_penalty_agreed_on_the_club_page_is_one_tap_on_the_play_screen(
    live_server: LiveServer, page_with: Any
):
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Tuesday club")
    agree(page, "Drew and could play", "-30")
    agree(page, "Wrong tile count", "-100")
    page.locator("#penalty-name").fill("Drew and could play")
    page.locator("#penalty-amount").fill("-25")
    tap(page.get_by_role("button", name="Agree the penalty"))
    expect(page.locator("[data-settings-said]")).to_contain_text("already")
    expect(page.locator("[data-penalty-setting]")).to_have_count(2)
    check_fits(page)

    page.goto(club_game(live_server, club))
    table = page.locator("#table")
    expect(table).to_have_attribute("data-phase", "play")
    before = int(page.locator('[data-side-score="Bob"]').inner_text())
    seq = table.get_attribute("data-seq")
    tap(page.locator("label:has([data-penalty-seat='Bob'])"))
    tap(page.locator('[data-penalty="Drew and could play"]'))
    expect(table).not_to_have_attribute("data-seq", seq or "")
    expect(page.locator('[data-side-score="Bob"]')).to_have_text(str(before - 30))
    check_fits(page)
    page.goto(page.url.split("?")[0] + "/log")
    expect(page.locator("body")).to_contain_text("Drew and could play")


def test_the_ratings_fit_a_phone(live_server: LiveServer, page_with: Any):
    page = page_with(**PORTRAIT)
    club = create_club(page, live_server.url, "Family")
    page.goto(club + "/import")
    page.locator('textarea[name="text"]').fill(finished_games(8))
    tap(page.get_by_role("button", name="Import"))
    expect(page.locator("[data-ratings] tbody tr")).to_have_count(4)
    expect(page.locator('[data-chart="ratings"]')).to_be_visible()
    expect(page.locator("[data-rating-change] tbody tr")).to_have_count(4)
    ratings = [float(t) for t in page.locator("[data-ratings] td[data-rating]").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    check_fits(page)
    page.get_by_label("The club's ordinary games count toward the ratings").uncheck()
    tap(page.locator("form.rating-rule button"))
    expect(page.locator("[data-ratings-off]")).to_be_visible()
    expect(page.locator("[data-ratings] tbody tr")).to_have_count(0)
    check_fits(page)
