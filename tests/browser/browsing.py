"""What the browser tests share: the Content-Security-Policy watch, the pages (``SCREENS``) in
the states the ergonomics and accessibility tests visit, a table page driven by taps, and the
text-size checks. Chromium and the live server, which the benchmarks and tools use too, are in
``tests.support``."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import BrowserContext, CDPSession, ConsoleMessage, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.rules import (
    ALL_TILES,
    Draw,
    Event,
    Game,
    Held,
    NewHand,
    Pass,
    Play,
    Settle,
    Setup,
    Tile,
    parse_tile,
)
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.simulate import play_game, play_hand
from scorekeeper.web.data import games
from tests.support.server import LiveServer
from tests.web.webtable import as_exported

# -- the Content-Security-Policy, watched in every browser test --------------------------

CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline code"}`
      + ` in ${event.sourceFile || document.URL}:${event.lineNumber} (${event.sample})`
  );
});
"""
"""Reports every Content-Security-Policy violation in every document of the context."""

HTMX_TRAIL = """
window.__htmxTrail = [];
["htmx:beforeRequest", "htmx:afterRequest", "htmx:afterSwap", "htmx:swapError",
 "htmx:targetError", "htmx:sendError", "htmx:responseError", "htmx:abort", "click"]
  .forEach((name) => document.addEventListener(name, (event) => {
    const el = (event.detail && event.detail.elt) || event.target;
    const xhr = event.detail && event.detail.xhr;
    const table = document.getElementById("table");
    window.__htmxTrail.push([
      Math.round(performance.now()), name,
      el && el.tagName, el && el.id, el && String(el.className),
      el && el.getAttribute && (el.getAttribute("data-end") || el.getAttribute("data-tile")
        || el.getAttribute("action") || el.getAttribute("hx-get") || ""),
      xhr ? xhr.status : "", table ? table.dataset.seq : "-", el ? el.isConnected : "",
    ].join(" "));
    window.__htmxTrail = window.__htmxTrail.slice(-60);
  }, true));
["pageshow", "pagehide"].forEach((name) => window.addEventListener(name, (event) => {
  window.__htmxTrail.push([Math.round(performance.now()), name, location.href,
    event.persisted ? "persisted" : ""].join(" "));
}));
"""
"""Keeps the page's last 60 htmx events and clicks, told when a table test times out."""


def htmx_trail(page: Page) -> str:
    """The page's last htmx events and clicks, one per line (for a failing test's message)."""
    try:
        lines = page.evaluate("window.__htmxTrail || []")
    except PlaywrightError as error:
        return f"(no trail: {error})"
    return "\n".join(reversed(lines))


class PolicyWatch:
    """Collects the Content-Security-Policy violations of every page in a browser context: the
    ``securitypolicyviolation`` events and Chromium's console messages about them (which come
    even with JavaScript turned off)."""

    def __init__(self, context: BrowserContext) -> None:
        self.violations: list[str] = []
        context.expose_function("__cspViolation", self.event)
        context.add_init_script(CSP_LISTENER)
        context.on("console", self.console)

    def console(self, message: ConsoleMessage) -> None:
        """Note Chromium's console report of a violation."""
        if "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text}")

    def event(self, text: str) -> None:
        """Note a violation the page's listener reported."""
        self.violations.append(f"event: {text}")


# -- the pages every ergonomics and accessibility test visits -----------------------------

TWELVE = {"set": "double-twelve"}

DATA = Path(__file__).resolve().parents[1] / "data"


def record(
    name: str, hands: int | None = None, drop_last: int = 0, plays: int | None = None
) -> dict[str, Any]:
    """A record of tests/data, cut to its first ``hands`` hands, the last hand's last
    ``drop_last`` events dropped or the events after its first ``plays`` plays."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    if hands is not None:
        data["hands"] = data["hands"][:hands]
    last = data["hands"][-1] if data["hands"] else {}
    if drop_last:
        last.pop("remaining", None)
        last["events"] = last["events"][:-drop_last]
    if plays is not None:
        last.pop("remaining", None)
        seen = [i for i, event in enumerate(last["events"]) if "play" in event]
        last["events"] = last["events"][: seen[plays - 1] + 1]
    return data


def import_game(page: Page, base: str, data: dict[str, Any]) -> str:
    """Import ``data`` through the import page, as a user pasting it does; the game's URL.

    ``data`` goes in as an export writes it, naming every house rule (a record that leaves
    some out shows them first: ``tests/browser/test_import.py``)."""
    page.goto(base + "/games/import")
    page.fill("textarea[name=text]", json.dumps(as_exported(data)))
    page.click(".import-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22}$"))
    return page.url.split("?")[0]


CSRF_TOKEN = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"')


def post_import(page: Page, base: str, data: dict[str, Any]) -> str:
    """Import ``data`` as the import page's form does, with the page's cookies, but without
    showing the import page or the game it opens on (``import_game`` shows both, as a user
    sees them): for a test that wants only the game. The game's URL.

    The import remembers the game in this browser's "My games", as it does for a user; its
    "Imported" notice is taken by the game page the import redirects to, as in a browser."""
    form = page.request.get(base + "/games/import")
    token = CSRF_TOKEN.search(form.text())
    assert form.ok and token is not None, f"no import form: {form.status}"
    response = page.request.post(
        base + "/games/import",
        # taking: the house rules ``data`` leaves out take their values at once.
        multipart={"csrf_token": token.group(1), "text": json.dumps(data), "taking": "1"},
    )
    assert response.ok and GAME_URL.search(response.url), (response.status, response.url)
    return response.url.split("?")[0]


def wait_for_table(page: Page, seq: str | None = None) -> None:
    """Wait until htmx has swapped in a table (a new one, when ``seq`` was the old one's)."""
    if seq is None:
        page.wait_for_selector("#table")
    else:
        page.wait_for_function(
            "seq => { const t = document.querySelector('#table');"
            " return t && (t.dataset.seq !== seq || document.querySelector('#table .refusal')); }",
            arg=seq,
        )


def tiles_fitting(game: Game | None, ends: int) -> list[Tile]:
    """Tiles off the table that fit exactly ``ends`` open ends (``ends`` 2 means 2 or more)."""
    assert game is not None and game.hand is not None
    hand = game.hand
    out = [t for t in ALL_TILES if t not in hand.layout.on_table]
    if ends >= 2:
        return [t for t in out if len(game.fits(t)) >= 2]
    return [t for t in out if len(game.fits(t)) == ends]


def tile_button(page: Page, t: Tile) -> Locator:
    """The picker's button for tile ``t``."""
    return page.locator(f'.picker button[data-tile="{t}"]')


def select_two_end_tile(page: Page, game: Game | None) -> None:
    """Tap a tile that fits two ends: the end buttons appear, the ends are highlighted."""
    tile_button(page, tiles_fitting(game, 2)[0]).click()
    page.wait_for_selector(".choose-end .end-button")


def tap_unfitting_tile(page: Page, game: Game | None) -> None:
    """Tap a tile that fits no end: the refusal is shown beside the picker."""
    tile_button(page, tiles_fitting(game, 0)[0]).click()
    page.wait_for_selector(".refusal [data-rule]")


def play_one_end_tile(page: Page, game: Game | None) -> None:
    """Play a tile that fits one end: the count line lights up with what it scored."""
    tile_button(page, tiles_fitting(game, 1)[0]).click()
    page.wait_for_selector(".last-score--show", state="attached")


def play_last_tile(page: Page, game: Game | None) -> None:
    """Play the one tile that ends the hand (it fits one end): the settlement form appears."""
    tile_button(page, parse_tile("5-0")).click()
    page.wait_for_selector(".settle-form")


def tap_held_tiles(page: Page, game: Game | None) -> None:
    """End the hand, then tap a tile still held on the settlement tray (it opens)."""
    play_last_tile(page, game)
    page.click('[data-held-tray="2"] > summary')
    page.click('[data-held-tray="2"] label.held-tile:has(input[value="4-3"])')
    expect(page.locator('input[name="held-2"]')).to_have_value("4-3")


def delete_the_game(page: Page, game: Game | None) -> None:
    """Delete the game after its confirmation: My games offers to undo it."""
    page.click(".game-links [data-delete-link]")
    page.click("button[data-delete]")
    page.wait_for_selector(".deleted-game [data-restore]")


def import_refused(page: Page, game: Game | None) -> None:
    """Paste a record that breaks a rule: the refusal is shown and nothing is imported."""
    page.fill("textarea[name=text]", json.dumps(record("refused_match")))
    page.click(".import-form button[type=submit]")
    page.wait_for_selector(".record-refusal [data-rule]")


def entry_not_saved(page: Page, game: Game | None) -> None:
    """Tap a tile while the server cannot be reached: "Not saved" and "Send again" appear."""
    page.route("**/play", lambda route: route.abort())
    tile_button(page, tiles_fitting(game, 1)[0]).click()
    page.wait_for_selector("[data-not-saved] [data-send-again]")


def open_house_rules(page: Page, game: Game | None) -> None:
    """Open the new game's house rules."""
    page.click("details.house-rules summary")
    page.wait_for_selector("details.house-rules[open]")


def open_share(page: Page, game: Game | None) -> None:
    """Open the share panel of a game's edit page."""
    page.click("#share > summary")
    page.wait_for_selector("#share[open]")


def open_watch(page: Page, game: Game | None) -> None:
    """Go from the edit page to the game's watch link."""
    page.goto(page.locator("#watch-link").input_value())


def open_board(page: Page, game: Game | None) -> None:
    """Go from the edit page to the game's board (for a wall screen)."""
    page.goto(page.locator("#watch-link").input_value() + "/board")


def watch_the_settlement(page: Page, game: Game | None) -> None:
    """End the hand, then go to the watch link: it waits for the settlement."""
    play_last_tile(page, game)
    open_watch(page, game)
    page.wait_for_selector('[data-waiting="settle"]')


def rematch_started(page: Page, game: Game | None) -> None:
    """Start the rematch, then open the finished game again: it points to the rematch."""
    finished = page.url
    page.click('[data-action="rematch"]')
    page.wait_for_url(lambda now: now != finished)
    page.goto(finished)
    page.wait_for_selector("[data-rematch] a")


def open_hand_list(page: Page, game: Game | None) -> None:
    """Open the log's list of every hand."""
    page.locator("details.log-hand-list > summary").click()


def larger_set_record(events: int | None = None) -> dict[str, Any]:
    """A double-twelve hand of six players (simulated), cut after its first ``events`` events
    or, without, just before its settlement."""
    setup = Setup.create(["Ann", "Bob", "Cy", "Di", "Eve", "Fay"], "all-fives", TWELVE)
    game = Game(setup)
    play_hand(game, random.Random(1))
    cut = len(game.events) - 1 if events is None else events
    return write_record(Game(setup, game.events[:cut]))


def choose_an_end(page: Page, game: Game | None) -> None:
    """Tap a larger set's first open end: the tiles carrying its number show."""
    end = page.locator(".pick-ends button[data-end]").first
    end.click()
    expect(end).to_have_attribute("aria-pressed", "true")


def open_a_number_of_held_tiles(page: Page, game: Game | None) -> None:
    """Open a larger set's settlement tray and tap its first number: that number's tiles."""
    page.locator("[data-held-tray] > summary").first.click()
    page.locator("[data-held-tray][open] label.held-number-label").first.click()
    expect(page.locator("[data-held-tray][open] .held-group:visible")).to_have_count(1)


@dataclass(frozen=True)
class Screen:
    """A page in one state: its path (below the game's page when ``game`` is given), the
    record to import first, what to do on the page after loading it, and its HTTP status."""

    name: str
    path: str = ""
    game: Callable[[], dict[str, Any]] | None = None
    then: Callable[[Page, Game | None], None] | None = None
    status: int = 200


SCREENS: list[Screen] = [
    Screen("home", "/"),
    Screen("new game", "/games/new"),
    Screen("new game, house rules open", "/games/new", then=open_house_rules),
    Screen("import", "/games/import"),
    Screen("import refused", "/games/import", then=import_refused),
    Screen("lead choice", game=lambda: record("hand_seven_five_two_hands", hands=0)),
    Screen("mid-hand", game=lambda: record("hand_first_spinner_counts")),
    Screen("lead played, it can be turned", game=lambda: record("hand_all_spinners", plays=1)),
    Screen(
        "tile selected, ends highlighted",
        game=lambda: record("hand_first_spinner_counts"),
        then=select_two_end_tile,
    ),
    Screen(
        "a play just entered, what it scored flashing",
        game=lambda: record("hand_first_spinner_counts"),
        then=play_one_end_tile,
    ),
    Screen(
        "refusal shown",
        game=lambda: record("hand_first_spinner_counts"),
        then=tap_unfitting_tile,
    ),
    Screen(
        "entry not saved",
        game=lambda: record("hand_first_spinner_counts"),
        then=entry_not_saved,
    ),
    Screen(
        "settlement form",
        game=lambda: record("hand_seven_five_two_hands", hands=1, drop_last=1),
        then=play_last_tile,
    ),
    Screen(
        "settlement, held tiles tapped",
        game=lambda: record("hand_seven_five_two_hands", hands=1, drop_last=1),
        then=tap_held_tiles,
    ),
    Screen("settlement shown", game=lambda: record("hand_seven_five_two_hands", hands=1)),
    Screen(
        "long line, no spinner",
        game=lambda: record("sim_fives_up_2p_no_spinner_seven_five", hands=3, plays=14),
    ),
    Screen(
        "watching the hand's settlement",
        game=lambda: record("hand_seven_five_two_hands", hands=1, drop_last=1),
        then=watch_the_settlement,
    ),
    Screen(
        "larger set: an open end chosen, its tiles",
        game=lambda: larger_set_record(30),
        then=choose_an_end,
    ),
    Screen("larger set: the lead's numbers", game=lambda: larger_set_record(1)),
    Screen(
        "larger set: the settlement, a number's held tiles",
        game=larger_set_record,
        then=open_a_number_of_held_tiles,
    ),
    Screen("winner", game=lambda: record("sim_all_fives_2p")),
    Screen(
        "winner, rematch started", game=lambda: record("sim_all_fives_2p"), then=rematch_started
    ),
    Screen("delete a game?", "/delete", game=lambda: record("hand_first_spinner_counts")),
    Screen(
        "my games, a game deleted",
        game=lambda: record("hand_first_spinner_counts"),
        then=delete_the_game,
    ),
    Screen("share panel", game=lambda: record("hand_first_spinner_counts"), then=open_share),
    Screen("watch link", game=lambda: record("hand_first_spinner_counts"), then=open_watch),
    Screen("board", game=lambda: record("hand_first_spinner_counts"), then=open_board),
    Screen("board, game over", game=lambda: record("sim_all_fives_2p"), then=open_board),
    Screen("rulebook", "/rules"),
    Screen("the game's rules", "/rules", game=lambda: record("hand_first_spinner_counts")),
    Screen("the game's log", "/log", game=lambda: record("sim_all_fives_2p")),
    Screen(
        "the game's log, every hand listed",
        "/log?hand=12",
        game=lambda: record("sim_all_fives_2p"),
        then=open_hand_list,
    ),
    # Three hands, each with every entry and its "Why?": the page of a long game is the same
    # parts again (30 hands are 6,842 elements, and axe took 6 s on each look at them).
    Screen("the game's whole log", "/log?hand=all", game=lambda: record("sim_all_fives_2p", 3)),
    Screen("score sheet", "/sheet", game=lambda: record("sim_all_fives_2p")),
    Screen("blank score sheet", "/sheets/blank?sides=2"),
    Screen("offline page", "/offline"),
    Screen("no such game (404)", "/games/No-such-game-key-here0", status=404),
    Screen("no such page (404)", "/no/such/page", status=404),
]
"""Every page the ergonomics and accessibility tests check. A new page is one line here,
e.g. ``Screen("rules", "/rules")`` or ``Screen("score sheet", "/sheet", game=...)``."""


def visit(page: Page, base: str, screen: Screen) -> None:
    """Bring ``page`` to ``screen``: import its game if any, open it, do its steps."""
    game: Game | None = None
    url = base + screen.path
    if screen.game is not None:
        data = screen.game()
        game = load_record(json.dumps(data), unsettled_last_hand=True)
        url = post_import(page, base, data) + screen.path
    response = page.goto(url)
    assert response is not None and response.status == screen.status, (screen.name, url)
    if screen.then is not None:
        screen.then(page, game)
    # A step may have loaded a new page: measure it only once its stylesheets apply.
    page.wait_for_load_state("load")


# -- playing a game by tapping, as a table does (the game-flow, import and no-JS tests) -----

MIRROR = {"W": "E", "E": "W"}
GAME_URL = re.compile(r"/games/[A-Za-z0-9_-]{22}(\?.*)?$")


def hand_at(
    tiles: int, players: int = 2, options: dict[str, Any] | None = None, all_arms: bool = False
) -> tuple[Setup, list[Event]]:
    """A simulated game cut where its hand in play has ``tiles`` tiles on the table and a tile
    still to be played by a player holding two tiles or more, so that one more play does not
    end the hand (the first seed that gets there). ``all_arms``: a spinner's N and S arms
    are both grown too, so the layout spreads in all four directions."""
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    setup = Setup.create(names, "all-fives", {"target": 1000, **(options or {})})
    for seed in range(2000):
        whole = play_game(setup, random.Random(seed))
        game = Game(setup)
        for event in whole.events:
            game.push(event)
            hand = game.hand
            if hand is None or game.phase != "play" or len(hand.layout) != tiles:
                continue
            if hand.held[hand.turn] < 2:  # the next tile must not end the hand
                continue
            arms = hand.layout.arms
            if all_arms and not all(arms.get(a) and arms[a].tiles for a in ("N", "S", "W", "E")):
                continue
            return setup, list(game.events)
    raise AssertionError(f"no simulated hand reaches {tiles} tiles with {players} players")


def seed_game(server: LiveServer, setup: Setup, events: Sequence[Event] = ()) -> str:
    """Store a game with ``events`` already entered (the test's starting position); its URL."""
    with server.app.app_context():
        loaded = games.create(setup, events)
        return f"{server.url}/games/{loaded.row.edit_key}"


def watch_link(page: Page) -> str:
    """The watch link the edit page's share panel shows."""
    return page.locator("#watch-link").input_value()


def start_game(
    page: Page,
    base: str,
    players: Sequence[str],
    preset: str | None = None,
    target: int | None = None,
    partners: bool | None = None,
    rules: dict[str, str] | None = None,
) -> TablePage:
    """Start a game through the new-game form, the first leader left to the table; ``rules``
    are house rules chosen in the form's House rules (name: value)."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(players, 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    if preset is not None:
        load_preset(page, preset, len(players))
    if rules:
        page.locator("details.house-rules > summary").click()
        for name, value in rules.items():
            page.locator(f'select[name="{name}"]').select_option(value)
    if target is not None:
        page.locator('input[name="target"]').fill(str(target))
    if partners is not None:
        page.locator('input[name="partners"]').set_checked(partners)
    page.locator('input[name="leader"][value="table"]').check()
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("#table")).to_have_attribute("data-phase", "lead")
    return TablePage(page)


def load_preset(page: Page, preset: str, players: int) -> None:
    """Choose ``preset``: htmx reloads the form with its defaults; without JavaScript the
    "Load the preset's defaults" button does."""
    if has_htmx(page):
        # Wait for htmx's reload itself: "filled" alone is no sign of it, as target-default.js
        # sets it while names are typed, and a reload landing after the next choice (the
        # leader) would put the form's default back in its place.
        with page.expect_response(lambda r: r.request.method == "POST" and "/games/new" in r.url):
            page.locator('select[name="preset"]').select_option(preset)
        expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    else:
        page.locator('select[name="preset"]').select_option(preset)
        page.locator("details:has([name=load]) > summary").click()
        page.locator("[name=load]").click()
    expect(page.locator('input[name="filled"]')).to_have_value(f"{preset}:{players}")


def has_htmx(page: Page) -> bool:
    """Whether htmx runs on the page (False with JavaScript turned off)."""
    return bool(page.evaluate("() => typeof window.htmx !== 'undefined'"))


def upload_record(page: Page, base: str, path: Path) -> None:
    """Import the record file at ``path`` through the import page's file field."""
    page.goto(base + "/games/import")
    page.locator('input[type="file"][name="record"]').set_input_files(path)
    tap(page.get_by_role("button", name="Import", exact=True))


def touch_screen(page: Page) -> bool:
    """Whether the page is on a touch screen (the phone)."""
    return bool(page.evaluate("() => navigator.maxTouchPoints > 0"))


def tap(target: Locator, touch: bool | None = None) -> None:
    """Tap ``target`` with a finger on a touch screen, else click it."""
    if touch is None:
        touch = touch_screen(target.page)
    if touch:
        target.tap()
    else:
        target.click()


EXPECT_MS = 10_000
"""How long ``expect`` waits (tests/browser/conftest.py sets it), and the waits like it."""

SEQ_SHOWN = """seq => {
  const table = document.getElementById("table");
  return table !== null && table.dataset.seq === seq;
}"""


def wait_for_seq(page: Page, seq: int, scripted: bool) -> None:
    """Wait until the page shows the table after its ``seq``-th event.

    On a page that runs scripts the check runs in the page on every animation frame, so the
    wait ends with the frame that shows it; Playwright's ``expect`` checks again after 20, 50,
    100, 100 and then every 500 ms, so an entry shown 300 ms after the tap was seen 770 ms
    after it. Without JavaScript no frame comes, and ``expect`` waits."""
    if scripted:
        try:
            page.wait_for_function(SEQ_SHOWN, arg=str(seq), polling="raf", timeout=EXPECT_MS)
            return
        except PlaywrightError:
            pass  # the same wait, once more, for expect's message
    expect(page.locator("#table")).to_have_attribute("data-seq", str(seq))


class TablePage:
    """A game's table in the browser, entered by tapping (clicking when there is no touch
    screen); each entry waits until the page shows the game with one more event."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.touch = touch_screen(page)
        # Until the page has loaded, htmx (a deferred script) has not taken over its forms: a
        # tap then submits the form without JavaScript, which works but adds a history entry.
        page.wait_for_load_state()
        self.seq = int(self.table.get_attribute("data-seq") or "")
        self.scripted = has_htmx(page)

    @property
    def table(self) -> Locator:
        """The table section (replaced whole by every entry)."""
        return self.page.locator("#table")

    def tap(self, target: Locator) -> None:
        """Tap ``target`` (click it without a touch screen)."""
        tap(target, self.touch)

    def tile(self, t: Tile | str) -> Locator:
        """The picker's button for tile ``t``."""
        return self.page.locator(f'button[data-tile="{t}"]:not([data-end])')

    def end(self, name: str) -> Locator:
        """The button below the picture that plays the selected tile on end ``name``."""
        return self.page.locator(f'.end-buttons button[data-end="{name}"]')

    def end_in_picture(self, name: str) -> Locator:
        """The button laid over end ``name``'s marker in the picture (for a finger)."""
        return self.page.locator(f'.table-picture button[data-end="{name}"]')

    def action(self, name: str) -> Locator:
        """The draw, pass or undo button."""
        return self.page.locator(f'[data-action="{name}"]')

    def score(self, side: str) -> Locator:
        """The scoreboard's score of ``side``."""
        return self.page.locator(f'[data-side-score="{side}"]')

    def refusal(self, rule: str) -> Locator:
        """The refusal naming rule ``rule``."""
        return self.page.locator(f'[role="alert"]:has([data-rule="{rule}"])')

    def entered(self, events: int = 1) -> None:
        """Wait for the table with ``events`` more events than before."""
        self.seq += events
        try:
            wait_for_seq(self.page, self.seq, self.scripted)
        except AssertionError as error:
            # The trail first, newest first: a long aria snapshot would push it out of CI's view.
            trail = htmx_trail(self.page)
            shown = str(error).split("Aria snapshot:")[0].strip()
            raise AssertionError(
                f"The page's last htmx events, newest first:\n{trail}\n{shown}"
            ) from None

    def expect_unchanged(self) -> None:
        """The table still has as many events as before."""
        expect(self.table).to_have_attribute("data-seq", str(self.seq))

    def expect_scores(self, sides: Sequence[str], scores: Sequence[int]) -> None:
        """The scoreboard shows ``scores`` for ``sides``."""
        for side, points in zip(sides, scores, strict=True):
            expect(self.score(side)).to_have_text(str(points))

    def expect_turn(self, name: str) -> None:
        """It is ``name``'s turn to lead or play."""
        expect(self.page.locator("[data-turn]")).to_have_attribute("data-turn", name)

    def play(self, t: Tile | str, end: str | None = None, offered: Sequence[str] = ()) -> None:
        """Tap tile ``t``; when it fits several ends, check the ends offered and tap ``end``."""
        self.tap(self.tile(t))
        if end is None:
            self.entered()
            return
        buttons = self.page.locator(".end-buttons button[data-end]")
        expect(buttons).to_have_count(len(offered))
        shown = buttons.evaluate_all("buttons => buttons.map(b => b.dataset.end)")
        assert sorted(shown) == sorted(offered)
        self.tap(self.end(end))
        self.entered()

    def draw(self) -> None:
        """Tap draw once: one tile leaves the boneyard; no pass is offered while one can."""
        expect(self.action("pass")).to_have_count(0)
        boneyard = int(self.page.locator("[data-boneyard]").get_attribute("data-boneyard") or 0)
        self.tap(self.action("draw"))
        self.entered()
        expect(self.page.locator("[data-boneyard]")).to_have_attribute(
            "data-boneyard", str(boneyard - 1)
        )

    def pass_turn(self) -> None:
        """Tap pass, which is offered only when nothing can be drawn."""
        expect(self.action("draw")).to_have_count(0)
        self.tap(self.action("pass"))
        self.entered()

    def undo(self) -> None:
        """Tap undo."""
        self.tap(self.action("undo"))
        self.entered(-1)

    def choose_leader(self, seat: int) -> None:
        """Open "Choose the leader" and tap the player who leads."""
        button = self.page.locator(f'[data-leader="{seat}"]')
        if not button.is_visible():
            self.tap(self.page.locator("details:has([data-leader]) > summary"))
        self.tap(button)
        self.entered()

    def settle(self, remaining: dict[int, str], events: int = 1) -> None:
        """Type what each player holds into the settlement form and submit it."""
        for seat, held in remaining.items():
            self.page.locator(f'input[name="held-{seat}"]').fill(held)
        self.tap(self.page.get_by_role("button", name=re.compile(r"^Settle hand")))
        self.entered(events)


def held_text(held: Held) -> str:
    """What a player types for what they hold: "13" or "6-1 0-0"."""
    return str(held) if isinstance(held, int) else " ".join(str(t) for t in held)


class GameEntry:
    """Enters a simulated game's events on a table page by tapping, checked against the
    referee replaying the same events (``shadow``).

    The page leads a tile with its high half on W: when the simulated lead was flipped
    (low half on W), every W and E of that hand is entered mirrored."""

    def __init__(self, table: TablePage, setup: Setup) -> None:
        self.table = table
        self.shadow = Game(setup)
        self.mirrored = False

    def enter_all(self, events: Sequence[Event]) -> None:
        """Enter ``events`` one by one."""
        for event in events:
            self.enter(event)

    def enter(self, event: Event) -> None:
        """Enter one event; after a settlement check the scores against the referee's."""
        shadow, table = self.shadow, self.table
        if isinstance(event, NewHand):
            if shadow.next_leader is None:
                # Under lead: highest-double, "nobody has a double" once for each redraw.
                for rounds in range(1, event.redraws + 1):
                    table.tap(table.page.locator('[data-lead="redraw"]'))
                    redraws = table.page.locator("[data-redraws]")
                    expect(redraws).to_have_attribute("data-redraws", str(rounds))
                table.choose_leader(event.leader)
            shadow.push(event)
            table.expect_turn(shadow.players[event.leader])
            self.mirrored = False
            return
        if isinstance(event, Play):
            self._play(event)
        elif isinstance(event, Draw):
            for _ in range(event.count):
                table.draw()
        elif isinstance(event, Pass):
            table.pass_turn()
        else:
            assert isinstance(event, Settle)
            shadow.push(event)
            # After a domino the app begins the next hand (its leader is known) with it.
            follows = shadow.next_leader is not None
            typed = {seat: held_text(held) for seat, held in event.remaining.items()}
            table.settle(typed, 2 if follows else 1)
            table.expect_scores(shadow.sides, shadow.scores)
            return
        shadow.push(event)
        if shadow.winner is not None:
            table.expect_scores(shadow.sides, shadow.scores)

    def _play(self, play: Play) -> None:
        hand = self.shadow.hand
        assert hand is not None
        if not hand.plays:
            self.mirrored = play.flipped
            self.table.play(play.tile)
            return
        fits = self.shadow.fits(play.tile)
        if len(fits) == 1:
            self.table.play(play.tile)
            return
        assert play.end is not None
        self.table.play(play.tile, self.mirror(play.end), [self.mirror(end) for end in fits])

    def mirror(self, end: str) -> str:
        """The end as the page names it."""
        return MIRROR.get(end, end) if self.mirrored else end


# -- small screens and large text (the text-size tests) ----------------------------------

SMALL_PHONE = {"viewport": {"width": 320, "height": 640}, "is_mobile": True, "has_touch": True}
"""The narrowest phone the site is made for: 320 CSS px wide, in portrait."""
DEFAULT_TEXT_PX = 16
"""Chromium's default font size, which its "Font size" setting changes."""


_FONT_SESSIONS: WeakKeyDictionary[Page, CDPSession] = WeakKeyDictionary()


def _font_session(page: Page) -> CDPSession:
    """The page's one DevTools session for its text size: a session keeps its setting for
    every page load until it is closed, so a second one could not put back what it set."""
    session = _FONT_SESSIONS.get(page)
    if session is None:
        session = _FONT_SESSIONS[page] = page.context.new_cdp_session(page)
    return session


def reset_text_size(page: Page) -> None:
    """Put the browser's text sizes back to Chromium's defaults (16 px, monospaced 13 px)."""
    if page in _FONT_SESSIONS:
        _font_session(page).send(
            "Page.setFontSizes", {"fontSizes": {"standard": DEFAULT_TEXT_PX, "fixed": 13}}
        )


def set_text_size(page: Page, percent: int) -> None:
    """Set the browser's text size to ``percent`` of the default, as a user does in the
    browser's settings, for the pages ``page`` shows from now on (and the one it shows).

    The setting (Chrome's Settings > Appearance > Font size, Firefox's default font size)
    changes the default font size, which is the size of 1rem and of text with no size set:
    text sized in rem or em grows with it, text sized in px does not. Chromium's DevTools
    protocol sets it with Page.setFontSizes, exactly as the setting does; a stylesheet added
    by the test (``html { font-size: 200% }``) would also scale px-free pages, but it is an
    inline style the page's Content-Security-Policy rightly refuses, and it cannot show which
    labels ignore the setting. A full-page screenshot puts the size back to the default: set
    it again after one."""
    size = round(DEFAULT_TEXT_PX * percent / 100)
    _font_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": size, "fixed": size}})
    page.wait_for_function(
        "size => parseFloat(getComputedStyle(document.documentElement).fontSize) === size", arg=size
    )


WORD_PROBLEMS_JS = r"""([within, leaveOut]) => {
  const problems = [];
  const said = new Set();
  const say = text => { if (!said.has(text)) { said.add(text); problems.push(text); } };
  const name = e => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    const classes = typeof e.className === 'string' ? e.className.trim() : '';
    if (classes) s += '.' + classes.split(/\s+/).join('.');
    return s;
  };
  const boxed = e => !['inline', 'contents'].includes(getComputedStyle(e).display);
  const clips = e => { const s = getComputedStyle(e);
    return s.overflowX !== 'visible' || s.overflowY !== 'visible'; };
  // Text for screen readers only: inside a box clipped to a pixel (.visually-hidden and kin).
  const unseen = e => { for (let a = e; a && a !== document.body; a = a.parentElement) {
    const r = a.getBoundingClientRect();
    if (clips(a) && (r.width <= 1 || r.height <= 1)) return true; } return false; };
  const left = e => (leaveOut && e.closest(leaveOut))
    || e.closest('script, style, svg, textarea, select, input') || unseen(e);
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  if (page > width) {
    // What makes the page scroll sideways: the outermost boxes past its right edge.
    const wide = [...document.body.querySelectorAll('*')].filter(e =>
      e.getBoundingClientRect().right > width + 1 && !(e.parentElement
        && e.parentElement.getBoundingClientRect().right > width + 1));
    const ours = wide.filter(e => e.closest(within) && !left(e));
    if (ours.length) {
      say(`the page scrolls sideways: ${page} px of content in ${width} px, past the edge: `
        + ours.slice(0, 3).map(name).join(', '));
    }
  }
  // A word: letters and digits, with an apostrophe, a colon, a comma or a full stop inside
  // it ("don't", "12:30", "1,000"). A line may break after a hyphen, as in print, and after
  // the underscore of a name such as boneyard_reserve; but not inside a tile's name ("6-4",
  // "12-0", with a hyphen or the non-breaking U+2011): "0-" on one line and "0" on the next
  // reads as no tile at all.
  const wordPattern = /\p{N}+[-\u2011]\p{N}+|[\p{L}\p{N}]+(?:['\u2019:.,][\p{L}\p{N}]+)*/gu;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !parent.closest(within) || left(parent)) continue;
    // Not shown: in a closed <details>, display: none, visibility: hidden.
    if (!parent.checkVisibility({visibilityProperty: true})) continue;
    for (const match of node.data.matchAll(wordPattern)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      const word = `"${match[0]}" in ${name(parent)}`;
      // Lines may overlap (line-height under 1.2), so compare the middles of the boxes.
      const first = rects[0];
      const middle = r => (r.top + r.bottom) / 2;
      if (rects.some(r => Math.abs(middle(r) - middle(first)) > Math.min(r.height, first.height) / 2)) {
        say(`${word} is broken across lines`);
      }
      const box = {left: Math.min(...rects.map(r => r.left)), right: Math.max(...rects.map(r => r.right)),
                   top: Math.min(...rects.map(r => r.top)), bottom: Math.max(...rects.map(r => r.bottom))};
      if (box.left < -1 || box.right > width + 1) say(`${word} is off the screen`);
      for (let e = parent; e && e !== document.documentElement; e = e.parentElement) {
        if (!boxed(e)) continue;
        const r = e.getBoundingClientRect();
        if (box.left < r.left - 1 || box.right > r.right + 1) {
          say(`${word} sticks out of ${name(e)}`);
          break;
        }
        if (clips(e)) {
          const inner = {left: r.left + e.clientLeft, top: r.top + e.clientTop};
          if (box.right > inner.left + e.clientWidth + 1 || box.bottom > inner.top + e.clientHeight + 2
              || box.left < inner.left - 1 || box.top < inner.top - 2) {
            say(`${word} is cut off by ${name(e)}`);
            break;
          }
        }
      }
    }
  }
  // Anything an element hides past its edge: text cut off, or a box to scroll sideways (but
  // the table's picture, kept at its least size in a box marked as scrolling, is meant to).
  for (const e of document.body.querySelectorAll('*')) {
    if (!e.closest(within) || left(e) || !clips(e) || e.clientWidth <= 1) continue;
    if (e.matches('.layout[data-scrolls]')) continue;
    if (e.scrollWidth > e.clientWidth + 1) {
      say(`${name(e)} hides ${e.scrollWidth - e.clientWidth} px of its content sideways`);
    }
  }
  return problems;
}"""
"""What breaks a word on the page: a word split across two lines (by ``overflow-wrap``,
``word-break`` or ``hyphens``), a word off the screen, sticking out of its box or cut off
by it, an element hiding content sideways (``scrollWidth`` over ``clientWidth``), the page
scrolling sideways (because of a box looked at). Only text inside ``within`` (a selector) is looked at, and not text inside
``leaveOut``, in form fields or SVG drawings, or for screen readers only (clipped to 1 px)."""


def word_problems(page: Page, within: str = "body", leave_out: str = "") -> list[str]:
    """Every word broken, cut off or sticking out on the page as it is (see
    ``WORD_PROBLEMS_JS``), in what matches the selector ``within`` but not ``leave_out``."""
    problems: list[str] = page.evaluate(WORD_PROBLEMS_JS, [within, leave_out or None])
    return problems


TEXT_SIZES_JS = r"""leaveOut => {
  const out = [];
  [...document.body.querySelectorAll('*')].forEach((e, index) => {
    if ((leaveOut && e.closest(leaveOut))
        || e.closest('script, style, svg, .visually-hidden, .table-picture__text')) return;
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) return;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const text = e.textContent.trim().replace(/\s+/g, ' ').slice(0, 30);
    out.push([index, `${e.tagName.toLowerCase()} "${text}"`,
              parseFloat(getComputedStyle(e).fontSize)]);
  });
  return out;
}"""
"""Each element showing text of its own: its place among the page's elements, what it is and
its computed font size in px."""


def text_sizes(page: Page, leave_out: str = "") -> dict[int, tuple[str, float]]:
    """The font size of every piece of text shown on the page, by the place of its element in
    the page (which a change of text size leaves as it is)."""
    found = page.evaluate(TEXT_SIZES_JS, leave_out or None)
    return {index: (what, size) for index, what, size in found}
