"""Inputs that fit the phone, in Chromium at 360x720: remaining pips with a number keypad or by
tapping the tiles held, the leader chosen at the table, times in the phone's time zone,
deleting a game with a confirmation and an undo, going back where one came from, and a table
page left open for hours."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy import update

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from tests.browser.browsing import TablePage, import_game, record, start_game
from tests.support.chromium import PHONE
from tests.support.server import LiveServer

TALL_PHONE = {"width": 360, "height": 720}
LATE = datetime(2026, 11, 22, 23, 30)
"""Half past eleven at night, UTC."""


def tap(target: Locator) -> None:
    """Tap ``target`` with a finger (every page here is a touch phone's)."""
    target.tap()


def fits_the_phone(target: Locator) -> None:
    """``target`` is a thumb-sized target inside the 360 px wide screen."""
    box = target.bounding_box()
    assert box is not None
    assert box["width"] >= 44 and box["height"] >= 44, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= TALL_PHONE["width"], box


def no_sideways_scroll(page: Page) -> None:
    """Nothing is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= TALL_PHONE["width"]


def hand_to_settle(page: Page, base: str) -> TablePage:
    """Ann, Bob and Cy; Ann plays her last tile: Bob (12 pips) and Cy (4-3) still hold tiles."""
    page.set_viewport_size(TALL_PHONE)
    url = import_game(page, base, record("hand_seven_five_two_hands", hands=1, drop_last=1))
    page.goto(url)
    table = TablePage(page)
    table.play("5-0")
    expect(table.table).to_have_attribute("data-phase", "settle")
    return table


def remaining_in_record(page: Page) -> dict:
    """What the game's record says each player held at the end of hand 1."""
    url = page.url.split("#")[0].split("?")[0]  # the page may sit at #settlement
    data = json.loads(page.request.get(f"{url}/record.json").text())
    return data["hands"][0]["remaining"]


def test_remaining_pips_by_keypad_or_by_tapping_the_tiles(
    live_server: LiveServer, phone: Page
) -> None:
    table = hand_to_settle(phone, live_server.url)
    bob, cy = phone.locator('input[name="held-1"]'), phone.locator('input[name="held-2"]')
    for field in (bob, cy):
        expect(field).to_have_attribute("inputmode", "numeric")
        expect(field).to_have_attribute("type", "text")
    bob.fill("12")

    cys_tray = phone.locator('[data-held-tray="2"]')
    table.tap(cys_tray.locator("summary"))
    four_three = cys_tray.locator('label.held-tile:has(input[value="4-3"])')
    fits_the_phone(four_three)
    no_sideways_scroll(phone)
    table.tap(four_three)
    expect(cy).to_have_value("4-3")
    expect(cys_tray.locator("[data-held-count]")).to_have_text("1 of 1 tapped: 7 pips.")
    # A tile is in one hand only: Bob's tray greys it out.
    table.tap(phone.locator('[data-held-tray="1"] summary'))
    expect(phone.locator('[data-held-tray="1"] input[value="4-3"]')).to_be_disabled()
    # Tapped again it is untapped, and the field empties; a third tap takes it back.
    table.tap(four_three)
    expect(cy).to_have_value("")
    expect(phone.locator('[data-held-tray="1"] input[value="4-3"]')).to_be_enabled()
    table.tap(four_three)
    expect(cy).to_have_value("4-3")
    # Tiles typed into a field are shown tapped; a pip total untaps them.
    bob.fill("6-6")
    expect(phone.locator('[data-held-tray="1"] input[value="6-6"]')).to_be_checked()
    bob.fill("12")
    expect(phone.locator('[data-held-tray="1"] input[value="6-6"]')).not_to_be_checked()

    table.tap(phone.get_by_role("button", name=re.compile(r"^Settle hand")))
    table.entered(2)  # the settlement, and hand 2 led by Ann, who dominoed
    expect(phone.locator("[data-settlement]")).to_contain_text("Cy holds 7, rounds to 5: -5")
    assert remaining_in_record(phone) == {"Bob": 12, "Cy": ["4-3"]}


def test_tapping_the_tiles_works_without_javascript(
    live_server: LiveServer, phone_no_js: Page
) -> None:
    page = phone_no_js
    table = hand_to_settle(page, live_server.url)
    page.locator('input[name="held-1"]').fill("12")
    table.tap(page.locator('[data-held-tray="2"] summary'))
    table.tap(page.locator('[data-held-tray="2"] label.held-tile:has(input[value="4-3"])'))
    expect(page.locator('[data-held-tray="2"] input[value="4-3"]')).to_be_checked()
    expect(page.locator('input[name="held-2"]')).to_have_value("")
    table.tap(page.get_by_role("button", name=re.compile(r"^Settle hand")))
    table.entered(2)
    assert remaining_in_record(page) == {"Bob": 12, "Cy": ["4-3"]}


def test_choosing_the_leader_at_the_table_opens_the_players(
    live_server: LiveServer, phone: Page
) -> None:
    phone.set_viewport_size(TALL_PHONE)
    table = start_game(phone, live_server.url, ["Ann", "Bob"])
    expect(phone.locator("details.choose-leader")).to_have_attribute("open", "")
    bob_leads = phone.locator('[data-leader="1"]')
    expect(bob_leads).to_be_visible()
    table.tap(bob_leads)
    table.entered()
    table.expect_turn("Bob")
    tap(phone.get_by_role("link", name="Log (why?)"))
    expect(phone.locator(".log-entry.kind-new-hand summary")).to_have_text(
        re.compile(r"Hand 1 begins: Bob leads, chosen at the table\.")
    )


def set_times(server: LiveServer, when: datetime) -> None:
    """Every game was started and last changed at ``when`` (naive UTC)."""
    with server.app.app_context():
        db.session.execute(update(GameRow).values(created_at=when, updated_at=when))
        db.session.commit()


@pytest.mark.fresh_server("set_times changes every game in the database")
@pytest.mark.parametrize(
    ("zone", "day", "clock", "long_day", "filipino"),
    [
        ("Asia/Tokyo", "23 Nov 2026", "08:30", "23 November 2026", ("Nobyembre 23, 2026", "8:30")),
        (
            "America/Los_Angeles",
            "22 Nov 2026",
            "15:30",
            "22 November 2026",
            ("Nobyembre 22, 2026", "3:30"),
        ),
    ],
)
def test_times_are_shown_in_the_phones_time_zone(
    live_server: LiveServer,
    page_with,
    zone: str,
    day: str,
    clock: str,
    long_day: str,
    filipino: tuple[str, str],
) -> None:
    page: Page = page_with(**{**PHONE, "viewport": TALL_PHONE}, timezone_id=zone)
    start_game(page, live_server.url, ["Ann", "Bob"])
    url = page.url.split("#")[0].split("?")[0]  # the page may sit at #settlement
    set_times(live_server, LATE)
    page.goto(live_server.url + "/")
    shown = page.locator('.my-game time[datetime="2026-11-22T23:30:00Z"]')
    expect(shown).to_have_text(f"{day}, {clock}")
    expect(shown).to_have_attribute("title", "22 Nov 2026, 23:30 UTC")
    page.goto(f"{url}/sheet")
    expect(page.locator('.sheet-date time[data-local="long-date"]')).to_have_text(long_day)
    expect(page.locator('.sheet-date time[data-local="time"]')).to_have_text(clock)
    # In Filipino: the month first, and a 12-hour clock (CLDR's, as the browser has it).
    page.goto(f"{live_server.url}/language/fil?next={url.removeprefix(live_server.url)}/sheet")
    fil_day, fil_clock = filipino
    expect(page.locator('.sheet-date time[data-local="long-date"]')).to_have_text(fil_day)
    expect(page.locator('.sheet-date time[data-local="time"]')).to_have_text(
        re.compile(rf"^{fil_clock}\s(AM|PM)$")
    )


def test_deleting_a_game_asks_first_and_can_be_undone(live_server: LiveServer, phone: Page) -> None:
    phone.set_viewport_size(TALL_PHONE)
    table = start_game(phone, live_server.url, ["Ann", "Bob"])
    table.choose_leader(0)
    game_url = phone.url.split("?")[0]

    # From the game: asked first; "Keep it" goes back to the game, nothing deleted.
    tap(phone.locator(".game-links [data-delete-link]"))
    expect(phone.get_by_role("heading", name="Delete this game?")).to_be_visible()
    fits_the_phone(phone.get_by_role("button", name="Delete the game"))
    no_sideways_scroll(phone)
    tap(phone.get_by_role("link", name="Keep it"))
    expect(phone).to_have_url(re.compile(re.escape(game_url)))
    expect(table.table).to_have_attribute("data-seq", "1")

    tap(phone.locator(".game-links [data-delete-link]"))
    tap(phone.get_by_role("button", name="Delete the game"))
    expect(phone).to_have_url(live_server.url + "/")
    expect(phone.get_by_role("status")).to_contain_text("Deleted: Ann and Bob")
    expect(phone.locator("#playing-title + p")).to_have_text("No game in progress.")
    assert phone.request.get(game_url).status == 404
    undo = phone.get_by_role("button", name="Undo: restore Ann, Bob")
    fits_the_phone(undo)
    tap(undo)
    expect(phone.get_by_role("status")).to_contain_text("Restored: Ann and Bob")
    expect(phone.locator(f'.my-game a[href="{game_url[len(live_server.url) :]}"]')).to_be_visible()

    # From My games: the same confirmation; "Keep it" goes back to My games.
    delete = phone.get_by_role("link", name="Delete Ann, Bob")
    fits_the_phone(delete)
    no_sideways_scroll(phone)
    tap(delete)
    tap(phone.get_by_role("link", name="Keep it"))
    expect(phone).to_have_url(live_server.url + "/")
    tap(phone.get_by_role("link", name="Delete Ann, Bob"))
    tap(phone.get_by_role("button", name="Delete the game"))
    expect(phone.locator(".deleted-game")).to_contain_text("Ann, Bob")
    assert phone.request.get(game_url).status == 404


def test_back_from_a_game_goes_where_the_user_came_from(
    live_server: LiveServer, phone: Page
) -> None:
    home = live_server.url + "/"
    phone.goto(home)
    tap(phone.get_by_role("link", name="Start a new game"))
    # The form is sent with htmx (which replaces it in the history) once the page has loaded.
    phone.wait_for_url("**/games/new")
    phone.wait_for_load_state()
    for seat, name in enumerate(["Ann", "Bob"], 1):
        phone.locator(f'input[name="player{seat}"]').fill(name)
    phone.locator('input[name="leader"][value="table"]').check()
    tap(phone.get_by_role("button", name="Start the game"))
    expect(phone.locator("#table")).to_have_attribute("data-phase", "lead")
    table = TablePage(phone)
    table.choose_leader(0)
    table.play("6-6")
    table.play("6-5", "W", ["W", "E"])
    table.draw()
    # The entries pushed nothing, and the new-game form gave its place to the game.
    phone.go_back()
    expect(phone).to_have_url(home)
    phone.go_forward()
    expect(phone.locator("#table")).to_have_attribute("data-seq", "4")
    at_game = phone.evaluate("navigation.currentEntry.index")
    game_url = phone.url

    # The log's "Back to the table" and the game's "My games" step back, not forward.
    tap(phone.get_by_role("link", name="Log (why?)"))
    tap(phone.get_by_role("link", name="Back to the table"))
    expect(phone.locator("#table")).to_be_visible()
    assert phone.evaluate("navigation.currentEntry.index") == at_game
    tap(phone.locator(".game-links").get_by_role("link", name="My games"))
    expect(phone).to_have_url(home)
    assert phone.evaluate("navigation.currentEntry.index") == at_game - 1

    # A game opened from a shared link has nowhere to step back to: My games opens.
    phone.goto("about:blank")
    phone.goto(game_url)
    tap(phone.locator(".game-links").get_by_role("link", name="My games"))
    expect(phone).to_have_url(home)


def test_a_table_left_open_for_hours_takes_the_next_entry(
    live_server: LiveServer, phone: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start_game(phone, live_server.url, ["Ann", "Bob"])
    table.choose_leader(0)
    # Five hours pass (the server's clock, which signs and checks the tokens).
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 5 * 3600)
    table.play("6-6")

    # The phone loses its cookies: the entry is refused, and the table comes back ready.
    phone.context.clear_cookies()
    table.tap(table.tile("6-5"))
    expect(phone.locator(".notice")).to_contain_text("security token was no longer accepted")
    table.expect_unchanged()
    table.play("6-5", "W", ["W", "E"])
    table.expect_turn("Ann")
