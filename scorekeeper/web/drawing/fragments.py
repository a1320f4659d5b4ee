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

from collections.abc import Callable, Hashable
from functools import lru_cache

from flask import Flask
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


def init_app(app: Flask) -> None:
    """Offer ``kept`` to templates."""
    app.add_template_global(keeper(app), "kept")
