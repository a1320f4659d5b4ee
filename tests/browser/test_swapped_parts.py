"""An entry swaps in only what it changed (static/js/parts.js, fragments.part): after every
entry the page shows what a fresh load of the table shows; a page that fell behind gets the
whole table; a part the page no longer holds as the answer expects makes the page load again
rather than show it out of date."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from scorekeeper.rules import ALL_TILES, Draw, Game, Play, Setup, parse_tile
from scorekeeper.rules.simulate import play_game
from tests.browser.browsing import TablePage, seed_game
from tests.support.server import LiveServer

SEEN = """() => {
  const table = document.getElementById("table");
  const words = (element) => element.textContent.replace(/\\s+/g, " ").trim();
  const all = (selector) => [...table.querySelectorAll(selector)];
  return {
    table: [table.dataset.seq, table.dataset.version, table.dataset.phase, table.className],
    scores: all("[data-side-score]").map(words),
    seats: all("[data-seat]").map(words),
    status: all(".status").map(words),
    count: all("[data-count-line]").map(words),
    layout: all(".table-picture .table-tile").map((t) => t.dataset.tile + (t.dataset.arm || "")),
    tray: all("form.picker .tile-button").map((b) =>
      [b.dataset.tile, b.disabled, b.className, b.getAttribute("aria-label")].join("|")),
    controls: all(".actions button, .undo button").map(words),
    versions: [...new Set(all("input[name=version]").map((i) => i.value))],
    hands: all("li[data-hand]").map((li) => li.dataset.hand + " " + words(li)),
    parts: all("[data-part]").map((part) => part.id + "=" + part.dataset.part),
    placeholders: document.querySelectorAll("[hx-preserve]").length,
  };
}"""
"""What the table shows a player (the scores, who is to play, the status and count lines,
the layout's tiles, the tray's tiles and their state, the controls, the hands so far), the
forms' version, each part's fingerprint, and any placeholder left on the page."""


def later_game(server: LiveServer) -> tuple[str, Game]:
    """A 2-player game in its third hand, four tiles down, with tiles to draw: its URL."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    for seed in range(100):
        game = Game(setup)
        for event in play_game(setup, random.Random(seed)).events:
            game.push(event)
            hand = game.hand
            if hand and hand.number == 3 and len(hand.plays) == 4:
                break
        if game.phase == "play" and game.drawable() > 1:
            return seed_game(server, setup, list(game.events)), game
    raise AssertionError("no simulated game fits")


def one_end(game: Game) -> str:
    """A tile not on the table that fits exactly one end."""
    hand = game.hand
    assert hand is not None
    return str(
        next(t for t in ALL_TILES if t not in hand.layout.on_table and len(game.fits(t)) == 1)
    )


def turn(game: Game) -> int:
    """The seat to play."""
    hand = game.hand
    assert hand is not None
    return hand.turn


def seen(page: Page) -> dict[str, Any]:
    """What the page's table shows (:data:`SEEN`)."""
    shown: dict[str, Any] = page.evaluate(SEEN)
    return shown


def fresh(page: Page, url: str) -> dict[str, Any]:
    """What a fresh load of the table at ``url`` shows."""
    page.goto(url)
    page.wait_for_load_state()
    return seen(page)


def test_after_every_entry_the_page_shows_what_a_fresh_load_shows(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    url, game = later_game(live_server)
    phone.goto(url)
    table = TablePage(phone)
    answers: list[str] = []

    phone.evaluate("() => { window.sameDocument = true; }")

    def entry(enter: Any) -> None:
        with phone.expect_response(lambda r: r.request.method == "POST") as answered:
            enter()
        assert phone.evaluate("() => window.sameDocument === true"), "the page loaded again"
        answers.append(answered.value.text())
        assert seen(phone) == fresh(second_phone, url)

    assert seen(phone) == fresh(second_phone, url)
    for _ in range(2):
        tile = one_end(game)
        entry(lambda tile=tile: table.play(tile))
        game.push(Play(turn(game), parse_tile(tile), None))
        entry(table.draw)
        game.push(Draw(turn(game), 1))
        entry(table.undo)
        entry(lambda: (table.tap(table.action("redo")), table.entered()))
    # Each answer left out what the page held unchanged: the finished hands always, and the
    # tray and the layout after a draw, undone or brought back.
    assert all('id="hand-summary-1"' in answer for answer in answers)
    assert all("hx-preserve" in answer for answer in answers)
    draws = answers[1::4] + answers[3::4]
    assert all('id="table-picture" data-part' in a and "tray-0-0" in a for a in draws)
    assert all(len(answer) < 20_000 for answer in draws)


def test_a_page_that_fell_behind_gets_the_whole_table(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    url, game = later_game(live_server)
    phone.goto(url)
    second_phone.goto(url)
    second_phone.evaluate("() => document.getElementById('live').remove()")  # asleep
    TablePage(phone).play(one_end(game))
    behind = TablePage(second_phone)
    with second_phone.expect_response(lambda r: r.request.method == "POST") as answered:
        behind.tap(behind.action("draw"))
    assert answered.value.status == 409
    assert "hx-preserve" not in answered.value.text()
    expect(second_phone.locator(".notice-stale")).to_be_visible()
    expect(behind.table).to_have_attribute("data-seq", str(len(game.events) + 1))
    shown = seen(second_phone)
    assert shown == fresh(phone, url)
    assert shown["placeholders"] == 0


def test_a_part_changed_on_the_page_meanwhile_loads_the_page_again(
    live_server: LiveServer, phone: Page
) -> None:
    url, game = later_game(live_server)
    phone.goto(url)
    table = TablePage(phone)
    # Something changes a part after the entry has named it, before its answer lands.
    phone.evaluate(
        """() => document.addEventListener("htmx:beforeRequest", () => {
             document.getElementById("hand-summary-1").dataset.part = "changed";
           })"""
    )
    with phone.expect_navigation():
        table.tap(table.action("draw"))
    expect(table.table).to_have_attribute("data-seq", str(len(game.events) + 1))
    assert phone.evaluate("() => document.getElementById('hand-summary-1').dataset.part") != (
        "changed"
    )
