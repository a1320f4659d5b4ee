"""Debian's Chromium, how to launch it, and the screens the tests and benchmarks open."""

from __future__ import annotations

import os
import shutil
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's Chromium, the whole browser, for the benchmarks and the screenshots: what a phone
runs. Playwright cannot download a browser of its own here."""
TEST_BROWSER = (
    os.environ.get("CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium-headless-shell"
)
"""What the browser tests drive: Debian's build of Chromium's headless shell (the package
``chromium-headless-shell``, the same Chromium without its window), which Playwright itself
uses for headless tests. The whole browser in headless mode cost about 40 % more CPU a page
(the accessibility tests: 211 s against 126 s); it is used where the shell is not installed."""
LAUNCH_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
"""Without the background-networking flags Chromium keeps trying to reach the internet."""
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 640},
    "is_mobile": True,
    "has_touch": True,
}
"""A 360x640 touch phone in portrait (browser-context options)."""
PORTRAIT: dict[str, Any] = {
    "viewport": {"width": 360, "height": 720},
    "is_mobile": True,
    "has_touch": True,
}
"""The brief's phone upright: 360x720, touch."""
LANDSCAPE: dict[str, Any] = {
    "viewport": {"width": 740, "height": 360},
    "is_mobile": True,
    "has_touch": True,
}
"""The same phone on its side: 740x360, touch."""
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
"""A 1280x800 desktop window."""
WALL: dict[str, Any] = {"viewport": {"width": 1280, "height": 720}}
"""A wall screen: 1280x720 in landscape."""


def open_and_settle(page: Any, url: str) -> None:
    """Open ``url`` in ``page`` (a Playwright page) and wait until it has loaded what it loads
    by itself: the page and everything it links, and, on a page that follows a game, its event
    stream (``#live[data-following]``, which live.js sets once the stream is open, or to
    "polling" where there is none).

    Not Playwright's "networkidle": a page following a game holds its event stream open, so
    the network is never idle."""
    page.goto(url, wait_until="load")
    if page.locator("#live").count():
        page.locator("#live[data-following]").wait_for(state="attached")
