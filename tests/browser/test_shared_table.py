"""Several phones on one game: the watch link follows live, a second scorekeeper keeps what
they were doing, the board on the wall, and the share panel's QR code scans."""

from __future__ import annotations

import io
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

from scorekeeper.rules import NewHand, Play, Setup, tile
from tests.browser.browsing import TablePage, import_game, record, seed_game, watch_link
from tests.support.chromium import LANDSCAPE, PORTRAIT, open_and_settle
from tests.support.server import LiveServer


def started(server: LiveServer) -> str:
    """A two-player game with Ann's lead 5-5 on the table (Bob to play); its edit URL."""
    setup = Setup.create(["Ann", "Bob"], "all-fives")
    return seed_game(server, setup, [NewHand(0), Play(0, tile(5, 5))])


def test_a_play_on_the_edit_page_shows_on_the_watch_page_by_itself(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    phone.goto(started(live_server))
    table = TablePage(phone)
    second_phone.goto(watch_link(phone))
    watcher = second_phone.locator("#table")
    expect(second_phone.locator('[data-side-score="Bob"]')).to_have_text("0")
    expect(second_phone.locator("button[data-tile]")).to_have_count(0)
    second_phone.evaluate("() => { window.notReloaded = true; }")

    table.play("5-0", "E", offered=["W", "E"])
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    expect(second_phone.locator('[data-side-score="Bob"]')).to_have_text("10")
    expect(second_phone.locator("#live-cue")).to_have_text("Updated")
    assert second_phone.evaluate("() => window.notReloaded") is True

    table.undo()
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    expect(second_phone.locator('[data-side-score="Bob"]')).to_have_text("0")


def test_an_open_score_chart_follows_the_game_on_the_watch_page(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    """A table swapped in after a change has its chart folded away and drawn only when opened;
    a watcher who has it open sees it drawn again, with the new play, after each change."""
    phone.goto(started(live_server))
    table = TablePage(phone)
    second_phone.goto(watch_link(phone))
    expect(second_phone.locator("#live[data-following=stream]")).to_have_count(1)
    chart = second_phone.locator("#score-chart")
    chart.locator("summary").click()
    bob = chart.locator('polyline[data-series="Bob"]')
    expect(bob).to_have_attribute("data-values", "0 0")

    table.play("5-0", "E", offered=["W", "E"])  # Bob scores 10
    expect(second_phone.locator("#table")).to_have_attribute("data-seq", str(table.seq))
    expect(chart).to_have_attribute("open", "")
    expect(bob).to_have_attribute("data-values", "0 0 10")
    # The scorekeeper's own answer brings the slot: the chart is drawn when opened.
    phone.locator("#score-chart summary").click()
    expect(phone.locator('#score-chart polyline[data-series="Bob"]')).to_have_attribute(
        "data-values", "0 0 10"
    )


POLL_BEATS = """
window.pollBeats = {held: 0, sent: 0};
window.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt && event.detail.elt.id === "live") {
    window.pollBeats[event.defaultPrevented ? "held" : "sent"] += 1;
  }
});
"""
"""Counts the beats of a page's poller (``#live``, every 1.5 s), those live.js held back and
those sent: heard on the window, after the page's own listeners on the document."""


def test_each_new_table_is_pushed_to_the_watch_page_which_asks_for_nothing(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    """The watch page holds the game's event stream open, which brings each new table the
    moment it is stored: the page asks the server for nothing."""
    phone.goto(started(live_server))
    table = TablePage(phone)
    second_phone.add_init_script(POLL_BEATS)
    second_phone.goto(watch_link(phone))
    expect(second_phone.locator("#live[data-following=stream]")).to_have_count(1)
    asked: list[int] = []
    second_phone.on("response", lambda r: asked.append(r.status) if "/live" in r.url else None)
    second_phone.evaluate("() => { window.pollBeats = {held: 0, sent: 0}; }")
    # Two beats of the polling it no longer needs, each held back.
    second_phone.wait_for_function("() => window.pollBeats.held >= 2")
    watcher = second_phone.locator("#table")

    table.play("5-0", "E", offered=["W", "E"])
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    table.draw()
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    table.undo()
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    expect(second_phone.locator('[data-side-score="Bob"]')).to_have_text("10")
    expect(second_phone.locator("#live-cue")).to_have_text("Updated")
    assert asked == []
    assert second_phone.evaluate("() => window.pollBeats.sent") == 0


@pytest.mark.parametrize("screen", ["portrait", "landscape"])
def test_the_updated_cue_covers_nothing_by_the_thumb_and_moves_nothing(
    live_server: LiveServer, phone: Page, page_with: Any, screen: str
) -> None:
    url = started(live_server)
    phone.goto(url)
    first = TablePage(phone)
    second_phone = page_with(**(PORTRAIT if screen == "portrait" else LANDSCAPE))
    open_and_settle(second_phone, url)
    second = TablePage(second_phone)
    thumb = [second.action("undo"), second.tile("6-6"), second.tile("0-0")]
    before = [place.bounding_box() for place in thumb]

    first.draw()  # the game changes under the second phone
    expect(second.table).to_have_attribute("data-seq", str(first.seq))
    cue = second_phone.locator("#live-cue.live-cue--on")
    expect(cue).to_be_visible()
    for place, was in zip(thumb, before, strict=True):
        now = place.bounding_box()
        assert now and was and abs(now["y"] - was["y"]) <= 4, (was, now)
    # It lies over nothing the table needs: the tray, Draw / Undo, whose turn it is.
    shown = cue.bounding_box()
    assert shown
    for needed in (".picker", ".actions", ".status"):
        box = second_phone.locator(needed).bounding_box()
        assert box
        apart = (
            shown["x"] + shown["width"] <= box["x"]
            or shown["x"] >= box["x"] + box["width"]
            or shown["y"] + shown["height"] <= box["y"]
            or shown["y"] >= box["y"] + box["height"]
        )
        assert apart, f"the cue lies over {needed}: {shown} {box}"


def test_a_second_scorekeeper_keeps_a_picked_tile_and_the_scroll_position(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    url = started(live_server)
    phone.goto(url)
    first = TablePage(phone)
    second_phone.goto(url)
    second = TablePage(second_phone)
    # The second phone picks 5-1, which fits W and E: it waits for the end to be tapped.
    second.tap(second.tile("5-1"))
    expect(second_phone.locator(".choose-end .end-button")).to_have_count(2)
    second_phone.evaluate("() => window.scrollTo(0, 400)")
    scrolled = second_phone.evaluate("() => window.scrollY")
    assert scrolled > 0

    first.draw()  # Bob draws on the first phone: the game changes under the second one.
    expect(second.table).to_have_attribute("data-seq", str(first.seq))
    expect(second_phone.locator("#live-cue")).to_have_text("Updated")
    expect(second_phone.locator(".choose-end input[name=tile]")).to_have_value("5-1")
    assert abs(second_phone.evaluate("() => window.scrollY") - scrolled) <= 2
    # The picked tile is played from the updated page, with the seq it now carries.
    second.seq = first.seq
    second.tap(second_phone.locator('.choose-end button[data-end="E"]').first)
    second.entered()
    expect(phone.locator("#table")).to_have_attribute("data-seq", str(second.seq))


def test_a_live_update_keeps_ticked_held_tiles_and_typed_pips(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    """A scorekeeper half-way through the settlement form keeps the tiles ticked and the pips
    typed when the game changes under them. The change: the other phone undoes the last play
    and redoes it (the same settlement again, at a newer version) while this page's polls are
    held, as when a phone sleeps through an undo and its redo."""
    data = record("hand_seven_five_two_hands", hands=1, drop_last=1)
    # This phone follows by polling (its stream refused, as by a server that cannot hold
    # one open), so that its polls can be held.
    phone.route("**/changes", lambda route: route.fulfill(status=204))
    url = import_game(phone, live_server.url, data)
    mine = TablePage(phone)
    mine.play("5-0")  # Ann plays her last tile: the settlement form (Bob and Cy still hold)
    expect(phone.locator(".settle-form")).to_be_visible()
    second_phone.goto(url)
    other = TablePage(second_phone)
    expect(second_phone.locator(".settle-form")).to_be_visible()

    mine.tap(phone.locator('[data-held-tray="2"] > summary'))
    mine.tap(phone.locator('[data-held-tray="2"] label.held-tile:has(input[value="4-3"])'))
    ticked = phone.locator('input[name="tiles-2"][value="4-3"]')
    expect(ticked).to_be_checked()
    phone.locator('input[name="held-1"]').fill("12")

    phone.route("**/live", lambda route: route.fulfill(status=304))
    with phone.expect_request("**/live"):
        pass  # from now on this page's polls see nothing new
    version = int(mine.table.get_attribute("data-version") or "")
    other.undo()
    expect(second_phone.locator(".settle-form")).to_have_count(0)
    other.tap(other.action("redo"))
    other.entered()
    expect(second_phone.locator(".settle-form")).to_be_visible()
    newer = int(other.table.get_attribute("data-version") or "")
    assert newer == version + 2
    phone.unroute("**/live")

    expect(mine.table).to_have_attribute("data-version", str(newer))
    expect(phone.locator("#live-cue")).to_have_text("Updated")
    expect(ticked).to_be_checked()
    expect(phone.locator('input[name="held-2"]')).to_have_value("4-3")
    expect(phone.locator('input[name="held-1"]')).to_have_value("12")
    expect(phone.locator('[data-held-tray="2"]')).to_have_attribute("open", "")


def test_without_javascript_the_watch_page_offers_a_refresh_link(
    live_server: LiveServer, phone: Page, phone_no_js: Page
) -> None:
    phone.goto(started(live_server))
    table = TablePage(phone)
    watch = watch_link(phone)
    opened = phone_no_js.goto(watch)
    assert opened is not None
    watcher = phone_no_js.locator("#table")
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    expect(phone_no_js.locator('[data-side-score="Bob"]')).to_have_text("0")
    refresh = phone_no_js.get_by_role("link", name="Refresh")
    expect(refresh).to_be_visible()
    assert refresh.get_attribute("href") == watch.removeprefix(live_server.url)

    table.play("5-0", "E", offered=["W", "E"])  # entered on the edit page, another phone
    # Without JavaScript nothing polls, and the page asks for no reload (no refresh line in its
    # head or its headers): it stays as it was until Refresh is tapped.
    assert "refresh" not in {name.lower() for name in opened.headers}
    expect(phone_no_js.locator('meta[http-equiv="refresh" i]')).to_have_count(0)
    expect(watcher).to_have_attribute("data-seq", str(table.seq - 1))
    with phone_no_js.expect_navigation(url=watch):
        refresh.click()
    expect(watcher).to_have_attribute("data-seq", str(table.seq))
    expect(phone_no_js.locator('[data-side-score="Bob"]')).to_have_text("10")
    expect(phone_no_js.get_by_role("link", name="Refresh")).to_be_visible()


def test_an_entry_from_a_page_that_fell_behind_is_refused_as_stale(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    url = started(live_server)
    phone.goto(url)
    second_phone.goto(url)
    # The second phone stops following (as if asleep), then the first one plays.
    second_phone.evaluate("() => document.getElementById('live').remove()")
    first = TablePage(phone)
    first.play("5-0", "E", offered=["W", "E"])
    second = TablePage(second_phone)
    second.tap(second.action("draw"))
    expect(second_phone.locator(".notice-stale")).to_be_visible()
    expect(second.table).to_have_attribute("data-seq", str(first.seq))


def test_the_board_on_a_wall_screen_follows_the_game(
    live_server: LiveServer, phone: Page, wall: Page
) -> None:
    phone.goto(started(live_server))
    table = TablePage(phone)
    wall.goto(watch_link(phone) + "/board")
    ann = wall.locator('[data-side-score="Ann"]')
    expect(ann).to_have_text("10")
    expect(wall.locator("[data-turn]")).to_have_text("Bob to play")
    # Readable from three metres: the scores are large, and everything fits the screen.
    assert float(ann.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 96
    assert wall.evaluate("() => document.documentElement.scrollWidth") <= 1280
    for selector in ('[data-side-score="Bob"]', "[data-turn]", ".board-target", "svg"):
        box = wall.locator(selector).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, selector

    table.play("5-0", "E", offered=["W", "E"])
    expect(wall.locator('[data-side-score="Bob"]')).to_have_text("10")
    expect(wall.locator("[data-last-points]")).to_have_text("+10")
    expect(wall.locator("[data-turn]")).to_have_text("Ann to play")


def test_the_board_fits_a_phone_too(live_server: LiveServer, phone: Page) -> None:
    phone.goto(started(live_server))
    phone.goto(watch_link(phone) + "/board")
    expect(phone.locator('[data-side-score="Ann"]')).to_be_visible()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360


def test_the_watch_qr_code_scans_to_the_watch_link(live_server: LiveServer, phone: Page) -> None:
    phone.goto(started(live_server))
    phone.locator("#share > summary").click()
    code = phone.locator('[data-qr="watch"] svg')
    expect(code).to_be_visible()
    box = code.bounding_box()
    assert box is not None and box["width"] >= 200, "too small to scan across a table"
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(code.screenshot())))
    assert [result.text for result in found] == [watch_link(phone)]
    assert "/watch/" in watch_link(phone)
    # The edit link's code stays folded away until asked for.
    expect(phone.locator('[data-qr="edit"] svg')).to_be_hidden()
    phone.get_by_text("Show the edit link's QR code").click()
    edit = phone.locator('[data-qr="edit"] svg')
    expect(edit).to_be_visible()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(edit.screenshot())))
    assert [result.text for result in found] == [phone.url]


def test_the_copy_button_copies_the_watch_link(live_server: LiveServer, desktop: Page) -> None:
    desktop.context.grant_permissions(["clipboard-read", "clipboard-write"])
    desktop.goto(started(live_server))
    desktop.locator("#share > summary").click()
    desktop.locator('button[data-copy="watch-link"]').click()
    expect(desktop.locator("#share .copied")).to_contain_text("Copied")
    assert desktop.evaluate("() => navigator.clipboard.readText()") == watch_link(desktop)


def test_my_games_lists_what_this_phone_opened_and_forgets_on_request(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    phone.goto(started(live_server))
    watch = watch_link(phone)
    second_phone.goto(live_server.url + "/")
    expect(second_phone.locator(".my-game")).to_have_count(0)
    second_phone.goto(watch)
    second_phone.goto(live_server.url + "/")
    expect(second_phone.locator(".my-game")).to_have_count(1)
    second_phone.locator(".my-game a").click()
    expect(second_phone).to_have_url(watch)
    second_phone.goto(live_server.url + "/")
    second_phone.locator(".forget-button").click()
    expect(second_phone.locator(".my-game")).to_have_count(0)
    phone.goto(live_server.url + "/")
    expect(phone.locator(".my-game")).to_have_count(1)


def test_a_deleted_game_stops_its_watchers_polling(
    live_server: LiveServer, phone: Page, second_phone: Page
) -> None:
    """A phone still on a deleted game says so once and stops asking: its "no such game"
    answers would otherwise count, every 1.5 s, against the limit on unknown links that the
    whole house or club (one address) shares, and soon lock every table out."""
    phone.goto(started(live_server))
    second_phone.goto(watch_link(phone))
    polls: list[int] = []
    second_phone.on(
        "response", lambda r: polls.append(r.status) if r.url.endswith("/live") else None
    )
    # The watch page follows the game (its stream open, or polling).
    expect(second_phone.locator("#live[data-following]")).to_have_count(1)

    phone.locator("[data-delete-link]").first.click()
    phone.locator("button[data-delete]").click()
    expect(phone.locator(".deleted-game")).to_have_count(1)
    expect(second_phone.locator("#alerts")).to_contain_text("There is no game at this link")
    # The poller is gone from the page (htmx polls no element that left it), its stream
    # closed: nothing is left to ask again.
    expect(second_phone.locator("#live")).to_have_count(0)
    assert second_phone.locator("#live[data-following]").count() == 0
    assert polls.count(404) == 1, polls
