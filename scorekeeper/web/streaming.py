"""How this server holds an event stream open: for how long, how often it says it is still
there, and whether it can at all (a gevent worker or the threaded development server can; a
sync worker cannot, and its pages poll). A leaf: the live view of a game (``sharing``) and a
club night's board (``nights.board``) both stream by it.
"""

from __future__ import annotations

import sys

from flask import current_app, request

STREAM_SECONDS = 300
"""How long one event stream stays open. The browser opens it again by itself (after the
``retry`` it was sent), and the key is checked again: a stream never outlives its game's
deletion by more than this, and a proxy's idle timeout never cuts one off unseen."""
HEARTBEAT_SECONDS = 20
"""A comment line sent when nothing changed for this long, so that proxies keep the line open
and a phone that went away is noticed (the write fails) and its stream let go where the
connection is not watched; and the game's version read again from the database, so that a
change whose news this process missed is sent at the latest this long after."""
RETRY_MS = 3000


def gevent_patched() -> bool:
    """Whether this process runs under gevent, its sockets patched (gunicorn's gevent worker)."""
    if "gevent" not in sys.modules:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("socket"))


def can_hold_open() -> bool:
    """Whether this server can keep a request open without holding up others: a gevent worker
    (the hosting recipe, and ``flask serve``), or Flask's threaded development server. A sync
    worker cannot (a stream would take the whole worker), so its pages poll. ``LIVE_PUSH``
    set True or False decides instead."""
    setting = current_app.config.get("LIVE_PUSH", "auto")
    if setting in (True, False):
        return bool(setting)
    if gevent_patched():
        return True
    server = str(request.environ.get("SERVER_SOFTWARE", ""))
    return bool(request.environ.get("wsgi.multithread")) and server.startswith("Werkzeug/")
