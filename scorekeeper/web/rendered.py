"""A game's pages rendered once per version and shared by every phone that asks for them.

Why: every phone following a game asks for it every 1.5 seconds (``static/js/live.js``). When
the game changes, each of them gets the new table, and each answer rendered the whole table
again, the same text for all of them: with three phones watching a table, a change was
rendered three times. Now the first phone to ask renders it; the others are given its text.

What makes two answers the same text, and so one entry here (the caller's ``key``): the
template, the door's key (which names the game and the door, and is written in the page's
links), the language, and anything else the page reads from the request (a picked tile, the
pegs board). The game's **version** is not in the key but kept with the text: it only grows,
so a kept page of an older version is replaced by the first newer one, never shown for it.

The one part of a page that differs between two phones asking with the same key is the CSRF
token of each phone's session, in the edit door's entry forms. A kept page has a mark in its
place (rendered with ``csrf_token()`` answering the mark), and each answer gets its own
session's token put in, the token Flask-WTF gives that request anywhere else.

Behind each process's kept pages, the server's worker processes share the pages that carry
no token, as files in the instance folder (rendered_files.py): a page one worker renders is
read by the others instead of rendered again. ``SHARED_PAGES`` (``SCOREKEEPER_SHARED_PAGES``)
turns it off; it is off by default for apps made with ``TESTING``, many to a process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app, g
from flask_wtf.csrf import generate_csrf

from scorekeeper.web import rendered_files
from scorekeeper.web.bounded import Bounded, capacity_setting

KEPT = 1024
"""Pages kept per app by default, one per view of a live game: a table is 35-70 KB of text, so
at most about 70 MB when full. The least recently asked for go first. The setting
``KEPT_PAGES`` (``SCOREKEEPER_KEPT_PAGES``) changes it: about two per live table (its watch
view, its edit view), more where phones follow in several languages."""

_HOLE = f"csrf-{secrets.token_hex(16)}"
"""What ``csrf_token()`` answers while a page to keep is rendered: random per process, so
that no text a player types can be taken for it."""
_RENDERING = "_rendering_to_keep"
_EXTENSION = "scorekeeper.rendered"
_FLIGHTS = "scorekeeper.rendering"
_FILES = "scorekeeper.rendered.files"
_log = logging.getLogger(__name__)
_WAIT_FOR_AHEAD = 5.0
"""Seconds a request waits for the same page another one is rendering, at most."""

Render = Callable[[], tuple[int, str]]
"""Renders a page: the version of the game it shows, and its text."""


def _kept(app: Flask) -> Bounded[Hashable, tuple[int, str]]:
    kept: Bounded[Hashable, tuple[int, str]] = app.extensions[_EXTENSION]
    return kept


def once(key: Hashable, version: int, render: Render) -> tuple[int, str]:
    """The page under ``key`` at ``version`` (or newer): kept, or rendered by ``render()``
    now and kept for the phones that ask next. Returns the version it shows and its text,
    with this request's CSRF token in it."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    kept, flights = _kept(app), _flights(app)
    found = None if app.jinja_env.auto_reload else kept.get(key)
    if found is None or found[0] < version:
        with flights.lock:
            ahead = flights.rendering.get(key)
            if ahead is None:
                mine = flights.rendering[key] = threading.Event()
        if ahead is not None:
            # Another request of this process renders this page now (its database reads let
            # others run under the gevent worker): wait for its text rather than render it
            # again, and render only if it did not come, or came older.
            ahead.wait(_WAIT_FOR_AHEAD)
            found = kept.get(key)
            if found is None or found[0] < version:
                found = _obtain(app, key, version, render, kept)
        else:
            try:
                found = _obtain(app, key, version, render, kept)
            finally:
                with flights.lock:
                    del flights.rendering[key]
                mine.set()
    shown, text = found
    return shown, text.replace(_HOLE, generate_csrf()) if _HOLE in text else text


def peek(app: Flask, key: Hashable, version: int) -> str | None:
    """The page kept under ``key`` at ``version`` or newer, if it is kept and needs no CSRF
    token (a watch link's): without a request, for a stream that pushes it."""
    if app.jinja_env.auto_reload:
        return None
    kept = _kept(app)
    found = kept.get(key)
    if found is None or found[0] < version:
        # Another worker of the server may have rendered it: its file, if it is whole.
        files = _files(app)
        page = files.page(key) if files is not None else None
        shared = files.read(page, version) if files is not None and page is not None else None
        if not isinstance(shared, tuple):
            return None
        found = shared
        kept.put(key, found, replaces=lambda older: older[0] <= found[0])
    if _HOLE in found[1]:
        return None
    return found[1]


def _obtain(
    app: Flask,
    key: Hashable,
    version: int,
    render: Render,
    kept: Bounded[Hashable, tuple[int, str]],
) -> tuple[int, str]:
    """The page under ``key`` at ``version``: from another worker of the server, or rendered
    here (and shared with the others when it carries no CSRF token)."""
    files = _files(app)
    page = files.page(key) if files is not None else None
    if files is None or page is None:
        return _render(key, render, kept)
    try:
        found = files.wait_or_claim(page, version)
    except OSError as failure:  # the folder unwritable, the disk full: render, share nothing
        _log.warning("Shared pages: %s", failure)
        found = False
    if isinstance(found, tuple):
        shared = found
        kept.put(key, shared, replaces=lambda older: older[0] <= shared[0])
        return shared
    if not found:
        return _render(key, render, kept)
    try:
        shown, text = _render(key, render, kept)
        try:
            files.write(page, {version, shown}, shown, None if _HOLE in text else text)
        except OSError as failure:
            _log.warning("Shared pages: %s", failure)
    finally:
        with contextlib.suppress(OSError):
            files.release(page, version)
    return shown, text


def _render(
    key: Hashable, render: Render, kept: Bounded[Hashable, tuple[int, str]]
) -> tuple[int, str]:
    """Render a page to keep (``csrf_token()`` answering the mark) and keep it."""
    depth = g.get(_RENDERING, 0)
    setattr(g, _RENDERING, depth + 1)
    try:
        found = render()
    finally:
        setattr(g, _RENDERING, depth)
    shown = found[0]
    kept.put(key, found, replaces=lambda older: older[0] <= shown)
    return found


@dataclass
class _Flights:
    """The pages being rendered now in this process, each with an event set once it is kept."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    rendering: dict[Hashable, threading.Event] = field(default_factory=dict)


def _flights(app: Flask) -> _Flights:
    flights: _Flights = app.extensions[_FLIGHTS]
    return flights


def _csrf_token() -> str:
    """The template global ``csrf_token()``: the mark while a page to keep is rendered."""
    return _HOLE if g.get(_RENDERING) else generate_csrf()


def _files(app: Flask) -> rendered_files.Files | None:
    """The pages shared by the server's workers, made on first use; None when off."""
    holder: _Holder = app.extensions[_FILES]
    if not holder.on:
        return None
    if holder.files is None:
        with holder.lock:
            if holder.files is None and holder.on:
                sources = (Path(app.root_path) / (app.template_folder or "templates"), _PACKAGE)
                space = rendered_files.space(
                    app.config["SQLALCHEMY_DATABASE_URI"], _code(*sources), os.getppid()
                )
                try:
                    holder.files = rendered_files.Files(
                        Path(holder.folder), space, _kept(app).capacity
                    )
                except OSError as failure:  # this process renders its own pages, as before
                    _log.warning("Shared pages off: %s", failure)
                    holder.on = False
    return holder.files


_PACKAGE = Path(__file__).resolve().parents[1]
"""The site's modules (scorekeeper/): what renders a page, with the templates."""


@lru_cache(maxsize=4)
def _code(*sources: Path) -> str:
    """The code that renders pages, by its files' sizes and times: read once per process."""
    return rendered_files.code(list(sources))


@dataclass
class _Holder:
    on: bool
    folder: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    files: rendered_files.Files | None = None


def forget(app: Flask) -> None:
    """Forget every kept page of ``app`` (tests)."""
    _kept(app).clear()


def init_app(app: Flask) -> None:
    """Keep pages per app, and answer ``csrf_token()`` in templates (after CSRFProtect)."""
    app.extensions[_EXTENSION] = Bounded(capacity_setting(app, "KEPT_PAGES", KEPT))
    app.extensions[_FLIGHTS] = _Flights()
    on = app.config.setdefault("SHARED_PAGES", not app.testing)
    if isinstance(on, str):  # from the environment: SCOREKEEPER_SHARED_PAGES=false
        on = on.strip().lower() not in ("0", "false", "no", "off", "")
    folder = app.config.setdefault(
        "SHARED_PAGES_FOLDER", os.path.join(app.instance_path, "rendered")
    )
    app.extensions[_FILES] = _Holder(bool(on), str(folder))
    app.jinja_env.globals["csrf_token"] = _csrf_token
