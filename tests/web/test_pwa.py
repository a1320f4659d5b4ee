"""The site can be added to a phone's home screen: the manifest and its icons, the service
worker served from the root, and the page shown when the server cannot be reached."""

from __future__ import annotations

import json
import re
import shutil
import struct
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.webtable import new_game

ROOT = Path(__file__).resolve().parents[2]
APP_CSS = (ROOT / "static" / "css" / "app.css").read_text()


def css_background(dark: bool) -> str:
    """The page background ``--bg`` that static/css/app.css gives the light or dark scheme."""
    dark_block = APP_CSS.index("@media (prefers-color-scheme: dark)")
    text = APP_CSS[dark_block:] if dark else APP_CSS[:dark_block]
    found = re.search(r"--bg:\s*(#[0-9a-fA-F]{6})", text)
    assert found is not None
    return found.group(1).lower()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


class Head(HTMLParser):
    """The tags of a page: each as (tag, attributes), and the text of every inline script."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the tag; a script without ``src`` is inline."""
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        self._in_script = tag == "script" and "src" not in attributes

    def handle_data(self, data: str) -> None:
        """Keep the text of an inline script."""
        if self._in_script and data.strip():
            self.inline_scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        """Leave a script."""
        if tag == "script":
            self._in_script = False

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        """The attributes of every ``tag`` whose attributes include ``attrs`` (a value of ""
        matches an attribute written without one)."""
        return [
            a
            for t, a in self.tags
            if t == tag and all(k in a and (a[k] or "") == v for k, v in attrs.items())
        ]


def parse(html: str) -> Head:
    """The page's tags."""
    head = Head()
    head.feed(html)
    return head


def manifest(client: FlaskClient) -> dict[str, object]:
    """The manifest as the browser gets it."""
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    data: dict[str, object] = json.loads(response.get_data(as_text=True))
    return data


def test_manifest_makes_the_site_a_full_screen_app_in_the_site_colours(client):
    data = manifest(client)
    assert data["name"] == "All Fives scorekeeper"
    assert data["short_name"] == "All Fives"
    assert data["display"] == "standalone"
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["background_color"] == css_background(dark=False)
    assert data["theme_color"] == css_background(dark=False)


def test_every_icon_of_the_manifest_is_served_at_its_declared_size(client):
    icons = manifest(client)["icons"]
    assert isinstance(icons, list)
    sizes_by_purpose: dict[str, set[str]] = {}
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response.mimetype == icon["type"], icon
        sizes_by_purpose.setdefault(icon["purpose"], set()).add(icon["sizes"])
        if icon["type"] == "image/png":
            width, height = (int(n) for n in icon["sizes"].split("x"))
            assert png_size(response.data) == (width, height), icon
        else:
            svg = ElementTree.fromstring(response.data)
            assert svg.tag == "{http://www.w3.org/2000/svg}svg"
            assert svg.get("viewBox") == "0 0 512 512"
            assert icon["sizes"] == "any"
    assert {"any", "192x192", "512x512"} <= sizes_by_purpose["any"]
    assert "512x512" in sizes_by_purpose["maskable"]


def test_icon_urls_carry_the_file_hash_and_may_be_kept_long(client):
    for icon in manifest(client)["icons"]:  # type: ignore[attr-defined]
        assert re.search(r"\?v=[0-9a-f]{12}$", icon["src"]), icon
        assert client.get(icon["src"]).cache_control.max_age == 365 * 24 * 3600


@pytest.mark.parametrize("path", ["/", "/games/new", "/games/import", "/rules", "/offline"])
def test_every_page_links_the_manifest_apple_icon_and_theme_colours(client, path):
    head = parse(client.get(path).get_data(as_text=True))
    assert [link["href"] for link in head.find("link", rel="manifest")] == ["/manifest.webmanifest"]
    (apple,) = head.find("link", rel="apple-touch-icon")
    icon = client.get(apple["href"])
    assert icon.mimetype == "image/png"
    assert png_size(icon.data) == (180, 180)
    colours = {meta["media"]: meta["content"] for meta in head.find("meta", name="theme-color")}
    assert colours == {
        "(prefers-color-scheme: light)": css_background(dark=False),
        "(prefers-color-scheme: dark)": css_background(dark=True),
    }


def test_pages_load_their_scripts_deferred_from_files_and_have_no_inline_code(client):
    table = new_game(client, ["Ann", "Ben"])
    for html in (client.get("/offline").get_data(as_text=True), table.page()):
        head = parse(html)
        assert not head.inline_scripts
        scripts = head.find("script")
        sources = [s["src"] or "" for s in scripts]
        for name in ("js/not-saved.js", "js/wake-lock.js", "js/offline.js"):
            assert any(f"/static/{name}?v=" in src for src in sources), name
        assert all("defer" in s for s in scripts)
        assert not [a for _, a in head.tags if "style" in a]
        assert not [a for _, a in head.tags if any(k.startswith("hx-on") for k in a)]


def precached(client: FlaskClient, body: str | None = None) -> list[str]:
    """The URLs the service worker keeps (its PRECACHE list), from ``body`` or as served."""
    if body is None:
        body = client.get("/sw.js").get_data(as_text=True)
    found = re.search(r"^const PRECACHE = (\[.*\]);$", body, re.MULTILINE)
    assert found is not None
    urls: list[str] = json.loads(found.group(1))
    return urls


def test_service_worker_is_served_from_the_root_as_script_and_never_from_a_cache(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.cache_control.no_cache
    assert response.cache_control.max_age is None
    body = response.get_data(as_text=True)
    assert 'const OFFLINE_URL = "/offline";' in body
    assert 'addEventListener("fetch"' in body


def test_service_worker_keeps_the_offline_page_and_every_file_it_loads(client):
    urls = precached(client)
    assert urls[0] == "/offline"
    head = parse(client.get("/offline").get_data(as_text=True))
    loaded = {a["href"] for a in head.find("link", rel="stylesheet")}
    loaded |= {a["src"] for a in head.find("script")}
    assert loaded, "the offline page loads no stylesheet or script"
    assert loaded <= set(urls)
    for url in urls:
        assert client.get(url).status_code == 200, url
        assert not url.startswith(("/games/", "/watch/")), url
    assert all(url == "/offline" or re.search(r"^/static/.*\?v=[0-9a-f]{12}$", url) for url in urls)


def test_service_worker_is_the_same_for_every_visitor(app: Flask):
    first, second = app.test_client(), app.test_client()
    assert first.get("/offline").status_code == second.get("/offline").status_code == 200
    assert first.get("/sw.js").data == second.get("/sw.js").data


def test_service_worker_changes_when_a_file_it_keeps_changes(app: Flask, tmp_path: Path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app.static_folder = str(static)
    client = app.test_client()
    before = client.get("/sw.js").get_data(as_text=True)
    css = static / "css" / "pwa.css"
    css.write_text(css.read_text() + "\n.offline { font-weight: 700; }\n")
    after = client.get("/sw.js").get_data(as_text=True)
    cache_name = re.compile(r'^const CACHE = CACHE_PREFIX \+ "([0-9a-f]{12})";$', re.MULTILINE)
    old, new = cache_name.search(before), cache_name.search(after)
    assert old and new and old.group(1) != new.group(1)
    changed = set(precached(client, after)) - set(precached(client, before))
    assert [url.split("?")[0] for url in changed] == ["/static/css/pwa.css"]


def test_offline_page_says_the_server_cannot_be_reached_and_what_to_do(client):
    response = client.get("/offline")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'class="site-header"' in html  # a page of the site, from base.html
    assert "<h1>The server cannot be reached</h1>" in html
    assert "Wi-Fi" in html
    assert "laptop running the app" in html
    (retry,) = parse(html).find("a", **{"data-try-again": ""})
    assert retry["href"] == ""  # this document's own address: the page that failed


def test_table_page_has_the_keep_screen_on_toggle_outside_the_table(client):
    table = new_game(client, ["Ann", "Ben"])
    html = table.page()
    (toggle,) = parse(html).find("p", **{"data-wake-lock": ""})
    assert "hidden" in toggle  # shown only by static/js/wake-lock.js, where the API exists
    assert html.index("data-wake-lock") > html.index("</section>")
    assert "Keep the screen on" in html
    fragment = client.get(table.url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="table"' in fragment
    assert "data-wake-lock" not in fragment


@pytest.mark.parametrize("path", ["/", "/games/new", "/offline", "/rules"])
def test_pages_other_than_the_table_have_no_keep_screen_on_toggle(client, path):
    assert "data-wake-lock" not in client.get(path).get_data(as_text=True)


def test_watch_link_and_board_have_no_keep_screen_on_toggle(client):
    watch = new_game(client, ["Ann", "Ben"]).watch_url()
    for path in (watch, watch + "/board"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "data-wake-lock" not in response.get_data(as_text=True), path
