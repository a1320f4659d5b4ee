"""The table page is light and self-contained: under 100 KB compressed, nothing fetched from
elsewhere (no CDN, no remote fonts), measured on a real browser load mid-hand."""

from __future__ import annotations

import gzip
import random
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Response

from scorekeeper.rules import Game, Setup
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import games
from tests.support.chromium import open_and_settle
from tests.support.server import LiveServer

pytestmark = (
    pytest.mark.fresh_context
)  # a page is weighed as a phone first loads it, with an empty cache

BUDGET = 100 * 1024
LOCAL = ("127.0.0.1", "localhost")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", re.IGNORECASE)
LOADING = {"link": "href", "script": "src", "img": "src", "iframe": "src", "source": "src"}


def mid_hand(seed: int = 7) -> Game:
    """A 2-player All Fives game with eight tiles down in hand 2."""
    whole = play_game(Setup.create(["Ann", "Ben"], "all-fives"), random.Random(seed))
    game = Game(whole.setup)
    for event in whole.events:
        game.push(event)
        if game.hand is not None and game.hand.number == 2 and len(game.hand.plays) == 8:
            return game
    raise AssertionError("the seeded game never reaches eight tiles in hand 2")


def load_table(server: LiveServer, page: Page) -> list[Response]:
    """Open a mid-hand table with an empty cache; every response the page received."""
    game = mid_hand()
    with server.app.app_context():
        key = games.create(game.setup, game.events).row.edit_key
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    open_and_settle(page, f"{server.url}/games/{key}")
    return responses


def compressed_size(response: Response) -> int:
    """What crossed the wire if the server compressed it, otherwise the body at gzip level 6.

    A 304 (a live poll answered "nothing changed") carries no body at all, and the event
    stream's body is the changes to come (a few bytes until then)."""
    if response.status == 304 or response.headers.get("content-type", "").startswith(
        "text/event-stream"
    ):
        return 0
    if response.headers.get("content-encoding"):
        return response.request.sizes()["responseBodySize"]
    return len(gzip.compress(response.body(), compresslevel=6, mtime=0))


def is_remote(url: str) -> bool:
    """Whether loading ``url`` (relative to the page) would leave this machine."""
    if url.startswith(("data:", "#")):
        return False
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc) and parts.hostname not in LOCAL


class AssetLinks(HTMLParser):
    """The URLs an HTML page makes the browser fetch: stylesheets, scripts, images, frames."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the fetched URL of a loading tag."""
        wanted = LOADING.get(tag)
        for name, value in attrs:
            if value and (name == wanted or name == "srcset"):
                self.urls.append(value.split()[0])


def test_table_page_mid_hand_weighs_under_100_kb_compressed(
    live_server: LiveServer, phone: Page
) -> None:
    responses = load_table(live_server, phone)
    kinds = {response.request.resource_type for response in responses}
    assert {"document", "stylesheet", "script"} <= kinds, kinds
    assert phone.locator("#table .tile-button").count() == 28
    total = sum(compressed_size(response) for response in responses)
    sizes = {urlsplit(r.url).path: compressed_size(r) for r in responses}
    assert total < BUDGET, f"{total / 1024:.1f} KB compressed: {sizes}"


def test_every_request_stays_on_this_machine(live_server: LiveServer, phone: Page) -> None:
    responses = load_table(live_server, phone)
    hosts = {urlsplit(response.url).hostname for response in responses}
    assert hosts == {"127.0.0.1"}


@pytest.mark.parametrize("kind", ["document", "stylesheet"])
def test_no_served_page_or_stylesheet_points_off_the_machine(
    live_server: LiveServer, phone: Page, kind: str
) -> None:
    responses = [r for r in load_table(live_server, phone) if r.request.resource_type == kind]
    assert responses
    remote: list[str] = []
    for response in responses:
        text = response.text()
        urls = [m.group(1) or m.group(2) for m in CSS_URL.finditer(text)]
        if kind == "document":
            links = AssetLinks()
            links.feed(text)
            urls += links.urls
            assert links.urls, "the page links no stylesheet or script at all"
        remote += [f"{urlsplit(response.url).path}: {url}" for url in urls if is_remote(url)]
    assert not remote
