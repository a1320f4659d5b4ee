"""What a route is, said where the route is declared.

Site-wide concerns treat routes by what they are, not by how their URLs are spelled: the rate
limits count a game's changes per game and the games a client starts, a refused form token
brings the table back after an entry, and a wrong method on a watch link looks like a missing
game. Each route says which of these it is with :func:`route`, beside its ``@bp.get`` or
``@bp.post``, and those concerns read it with :func:`requested`. A new route is taught once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from flask import Request, current_app, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import Map, Rule

View = TypeVar("View", bound=Callable[..., Any])


@dataclass(frozen=True)
class Route:
    """What a route is, as the site-wide concerns need to know it."""

    entry: bool = False
    """One of the table's entries: a refused form token gives the table back to enter again."""
    changes_game: bool = False
    """Changes one game, named by its edit key (``key``): counted against that game's limit."""
    starts_games: bool = False
    """Starts or imports games (or a club): counted against the client's new-games limit."""
    game_form: bool = False
    """The new-game form: a refused form token gives the form back with what was typed."""
    watch: bool = False
    """Behind a watch link: nothing can be sent to it, and a wrong method is answered as a
    missing key would be."""
    shows_keys: bool = False
    """Shows edit links that its URL does not hold (My games): kept out of every cache, as
    every page behind an edit key is."""
    max_body: int | None = None
    """The largest request body it takes, in bytes, if not the site's ``MAX_CONTENT_LENGTH``:
    read by :class:`SiteRequest` before anything reads the body (the form token's check
    included)."""


IMPORT_BODY = 16 * 1024 * 1024
"""The largest import: a batch of a club's games or a night's record (a whole club's JSON
Lines is a few megabytes, some 12 KB a game); every other request stays within the app's
1 MiB."""

PLAIN = Route()
"""A route that is none of these (and what a request that reaches no route gets)."""


def route(**facts: Any) -> Callable[[View], View]:
    """Say what the decorated view is: ``@route(entry=True, changes_game=True)``."""
    said = Route(**facts)

    def mark(view: View) -> View:
        view.route = said  # type: ignore[attr-defined]
        return view

    return mark


def route_of(endpoint: str | None) -> Route:
    """What the route of ``endpoint`` is (``PLAIN`` for none, or one that said nothing)."""
    view = current_app.view_functions.get(endpoint or "")
    return getattr(view, "route", PLAIN)


class SiteRule(Rule):
    """Werkzeug's URL rule, whose builder (the function ``url_for`` calls) is compiled once
    per process for each shape of rule, not once per app.

    Werkzeug writes each rule's builder as Python source and compiles it when the rule is
    added: 25 of the 28 ms an app took to start, every time an app is made (the tests make
    about a thousand). The builder depends only on the rule's parts, its defaults and whether
    it appends the values it does not use as a query; it reads the rule's converters through
    the rule it is bound to. So one compiled builder serves every rule of the same shape, in
    every app of this process."""

    _builders: ClassVar[dict[tuple[Any, ...], Callable[..., tuple[str, str]]]] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        shape = (
            self.rule,
            tuple(self._trace),
            repr(sorted((self.defaults or {}).items())),
            tuple((name, type(c).__qualname__) for name, c in self._converters.items()),
            append_unknown,
        )
        builder = self._builders.get(shape)
        if builder is None:
            builder = self._builders[shape] = super()._compile_builder(append_unknown)
        return builder


class SiteRequest(Request):
    """Flask's request, whose body limit is its route's (``Route.max_body``): one limit per
    route, known from the URL alone, whoever reads the body first; and whose body is a form or
    nothing (see :attr:`is_json`)."""

    def _route_max_body(self) -> int | None:
        return route_of(self.endpoint).max_body if self.url_rule is not None else None

    @property
    def max_content_length(self) -> int | None:
        own = self._route_max_body()
        return own if own is not None else Request.max_content_length.fget(self)  # type: ignore[attr-defined]

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value

    @property
    def max_form_memory_size(self) -> int | None:
        own = self._route_max_body()
        return own if own is not None else Request.max_form_memory_size.fget(self)  # type: ignore[attr-defined]

    @max_form_memory_size.setter
    def max_form_memory_size(self, value: int | None) -> None:
        self._max_form_memory_size = value

    @property
    def is_json(self) -> bool:
        """Never: the site takes forms, not JSON. Flask-WTF reads a JSON body as a form when
        the request says it is one, and a body that was not a JSON object broke the form, in
        the page refusing it too (a 500); read as a form, it is an empty one, refused."""
        return False


def requested() -> tuple[Route, Mapping[str, Any]]:
    """What the route this request reaches is, with its URL's values (``key``, ``door``).

    A request with a wrong method reaches no route: it gets the route its address has for
    another method, so that a watch link answers a POST as it answers a missing key.
    """
    if request.url_rule is not None:
        return route_of(request.endpoint), request.view_args or {}
    adapter = request_ctx.url_adapter
    error = request.routing_exception
    if adapter is None or not isinstance(error, MethodNotAllowed) or not error.valid_methods:
        return PLAIN, {}
    try:
        endpoint, values = adapter.match(method=next(iter(error.valid_methods)))
    except HTTPException:
        return PLAIN, {}
    return route_of(str(endpoint)), values


_ANY = re.compile(r"^<any\((?P<choices>[^)]*)\):\w+>$")


@lru_cache(maxsize=8)
def _keyed_prefixes(url_map: Map) -> tuple[str, ...]:
    prefixes: set[str] = set()
    for rule in url_map.iter_rules():
        if "key" not in rule.arguments:
            continue
        before = rule.rule.split("<key:", 1)[0]
        heads = [""]
        for part in before.strip("/").split("/"):
            choices = _ANY.match(part)
            names = [c.strip() for c in choices["choices"].split(",")] if choices else [part]
            heads = [f"{head}/{name}" for head in heads for name in names]
        prefixes.update(f"{head}/" for head in heads)
    return tuple(sorted(prefixes))


def keyed_prefixes() -> tuple[str, ...]:
    """The beginnings of every address that carries a key (``/games/``, ``/watch/``,
    ``/clubs/`` ...), read from the routes: a path under one is asking for a game or a club,
    even when its key is shaped wrong and it reaches no route."""
    return _keyed_prefixes(current_app.url_map)
