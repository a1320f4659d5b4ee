"""The score chart in Chromium: a finished game's chart open under the table, drawn inside
the screen on a 360 px phone and on a 1280 px wall screen, its lines visible, axe clean."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.browsing import import_game
from tests.browser.checks import axe_violations, explain
from tests.support.server import LiveServer

RECORD = Path(__file__).parents[1] / "data" / "sim_fives_up_3p.json"
SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 720}, "is_mobile": True, "has_touch": True},
    "wall": {"viewport": {"width": 1280, "height": 720}},
}


@pytest.mark.parametrize("screen", SCREENS)
def test_a_finished_games_chart_is_drawn_within_the_screen(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    page = page_with(**SCREENS[screen])
    url = import_game(page, live_server.url, json.loads(RECORD.read_text()))
    page.wait_for_load_state("load")  # the stylesheets too, before anything is measured
    chart = page.locator('#score-chart svg[data-chart="progression"]')
    expect(page.locator("#score-chart")).to_have_attribute("open", "")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    expect(chart.locator("polyline[data-series]")).to_have_count(3)
    box = chart.bounding_box()
    assert box is not None and box["width"] > 250
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= sizes[1] + 0.5
    assert sizes[0] <= sizes[1]
    violations = axe_violations(page)
    assert violations == [], explain(violations)
    page.goto(url + "/sheet")
    expect(page.locator('.sheet-chart svg[data-chart="progression"]')).to_be_visible()
