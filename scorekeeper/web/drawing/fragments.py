"""Fragments of a page that depend on nothing but what they show, rendered once and kept.

A table page repeats pieces that rarely change: a tray of 28 tile buttons (each one of a
handful of states) and a summary of every finished hand, which never changes again. Long
games made the page longer with every hand, and rendering those pieces through Jinja was a
large share of every entry's answer. ``templates/_fragments.html`` holds them as ordinary
macros; templates call them through ``kept("macro", *arguments)``, which renders a macro once
per distinct tuple of (hashable) arguments and keeps the markup in a bounded LRU cache of the
app. A macro used this way may read its arguments (and the page's language) only: no request, no ``url_for``, no CSRF
token, nothing that differs between two calls with the same arguments.

With template auto-reload on (``flask run --debug``) nothing is kept, so edits show at once.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable
from functools import lru_cache

from flask import Flask, g, request
from markupsafe import Markup

from scorekeeper.web import languages

TEMPLATE = "_fragments.html"
KEPT = 4096
"""Fragments kept per app: a few KB each at most, so a few MB when full."""


def keeper(app: Flask) -> Callable[..., Markup]:
    """The ``kept`` template global of ``app``: a macro of _fragments.html, rendered once."""

    def render(language: str, name: str, *arguments: Hashable) -> Markup:
        macro = getattr(app.jinja_env.get_template(TEMPLATE).module, name)
        return Markup(macro(*arguments))

    remembered = lru_cache(maxsize=KEPT)(render)

    def kept(name: str, *arguments: Hashable) -> Markup:
        # Kept per language: the same fragment reads differently in each.
        if app.jinja_env.auto_reload:
            return render(languages.current(), name, *arguments)
        return remembered(languages.current(), name, *arguments)

    return kept


# -- parts an entry's answer may leave where they are ---------------------------------------

PARTS_HEADER = "X-Table-Parts"
"""The request header in which static/js/parts.js names the parts the page holds:
``id=fingerprint`` pairs, separated by spaces."""
PART_TAG = re.compile(r"\s*<([a-z][a-z0-9-]*)")
"""The opening of a part's markup: its element's name."""
MOST_PARTS = 64
"""More pairs than a table has parts is not a page of this site: none is trusted."""


def answer_with_parts() -> None:
    """Let this request's table leave out the parts the page says it holds, unchanged (an
    htmx entry's answer after a stored change: static/js/parts.js)."""
    pairs = request.headers.get(PARTS_HEADER, "").split()
    if len(pairs) > MOST_PARTS:
        return
    held = dict(pair.partition("=")[::2] for pair in pairs)
    g.held_parts = held


FINGERPRINTS_KEPT = 2048
"""Parts up to this many characters (a tile, a hand's summary) have their fingerprints kept."""


def _hash(markup: str) -> str:
    """A short hash of ``markup``."""
    return hashlib.blake2b(markup.encode(), digest_size=6).hexdigest()


_kept_hash = lru_cache(maxsize=KEPT)(_hash)


def _fingerprint(markup: str) -> str:
    """A short hash of ``markup``. A small fragment's is kept: ``kept`` hands out the same
    string each time, whose hash Python keeps, so it is looked up, not hashed again. A large
    one (the layout picture) is hashed each time rather than held in memory."""
    return _kept_hash(markup) if len(markup) <= FINGERPRINTS_KEPT else _hash(markup)


def part(name: str, markup: str) -> Markup:
    """``markup`` (one element) as a part of the table named ``name``: its element carries
    ``id=name`` (unless it has that id already) and ``data-part``, a fingerprint of what it
    shows, after its other attributes.

    A phone with a slow CPU spends most of an entry's wait swapping and painting the table;
    most of it (the tray's tiles, the layout after a draw, the finished hands) is what the
    page already shows.
    In an answer allowed to (:func:`answer_with_parts`), a part the page holds with the same
    fingerprint is sent empty, marked ``hx-preserve``: htmx keeps the element the page has in
    its place, so it is neither sent, parsed nor built again. Every other answer (a whole
    page, a refusal, a stale page, a live view) carries every part whole."""
    found = PART_TAG.match(markup)
    if found is None:
        raise ValueError(f"part {name!r} is not one element: {markup[:40]!r}")
    tag = found.group(1)
    fingerprint = _fingerprint(markup)
    held = g.get("held_parts")
    if held is not None and held.get(name) == fingerprint:
        return Markup('<{} id="{}" data-part="{}" hx-preserve="true"></{}>').format(
            tag, name, fingerprint, tag
        )
    # The part's attributes go last in its opening tag: the markup before them is as it was.
    end = markup.index(">", found.end())
    if markup[end - 1] == "/":
        end -= 1
    opening = markup[:end]
    named = Markup(' id="{}"').format(name)
    mark = Markup(' data-part="{}"').format(fingerprint)
    if named not in opening:
        mark = named + mark
    return Markup(opening) + mark + Markup(markup[end:])


def init_app(app: Flask) -> None:
    """Offer ``kept`` and ``part`` to templates."""
    app.add_template_global(keeper(app), "kept")
    app.add_template_global(part, "part")
