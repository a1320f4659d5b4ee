"""How long a player waits after a tap: from the tap to the updated table painted on screen.

Run from the repository root: ``.venv/bin/python -m bench.tap_latency`` (about 2 minutes on a
quiet machine; ``--cycles N`` for more taps a run, ``--runs N`` for more runs). Target: the
updated table is on screen within 150 ms of a tap at the 90th percentile, in hand 25, on a
phone whose CPU is slowed four times (the defaults: ``--hand 25 --throttle 4``).

Setup: the app on a throwaway SQLite file (migrated like production), served by Werkzeug on
127.0.0.1 in a background thread; Debian's Chromium (``/usr/bin/chromium``, ``$CHROMIUM``, or
else the headless shell the browser tests drive, ``--browser PATH``) driven by Playwright as a
360x720 touch phone (``--throttle N`` slows its CPU N times, as DevTools does, through CDP's
``Emulation.setCPUThrottlingRate``). A game is imported through the Import page from a
deterministic record (the simulated table, fixed seed, cut in the middle of hand 25, or of
``--hand N``), then the script taps, in cycles: play a tile that fits exactly one end, draw,
play again, then undo the three. The tapped tile is chosen by the referee running alongside
in this script, which also checks that every tap changed the game (the table's ``data-seq``
after it).

Two arms take turns in each run, each on a newly imported copy of the game in a new phone
context: **parts**, the site as it is (an entry's answer leaves out the parts of the table
the page holds unchanged: ``static/js/parts.js``), and **whole**, the same with parts.js
blocked, so that every answer is the whole table, as before. A third arm, **earlier**
(``--arms parts,earlier --earlier-scripts FOLDER``), is the parts arm with the page's scripts
served from FOLDER, to weigh a change to them against the scripts as they were, in the same
conditions. Printed beside the times: the
table's weight on the page (bytes of ``#table``'s HTML after a fresh load), each answer's size
(the swapped part), the server's CPU for each entry (the thread that answered it), and the
server's calibration of the run: a trivial request's CPU and the floor (one INSERT and
COMMIT and a 56 KB page from a compiled template: ``bench/calibration.py``'s
``calibrate_in_process``, on an app of its own in this process).

Method, in the page (an init script, so it runs in every document):

* **tap**: a capturing ``click`` listener on the document notes ``performance.now()``: the
  click, dispatched when the finger lifts, is what submits the form. A ``pointerdown``
  listener also notes the touch's own ``timeStamp`` (when the touch reached the browser);
  "from the touch" adds the time Chromium took to turn Playwright's touch-start/touch-end
  pair into a click (under load, tens of ms; a real finger's press time is not latency).
* **swapped in**: a ``MutationObserver`` on the document notes the moment a new
  ``<section id="table">`` is inserted (htmx swaps the table's root, ``outerHTML``, with the
  parts it keeps moved into it).
* **painted**: from that moment, the next ``requestAnimationFrame`` callback runs just before
  the frame holding the new table is rendered; a message posted from it (``MessageChannel``)
  is delivered right after that frame is produced. That is the headline figure. The
  conservative "double rAF" (the start of the frame after it, up to one frame later) is also
  printed.
* **where the time goes**: the Resource Timing entry of the htmx request splits the wait into
  click to request sent (htmx building the request), request to last byte (network and
  server: replaying the game, rendering the table), last byte to swap (htmx parsing and
  swapping) and swap to paint (style, layout, paint).
* htmx restores the new table root's own attributes (``class``, ``data-seq``) when it
  settles; the app sets htmx's settle delay to 0, so that is at the swap. "to htmx settled"
  is printed too.

With ``--full-page-cycles N`` the same cycle also runs as a browser without JavaScript would
(htmx's script is blocked, so the forms POST, the server redirects and the browser loads the
whole page): tap to the new page's first contentful paint, carried across the navigation in
``sessionStorage`` as absolute times (``performance.timeOrigin`` plus the page clock).

The figures are not asserted by any test: timing on a shared 2-core machine is noisy.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask
from playwright.sync_api import Browser, Page, Response, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from bench.calibration import Calibration, calibrate_in_process
from scorekeeper.rules import ALL_TILES, Draw, Game, Play, Setup, Tile
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.simulate import play_game
from tests.support.chromium import CHROMIUM, LAUNCH_ARGS, PHONE, TEST_BROWSER
from tests.support.server import LiveServer, migrated_app

TARGET_P90_MS = 150.0
"""The 90th percentile the site holds itself to (run with ``--throttle 4``)."""
CYCLE = ("play", "draw", "play", "undo", "undo", "undo")
"""One cycle of taps; it leaves the game as it found it, so cycles can repeat."""

PROBE = """
(() => {
  const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  });
  const doubleRaf = (done) => requestAnimationFrame(
    () => requestAnimationFrame(() => done(performance.now())));
  const probe = window.__tap = {samples: [], pending: null};
  const stamp = (event) => (event.timeStamp > 0 ? event.timeStamp : performance.now());
  document.addEventListener("pointerdown", (event) => {
    probe.pending = {down: stamp(event)};
  }, true);
  document.addEventListener("click", (event) => {
    const sample = probe.pending || (probe.pending = {});
    sample.start = performance.now();
    sessionStorage.setItem("tap-start", String(performance.timeOrigin + sample.start));
  }, true);
  new MutationObserver((mutations) => {
    const sample = probe.pending;
    if (!sample) return;
    const added = mutations.some((m) => [...m.addedNodes].some((n) => n.id === "table"));
    if (!added || sample.start === undefined) return;
    probe.pending = null;
    probe.last = sample;
    sample.swapped = performance.now();
    const xhr = performance.getEntriesByType("resource")
      .filter((e) => e.initiatorType === "xmlhttprequest" || e.initiatorType === "fetch").pop();
    sample.sent = xhr ? xhr.startTime : null;
    sample.received = xhr ? xhr.responseEnd : null;
    let waiting = 2;
    const finish = () => { if (--waiting === 0) probe.samples.push(sample); };
    afterPaint((t) => { sample.painted = t; finish(); });
    doubleRaf((t) => { sample.doubleRaf = t; finish(); });
  }).observe(document, {childList: true, subtree: true});
  document.addEventListener("htmx:afterSettle", () => {
    // With no settle delay htmx settles before the MutationObserver has filed the sample.
    const pending = probe.pending && probe.pending.start !== undefined ? probe.pending : null;
    const sample = pending || probe.last;
    if (sample && sample.settled === undefined) sample.settled = performance.now();
  });
  // A full page load after a plain form POST: tap to first contentful paint.
  const tapped = sessionStorage.getItem("tap-start");
  if (tapped !== null) {
    sessionStorage.removeItem("tap-start");
    new PerformanceObserver((list, observer) => {
      for (const entry of list.getEntries()) {
        if (entry.name !== "first-contentful-paint") continue;
        observer.disconnect();
        const total = performance.timeOrigin + entry.startTime - Number(tapped);
        const all = JSON.parse(sessionStorage.getItem("full-page") || "[]");
        all.push(total);
        sessionStorage.setItem("full-page", JSON.stringify(all));
      }
    }).observe({type: "paint", buffered: true});
  }
})();
"""


# -- the game ----------------------------------------------------------------------------


def start_record(seed: int = 7, number: int = 2) -> str:
    """A 2-player All Fives record cut in the middle of hand ``number`` (six tiles down, tiles
    to draw). Past hand 2 the game is played to 1,000, so that it lasts that long."""
    options = {} if number <= 2 else {"target": 1000}
    whole = play_game(Setup.create(["Ann", "Ben"], "all-fives", options), random.Random(seed))
    game = Game(whole.setup)
    for event in whole.events:
        game.push(event)
        hand = game.hand
        if hand is not None and hand.number == number and len(hand.plays) == 6:
            break
    hand = game.hand
    if hand is None or hand.number != number or game.phase != "play" or game.drawable() < 2:
        raise SystemExit(f"seed {seed} does not give hand {number} in play with tiles to draw")
    return json.dumps(write_record(game, every_rule=True))


def one_end_tile(game: Game) -> Tile:
    """The first tile (in the picker's order) not on the table that fits exactly one end."""
    hand = game.hand
    assert hand is not None
    for candidate in ALL_TILES:
        if candidate not in hand.layout.on_table and len(game.fits(candidate)) == 1:
            return candidate
    raise SystemExit("no tile fits exactly one end: change the seed")


class Referee:
    """The game as the app should have it after each tap, and the selector to tap next."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def tap(self, kind: str) -> str:
        """Apply ``kind`` here and return the CSS selector of the button that enters it."""
        hand = self.game.hand
        assert hand is not None
        if kind == "play":
            chosen = one_end_tile(self.game)
            self.game.push(Play(hand.turn, chosen, None))
            return f'button.tile-button[data-tile="{chosen}"]'
        if kind == "draw":
            self.game.push(Draw(hand.turn, 1))
            return 'button[data-action="draw"]'
        self.game.pop()
        return 'button[data-action="undo"]'

    @property
    def seq(self) -> int:
        """How many events the game has: the table's ``data-seq`` must say the same."""
        return len(self.game.events)


# -- the server and the browser ----------------------------------------------------------


SERVER_CPU: list[float] = []
"""The server's CPU of each entry answered (ms): its request thread's own time."""


@contextmanager
def serve(folder: Path) -> Iterator[LiveServer]:
    """The app on a new SQLite file in ``folder``, migrated, served on 127.0.0.1; each entry's
    CPU (the thread that answers it: Werkzeug serves each request in a thread of its own)
    noted in :data:`SERVER_CPU`."""
    app = migrated_app(folder / "bench.sqlite")

    @app.before_request
    def started() -> None:
        flask.g.bench_cpu = time.thread_time()

    @app.teardown_request
    def finished(_error: BaseException | None) -> None:
        if flask.request.method == "POST" and "bench_cpu" in flask.g:
            SERVER_CPU.append((time.thread_time() - flask.g.bench_cpu) * 1000)

    with LiveServer(app) as server:
        yield server


def import_game(page: Page, base: str, record: str) -> str:
    """Paste ``record`` into the Import page; the URL of the imported game's table."""
    page.goto(base + "/games/import")
    page.fill("textarea[name=text]", record)
    with page.expect_navigation():
        page.click("form.import-form button[type=submit]")
    page.wait_for_selector("#table")
    return page.url


SETTLED = 60_000
"""How long the bench waits for a tap's answer to be on the page, in ms: a busy machine is
slow, not wrong, and the figures say how slow. Only a table that never comes is a failure."""

QUIET = """() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')
  && !(window.__tap && window.__tap.pending)"""
"""No request of the page on its way (an entry, or the live poll), nothing being swapped in."""


def expect_seq(page: Page, kind: str, seq: int) -> None:
    """Fail unless the table comes to show ``seq`` events (htmx sets the root's attributes
    when it settles)."""
    try:
        page.wait_for_function(
            f"() => document.querySelector('#table')?.dataset.seq === '{seq}'", timeout=SETTLED
        )
    except PlaywrightError:
        shown = page.get_attribute("#table", "data-seq")
        raise SystemExit(f"after a {kind} tap the table shows seq {shown}, not {seq}") from None


def is_entry(response: Response) -> bool:
    """Whether ``response`` answers an entry (a POST to the game's table)."""
    return response.request.method == "POST" and "/games/" in response.url


def htmx_taps(page: Page, referee: Referee, cycles: int) -> list[dict[str, Any]]:
    """Tap through ``cycles`` cycles with htmx; one sample (with its kind) per tap.

    Each tap waits for the page to be quiet first (no entry or live poll on its way, nothing
    being swapped), and then for the entry's own answer, however long a busy machine takes:
    the bench times the taps, it does not race them."""
    samples: list[dict[str, Any]] = []
    for _ in range(cycles):
        for kind in CYCLE:
            selector = referee.tap(kind)
            count = len(samples)
            page.wait_for_function(QUIET, timeout=SETTLED)
            with page.expect_response(is_entry, timeout=SETTLED) as answered:
                page.tap(selector)
            if answered.value.status != 200:
                raise SystemExit(f"a {kind} tap was answered {answered.value.status}")
            swapped = len(answered.value.body())
            page.wait_for_function(f"() => window.__tap.samples.length > {count}", timeout=SETTLED)
            expect_seq(page, kind, referee.seq)
            page.wait_for_function(
                f"() => window.__tap.samples[{count}].settled !== undefined", timeout=SETTLED
            )
            sample = page.evaluate(f"() => window.__tap.samples[{count}]")
            samples.append({**sample, "kind": kind, "bytes": swapped})
    return samples


def full_page_taps(page: Page, referee: Referee, cycles: int) -> list[dict[str, Any]]:
    """The same cycles as plain form POSTs (htmx blocked): tap to the new page's first paint."""
    samples: list[dict[str, Any]] = []
    for _ in range(cycles):
        for kind in CYCLE:
            selector = referee.tap(kind)
            with page.expect_navigation(wait_until="load"):
                page.tap(selector)
            wanted = len(samples) + 1
            page.wait_for_function(
                f"() => JSON.parse(sessionStorage.getItem('full-page') || '[]').length >= {wanted}"
            )
            total = page.evaluate("() => JSON.parse(sessionStorage.getItem('full-page')).at(-1)")
            expect_seq(page, kind, referee.seq)
            samples.append({"kind": kind, "total": total})
    return samples


def phone_page(
    browser: Browser,
    *,
    htmx: bool,
    throttle: float = 1,
    parts: bool = True,
    scripts: Path | None = None,
) -> Page:
    """A new phone context, 360x720, with the probe installed (and htmx blocked when ``htmx``
    is false; without ``parts``, static/js/parts.js blocked, so that every entry's answer is
    the whole table; with ``scripts``, a folder, the page's scripts of static/js that it holds
    served from there); its CPU slowed ``throttle`` times, as DevTools' CPU throttling does."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 720}})
    context.add_init_script(PROBE)
    if scripts is not None:
        folder = scripts

        def earlier(route: Route) -> None:
            held = folder / route.request.url.split("?")[0].rsplit("/", 1)[-1]
            if held.is_file():
                route.fulfill(path=held, content_type="text/javascript")
            else:
                route.continue_()

        context.route("**/js/*.js*", earlier)
    if not htmx:
        context.route("**/vendor/htmx*", lambda route: route.abort())
    if not parts:
        context.route("**/js/parts.js*", lambda route: route.abort())
    page = context.new_page()
    if throttle != 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return page


RENDERING = ("ParseHTML", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")
"""Chromium's trace events of style, layout and paint on the page's main thread."""

SCRIPT = (
    "XHRLoad",
    "XHRReadyStateChange",
    "FunctionCall",
    "EventDispatch",
    "TimerFire",
    "FireAnimationFrame",
    "RunMicrotasks",
)
"""Chromium's trace events of the page's scripts running: a style or layout update inside one
of them was forced by a script reading what only an update can tell (a box's size, a computed
style); one outside them is the frame's own."""


def phone_work(page: Page, referee: Referee, throttle: float) -> dict[str, float]:
    """The phone's own work for a tap, one more cycle traced (Chromium's ``devtools.timeline``
    events on the page's main thread, each with the CPU time its thread spent, ``tdur``): in
    ms a tap, the handling of the answer (``XHRLoad``: htmx parsing and swapping it in, the
    page's scripts reacting, the layouts they force) and the style, layout and paint done in
    frames. CPU time, not time waited: a busy machine does not add to it as it adds to the
    wall-clock figures, so the arms compare on it even when the machine is shared. It is
    measured with the CPU not slowed (Chromium's throttling counts as CPU time, and unevenly):
    a phone ``throttle`` times slower spends about ``throttle`` times as much. Playwright
    polls the page while it waits (a few style updates a frame), in both arms alike.

    Counted too, a tap: the style updates (``UpdateLayoutTree``) and layouts forced by
    scripts, wherever they run (htmx's swap, the page's scripts after it, their animation
    frames), and the CPU they took."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    events: list[dict[str, Any]] = []
    complete: list[bool] = []
    session.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    session.on("Tracing.tracingComplete", lambda params: complete.append(True))
    session.send(
        "Tracing.start", {"categories": "devtools.timeline", "transferMode": "ReportEvents"}
    )
    taps = len(htmx_taps(page, referee, 1))
    session.send("Tracing.end")
    while not complete:
        page.wait_for_timeout(50)
    session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    threads = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    timed = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) in threads and e.get("ph") == "X"),
        key=lambda e: e["ts"],
    )
    answer = frames = forced_cpu = 0.0
    forced_styles = forced_layouts = 0
    inside_until = script_until = -1.0
    for event in timed:
        cpu = event.get("tdur", 0) / 1000
        end = event["ts"] + event.get("dur", 0)
        if event["name"] in ("UpdateLayoutTree", "Layout") and event["ts"] < script_until:
            forced_cpu += cpu
            if event["name"] == "Layout":
                forced_layouts += 1
            else:
                forced_styles += 1
        if event["name"] in SCRIPT:
            script_until = max(script_until, end)
        if event["name"] == "XHRLoad":
            answer += cpu
            inside_until = max(inside_until, end)
        elif event["name"] in RENDERING and event["ts"] >= inside_until:
            frames += cpu
            inside_until = max(inside_until, end)
    return {
        "answer": answer / taps,
        "frames": frames / taps,
        "forced_styles": forced_styles / taps,
        "forced_layouts": forced_layouts / taps,
        "forced_cpu": forced_cpu / taps,
    }


# -- the report --------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` between 0 and 1)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def row(label: str, values: list[float]) -> str:
    """One line of the table: count, median, p90 and max in milliseconds."""
    return (
        f"  {label:<22} {len(values):>4} {statistics.median(values):>8.1f} "
        f"{percentile(values, 0.9):>8.1f} {max(values):>8.1f}"
    )


def header(title: str) -> None:
    """A table heading."""
    print(f"\n{title}")
    print(f"  {'':<22} {'taps':>4} {'median':>8} {'p90':>8} {'max':>8}   (ms)")


def where_the_time_goes(title: str, htmx: list[dict[str, Any]]) -> None:
    """Tap to painted per action kind and overall, and its steps, for the taps ``htmx``."""
    painted: dict[str, list[float]] = {s["kind"]: [] for s in htmx}
    for s in htmx:
        painted[s["kind"]].append(s["painted"] - s["start"])
    header(title)
    for kind, values in painted.items():
        print(row(kind, values))
    print(row("all taps", [s["painted"] - s["start"] for s in htmx]))
    print(row("  (double rAF)", [s["doubleRaf"] - s["start"] for s in htmx]))
    print(row("  (from the touch)", [s["painted"] - s["down"] for s in htmx if "down" in s]))
    print(row("  (to htmx settled)", [s["settled"] - s["start"] for s in htmx]))
    timed = [s for s in htmx if s["sent"] is not None]
    print("  where the time goes:")
    print(row("  click -> request", [s["sent"] - s["start"] for s in timed]))
    print(row("  request -> response", [s["received"] - s["sent"] for s in timed]))
    print(row("  response -> swap", [s["swapped"] - s["received"] for s in timed]))
    print(row("  swap -> painted", [s["painted"] - s["swapped"] for s in htmx]))


def full_page_report(full: list[dict[str, Any]]) -> None:
    """Tap to the new page's first paint without htmx, per action kind and overall."""
    header("full page (no htmx): click -> POST, redirect, new page's first paint")
    by_kind: dict[str, list[float]] = {s["kind"]: [] for s in full}
    for s in full:
        by_kind[s["kind"]].append(s["total"])
    for kind, values in by_kind.items():
        print(row(kind, values))
    print(row("all taps", [s["total"] for s in full]))


ARMS = {
    "parts": "an entry's answer leaves the parts the page holds unchanged (static/js/parts.js)",
    "whole": "every answer the whole table (parts.js blocked)",
    "earlier": "as parts, the page's scripts taken from --earlier-scripts (an earlier commit's)",
}


def kilobytes(values: list[int]) -> str:
    """The median of ``values`` (bytes) in KB, with the range."""
    return f"{statistics.median(values) / 1000:.1f} KB ({min(values) / 1000:.1f}-{max(values) / 1000:.1f})"


def run_line(number: int, arm: str, measured: dict[str, Any]) -> str:
    """One run of one arm in a line: tap to painted, the bytes, the server's CPU."""
    every = [s["painted"] - s["start"] for s in measured["taps"]]
    by_kind = ", ".join(
        f"{kind} {kilobytes([s['bytes'] for s in measured['taps'] if s['kind'] == kind])}"
        for kind in dict.fromkeys(CYCLE)
    )
    return (
        f"  run {number} {arm:<5} p50 {statistics.median(every):6.1f}  p90 "
        f"{percentile(every, 0.9):6.1f}  max {max(every):6.1f} ms; table "
        f"{measured['weight'] / 1000:.1f} KB, answers {by_kind}; server CPU an entry "
        f"{statistics.median(measured['server']):.2f} ms; the phone's CPU a tap (not slowed): answer "
        f"{measured['work']['answer']:.1f} ms, frames {measured['work']['frames']:.1f} ms; "
        f"forced by scripts, a tap: {measured['work']['forced_styles']:.1f} style updates, "
        f"{measured['work']['forced_layouts']:.1f} layouts, {measured['work']['forced_cpu']:.1f} ms"
    )


def summary(runs: list[dict[str, dict[str, Any]]], calibrations: list[Calibration]) -> None:
    """Each arm's p90 over the runs (median and spread) and the verdict against the target."""
    print("\nEach run (tap to painted, ms; the table's weight on the page; each answer's size):")
    for number, arms in enumerate(runs, 1):
        for arm, measured in arms.items():
            print(run_line(number, arm, measured))
        print(f"        {calibrations[number - 1].line('the app in this process')}")
    print()
    for arm in runs[0]:
        p90s = [percentile([s["painted"] - s["start"] for s in r[arm]["taps"]], 0.9) for r in runs]
        p50s = [
            statistics.median([s["painted"] - s["start"] for s in r[arm]["taps"]]) for r in runs
        ]
        work = [r[arm]["work"]["answer"] + r[arm]["work"]["frames"] for r in runs]
        forced = [r[arm]["work"]["forced_cpu"] for r in runs]
        verdict = "met" if statistics.median(p90s) < TARGET_P90_MS else "MISSED"
        print(
            f"{arm}: p90 median of {len(runs)} runs {statistics.median(p90s):.1f} ms (spread "
            f"{min(p90s):.1f}-{max(p90s):.1f}), p50 {statistics.median(p50s):.1f} ms; target "
            f"p90 under {TARGET_P90_MS:.0f} ms: {verdict}; the phone's CPU a tap, not slowed "
            f"(answer and frames) {statistics.median(work):.1f} ms ({min(work):.1f}-{max(work):.1f}), "
            f"of which forced by scripts {statistics.median(forced):.1f} ms "
            f"({min(forced):.1f}-{max(forced):.1f})"
        )


def main() -> None:
    """Import the game, tap through the cycles in each arm and run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=5, help=f"measured cycles of {CYCLE}")
    parser.add_argument("--runs", type=int, default=3, help="runs, each arm once a run")
    parser.add_argument("--arms", default="parts,whole", help=f"of {', '.join(ARMS)}")
    parser.add_argument("--full-page-cycles", type=int, default=0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hand", type=int, default=25, help="the hand the taps are made in")
    parser.add_argument("--throttle", type=float, default=4, help="slow the phone's CPU N times")
    parser.add_argument("--browser", default=CHROMIUM if Path(CHROMIUM).exists() else TEST_BROWSER)
    parser.add_argument(
        "--earlier-scripts",
        type=Path,
        help="for the arm 'earlier': a folder of static/js's scripts as they were, e.g. "
        "git archive REV static/js | tar -x -C /tmp/earlier (then /tmp/earlier/static/js)",
    )
    args = parser.parse_args()
    arms = [arm for arm in args.arms.split(",") if arm]
    if not arms or set(arms) - set(ARMS):
        raise SystemExit(f"--arms: choose among {', '.join(ARMS)}")
    if "earlier" in arms and (args.earlier_scripts is None or not args.earlier_scripts.is_dir()):
        raise SystemExit("the arm 'earlier' needs --earlier-scripts FOLDER")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    record = start_record(args.seed, args.hand)
    began = time.perf_counter()
    runs: list[dict[str, dict[str, Any]]] = []
    calibrations: list[Calibration] = []
    full: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        serve(Path(folder)) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=args.browser, args=LAUNCH_ARGS)
        for number in range(args.runs):
            measured: dict[str, dict[str, Any]] = {}
            # The arms take turns, the first of them changing every run.
            for arm in arms if number % 2 == 0 else reversed(arms):
                page = phone_page(
                    browser,
                    htmx=True,
                    throttle=args.throttle,
                    parts=arm != "whole",
                    scripts=args.earlier_scripts if arm == "earlier" else None,
                )
                import_game(page, server.url, record)
                weight = page.evaluate(
                    "() => new TextEncoder().encode(document.getElementById('table').outerHTML)"
                    ".length"
                )
                referee = Referee(load_record(record))
                htmx_taps(page, referee, 1)  # warm-up: caches, first template renders, JIT
                SERVER_CPU.clear()
                taps = htmx_taps(page, referee, args.cycles)
                cpu = list(SERVER_CPU)
                work = phone_work(page, referee, args.throttle)
                measured[arm] = {"taps": taps, "weight": weight, "server": cpu, "work": work}
                page.context.close()
            runs.append({arm: measured[arm] for arm in arms})
            # The server's calibration of this run: a trivial request and the floor, on an
            # app of its own in this process (the served app runs here too).
            app = migrated_app(
                Path(folder) / f"calibration-{number}.sqlite", RATELIMIT_ENABLED=False
            )
            calibrations.append(calibrate_in_process(app, runs=1))
        if args.full_page_cycles:
            plain = phone_page(browser, htmx=False, throttle=args.throttle)
            url = import_game(plain, server.url, record)
            plain.goto(url)
            full = full_page_taps(plain, Referee(load_record(record)), args.full_page_cycles)
        browser.close()
    print(
        f"Chromium {args.browser}, 360x720 touch phone, CPU throttled {args.throttle:g}x, "
        f"Werkzeug threaded server on 127.0.0.1, SQLite; hand {args.hand}; {args.runs} runs of "
        f"{args.cycles * len(CYCLE)} htmx taps an arm after a warm-up cycle; "
        f"{time.perf_counter() - began:.1f} s in all; load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs (a shared machine: other work runs beside the bench)."
    )
    for arm in arms:
        where_the_time_goes(
            f"{arm}: {ARMS[arm]}; click -> updated table painted, every run",
            [s for r in runs for s in r[arm]["taps"]],
        )
    if full:
        full_page_report(full)
    summary(runs, calibrations)


if __name__ == "__main__":
    main()
