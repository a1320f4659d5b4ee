"""Rate limits (Flask-Limiter): on changes, on new games, on the entries of one game, on links
to games that do not exist (counted where "no such game" is answered), and on the games an
address stores (each game of an import counted). A request over a limit is answered 429,
with a page (or an htmx fragment) that says how long to wait, and a ``Retry-After`` header.

The limits are far above what a table does (a play every second for an hour passes) and are
settings, so a club can raise them. ``RATELIMIT_STORAGE_URI`` names where the counts are kept:
``memory://`` (the default: each server process counts on its own) or a shared store such as
``redis://localhost:6379`` for a server with several workers; while that store cannot be
reached the counts are kept in memory. ``RATELIMIT_ENABLED = False`` turns every limit off.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import time
from collections.abc import Callable

from flask import Flask, current_app, g, has_request_context, request
from flask.wrappers import Response
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded
from limits import RateLimitItem, parse_many

from scorekeeper.web import languages
from scorekeeper.web.data.games import game_stored
from scorekeeper.web.htmx import ErrorAnswer, render_error
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.languages import ngettext
from scorekeeper.web.routes import Route, keyed_prefixes, route_of

STORED_COUNT = "stored_games"
"""The request's count of the games it stored (``flask.g``), and the limiter's key for it."""

DEFAULT_LIMITS = {
    # Every POST from one address, whatever it changes: several tables may share an address.
    "RATELIMIT_WRITES": "30 per second; 200000 per day",
    # Starting, importing or rematching a game, from one address: a club night starts 30
    # tables or more within a minute behind one router.
    "RATELIMIT_NEW_GAMES": "60 per minute; 600 per day",
    # The entries (plays, draws, undo, ...) of one game, whoever sends them.
    "RATELIMIT_ENTRIES": "10 per second; 20000 per day",
    # Answers "no such game" under /games/, /watch/ and /clubs/, to one address: guessing
    # links. Past it only more unknown keys are refused: real games still answer everyone.
    "RATELIMIT_UNKNOWN_KEYS": "60 per minute",
    # The games stored from one address, each game of an import counted: what an address
    # can make the database hold in a day (a game is some 3.5 KB).
    "RATELIMIT_STORED_GAMES": "2000 per day",
}
"""The limits and their defaults; each setting is a Flask-Limiter limit string."""

WHAT = {
    "RATELIMIT_WRITES": _l("Too many changes were sent from your address (at most %(limit)s)."),
    "RATELIMIT_NEW_GAMES": _l(
        "Too many games were started or imported from your address (at most %(limit)s)."
    ),
    "RATELIMIT_ENTRIES": _l("Too many entries were sent for this game (at most %(limit)s)."),
    "RATELIMIT_UNKNOWN_KEYS": _l(
        "Too many links to games that do not exist were opened from your address "
        "(at most %(limit)s)."
    ),
    "RATELIMIT_STORED_GAMES": _l(
        "Too many games were stored from your address (at most %(limit)s)."
    ),
}
"""What was too many, by setting; ``limit`` is the limit passed ("30 per second")."""
ANY = _l("Too many requests came from your address (at most %(limit)s).")
"""What was too many when the limit is none of :data:`WHAT`'s."""
EXTENSION = "scorekeeper.limiter"


def client_address() -> str:
    """The address the limits count by: the client's IP (from the proxy only with PROXY_FIX).

    An IPv6 client is counted by its /64 network, since one household or phone gets a whole
    /64 and could otherwise take a fresh address for every request.
    """
    text = request.remote_addr or "unknown"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _this_route() -> Route:
    """What the route this request reached is (nothing, when it reached none)."""
    return route_of(request.endpoint)


def game_bucket() -> str:
    """The count of one game's entries, named by a hash so keys never reach the limit store."""
    key = str((request.view_args or {}).get("key", ""))
    return "game-" + hashlib.sha256(key.encode()).hexdigest()[:24]


def _route_or_unrouted() -> str:
    return request.endpoint or "unrouted"


def _not_a_write() -> bool:
    return request.method != "POST"


def starts_a_game() -> bool:
    """Whether the request starts a game: a new game, an import, a finished game's rematch, a
    new club or a club's new game or import (as their routes say)."""
    return request.method == "POST" and _this_route().starts_games


def _not_a_new_game() -> bool:
    return not starts_a_game()


def _not_an_entry() -> bool:
    """Not a change sent to one game (its entries, rematch, deleting), as its route says."""
    return request.method != "POST" or not _this_route().changes_game


def under_keys() -> bool:
    """At an address that carries a game's or a club's key (well shaped or not)."""
    return request.path.startswith(keyed_prefixes())


def guessing_refused() -> ErrorAnswer | None:
    """Count an answer "no such game" (or club) against the client's address; past
    RATELIMIT_UNKNOWN_KEYS, the 429 to send instead.

    Counted where the answer is known, not before every request: one client guessing keys
    behind a club's router must not lock the honest tables behind it out of their own games,
    which are found and never counted. A store that fails counts nothing (as the others)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    if not limiter.enabled or not under_keys():
        return None
    address = client_address()
    items = parse_many(str(current_app.config["RATELIMIT_UNKNOWN_KEYS"]))
    try:
        strategy = limiter.limiter
        over = [item for item in items if not strategy.hit(item, "scorekeeper", "keys", address)]
        if not over:
            return None
        reset = strategy.get_window_stats(over[0], "scorekeeper", "keys", address).reset_time
    except Exception:  # the store is down: count nothing, as RATELIMIT_SWALLOW_ERRORS says
        return None
    return _too_many("RATELIMIT_UNKNOWN_KEYS", over[0], reset)


def _stored_items() -> list[RateLimitItem]:
    return parse_many(str(current_app.config["RATELIMIT_STORED_GAMES"]))


def stored_games_refused() -> ErrorAnswer | None:
    """Before a request that starts games: the 429 to send if its address has stored as many
    games as RATELIMIT_STORED_GAMES allows (an import of 500 counts 500)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    if not limiter.enabled or not starts_a_game():
        return None
    address = client_address()
    try:
        strategy = limiter.limiter
        for item in _stored_items():
            if not strategy.test(item, "scorekeeper", STORED_COUNT, address):
                stats = strategy.get_window_stats(item, "scorekeeper", STORED_COUNT, address)
                return _too_many("RATELIMIT_STORED_GAMES", item, stats.reset_time)
    except Exception:  # the store is down: count nothing, as RATELIMIT_SWALLOW_ERRORS says
        return None
    return None


def _one_more_stored(_sender: object = None) -> None:
    """A game was stored (games.game_stored): one more for this request to count."""
    if has_request_context():
        setattr(g, STORED_COUNT, g.get(STORED_COUNT, 0) + 1)


def count_stored(response: Response) -> Response:
    """After a request that stored games (counted in ``g`` as each is stored): count them,
    every one, unless the request failed (an import refused stores nothing)."""
    count = g.pop(STORED_COUNT, 0)
    limiter: Limiter = current_app.extensions[EXTENSION]
    if count and limiter.enabled and response.status_code < 400:
        address = client_address()
        with contextlib.suppress(Exception):
            for item in _stored_items():
                limiter.limiter.hit(item, "scorekeeper", STORED_COUNT, address, cost=count)
    return response


def _starts_or_tries(response: Response) -> bool:
    """Every new-game or import POST counts except a 200 without a redirect: the new-game form
    shown again with another preset's defaults, which starts nothing."""
    if response.status_code == 429:
        return False
    return response.status_code != 200 or "HX-Redirect" in response.headers


def _found(response: Response) -> bool:
    """An entry counts unless the game was not found (counted as an unknown key) or refused."""
    return response.status_code not in (404, 429)


def _checked(app: Flask, setting: str) -> str:
    """The limit ``setting`` says, or a clear error at start if it says none."""
    text = str(app.config[setting])
    try:
        if not parse_many(text):
            raise ValueError(text)
    except ValueError:
        raise ValueError(
            f'{setting} must be a limit such as "10 per second; 20000 per day", not {text!r}'
        ) from None
    return text


def _limit(
    app: Flask,
    setting: str,
    exempt: Callable[[], bool],
    deduct: Callable[[Response], bool] | None = None,
    key: Callable[[], str] | None = None,
) -> ApplicationLimit:
    """One setting's limits, shared by every route under its own scope."""
    text = _checked(app, setting)
    return ApplicationLimit(
        text,
        scope=setting.removeprefix("RATELIMIT_").lower(),
        key_function=key,
        exempt_when=exempt,
        deduct_when=deduct,
    )


def handle_rate_limited(error: RateLimitExceeded) -> ErrorAnswer:
    """A request over a limit: 429 with how long to wait, in words and in ``Retry-After``."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    current = limiter.current_limit
    reset = time.time() + 1 if current is None else current.reset_at
    scope = error.limit.scope if isinstance(error.limit.scope, str) else ""
    return _too_many("RATELIMIT_" + scope.upper(), error.limit.limit, reset)


def _too_many(setting: str, rule: RateLimitItem, reset: float) -> ErrorAnswer:
    """The 429 page of a limit (``setting``'s ``rule``) that opens again at ``reset``."""
    wait = max(1, math.ceil(reset - time.time()))
    what = WHAT.get(setting, ANY)
    limit = _per(languages.number(rule.amount), rule.get_expiry())
    explanation = " ".join(
        (
            str(what) % {"limit": limit},
            ngettext(
                "Nothing was stored. Wait %(num)d second, then try again.",
                "Nothing was stored. Wait %(num)d seconds, then try again.",
                wait,
            ),
        )
    )
    body, code, headers = render_error(429, explanation)
    headers["Retry-After"] = str(wait)
    return body, code, headers


def _per(amount: str, seconds: int) -> str:
    """``amount`` per the window of ``seconds``: "30 per second", "300 per 5 minutes"."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        if days == 1:
            return _("%(amount)s per day", amount=amount)
        return ngettext(
            "%(amount)s per %(num)d day", "%(amount)s per %(num)d days", days, amount=amount
        )
    if seconds % 3600 == 0:
        hours = seconds // 3600
        if hours == 1:
            return _("%(amount)s per hour", amount=amount)
        return ngettext(
            "%(amount)s per %(num)d hour", "%(amount)s per %(num)d hours", hours, amount=amount
        )
    if seconds % 60 == 0:
        minutes = seconds // 60
        if minutes == 1:
            return _("%(amount)s per minute", amount=amount)
        return ngettext(
            "%(amount)s per %(num)d minute",
            "%(amount)s per %(num)d minutes",
            minutes,
            amount=amount,
        )
    if seconds == 1:
        return _("%(amount)s per second", amount=amount)
    return ngettext(
        "%(amount)s per %(num)d second", "%(amount)s per %(num)d seconds", seconds, amount=amount
    )


def init_app(app: Flask) -> None:
    """Count requests against the limits and answer 429 past them."""
    for setting, default in DEFAULT_LIMITS.items():
        app.config.setdefault(setting, default)
    for counted_here in ("RATELIMIT_UNKNOWN_KEYS", "RATELIMIT_STORED_GAMES"):
        _checked(app, counted_here)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_STRATEGY", "fixed-window")
    # A shared store that goes down (Redis restarting) must not take the club's tables with
    # it: count in this process's memory until it is back, and log rather than fail.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    limiter = Limiter(
        key_func=client_address,
        application_limits=[
            _limit(app, "RATELIMIT_WRITES", _not_a_write),
            _limit(app, "RATELIMIT_NEW_GAMES", _not_a_new_game, _starts_or_tries),
            _limit(app, "RATELIMIT_ENTRIES", _not_an_entry, _found, key=game_bucket),
        ],
        headers_enabled=False,
        key_prefix="scorekeeper",
        # Flask-Limiter skips requests that match no route; a malformed key, or a wrong
        # method on a game's address, must still count (as a write, or a "no such game").
        request_identifier=_route_or_unrouted,
    )
    limiter.init_app(app)
    app.extensions[EXTENSION] = limiter
    app.before_request(stored_games_refused)
    app.after_request(count_stored)
    game_stored.connect(_one_more_stored, weak=False)
    app.register_error_handler(RateLimitExceeded, handle_rate_limited)
