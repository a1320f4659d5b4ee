"""Safe to host: security headers on every response, ``no-store`` on every page that carries
an edit key, the session cookie (sealed, its flags, never written for another site's
request), the proxy setting, and a refusal of forms sent from other sites.

Settings (in ``instance/config.py`` or the environment with the ``SCOREKEEPER_`` prefix):

``PROXY_FIX``
    How many proxies stand in front of the app (0, the default: none). With 1, the client's
    address and the scheme (http or https) are read from the ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` headers the proxy sets; without it those headers are ignored, so a
    client cannot pick its own address to slip past the rate limits.
``SESSION_COOKIE_SECURE``
    Force the session cookie's ``Secure`` flag. Without it the flag is set whenever the request
    came over HTTPS (directly, or through a proxy named by ``PROXY_FIX``), so the same settings
    work over plain HTTP on a home network and over HTTPS on a club server.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from flask import Flask, Response, abort, has_request_context, request
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.web.data.loaded import WATCH
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.routes import requested

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Only this site's own files run, style or load: no inline script, style attribute or eval."""

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # The game links are the secret: never tell another site which page a visitor came from.
    "Referrer-Policy": "no-referrer",
    # frame-ancestors for browsers too old to read it.
    "X-Frame-Options": "DENY",
}
"""The headers every response carries."""

session_json_serializer = TaggedJSONSerializer()
"""How Flask writes a session as JSON (tuples, bytes, markup, dates kept)."""

CROSS_SITE = frozenset({"cross-site", "same-site"})
CROSS_SITE_EXPLANATION = _l(
    "This form was sent from another site, not from a page of this one: nothing was stored."
)


def add_security_headers(response: Response) -> Response:
    """Give ``response`` the security headers (a header the view set itself is kept)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def from_another_site() -> bool:
    """Whether the request is a change sent by another site's page.

    Browsers name where a request comes from in ``Sec-Fetch-Site``; one too old to send it
    still names the sending page's origin in ``Origin`` on a POST, whose host name (the port
    left aside: a proxy may pass the host without it) must be this site's."""
    if request.method in SAFE_METHODS:
        return False
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site.lower() in CROSS_SITE
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    return origin == "null" or urlsplit(origin).hostname != urlsplit(f"//{request.host}").hostname


def keep_keys_out_of_caches(response: Response) -> Response:
    """``Cache-Control: no-store`` on every answer that carries an edit key: behind one (a
    game's or a club's edit link), or listing them (My games). A shared phone's Back button
    or a cache on the way must not show them again once the page is gone."""
    route, values = requested()
    key = values.get("key")
    behind_edit_key = isinstance(key, str) and not route.watch and values.get("door") != WATCH
    if route.shows_keys or behind_edit_key:
        response.headers["Cache-Control"] = "no-store"
    return response


def refuse_cross_site_writes() -> None:
    """Refuse a change sent by another site's page (rule: writes come from this site only).

    This stands in for Flask-WTF's check of the ``Referer`` header over HTTPS, which cannot
    work here: the pages tell browsers to send no referrer at all.
    """
    if from_another_site():
        abort(403, description=CROSS_SITE_EXPLANATION)


def _sealing_key(secret: str | bytes) -> bytes:
    """A Fernet key of its own made from the app's secret key (never the signing key itself)."""
    raw = secret.encode() if isinstance(secret, str) else secret
    return base64.urlsafe_b64encode(hashlib.sha256(b"scorekeeper session sealing\0" + raw).digest())


class SealedSerializer:
    """The session as the cookie holds it: encrypted and authenticated (Fernet: AES and an
    HMAC, with the time it was written), so the edit keys it remembers cannot be read off the
    phone or a log, only sent back. A cookie written before sessions were sealed (signed, in
    the clear) is still read, and sealed the next time the session changes."""

    def __init__(self, secrets: list[str | bytes], signed: URLSafeTimedSerializer) -> None:
        self.fernet = MultiFernet([Fernet(_sealing_key(secret)) for secret in secrets])
        self.signed = signed

    def dumps(self, data: dict[str, Any]) -> str:
        return self.fernet.encrypt(session_json_serializer.dumps(data).encode()).decode()

    def loads(self, value: str, max_age: int | None = None) -> Any:
        try:
            opened = self.fernet.decrypt(value.encode(), ttl=max_age)
        except InvalidToken:
            return self.signed.loads(value, max_age=max_age)  # BadSignature: a new session
        return session_json_serializer.loads(opened.decode())


class SessionCookies(SecureCookieSessionInterface):
    """Flask's cookie sessions, sealed (:class:`SealedSerializer`); the cookie is ``Secure``
    when the page came over HTTPS, and it lasts: a phone keeps its games and its forms' CSRF
    secret across browser restarts."""

    def get_signing_serializer(self, app: Flask) -> SealedSerializer | None:  # type: ignore[override]
        """The sealing serializer, with every secret key (the current first), and Flask's
        signed one to read cookies from before sealing."""
        signed = super().get_signing_serializer(app)
        if signed is None or not app.secret_key:
            return None
        secrets = [app.secret_key, *reversed(app.config.get("SECRET_KEY_FALLBACKS") or [])]
        return SealedSerializer(secrets, signed)

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when SESSION_COOKIE_SECURE says so or the request's scheme is https."""
        forced = bool(app.config["SESSION_COOKIE_SECURE"])
        return forced or (has_request_context() and request.is_secure)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Never for another site's request: it came without the visitor's cookie (SameSite),
        so the session it made (a form token for the page refusing it) is a new, empty one,
        and sending it would replace the visitor's, and their games with it."""
        if has_request_context() and from_another_site():
            return
        super().save_session(app, session, response)

    def get_expiration_time(self, app: Flask, session: SessionMixin) -> datetime:
        """Every session cookie lasts PERMANENT_SESSION_LIFETIME after it last changed.

        Without an expiry the browser drops the cookie when it closes (phones close it often)
        and with it the secret every CSRF token of an open page is checked against. The cookie
        is still sent only when the session changes, never with every answer.
        """
        return datetime.now(UTC) + app.permanent_session_lifetime


def proxies(app: Flask) -> int:
    """How many proxies the PROXY_FIX setting trusts (0: none); a clear error if it is not a count."""
    value = app.config.get("PROXY_FIX", 0)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if value is True:
        value = 1
    if value is False or value is None:
        value = 0
    if not isinstance(value, int) or value < 0:
        raise ValueError(
            f"PROXY_FIX must be the number of proxies in front of the app, not {value!r}"
        )
    return value


def init_app(app: Flask) -> None:
    """Headers on every response, cookie flags, the proxy setting and the cross-site refusal."""
    app.config.setdefault("PROXY_FIX", 0)
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    if not app.config.get("SESSION_COOKIE_SAMESITE"):
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    # Flask-WTF would demand a Referer header on HTTPS; refuse_cross_site_writes replaces it.
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.session_interface = SessionCookies()
    count = proxies(app)
    if count:
        # Wrapping wsgi_app is how Flask's documentation applies middleware; mypy sees a
        # method replaced.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]
    app.before_request(refuse_cross_site_writes)
    app.after_request(add_security_headers)
    app.after_request(keep_keys_out_of_caches)
