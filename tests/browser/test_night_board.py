"""The night's board in Chromium: the director follows round 1 on a 360 px phone and the room's
wall at 1280 x 720, while two tables play on their own phones; each board follows every entry
live, without a reload, and ends on each table's latest state; the standings move when a game
ends; both boards fit and are axe clean."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.browsing import tap
from tests.browser.test_clubs import check_fits, create_club
from tests.support.chromium import PORTRAIT, WALL
from tests.support.server import LiveServer

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def _night_of_twos(page: Page, base: str) -> tuple[str, list[str]]:
    """A night of four in tables of two, round 1 started: its page, the tables' game links."""
    club = create_club(page, base, "Board club")
    page.goto(club + "/players")
    for name in PLAYERS:
        page.locator("#add-player").fill(name)
        tap(page.get_by_role("button", name="Add", exact=True))
        expect(page.locator(".notice")).to_contain_text(f"{name} joined the roster")
    page.goto(club + "/nights/new")
    for name in PLAYERS:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("2: head to head, paired Swiss by standing").check()
    page.locator('input[name="target"]').fill("10")
    immediate = page.locator('input[name="win_check"][value="immediate"]')
    if immediate.count():
        immediate.check()
    else:
        page.locator('select[name="win_check"]').select_option("immediate", force=True)
    tap(page.locator("[data-open-night]"))
    expect(page.locator("[data-night-player]")).to_have_count(4)
    night = page.url
    tap(page.locator("[data-seat-round]"))
    expect(page.locator("h1[data-round]")).to_have_text("Round 1")
    tap(page.locator("[data-start-round]"))
    expect(page.locator(".notice")).to_contain_text("2 tables are playing")
    links = page.locator("[data-table-link]")
    expect(links).to_have_count(2)
    hrefs = [base + str(links.nth(i).get_attribute("href")) for i in range(2)]
    return night, hrefs


def _play(table: Page, tile: str) -> None:
    seq = table.locator("#table").get_attribute("data-seq")
    tap(table.locator(f'.picker button[data-tile="{tile}"]'))
    table.wait_for_function("seq => document.querySelector('#table').dataset.seq !== seq", arg=seq)


def _score(board: Page, table: int, name: str) -> Any:
    return board.locator(f'#board-table-{table} [data-side-score="{name}"]')


def test_the_board_and_the_wall_follow_two_tables_live(
    live_server: LiveServer, page_with: Any
) -> None:
    director = page_with(**PORTRAIT)
    night, tables = _night_of_twos(director, live_server.url)
    director.goto(night + "/board")
    expect(director.locator(".board-card")).to_have_count(2)
    expect(director.locator("#night-board")).to_have_attribute("data-following", "stream")
    expect(director.locator("[data-clock]")).to_have_text(re.compile(r"^(30:00|29:\d\d)$"))
    check_fits(director)
    wall_url = str(director.locator("[data-board-wall]").get_attribute("href"))
    wall = page_with(**WALL)
    wall.goto(live_server.url + wall_url)
    expect(wall.locator(".board-card")).to_have_count(2)
    expect(wall.locator("a:visible, button:visible, input:visible")).to_have_count(0)
    for table in tables:  # no table's edit link, anywhere on the wall
        assert table.rsplit("/", 1)[1] not in wall.content()
    expect(wall.locator("#night-board")).to_have_attribute("data-following", "stream")
    check_fits(wall)
    # Both boards are marked, to tell a reload from a live swap.
    for board in (director, wall):
        board.evaluate("document.body.dataset.unreloaded = 'yes'")

    one, two = page_with(**PORTRAIT), page_with(**PORTRAIT)
    one.goto(tables[0])
    two.goto(tables[1])
    # A burst at both tables: table 1 leads 3-2 (5 points) and its next player adds 2-1;
    # table 2 leads 5-5 and wins at once (10, the target). The boards end on each table's
    # own scores and turn.
    _play(one, "3-2")
    _play(two, "5-5")
    _play(one, "2-1")
    for board in (director, wall):
        for number, table in ((1, one), (2, two)):
            for side in table.locator("[data-side-score]").all():
                name = str(side.get_attribute("data-side-score"))
                expect(_score(board, number, name)).to_have_text(side.inner_text())
        expect(board.locator("#board-table-2")).to_have_attribute("data-state", "over")
        expect(board.locator("#board-table-1")).to_have_attribute("data-state", "playing")
        turn = str(one.locator("[data-turn]").first.get_attribute("data-turn") or "")
        if turn:
            expect(board.locator("#board-table-1 [data-card-turn]")).to_have_attribute(
                "data-card-turn", turn
            )
        # The winner of table 2 has 2 match points in the standings beside.
        expect(
            board.locator('[data-night-standings] [data-stat="match_points"]', has_text="2")
        ).to_have_count(1)
        assert board.evaluate("document.body.dataset.unreloaded") == "yes"
    check_fits(director)
    check_fits(wall)
