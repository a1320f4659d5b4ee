"""Accessibility: axe-core finds nothing serious on any page and in every phase of the table, in
light or dark mode and in each of the site's languages; tiles have spoken names; the layout
picture has a text equivalent naming each arm and its open end."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import ALL_TILES
from scorekeeper.rules.record import load_record
from tests.browser.browsing import SCREENS, Screen, import_game, record, visit
from tests.browser.checks import axe_violations, explain
from tests.support.referee import spoken
from tests.support.server import LiveServer


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_axe_finds_nothing_serious(
    live_server: LiveServer, looking_phone: Page, screen: Screen
) -> None:
    """In light mode and in dark mode: the phone turns to dark mode on the page it shows, as
    a phone following the time of day does, and every colour follows."""
    visit(looking_phone, live_server.url, screen)
    found, backgrounds = [], set()
    for scheme in ("light", "dark"):
        looking_phone.emulate_media(color_scheme=scheme)
        backgrounds.add(looking_phone.evaluate("getComputedStyle(document.body).backgroundColor"))
        violations = axe_violations(looking_phone)
        if violations:
            found.append(f"{screen.name}, {scheme}:\n{explain(violations)}")
    assert not found, "\n".join(found)
    assert len(backgrounds) == 2, f"{screen.name}: the page did not turn dark"


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
@pytest.mark.parametrize("language", ["sv", "fil"])
def test_axe_finds_nothing_serious_in_svenska_and_filipino(
    live_server: LiveServer, looking_phone: Page, screen: Screen, language: str
) -> None:
    """The words differ (a name that no longer starts with the visible label, a language of
    parts, a longer label cut off): axe on every page again in the page's language."""
    looking_phone.goto(f"{live_server.url}/language/{language}?next=/")
    visit(looking_phone, live_server.url, screen)
    assert looking_phone.locator("html").get_attribute("lang") == language
    violations = axe_violations(looking_phone)
    assert not violations, f"{screen.name} in {language}:\n{explain(violations)}"


def test_axe_finds_nothing_serious_on_the_desktop(live_server: LiveServer, desktop: Page) -> None:
    game = next(s for s in SCREENS if s.name == "tile selected, ends highlighted")
    visit(desktop, live_server.url, game)
    violations = axe_violations(desktop)
    assert not violations, explain(violations)


def test_tiles_have_spoken_names(live_server: LiveServer, phone: Page) -> None:
    screen = next(s for s in SCREENS if s.name == "tile selected, ends highlighted")
    visit(phone, live_server.url, screen)
    expect(phone.get_by_role("button", name="6-4, six-four, on the table")).to_be_disabled()
    expect(phone.get_by_role("button", name="5-5, double five", exact=True)).to_be_enabled()
    expect(phone.get_by_role("button", name="1-0, one-blank", exact=True)).to_be_visible()
    # The tile being played, in the prompt, and the end buttons say which tile goes where.
    expect(phone.locator(".choose-end .prompt").get_by_role("img", name="five-one")).to_be_visible()
    expect(phone.get_by_role("button", name="W shows 1: play five-one there")).to_be_visible()
    labels = phone.locator(".picker .tile-button").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    assert [label.removesuffix(", on the table") for label in labels] == [
        f"{t}, {spoken(t)}" for t in ALL_TILES
    ]


def test_the_layout_picture_has_a_text_equivalent(live_server: LiveServer, phone: Page) -> None:
    data = record("hand_first_spinner_counts")
    game = load_record(json.dumps(data))
    assert game.hand is not None
    import_game(phone, live_server.url, data)
    picture = phone.get_by_role("img", name="The table: 8 tiles, count 5")
    expect(picture).to_be_visible()
    description = picture.get_attribute("aria-describedby")
    assert description
    lines = phone.locator(f"#{description} li").all_inner_texts()
    ends = game.hand.layout.ends()
    assert len(ends) == 4
    for end in ends:
        line = next(line for line in lines if line.startswith(f"{end.name} arm:"))
        assert line.endswith(f"open end shows {end.shows}.")
    assert "W arm: six-three, double three, three-one; open end shows 1." in lines
    assert lines[0] == "Lead: double six, the spinner."
    assert lines[-1] == "Count: 5 (scores 5)."
