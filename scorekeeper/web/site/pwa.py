"""The app on a phone's home screen: the web app manifest, the service worker and the page it
shows when the server cannot be reached.

The service worker (``templates/sw.js``) is served from the site's root so that its scope is the
whole site. It keeps a copy of the offline page and of the static files that page needs, named
with their content hashes, and shows that page when a page cannot be loaded. It never keeps a
game's page, nor anything under ``/games/`` or ``/watch/``: those are secret links, and change
with every entry.
"""

from __future__ import annotations

import hashlib
import html
import json
import re

from flask import Blueprint, Flask, Response, current_app, render_template, url_for
from flask_wtf.csrf import generate_csrf

from scorekeeper.web import languages
from scorekeeper.web.languages import lazy_gettext as _l

bp = Blueprint("pwa", __name__)

NAME = _l("All Fives scorekeeper")
SHORT_NAME = _l("All Fives")
DESCRIPTION = _l("Score and referee a game of All Fives (Fives Up, Muggins) at the table.")
BACKGROUND = "#f6f3ec"
"""The page background (``--bg`` of the light scheme in static/css/app.css)."""
ICONS = (
    ("icons/icon.svg", "any", "image/svg+xml", "any"),
    ("icons/icon-192.png", "192x192", "image/png", "any"),
    ("icons/icon-512.png", "512x512", "image/png", "any"),
    ("icons/icon-maskable-512.png", "512x512", "image/png", "maskable"),
)
"""The manifest's icons: file under static/, sizes, type and purpose (tools/icons.py draws them)."""
MANIFEST_TYPE = "application/manifest+json"
_STATIC_URL = re.compile(r'(?:href|src)="(/[^"]*)"')


def manifest_data() -> dict[str, object]:
    """The web app manifest: the name, full screen from the home screen, colours and icons.

    The name and description are in the reader's language, which ``lang`` names.
    """
    home = url_for("games.index")
    return {
        "id": home,
        "name": str(NAME),
        "short_name": str(SHORT_NAME),
        "description": str(DESCRIPTION),
        "lang": languages.current(),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "categories": ["games", "utilities"],
        "icons": [
            {
                "src": url_for("static", filename=path),
                "sizes": sizes,
                "type": kind,
                "purpose": purpose,
            }
            for path, sizes, kind, purpose in ICONS
        ],
    }


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, so the site can be added to a phone's home screen."""
    response = Response(json.dumps(manifest_data(), indent=2), mimetype=MANIFEST_TYPE)
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> str:
    """The page the service worker shows when a page cannot be loaded from the server."""
    return render_template("offline.html")


def _static_path() -> str:
    """Where the app serves its static files, with the closing slash ("/static/")."""
    path = current_app.static_url_path
    if path is None:  # only an app made without a static folder, which create_app never makes
        raise RuntimeError("the app serves no static files")
    return path + "/"


def precache() -> tuple[list[str], str]:
    """What the service worker keeps: the offline page and every static file it loads; and a
    version that changes whenever any of them changes.

    The offline page is in the reader's language, so the version differs by language too: a
    reader who switches language gets a new worker, which keeps the page in the new language.
    """
    page = render_template("offline.html")
    static = _static_path()
    assets = sorted(
        {html.unescape(url) for url in _STATIC_URL.findall(page) if url.startswith(static)}
    )
    # The page carries this session's CSRF token: leave it out, or every visitor's service
    # worker would differ and be reinstalled on each check.
    stable = page.replace(generate_csrf(), "")
    digest = hashlib.sha256("\n".join([languages.current(), stable, *assets]).encode()).hexdigest()[
        :12
    ]
    return [url_for("pwa.offline"), *assets], digest


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that it may look after every page."""
    urls, version = precache()
    body = render_template(
        "sw.js",
        version=version,
        offline_url=url_for("pwa.offline"),
        precache=urls,
        static_path=_static_path(),
    )
    response = Response(body, mimetype="text/javascript")
    # Browsers check for a new worker on navigations; never let a cache answer for it.
    response.cache_control.no_cache = True
    # Its version follows the language of the offline page it keeps (see precache).
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Register the manifest, the service worker and the offline page."""
    app.register_blueprint(bp)
