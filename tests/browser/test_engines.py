"""The smoke suite in every browser engine a table brings: Chromium (Android's Chrome), WebKit
(Safari, every iPhone) and Firefox. Each plays a whole hand on a 360x720 phone, settles it and
sees the winner, with JavaScript and without, and measures the settlement's row at both phone
sizes and on Firefox's narrowest window, where it was found squeezed.

WebKit is WebKitGTK (Debian's ``webkit2gtk-driver``) and Firefox is Debian's ``firefox-esr``,
driven by ``tests/support/engines.py``; Chromium is the other browser tests' Playwright page.
Without WebKitGTK or Firefox their tests are skipped with a note on how to install them,
except under CI (``CI=true``), where a missing engine is a failure: CI installs them.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from playwright.sync_api import Page

from scorekeeper.rules import Draw, Event, Game, NewHand, Pass, Play, Settle, Setup
from scorekeeper.rules.simulate import play_game
from tests.browser.browsing import MIRROR, held_text, seed_game
from tests.support.chromium import PORTRAIT
from tests.support.engines import Chromium, Display, Engine, Firefox, WebKit, missing
from tests.support.server import LiveServer

ENGINES = ("chromium", "webkit", "firefox")
SCREENS = {"360x720": (360, 720), "740x360": (740, 360), "500x800": (500, 800)}
"""The phone upright and on its side, and Firefox's narrowest window before its toolbars were
taken away (see tests/support/engines.py), where the settlement's row was found squeezed."""


@dataclass(frozen=True)
class LastHand:
    """A simulated two-player game to 50 cut at the start of its last hand: the hand is played
    out to a domino, and its settlement, with the loser's tiles, makes the winner."""

    setup: Setup
    before: list[Event]
    hand: list[Event]

    @property
    def settle(self) -> Settle:
        last = self.hand[-1]
        assert isinstance(last, Settle)
        return last


@cache
def last_hand() -> LastHand:
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 50})
    for seed in range(500):
        events = list(play_game(setup, random.Random(seed)).events)
        start = max(i for i, event in enumerate(events) if isinstance(event, NewHand))
        settle = events[-1]
        if (
            start > 0  # an earlier hand: the scores do not start at 0
            and len(events) - start > 15
            and isinstance(settle, Settle)
            and all(isinstance(held, tuple) for held in settle.remaining.values())
            and any(isinstance(event, Draw) for event in events[start:])
        ):
            return LastHand(setup, events[: start + 1], events[start + 1 :])
    raise AssertionError("no simulated game ends on a settlement of tiles after a drawn hand")


# -- the engines ----------------------------------------------------------------------------


class Engines:
    """The WebKit and Firefox browsers of this process, started when a test first asks for
    one (with or without JavaScript) and kept for the next: a start costs 2 to 6 s."""

    def __init__(self, nowhere: str) -> None:
        self.nowhere = nowhere
        self.started: dict[tuple[str, bool], Engine] = {}
        self.display: Display | None = None

    def get(self, name: str, javascript: bool) -> Engine:
        key = (name, javascript)
        if key not in self.started:
            if name == "webkit":
                self.display = self.display or Display()
                self.started[key] = WebKit(self.display, self.nowhere, javascript)
            else:
                self.started[key] = Firefox(self.nowhere, javascript)
        return self.started[key]

    def close(self) -> None:
        for engine in self.started.values():
            engine.close()
        if self.display:
            self.display.close()


@pytest.fixture(scope="session")
def engines(nowhere: str) -> Iterator[Engines]:
    started = Engines(nowhere)
    yield started
    started.close()


@pytest.fixture
def open_engine(request: pytest.FixtureRequest, engines: Engines) -> Callable[[bool], Engine]:
    """Opens the test's engine (its parameter ``engine``), with JavaScript or without."""
    name: str = request.node.callspec.params["engine"]
    reason = missing(name) if name != "chromium" else None
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)

    def open_it(javascript: bool = True) -> Engine:
        if name == "chromium":
            # Asked for here, not as an argument: an argument would make pytest-playwright
            # name every test of the suite after Chromium.
            watched_page: Callable[..., Page] = request.getfixturevalue("watched_page")
            return Chromium(watched_page({**PORTRAIT, "java_script_enabled": javascript}))
        return engines.get(name, javascript)

    return open_it


# -- entering a hand ------------------------------------------------------------------------


class Entry:
    """Enters events on a table page by clicking, checked against the referee (``shadow``);
    each entry waits for the table with one more entry (``#table[data-seq]``)."""

    def __init__(self, engine: Engine, setup: Setup, before: list[Event]) -> None:
        self.engine = engine
        self.shadow = Game(setup)
        for event in before:
            self.shadow.push(event)
        self.seq = self.current_seq()
        self.mirrored = False

    def current_seq(self) -> int:
        return int(
            self.engine.wait("the table", lambda: self.engine.attribute("#table", "data-seq"))
        )

    def entered(self) -> None:
        self.seq += 1
        want = str(self.seq)
        self.engine.wait(
            f"entry {want}", lambda: self.engine.attribute("#table", "data-seq") == want
        )

    def tap(self, css: str) -> None:
        """Click ``css`` once it is there (again if the page replaced it meanwhile)."""

        def click() -> bool:
            self.engine.click(css)
            return True

        self.engine.wait(f"a click on {css}", click)

    def enter(self, event: Event) -> None:
        hand = self.shadow.hand
        assert hand is not None
        if isinstance(event, Play):
            tile = f'button[data-tile="{event.tile}"]:not([data-end])'
            fits = self.shadow.fits(event.tile) if hand.plays else []
            if not hand.plays:
                # The page leads with the high half on W: a lead written low first is mirrored.
                self.mirrored = event.flipped
            self.tap(tile)
            if len(fits) > 1:
                assert event.end is not None
                end = MIRROR.get(event.end, event.end) if self.mirrored else event.end
                self.tap(f'.end-buttons button[data-end="{end}"]')
            self.entered()
        elif isinstance(event, Draw):
            for _ in range(event.count):
                self.tap('[data-action="draw"]')
                self.entered()
        else:
            assert isinstance(event, Pass), event
            self.tap('[data-action="pass"]')
            self.entered()
        self.shadow.push(event)

    def expect_scores(self) -> None:
        for side, points in zip(self.shadow.sides, self.shadow.scores, strict=True):
            shown = self.engine.text(f'[data-side-score="{side}"]')
            assert shown == str(points), f"{self.engine.name}: {side} shows {shown}, not {points}"


def has_htmx(engine: Engine) -> bool:
    return bool(engine.script("return typeof window.htmx !== 'undefined'"))


def play_to_the_winner(engine: Engine, live_server: LiveServer, javascript: bool) -> None:
    game = last_hand()
    assert engine.fit_viewport(*SCREENS["360x720"]) == SCREENS["360x720"]
    engine.goto(seed_game(live_server, game.setup, game.before))
    entry = Entry(engine, game.setup, game.before)
    entry.expect_scores()
    for event in game.hand[:-1]:
        entry.enter(event)
    entry.expect_scores()  # the domino's points, before the settlement
    assert engine.attribute("#table", "data-phase") == "settle"
    assert has_htmx(engine) is javascript

    for seat, held in game.settle.remaining.items():
        field = f'input[name="held-{seat}"]'
        if javascript:
            # Tap the tiles: the page writes them into the field.
            entry.tap(f'details[data-held-tray="{seat}"] > summary')
            assert isinstance(held, tuple)
            for tile in held:
                entry.tap(f'label.held-tile:has(> input[name="tiles-{seat}"][value="{tile}"])')
            want = held_text(held)
            engine.wait(f"{want} in {field}", lambda f=field, w=want: engine.value(f) == w)
        else:
            engine.type(field, held_text(held))
    entry.tap(".settle-form button[type=submit]")
    entry.shadow.push(game.settle)

    winner = entry.shadow.winner
    assert winner is not None
    name = entry.shadow.sides[winner]
    engine.wait("the winner", lambda: engine.count("#winner"))
    assert engine.attribute("#winner", "data-winner") == name
    assert engine.text("#winner h2") == f"{name} wins!"
    for side, points in zip(entry.shadow.sides, entry.shadow.scores, strict=True):
        assert engine.text(f'[data-final-score="{side}"]') == str(points)


ROW = """
const form = document.querySelector('.settle-form');
const entry = form.querySelector('.held-entry');
const field = entry.querySelector('input[name^="held-"]');
const summary = entry.querySelector('.held-tray > summary');
const style = getComputedStyle(field);
const pen = document.createElement('canvas').getContext('2d');
pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
return {
  form: form.getBoundingClientRect().width,
  entry: entry.getBoundingClientRect().width,
  room: field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
  hint: pen.measureText(field.placeholder).width,
  firstWords: pen.measureText(field.placeholder.split(',')[0]).width,
  words: summary.scrollWidth,
  box: summary.clientWidth,
  lines: Math.round((summary.clientHeight - parseFloat(getComputedStyle(summary).paddingTop)
    - parseFloat(getComputedStyle(summary).paddingBottom))
    / parseFloat(getComputedStyle(summary).lineHeight)),
};
"""
"""The settlement row's measures: the form's and the entry's widths, the room for text in the
pip field and what its placeholder needs (whole, and its first words: "pip total"), and the
"Or tap" button's words against its box."""


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("engine", ENGINES)
def test_the_settlement_row_gives_the_field_and_or_tap_room(
    live_server: LiveServer, open_engine: Callable[[bool], Engine], engine: str, screen: str
) -> None:
    """A two-player hand's loser on one row: "Or tap Bob's tile" keeps its words inside its
    box, on two lines at most, and the pip field shows what to type ("pip total", its whole
    hint where the form is wide enough). Firefox's narrowest window (500 px) showed the entry
    in half the form, the box narrower than its words, and the field only "pip"; WebKit and
    Chromium did the same from about 420 px wide, and on a phone on its side."""
    game = last_hand()
    page = open_engine(True)
    assert page.fit_viewport(*SCREENS[screen]) == SCREENS[screen]
    page.goto(seed_game(live_server, game.setup, game.before + game.hand[:-1]))
    page.wait("the settlement form", lambda: page.count(".settle-form .held-entry"))
    row = page.script(ROW)
    assert row["entry"] >= row["form"] - 1, f"the entry takes {row['entry']} of {row['form']} px"
    assert row["words"] <= row["box"] + 1, f"Or tap's words ({row['words']} px) leave its box"
    assert row["lines"] <= 2, f"Or tap takes {row['lines']} lines"
    assert row["firstWords"] <= row["room"], f"the field shows {row['room']} px of its hint"
    if row["form"] >= 440:
        assert row["hint"] <= row["room"], f"the field shows {row['room']} of {row['hint']} px"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_whole_hand_settled_by_tapping_tiles_to_the_winner(
    live_server: LiveServer, open_engine: Callable[[bool], Engine], engine: str
) -> None:
    play_to_the_winner(open_engine(True), live_server, javascript=True)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_whole_hand_to_the_winner_without_javascript(
    live_server: LiveServer, open_engine: Callable[[bool], Engine], engine: str
) -> None:
    play_to_the_winner(open_engine(False), live_server, javascript=False)
