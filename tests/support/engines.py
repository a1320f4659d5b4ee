"""The browser engines beyond Chromium, driven the W3C WebDriver way, with no driver package.

Half of the phones at a table are iPhones, whose Safari is WebKit; others run Firefox. Debian
ships both engines and the means to drive them:

- WebKit: ``webkit2gtk-driver`` gives ``WebKitWebDriver``, a W3C WebDriver server (JSON over
  HTTP) that drives WebKitGTK's MiniBrowser. MiniBrowser needs a display: an ``Xvfb`` of our
  own (package ``xvfb``) serves it.
- Firefox: ``firefox-esr``. Debian has no geckodriver, and PyPI's and npm's geckodriver packages
  download the binary at install time, which cannot be done here; but geckodriver only
  translates WebDriver's HTTP into Firefox's own Marionette protocol, whose commands are
  WebDriver's, sent as length-prefixed JSON over a socket. This module speaks it directly.

Both are wrapped in :class:`Engine`, the handful of WebDriver commands the cross-engine smoke
suite (``tests/browser/test_engines.py``) uses; Chromium takes part there through Playwright.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from playwright.sync_api import Page

T = TypeVar("T")

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The key of an element's reference in WebDriver's JSON."""

WEBKIT_DRIVER = shutil.which("WebKitWebDriver")
MINIBROWSER = next(
    (
        str(found)
        for found in Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser")
        if os.access(found, os.X_OK)
    ),
    None,
)
XVFB = shutil.which("Xvfb")
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")

WEBKIT_MISSING = (
    "WebKitGTK is missing: install it with `sudo apt-get install webkit2gtk-driver xvfb` to run"
    " the WebKit (Safari's engine) smoke tests."
)
FIREFOX_MISSING = (
    "Firefox is missing: install it with `sudo apt-get install firefox-esr` to run the Firefox"
    " smoke tests."
)


def missing(engine: str) -> str | None:
    """Why ``engine`` ("webkit" or "firefox") cannot run here, or None when it can."""
    if engine == "webkit":
        return None if WEBKIT_DRIVER and MINIBROWSER and XVFB else WEBKIT_MISSING
    return None if FIREFOX else FIREFOX_MISSING


class WebDriverError(Exception):
    """An error a WebDriver command answered with (``error`` is WebDriver's error code)."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(f"{error}: {message}")
        self.error = error


RETRIED = {
    "no such element",
    "stale element reference",
    "element not interactable",
    "no such frame",
}
"""Errors a wait tries again after: the page is being replaced (WebKit answers "no such frame"
to a command that the page's unloading cut short), or not yet shown."""


class Engine:
    """A browser session: the WebDriver commands the smoke suite needs, over a transport
    (``send``) that subclasses provide."""

    name = ""
    timeout = 10.0
    """Seconds a wait gives the page: an entry shows within a few hundred milliseconds, and a
    busy CI machine may take many times that."""

    def send(self, command: str, params: dict[str, Any]) -> Any:
        """Send one WebDriver command (Marionette's names: ``WebDriver:Navigate``...)."""
        raise NotImplementedError

    def close(self) -> None:
        """End the session and the browser."""
        raise NotImplementedError

    # -- the commands ----------------------------------------------------------------------

    def goto(self, url: str) -> None:
        self.send("WebDriver:Navigate", {"url": url})

    def url(self) -> str:
        return str(self.send("WebDriver:GetCurrentURL", {}))

    def find_all(self, css: str) -> list[str]:
        """The references of the elements ``css`` selects, in document order."""
        found = self.send("WebDriver:FindElements", {"using": "css selector", "value": css})
        return [element[ELEMENT] for element in found]

    def find(self, css: str) -> str:
        """The first element ``css`` selects (WebDriverError "no such element" if none)."""
        found = self.find_all(css)
        if not found:
            raise WebDriverError("no such element", css)
        return found[0]

    def count(self, css: str) -> int:
        """How many elements ``css`` selects."""
        return len(self.find_all(css))

    def click(self, css: str) -> None:
        self.send("WebDriver:ElementClick", {"id": self.find(css)})

    def type(self, css: str, text: str) -> None:
        """Clear the field ``css`` and type ``text`` into it."""
        element = self.find(css)
        self.send("WebDriver:ElementClear", {"id": element})
        self.send("WebDriver:ElementSendKeys", {"id": element, "text": text})

    def text(self, css: str) -> str:
        """The text ``css`` shows (as rendered: hidden text left out)."""
        return str(self.send("WebDriver:GetElementText", {"id": self.find(css)}))

    def attribute(self, css: str, name: str) -> str | None:
        value = self.send("WebDriver:GetElementAttribute", {"id": self.find(css), "name": name})
        return None if value is None else str(value)

    def rect(self, css: str) -> dict[str, float]:
        """Where ``css`` lies on the page, in CSS px: x, y, width, height."""
        found: dict[str, float] = self.send("WebDriver:GetElementRect", {"id": self.find(css)})
        return found

    def value(self, css: str) -> str:
        """The value of the field ``css`` (what it shows, not its attribute)."""
        found = self.send("WebDriver:GetElementProperty", {"id": self.find(css), "name": "value"})
        return str(found)

    def script(self, body: str) -> Any:
        """Run ``body`` (a function's body: ``return ...``) in the page."""
        return self.send("WebDriver:ExecuteScript", {"script": body, "args": []})

    def set_window(self, width: int, height: int) -> None:
        self.send("WebDriver:SetWindowRect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        """Save what the window shows as a PNG (to look at what a test saw)."""
        data = self.send("WebDriver:TakeScreenshot", {"full": False})
        path.write_bytes(base64.b64decode(data))

    def viewport(self) -> tuple[int, int]:
        """The page's viewport in CSS px (window size less the browser's own parts)."""
        width, height = self.script("return [document.documentElement.clientWidth, innerHeight]")
        return int(width), int(height)

    def fit_viewport(self, width: int, height: int) -> tuple[int, int]:
        """Size the window so that the page's viewport is ``width`` x ``height`` CSS px, or
        as near as the engine goes; the viewport it got.

        The window's frame and toolbars take a part of the window, so the window is sized
        from what the page sees, until the page sees what was asked. A window takes its new
        size after the command has answered (WebKitGTK), so each step waits for the page's
        viewport to hold still before it measures again."""
        deadline = time.monotonic() + self.timeout
        shown = self._still_viewport()
        while shown != (width, height) and time.monotonic() < deadline:
            window = self.send("WebDriver:GetWindowRect", {})
            self.set_window(
                int(window["width"]) + width - shown[0], int(window["height"]) + height - shown[1]
            )
            shown = self._still_viewport(shown)
        return shown

    def _still_viewport(self, before: tuple[int, int] | None = None) -> tuple[int, int]:
        """The viewport once it has changed from ``before`` (for at most 2 s) and then held
        still for 0.1 s."""
        until = time.monotonic() + 2
        shown = self.viewport()
        while shown == before and time.monotonic() < until:
            time.sleep(0.05)
            shown = self.viewport()
        while True:
            time.sleep(0.1)
            again = self.viewport()
            if again == shown:
                return shown
            shown = again

    def wait(self, what: str, check: Callable[[], T | None]) -> T:
        """What ``check`` returns once it is truthy, tried again until then (and after an
        error of a page being replaced) for :attr:`timeout` seconds; ``what`` names it."""
        deadline = time.monotonic() + self.timeout
        last = ""
        while True:
            try:
                found = check()
                if found:
                    return found
                last = repr(found)
            except WebDriverError as error:
                if error.error not in RETRIED:
                    raise
                last = str(error)
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {self.timeout} s for {what} ({last})")
            time.sleep(0.05)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} stopped on start (exit {process.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within 30 s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- Firefox, through Marionette ------------------------------------------------------------


class Firefox(Engine):
    """Firefox ESR, headless, driven through Marionette on a port of 127.0.0.1.

    ``nowhere`` is a ``host:port`` that refuses every connection: Firefox's proxy, so that a
    request for anything but this machine fails instead of leaving it. ``javascript``: False
    starts it with JavaScript turned off (the page's scripts; Marionette's own still run)."""

    name = "firefox"

    def __init__(self, nowhere: str, javascript: bool = True) -> None:
        assert FIREFOX, FIREFOX_MISSING
        self.profile = Path(tempfile.mkdtemp(prefix="scorekeeper-firefox-"))
        port = _free_port()
        proxy_host, proxy_port = nowhere.rsplit(":", 1)
        prefs: dict[str, Any] = {
            "marionette.port": port,
            "javascript.enabled": javascript,
            # Every request but this machine's to a proxy that refuses it (Firefox never
            # sends 127.0.0.1 through a proxy).
            "network.proxy.type": 1,
            "network.proxy.http": proxy_host,
            "network.proxy.http_port": int(proxy_port),
            "network.proxy.ssl": proxy_host,
            "network.proxy.ssl_port": int(proxy_port),
            "network.proxy.share_proxy_settings": True,
            "network.dns.disablePrefetch": True,
            "network.captive-portal-service.enabled": False,
            "network.connectivity-service.enabled": False,
            "browser.shell.checkDefaultBrowser": False,
            "browser.startup.homepage_override.mstone": "ignore",
            "datareporting.policy.dataSubmissionEnabled": False,
            "toolkit.telemetry.enabled": False,
            "app.update.disabledForTesting": True,
            # The phone's screen: a window of twice the CSS px (see fit_viewport), as a
            # phone's screen has two or three device pixels to a CSS px. Headless Firefox's
            # window has a smallest width of about 500 px.
            "toolkit.legacyUserProfileCustomizations.stylesheets": True,
        }
        # The browser's own window keeps a width of 450 px or more for its toolbars; a phone
        # has none, and its screen is narrower.
        (self.profile / "chrome").mkdir()
        (self.profile / "chrome" / "userChrome.css").write_text(
            ":root { min-width: 0 !important; min-height: 0 !important; }\n"
            "#navigator-toolbox { display: none !important; }\n"
        )
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items())
        )
        self.process = subprocess.Popen(
            [FIREFOX, "--marionette", "--headless", "--no-remote", "--profile", str(self.profile)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "MOZ_HEADLESS": "1"},
        )
        try:
            _wait_for_port(port, self.process, "Firefox's Marionette")
            self.socket = socket.create_connection(("127.0.0.1", port), timeout=60)
            self.buffer = b""
            self.sequence = 0
            self._receive()  # Marionette's greeting: its protocol's version
            self.send("WebDriver:NewSession", {"capabilities": {"pageLoadStrategy": "normal"}})
        except BaseException:
            self.close()
            raise

    def _receive(self) -> Any:
        while b":" not in self.buffer:
            self._read()
        length, _, rest = self.buffer.partition(b":")
        size = int(length)
        self.buffer = rest
        while len(self.buffer) < size:
            self._read()
        message, self.buffer = self.buffer[:size], self.buffer[size:]
        return json.loads(message)

    def _read(self) -> None:
        chunk = self.socket.recv(65536)
        if not chunk:
            raise ConnectionError("Firefox closed Marionette's connection")
        self.buffer += chunk

    def send(self, command: str, params: dict[str, Any]) -> Any:
        self.sequence += 1
        data = json.dumps([0, self.sequence, command, params]).encode()
        self.socket.sendall(str(len(data)).encode() + b":" + data)
        while True:
            kind, sequence, error, result = self._receive()
            if kind == 1 and sequence == self.sequence:
                break
        if error:
            raise WebDriverError(error.get("error", "unknown error"), error.get("message", ""))
        # Marionette wraps a plain value (a string, a number, null) as {"value": ...}.
        if isinstance(result, dict) and set(result) == {"value"}:
            return result["value"]
        return result

    def close(self) -> None:
        try:
            if hasattr(self, "socket"):
                with contextlib.suppress(OSError, WebDriverError):
                    self.send("Marionette:Quit", {"flags": ["eForceQuit"]})
                self.socket.close()
        finally:
            _stop(self.process) if hasattr(self, "process") else None
            shutil.rmtree(self.profile, ignore_errors=True)


# -- WebKit, through WebKitWebDriver --------------------------------------------------------

ENDPOINTS: dict[str, tuple[str, str]] = {
    "WebDriver:Navigate": ("POST", "url"),
    "WebDriver:GetCurrentURL": ("GET", "url"),
    "WebDriver:FindElements": ("POST", "elements"),
    "WebDriver:ElementClick": ("POST", "element/{id}/click"),
    "WebDriver:ElementClear": ("POST", "element/{id}/clear"),
    "WebDriver:ElementSendKeys": ("POST", "element/{id}/value"),
    "WebDriver:GetElementText": ("GET", "element/{id}/text"),
    "WebDriver:GetElementAttribute": ("GET", "element/{id}/attribute/{name}"),
    "WebDriver:GetElementRect": ("GET", "element/{id}/rect"),
    "WebDriver:GetElementProperty": ("GET", "element/{id}/property/{name}"),
    "WebDriver:ExecuteScript": ("POST", "execute/sync"),
    "WebDriver:GetWindowRect": ("GET", "window/rect"),
    "WebDriver:SetWindowRect": ("POST", "window/rect"),
    "WebDriver:TakeScreenshot": ("GET", "screenshot"),
}
"""Marionette's command names as W3C WebDriver's HTTP endpoints (under /session/{id}/)."""


class Display:
    """An X server of our own (Xvfb) on a display number it chooses, for MiniBrowser."""

    def __init__(self) -> None:
        assert XVFB, WEBKIT_MISSING
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as chosen:
            number = chosen.readline().strip()
        if not number:
            _stop(self.process)
            raise RuntimeError("Xvfb did not start")
        self.name = f":{number}"

    def close(self) -> None:
        _stop(self.process)


TOOLBAR_AWAY = """
window > * > *:not(scrolledwindow):not(overlay), window > * > * *,
headerbar, headerbar *, toolbar, toolbar *, entry, button, image {
    min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px;
    -gtk-icon-transform: scale(0.05);
}
"""


class WebKit(Engine):
    """WebKitGTK's MiniBrowser on an Xvfb display, driven by WebKitWebDriver over HTTP.

    ``nowhere``: see :class:`Firefox`. ``javascript``: False turns off the page's scripts
    (WebKit's "JavaScript in markup": the driver's own scripts still run)."""

    name = "webkit"

    def __init__(self, display: Display, nowhere: str, javascript: bool = True) -> None:
        assert WEBKIT_DRIVER and MINIBROWSER, WEBKIT_MISSING
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        # MiniBrowser's toolbar keeps its window 447 px wide or more; a phone has no toolbar and
        # a narrower screen. GTK's user style sheet shrinks the toolbar's widgets to nothing.
        self.config = Path(tempfile.mkdtemp(prefix="scorekeeper-webkit-"))
        (self.config / "gtk-3.0").mkdir()
        (self.config / "gtk-3.0" / "gtk.css").write_text(TOOLBAR_AWAY)
        self.process = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "DISPLAY": display.name, "XDG_CONFIG_HOME": str(self.config)},
        )
        self.session = ""
        try:
            _wait_for_port(port, self.process, "WebKitWebDriver")
            args = ["--automation", f"--proxy=http://{nowhere}", "--ignore-host=127.0.0.1"]
            if not javascript:
                args.append("--enable-javascript-markup=false")
            answer = self._http(
                "POST",
                "/session",
                {
                    "capabilities": {
                        "alwaysMatch": {
                            "webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": args}
                        }
                    }
                },
            )
            self.session = answer["sessionId"]
        except BaseException:
            self.close()
            raise

    def _http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if method == "GET" else json.dumps(body or {}).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as refused:
            value = json.load(refused).get("value", {})
            error = WebDriverError(value.get("error", "unknown error"), value.get("message", ""))
            raise error from None
        return answer["value"]

    def send(self, command: str, params: dict[str, Any]) -> Any:
        method, path = ENDPOINTS[command]
        path = path.format(**{k: v for k, v in params.items() if isinstance(v, str)})
        if command == "WebDriver:ExecuteScript":
            params = {"script": params["script"], "args": params["args"]}
        elif "{" in ENDPOINTS[command][1]:
            params = {k: v for k, v in params.items() if k not in ("id", "name")}
        return self._http(method, f"/session/{self.session}/{path}", params)

    def close(self) -> None:
        try:
            if self.session:
                with contextlib.suppress(OSError, WebDriverError):
                    self._http("DELETE", f"/session/{self.session}")
        finally:
            _stop(self.process)
            shutil.rmtree(self.config, ignore_errors=True)


# -- Chromium, through Playwright -----------------------------------------------------------


class Chromium(Engine):
    """A Playwright page of Debian's Chromium (the other browser tests' browser), behind the
    same commands, so that one smoke test runs in all three engines."""

    name = "chromium"

    def __init__(self, page: Page) -> None:
        self.page = page

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def url(self) -> str:
        return self.page.url

    def count(self, css: str) -> int:
        return self.page.locator(css).count()

    def click(self, css: str) -> None:
        self.page.locator(css).first.click()

    def type(self, css: str, text: str) -> None:
        self.page.locator(css).first.fill(text)

    def text(self, css: str) -> str:
        return self.page.locator(css).first.inner_text()

    def attribute(self, css: str, name: str) -> str | None:
        return self.page.locator(css).first.get_attribute(name)

    def rect(self, css: str) -> dict[str, float]:
        found = self.page.locator(css).first.bounding_box()
        assert found is not None, f"{css} is not shown"
        scroll = self.page.evaluate("[scrollX, scrollY]")
        return {**found, "x": found["x"] + scroll[0], "y": found["y"] + scroll[1]}

    def value(self, css: str) -> str:
        return self.page.locator(css).first.input_value()

    def script(self, body: str) -> Any:
        return self.page.evaluate(f"() => {{ {body} }}")

    def fit_viewport(self, width: int, height: int) -> tuple[int, int]:
        # Playwright's viewport is exact; a blank page on a phone would measure 980 px (no
        # viewport tag), so the page is not asked.
        self.page.set_viewport_size({"width": width, "height": height})
        size = self.page.viewport_size
        assert size is not None
        return size["width"], size["height"]

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        """The page belongs to the test's fixture, which closes it."""
