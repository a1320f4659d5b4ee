"""Games played in a real browser by tapping tiles, ends and buttons, on a phone and on a
desktop, checked against the referee playing the same simulated game."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import Game, IllegalEntry, NewHand, Play, Setup, tile
from scorekeeper.rules.simulate import play_game, play_hand
from tests.browser.browsing import GameEntry, TablePage, seed_game, start_game
from tests.support.referee import check
from tests.support.server import LiveServer

# Seed 76 to 60 points: Bob is chosen to lead hand 1 and leads it flipped (its W and E are
# mirrored on the page); after draws and two passes it is blocked, Ann is chosen to lead
# hand 2, dominoes, and its settlement makes her the winner.
TWO_PLAYER_SEED = 76
# Seed 8: the first hand of a partnership game is led flipped, has a draw, and ends with a
# domino; its settlement begins hand 2, led by whoever dominoed.
PARTNERS_SEED = 8


def test_two_player_game_to_the_winner(live_server: LiveServer, any_page: Page) -> None:
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 60})
    game = play_game(setup, random.Random(TWO_PLAYER_SEED))
    assert game.winner is not None
    assert [hand.result for hand in game.hands] == ["blocked", "domino"]

    table = start_game(any_page, live_server.url, ["Ann", "Bob"], target=60)
    entry = GameEntry(table, setup)
    entry.enter_all(game.events)

    assert entry.shadow.scores == game.scores
    expect(table.table).to_have_attribute("data-phase", "over")
    winner = game.sides[game.winner]
    expect(any_page.get_by_role("heading", name=f"{winner} wins!")).to_be_visible()
    table.expect_scores(game.sides, game.scores)
    # The finished game is read-only: no tiles, draws or passes, only the undo.
    expect(any_page.locator("button[data-tile]")).to_have_count(0)
    expect(table.action("draw")).to_have_count(0)
    expect(table.action("pass")).to_have_count(0)
    expect(table.action("undo")).to_be_visible()
    expect(any_page.locator("li[data-hand]")).to_have_count(len(game.hands))


def test_four_player_partnership_hand(live_server: LiveServer, any_page: Page) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    setup = Setup.create(players, "all-fives")
    game = Game(setup)
    play_hand(game, random.Random(PARTNERS_SEED))
    assert game.hand is not None and game.hand.settlement is not None
    assert game.sides == ("Ann & Cy", "Bob & Dee")

    table = start_game(any_page, live_server.url, players, preset="all-fives", partners=True)
    expect(table.score("Ann & Cy")).to_have_text("0")
    expect(table.score("Bob & Dee")).to_have_text("0")
    entry = GameEntry(table, setup)
    entry.enter_all(game.events)

    assert entry.shadow.scores == game.scores
    assert all(game.scores), "choose a seed where both sides score"
    expect(any_page.locator("[data-settlement]")).to_be_visible()
    table.expect_scores(game.sides, game.scores)
    assert game.hand.went_out is not None
    table.expect_turn(players[game.hand.went_out])
    expect(any_page.locator("[data-seat].turn")).to_contain_text(players[game.hand.went_out])


def opening(lead: str = "5-5", reserve: int = 0) -> tuple[Setup, list[NewHand | Play]]:
    """Two players, Ann has led ``lead``: Bob is to play."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"boneyard_reserve": reserve})
    return setup, [NewHand(0), Play(0, tile(*map(int, lead.split("-"))), None)]


def test_a_tile_that_fits_no_end_is_refused_and_nothing_changes(
    live_server: LiveServer, any_page: Page
) -> None:
    setup, events = opening("6-6")
    url = seed_game(live_server, setup, events)
    any_page.goto(url)
    table = TablePage(any_page)
    table.expect_turn("Bob")
    count_line = any_page.locator("[data-count-line]")
    before = count_line.text_content()
    misfit = tile(5, 4)
    with pytest.raises(IllegalEntry) as refused:
        check(Game(setup, events), Play(1, misfit, None))
    expected = refused.value

    table.tap(table.tile(misfit))

    shown = table.refusal("match")
    expect(shown).to_be_visible()
    expect(shown).to_contain_text(expected.message)
    # The refusal stands next to the picker it refers to.
    expect(
        any_page.locator('[role="alert"]:has([data-rule]) + form:has([data-tile])')
    ).to_be_visible()
    table.expect_unchanged()
    table.expect_turn("Bob")
    table.expect_scores(setup.sides, [0, 0])
    # The tile already on the table cannot be tapped at all.
    expect(table.tile("6-6")).to_be_disabled()

    any_page.reload()
    expect(table.refusal("match")).to_have_count(0)
    table.expect_unchanged()
    table.expect_turn("Bob")
    expect(table.tile(misfit)).to_be_enabled()
    expect(count_line).to_have_text(before or "")
    expect(table.action("undo")).to_contain_text("6-6")


def test_undo_names_the_play_and_gives_the_tile_back(
    live_server: LiveServer, any_page: Page
) -> None:
    setup, events = opening("5-5")
    any_page.goto(seed_game(live_server, setup, events))
    table = TablePage(any_page)
    table.expect_scores(setup.sides, [10, 0])

    table.play("5-0", "E", offered=["W", "E"])
    table.expect_scores(setup.sides, [10, 10])
    expect(table.tile("5-0")).to_be_disabled()
    table.expect_turn("Ann")
    undo = table.action("undo")
    expect(undo).to_contain_text("Bob")
    expect(undo).to_contain_text("5-0")
    expect(undo).to_contain_text("E")

    table.undo()

    expect(any_page.get_by_role("status").filter(has_text="Undone")).to_contain_text("5-0")
    expect(table.tile("5-0")).to_be_enabled()
    table.expect_turn("Bob")
    table.expect_scores(setup.sides, [10, 0])
    expect(table.action("undo")).to_contain_text("5-5")


def test_draws_one_tile_a_tap_then_pass(live_server: LiveServer, any_page: Page) -> None:
    # Four tiles stay in the boneyard as a reserve: a pass is offered once 6 are drawn.
    setup, events = opening("5-5", reserve=4)
    any_page.goto(seed_game(live_server, setup, events))
    table = TablePage(any_page)
    drawable = Game(setup, events).drawable()
    assert drawable == 6
    held = any_page.locator('[data-held="1"]')
    expect(held).to_have_text("9")

    for left in range(drawable, 0, -1):
        expect(table.action("draw")).to_contain_text(f"{left} left")
        table.draw()
        expect(held).to_have_text(str(9 + drawable - left + 1))
        table.expect_turn("Bob")

    expect(table.action("draw")).to_have_count(0)
    expect(any_page.locator("[data-boneyard]")).to_have_attribute("data-boneyard", "4")
    expect(table.action("undo")).to_contain_text("drawing")
    table.pass_turn()
    table.expect_turn("Ann")
    expect(table.action("undo")).to_contain_text("pass")
