"""Safe to host: security headers on every response, a strict Content-Security-Policy the pages
keep to, the session cookie's flags, the secret key file's mode, rate limits answered 429,
forms from other sites refused, and compressed responses whose ETags still answer 304."""

from __future__ import annotations

import base64
import contextlib
import gzip
import io
import json
import os
import random
import re
import stat
from collections.abc import Callable
from pathlib import Path

import brotli
import flask_migrate
import pytest
from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient
from limits.storage import MemoryStorage
from werkzeug.test import TestResponse

import app as app_module
from app import create_app
from scorekeeper.rules import Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data.database import db
from scorekeeper.web.routes import route, route_of
from scorekeeper.web.site.ratelimits import EXTENSION
from scorekeeper.web.site.security import HEADERS
from tests.web.webforms import form_for
from tests.web.webtable import Table, new_game, page_seq

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
MissingKey = "/games/NoSuchGameNoSuchGame0"
"""A key shaped like a real one (22 URL-safe characters) that no game has."""


@pytest.fixture
def make_client(make_app: Callable[..., Flask]) -> Callable[..., FlaskClient]:
    """A factory: a test client of an app with ``config`` on top of the test settings, rate
    limits on unless ``config`` turns them off, each on its own new SQLite file."""
    return lambda **config: make_app(**{"WTF_CSRF_ENABLED": False, **config}).test_client()


def assert_security_headers(response: TestResponse) -> None:
    """Every security header is there, with the value the app gives it."""
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (name, response.status_code)


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy split into its directives and their sources."""
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


def assert_strict_headers(response: TestResponse) -> None:
    """The security headers, and what they say: scripts from this site's files only (no inline
    code, no eval), never in another site's frame, no type sniffing, no referrer."""
    assert_security_headers(response)
    policy = directives(response.headers["Content-Security-Policy"])
    script = policy.get("script-src", policy.get("default-src"))
    assert script, "no policy for scripts"
    assert not {"'unsafe-inline'", "'unsafe-eval'"} & set(script), script
    assert policy["frame-ancestors"] == ["'none'"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def static_url(client: FlaskClient, name: str) -> str:
    """The versioned URL the pages link for static file ``name``."""
    page = client.get("/").get_data(as_text=True)
    found = re.search(rf'"(/static/{re.escape(name)}\?v=[0-9a-f]+)"', page)
    assert found, name
    return found.group(1)


# -- headers on every response -------------------------------------------------------------


def test_headers_on_pages_fragments_and_downloads(client: FlaskClient) -> None:
    table = new_game(client, ["Ann", "Bob"])
    for response in (
        client.get("/"),
        client.get("/games/new"),
        client.get(table.url),
        client.get(table.url, headers={"HX-Request": "true"}),
        client.get(f"{table.url}/record.json"),
        client.get(f"{table.url}/sheet.csv"),
    ):
        assert response.status_code == 200
        assert_security_headers(response)
    fragment = client.get(table.url, headers={"HX-Request": "true"})
    assert "<html" not in fragment.get_data(as_text=True)


def test_headers_on_the_watch_pages_and_the_live_polls_304(client: FlaskClient) -> None:
    table = new_game(client, ["Ann", "Bob"])
    watch = table.watch_url()
    htmx = {"HX-Request": "true"}
    for url in (watch, f"{watch}/board"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict_headers(response)
    for url in (f"{watch}/live", f"{watch}/live?view=board", f"{table.url}/live"):
        first = client.get(url, headers=htmx)
        assert first.status_code == 200, url
        assert_strict_headers(first)
        again = client.get(url, headers={**htmx, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, url
        assert_strict_headers(again)


def test_headers_on_the_manifest_the_service_worker_and_the_offline_page(
    client: FlaskClient,
) -> None:
    for url, kind in (
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/sw.js", "text/javascript"),
        ("/offline", "text/html"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.mimetype == kind, url
        assert_strict_headers(response)


def test_headers_on_static_files_and_their_304(client: FlaskClient) -> None:
    url = static_url(client, "css/app.css")
    first = client.get(url)
    assert first.status_code == 200
    assert_security_headers(first)
    assert first.headers["X-Content-Type-Options"] == "nosniff"
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert_security_headers(again)


def test_headers_on_errors(client: FlaskClient) -> None:
    for response in (
        client.get("/no/such/page"),
        client.get(MissingKey),
        client.get(MissingKey, headers={"HX-Request": "true"}),
        client.get("/games/new/play"),
        client.put("/games/new"),
    ):
        assert response.status_code in (404, 405)
        assert_security_headers(response)


def test_headers_on_a_500(make_client: Callable[..., FlaskClient]) -> None:
    """An unexpected failure's page (and its htmx fragment) has the headers too."""
    client = make_client(PROPAGATE_EXCEPTIONS=False)

    @client.application.get("/fails")
    def fails() -> Response:
        raise RuntimeError("an unexpected failure")

    for headers in ({}, {"HX-Request": "true"}):
        response = client.get("/fails", headers=headers)
        assert response.status_code == 500
        assert "Something went wrong" in response.get_data(as_text=True)
        assert_strict_headers(response)


def test_a_malformed_or_untrusted_host_is_a_400_not_a_500(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client()
    for host in ("..", "a" * 80 + ".example"):
        response = client.get("/rules", headers={"Host": host})
        assert response.status_code == 400, host
        assert "Bad request" in response.get_data(as_text=True)
        assert_security_headers(response)
    pinned = make_client(TRUSTED_HOSTS=["scores.example.org"])
    assert pinned.get("/rules", base_url="http://scores.example.org").status_code == 200
    refused = pinned.get("/rules", base_url="http://evil.example")
    assert refused.status_code == 400
    assert_security_headers(refused)


def test_a_redirect_after_an_entry_has_the_headers(client: FlaskClient) -> None:
    response = client.get("/games/new")
    form = form_for(response.get_data(as_text=True), "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    created = client.post("/games/new", data=data)
    assert created.status_code == 303
    assert_security_headers(created)


def test_the_policy_allows_only_this_sites_own_files() -> None:
    policy = directives(HEADERS["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    for sources in policy.values():
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"} & set(sources)


def test_no_template_has_inline_styles_scripts_or_handlers() -> None:
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle\s*=", text), f"{path.name}: a style attribute"
        assert not re.search(r"\son[a-z]+\s*=", text), f"{path.name}: an inline event handler"
        assert not re.search(r"\shx-on", text), f"{path.name}: hx-on runs inline code"
        for script in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in script, f"{path.name}: an inline script"


def test_pages_as_served_have_no_inline_styles_or_scripts(client: FlaskClient) -> None:
    table = new_game(client, ["Ann", "Bob"])
    table.post("lead", {"how": "seat", "leader": "0"})
    table.play("6-6")
    for url in ("/", "/games/new", "/games/import", "/rules", table.url, f"{table.url}/log"):
        page = client.get(url).get_data(as_text=True)
        assert not re.search(r"<[^>]+\sstyle\s*=", page), url
        assert re.findall(r"<script\b[^>]*>", page) == [
            s for s in re.findall(r"<script\b[^>]*>", page) if "src=" in s
        ], url
    config = re.search(r'name="htmx-config" content=\'([^\']*)\'', client.get("/").text)
    assert config and '"allowEval": false' in config.group(1)
    assert '"includeIndicatorStyles": false' in config.group(1)


# -- the session cookie ----------------------------------------------------------------------


def session_cookie(response: TestResponse) -> str:
    """The Set-Cookie header of the session cookie."""
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def test_session_cookie_is_httponly_and_lax_and_not_secure_over_http(
    client: FlaskClient,
) -> None:
    cookie = session_cookie(client.get("/games/new"))
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_session_cookie_is_secure_over_https(client: FlaskClient) -> None:
    cookie = session_cookie(client.get("/games/new", base_url="https://scores.example"))
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_forwarded_https_counts_only_behind_a_configured_proxy(
    make_client: Callable[..., FlaskClient],
) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    direct = make_client()
    assert "Secure" not in session_cookie(direct.get("/games/new", headers=forwarded))
    proxied = make_client(PROXY_FIX=1)
    assert "Secure" in session_cookie(proxied.get("/games/new", headers=forwarded))
    plain = proxied.application.test_client()
    assert "Secure" not in session_cookie(plain.get("/games/new"))


def test_share_links_behind_the_proxy_name_the_https_address(
    make_client: Callable[..., FlaskClient],
) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    host = "http://scores.example.org"
    for proxies, scheme in ((0, "http"), (1, "https")):
        client = make_client(PROXY_FIX=proxies)
        table = new_game(client, ["Ann", "Bob"])
        page = client.get(table.url, base_url=host, headers=forwarded).get_data(as_text=True)
        link = re.search(r'id="watch-link"[^>]* value="([^"]+)"', page)
        assert link and link.group(1).startswith(f"{scheme}://scores.example.org/watch/")


def test_session_cookie_secure_can_be_forced(make_client: Callable[..., FlaskClient]) -> None:
    forced = make_client(SESSION_COOKIE_SECURE=True)
    assert "Secure" in session_cookie(forced.get("/games/new"))


def test_a_bad_proxy_setting_is_a_clear_error_at_start() -> None:
    with pytest.raises(ValueError, match="PROXY_FIX"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "PROXY_FIX": "yes"})


# -- forms over HTTPS, and from other sites --------------------------------------------------


def test_forms_work_over_https_without_a_referrer(make_client: Callable[..., FlaskClient]) -> None:
    """The pages ask browsers to send no Referer, so HTTPS must not require one for CSRF."""
    phone = make_client(WTF_CSRF_ENABLED=True)
    https = "https://scores.example"
    page = phone.get("/games/new", base_url=https).get_data(as_text=True)
    form = form_for(page, "/games/new")
    data = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    created = phone.post("/games/new", data=data, base_url=https)
    assert created.status_code == 303, created.get_data(as_text=True)
    forged = phone.post("/games/new", data={"player1": "Eve", "player2": "Mal"}, base_url=https)
    assert forged.status_code == 400


def test_a_form_sent_from_another_site_is_refused_and_stores_nothing(
    client: FlaskClient,
) -> None:
    table = new_game(client, ["Ann", "Bob"])
    seq, version = table.seq(), table.version()
    for site in ("cross-site", "same-site"):
        response = client.post(
            f"{table.url}/lead",
            data={"version": str(version), "how": "seat", "leader": "0"},
            headers={"Sec-Fetch-Site": site},
        )
        assert response.status_code == 403
        assert "another site" in response.get_data(as_text=True)
        assert_security_headers(response)
    assert table.seq() == seq
    ours = client.post(
        f"{table.url}/lead",
        data={"version": str(version), "how": "seat", "leader": "0"},
        headers={"Sec-Fetch-Site": "same-origin"},
    )
    assert ours.status_code == 303
    assert table.seq() == seq + 1


def test_a_form_from_another_site_never_replaces_the_visitors_session(
    make_client: Callable[..., FlaskClient],
) -> None:
    """A cross-site POST reaches the site without the visitor's cookie (SameSite=Lax), so the
    page refusing it made a new session and sent it: the visitor's My games was wiped. No
    answer to another site's request sets a cookie, with or without Sec-Fetch-Site."""
    phone = make_client(WTF_CSRF_ENABLED=True)
    for headers in (
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},  # a browser that sends no Sec-Fetch-Site
    ):
        refused = phone.post(
            "/games/new", data={"player1": "Eve", "player2": "Mal"}, headers=headers
        )
        assert refused.status_code in (400, 403), headers
        assert "Set-Cookie" not in refused.headers, headers
    # A form of the site itself still gets its fresh session.
    own = phone.post(
        "/games/new",
        data={"player1": "Ann", "player2": "Bob"},
        headers={"Origin": "http://localhost"},
    )
    assert own.status_code == 400 and "Set-Cookie" in own.headers


def _cookie(response: TestResponse) -> str:
    header = response.headers["Set-Cookie"]
    return header.split(";", 1)[0].split("=", 1)[1]


def test_the_session_cookie_cannot_be_read_only_sent_back(client: FlaskClient, app: Flask) -> None:
    """The cookie remembers the edit keys of the phone's games for a year: sealed, they cannot
    be read off the phone or a proxy's log, and the phone still finds its games."""
    table = new_game(client, ["Ann", "Bob"])
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    value = cookie.value
    readable = [value]
    for part in [value, *value.split(".")]:
        with contextlib.suppress(ValueError):
            readable.append(
                base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode("latin-1")
            )
    assert not any(table.key in text for text in readable)
    assert table.key in client.get("/").get_data(as_text=True), "My games still lists it"


def test_a_cookie_from_before_sealing_is_still_read_then_sealed(app: Flask) -> None:
    """A phone that kept a signed cookie from before keeps its games."""
    phone = app.test_client()
    table = new_game(phone, ["Ann", "Bob"])
    with app.test_request_context():
        signed = SecureCookieSessionInterface().get_signing_serializer(app)
        assert signed is not None
        old = signed.dumps({"games": [table.key]})
    fresh = app.test_client()
    fresh.set_cookie(app.config.get("SESSION_COOKIE_NAME", "session"), old)
    assert table.key in fresh.get("/").get_data(as_text=True)
    forgotten = fresh.post("/games/forget", data={"key": "x" * 22})
    if "Set-Cookie" in forgotten.headers:
        assert table.key not in _cookie(forgotten)


# -- the secret key file -------------------------------------------------------------------


def test_a_new_secret_key_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    instance = Flask("keyed", instance_path=str(tmp_path))
    instance.config["SECRET_KEY"] = None
    old = os.umask(0)  # even a umask that lets everyone read new files
    try:
        app_module._ensure_secret_key(instance)
    finally:
        os.umask(old)
    path = tmp_path / "config.py"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert f"SECRET_KEY = {instance.config['SECRET_KEY']!r}" in path.read_text()


def test_an_instance_folder_a_checkout_made_0755_is_its_owners_alone(tmp_path: Path) -> None:
    folder = tmp_path / "instance"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)  # as git leaves a tracked folder
    app_module._private_instance_folder(str(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    made = tmp_path / "new"
    old = os.umask(0)
    try:
        app_module._private_instance_folder(str(made))
    finally:
        os.umask(old)
    assert stat.S_IMODE(made.stat().st_mode) == 0o700


def test_pages_holding_edit_keys_are_never_stored(client: FlaskClient) -> None:
    """Behind an edit key (a game's, a club's) or listing them (My games): no-store, so that
    Back on a shared phone or a cache on the way cannot show them again."""
    table = new_game(client, ["Ann", "Bob"])
    club = client.post("/clubs/new", data={"name": "C"}).headers["Location"]
    watch = (
        client.get(table.url)
        .get_data(as_text=True)
        .split('id="watch-link" type="url" value="http://localhost')[1]
        .split('"')[0]
    )
    for path in ("/", table.url, f"{table.url}/log", f"{table.url}/record.json", club,
                 f"{club}/players"):  # fmt: skip
        assert client.get(path).headers.get("Cache-Control") == "no-store", path
    for path in (watch, f"{watch}/log", "/rules", "/games/new"):
        assert "no-store" not in (client.get(path).headers.get("Cache-Control") or ""), path


def test_an_existing_world_readable_config_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "config.py"
    path.write_text("SQLALCHEMY_DATABASE_URI = 'sqlite:///club.sqlite'\n")
    path.chmod(0o644)
    instance = Flask("keyed", instance_path=str(tmp_path))
    instance.config["SECRET_KEY"] = None
    app_module._ensure_secret_key(instance)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert text.startswith("SQLALCHEMY_DATABASE_URI = 'sqlite:///club.sqlite'\n")
    assert "SECRET_KEY = " in text


def test_a_new_sqlite_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """The database holds every game's edit and watch keys, the secrets behind the links."""
    database = tmp_path / "club.sqlite"
    old = os.umask(0o022)  # a usual umask: new files readable by everyone
    try:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            }
        )
        with app.app_context():
            flask_migrate.upgrade()
            new_game(app.test_client(), ["Ann", "Bob"])
            files = [p for p in tmp_path.iterdir() if p.name.startswith("club.sqlite")]
            assert any(p.name.endswith("-wal") for p in files), files
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files}
            db.engine.dispose()
    finally:
        os.umask(old)
    assert set(modes.values()) == {0o600}, modes


# -- rate limits ----------------------------------------------------------------------------


def started(client: FlaskClient, htmx: bool = False) -> Table:
    """A new game whose first hand Ann has led with 6-6 (two entries), Bob to play or draw."""
    table = new_game(client, ["Ann", "Bob"])
    table.htmx = htmx
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code in (200, 303)
    assert table.play("6-6").status_code in (200, 303)
    return table


def assert_too_many(response: TestResponse, words: str) -> None:
    """A 429 page that says what was too many and how long to wait, with Retry-After."""
    assert response.status_code == 429
    text = response.get_data(as_text=True)
    assert "Too many requests" in text and words in text and "Nothing was stored" in text
    wait = int(response.headers["Retry-After"])
    assert wait >= 1
    assert f"Wait {wait} second" in text
    assert_security_headers(response)


def test_too_many_entries_in_one_game_are_answered_429_and_stored_nothing(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_ENTRIES="4 per minute")
    table = started(client)  # entries 1 and 2
    assert table.post("draw", {}).status_code == 303  # 3
    assert table.post("draw", {}).status_code == 303  # 4
    seq = table.seq()
    refused = table.post("draw", {})
    assert_too_many(refused, "Too many entries were sent for this game")
    assert "<html" in refused.get_data(as_text=True)
    assert table.seq() == seq
    other = started(client)
    assert other.post("draw", {}).status_code == 303, "the limit counts each game on its own"


def test_htmx_gets_the_429_as_a_fragment_in_the_alert_area(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_ENTRIES="2 per minute")
    table = started(client, htmx=True)
    refused = table.post("draw", {})
    assert_too_many(refused, "Too many entries")
    assert refused.headers["HX-Retarget"] == "#alerts"
    assert "<html" not in refused.get_data(as_text=True)


def test_too_many_new_games_from_one_address(make_client: Callable[..., FlaskClient]) -> None:
    client = make_client(RATELIMIT_NEW_GAMES="2 per minute")
    page = client.get("/games/new").get_data(as_text=True)
    form = form_for(page, "/games/new")
    preset = form.data(form.button(name="load"), preset="fives-up")
    for _ in range(3):  # showing another preset's defaults starts nothing and is not counted
        assert client.post("/games/new", data=preset).status_code == 200
    start = form.data(form.button(name="start"), player1="Ann", player2="Bob", leader="table")
    assert client.post("/games/new", data=start).status_code == 303
    assert client.post("/games/import", data={"text": "{}"}).status_code == 422
    assert_too_many(
        client.post("/games/new", data=start), "Too many games were started or imported"
    )
    neighbour = {"REMOTE_ADDR": "198.51.100.7"}
    assert client.post("/games/new", data=start, environ_base=neighbour).status_code == 303


def test_too_many_unknown_game_links_from_one_address(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_UNKNOWN_KEYS="4 per minute")
    table = new_game(client, ["Ann", "Bob"])
    missing_watch = MissingKey.replace("/games/", "/watch/")
    assert client.get(MissingKey).status_code == 404
    assert client.get(missing_watch).status_code == 404
    assert client.get("/games/not-a-key").status_code == 404, "shaped wrong: counted too"
    for _ in range(5):
        assert client.get(table.url).status_code == 200, "only answers 'no such game' count"
    assert client.get(f"{MissingKey}/play").status_code == 404, "a wrong method, no such game"
    assert_too_many(client.get(missing_watch), "links to games that do not exist")
    assert_too_many(client.get("/clubs/" + "A" * 22), "links to games that do not exist")
    # Only guessing is stopped: the real games behind the same address (a club's router)
    # still answer, and can still be played.
    assert client.get(table.url).status_code == 200
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code == 303
    assert client.get("/").status_code == 200
    other = {"REMOTE_ADDR": "198.51.100.7"}
    assert client.get(MissingKey, environ_base=other).status_code == 404


def test_a_club_night_starts_forty_games_in_a_minute_behind_one_router(
    make_client: Callable[..., FlaskClient],
) -> None:
    """The default limit on new games from one address (60 a minute) leaves a club room for
    a night's tables, each started from its own phone behind the same router."""
    client = make_client(RATELIMIT_WRITES="1000 per second")  # a test starts them at once
    for number in range(40):
        new_game(client, [f"Ann {number}", "Bob"])  # fails on anything but a 303


def test_every_write_counts_against_the_address(make_client: Callable[..., FlaskClient]) -> None:
    client = make_client(RATELIMIT_WRITES="4 per minute")
    table = new_game(client, ["Ann", "Bob"])  # 1 POST
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code == 303
    assert client.post(f"{MissingKey}/draw", data={"version": "0"}).status_code == 404
    assert table.play("6-6").status_code == 303
    assert_too_many(table.post("draw", {}), "Too many changes were sent from your address")
    assert client.get(table.url).status_code == 200, "reading is not a write"


def test_forwarded_for_is_ignored_without_the_proxy_setting(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_UNKNOWN_KEYS="2 per minute")
    statuses = [
        client.get(MissingKey, headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
        for n in range(3)
    ]
    assert statuses == [404, 404, 429]


def test_behind_the_proxy_each_forwarded_client_has_its_own_limit(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_UNKNOWN_KEYS="2 per minute", PROXY_FIX=1)

    def probe(address: str) -> int:
        return client.get(MissingKey, headers={"X-Forwarded-For": address}).status_code

    assert [probe("203.0.113.1") for _ in range(3)] == [404, 404, 429]
    assert probe("203.0.113.2") == 404
    # A client naming itself before the proxy's entry is still counted by the proxy's.
    assert probe("198.51.100.5, 203.0.113.1") == 429


def test_ipv6_clients_are_counted_by_their_64_network(
    make_client: Callable[..., FlaskClient],
) -> None:
    client = make_client(RATELIMIT_UNKNOWN_KEYS="2 per minute")

    def probe(address: str) -> int:
        return client.get(MissingKey, environ_base={"REMOTE_ADDR": address}).status_code

    assert probe("2001:db8:1:2::1") == 404
    assert probe("2001:db8:1:2::ffff") == 404
    assert probe("2001:db8:1:2:abcd::9") == 429
    assert probe("2001:db8:1:3::1") == 404


def test_limits_can_be_turned_off(make_client: Callable[..., FlaskClient]) -> None:
    client = make_client(RATELIMIT_ENABLED=False, RATELIMIT_UNKNOWN_KEYS="1 per minute")
    assert {client.get(MissingKey).status_code for _ in range(5)} == {404}


def test_a_bad_limit_setting_is_a_clear_error_at_start() -> None:
    with pytest.raises(ValueError, match="RATELIMIT_ENTRIES"):
        create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "RATELIMIT_ENTRIES": "lots"}
        )


class Clock:
    """A stand-in for the ``time`` module the in-memory limit store reads, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        """The current fake time."""
        return self.now


def test_a_play_every_second_for_an_hour_is_never_limited(
    make_client: Callable[..., FlaskClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the default limits, 3,600 entries a second apart into one game all pass, and
    only a burst faster than any table (11 in one second) is refused."""
    client = make_client()
    clock = Clock()
    monkeypatch.setattr("limits.storage.memory.time", clock)
    app = client.application
    assert app.extensions[EXTENSION].enabled
    entries = 0

    @app.post("/games/<key>/tick")
    @route(changes_game=True)  # counted like an entry, as its route says
    def tick(key: str) -> Response:
        nonlocal entries
        entries += 1
        return Response("", 204)

    for _ in range(3600):
        assert client.post("/games/abc/tick").status_code == 204
        clock.now += 1.0
    assert entries == 3600
    burst = [client.post("/games/abc/tick").status_code for _ in range(11)]
    assert burst == [204] * 10 + [429]


class NamedStorage(MemoryStorage):
    """An in-memory limit store under its own URL scheme, to see which store the app uses."""

    STORAGE_SCHEME = ["testnamed"]  # noqa: RUF012


def test_the_limit_store_is_named_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "x")
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_STORAGE_URI", "testnamed://")
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_UNKNOWN_KEYS", "5 per minute")
    app = create_app()
    assert app.config["RATELIMIT_STORAGE_URI"] == "testnamed://"
    assert isinstance(app.extensions[EXTENSION].storage, NamedStorage)
    assert app.config["RATELIMIT_UNKNOWN_KEYS"] == "5 per minute"


class DownStorage(MemoryStorage):
    """A limit store that cannot be reached, like a Redis server that is restarting."""

    STORAGE_SCHEME = ["testdown"]  # noqa: RUF012

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Fail as a lost connection does."""
        raise ConnectionError("the limit store is down")

    def get(self, key: str) -> int:
        """Fail as a lost connection does."""
        raise ConnectionError("the limit store is down")

    def check(self) -> bool:
        """Still down."""
        return False


def test_tables_play_on_while_the_limit_store_is_down(
    make_client: Callable[..., FlaskClient],
) -> None:
    """Entries still pass, and are still counted (in memory) until the store is back."""
    client = make_client(RATELIMIT_STORAGE_URI="testdown://", RATELIMIT_ENTRIES="4 per minute")
    table = started(client)
    assert table.post("draw", {}).status_code == 303
    assert table.post("draw", {}).status_code == 303
    assert_too_many(table.post("draw", {}), "Too many entries")


# -- compression ----------------------------------------------------------------------------


def test_pages_are_gzipped_when_the_browser_accepts_it(client: FlaskClient) -> None:
    plain = client.get("/games/new")
    assert "Content-Encoding" not in plain.headers
    zipped = client.get("/games/new", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert len(zipped.data) < len(plain.data) / 2
    html = gzip.decompress(zipped.data).decode()
    assert html.split('"X-CSRFToken"')[0] == plain.get_data(as_text=True).split('"X-CSRFToken"')[0]
    assert_security_headers(zipped)


def test_fragments_and_static_files_are_compressed(client: FlaskClient) -> None:
    table = new_game(client, ["Ann", "Bob"])
    fragment = client.get(
        table.url, headers={"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br"}
    )
    assert fragment.headers["Content-Encoding"] == "br"
    assert page_seq(brotli.decompress(fragment.data).decode()) == 0
    url = static_url(client, "vendor/htmx-2.0.11.min.js")
    script = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert script.headers["Content-Encoding"] == "br"
    assert brotli.decompress(script.data).startswith(b"var htmx")


def test_static_files_answer_304_to_the_etag_of_their_compressed_copy(
    client: FlaskClient,
) -> None:
    url = static_url(client, "vendor/htmx-2.0.11.min.js")
    accepts = {"Accept-Encoding": "br"}
    first = client.get(url, headers=accepts)
    etag = first.headers["ETag"]
    assert etag.endswith(':br"')
    again = client.get(url, headers={**accepts, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["ETag"] == etag


def test_a_view_answering_304_itself_matches_the_compressed_etag(
    make_client: Callable[..., FlaskClient],
) -> None:
    """A poll that answers "not changed" from a version number, without building the page,
    still matches what the browser sends back after a compressed answer."""
    client = make_client()
    app = client.application
    built: list[int] = []

    @app.get("/poll-like")
    def poll_like() -> Response:
        if request.if_none_match.contains("v7"):
            response = Response(status=304)
        else:
            built.append(1)
            response = Response("<p>" + "the table " * 200 + "</p>", mimetype="text/html")
        response.set_etag("v7")
        return response

    accepts = {"Accept-Encoding": "gzip"}
    first = client.get("/poll-like", headers=accepts)
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag == '"v7:gzip"'
    again = client.get("/poll-like", headers={**accepts, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["ETag"] == etag, "the browser keeps the ETag it has"
    assert_security_headers(again)
    plain = client.get("/poll-like", headers={"If-None-Match": '"v7"'})
    assert plain.status_code == 304 and plain.headers["ETag"] == '"v7"'
    assert built == [1], "the page was built once; both conditional requests skipped it"
    changed = client.get("/poll-like", headers={**accepts, "If-None-Match": '"v6:gzip"'})
    assert changed.status_code == 200 and built == [1, 1]


def test_every_change_sent_to_a_game_is_counted_against_that_game(app: Flask) -> None:
    """Every POST route under a game's edit link says it changes that game (so the per-game
    limit counts it), and every watch route says it is one: a new route cannot be forgotten."""
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            said = route_of(rule.endpoint)
            if "key" in rule.arguments and rule.rule.startswith("/games/"):
                assert said.changes_game == ("POST" in (rule.methods or ())), rule.rule
            if rule.rule.startswith(("/watch/", "/clubs/watch/")):
                assert said.watch, rule.rule
            if said.entry:
                assert said.changes_game, rule.rule


def test_an_address_stores_a_bounded_number_of_games_a_day(
    make_client: Callable[..., FlaskClient],
) -> None:
    """A club import of many games counted one game: within the limits an address could
    store half a gigabyte a day. Every game stored counts; past the limit, starting or
    importing more is refused, and a refused import counts nothing."""
    client = make_client(RATELIMIT_STORED_GAMES="5 per day")
    club = client.post("/clubs/new", data={"name": "C"}).headers["Location"]
    records = [write_record(play_game(Setup.create(["Ann", "Bob"], "all-fives", {"target": 60}),
                                      random.Random(seed)), every_rule=True)
               for seed in range(4)]  # fmt: skip
    body = "".join(json.dumps(record) + "\n" for record in records)
    sent = client.post(
        f"{club}/import",
        data={"records": (io.BytesIO(body.encode()), "games.jsonl")},
        content_type="multipart/form-data",
    )
    assert sent.status_code == 303
    refused = client.post(
        f"{club}/import",
        data={"records": (io.BytesIO(body.encode()), "games.jsonl")},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 422, "the same games again: refused, and not counted"
    new_game(client, ["Ann", "Bob"])  # the fifth game stored
    assert_too_many(
        client.post("/games/new", data={"player1": "Cy", "player2": "Di", "leader": "table"}),
        "Too many games were stored from your address",
    )


@pytest.mark.parametrize("setting", ["RATELIMIT_UNKNOWN_KEYS", "RATELIMIT_STORED_GAMES"])
def test_the_limits_counted_by_hand_are_checked_at_start_too(
    make_app: Callable[..., Flask], setting: str
) -> None:
    with pytest.raises(ValueError, match=setting):
        make_app(**{setting: "lots"})
