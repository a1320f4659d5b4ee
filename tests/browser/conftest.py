"""Real-browser tests: Playwright driving Debian's Chromium against a live server.

Without Chromium these tests are skipped with a note on how to install it, except under CI
(``CI=true``), where a missing browser is an error: the browser tests must run there.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.browser.browsing import HTMX_TRAIL, PolicyWatch, reset_text_size
from tests.support.chromium import DESKTOP, LAUNCH_ARGS, PHONE, TEST_BROWSER, WALL
from tests.support.server import ROBOT_ENTRIES, LiveServer, migrated_app

# An entry shows within a few hundred milliseconds; 10 s (not Playwright's 5 s) leaves room for
# a CI machine busy with other work, so that only a page that never shows it fails.
expect.set_options(timeout=10_000)

HAVE_CHROMIUM = Path(TEST_BROWSER).exists()
INSTALL_HINT = (
    "Chromium is missing: install it with `sudo apt-get install chromium-headless-shell` to run"
    " the browser tests."
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip browser tests without Chromium, unless under CI where that is a failure."""
    if HAVE_CHROMIUM:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"CI=true but {INSTALL_HINT}")
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason=INSTALL_HINT)
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def nowhere() -> Iterator[str]:
    """``host:port`` of a port of 127.0.0.1 that refuses every connection (taken, never
    listened on), for as long as the tests run."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        host, port = taken.getsockname()
        yield f"{host}:{port}"


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], nowhere: str
) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright cannot download its own browser here), with a
    proxy that refuses every connection for everything but this machine: no request leaves
    it, and each one that tries fails, which ``Offline`` records."""
    return {
        **browser_type_launch_args,
        "executable_path": TEST_BROWSER,
        # Chromium never sends requests to 127.0.0.1 or localhost through a proxy.
        "args": [*LAUNCH_ARGS, f"--proxy-server=http://{nowhere}"],
    }


def _served(database: Path) -> LiveServer:
    """The app, CSRF on as in production, on a new SQLite file migrated to the latest schema."""
    return LiveServer(migrated_app(database, TESTING=True, RATELIMIT_ENTRIES=ROBOT_ENTRIES))


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for all the tests of this process (of each xdist worker) that ``live_server``
    serves: starting a server on a new database for each of hundreds of tests took a good part
    of their time. Each test starts its own games, with their own secret keys, and reads only
    those; a test that changes the whole server asks for its own (``fresh_server``)."""
    with _served(tmp_path_factory.mktemp("shared") / "browser.sqlite") as server:
        yield server


@pytest.fixture
def live_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    """The app, CSRF on as in production, on a SQLite database migrated to the latest schema,
    with the rate limits counted from zero as on a server just started.

    The server is shared with the other tests of this process, unless the test is marked
    ``fresh_server``: then it is a new one on a new database, for this test alone (one that
    stops the server, or changes every game in the database)."""
    if request.node.get_closest_marker("fresh_server"):
        with _served(tmp_path / "browser.sqlite") as server:
            yield server
        return
    server: LiveServer = request.getfixturevalue("shared_server")
    for limiter in server.app.extensions.get("limiter", ()):
        limiter.reset()  # what the tests before this one sent counts for nothing
    yield server


class Offline:
    """Records every request that tried to leave this machine: the browser's proxy stops it
    (see ``browser_type_launch_args``), so it fails.

    The browser context used to route every request through the test to stop those, which
    also turned the browser's cache off and made every page, stylesheet, script and htmx
    request wait for Python: a third of the browser tests' time."""

    def __init__(self) -> None:
        self.escaped: list[str] = []

    def failed(self, request: Request) -> None:
        """Note a request that failed, unless it was for this machine (one a test stopped)."""
        url = request.url
        host = urlsplit(url).hostname or ""
        if not (url.startswith(("data:", "blob:", "about:")) or host in ("127.0.0.1", "localhost")):
            self.escaped.append(url)


class Watched:
    """A browser context whose pages are watched: the requests that tried to leave this machine
    and the Content-Security-Policy violations of every page in it."""

    def __init__(self, browser: Browser, options: dict[str, Any]) -> None:
        self.context = browser.new_context(**options)
        self.offline = Offline()
        self.context.on("requestfailed", self.offline.failed)
        self.policy = PolicyWatch(self.context)
        self.context.add_init_script(HTMX_TRAIL)
        self.page: Page | None = None
        """The page kept open from test to test, for a context lent with ``keep_page``."""

    def problems(self) -> list[str]:
        """What its pages did wrong since the last call (which forgets it)."""
        found = []
        if self.offline.escaped:
            found.append(f"requests left the machine: {self.offline.escaped}")
        if self.policy.violations:
            found.append(
                "Content-Security-Policy violations:\n" + "\n".join(self.policy.violations)
            )
        self.offline.escaped.clear()
        self.policy.violations.clear()
        return found


class Contexts:
    """The browser contexts of this process, lent to one test at a time and kept for the next.

    A new context for each test started a renderer and fetched every stylesheet and script
    again: about 0.75 s of CPU a test. A context lent again has had its pages closed and the
    shared server's cookies, storage, service worker and permissions wiped (``give_back``);
    its HTTP cache stays, as a phone's does (the static files' addresses carry their hash). A
    test on a server of its own (``fresh_server``), or marked ``fresh_context``, gets contexts
    of its own, closed after it."""

    def __init__(self, browser: Browser, origin: str) -> None:
        self.browser = browser
        self.origin = origin
        self.idle: dict[str, list[Watched]] = {}

    def take(self, options: dict[str, Any], keep_page: bool = False) -> Watched:
        """A context with these options that no test is using (with its page kept open, if
        ``keep_page``: see :meth:`give_back`)."""
        kept = self.idle.get(_key(options, keep_page))
        if kept:
            return kept.pop()
        watched = Watched(self.browser, options)
        if keep_page:
            watched.page = watched.context.new_page()
        return watched

    def give_back(self, watched: Watched, options: dict[str, Any]) -> None:
        """Wipe what the test left in the context and keep it for the next test that asks for
        these options; a context that cannot be wiped is closed.

        A context lent with its page (``keep_page``, for the tests that only look at a page)
        keeps that page too, opened again on a blank document with the options' screen, the
        light colour scheme and the default text size: a new page cost a renderer's start
        (about 0.4 s of CPU), and the kept one has axe and the app's scripts compiled."""
        context, kept = watched.context, watched.page
        try:
            for page in list(context.pages):
                if page is not kept:
                    page.close()
            blank = kept or context.new_page()
            if kept:
                kept.unroute_all(behavior="ignoreErrors")
                if kept.url.startswith(self.origin):
                    kept.evaluate("() => sessionStorage.clear()")
                kept.goto("about:blank")
                reset_text_size(kept)
                kept.emulate_media(color_scheme="light")
                if "viewport" in options:
                    kept.set_viewport_size(options["viewport"])
                kept.set_default_timeout(PLAYWRIGHT_TIMEOUT)
                kept.set_default_navigation_timeout(PLAYWRIGHT_TIMEOUT)
            session = context.new_cdp_session(blank)
            session.send(
                "Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"}
            )
            session.detach()
            if not kept:
                blank.close()
            context.clear_cookies()
            context.clear_permissions()
            context.set_offline(False)
            context.unroute_all(behavior="ignoreErrors")
        except Exception:
            context.close()
            raise
        self.idle.setdefault(_key(options, kept is not None), []).append(watched)

    def close(self) -> None:
        for kept in self.idle.values():
            for watched in kept:
                watched.context.close()
        self.idle.clear()


def _key(options: dict[str, Any], keep_page: bool) -> str:
    return json.dumps([options, keep_page], sort_keys=True)


PLAYWRIGHT_TIMEOUT = 30_000
"""Playwright's own default timeout, ms, which a kept page is given back."""


@pytest.fixture(scope="session")
def contexts(browser: Browser, shared_server: LiveServer) -> Iterator[Contexts]:
    """This process's browser contexts, lent to its tests (see :class:`Contexts`)."""
    kept = Contexts(browser, shared_server.url)
    yield kept
    kept.close()


@pytest.fixture
def watched_page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens pages, each in a browser context of its own with these options (another screen,
    no service worker), and checks them after the test: it fails if a request left the
    machine or a page broke its Content-Security-Policy. The contexts are lent by
    :class:`Contexts`, or new for a test marked ``fresh_server`` or ``fresh_context``.

    ``keep_page=True`` is for a test that opens a page and looks at it: the page is lent
    too, already open (see :meth:`Contexts.give_back`)."""
    node = request.node
    own = node.get_closest_marker("fresh_server") or node.get_closest_marker("fresh_context")
    pool: Contexts | None = None if own else request.getfixturevalue("contexts")
    lent: list[tuple[Watched, dict[str, Any]]] = []

    def open_page(options: dict[str, Any], keep_page: bool = False) -> Page:
        watched = pool.take(options, keep_page) if pool else Watched(browser, options)
        lent.append((watched, options))
        return watched.page or watched.context.new_page()

    yield open_page
    found: list[str] = []
    for watched, options in lent:
        if pool:
            pool.give_back(watched, options)
        else:
            watched.context.close()
        found += watched.problems()
    assert not found, "\n".join(found)


@pytest.fixture
def looking_phone(watched_page: Callable[..., Page]) -> Page:
    """A phone like ``phone`` for a test that opens a page and looks at it: its page is kept
    open from one such test to the next (``keep_page``)."""
    return watched_page(PHONE, keep_page=True)


@pytest.fixture
def phone(watched_page: Callable[..., Page]) -> Page:
    """A 360x640 touch phone in portrait; fails the test if any request leaves the machine
    or the page breaks its Content-Security-Policy."""
    return watched_page(PHONE)


@pytest.fixture
def desktop(watched_page: Callable[..., Page]) -> Page:
    """A 1280x800 desktop window; fails the test if any request leaves the machine
    or the page breaks its Content-Security-Policy."""
    return watched_page(DESKTOP)


@pytest.fixture
def second_phone(watched_page: Callable[..., Page]) -> Page:
    """Another phone at the same table (its own browser context: its own cookies)."""
    return watched_page(PHONE)


@pytest.fixture
def wall(watched_page: Callable[..., Page]) -> Page:
    """A wall screen: 1280x720 in landscape."""
    return watched_page(WALL)


@pytest.fixture(params=["phone", "desktop"])
def any_page(request: pytest.FixtureRequest, watched_page: Callable[..., Page]) -> Page:
    """Each test runs once on the phone and once on the desktop."""
    return watched_page(PHONE if request.param == "phone" else DESKTOP)


@pytest.fixture
def phone_no_js(watched_page: Callable[..., Page]) -> Page:
    """The phone with JavaScript turned off: every form is a full page load."""
    return watched_page({**PHONE, "java_script_enabled": False})


@pytest.fixture
def page_with(watched_page: Callable[..., Page]) -> Callable[..., Page]:
    """A factory: a page in a browser context of its own with these options (a phone in
    another time zone: ``page_with(**PHONE, timezone_id="Asia/Tokyo")``), checked like the
    others."""
    return lambda **options: watched_page(options)
