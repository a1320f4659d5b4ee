"""What the table page weighs mid-hand: every resource a phone loads, raw and compressed.

Run from the repository root: ``.venv/bin/python -m bench.page_weight`` (a few seconds).
Target: the page with all its assets under 100 KB compressed, every request to this machine.

A deterministic game (the simulated table, fixed seed) is stored cut in the middle of hand 2,
and Debian's Chromium (``/usr/bin/chromium`` or ``$CHROMIUM``), as a 360x640 touch phone with
an empty cache, opens its table. Every response is recorded (``page.on("response")``). The
compressed size is what the server sent when it compressed the response itself
(``Content-Encoding``), otherwise the body gzipped at level 6, as a compressing proxy would
send it. Requests to any other host are stopped and listed.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Response, Route, sync_playwright

from scorekeeper.rules import Game, Setup
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import games
from tests.support.chromium import CHROMIUM, LAUNCH_ARGS, PHONE, open_and_settle
from tests.support.server import LiveServer, migrated_app

TARGET_BYTES = 100 * 1024
LOCAL_HOSTS = ("127.0.0.1", "localhost")


@dataclass(frozen=True)
class Loaded:
    """One response the page loaded: its path, kind, body size and compressed size."""

    path: str
    kind: str
    raw: int
    compressed: int
    encoding: str


def mid_hand_game(seed: int = 7, hand_number: int = 2, plays: int = 8) -> Game:
    """A 2-player All Fives game cut with ``plays`` tiles down in hand ``hand_number``."""
    whole = play_game(Setup.create(["Ann", "Ben"], "all-fives"), random.Random(seed))
    game = Game(whole.setup)
    for event in whole.events:
        game.push(event)
        hand = game.hand
        if hand is not None and hand.number == hand_number and len(hand.plays) == plays:
            return game
    raise SystemExit(f"seed {seed} never has {plays} tiles down in hand {hand_number}")


def measure(response: Response) -> Loaded:
    """The sizes of one response, compressed as sent or at gzip level 6."""
    body = response.body()
    encoding = response.headers.get("content-encoding", "")
    if encoding:
        compressed = response.request.sizes()["responseBodySize"]
    else:
        compressed = len(gzip.compress(body, compresslevel=6, mtime=0))
    path = urlsplit(response.url).path
    return Loaded(path, response.request.resource_type, len(body), compressed, encoding or "-")


def kib(size: int) -> str:
    """A size in KB (1024 bytes) with one decimal."""
    return f"{size / 1024:.1f} KB"


def main() -> None:
    """Store the game, open its table on a phone with an empty cache and print the sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    escaped: list[str] = []

    def route(route: Route) -> None:
        if urlsplit(route.request.url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            escaped.append(route.request.url)
            route.abort()

    with tempfile.TemporaryDirectory() as folder:
        app = migrated_app(Path(folder) / "bench.sqlite")
        with app.app_context():
            game = mid_hand_game(args.seed)
            key = games.create(game.setup, game.events).row.edit_key
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            context = browser.new_context(**PHONE)
            context.route("**/*", route)
            page = context.new_page()
            responses: list[Response] = []
            page.on("response", lambda response: responses.append(response))
            open_and_settle(page, f"{server.url}/games/{key}")
            loaded = [measure(response) for response in responses]
            browser.close()
    report(loaded, escaped)


def report(loaded: list[Loaded], escaped: list[str]) -> None:
    """Print one line per response, the totals and the verdicts."""
    print(f"The table page mid-hand on a 360x640 phone, empty cache ({len(loaded)} responses):\n")
    print(f"  {'resource':<40} {'type':<11} {'raw':>10} {'compressed':>11}  encoding")
    for item in loaded:
        print(
            f"  {item.path:<40} {item.kind:<11} {kib(item.raw):>10} {kib(item.compressed):>11}"
            f"  {item.encoding}"
        )
    raw = sum(item.raw for item in loaded)
    compressed = sum(item.compressed for item in loaded)
    print(f"  {'total':<40} {'':<11} {kib(raw):>10} {kib(compressed):>11}")
    met = "met" if compressed < TARGET_BYTES else "MISSED"
    print(
        f"\nTarget: under {kib(TARGET_BYTES)} compressed: {met} ({kib(compressed)}, "
        f"{compressed / TARGET_BYTES:.0%} of the budget)."
    )
    if escaped:
        print(f"Requests that tried to leave the machine (stopped): {escaped}")
    else:
        print("Every request went to 127.0.0.1: nothing left the machine.")


if __name__ == "__main__":
    main()
