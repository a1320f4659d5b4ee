"""A club night's round clock on a table's phone (360x720, and on its side at 740x360): it
counts down each second, the table's controls stay on screen with it, and at zero it says
the night's rule. The round's start is moved back in the database (expire_round) to reach
the limit in seconds; the test waits for what it checks, never a fixed time."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.browsing import tap
from tests.browser.test_night_board import _night_of_twos
from tests.browser.test_play_screen import all_in_view
from tests.support.chromium import LANDSCAPE, PORTRAIT
from tests.support.night_clock import expire_round, round_id_of
from tests.support.server import LiveServer

TIME_UP = "Time! This hand is the last: the higher side wins"


def test_the_clock_counts_down_and_says_time_at_zero(
    live_server: LiveServer, page_with: Any
) -> None:
    director = page_with(**PORTRAIT)
    _night, tables = _night_of_twos(director, live_server.url)
    phone = page_with(**PORTRAIT)
    phone.goto(tables[0])
    clock = phone.locator(".round-clock")
    text = clock.locator("[data-clock-text]")
    expect(text).to_have_text(re.compile(r"^Round 1 · (30:00|29:\d\d) left$"))
    expect(clock).to_have_attribute("data-round-ends", re.compile(r"\+00:00$"))
    all_in_view(phone)
    phone.set_viewport_size(LANDSCAPE["viewport"])
    all_in_view(phone)
    phone.set_viewport_size(PORTRAIT["viewport"])

    key = tables[0].rsplit("/", 1)[1]
    expire_round(live_server.app, round_id_of(live_server.app, key), 5)
    phone.reload()
    expect(text).to_have_text(re.compile(r"^Round 1 · 0:0[1-5] left$"))
    first = text.inner_text()
    expect(text).not_to_have_text(first)  # a second later it shows less
    expect(clock.locator("[data-call-time]")).to_be_hidden()
    expect(text).to_have_text(TIME_UP, timeout=10_000)
    expect(clock).to_have_class(re.compile(r"\bround-clock--up\b"))
    all_in_view(phone)
    phone.set_viewport_size(LANDSCAPE["viewport"])
    all_in_view(phone)
    # The button the clock showed at zero enters the time entry: the table is swapped in
    # with one more event, still saying Time!, and no button any more.
    seq = phone.locator("#table").get_attribute("data-seq")
    tap(clock.locator("[data-call-time]"))
    phone.wait_for_function("s => document.querySelector('#table').dataset.seq !== s", arg=seq)
    expect(phone.locator("[data-clock-text]")).to_have_text(TIME_UP)
    expect(phone.locator("[data-call-time]")).to_have_count(0)
    all_in_view(phone)
