"""The layout picture as the entry surface, on a phone: after picking a tile, its fitting ends
in the picture are buttons a finger can hit; the lead tile can be turned round."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, Route, expect

from scorekeeper.rules import Game, NewHand, Play, Setup, tile
from tests.browser.browsing import TablePage, seed_game
from tests.support.server import LiveServer

MIN_TARGET = 44
STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'"
)

# Each picture button of the picked tile, measured against the marker it lies over: its size,
# its centre and the marker's, the marker ring's width, and whether a finger at the button's
# centre would hit the button (it is in view and nothing covers it there).
TARGETS_JS = """() => [...document.querySelectorAll('.table-picture button[data-end]')].map(b => {
  const r = b.getBoundingClientRect();
  const ring = document.querySelector(
    `g.end-marker[data-end="${b.dataset.end}"] .end-marker__ring`).getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const inView = y >= 0 && y <= innerHeight && x >= 0 && x <= innerWidth;
  const hit = inView ? document.elementFromPoint(x, y) : null;
  return {end: b.dataset.end, width: r.width, height: r.height, x, y,
          ringX: ring.left + ring.width / 2, ringY: ring.top + ring.height / 2,
          ring: ring.width, onTop: hit === b};
})"""


def spinner_game(server: LiveServer) -> tuple[str, Game]:
    """Ann led 6-6, the spinner; its W arm shows 0, its E arm 3, N and S show 6. Ann to play:
    3-0 fits W and E."""
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    events = [
        NewHand(0),
        Play(0, tile(6, 6)),
        Play(1, tile(6, 1), "W"),
        Play(0, tile(1, 0), "W"),
        Play(1, tile(6, 3), "E"),
    ]
    return seed_game(server, setup, events), Game(setup, events)


def pick_three_blank(page: Page) -> TablePage:
    """Open the spinner game and pick 3-0, which fits W and E: its end is to be chosen."""
    table = TablePage(page)
    table.tap(table.tile("3-0"))
    expect(page.locator(".choose-end .end-button")).to_have_count(2)
    return table


def strict_csp(page: Page) -> list[str]:
    """Serve every page with a strict Content-Security-Policy; the violations Chromium logs."""
    refused: list[str] = []

    def with_csp(route: Route) -> None:
        if route.request.resource_type != "document":
            route.fallback()
            return
        response = route.fetch()
        headers: dict[str, Any] = {**response.headers, "content-security-policy": STRICT_CSP}
        route.fulfill(response=response, headers=headers)

    page.route("**/games/**", with_csp)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.log("
        "'CSP ' + e.violatedDirective + ' ' + e.sourceFile + ':' + e.lineNumber + ' ' + e.sample))"
    )

    def note(text: str) -> None:
        # htmx's own indicator <style> is not this feature's: base.html's htmx-config turns
        # it off ("includeIndicatorStyles": false) where the app sends its CSP.
        if text.startswith("CSP ") and not (
            text.startswith("CSP style-src-elem") and "/static/vendor/htmx-" in text
        ):
            refused.append(text)

    page.on("console", lambda m: note(m.text))
    return refused


def check_targets(page: Page, ends: list[str]) -> list[dict[str, Any]]:
    """The picture's buttons are the ends ``ends``, each 44x44 px at least and over its marker."""
    targets = page.evaluate(TARGETS_JS)
    assert [t["end"] for t in targets] == ends
    for t in targets:
        assert t["width"] >= MIN_TARGET - 0.5 and t["height"] >= MIN_TARGET - 0.5, t
        assert t["width"] >= t["ring"], t  # it covers the marker, not just its middle
        assert abs(t["x"] - t["ringX"]) < 1 and abs(t["y"] - t["ringY"]) < 1, t
    return targets


def test_tapping_the_end_in_the_picture_plays_there(live_server: LiveServer, phone: Page) -> None:
    refused = strict_csp(phone)
    url, game = spinner_game(live_server)
    assert game.fits(tile(3, 0)) == ["W", "E"]
    phone.goto(url)
    # Without a tile picked, the picture has no buttons.
    expect(phone.locator(".table-picture button")).to_have_count(0)

    table = pick_three_blank(phone)
    expect(phone.locator(".table-picture__targets")).to_be_visible()
    targets = check_targets(phone, ["W", "E"])
    # After the pick the page shows the picture's fitting ends, and the end buttons below.
    assert all(t["onTop"] for t in targets), targets
    expect(phone.locator(".choose-end .end-button").first).to_be_in_viewport()
    # The picture's buttons are for fingers: out of the Tab order and hidden from screen
    # readers, who have the end buttons below (each end is offered to them once).
    expect(phone.get_by_role("button", name="E shows 3: play three-blank there")).to_have_count(1)
    assert table.end_in_picture("E").get_attribute("tabindex") == "-1"

    table.tap(table.end_in_picture("E"))
    table.entered()
    expect(phone.locator('g.table-tile[data-tile="3-0"]')).to_have_attribute("data-arm", "E")
    expect(phone.locator(".choose-end")).to_have_count(0)
    expect(phone.locator(".table-picture button")).to_have_count(0)
    assert not refused, refused


def test_picture_buttons_stay_over_their_markers_on_every_screen(
    live_server: LiveServer, phone: Page
) -> None:
    url, _game = spinner_game(live_server)
    phone.goto(url)
    pick_three_blank(phone)
    expect(phone.locator(".table-picture__targets")).to_be_visible()
    for size in ({"width": 360, "height": 720}, {"width": 740, "height": 360}):
        phone.set_viewport_size(size)
        check_targets(phone, ["W", "E"])
    phone.set_viewport_size({"width": 1280, "height": 720})
    check_targets(phone, ["W", "E"])


def test_without_javascript_the_end_buttons_below_do_the_job(
    live_server: LiveServer, phone_no_js: Page
) -> None:
    url, _game = spinner_game(live_server)
    phone_no_js.goto(url)
    phone_no_js.locator('button[data-tile="3-0"]:not([data-end])').click()
    expect(phone_no_js.locator(".choose-end .end-button")).to_have_count(2)
    expect(phone_no_js.locator(".table-picture__targets")).to_be_hidden()
    phone_no_js.locator('.end-buttons button[data-end="W"]').click()
    expect(phone_no_js.locator('g.table-tile[data-tile="3-0"]')).to_have_attribute("data-arm", "W")


def test_a_live_update_keeps_the_picture_buttons(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    url = seed_game(live_server, setup, [NewHand(0), Play(0, tile(5, 5))])
    phone.goto(url)
    first = TablePage(phone)
    second_phone.goto(url)
    second = TablePage(second_phone)
    second.tap(second.tile("5-1"))
    expect(second_phone.locator(".table-picture__targets")).to_be_visible()

    first.draw()  # the game changes under the second phone, which keeps its picked tile
    expect(second.table).to_have_attribute("data-seq", str(first.seq))
    expect(second_phone.locator(".table-picture__targets")).to_be_visible()
    check_targets(second_phone, ["W", "E"])
    second.seq = first.seq
    second.tap(second.end_in_picture("W"))
    second.entered()
    expect(second_phone.locator('g.table-tile[data-tile="5-1"]')).to_have_attribute("data-arm", "W")


def test_the_lead_can_be_turned_round(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    refused = strict_csp(phone)
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    phone.goto(seed_game(live_server, setup, [NewHand(0)]))
    table = TablePage(phone)
    second_phone.goto(phone.locator("#watch-link").input_value())
    west = phone.locator('g.end-marker[data-end="W"]')
    watched_west = second_phone.locator('g.end-marker[data-end="W"]')

    table.play("6-4")
    expect(west).to_have_attribute("data-shows", "6")
    turn = table.action("turn-lead")
    expect(turn).to_contain_text("Turn the lead 6-4 round")
    box = turn.bounding_box()
    assert box is not None and box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET
    version = table.table.get_attribute("data-version")

    table.tap(turn)
    expect(table.table).not_to_have_attribute("data-version", version or "")
    table.expect_unchanged()  # the same entries: the lead lies the other way round
    expect(west).to_have_attribute("data-shows", "4")
    expect(phone.locator('g.end-marker[data-end="E"]')).to_have_attribute("data-shows", "6")
    expect(phone.get_by_role("status").filter(has_text="Turned round")).to_contain_text(
        "shows 4 on W, 6 on E"
    )
    # A phone following the game sees the tile turned (the game's version changed).
    expect(watched_west).to_have_attribute("data-shows", "4")

    table.play("4-1")  # Bob's 4-1 fits the 4, now on W
    expect(phone.locator('g.table-tile[data-tile="4-1"]')).to_have_attribute("data-arm", "W")
    expect(table.action("turn-lead")).to_have_count(0)
    assert not refused, refused
