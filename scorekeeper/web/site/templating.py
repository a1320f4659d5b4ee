"""The site's Jinja environment: Flask's, with a faster look at a template's globals.

A template that imports another (``{% import "_dominoes.html" as dominoes %}``) asks, for each
import in each render, whether the importing page has globals the imported one lacks; Jinja
keeps a template's globals as a ``ChainMap`` (the template's own over the environment's), and
that question, asked of a ``ChainMap``'s keys one name at a time, is slow enough to show in
an entry's answer (the table imports ten templates; the figure is in bench/README.md, "Saying
a word"). The globals here answer it with one dict's keys, and stay a live view of the
environment's globals as Jinja's.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import KeysView, MutableMapping
from typing import Any

from flask.templating import Environment as FlaskEnvironment


class _Globals(ChainMap[str, Any]):
    """A template's globals: Jinja's ``ChainMap``, whose keys are one dict's keys."""

    def keys(self) -> KeysView[str]:
        merged: dict[str, Any] = {}
        for layer in reversed(self.maps):
            merged.update(layer)
        return merged.keys()


class Environment(FlaskEnvironment):
    """Flask's environment (templates found through the app and its blueprints) with
    :class:`_Globals` for every template's globals."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return _Globals({} if d is None else d, self.globals)
