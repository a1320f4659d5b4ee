"""Notices take a place of their own (issue 21): "Not saved", the stale page's notice and
"Turn the lead round" show at the top of the stage, whose picture gives them room. The tray and
Draw / Undo under the thumb do not move by more than 4 px, upright or on its side."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import NewHand, Play, Setup, tile
from tests.browser.browsing import TablePage, seed_game, word_problems
from tests.browser.checks import axe_violations, explain
from tests.support.chromium import LANDSCAPE, PORTRAIT, open_and_settle
from tests.support.server import LiveServer

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}
STILL_PX = 4


def thumb_zone(page: Page) -> list[tuple[float, float]]:
    """Where the tray's first and last tiles and the bottom row (Draw / Pass / Undo) are."""
    places = []
    for target in (
        page.locator("#table .tiles > *").first,
        page.locator("#table .tiles > *").last,
        page.locator("#table .actions"),
    ):
        box = target.bounding_box()
        assert box is not None
        places.append((box["x"], box["y"]))
    return places


def assert_still(before: list[tuple[float, float]], after: list[tuple[float, float]]) -> None:
    for (x0, y0), (x1, y1) in zip(before, after, strict=True):
        assert abs(x1 - x0) <= STILL_PX and abs(y1 - y0) <= STILL_PX, (before, after)


def two_players(server: LiveServer, events: list[Any]) -> str:
    return seed_game(server, Setup.create(["Ann", "Bob"], "all-fives"), events)


def ann_to_lead(server: LiveServer, page_with: Any, screen: str) -> tuple[Page, TablePage]:
    """A phone on a game of two, Ann to lead hand 1: any tile is a legal lead."""
    page = page_with(**SCREENS[screen])
    open_and_settle(page, two_players(server, [NewHand(0)]))
    return page, TablePage(page)


@pytest.mark.parametrize("screen", SCREENS)
def test_not_saved_names_the_entry_and_moves_nothing(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    page, table = ann_to_lead(live_server, page_with, screen)
    before = thumb_zone(page)
    page.route("**/play", lambda route: route.abort())

    table.tap(table.tile("6-4"))

    notice = page.locator("[data-not-saved]")
    expect(notice).to_contain_text("Not saved: Ann's lead 6-4.")
    expect(page.locator("[data-not-saved] [data-send-again]")).to_be_in_viewport(ratio=1)
    assert_still(before, thumb_zone(page))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_stale_notice_moves_nothing(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    url = two_players(live_server, [NewHand(0), Play(0, tile(5, 5))])
    page, other = page_with(**SCREENS[screen]), page_with(**PORTRAIT)
    open_and_settle(page, url)
    # This phone stops following (as if asleep), then the other one draws.
    page.evaluate("() => document.getElementById('live').remove()")
    open_and_settle(other, url)
    TablePage(other).draw()
    table = TablePage(page)
    before = thumb_zone(page)

    table.tap(table.action("draw"))

    expect(page.locator(".notice-stale")).to_be_visible()
    expect(page.locator(".notice-stale")).to_be_in_viewport(ratio=1)
    assert_still(before, thumb_zone(page))


@pytest.mark.parametrize("screen", SCREENS)
def test_turn_the_lead_round_moves_nothing(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    page, table = ann_to_lead(live_server, page_with, screen)
    before = thumb_zone(page)

    table.play("6-4")

    turn = page.locator('[data-action="turn-lead"]')
    expect(turn).to_be_visible()
    expect(turn).to_be_in_viewport(ratio=1)
    assert_still(before, thumb_zone(page))


def annabelle_to_play(server: LiveServer, page: Page, language: str) -> TablePage:
    """A phone in ``language`` on a game of two, Annabelle to play after Bob's 6-0 on W: the
    count line shows under the picture."""
    setup = Setup.create(["Annabelle", "Bob"], "all-fives")
    url = seed_game(server, setup, [NewHand(0), Play(0, tile(6, 4)), Play(1, tile(6, 0))])
    page.goto(f"{server.url}/language/{language}?next=/")
    open_and_settle(page, url)
    return TablePage(page)


@pytest.mark.parametrize(
    ("screen", "language"),
    [(screen, language) for screen in SCREENS for language in ("en", "sv", "fil")],
)
def test_not_saved_shows_whole(
    live_server: LiveServer, page_with: Any, screen: str, language: str
) -> None:
    """Every line of the notice shows in the room above the picture (nothing cut off at its
    foot, nothing to scroll inside it) and the tile's name is not split across two lines,
    in each language, upright and on its side."""
    page = page_with(**SCREENS[screen])
    table = annabelle_to_play(live_server, page, language)
    page.route("**/play", lambda route: route.abort())

    table.tap(table.tile("4-0"))

    notice = page.locator("[data-not-saved]")
    expect(notice).to_contain_text("4-0")
    expect(page.locator("[data-not-saved] [data-send-again]")).to_be_in_viewport(ratio=1)
    news = page.locator(".stage > .news")
    assert word_problems(page, within="[data-not-saved]") == []
    assert news.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the notice scrolls"
    violations = axe_violations(page)
    assert violations == [], explain(violations)
    # A second tap, not sent: its line too.
    table.tap(table.tile("5-0"))
    held = page.locator("[data-not-saved] [data-not-sent]")
    expect(held).to_contain_text("5-0")
    expect(held).to_be_in_viewport(ratio=1)
    assert word_problems(page, within="[data-not-saved]") == []
    assert news.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the notice scrolls"


def test_a_tap_while_an_entry_waits_is_said_not_sent(
    live_server: LiveServer, page_with: Any
) -> None:
    """Offline, Annabelle's 4-0 is not saved; a tap on 5-0 then sends nothing (it would be
    refused as stale once the first goes) and the notice says so, naming it, in view."""
    page = page_with(**PORTRAIT)
    table = annabelle_to_play(live_server, page, "en")
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.url) if request.method == "POST" else None
    )
    page.route("**/play", lambda route: route.abort())
    table.tap(table.tile("4-0"))
    expect(page.locator("[data-not-saved]")).to_contain_text("Not saved: Annabelle's 4-0")
    held = page.locator("[data-not-saved] [data-not-sent]")
    expect(held).to_be_hidden()
    tried = len(sent)

    table.tap(table.tile("5-0"))

    expect(held).to_have_text("Not sent either: Annabelle's 5-0.")
    expect(held).to_be_in_viewport(ratio=1)
    assert len(sent) == tried, "the second tap was sent"
    table.expect_unchanged()
    assert word_problems(page, within="[data-not-saved]") == []
