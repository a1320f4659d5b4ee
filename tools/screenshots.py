"""Regenerate the README's phone screenshots in docs/screenshots/: ``make screenshots``.

One deterministic game (the simulated table, fixed seed) is stored three times, cut at three
points: mid-hand, just after a hand's settlement, and finished. Each table is photographed on a
360x720 touch phone at device scale factor 2, in the light and the dark colour scheme; the
mid-hand table is also photographed on the phone turned on its side (740x360), on phones set
to Svenska and to Filipino, and its board on a 1280x720 wall screen. The app
runs on a throwaway SQLite file in a temporary folder and Chromium is Debian's
(``/usr/bin/chromium``, or ``$CHROMIUM``); no request leaves the machine (any that tries is
stopped and reported as an error). Run from the repository root:
``.venv/bin/python -m tools.screenshots``.
"""

from __future__ import annotations

import argparse
import logging
import random
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Browser, Page, Route, sync_playwright

from scorekeeper.rules import Game, Settle, Setup
from scorekeeper.rules.events import Event
from scorekeeper.rules.record import Timed
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.times import Times
from scorekeeper.web.data import clubs, games
from tests.support.chromium import CHROMIUM, open_and_settle
from tests.support.chromium import LAUNCH_ARGS as BROWSER_ARGS
from tests.support.server import LiveServer, migrated_app

ROOT = Path(__file__).resolve().parent.parent

OUT = ROOT / "docs" / "screenshots"
LAUNCH_ARGS = [*BROWSER_ARGS, "--font-render-hinting=none"]
PHONE = {
    "viewport": {"width": 360, "height": 720},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
    "timezone_id": "UTC",
}
PLAYERS = ["Ann", "Ben"]
SEED = 3
MID_HAND = 5
"""The hand shown mid-play and, once settled, in the settlement shot."""
MID_HAND_PLAYS = 9
"""How many tiles are on the table in the mid-hand shot."""


@dataclass(frozen=True)
class Shot:
    """One screenshot: its file stem and the events of the game it shows."""

    name: str
    events: list[Event]
    full_page: bool


def whole_game() -> Game:
    """The deterministic game every shot is cut from (2 players, All Fives, to 250)."""
    return play_game(Setup.create(PLAYERS, "all-fives"), random.Random(SEED))


def cut(game: Game, stop: Callable[[Game], bool]) -> list[Event]:
    """The game's events up to the first point where ``stop`` holds for the replayed game."""
    partial = Game(game.setup)
    for event in game.events:
        partial.push(event)
        if stop(partial):
            return list(partial.events)
    raise SystemExit("the game never reached the point the screenshot needs")


def mid_hand(game: Game) -> bool:
    """Hand MID_HAND with MID_HAND_PLAYS tiles down and someone to play next."""
    hand = game.hand
    return (
        hand is not None
        and hand.number == MID_HAND
        and len(hand.plays) == MID_HAND_PLAYS
        and game.phase == "play"
    )


def settled(game: Game) -> bool:
    """Hand MID_HAND is settled, and the next hand begun when its leader was forced.

    The app begins the next hand in the same entry as the settlement when the player who
    dominoed must lead it, so the table a player sees then has that hand's lead to enter.
    """
    hand = game.hand
    if hand is None:
        return False
    if hand.number == MID_HAND + 1:
        return not hand.plays
    return (
        hand.number == MID_HAND and isinstance(game.events[-1], Settle) and game.next_leader is None
    )


def shots() -> list[Shot]:
    """The three screenshots of the README."""
    game = whole_game()
    if game.winner is None:
        raise SystemExit("the seeded game has no winner: change SEED")
    return [
        Shot("table-mid-hand", cut(game, mid_hand), full_page=False),
        Shot("settlement", cut(game, settled), full_page=False),
        Shot("winner", list(game.events), full_page=False),
    ]


def store_games(app: Flask, wanted: list[Shot]) -> dict[str, str]:
    """Store one game per shot; its edit key by shot name."""
    with app.app_context():
        setup = whole_game().setup
        return {shot.name: games.create(setup, shot.events).row.edit_key for shot in wanted}


def store_club(app: Flask) -> str:
    """A club with a dozen finished games of four players; its edit key."""
    with app.app_context():
        club = clubs.create_club("Tuesday club")
        games = []
        seed = 0
        while len(games) < 12:
            rng = random.Random(seed)
            players = rng.sample(["Ann", "Bob", "Cy", "Di"], 2 + seed % 2)
            game = play_game(Setup.create(players, "fives-up"), rng, 40)
            seed += 1
            if game.winner is not None:
                games.append(game)
        clubs.import_games(club, [Timed(game, Times()) for game in games])
        return club.edit_key


class Offline:
    """Lets requests to this machine through and stops (and remembers) every other one."""

    def __init__(self) -> None:
        self.escaped: list[str] = []

    def route(self, route: Route) -> None:
        """Continue a local request, abort any other."""
        url = route.request.url
        local = urlsplit(url).hostname in ("127.0.0.1", "localhost")
        if local or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            self.escaped.append(url)
            route.abort()


LANDSCAPE = {"width": 740, "height": 360}


LANGUAGES = {"sv": "sv-SE", "fil": "fil-PH"}
"""The table, the settlement and the score sheet are also photographed in Svenska and Filipino,
by a phone set to each."""


@contextmanager
def phone(
    browser: Browser,
    scheme: str,
    offline: Offline,
    landscape: bool = False,
    locale: str | None = None,
) -> Iterator[Page]:
    """A page on the phone in the ``light`` or ``dark`` colour scheme, upright or on its side,
    in the phone's own language (``locale``) or the default's."""
    options = {**PHONE, "viewport": LANDSCAPE} if landscape else dict(PHONE)
    if locale is not None:
        options["locale"] = locale
    context = browser.new_context(**options, color_scheme=scheme, reduced_motion="reduce")
    context.route("**/*", offline.route)
    try:
        yield context.new_page()
    finally:
        context.close()


@contextmanager
def wall(browser: Browser, offline: Offline) -> Iterator[Page]:
    """A 1280x720 wall screen in landscape, showing the board."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, locale="en-GB", timezone_id="UTC"
    )
    context.route("**/*", offline.route)
    try:
        yield context.new_page()
    finally:
        context.close()


def photograph(
    page: Page, url: str, path: Path, full_page: bool, scroll_to: str | None = None
) -> None:
    """Open ``url``, wait until it is fully loaded and still, and save a PNG (with the element
    ``scroll_to`` selects at the top, when given)."""
    open_and_settle(page, url)
    page.evaluate("() => document.fonts.ready.then(() => undefined)")
    if scroll_to is not None:
        page.evaluate("(selector) => document.querySelector(selector).scrollIntoView()", scroll_to)
    page.mouse.move(0, 0)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")


def main() -> None:
    """Store the games, serve them and photograph each table in both colour schemes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files")
    parser.add_argument("--no-dark", action="store_true", help="skip the dark-mode variants")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = shots()
    schemes = ["light"] if args.no_dark else ["light", "dark"]
    offline = Offline()
    with tempfile.TemporaryDirectory() as folder:
        app = migrated_app(Path(folder) / "screenshots.sqlite")
        ids = store_games(app, wanted)
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            for scheme in schemes:
                with phone(browser, scheme, offline) as page:
                    for shot in wanted:
                        suffix = "" if scheme == "light" else "-dark"
                        path = args.out / f"{shot.name}{suffix}.png"
                        url = f"{server.url}/games/{ids[shot.name]}"
                        photograph(page, url, path, shot.full_page)
                        print(
                            f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                        )
            with phone(browser, "light", offline, landscape=True) as page:
                path = args.out / "table-mid-hand-landscape.png"
                url = f"{server.url}/games/{ids['table-mid-hand']}"
                photograph(page, url, path, full_page=False)
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            for language, locale in LANGUAGES.items():
                with phone(browser, "light", offline, locale=locale) as page:
                    for name, url, top in (
                        ("table-mid-hand", f"{server.url}/games/{ids['table-mid-hand']}", None),
                        ("settlement", f"{server.url}/games/{ids['settlement']}", None),
                        ("sheet", f"{server.url}/games/{ids['winner']}/sheet", ".sheet-facts"),
                    ):
                        path = args.out / f"{name}-{language}.png"
                        photograph(page, url, path, full_page=False, scroll_to=top)
                        print(
                            f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                        )
            club = store_club(app)
            with phone(browser, "light", offline) as page:
                path = args.out / "club.png"
                page.goto(f"{server.url}/clubs/{club}", wait_until="load")
                photograph(page, f"{server.url}/clubs/{club}#standings", path, full_page=False)
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            with app.app_context():
                watch = games.find(ids["table-mid-hand"]).watch_key
            with wall(browser, offline) as page:
                path = args.out / "board.png"
                photograph(page, f"{server.url}/watch/{watch}/board", path, full_page=False)
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            browser.close()
    if offline.escaped:
        raise SystemExit(f"requests tried to leave the machine: {offline.escaped}")


if __name__ == "__main__":
    main()
