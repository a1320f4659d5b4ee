"""A Sniff hand played through the phone screens (docs/rules.md sections 6 and 8d): pagat's
example, 4-4, 6-4, 1-4, counts the spinner's empty ends and scores 15; the hand goes on to
Ann's domino and she collects Bob's pips in points. Upright and on its side, with and without
JavaScript; every tap is on a control already on the screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from scorekeeper.rules.record import load_record
from tests.browser.browsing import GameEntry, TablePage, start_game
from tests.support.chromium import LANDSCAPE, PORTRAIT
from tests.support.server import LiveServer

DATA = Path(__file__).resolve().parents[1] / "data"
PAGAT = DATA / "hand_sniff_pagat.json"
SCREENS = {
    "upright": PORTRAIT,
    "on its side": LANDSCAPE,
    "without JavaScript": {**PORTRAIT, "java_script_enabled": False},
    "on its side without JavaScript": {**LANDSCAPE, "java_script_enabled": False},
}


class OnScreen(TablePage):
    """A table whose every tap is on a control the phone shows without scrolling."""

    def tap(self, target: Locator) -> None:
        expect(target).to_be_in_viewport()
        super().tap(target)


@pytest.mark.parametrize("screen", SCREENS)
def test_a_sniff_hand_on_the_phone(live_server: LiveServer, page_with: Any, screen: str) -> None:
    page = page_with(**SCREENS[screen])
    game = load_record(PAGAT.read_text("utf-8"))
    expected = json.loads(PAGAT.with_name("hand_sniff_pagat.expected.json").read_text("utf-8"))
    start_game(page, live_server.url, ["Ann", "Bob"], preset="sniff")
    table = OnScreen(page)
    entry = GameEntry(table, game.setup)

    # The lead and two plays: 4-4, 6-4 on W, 1-4 on E. Both sides of the spinner are covered,
    # so its empty N and S count 4 each: 6 + 1 + 4 + 4 = 15 for Ann.
    entry.enter_all(game.events[:4])
    expect(page.locator("[data-count-line]").first).to_contain_text("W 6 + E 1 + N 4 + S 4 = 15")
    table.expect_scores(["Ann", "Bob"], [15, 0])

    # The rest of the hand to Ann's domino; she collects Bob's 6-5, 11 -> 10, kept in points.
    entry.enter_all(game.events[4:])
    table.expect_scores(["Ann", "Bob"], list(expected["scores"].values()))
    assert entry.shadow.scores == [35, 30]
