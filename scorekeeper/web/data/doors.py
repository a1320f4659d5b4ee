"""How a browser reaches a game: by a secret key in the URL, behind one of two doors.

``/games/<edit key>`` may change the game, ``/watch/<watch key>`` may only look. Keys that
are not even shaped like a key never reach the database (the ``key`` URL converter). The
games a browser has started, imported or opened are remembered in its own signed session
cookie, never in a server-wide list.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, session, url_for
from werkzeug.routing import BaseConverter

from scorekeeper.web.data import clubs, games
from scorekeeper.web.data.clubs import ClubNotFound
from scorekeeper.web.data.games import NotFound
from scorekeeper.web.data.loaded import EDIT, WATCH, Door, Loaded
from scorekeeper.web.data.models import KEY_PATTERN, GameRow
from scorekeeper.web.languages import lazy_gettext as _l

NO_GAME = _l("There is no game at this link. Check that the link was copied whole.")
DOORS = f"<any({EDIT}, {WATCH}):door>"
"""The URL part naming the door, for routes served behind both (``/<door>/<key>/log``)."""
REMEMBERED = 50
"""How many games a browser remembers; the oldest is forgotten first."""
_SESSION_KEY = "games"


class KeyConverter(BaseConverter):
    """A game key in a URL: 22 URL-safe characters (anything else is a 404 at once)."""

    regex = KEY_PATTERN


def load_or_404(key: str, kind: str = EDIT) -> Loaded:
    """The game behind door ``kind`` with ``key``; a 404 that does not say which keys exist."""
    try:
        return games.load(key, kind)
    except NotFound:
        abort(404, description=NO_GAME)


# -- the games this browser knows -------------------------------------------------------------


def remembered() -> list[str]:
    """The keys (edit or watch) of the games this browser has used, newest first."""
    keys = session.get(_SESSION_KEY, [])
    if not isinstance(keys, list):
        return []
    return [key for key in keys if isinstance(key, str)]


def remember(row: GameRow, kind: str) -> None:
    """Add a game to this browser's games; its edit link wins over its watch link.

    The cookie changes only when something new is remembered, so opening a game again
    sends no new cookie.
    """
    keys = remembered()
    key = row.edit_key if kind == EDIT else row.watch_key
    if key in keys or (kind == WATCH and row.edit_key in keys):
        return
    keys = [known for known in keys if known != row.watch_key]
    session[_SESSION_KEY] = [key, *keys][:REMEMBERED]


def forget(key: str) -> bool:
    """Drop the game with ``key`` from this browser's games; whether it was there."""
    keys = remembered()
    if key not in keys:
        return False
    session[_SESSION_KEY] = [known for known in keys if known != key]
    return True


def my_games() -> list[tuple[Door, GameRow]]:
    """This browser's games, each behind the strongest door it knows, newest change first."""
    keys = remembered()
    rows = games.games_with_keys(keys)
    return [(Door.of(row, EDIT if row.edit_key in keys else WATCH), row) for row in rows]


def hides_key(key: str, watch: bool) -> bool:
    """Whether a wrong method at an address with ``key`` must look like a missing game (404,
    not 405).

    Nothing can be sent to a watch link, and a key that does not exist must not be told apart
    from one that does; only the edit link of a real game or club may answer 405.
    """
    if watch:
        return True
    try:
        games.find(key, EDIT)
    except NotFound:
        try:
            clubs.find_club(key)
        except ClubNotFound:
            return True
    return False


def table_url(door: Door, **values: Any) -> str:
    """The game's table behind ``door``: the edit page or the watch page."""
    endpoint = "games.table" if door.editable else "sharing.watch"
    return url_for(endpoint, key=door.key, **values)


def init_app(app: Flask) -> None:
    """Teach the URL map the ``key`` converter (before any route uses it)."""
    app.url_map.converters["key"] = KeyConverter
    app.add_template_global(table_url)
