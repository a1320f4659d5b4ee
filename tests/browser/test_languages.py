"""The site in Svenska and Filipino in a real browser: a phone set to the language plays a few
tiles and reads the scoreboard and a refusal in it, and on a 360 px phone no button label or
score line overflows or is cut off in any of the three languages (Tagalog runs long)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Setup
from tests.browser.browsing import SCREENS, Screen, TablePage, seed_game, visit, word_problems
from tests.browser.checks import problems_on
from tests.support.chromium import PHONE
from tests.support.server import LiveServer

FITTING = [
    s
    for s in SCREENS
    if s.name
    in (
        "new game",
        "new game, house rules open",
        "mid-hand",
        "tile selected, ends highlighted",
        "refusal shown",
        "settlement form",
        "settlement shown",
        "winner",
    )
]
"""The table page, the new-game form, the settlement and the winner: where labels are short
and the phone is narrow."""


@pytest.mark.parametrize("screen", FITTING, ids=lambda s: s.name)
@pytest.mark.parametrize("language", ["en", "sv", "fil"])
def test_text_fits_a_phone_in_every_language(
    live_server: LiveServer,
    watched_page: Callable[..., Page],
    language: str,
    screen: Screen,
) -> None:
    page = watched_page({**PHONE, "service_workers": "block"}, keep_page=True)
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/language/{language}?next=/")
    visit(page, live_server.url, screen)
    assert page.locator("html").get_attribute("lang") == language
    found = [f"broken: {p}" for p in word_problems(page)]
    found += [f"for a thumb: {p}" for p in problems_on(page)]
    assert not found, f"{screen.name} in {language}:\n" + "\n".join(found)


SAID = {
    "sv-SE": ("sv", "Poängräknare för All Fives"),
    "fil-PH": ("fil", "Tagapagtala ng All Fives"),
}


@pytest.mark.parametrize("locale", list(SAID))
def test_a_phone_in_its_own_language_plays_and_reads_a_refusal(
    live_server: LiveServer, watched_page: Callable[..., Page], locale: str
) -> None:
    language, title = SAID[locale]
    page = watched_page({**PHONE, "locale": locale})
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    page.goto(seed_game(live_server, setup))
    assert page.locator("html").get_attribute("lang") == language
    assert title in page.title()
    table = TablePage(page)
    # The leader is chosen at the table, then Ann leads 5-5 (10) and Bob plays 5-0 (10).
    table.choose_leader(0)
    table.play("5-5")
    table.expect_scores(["Ann", "Bob"], [10, 0])
    table.play("5-0", "E", offered=["W", "E"])
    table.expect_scores(["Ann", "Bob"], [10, 10])
    # A tile that fits no end is refused: the rule id as it is, the reason in the language.
    table.tap(table.tile("6-6"))
    refusal = table.refusal("match")
    expect(refusal).to_be_visible()
    assert "fits no open end" not in refusal.inner_text()
    assert "6-6" in refusal.inner_text()
    table.expect_unchanged()
    expect(page.locator(f'.languages [data-language="{language}"]')).to_have_attribute(
        "aria-current", "true"
    )
