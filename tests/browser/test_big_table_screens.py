"""Big tables on a phone (issue 38): the settled card of 6 and 8 players read whole upright
(360x720) and on its side (740x360), with the next entry still on the screen; what a
settlement takes off and from whom; a tie past the target; the new-game form's target, which
follows the number of players."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Game, Settle, Setup
from scorekeeper.rules.simulate import play_game, play_hand
from tests.browser.browsing import TablePage, seed_game, tap, word_problems
from tests.browser.checks import axe_violations, explain
from tests.browser.test_big_tables import EIGHT, SCREENS, SETTLED, outside_screen, pips
from tests.rules.helpers import duo_domino, game_of
from tests.support.chromium import PORTRAIT, open_and_settle
from tests.support.server import LiveServer


def ending(players: int, result: str, preset: str = "all-fives") -> tuple[Setup, Game]:
    """The first simulated hand of ``players`` with a double-twelve set that ends ``result``
    and leaves the game going, settled."""
    setup = Setup.create(EIGHT[:players], preset, {"set": "double-twelve"})
    for seed in range(300):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        if game.hand is not None and game.hand.result == result and game.winner is None:
            return setup, game
    raise AssertionError(f"no simulated hand ends {result}")


def card_problems(page: Page) -> list[str]:
    """What keeps the settled card from being read whole: a line off the screen, a word
    broken or cut off, the card scrolling inside itself."""
    card = page.locator("[data-settlement]")
    expect(card).to_be_visible()
    page.evaluate(SETTLED)
    found = [f"off the screen: {where}" for where in outside_screen(card.locator("li, h2"))]
    found += word_problems(page, within="[data-settlement]")
    if card.evaluate("e => e.scrollHeight > e.clientHeight + 1"):
        found.append("the card scrolls inside itself")
    return found


def settle_by_totals(server: LiveServer, page: Page, setup: Setup, game: Game) -> None:
    """Open the hand's settlement and enter each player's pip total, as typed."""
    at = next(i for i, event in enumerate(game.events) if isinstance(event, Settle))
    settle = game.events[at]
    assert isinstance(settle, Settle)
    open_and_settle(page, seed_game(server, setup, game.events[:at]))
    for seat, held in settle.remaining.items():
        page.locator(f"input[name='held-{seat}']").fill(str(pips(held)))
    table = TablePage(page)
    tap(page.locator("#hand-over .settle-form > button[type=submit]"))
    # After a domino the next hand begins at once, who dominoed to lead it.
    assert game.hand is not None
    table.entered(2 if game.hand.result == "domino" else 1)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    ("players", "result", "preset"),
    [
        (6, "domino", "all-fives"),
        (8, "domino", "all-fives"),
        (8, "domino", "fives-up"),
        (8, "blocked", "all-fives"),
    ],
)
def test_the_settled_card_of_a_big_table_is_read_whole(
    live_server: LiveServer,
    page_with: Any,
    screen: str,
    players: int,
    result: str,
    preset: str,
) -> None:
    setup, game = ending(players, result, preset)
    page = page_with(**SCREENS[screen])
    settle_by_totals(live_server, page, setup, game)
    card = page.locator("[data-settlement]")
    expect(card.locator("h2")).to_contain_text("Hand 1 settled")
    assert card_problems(page) == []
    assert page.evaluate("scrollY") == 0
    settled = game.hands[0].settlement
    assert settled is not None
    # Each player is on the card with what their side gained or lost.
    for seat, name in enumerate(setup.players):
        change = settled.changes[seat]
        if change:
            expect(card).to_contain_text(f"{name} {change:+d}")
        else:
            expect(card).to_contain_text(name)
    # Why? and Adjust are on the card, whole, and the next entry's controls on the screen.
    why = card.get_by_role("link", name="Why? The settlement step by step")
    assert not outside_screen(why)
    if result == "domino":
        expect(page.locator("#table")).to_have_attribute("data-phase", "play")
        assert not outside_screen(page.locator("[data-adjust-link]"))
        numbers = page.locator(".pick-numbers button")
        assert not outside_screen(numbers), outside_screen(numbers)
        # A number tapped: its tiles show, on the screen, and the card stays whole.
        tap(numbers.last)
        tiles = page.locator(".picker--numbers .tile-button--named")
        expect(tiles.first).to_be_visible()
        assert not outside_screen(tiles), outside_screen(tiles)
        assert not outside_screen(page.locator("#table .actions button"))
        assert card_problems(page) == []
    else:
        expect(page.locator("#table")).to_have_attribute("data-phase", "lead")
        lead = page.locator(".lead summary, .lead button[data-lead]")
        assert not outside_screen(lead), outside_screen(lead)


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("language", ["en", "sv", "fil"])
@pytest.mark.parametrize("result", ["domino", "blocked"])
def test_the_settled_card_of_eight_is_read_whole_in_each_language(
    live_server: LiveServer, page_with: Any, screen: str, language: str, result: str
) -> None:
    """Filipino's and Svenska's longer words too: every line of the card of eight on the
    screen, no word broken, nothing scrolled inside it."""
    setup, game = ending(8, result)
    page = page_with(**SCREENS[screen])
    page.goto(f"{live_server.url}/language/{language}?next=/")
    settle_by_totals(live_server, page, setup, game)
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert card_problems(page) == []
    violations = axe_violations(page)
    assert violations == [], explain(violations)


@pytest.mark.parametrize("players", [2, 4])
def test_the_settled_card_names_the_side_each_deduction_comes_off(
    live_server: LiveServer, page_with: Any, players: int
) -> None:
    setup = Setup.create(EIGHT[:players], "all-fives", {})
    for seed in range(100):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        if game.hand is not None and game.winner is None and game.hand.result == "blocked":
            break
    page = page_with(**PORTRAIT)
    open_and_settle(page, seed_game(live_server, setup, game.events))
    card = page.locator("[data-settlement]")
    settled = game.hands[0].settlement
    assert settled is not None
    for seat, name in enumerate(setup.players):
        side = game.sides[game.side_of(seat)]
        rounded = settled.rounded[seat]
        expect(card).to_contain_text(
            f"{name} holds {settled.pips[seat]}, rounds to {rounded}: "
            f"{-rounded if rounded else 0} for {side}"
        )
    assert card_problems(page) == []


def test_a_tie_past_the_target_says_why_play_goes_on(
    live_server: LiveServer, page_with: Any
) -> None:
    """Ann and Bob both end the hand on 15, a target of 15: the card says another hand parts
    them, and the status line names the leader already fixed (Ann dominoed)."""
    game = game_of(duo_domino({"Bob": 12}, options={"target": 15}))
    assert game.winner is None and game.scores == [15, 15]
    page = page_with(**PORTRAIT)
    open_and_settle(page, seed_game(live_server, game.setup, game.events))
    table = page.locator("#table")
    expect(table).to_have_attribute("data-phase", "lead")
    expect(page.locator("[data-tie-note]")).to_have_text(
        "Ann and Bob are tied on 15, at or past the target of 15: the highest side wins, so "
        "another hand is played."
    )
    expect(page.locator(".status")).to_contain_text("Hand 2: Ann leads")
    expect(page.locator(".status")).not_to_contain_text("choose the leader")
    assert card_problems(page) == []


# -- the new-game form's target ------------------------------------------------------------------


def test_the_target_follows_the_names_typed(live_server: LiveServer, page_with: Any) -> None:
    page = page_with(**PORTRAIT)
    page.goto(live_server.url + "/games/new")
    target = page.locator('input[name="target"]')
    expect(target).to_have_value("250")
    page.locator('select[name="set"]').select_option("double-twelve")
    for seat, name in enumerate(EIGHT[:2], 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    expect(target).to_have_value("250")
    for seat, name in enumerate(EIGHT[2:6], 3):
        page.locator(f'input[name="player{seat}"]').fill(name)
    expect(target).to_have_value("200")
    # Back to two names: 250 again; a target typed by hand is kept.
    for seat in range(3, 7):
        page.locator(f'input[name="player{seat}"]').fill("")
    expect(target).to_have_value("250")
    for seat, name in enumerate(EIGHT[2:6], 3):
        page.locator(f'input[name="player{seat}"]').fill(name)
    expect(target).to_have_value("200")
    tap(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#table .status .target")).to_have_text("to 200")
    # Six names and 250 typed by hand: the game is played to 250.
    page.goto(live_server.url + "/games/new")
    page.locator('select[name="set"]').select_option("double-twelve")
    for seat, name in enumerate(EIGHT[:6], 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    expect(target).to_have_value("200")
    target.fill("250")
    tap(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#table .status .target")).to_have_text("to 250")


def test_without_javascript_a_target_left_alone_follows_the_players(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT, java_script_enabled=False)
    page.goto(live_server.url + "/games/new")
    expect(page.locator('input[name="target"]')).to_have_value("250")
    expect(page.locator(".field:has(input[name=target]) .hint")).to_have_text(
        "250 with 2 players, 200 with 3 or more: a target left at its default follows the players."
    )
    page.locator('select[name="set"]').select_option("double-twelve")
    for seat, name in enumerate(EIGHT[:6], 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    tap(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#table .status .target")).to_have_text("to 200")


# -- settling by tapping each player's tiles -------------------------------------------------------


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("players", [4, 6, 8])
def test_settle_stays_on_the_screen_while_each_players_tiles_are_tapped(
    live_server: LiveServer, page_with: Any, screen: str, players: int
) -> None:
    """Every tile each player still holds tapped on their tray (a larger set's by its higher
    number first): after every tap Settle is whole on the screen, to be tapped without a
    scroll, and it settles the hand as tapped."""
    options = {"set": "double-twelve"} if players > 4 else {}
    setup = Setup.create(EIGHT[:players], "all-fives", options)
    for seed in range(300):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        if game.hand is not None and game.hand.result == "blocked" and game.winner is None:
            break
    at = next(i for i, event in enumerate(game.events) if isinstance(event, Settle))
    settle = game.events[at]
    assert isinstance(settle, Settle)
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, game.events[:at]))
    button = page.get_by_role("button", name=re.compile(r"^Settle hand 1"))
    assert not outside_screen(button)
    # A blocked hand leaves nothing in the boneyard: every tile off the table is in a hand,
    # and any share of them by the tiles each player holds adds up (a double-six hand is
    # stored as pip totals).
    hand = Game(setup, game.events[:at]).hand
    assert hand is not None
    free = [t for t in setup.rules.tile_set.tiles if t not in hand.layout.on_table]
    shares: dict[int, tuple[Any, ...]] = {}
    for seat, count in enumerate(hand.held):
        if count:
            shares[seat], free = tuple(free[:count]), free[count:]
    taps = 0
    for seat, held in shares.items():
        tray = page.locator(f'[data-held-tray="{seat}"]')
        tap(tray.locator("> summary"))
        taps += 1
        for tile in held:
            if players > 4:
                tap(tray.locator(f'label[for="held-{seat}-number-{tile.high}"]'))
                taps += 1
            tap(tray.locator(f'label.held-tile:has(input[value="{tile}"])'))
            taps += 1
            page.evaluate(SETTLED)
            assert not outside_screen(button), (seat, str(tile), outside_screen(button))
        expect(page.locator(f"input[name='held-{seat}']")).to_have_value(
            " ".join(str(tile) for tile in held)
        )
    table = TablePage(page)
    scrolled = page.evaluate("scrollY")
    tap(button)
    table.entered(1)
    print(f"{players} players, {screen}: {taps + 1} taps, page scrolled {scrolled} px by them")
    # The next screen from the top: the menu and every score in view, and the lead's choices.
    page.evaluate(SETTLED)
    expect(page.locator("#table")).to_have_attribute("data-phase", "lead")
    assert page.evaluate("scrollY") == 0
    # Upright the menu is above the screen; on its side, below it.
    header = [".site-header nav a"] if screen == "portrait" else []
    for part in (*header, "[data-side-score]", ".lead summary", "[data-settlement] > ul > li"):
        assert not outside_screen(page.locator(part)), (part, outside_screen(page.locator(part)))
    shadow = Game(setup, game.events[:at])
    shadow.push(Settle(shares))
    table.expect_scores(shadow.sides, shadow.scores)


# -- the score chart of eight -----------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_names_on_the_chart_of_eight_stand_apart(
    live_server: LiveServer, page_with: Any, seed: int
) -> None:
    """Eight lines ending close together: each name at a line's end is clear of the others."""
    setup = Setup.create(EIGHT, "all-fives", {"set": "double-twelve"})
    game = play_game(setup, random.Random(seed), max_hands=40)
    page = page_with(**PORTRAIT)
    open_and_settle(page, seed_game(live_server, setup, game.events))
    names = page.locator("#score-chart .chart-name")
    expect(names).to_have_count(8)
    boxes = names.evaluate_all(
        """all => all.map(e => { const r = e.getBoundingClientRect();
            return [e.textContent, r.left, r.top, r.right, r.bottom]; })"""
    )
    clashes = [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5 and a[2] < b[4] - 0.5 and b[2] < a[4] - 0.5
    ]
    assert clashes == []


# -- late in a hand of eight: the ends' numbers ---------------------------------------------------


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("players", [6, 8])
def test_the_ends_numbers_are_read_late_in_a_hand(
    live_server: LiveServer, page_with: Any, screen: str, players: int
) -> None:
    """The layout late in a hand of 6 or 8 would be drawn small to fit the phone (tiles 3 px
    wide upright): its tiles are drawn 16 px wide or more and the picture scrolls inside its
    box, marked so; the number of each open end is drawn at 16 px or more, and the next
    entry's controls stay on screen."""
    setup, game = ending(players, "blocked")
    plays = [i for i, event in enumerate(game.events) if type(event).__name__ == "Play"]
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, game.events[: plays[-1] + 1]))
    expect(page.locator("#table")).to_have_attribute("data-phase", "play")
    numbers = page.locator("#table .end-marker__number")
    expect(numbers.first).to_be_attached()
    page.evaluate(SETTLED)
    sizes = numbers.evaluate_all(
        """all => all.map(e => [e.textContent,
            e.getScreenCTM().a * parseFloat(e.getAttribute('font-size'))])"""
    )
    assert sizes and all(size >= 16 - 0.01 for _, size in sizes), sizes
    assert tile_widths(page) >= 16 - 0.01
    layout = page.locator("#table .layout")
    expect(layout).to_have_attribute("data-scrolls", "")
    assert layout.evaluate("e => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth")
    # The open ends in view in the box (its middle), each end's number whole in it.
    rings = layout.locator(".end-marker__ring")
    box = layout.bounding_box()
    assert box is not None
    shown = [r.bounding_box() for r in rings.all()]
    assert any(
        ring is not None
        and ring["x"] >= box["x"] - 0.5
        and ring["x"] + ring["width"] <= box["x"] + box["width"] + 0.5
        and ring["y"] >= box["y"] - 0.5
        and ring["y"] + ring["height"] <= box["y"] + box["height"] + 0.5
        for ring in shown
    ), (box, shown)
    for part in ("#table .layout", ".pick-ends button[data-end]", "#table .actions button"):
        assert not outside_screen(page.locator(part)), (part, outside_screen(page.locator(part)))
    violations = axe_violations(page)
    assert violations == [], explain(violations)


def tile_widths(page: Page) -> float:
    """How wide the table's picture draws a tile (its short side), in CSS px."""
    width: float = page.locator("#table .layout svg").evaluate("svg => svg.getScreenCTM().a * 50")
    return width
