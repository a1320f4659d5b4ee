"""Every address the site builds is the one Werkzeug builds, with its URL builders compiled
once per process (``scorekeeper.web.routes.SiteRule``) rather than once per app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import AnyConverter, IntegerConverter, Map, PathConverter, Rule

from scorekeeper.web.data.doors import KeyConverter
from scorekeeper.web.routes import SiteRule
from tests.support.server import fresh_app

KEY = "AbCdEfGhIjKlMnOpQrSt-_"


def _app(database: Path) -> Flask:
    return fresh_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})


def _sample(converter: Any) -> Any:
    """A value of the kind ``converter`` takes in an address."""
    if isinstance(converter, IntegerConverter):
        return 7
    if isinstance(converter, AnyConverter):
        return sorted(converter.items)[-1]
    if isinstance(converter, PathConverter):
        return "a folder/a file.txt"
    if isinstance(converter, KeyConverter):
        return KEY
    return "Ann & Bob"


def _values(rule: Rule, query: bool) -> dict[str, Any]:
    """A value for each part of ``rule``, and with ``query`` one it has no part for (which
    goes in the query string)."""
    values = {name: _sample(c) for name, c in rule._converters.items()}
    return {**values, "next": "/games?a=1 2"} if query else values


def _addresses(app: Flask) -> list[tuple[str, str] | None]:
    """Every rule of ``app`` built with and without a value for the query string."""
    rules = app.url_map.iter_rules()
    return [rule.build(_values(rule, query)) for rule in rules for query in (False, True)]


def test_every_address_is_the_one_werkzeug_builds(tmp_path: Path) -> None:
    app = _app(tmp_path / "site.sqlite")
    ours = list(app.url_map.iter_rules())
    assert all(isinstance(rule, SiteRule) for rule in ours)
    plain = Map(converters=app.url_map.converters)
    for rule in ours:
        plain.add(Rule(rule.rule, endpoint=rule.endpoint, defaults=rule.defaults))
    werkzeugs = list(plain.iter_rules())
    assert len(werkzeugs) == len(ours)
    for mine, werkzeugs_own in zip(ours, werkzeugs, strict=True):
        for query in (False, True):
            values = _values(mine, query)
            built = mine.build(values)
            assert built is not None, mine
            assert built == werkzeugs_own.build(values), mine


def test_a_second_app_compiles_no_url_builder(tmp_path: Path) -> None:
    """The second app of a process builds the same addresses with the builders the first one
    compiled: none is added (Werkzeug writing each rule's builder as Python source and
    compiling it was most of the time an app took to start)."""
    first = _app(tmp_path / "one.sqlite")
    compiled = len(SiteRule._builders)
    assert compiled >= len(list(first.url_map.iter_rules()))
    second = _app(tmp_path / "two.sqlite")
    assert len(SiteRule._builders) == compiled
    assert _addresses(second) == _addresses(first)
