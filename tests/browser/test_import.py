"""Importing a record file through the import page in a real browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browsing import GAME_URL, TablePage, tap, upload_record
from tests.support.server import LiveServer

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("name", ["sim_all_fives_2p", "sim_all_fives_4p_partners_immediate"])
def test_import_a_record_file_shows_the_replayed_scores(
    live_server: LiveServer, any_page: Page, name: str
) -> None:
    expected = json.loads((DATA / f"{name}.expected.json").read_text())

    upload_record(any_page, live_server.url, DATA / f"{name}.json")
    # The record leaves the preset's house rules out: they are listed, with the values they
    # will take, before anything is stored.
    left_out = any_page.locator("[data-left-out]")
    expect(left_out).to_be_visible()
    expect(left_out.locator('[data-left-out-rule="spinners"]')).to_have_attribute(
        "data-value", "first"
    )
    tap(any_page.get_by_role("button", name="Import with these house rules"))

    expect(any_page).to_have_url(GAME_URL)
    table = TablePage(any_page)
    table.expect_scores(list(expected["scores"]), list(expected["scores"].values()))
    expect(table.table).to_have_attribute("data-phase", "over")
    winner = expected["winner"]
    ending = "win" if " & " in winner else "wins"
    expect(any_page.get_by_role("heading", name=f"{winner} {ending}!")).to_be_visible()
    expect(any_page.locator("li[data-hand]")).to_have_count(len(expected["hands"]))


def test_a_refused_record_file_names_the_rule_and_imports_nothing(
    live_server: LiveServer, any_page: Page
) -> None:
    expected = json.loads((DATA / "refused_match.expected.json").read_text())["error"]

    upload_record(any_page, live_server.url, DATA / "refused_match.json")

    refusal = any_page.locator('[role="alert"]:has([data-rule])')
    expect(refusal.locator("[data-rule]")).to_have_attribute("data-rule", expected["rule"])
    expect(refusal.locator("[data-hand]")).to_have_attribute("data-hand", str(expected["hand"]))
    expect(refusal.locator("[data-event]")).to_have_attribute("data-event", str(expected["event"]))
    expect(any_page).to_have_url(f"{live_server.url}/games/import")
    any_page.goto(live_server.url + "/")
    expect(any_page.locator("[data-game]")).to_have_count(0)
