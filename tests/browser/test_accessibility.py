"""Accessibility: axe-core finds nothing of moderate impact or worse (checks.BLOCKING) on any
page and in every phase of the table, in light or dark mode and in each of the site's
languages, nor in any frame of the score flash; tiles have spoken names, a fitting tile's
saying it fits; the layout picture has a text equivalent naming each arm and its open end."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import ALL_TILES, NewHand, Play, Setup, tile
from scorekeeper.rules.record import load_record
from tests.browser.browsing import (
    SCREENS,
    Screen,
    TablePage,
    import_game,
    record,
    seed_game,
    visit,
)
from tests.browser.checks import axe_violations, contrast_in_every_frame, explain
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
    expect(phone.get_by_role("button", name="1-0, one-blank, fits", exact=True)).to_be_visible()
    # The tile being played, in the prompt, and the end buttons say which tile goes where.
    expect(phone.locator(".choose-end .prompt").get_by_role("img", name="five-one")).to_be_visible()
    expect(phone.get_by_role("button", name="W shows 1: play five-one there")).to_be_visible()
    labels = phone.locator(".picker .tile-button").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    assert [label.removesuffix(", on the table").removesuffix(", fits") for label in labels] == [
        f"{t}, {spoken(t)}" for t in ALL_TILES
    ]


@pytest.mark.parametrize(
    ("language", "fits"), [("en", "fits"), ("sv", "passar"), ("fil", "tumutugma")]
)
def test_a_fitting_tile_says_it_fits(
    live_server: LiveServer, phone: Page, language: str, fits: str
) -> None:
    """The ring drawn round a tile that fits an open end is not read out: its name says it
    ("6-4, six-four, fits"), and only the tiles the referee lets play say so."""
    data = record("hand_first_spinner_counts")
    game = load_record(json.dumps(data))
    phone.goto(f"{live_server.url}/language/{language}?next=/")
    import_game(phone, live_server.url, data)
    assert game.hand is not None
    fitting = {str(t) for t in ALL_TILES if game.fits(t) and t not in game.hand.layout.on_table}
    assert 0 < len(fitting) < 28
    names = dict(
        phone.locator(".picker .tile-button").evaluate_all(
            "buttons => buttons.map(b => [b.dataset.tile, b.getAttribute('aria-label')])"
        )
    )
    said = {t for t, name in names.items() if name.endswith(f", {fits}")}
    assert said == fitting, names
    some = sorted(fitting)[0]
    expect(phone.locator(f'.picker button[data-tile="{some}"]')).to_have_accessible_name(
        names[some]
    )
    expect(phone.locator(".picker .tile-button.fits")).to_have_count(len(fitting))


def test_a_fitting_tile_of_a_larger_set_says_it_fits(live_server: LiveServer, phone: Page) -> None:
    """A double-twelve tray shows the tiles carrying the chosen end's number: each fits."""
    screen = next(s for s in SCREENS if s.name == "larger set: an open end chosen, its tiles")
    visit(phone, live_server.url, screen)
    tiles = phone.locator(".picker .tile-button:not(:disabled)")
    assert tiles.count() > 0
    for name in tiles.evaluate_all("buttons => buttons.map(b => b.getAttribute('aria-label'))"):
        assert name.endswith(", fits"), name


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


FLASHING = ["a play scored", "a play scored nothing", "settlement form", "winner"]
"""The flash on a hand's screen (the count line lit in place, in the accent colour, or in the
card's when nothing was scored), after the hand's last tile (the count line above the
settlement form) and over the winner's scores (the flash itself)."""


@pytest.mark.parametrize("case", FLASHING)
def test_every_frame_of_the_flash_can_be_read(
    live_server: LiveServer, looking_phone: Page, case: str
) -> None:
    """Its words keep their contrast (4.5:1) from the moment it lights up until it is gone, in
    light and dark mode: a phone looked at half-way through its fade reads it too. Each frame
    is stopped and looked at in turn, so a slow machine sees the same frames as a fast one."""
    if case == "a play scored":
        setup = Setup.create(["Ann", "Bob"], "all-fives")
        looking_phone.goto(seed_game(live_server, setup, [NewHand(0), Play(0, tile(6, 4))]))
        TablePage(looking_phone).play("6-1")
        expect(looking_phone.locator("[data-last-score]")).to_have_attribute(
            "data-last-score", "+5 Bob"
        )
    else:
        name = "a play just entered, what it scored flashing" if "nothing" in case else case
        visit(looking_phone, live_server.url, next(s for s in SCREENS if s.name == name))
    found = []
    for scheme in ("light", "dark"):
        looking_phone.emulate_media(color_scheme=scheme)
        frames = contrast_in_every_frame(looking_phone, animated=case != "winner")
        found += [f"{scheme}, {f}" for f in frames]
    assert not found, f"{case}:\n" + "\n".join(found)
